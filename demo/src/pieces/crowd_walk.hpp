#pragma once

// The game side of a crowd's walkers: free spots to spawn them on, and steering each one to
// random goals around a centre, with gravity, giving up a goal it is stuck on. The headless
// crowd (`glide demo --crowd`) and the viewer's walkers share it.

#include <glide/controller/character_set.hpp>
#include <glide/gjk/shapes.hpp>
#include <glide/world/world.hpp>

#include <glm/vec3.hpp>

#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace glide::demo {

/// Up to `count` spots for characters of `settings` on a square spiral around `centre`, 1.5 m
/// apart: feet on walkable ground below, the capsule touching nothing in the world and none of
/// `taken`. Fewer when the spiral finds no more room.
std::vector<glm::vec3> spawn_spots(const World& world, const ControllerSettings& settings, glm::vec3 centre, int count,
                                   std::span<const gjk::Capsule> taken = {});

/// Steers a set's characters: each walks at `speed` toward its goal, falls under gravity off
/// the ground, and takes a new goal within `route_radius` of `centre` when it reaches its goal
/// or has been stuck for 1.5 s. Goals come from one seeded generator, so runs repeat.
class CrowdSteering {
public:
  /// Draws the first goal of each of `count` characters.
  CrowdSteering(std::size_t count, glm::vec3 centre, float route_radius, float speed, std::uint32_t seed);

  /// This frame's velocity of every character of `set` (velocities.size() == set.size()).
  void steer(const CharacterSet& set, float dt, std::span<glm::vec3> velocities);

  struct Progress {
    bool stuck = false;   ///< barely moved toward where it walked this frame
    bool reached = false; ///< reached its goal this frame
  };
  /// After the update that used `velocity`: how character i fared; a goal reached, or given up
  /// on, makes way for a new one.
  Progress advance(const CharacterSet& set, std::size_t i, const glm::vec3& velocity, float dt);

  const glm::vec3& goal(std::size_t i) const { return goals_[i]; }
  glm::vec3 centre; ///< new goals lie around it (m)

private:
  glm::vec3 new_goal();

  float route_radius_, speed_;
  std::mt19937 rng_;
  std::uniform_real_distribution<float> unit_{-1.f, 1.f};
  std::vector<glm::vec3> goals_;
  std::vector<float> fall_;
  std::vector<int> stuck_for_;
};

} // namespace glide::demo
