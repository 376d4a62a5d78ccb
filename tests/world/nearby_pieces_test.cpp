// NearbyPieces against the World's own queries: sliding walks through random levels, where the
// planes and warm starts it keeps are exercised the way a character exercises them.
#include "approx.hpp"
#include "world_levels.hpp"

#include <glide/gjk/distance.hpp>
#include <glide/world/nearby_pieces.hpp>
#include <glide/world/world.hpp>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace glide;

namespace {

constexpr float k_tolerance = 1e-4f; // SweepSettings::tolerance (m)

struct VertexCloud {
  std::span<const glm::vec3> v;
  glm::vec3 support(const glm::vec3& d) const {
    return *std::max_element(v.begin(), v.end(),
                             [&](const glm::vec3& a, const glm::vec3& b) { return glm::dot(a, d) < glm::dot(b, d); });
  }
};

// Gap (m) between the capsule and what a hit touched: a piece, or the terrain under the capsule.
float gap_to(const World& world, const SweepHit& hit, const gjk::Capsule& c) {
  if (hit.target != HitTarget::piece) {
    float nearest = 1e9f;
    const gjk::Aabb box = gjk::Aabb::of_point(c.segment.a).merged(c.segment.b).expanded(c.radius + 1.f);
    world.terrain()->triangles_in(box, [&](const gjk::Triangle& t) {
      nearest = std::min(nearest, gjk::distance(c.segment, t).distance - c.radius);
    });
    return nearest;
  }
  return gjk::distance(c.segment, VertexCloud{world.world_vertices(hit.piece)}).distance - c.radius;
}

gjk::Capsule moved(gjk::Capsule c, const glm::vec3& by) {
  c.segment.a += by;
  c.segment.b += by;
  return c;
}

QueryFilter walk_filter(int walk) {
  if (walk % 3 == 1) return {.layer_mask = 1u | 2u};
  if (walk % 3 == 2) return {.layer_mask = ~0u, .accept = [](PieceId id) { return id.value % 7 != 0; }};
  return {};
}

void check_same_contacts(std::vector<Contact> got, std::vector<Contact> expected) {
  REQUIRE(got.size() == expected.size());
  const auto order = [](const Contact& a, const Contact& b) {
    if (a.target != b.target) return a.target < b.target;
    if (a.piece != b.piece) return a.piece < b.piece;
    return a.distance < b.distance;
  };
  std::sort(got.begin(), got.end(), order);
  std::sort(expected.begin(), expected.end(), order);
  for (std::size_t i = 0; i < got.size(); ++i) {
    CHECK(got[i].target == expected[i].target);
    CHECK(got[i].piece == expected[i].piece);
    CHECK_APPROX(got[i].distance, expected[i].distance, 1e-5f);
  }
}

} // namespace

TEST_CASE("NearbyPieces answers as the World along sliding walks through random levels") {
  const World world = test::random_level(901u, 20.f);
  std::mt19937 rng(902);
  std::uniform_real_distribution<float> pos(-10.f, 10.f), unit(-1.f, 1.f), speed(0.01f, 0.6f), radius(0.2f, 0.5f);
  int sweeps = 0, agreed_hits = 0, touching = 0, grazes = 0, contacts = 0;
  for (int walk = 0; walk < 120; ++walk) {
    const QueryFilter filter = walk_filter(walk);
    NearbyPieces nearby;
    const glm::vec3 start{pos(rng), pos(rng), pos(rng)};
    gjk::Capsule c{{start, start + glm::vec3(0, 1.2f, 0)}, radius(rng)};
    glm::vec3 dir = glm::normalize(glm::vec3{unit(rng), unit(rng), unit(rng)});
    for (int step = 0; step < 40; ++step) {
      const glm::vec3 motion = dir * speed(rng);
      const SweepHit expected = world.sweep_capsule(c, motion, filter);
      const SweepHit got = nearby.sweep_capsule(world, c, motion, filter, {});
      ++sweeps;
      const float length = glm::length(motion);
      if (got.hit && expected.hit && std::abs(got.fraction - expected.fraction) * length <= 2.f * k_tolerance) {
        ++agreed_hits;
        touching += expected.fraction == 0.f;
        if (got.piece == expected.piece && got.target == expected.target)
          CHECK(glm::dot(got.normal, expected.normal) > 0.99f);
      } else if (got.hit != expected.hit || got.fraction != expected.fraction) {
        // The only allowed difference: a contact the motion does not approach, skipped by its
        // plane. The capsule then ends no deeper than the tolerance into the radius.
        ++grazes;
        const SweepHit& skipped = expected.hit && (!got.hit || expected.fraction < got.fraction) ? expected : got;
        CHECK(gap_to(world, skipped, moved(c, motion * got.fraction)) >= -2.f * k_tolerance);
      }
      c = moved(c, motion * got.fraction);

      const std::span<const Contact> near = nearby.closest(world, c, 0.05f, filter, 8);
      check_same_contacts({near.begin(), near.end()}, world.closest(c, 0.05f, filter, 8));
      contacts += static_cast<int>(near.size());
      const glm::vec3 foot = c.segment.a - glm::vec3(0, c.radius, 0);
      const RayHit ray = nearby.raycast(world, foot, {0, -1, 0}, 0.5f, filter, {});
      const RayHit ray_expected = world.raycast(foot, {0, -1, 0}, 0.5f, filter);
      REQUIRE(ray.hit == ray_expected.hit);
      if (ray.hit) CHECK(std::abs(ray.t - ray_expected.t) <= 2.f * k_tolerance);

      if (got.hit) {
        // Slide: along the contact plane, sometimes back into it, sometimes away.
        const glm::vec3 along = dir - got.normal * glm::dot(dir, got.normal);
        const glm::vec3 next =
            along + 0.3f * unit(rng) * got.normal + 0.2f * glm::vec3{unit(rng), unit(rng), unit(rng)};
        if (glm::length(next) > 1e-3f) dir = glm::normalize(next);
      }
    }
  }
  // The walks touch things often enough to exercise the plane rules.
  CHECK(agreed_hits > sweeps / 5);
  CHECK(touching > 100);
  CHECK(contacts > 1000);
  CHECK(grazes <= sweeps / 50);
}

TEST_CASE("NearbyPieces gathers anew when a query leaves its box or the world changes") {
  World world;
  test::add_box(world, {-50, -1, -50}, {50, 0, 50});
  const gjk::Capsule c{{{0, 0.5f, 0}, {0, 1.5f, 0}}, 0.3f};
  NearbyPieces nearby;
  CHECK_FALSE(nearby.sweep_capsule(world, c, {1, 0, 0}, {}, {}).hit);
  CHECK(nearby.gathers() == 1);
  CHECK_FALSE(nearby.sweep_capsule(world, c, {1, 0, 0}, {}, {}).hit);
  CHECK(nearby.gathers() == 1);

  // A wall added in the way: the world's revision changed, so it is seen.
  const PieceId wall = test::add_box(world, {0.6f, 0, -1}, {0.8f, 2, 1});
  const SweepHit hit = nearby.sweep_capsule(world, c, {1, 0, 0}, {}, {});
  REQUIRE(hit.hit);
  CHECK(hit.piece == wall);
  CHECK_APPROX(hit.fraction, 0.3f, 1e-4f);
  CHECK(nearby.gathers() == 2);

  // Far away: gathered again there, and the same answer as the world.
  const gjk::Capsule far{{{30, 0.5f, 30}, {30, 1.5f, 30}}, 0.3f};
  const SweepHit down = nearby.sweep_capsule(world, far, {0, -1, 0}, {}, {});
  CHECK(nearby.gathers() == 3);
  REQUIRE(down.hit);
  // Both conservative: at most one tolerance (1e-4 m) before the exact 0.2.
  CHECK(down.fraction <= 0.2f);
  CHECK(down.fraction >= 0.2f - k_tolerance);
  CHECK(std::abs(down.fraction - world.sweep_capsule(far, {0, -1, 0}).fraction) <= k_tolerance);
  CHECK(nearby.held_box().contains(gjk::Aabb::of_point(far.segment.a).merged(far.segment.b)));
}

TEST_CASE("A world moved into the same object is gathered anew (no stale pieces)") {
  World world;
  test::add_box(world, {-50, -1, -50}, {50, 0, 50});
  test::add_box(world, {0.6f, 0, -1}, {0.8f, 2, 1}); // a wall ahead
  const gjk::Capsule c{{{0, 0.5f, 0}, {0, 1.5f, 0}}, 0.3f};
  NearbyPieces nearby;
  REQUIRE(nearby.sweep_capsule(world, c, {1, 0, 0}, {}, {}).hit);

  World open;
  test::add_box(open, {-50, -1, -50}, {50, 0, 50});
  const std::uint64_t before = world.revision();
  world = std::move(open); // same object, other content
  CHECK(world.revision() != before);
  CHECK(world.revision() != open.revision());
  CHECK_FALSE(nearby.sweep_capsule(world, c, {1, 0, 0}, {}, {}).hit);
  CHECK(nearby.gathers() == 2);
}

TEST_CASE("character_closer finds a character exactly when overlap_capsule lists one closer than the gap") {
  World world;
  test::add_box(world, {-50, -1, -50}, {50, 0, 50});
  std::mt19937 rng(20261128);
  std::uniform_real_distribution<float> unit(-1.f, 1.f), radius(0.05f, 0.6f);
  const float gap = 0.0099f, max_distance = 0.01f; // a controller's recovery gap and skin (m)
  int closer = 0, checked = 0;
  for (int round = 0; round < 400; ++round) {
    const glm::vec3 at{unit(rng), 1.f + unit(rng), unit(rng)};
    const gjk::Capsule me{{at, at + glm::vec3(0.f, 0.2f + 0.8f * (unit(rng) + 1.f), 0.f)}, radius(rng)};
    std::vector<CapsuleObstacle> others;
    for (std::uint32_t k = 0; k < 6; ++k) {
      // The first within a few gaps of touching, along a random direction; the others farther.
      const glm::vec3 dir = glm::normalize(glm::vec3(unit(rng), 0.1f * unit(rng), unit(rng)) + glm::vec3(1e-3f));
      const float r = radius(rng);
      const float offset = me.radius + r + (k == 0 ? 3.f * gap * unit(rng) : 0.5f * (unit(rng) + 1.f));
      const glm::vec3 base = me.segment.a + dir * offset + glm::vec3(0.f, 0.3f * unit(rng), 0.f);
      others.push_back({{{base, base + glm::vec3(0.f, 1.f, 0.f)}, r}, {}, k % 5 == 4 ? 2u : 1u, CharacterId{k}});
    }
    NearbyPieces nearby;
    nearby.set_characters(others);
    const QueryFilter filter{1u, {}};
    bool expected = false;
    for (const Contact& c : nearby.overlap_capsule(world, me, max_distance, filter))
      expected = expected || (c.target == HitTarget::character && c.distance < gap);
    CHECK(nearby.character_closer(me, gap, max_distance, filter) == expected);
    closer += expected;
    ++checked;
  }
  CHECK(closer > checked / 10); // the family exercises both answers
  CHECK(closer < checked * 9 / 10);
}

namespace {

bool same_bits(const Contact& a, const Contact& b) {
  return a.target == b.target && a.piece == b.piece && a.character == b.character && a.distance == b.distance &&
         a.depth == b.depth && a.point_on_piece == b.point_on_piece && a.point_on_segment == b.point_on_segment &&
         a.normal == b.normal && a.triangle == b.triangle;
}

} // namespace

TEST_CASE("closest_on_face lists what closest lists, to the bit, and tells face_normal's answers") {
  // Capsules walking on slabs (flat, tilted, far from the origin) among small pieces, terrain
  // and other characters. One NearbyPieces asks closest_on_face first, its twin closest only;
  // each step also sweeps, so the caches both keep must stay the same for the answers to.
  World world;
  std::mt19937 rng(8080);
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  std::vector<PieceId> slabs;
  std::vector<glm::vec3> tops;
  for (int k = 0; k < 6; ++k) {
    const glm::vec3 at = k == 5 ? glm::vec3(3000.f, 200.f, -2000.f) : glm::vec3(30.f * float(k) - 60.f, 0.f, 0.f);
    const glm::quat tilt = glm::angleAxis(0.3f * float(k % 3) * unit(rng), glm::normalize(glm::vec3(1, 0, 1)));
    slabs.push_back(world.add_piece(gjk::ConvexHull::box({10.f, 0.5f, 10.f}), {tilt, at}));
    tops.push_back(at + tilt * glm::vec3(0, 0.5f, 0));
  }
  for (int k = 0; k < 200; ++k) {
    const glm::vec3 at = tops[static_cast<std::size_t>(k % 6)] + glm::vec3(9.f * unit(rng), 0.3f, 9.f * unit(rng));
    world.add_piece(gjk::ConvexHull::box({0.2f + 0.3f * (unit(rng) + 1.f), 0.3f, 0.3f}), {{1, 0, 0, 0}, at});
  }
  world.set_terrain(test::wavy_terrain(), 2u); // under the first slabs, near their low sides
  world.update();

  int asked = 0, told = 0, on_face = 0;
  for (int walk = 0; walk < 120; ++walk) {
    const std::size_t slab = static_cast<std::size_t>(walk % 6);
    const QueryFilter filter = walk_filter(walk);
    const glm::vec3 n = glm::normalize(world.transform(slabs[slab]).rotation * glm::vec3(0, 1, 0));
    const float radius = 0.3f + 0.1f * unit(rng);
    glm::vec3 feet = tops[slab] + glm::vec3(8.f * unit(rng), 0.f, 8.f * unit(rng));
    feet += n * (radius + 0.01f - glm::dot(feet - tops[slab], n)); // the skin above the slab
    std::vector<CapsuleObstacle> others;
    if (walk % 4 == 3)
      for (std::uint32_t k = 0; k < 5; ++k) {
        const glm::vec3 at = feet + glm::vec3(3.f * unit(rng), 0.f, 3.f * unit(rng));
        others.push_back({{{at, at + n}, 0.3f}, {}, 1u, CharacterId{k}});
      }
    NearbyPieces quick, full;
    quick.set_characters(others);
    full.set_characters(others);
    glm::vec3 dir = glm::normalize(glm::vec3(unit(rng), 0.f, unit(rng)));
    for (int step = 0; step < 80; ++step) {
      const gjk::Capsule c{{feet, feet + n * 1.2f}, radius};
      std::span<const Contact> got;
      NearbyPieces::FaceProbe probe;
      ++asked;
      if (quick.closest_on_face(world, c, 0.02f, filter, slabs[slab], got, probe))
        ++told;
      else
        got = quick.closest(world, c, 0.02f, filter, ~std::size_t{0});
      const std::vector<Contact> listed(got.begin(), got.end());
      const std::span<const Contact> expected = full.closest(world, c, 0.02f, filter, ~std::size_t{0});
      REQUIRE(listed.size() == expected.size());
      for (std::size_t i = 0; i < listed.size(); ++i) CHECK(same_bits(listed[i], expected[i]));
      if (probe.face != nullptr && !listed.empty()) {
        const glm::vec3& point = listed[0].point_on_piece;
        for (const float margin : {1e-4f + 1e-6f * glm::length(point), 0.05f, 1.f}) {
          const glm::vec3* a = probe.face_normal(point, margin);
          const glm::vec3* b = full.face_normal(slabs[slab], point, margin);
          REQUIRE((a == nullptr) == (b == nullptr));
          if (a != nullptr) CHECK(*a == *b);
          on_face += a != nullptr;
        }
      }
      // A walk along the slab, now and then a hop off it or down into it.
      glm::vec3 motion = 0.2f * (dir - n * glm::dot(dir, n));
      if (step % 17 == 16) motion += n * 0.3f * unit(rng);
      const SweepHit a = quick.sweep_capsule(world, c, motion, filter, {});
      const SweepHit b = full.sweep_capsule(world, c, motion, filter, {});
      REQUIRE(a.hit == b.hit);
      CHECK(a.fraction == b.fraction);
      feet += motion * (a.hit ? a.fraction : 1.f);
      if (a.hit) dir = glm::normalize(glm::vec3(unit(rng), 0.f, unit(rng)));
    }
  }
  CHECK(told > asked / 2);
  CHECK(told < asked); // obstacles, characters and the rims send some to closest
  CHECK(on_face > 1000);
}
