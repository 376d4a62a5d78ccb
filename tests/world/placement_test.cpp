// The arithmetic every move runs: the placed vertices and their bounds, the turn's rate, and
// the re-coding of a moved slot, each against a double-precision or brute-force oracle.
#include "bvh.hpp"
#include "placement.hpp"

#include <glide/gjk/convex_hull.hpp>

#include <doctest/doctest.h>
#include <glm/gtc/quaternion.hpp>

#include <cmath>
#include <random>
#include <vector>

using namespace glide;

namespace {

glm::dquat to_double(const glm::quat& q) { return {q.w, q.x, q.y, q.z}; }

glm::quat random_rotation(std::mt19937& rng) {
  std::normal_distribution<float> gauss;
  return glm::normalize(glm::quat(gauss(rng), gauss(rng), gauss(rng), gauss(rng)));
}

} // namespace

TEST_CASE("atan2_positive is within 2.5e-7 relative of atan2 over the quadrant") {
  std::mt19937 rng(81);
  std::uniform_real_distribution<float> unit(0.f, 1.f), exponent(-30.f, 30.f);
  double worst = 0.0;
  for (int i = 0; i < 200000; ++i) {
    float y = unit(rng), x = unit(rng);
    if (i % 4 == 1) y *= std::exp2(exponent(rng)); // far from 45 degrees, either way
    if (i % 4 == 2) x *= std::exp2(exponent(rng));
    if (i % 4 == 3) x = y * (1.f + 1e-3f * (unit(rng) - 0.5f)); // near the reduction's edges
    if (i == 0) y = 0.f;
    if (i == 4) x = 0.f;
    const double expected = std::atan2(static_cast<double>(y), static_cast<double>(x));
    const double got = detail::atan2_positive(y, x);
    const double error = std::abs(got - expected) / std::max(expected, 1e-30);
    worst = std::max(worst, error);
    REQUIRE(error <= 2.5e-7);
  }
  MESSAGE("atan2_positive: worst relative error ", worst);
  CHECK(detail::atan2_positive(0.f, 1.f) == 0.f);
}

TEST_CASE("angular_velocity: axis times angle over dt, the short way, for small and large turns") {
  std::mt19937 rng(82);
  std::uniform_real_distribution<float> unit(-1.f, 1.f), step(1.f / 360.f, 1.f / 15.f);
  for (int i = 0; i < 50000; ++i) {
    const glm::quat from = random_rotation(rng);
    // Turns from a hair to half a turn, either sign of the quaternion.
    const float angle = (i % 3 == 0 ? 1e-5f : i % 3 == 1 ? 0.3f : 3.1f) * std::abs(unit(rng));
    const glm::vec3 axis = glm::normalize(glm::vec3{unit(rng), unit(rng), unit(rng)} + glm::vec3(0.f, 1e-3f, 0.f));
    glm::quat to = glm::normalize(glm::angleAxis(angle, axis) * from);
    if (i % 2 == 1) to = -to;
    const float dt = step(rng);
    // The oracle: the same turn in double.
    glm::dquat turn = to_double(to) * glm::conjugate(to_double(from));
    if (turn.w < 0.0) turn = -turn;
    const glm::dvec3 v(turn.x, turn.y, turn.z);
    const double sine = glm::length(v);
    const glm::dvec3 expected = sine > 0.0 ? v * (2.0 * std::atan2(sine, turn.w) / (sine * dt)) : glm::dvec3(0.0);
    const glm::dvec3 got(detail::angular_velocity(from, to, dt));
    // The float inputs' own rounding (a few 1e-8 rad) is what the double turn carries too.
    REQUIRE(glm::length(got - expected) <= 1e-6 * glm::length(expected) + 1e-6 / dt);
  }
  const glm::quat q = random_rotation(rng);
  CHECK(detail::angular_velocity(q, q, 0.1f) == glm::vec3(0.f));
  CHECK(detail::angular_velocity(q, -q, 0.1f) == glm::vec3(0.f)); // the same rotation
}

TEST_CASE("place: each vertex is the transform applied, and the bounds are exactly theirs") {
  std::mt19937 rng(83);
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  std::vector<glm::vec3> out;
  for (int i = 0; i < 2000; ++i) {
    std::vector<glm::vec3> points;
    const int count = 4 + i % 30;
    for (int k = 0; k < count; ++k)
      points.push_back(glm::vec3{unit(rng), unit(rng), unit(rng)} * (i % 2 ? 50.f : 0.3f));
    const gjk::ConvexHull hull(points);
    const gjk::Transform t{random_rotation(rng), 1e3f * glm::vec3{unit(rng), unit(rng), unit(rng)}};
    gjk::Aabb bounds;
    detail::place(hull, t, out, bounds);
    REQUIRE(out.size() == hull.vertices().size());
    gjk::Aabb expected_bounds;
    for (std::size_t k = 0; k < out.size(); ++k) {
      const glm::dvec3 v(hull.vertices()[k]);
      const glm::dvec3 expected = glm::dmat3(glm::mat3_cast(t.rotation)) * v + glm::dvec3(t.translation);
      REQUIRE(glm::length(glm::dvec3(out[k]) - expected) <= 1e-6 * (glm::length(expected) + 1.0));
      expected_bounds = expected_bounds.merged(out[k]);
    }
    REQUIRE(bounds.min == expected_bounds.min);
    REQUIRE(bounds.max == expected_bounds.max);
  }
}

TEST_CASE("quantize_slot: codes round outward and are the tightest or one step looser") {
  std::mt19937 rng(84);
  std::uniform_real_distribution<float> unit(-1.f, 1.f), fraction(0.f, 1.f);
  int coded = 0, resolved = 0;
  for (int i = 0; i < 20000; ++i) {
    // A node over random slots at a random scale and place, then one slot moved within it.
    const float scale = std::exp2(static_cast<float>(static_cast<int>(rng() % 40)) - 20.f);
    const glm::vec3 center = (i % 4 == 0 ? 1e4f : 10.f) * glm::vec3{unit(rng), unit(rng), unit(rng)};
    std::vector<gjk::Aabb> slots;
    for (int k = 0; k < 4; ++k) {
      const glm::vec3 c = center + scale * glm::vec3{unit(rng), unit(rng), unit(rng)};
      const glm::vec3 h = scale * 0.3f * glm::abs(glm::vec3{unit(rng), unit(rng), unit(rng)});
      slots.push_back({c - h, c + h});
    }
    detail::WideNode w{};
    w.used = 0xF;
    detail::quantize(w, slots, i % 2 == 0 ? 1.f / 16.f : 0.f);
    gjk::Aabb moved = slots[1];
    const glm::vec3 shift = 0.05f * scale * glm::vec3{unit(rng), unit(rng), unit(rng)};
    moved = {moved.min + shift, moved.max + shift};
    if (!detail::quantize_slot(w, 1, moved)) continue; // off the grid: the caller re-grids
    ++coded;
    for (int a = 0; a < 3; ++a) {
      const float o = w.origin[a], s = w.step(a);
      const int lo = w.lo[a][1], hi = w.hi[a][1];
      int tight_lo = 0, tight_hi = 255; // brute force over the 256 codes
      for (int q = 0; q < 256; ++q)
        if (detail::WideNode::decode(o, static_cast<std::uint8_t>(q), s) <= moved.min[a]) tight_lo = q;
      for (int q = 255; q >= 0; --q)
        if (detail::WideNode::decode(o, static_cast<std::uint8_t>(q), s) >= moved.max[a]) tight_hi = q;
      REQUIRE(detail::WideNode::decode(o, static_cast<std::uint8_t>(lo), s) <= moved.min[a]);
      REQUIRE(detail::WideNode::decode(o, static_cast<std::uint8_t>(hi), s) >= moved.max[a]);
      INFO("axis ", a, " origin ", o, " step ", s, " min ", moved.min[a], " max ", moved.max[a], " lo ", lo, " tight ",
           tight_lo, " hi ", hi, " tight ", tight_hi);
      // Tight only where the grid's step is at least float's spacing there; finer steps
      // decode several codes to one float, and the codes are then merely outward.
      if (s < std::ldexp(std::abs(o) + 256.f * s, -23)) continue;
      ++resolved;
      REQUIRE((lo == tight_lo || lo == tight_lo - 1));
      REQUIRE((hi == tight_hi || hi == tight_hi + 1));
    }
  }
  CHECK(coded > 10000);
  CHECK(resolved > 20000);
}
