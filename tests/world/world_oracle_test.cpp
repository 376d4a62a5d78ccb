// Every query against brute force over all pieces and every terrain triangle, on random
// levels of 1,000 pieces with fixed seeds. The oracles share the per-candidate tests
// (narrowphase.hpp) with the world, so any difference comes from the broadphase.
#include "approx.hpp"
#include "narrowphase.hpp"
#include "query_compare.hpp"
#include "world_levels.hpp"

#include <glide/world/world.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

using namespace glide;
using glide::test::check_same;

namespace {

constexpr float k_side = 40.f; // level cube (m): 1,000 pieces, about one per 64 m^3

World random_level(std::uint32_t seed) { return test::random_level(seed, k_side); }

QueryFilter oracle_filter(int i) {
  switch (i % 3) {
  case 0:
    return {};
  case 1:
    return {.layer_mask = 1u | 4u};
  default:
    return {.layer_mask = ~0u, .accept = [](PieceId id) { return id.value % 5 != 0; }};
  }
}

bool accepts(const World& world, PieceId id, const QueryFilter& filter) {
  return (world.info(id).layers & filter.layer_mask) != 0u && (!filter.accept || filter.accept(id));
}

bool terrain_on(const World& world, const QueryFilter& filter) {
  return world.terrain() && (world.terrain_layers() & filter.layer_mask) != 0u;
}

struct RandomQuery {
  gjk::Capsule capsule;
  glm::vec3 motion;
};

RandomQuery random_query(std::mt19937& rng) {
  std::uniform_real_distribution<float> pos(-0.5f * k_side, 0.5f * k_side), unit(-1.f, 1.f), radius(0.2f, 0.5f),
      length(1.f, 12.f);
  std::normal_distribution<float> gauss;
  const glm::vec3 a{pos(rng), pos(rng), pos(rng)};
  const glm::vec3 axis = glm::normalize(glm::vec3{gauss(rng), gauss(rng), gauss(rng)});
  const glm::vec3 dir = glm::normalize(glm::vec3{gauss(rng), gauss(rng), gauss(rng)});
  return {gjk::Capsule{{a, a + axis * 1.f}, radius(rng)}, dir * length(rng)};
}

SweepHit brute_sweep(const World& world, const RandomQuery& q, const QueryFilter& filter, const SweepSettings& s) {
  const gjk::ToiSettings toi = detail::toi_settings(s);
  detail::HitCollector hits(s.tie_distance / glm::length(q.motion));
  if (terrain_on(world, filter)) {
    std::uint32_t order = 0;
    world.terrain()->triangles_in(world.terrain()->bounds(), [&](const gjk::Triangle& tri) {
      detail::Candidate below{};
      if (detail::below_terrain(tri, q.capsule.segment, q.motion, s, below)) {
        below.order = order++;
        if (below.target == HitTarget::terrain) hits.add(below);
        return;
      }
      const auto r = detail::time_of_impact(q.capsule.segment, q.capsule.radius, q.motion, tri, s.method, toi);
      if (r.hit && !detail::separating(r, q.motion, s) &&
          !detail::leaves_terrain(r, tri, q.capsule.segment, q.capsule.radius, q.motion, s, toi.tolerance,
                                  *world.terrain()))
        hits.add({r.t, r.point, r.normal, HitTarget::terrain, PieceId{}, order, {}});
      ++order;
    });
  }
  for (PieceId id : world.piece_ids()) {
    if (!accepts(world, id, filter)) continue;
    const detail::VertexCloud cloud(world.world_vertices(id));
    const auto r = detail::time_of_impact(q.capsule.segment, q.capsule.radius, q.motion, cloud, s.method, toi);
    if (r.hit && !detail::separating(r, q.motion, s)) hits.add({r.t, r.point, r.normal, HitTarget::piece, id, 0, {}});
  }
  SweepHit out;
  if (const auto w = hits.winner()) {
    out.hit = true;
    out.fraction = w->t;
    out.normal = w->normal;
    out.point = w->point;
    out.target = w->target;
    out.piece = w->piece;
  }
  return out;
}

std::vector<Contact> brute_overlap(const World& world, const gjk::Capsule& c, float margin, const QueryFilter& filter) {
  std::vector<Contact> out;
  for (PieceId id : world.piece_ids()) {
    if (!accepts(world, id, filter)) continue;
    if (auto contact = detail::contact(c, margin, detail::VertexCloud(world.world_vertices(id)))) {
      contact->target = HitTarget::piece;
      contact->piece = id;
      out.push_back(*contact);
    }
  }
  if (terrain_on(world, filter)) {
    world.terrain()->triangles_in(world.terrain()->bounds(), [&](const gjk::Triangle& tri) {
      if (auto contact = detail::terrain_contact_from(c, margin, tri, gjk::distance(c.segment, tri))) {
        contact->target = HitTarget::terrain;
        out.push_back(*contact);
      }
    });
  }
  return out;
}

} // namespace

TEST_CASE("sweep_capsule equals brute force on random 1,000-piece levels (both methods)") {
  for (std::uint32_t seed : {101u, 202u}) {
    const World world = random_level(seed);
    std::mt19937 rng(seed + 1);
    int hits = 0, terrain_hits = 0;
    const int n = 200;
    for (int i = 0; i < n; ++i) {
      const RandomQuery q = random_query(rng);
      const QueryFilter filter = oracle_filter(i);
      for (ToiMethod method : {ToiMethod::conservative_advancement, ToiMethod::bisection}) {
        const SweepSettings s{.method = method};
        const SweepHit got = world.sweep_capsule(q.capsule, q.motion, filter, s);
        check_same(got, brute_sweep(world, q, filter, s));
        hits += got.hit;
        terrain_hits += got.target == HitTarget::terrain;
      }
    }
    // The levels are dense enough that the comparison is not vacuous.
    CHECK(hits > n / 2);
    CHECK(terrain_hits > 5);
  }
}

TEST_CASE("The fast and the bisection time of impact agree on random levels") {
  const World world = random_level(303u);
  std::mt19937 rng(304);
  int compared = 0;
  for (int i = 0; i < 400; ++i) {
    const RandomQuery q = random_query(rng);
    const SweepHit fast = world.sweep_capsule(q.capsule, q.motion, {}, {.method = ToiMethod::conservative_advancement});
    const SweepHit slow = world.sweep_capsule(q.capsule, q.motion, {}, {.method = ToiMethod::bisection});
    REQUIRE(fast.hit == slow.hit);
    if (!fast.hit) continue;
    ++compared;
    // Each stops at most one tolerance (1e-4 m) before the contact.
    CHECK(std::abs(fast.fraction - slow.fraction) * glm::length(q.motion) <= 1.01e-4f);
    CHECK(fast.target == slow.target);
    CHECK(fast.piece == slow.piece);
    CHECK(glm::dot(fast.normal, slow.normal) > 0.99f);
  }
  CHECK(compared > 150);
}

TEST_CASE("overlap_capsule and closest equal brute force on random 1,000-piece levels") {
  const World world = random_level(505u);
  std::mt19937 rng(506);
  std::uniform_real_distribution<float> margin(0.f, 3.f);
  std::size_t contacts = 0, deep = 0;
  for (int i = 0; i < 300; ++i) {
    const RandomQuery q = random_query(rng);
    const QueryFilter filter = oracle_filter(i);
    const float m = margin(rng);
    const std::vector<Contact> got = world.overlap_capsule(q.capsule, m, filter);
    const std::vector<Contact> expected = brute_overlap(world, q.capsule, m, filter);
    check_same(got, expected);
    contacts += got.size();
    for (const Contact& c : got) {
      CHECK(c.distance <= m);
      deep += c.depth > 0.f;
    }

    std::vector<Contact> nearest = expected;
    std::stable_sort(nearest.begin(), nearest.end(),
                     [](const Contact& a, const Contact& b) { return a.distance < b.distance; });
    if (nearest.size() > 3) nearest.resize(3);
    check_same(world.closest(q.capsule, m, filter, 3), nearest);
  }
  CHECK(contacts > 300);
  CHECK(deep > 5);
}

TEST_CASE("raycast equals brute force on random 1,000-piece levels") {
  const World world = random_level(707u);
  std::mt19937 rng(708);
  int hits = 0;
  for (int i = 0; i < 300; ++i) {
    const RandomQuery q = random_query(rng);
    const QueryFilter filter = oracle_filter(i);
    const glm::vec3 origin = q.capsule.segment.a;
    const glm::vec3 dir = glm::normalize(q.motion);
    const float max_t = 2.f * glm::length(q.motion);
    const RayHit got = world.raycast(origin, dir, max_t, filter);

    const SweepSettings s;
    detail::HitCollector collector(s.tie_distance / max_t);
    if (terrain_on(world, filter)) {
      const TerrainRayHit r = world.terrain()->raycast(origin, dir, max_t);
      if (r.hit) collector.add({r.t / max_t, r.point, r.normal, HitTarget::terrain, PieceId{}, 0, {}});
    }
    for (PieceId id : world.piece_ids()) {
      if (!accepts(world, id, filter)) continue;
      const auto r =
          detail::time_of_impact(gjk::Segment{origin, origin}, 0.f, dir * max_t,
                                 detail::VertexCloud(world.world_vertices(id)), s.method, detail::toi_settings(s));
      if (r.hit) collector.add({r.t, r.point, r.normal, HitTarget::piece, id, 0, {}});
    }
    const auto expected = collector.winner();
    REQUIRE(got.hit == expected.has_value());
    if (!got.hit) continue;
    ++hits;
    CHECK(got.target == expected->target);
    CHECK(got.piece == expected->piece);
    CHECK(got.t == expected->t * max_t);
  }
  CHECK(hits > 50);
}

TEST_CASE("Queries equal brute force after pieces are moved, removed and added") {
  // The queries read per-piece records laid out in the hierarchy's leaf order; every edit
  // must re-lay them out, so a stale record would show up as a different answer here.
  World world = random_level(909u);
  std::mt19937 rng(910);
  std::uniform_real_distribution<float> pos(-0.5f * k_side, 0.5f * k_side);
  int hits = 0, contacts = 0;
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 60; ++i) {
      const RandomQuery q = random_query(rng);
      const QueryFilter filter = oracle_filter(i);
      const SweepHit got = world.sweep_capsule(q.capsule, q.motion, filter);
      check_same(got, brute_sweep(world, q, filter, {}));
      hits += got.hit;
      const std::vector<Contact> near = world.overlap_capsule(q.capsule, 1.f, filter);
      check_same(near, brute_overlap(world, q.capsule, 1.f, filter));
      contacts += static_cast<int>(near.size());
    }
    const std::vector<PieceId> ids = world.piece_ids();
    for (std::size_t k = 0; k < 100; ++k) { // move 100 pieces across the level
      gjk::Transform t = world.transform(ids[(k * 7 + static_cast<std::size_t>(round)) % ids.size()]);
      t.translation = {pos(rng), pos(rng), pos(rng)};
      world.set_piece_transform(ids[(k * 7 + static_cast<std::size_t>(round)) % ids.size()], t);
    }
    for (std::size_t k = 0; k < 50; ++k) world.remove_piece(ids[k * 11 + static_cast<std::size_t>(round)]);
    test::add_random_pieces(world, 40, k_side, 911u + static_cast<std::uint32_t>(round));
  }
  CHECK(world.piece_count() == 1000 - 3 * 50 + 3 * 40);
  CHECK(hits > 60);
  CHECK(contacts > 60);
}
