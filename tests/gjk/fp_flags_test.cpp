// Queries give the same bits whatever the flags of the file that includes glide: the same
// fixed-seed queries, through the public API, compiled here with the library's flags and in
// fp_flags_fast.cpp with -O3 -mfma -mavx2 -ffp-contract=fast, must agree bit for bit. Every
// built-in shape pair (distance cold and warm-started, intersect, penetration), the time of
// impact against every built-in shape, and, on GCC, a shape defined by the test itself.
#include "fp_flags_queries.hpp"

#include <doctest/doctest.h>

#include <glm/gtc/quaternion.hpp>

#include <cmath>
#include <random>
#include <string>

using namespace glide::test::fp_flags;
using glide::gjk::ConvexHull;

namespace {

constexpr int k_samples = 12;

glm::vec3 random_point(std::mt19937& rng, float scale) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  return {scale * u(rng), scale * u(rng), scale * u(rng)};
}

ShapeData random_shape(std::mt19937& rng, const glm::vec3& at, float scale, int hulls) {
  std::uniform_real_distribution<float> u(0.2f, 1.f);
  std::normal_distribution<float> g;
  ShapeData d;
  for (glm::vec3& p : d.p) p = at + random_point(rng, scale);
  d.half = {scale * u(rng), scale * u(rng), scale * u(rng)};
  d.radius = 0.3f * scale * u(rng);
  d.pose.rotation = glm::normalize(glm::quat(g(rng), g(rng), g(rng), g(rng)));
  d.pose.translation = at + random_point(rng, scale);
  d.hull = static_cast<int>(rng() % static_cast<unsigned>(hulls));
  return d;
}

Inputs make_inputs() {
  std::mt19937 rng(1907);
  Inputs in;
  for (int n : {8, 16, 64, 300}) {
    std::vector<glm::vec3> points;
    for (int i = 0; i < n; ++i) points.push_back(random_point(rng, 1.f));
    in.hulls.emplace_back(points);
  }
  for (int i = 0; i < 12; ++i) in.cloud.push_back(random_point(rng, 1.f));
  for (int s = 0; s < k_samples; ++s) {
    // Near the origin, where the built-in shapes without a pose sit, and some 1e4 m away.
    const glm::vec3 at = s % 4 == 3 ? glm::vec3(1e4f, -2e3f, 7e3f) : random_point(rng, 1.5f);
    const float scale = s % 3 == 0 ? 0.05f : 1.f;
    in.a.push_back(random_shape(rng, at, scale, static_cast<int>(in.hulls.size())));
    in.b.push_back(random_shape(rng, at + random_point(rng, scale), scale, static_cast<int>(in.hulls.size())));
    in.motion.push_back(random_point(rng, 3.f));
  }
  return in;
}

std::string describe(const Word& w) {
  static const char* const queries[] = {"distance",    "warm distance", "intersect",
                                        "penetration", "toi (CA)",      "toi (bisection)"};
  const std::string a = w.a < 0 ? "Ellipsoid (user)" : k_kind_names[w.a];
  return std::string(queries[w.query]) + " " + a + " vs " + k_kind_names[w.b] + ", sample " + std::to_string(w.sample);
}

bool cpu_has_fma() {
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2");
#else
  return true; // the fast file was compiled without x86 flags
#endif
}

} // namespace

TEST_CASE("queries return the library's bits when the includer compiles with -O3 -mfma -ffp-contract=fast") {
  if (!cpu_has_fma()) {
    MESSAGE("this CPU lacks FMA or AVX2: the -mfma file compiled, its run is skipped");
    return;
  }
  // The other file's flags really contract (otherwise this test proves nothing): 0.1f * 10.f
  // rounds to exactly 1 in two roundings and not in one.
  const float fused = multiply_add_probe(0.1f, 10.f, -1.f);
#if defined(__x86_64__) || defined(__i386__)
  CHECK(fused != 0.f);
#endif

#if defined(__clang__)
  // Clang ignores #pragma clang fp contract under -ffp-contract=fast: a shape of the user's is
  // compiled with the user's flags there (docs/gjk.md). The built-in shapes are the library's.
  constexpr bool user_shape = false;
  MESSAGE("clang: the user-defined shape is not compared (its queries follow the includer's flags)");
#else
  constexpr bool user_shape = true;
#endif
  const Inputs in = make_inputs();
  const std::vector<Word> reference = run_all(in, user_shape);
  const std::vector<Word> fast = run_all_fast(in, user_shape);
  REQUIRE(reference.size() == fast.size());
  CHECK(reference.size() > 60000); // 66,528 words without the user-defined shape (Clang)
  int mismatches = 0;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    if (reference[i].bits == fast[i].bits) continue;
    if (++mismatches <= 5)
      MESSAGE(describe(reference[i]) << ": bits " << reference[i].bits << " here, " << fast[i].bits << " contracted");
  }
  CHECK(mismatches == 0);
}
