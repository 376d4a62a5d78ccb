#include "debug_draw.hpp"

#include <glm/geometric.hpp>

namespace glide::viewer {
namespace {

constexpr glm::vec3 k_piece_point_color{1.f, 0.9f, 0.1f};
constexpr glm::vec3 k_capsule_point_color{0.1f, 0.9f, 1.f};
constexpr glm::vec3 k_normal_color{1.f, 1.f, 1.f};
constexpr glm::vec3 k_hit_color{1.f, 0.15f, 0.1f};
constexpr glm::vec3 k_ground_color{0.1f, 1.f, 0.2f};
constexpr glm::vec3 k_ground_contact_color{0.1f, 0.5f, 1.f};
constexpr glm::vec3 k_step_color{0.7f, 0.3f, 1.f};
constexpr glm::vec3 k_swept_color{1.f, 1.f, 1.f};
constexpr glm::vec3 k_unswept_color{0.4f, 0.4f, 0.4f};

void line(DebugScene& scene, const glm::vec3& a, const glm::vec3& b, const glm::vec3& color) {
  scene.lines.push_back({a, color});
  scene.lines.push_back({b, color});
}

} // namespace

DebugScene debug_scene(const World& world, const Controller& controller, const MoveResult& last,
                       const DebugDrawOptions& options) {
  DebugScene scene;
  const ControllerSettings& s = controller.settings();
  const gjk::Capsule capsule = controller.capsule();

  if (options.closest_points || options.contact_normals) {
    const QueryFilter filter{.layer_mask = s.layer_mask, .accept = s.filter};
    for (const Contact& c : world.closest(capsule, options.closest_range, filter)) {
      // The capsule's own closest point: its segment point moved out by the radius.
      const glm::vec3 on_capsule = c.point_on_segment - c.normal * capsule.radius;
      if (options.closest_points) {
        scene.spheres.push_back({c.point_on_piece, k_piece_point_color});
        scene.spheres.push_back({on_capsule, k_capsule_point_color});
        line(scene, c.point_on_piece, on_capsule, k_piece_point_color);
      }
      if (options.contact_normals) line(scene, c.point_on_piece, c.point_on_piece + 0.4f * c.normal, k_normal_color);
    }
  }
  if (options.sweep_hits) {
    for (int i = 0; i < last.hit_count; ++i) {
      const ControllerHit& h = last.hits[static_cast<std::size_t>(i)];
      scene.spheres.push_back({h.point, k_hit_color});
      line(scene, h.point, h.point + 0.5f * h.normal, k_hit_color);
    }
  }
  if (options.ground_normal && last.ground.state != GroundState::in_air) {
    line(scene, last.ground.point, last.ground.point + 0.8f * last.ground.normal, k_ground_color);
    line(scene, last.ground.point, last.ground.point + 0.6f * last.ground.contact_normal, k_ground_contact_color);
  }
  for (const MoveTrace::Iteration& it : controller.last_trace().iterations) {
    if (options.iterations) {
      const glm::vec3 reached = it.start + it.fraction * it.motion;
      line(scene, it.start, reached, k_swept_color);
      if (it.fraction < 1.f) line(scene, reached, it.start + it.motion, k_unswept_color);
      if (it.hit) line(scene, reached, reached + 0.3f * it.normal, k_hit_color);
    }
    if (options.stair_probe && it.stepped) {
      // The probe the controller ran from the wall contact: up by the step height, across by
      // the motion the wall blocked, down.
      const glm::vec3 up = s.up * s.step_height;
      const glm::vec3 from = it.start + it.fraction * it.motion;
      const glm::vec3 across = (1.f - it.fraction) * it.motion;
      line(scene, from, from + up, k_step_color);
      line(scene, from + up, from + up + across, k_step_color);
      line(scene, from + up + across, from + across, k_step_color);
    }
  }
  return scene;
}

} // namespace glide::viewer
