#pragma once

// Scenes and a game-like player loop for the controller scenarios.

#include "world_levels.hpp"

#include <doctest/doctest.h>
#include <glide/controller/character_set.hpp>
#include <glide/controller/controller.hpp>
#include <glide/controller/player_step.hpp>
#include <glide/gjk/segment_pair.hpp>
#include <glide/world/world.hpp>

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace glide::test {

/// A frame at 60 Hz (s).
constexpr float k_dt = 1.f / 60.f;

/// A box of half size `half` centred at `center`, turned by `rotation`.
inline PieceId add_turned_box(World& world, const glm::vec3& center, const glm::vec3& half, const glm::quat& rotation) {
  return world.add_piece(gjk::ConvexHull::box(half), gjk::Transform{rotation, center});
}

/// A floor slab whose top face is y = 0 over [-size, size] in x and z.
inline PieceId add_floor(World& world, float size = 50.f) {
  return add_box(world, {-size, -1.f, -size}, {size, 0.f, size});
}

/// A slab tilted by `degrees` about the z axis, its top surface the plane y = x tan(angle)
/// (rising toward +x) near the origin.
inline PieceId add_slope(World& world, float degrees, float size = 20.f) {
  const glm::quat tilt = glm::angleAxis(glm::radians(degrees), glm::vec3(0, 0, 1));
  return add_turned_box(world, tilt * glm::vec3(0, -1, 0), {size, 1.f, size}, tilt);
}

/// Gap between the capsule and the deepest piece it overlaps (m; negative inside).
inline float deepest_gap(const World& world, const Controller& c) {
  float gap = 1e9f;
  for (const Contact& contact : world.overlap_capsule(c.capsule(), 0.f)) gap = std::min(gap, contact.distance);
  return gap;
}

/// The closest two characters of a set (removed ones left out) are (m; negative when overlapping): sorted along x,
/// each against those less than `window` m further on (all of them by default; a window of a
/// body width or so keeps a large crowd's check fast); 1e9 when no pair is within the window.
inline float closest_pair_gap(const CharacterSet& set, float window = 1e9f) {
  std::vector<gjk::Capsule> capsules;
  for (std::uint32_t i = 0; i < set.size(); ++i)
    if (set.contains(CharacterId{i})) capsules.push_back(set.controller(CharacterId{i}).capsule());
  std::sort(capsules.begin(), capsules.end(),
            [](const gjk::Capsule& a, const gjk::Capsule& b) { return a.segment.a.x < b.segment.a.x; });
  float gap = 1e9f;
  for (std::size_t i = 0; i < capsules.size(); ++i)
    for (std::size_t j = i + 1; j < capsules.size() && capsules[j].segment.a.x - capsules[i].segment.a.x < window; ++j)
      gap = std::min(gap, gjk::closest_points(capsules[i].segment, capsules[j].segment).distance - capsules[i].radius -
                              capsules[j].radius);
  return gap;
}

/// What a game does each frame (glide::PlayerStep: walk input plus gravity), watching the
/// deepest end-of-frame overlap.
struct Player {
  Player(Controller& c, const World& w) : controller(c), world(w) {}

  Controller& controller;
  const World& world;
  PlayerStep player;
  float worst_gap = 1e9f; ///< deepest end-of-frame overlap seen (m)

  MoveResult step(const glm::vec3& walk, float dt, bool jump = false) {
    const MoveResult r = player.step(controller, {.velocity = walk, .jump = jump}, dt);
    worst_gap = std::min(worst_gap, deepest_gap(world, controller));
    return r;
  }
};

/// The no-penetration invariant every scenario checks each frame (m).
inline constexpr float k_penetration_tolerance = 2e-4f;

} // namespace glide::test
