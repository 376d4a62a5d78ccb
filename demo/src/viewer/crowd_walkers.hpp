#pragma once

#include "crowd_walk.hpp"

#include <glide/controller/character_set.hpp>
#include <glide/controller/job_threads.hpp>
#include <glide/world/world.hpp>

#include <glm/vec3.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace glide::viewer {

/// Characters walking around the player: a CharacterSet with default settings, spawned on free
/// spots around the player and steered to random goals near where the player now is, updated
/// once a frame on the job threads. The player meets their capsules (obstacles()); they do not
/// see the player, and one walking into it pushes it aside by the player's recovery.
class CrowdWalkers {
public:
  /// The world must outlive the walkers.
  explicit CrowdWalkers(const World& world, unsigned threads = 0);

  /// Replaces the walkers with up to `count` on free spots around `player` (its capsule left
  /// free). Returns how many found room.
  std::size_t spawn(const Controller& player, int count, std::uint32_t seed = 1);
  void clear();

  /// One frame: steers every walker toward its goal (new goals around `player_feet`), then
  /// updates the set.
  void step(const glm::vec3& player_feet, float dt);

  /// The walkers' capsules where they now stand, with their last velocities, by id: for the
  /// player's Controller::set_characters. Valid until the next spawn, clear or step.
  std::span<const CapsuleObstacle> obstacles() const { return obstacles_; }
  std::size_t size() const { return set_ ? set_->size() : 0; }
  /// The set (spawn first).
  const CharacterSet& set() const { return *set_; }
  /// Wall time of the last update of the set (microseconds).
  double last_update_us() const { return last_update_us_; }

  static constexpr float k_route_radius = 10.f; ///< goals lie within this distance of the player (m)
  static constexpr float k_speed = 2.f;         ///< walking speed (m/s)

private:
  void refresh_obstacles(float dt);

  const World* world_;
  JobThreads threads_;
  std::unique_ptr<CharacterSet> set_;
  std::unique_ptr<demo::CrowdSteering> steering_;
  std::vector<glm::vec3> velocities_;
  std::vector<CapsuleObstacle> obstacles_;
  double last_update_us_ = 0.0;
};

} // namespace glide::viewer
