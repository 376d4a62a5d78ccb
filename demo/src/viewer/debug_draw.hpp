#pragma once

#include "renderer.hpp"

#include <glide/controller/controller.hpp>
#include <glide/world/world.hpp>

#include <vector>

namespace glide::viewer {

/// What the Debug draw group of the panel turns on.
struct DebugDrawOptions {
  bool closest_points = true;  ///< World::closest between the capsule and nearby pieces: both points
  bool contact_normals = true; ///< the normals of those contacts
  bool sweep_hits = true;      ///< the last move's hits with their normals
  bool ground_normal = true;   ///< ground surface normal and the closest-points normal
  bool stair_probe = true;     ///< stepped iterations: up by step_height, across, down
  bool iterations = true;      ///< each slide iteration of the last move
  float closest_range = 0.5f;  ///< contacts within this gap are drawn (m)
  float sphere_radius = 0.04f; ///< size of the contact spheres (m)
};

struct DebugSphere {
  glm::vec3 centre{0.f}; ///< (m)
  glm::vec3 color{1.f};
};

struct DebugScene {
  std::vector<LineVertex> lines; ///< segment pairs
  std::vector<DebugSphere> spheres;
};

/// Gathers the debug geometry of the character's current situation.
DebugScene debug_scene(const World& world, const Controller& controller, const MoveResult& last,
                       const DebugDrawOptions& options);

} // namespace glide::viewer
