// The slide and stair steps of Controller::move.
#include "horizontal.hpp"

#include <glide/controller/controller.hpp>
#include <glide/controller/slide.hpp>
#include <glide/world/world.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace glide {

using detail::horizontal;

void Controller::slide(glm::vec3 motion, const glm::vec3& velocity, float dt, bool walking, MoveResult& result) {
  const glm::vec3& up = settings_->up;
  const glm::vec3 original = motion;
  // Every contact plane of this move; a steep slope adds its normal and the wall it acts as.
  // Only the first plane_count are read: left unset, as clearing them all took longer than
  // many a whole sweep.
  std::array<glm::vec3, 2 * 16> planes;
  std::size_t plane_count = 0;

  for (int iteration = 0; iteration < settings_->max_slide_iterations; ++iteration) {
    const float length = glm::length(motion);
    if (length <= settings_->min_move_distance) break;
    const SweepHit hit = sweep(motion);
    // Built in place: built on the stack and copied in, its copy read it back before the stores
    // had landed, and waited for them.
    const std::size_t traced = trace_.iterations.size();
    MoveTrace::Iteration& trace = trace_.iterations.emplace_back();
    trace.start = position_;
    trace.motion = motion;
    trace.fraction = hit.hit ? hit.fraction : 1.f;
    trace.hit = hit.hit;
    trace.normal = hit.normal;
    if (!hit.hit) {
      position_ += motion;
      break;
    }
    // The sweep's capsule is inflated by the skin: moving to the time of impact leaves about
    // skin_width between the capsule and the contact, whatever the angle of approach.
    position_ += motion * hit.fraction;
    glm::vec3 remaining = motion * (1.f - hit.fraction);
    record_hit(hit, hit.fraction, result);
    if (listener_) {
      glm::vec3 velocity = remaining / dt;
      listener_->on_adjust_velocity(result.hits[static_cast<std::size_t>(result.hit_count - 1)], velocity);
      check_motion(velocity, dt, "ContactListener::on_adjust_velocity returned velocity");
      remaining = velocity * dt;
    }

    // Steps and step-like edges (a walkable top behind a steep contact) are climbed by the
    // step; only walkable contacts are followed like ground.
    const bool floor_like = walkable(hit.normal);
    glm::vec3 left_after_step;
    if (walking && !floor_like && try_step(remaining, hit, left_after_step)) {
      trace_.iterations[traced].stepped = true;
      motion = left_after_step;
      continue;
    }

    if (plane_count < planes.size()) planes[plane_count++] = hit.normal;
    const float facing = glm::dot(hit.normal, up);
    if (!floor_like && facing > 0.f && plane_count < planes.size()) {
      // A slope too steep to walk is a wall for walking: the slide may not gain height on it.
      const glm::vec3 wall = horizontal(hit.normal, up);
      const float wall_length = glm::length(wall);
      if (wall_length > 1e-4f) planes[plane_count++] = wall / wall_length;
    }
    // A ceiling over the head, flat or sloped: the slide may not rise along it, and the velocity
    // kept loses its upward part, so a jump under a sloped ceiling stops instead of gliding up.
    const bool ceiling =
        facing < -1e-3f && glm::dot(hit.point - position_, up) >= settings_->height - settings_->radius;
    if (ceiling && plane_count < planes.size()) planes[plane_count++] = -up;

    glm::vec3 wanted = remaining;
    if (floor_like && glm::dot(remaining, hit.normal) < 0.f && facing > 1e-3f) {
      // Walkable: keep the horizontal motion and rise along the surface, as on the ground.
      wanted = remaining - up * (glm::dot(remaining, hit.normal) / facing);
    }
    motion = solve_slide(std::span<const glm::vec3>(planes.data(), plane_count), wanted, original);
  }
  // The velocity the character keeps: the game's velocity along the ground without what the
  // contact planes took. Stepping and snapping are placement, not velocity, so a game that
  // feeds this back is not launched off a stair.
  result.velocity = solve_slide(std::span<const glm::vec3>(planes.data(), plane_count), velocity, velocity);
}

// Up by the step height, forward by the blocked motion, down onto the step. Taken only onto
// walkable ground that goes on for step_min_forward past the landing, so what a move does
// at a step does not depend on how far one frame moves (frame-rate independence).
bool Controller::try_step(const glm::vec3& motion, const SweepHit& blocker, glm::vec3& left) {
  const glm::vec3& up = settings_->up;
  const float skin = settings_->skin_width;
  if (settings_->step_height <= 0.f) return false;
  // The capsule's side touches the wall higher than the step height above its lowest point:
  // raised by the step it would touch the same point the same way, so it cannot get over.
  // (PhysX's controller likewise climbs only contacts below its step offset.)
  const glm::vec3& wall_normal = blocker.normal;
  if (std::abs(glm::dot(wall_normal, up)) < 1e-3f &&
      glm::dot(blocker.point - position_, up) >= settings_->step_height + settings_->radius)
    return false;
  // Another character taller than a step above the feet: nothing to climb onto (the contact
  // of two upright capsules side by side is a line, and the point taken is its lowest).
  if (blocker.target == HitTarget::character)
    for (const CapsuleObstacle& o : nearby_.characters())
      if (o.id == blocker.character) {
        const gjk::Segment& s = o.capsule.segment;
        const float top = std::max(glm::dot(s.a, up), glm::dot(s.b, up)) + o.capsule.radius;
        if (top - glm::dot(position_, up) > settings_->step_height) return false;
      }
  const glm::vec3 forward = horizontal(motion, up);
  const float forward_length = glm::length(forward);
  if (forward_length <= settings_->min_move_distance) return false;
  const glm::vec3 dir = forward / forward_length;
  const glm::vec3 wall = horizontal(wall_normal, up);
  const float wall_length = glm::length(wall);
  if (wall_length < 1e-4f || -glm::dot(dir, wall / wall_length) < std::cos(settings_->step_max_wall_angle))
    return false; // walking along the wall, not into it

  // A character pushing into a wall tries the same step every frame: remember the last
  // refusal and skip the three sweeps while nothing about it has changed.
  // Other characters move without a world revision: no memory of a refusal among them.
  const FailedStep attempt{nearby_.characters().empty(), position_, dir, forward_length, world_->revision()};
  if (failed_step_.same_as(attempt)) return false;
  const glm::vec3 start = position_;
  const float rise = settings_->step_height * sweep(up * settings_->step_height).fraction;
  if (rise <= skin) {
    failed_step_ = attempt;
    return false;
  }
  position_ += up * rise;

  const float advance = forward_length * sweep(forward).fraction;
  if (advance <= settings_->min_move_distance) {
    position_ = start;
    failed_step_ = attempt;
    return false;
  }
  position_ += dir * advance;

  const float reach = rise + skin;
  const SweepHit land = sweep(-up * reach);
  const float land_height = glm::dot(land.point - start, up);
  const bool lands = land.hit && land_height > 0.f && land_height <= settings_->step_height &&
                     walkable(surface_normal(land.target, land.piece, land.point, land.normal, land.triangle));
  if (!lands || !step_top_continues(land.point, dir)) {
    position_ = start;
    failed_step_ = attempt;
    return false;
  }
  position_ -= up * (reach * land.fraction);
  left = dir * (forward_length - advance);
  return true;
}

bool Controller::step_top_continues(const glm::vec3& landing, const glm::vec3& dir) const {
  if (settings_->step_min_forward <= 0.f) return true;
  const glm::vec3& up = settings_->up;
  const float drop = 4.f * settings_->skin_width;
  const glm::vec3 origin = landing + dir * settings_->step_min_forward + up * (0.5f * drop);
  const RayHit ray = nearby_.raycast(*world_, origin, -up, drop, query_filter(), sweep_settings());
  return ray.hit && walkable(ray.normal);
}

} // namespace glide
