// Distance, intersect and time of impact on adversarial input (gjk_adversarial.hpp): 22,000
// cases, 2,000 per family, each against the double-precision oracle on the same float
// points. Every case must meet the documented bounds; scripts/gjk_stress.sh runs a million.
#include "gjk_adversarial.hpp"

#include <doctest/doctest.h>

#include <string>

namespace adv = glide::test::adversarial;

TEST_CASE("adversarial inputs: distance bounds, |pa - pb|, overlap verdicts and TOI against the oracle") {
  constexpr std::uint32_t k_cases = 22'000;
  std::array<double, adv::k_family_count> worst{};
  int failures = 0, toi_checked = 0, unproven = 0;
  for (std::uint32_t i = 0; i < k_cases; ++i) {
    const adv::Case c = adv::make_case(7u, i);
    const adv::Errors e = adv::check(c, i % 4 == 0);
    worst[static_cast<std::size_t>(c.family)] = std::max(worst[static_cast<std::size_t>(c.family)], e.worst());
    toi_checked += e.checked_toi;
    unproven += e.unproven;
    if (!e.ok() && ++failures <= 10) {
      INFO("case " << i << " family " << adv::family_name(c.family) << " scale " << c.scale << " true " << e.distance
                   << " reported " << e.reported << " below " << e.below << " above " << e.above << " points "
                   << e.points << " verdict " << e.wrong_verdict << " intersect " << e.wrong_intersect << " status "
                   << e.not_converged << " toi " << e.toi_late);
      CHECK(e.ok());
    }
  }
  for (int f = 0; f < adv::k_family_count; ++f)
    MESSAGE(std::string(adv::family_name(f))
            << ": worst error " << worst[static_cast<std::size_t>(f)] << " of the tolerance");
  CHECK(failures == 0);
  CHECK(toi_checked > 250);
  CHECK(unproven == 0); // every case judged
}
