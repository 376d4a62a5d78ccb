// The adversarial GJK cases of gjk_adversarial.hpp in bulk: `gjk_stress [cases] [seed]`
// (default 1,000,000, seed 1) prints, per family, the worst errors as fractions of the
// documented tolerances and the count of cases outside them; exit status 1 if any.
#include "gjk_adversarial.hpp"

#include <cstdio>
#include <cstdlib>

namespace adv = glide::test::adversarial;

int main(int argc, char** argv) {
  const long count = argc > 1 ? std::atol(argv[1]) : 1'000'000;
  const auto seed = static_cast<std::uint32_t>(argc > 2 ? std::atol(argv[2]) : 1);
  int verbose = argc > 3 ? std::atoi(argv[3]) : 0; // print the first failing cases
  struct Worst {
    long cases = 0, unproven = 0, failures = 0, verdicts = 0, statuses = 0, tois = 0, toi_checked = 0;
    double below = 0.0, above = 0.0, points = 0.0;
    long worst_case = -1;
  };
  std::array<Worst, adv::k_family_count> w{};
  for (long i = 0; i < count; ++i) {
    const adv::Case c = adv::make_case(seed, static_cast<std::uint32_t>(i));
    const adv::Errors e = adv::check(c, i % 16 == 0);
    Worst& f = w[static_cast<std::size_t>(c.family)];
    ++f.cases;
    if (e.worst() > std::max({f.below, f.above, f.points})) f.worst_case = i;
    f.below = std::max(f.below, e.below);
    f.above = std::max(f.above, e.above);
    f.points = std::max(f.points, e.points);
    f.failures += !e.ok();
    f.unproven += e.unproven;
    f.verdicts += e.wrong_verdict || e.wrong_intersect;
    f.statuses += e.not_converged;
    f.tois += e.toi_late;
    f.toi_checked += e.checked_toi;
    if (verbose > 0 && !e.ok()) {
      --verbose;
      std::printf("case %ld %s a=%d b=%d scale %.3g true %.9g reported %.9g below %.3g above %.3g points %.3g verdict "
                  "%d/%d status %d toi %d (t %.9g slack %.3g distance before %.3g)\n",
                  i, adv::family_name(c.family), static_cast<int>(c.a.kind), static_cast<int>(c.b.kind), c.scale,
                  e.distance, e.reported, e.below, e.above, e.points, e.wrong_verdict, e.wrong_intersect,
                  e.not_converged, e.toi_late, e.toi_t, e.toi_slack, e.toi_distance_before);
    }
  }
  std::printf("%-20s %8s %9s %10s %10s %10s %8s %8s %8s %10s %8s\n", "family", "cases", "unproven", "below", "above",
              "|pa-pb|", "verdict", "status", "toi_late", "toi_cases", "failed");
  // unproven: the oracle could not certify its answer to 1e-7 of the scale: not judged
  long failed = 0;
  for (int i = 0; i < adv::k_family_count; ++i) {
    const Worst& f = w[static_cast<std::size_t>(i)];
    std::printf("%-20s %8ld %9ld %10.3g %10.3g %10.3g %8ld %8ld %8ld %10ld %8ld\n", adv::family_name(i), f.cases,
                f.unproven, f.below, f.above, f.points, f.verdicts, f.statuses, f.tois, f.toi_checked, f.failures);
    failed += f.failures;
  }
  std::printf("errors are fractions of the tolerances (1 = at the bound); seed %u\n", seed);
  return failed == 0 ? 0 : 1;
}
