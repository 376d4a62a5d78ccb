#pragma once
// What the refit tests share: moves of every family, a fresh copy of a world, and random
// queries of every kind compared against a fresh build and brute force.
#include "approx.hpp"
#include "bvh.hpp"
#include "bvh_oracle.hpp"
#include "narrowphase.hpp"
#include "query_compare.hpp"
#include "world_access.hpp"

#include <glide/world/world.hpp>

#include <doctest/doctest.h>
#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <random>
#include <vector>

namespace glide::test {

using glide::detail::Bvh;
using glide::gjk::Aabb;

// Every used slot's decoded box contains the exact union of what it holds, and every cell's
// recorded bounds contain its subtree's; returns the subtree's union.
inline Aabb check_contains(const Bvh& bvh, std::uint32_t node) {
  const detail::WideNode& w = bvh.wide_nodes()[node];
  const detail::SlotBoxes decoded = w.boxes();
  Aabb all;
  for (int k = 0; k < 4; ++k) {
    if ((w.used >> k & 1u) == 0u) continue;
    const Aabb exact = w.count[k] > 0 ? bvh.leaf_item(w.child[k]).box : check_contains(bvh, w.child[k]);
    REQUIRE(decoded.slot(k).contains(exact));
    all = all.merged(exact);
  }
  return all;
}

// After refits: every slot and cell still contains what it holds, and random box and sweep
// queries, and boxes around the first `far` items (moved anywhere), equal brute force.
inline void check_refitted(const Bvh& bvh, const std::vector<Aabb>& boxes, const std::vector<std::uint32_t>& ids,
                           std::mt19937& rng, float extent, std::uint32_t far) {
  check_contains(bvh, 0);
  for (std::uint32_t c = 0; c < bvh.cells().cell_count(); ++c) {
    const detail::SubtreeEntry& e = bvh.cells().cell(c);
    if (e.used() && e.count > 0) CHECK(e.bounds.contains(bvh.leaf_item(e.ref).box));
    if (e.used() && e.count == 0) CHECK(e.bounds.contains(check_contains(bvh, e.ref)));
  }
  std::uniform_real_distribution<float> pos(-extent, extent), half(0.f, 3.f);
  for (int q = 0; q < 150; ++q) {
    const glm::vec3 c{pos(rng), pos(rng), pos(rng)};
    const glm::vec3 e{half(rng), half(rng), half(rng)};
    check_box_query(bvh, boxes, ids, {c - e, c + e});
    check_sweep_query(bvh, boxes, c, e, {pos(rng) * 0.2f, pos(rng) * 0.2f, pos(rng) * 0.2f}, 1.f);
  }
  for (std::uint32_t i = 0; i < far; ++i) {
    check_box_query(bvh, boxes, ids, boxes[i].expanded(0.5f));
    check_sweep_query(bvh, boxes, boxes[i].center() + glm::vec3(3.f), glm::vec3(0.5f), glm::vec3(-4.f), 1.f);
  }
}

// Moves item i: the families a refit must survive (small steps, jumps across the level, far
// out of it and back, back and forth).
inline Aabb moved_box(const Aabb& home, const Aabb& now, std::mt19937& rng, float extent) {
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  const glm::vec3 half = 0.5f * home.extents();
  glm::vec3 center = now.center();
  switch (rng() % 6) {
  case 0: // a tiny step
    center += 1e-3f * glm::vec3{unit(rng), unit(rng), unit(rng)};
    break;
  case 1: // a step of up to a metre
    center += glm::vec3{unit(rng), unit(rng), unit(rng)};
    break;
  case 2: // anywhere in the level
    center = extent * glm::vec3{unit(rng), unit(rng), unit(rng)};
    break;
  case 3: // far out of it
    center = 1e4f * glm::vec3{unit(rng), unit(rng), unit(rng)};
    break;
  default: // back home
    center = home.center();
    break;
  }
  const glm::vec3 grow = glm::vec3(1.f) + 0.5f * glm::abs(glm::vec3{unit(rng), unit(rng), unit(rng)}); // a rotation
  return {center - half * grow, center + half * grow};
}

// The same pieces, at the same places, added in the same order to a new world.
inline World fresh_copy(const World& world) {
  World copy;
  for (PieceId id : world.piece_ids()) {
    const PieceId added = copy.add_piece(world.hull(id), world.transform(id), world.info(id));
    REQUIRE(added == id);
  }
  if (world.terrain()) copy.set_terrain(*world.terrain(), world.terrain_layers());
  return copy;
}

inline std::vector<PieceId> sorted(std::vector<PieceId> ids) {
  std::sort(ids.begin(), ids.end());
  return ids;
}

inline QueryFilter filter_for(int i) {
  if (i % 3 == 1) return {.layer_mask = 1u | 4u};
  if (i % 3 == 2) return {.layer_mask = ~0u, .accept = [](PieceId id) { return id.value % 5 != 0; }};
  return {};
}

// Random queries of every kind, against the fresh world and against brute force over the
// pieces' bounds (the broadphase queries) and shapes (overlap); half of them start near one of
// the `moved` pieces. Returns the hits seen.
inline int compare_queries(const World& world, std::mt19937& rng, float side, int count,
                           const std::vector<PieceId>& moved) {
  const World fresh = fresh_copy(world);
  std::uniform_real_distribution<float> pos(-0.5f * side, 0.5f * side), radius(0.2f, 0.6f), length(0.5f, 12.f),
      margin(0.f, 2.f);
  std::normal_distribution<float> gauss;
  const std::vector<PieceId> ids = world.piece_ids();
  int hits = 0;
  for (int i = 0; i < count; ++i) {
    const QueryFilter filter = filter_for(i);
    glm::vec3 a{pos(rng), pos(rng), pos(rng)};
    if (i % 2 == 0)
      a = world.bounds(moved[rng() % moved.size()]).center() + glm::vec3{gauss(rng), gauss(rng), gauss(rng)};
    const glm::vec3 axis = glm::normalize(glm::vec3{gauss(rng), gauss(rng), gauss(rng)});
    const glm::vec3 dir = glm::normalize(glm::vec3{gauss(rng), gauss(rng), gauss(rng)});
    const gjk::Capsule capsule{{a, a + axis}, radius(rng)};
    const glm::vec3 motion = dir * length(rng);

    const SweepHit sweep = world.sweep_capsule(capsule, motion, filter);
    check_identical(sweep, fresh.sweep_capsule(capsule, motion, filter));
    hits += sweep.hit;
    const float max_t = 2.f * length(rng);
    check_same(world.raycast(a, dir, max_t, filter), fresh.raycast(a, dir, max_t, filter));
    const float m = margin(rng);
    const std::vector<Contact> near = world.overlap_capsule(capsule, m, filter);
    check_same(near, fresh.overlap_capsule(capsule, m, filter));
    check_same(world.closest(capsule, m, filter, 3), fresh.closest(capsule, m, filter, 3));
    std::vector<Contact> brute;
    for (PieceId id : ids) {
      if ((world.info(id).layers & filter.layer_mask) == 0u || (filter.accept && !filter.accept(id))) continue;
      if (auto c = detail::contact(capsule, m, detail::VertexCloud(world.world_vertices(id)))) {
        c->target = HitTarget::piece;
        c->piece = id;
        brute.push_back(*c);
      }
    }
    if (!world.terrain()) check_same(near, brute);

    const Aabb box = gjk::capsule_bounds(capsule).expanded(m);
    std::vector<PieceId> in_box, in_box_fresh, along, along_fresh, in_box_brute, along_brute;
    world.pieces_in_box(box, in_box);
    fresh.pieces_in_box(box, in_box_fresh);
    world.pieces_along(box, motion, along);
    fresh.pieces_along(box, motion, along_fresh);
    const detail::SweptBox swept(box.center(), 0.5f * box.extents(), motion);
    for (PieceId id : ids) {
      if (world.bounds(id).overlaps(box)) in_box_brute.push_back(id);
      if (swept.enter(world.bounds(id)) <= 1.f) along_brute.push_back(id);
    }
    REQUIRE(sorted(in_box) == sorted(in_box_fresh));
    REQUIRE(sorted(in_box) == in_box_brute);
    REQUIRE(sorted(along) == sorted(along_fresh));
    REQUIRE(sorted(along) == along_brute);
  }
  return hits;
}

// A kinematic piece's next pose: near where it is (`far` false), or also across the level and
// far out of it.
inline gjk::Transform moved_pose(const gjk::Transform& home, const gjk::Transform& now, std::mt19937& rng, float side,
                                 bool far) {
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  std::normal_distribution<float> gauss;
  gjk::Transform t = now;
  constexpr unsigned k_near[] = {0u, 1u, 2u, 5u};
  switch (far ? rng() % 7 : k_near[rng() % 4]) {
  case 0: // a tiny step
    t.translation += 1e-4f * glm::vec3{unit(rng), unit(rng), unit(rng)};
    break;
  case 1: // a platform's step and turn
    t.translation += 0.05f * glm::vec3{unit(rng), unit(rng), unit(rng)};
    t.rotation = glm::normalize(glm::angleAxis(0.05f * unit(rng), glm::vec3(0, 1, 0)) * t.rotation);
    break;
  case 2: // a step of up to a metre and any turn
    t.translation += glm::vec3{unit(rng), unit(rng), unit(rng)};
    t.rotation = glm::normalize(glm::quat(gauss(rng), gauss(rng), gauss(rng), gauss(rng)));
    break;
  case 3: // across the level
    t.translation = 0.5f * side * glm::vec3{unit(rng), unit(rng), unit(rng)};
    break;
  case 4: // far out of it
    t.translation = 1e4f * glm::vec3{unit(rng), unit(rng), unit(rng)};
    break;
  default: // back home
    t = home;
    break;
  }
  return t;
}

} // namespace glide::test
