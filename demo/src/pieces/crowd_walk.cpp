#include "crowd_walk.hpp"

#include <glide/gjk/segment_pair.hpp>

#include <glm/geometric.hpp>

#include <utility>

namespace glide::demo {

namespace {

constexpr float k_gravity = 9.81f;      // (m/s^2)
constexpr float k_goal_reached = 1.f;   // horizontal distance at which a goal counts as reached (m)
constexpr int k_stuck_give_up = 90;     // frames stuck before a walker picks another goal (count)
constexpr float k_spawn_spacing = 1.5f; // between spawn spots (m)

} // namespace

std::vector<glm::vec3> spawn_spots(const World& world, const ControllerSettings& settings, glm::vec3 centre, int count,
                                   std::span<const gjk::Capsule> taken) {
  std::vector<glm::vec3> spots;
  const gjk::Capsule shape{{settings.up * settings.radius, settings.up * (settings.height - settings.radius)},
                           settings.radius};
  const auto free_of_taken = [&](const gjk::Capsule& capsule) {
    for (const gjk::Capsule& t : taken)
      if (gjk::closest_points(capsule.segment, t.segment).distance <= capsule.radius + t.radius + settings.skin_width)
        return false;
    return true;
  };
  int x = 0, z = 0, dx = 1, dz = 0, leg = 1, steps = 0;
  for (int tries = 0; tries < 40 * count + 100 && static_cast<int>(spots.size()) < count; ++tries) {
    const glm::vec3 above = centre + glm::vec3(float(x) * k_spawn_spacing, 6.f, float(z) * k_spawn_spacing);
    const RayHit ground = world.raycast(above, glm::vec3(0, -1, 0), 20.f);
    if (ground.hit && ground.normal.y > 0.8f) {
      const glm::vec3 feet = ground.point + glm::vec3(0, 2.f * settings.skin_width, 0);
      const gjk::Capsule capsule{{shape.segment.a + feet, shape.segment.b + feet}, shape.radius};
      if (world.overlap_capsule(capsule, settings.skin_width).empty() && free_of_taken(capsule)) spots.push_back(feet);
    }
    x += dx;
    z += dz;
    if (++steps == leg) {
      steps = 0;
      std::swap(dx, dz);
      dx = -dx;
      if (dz == 0) ++leg;
    }
  }
  return spots;
}

CrowdSteering::CrowdSteering(std::size_t count, glm::vec3 centre_at, float route_radius, float speed,
                             std::uint32_t seed)
    : centre(centre_at), route_radius_(route_radius), speed_(speed), rng_(seed), goals_(count), fall_(count, 0.f),
      stuck_for_(count, 0) {
  for (glm::vec3& g : goals_) g = new_goal();
}

glm::vec3 CrowdSteering::new_goal() {
  glm::vec3 g;
  do {
    // One draw per statement: the order of a call's arguments is up to the compiler.
    g.x = unit_(rng_);
    g.y = 0.f;
    g.z = unit_(rng_);
  } while (glm::dot(g, g) > 1.f);
  return centre + route_radius_ * g;
}

void CrowdSteering::steer(const CharacterSet& set, float dt, std::span<glm::vec3> velocities) {
  for (std::size_t i = 0; i < velocities.size(); ++i) {
    const Controller& c = set.controller(CharacterId{static_cast<std::uint32_t>(i)});
    glm::vec3 to_goal = goals_[i] - c.position();
    to_goal.y = 0.f;
    const float distance = glm::length(to_goal);
    fall_[i] = c.ground().state == GroundState::on_ground ? 0.f : fall_[i] - k_gravity * dt;
    const glm::vec3 walk = distance > 1e-3f ? to_goal * (speed_ / distance) : glm::vec3(0.f);
    velocities[i] = walk + glm::vec3(0.f, fall_[i], 0.f);
  }
}

CrowdSteering::Progress CrowdSteering::advance(const CharacterSet& set, std::size_t i, const glm::vec3& velocity,
                                               float dt) {
  const CharacterId id{static_cast<std::uint32_t>(i)};
  const Controller& c = set.controller(id);
  const MoveResult& r = set.result(id);
  glm::vec3 to_goal = goals_[i] - c.position();
  to_goal.y = 0.f;
  const glm::vec3 walk(velocity.x, 0.f, velocity.z);
  const float wanted = glm::length(walk) * dt;
  Progress p;
  p.stuck = wanted > 0.f && glm::dot(r.displacement, walk) < 0.1f * wanted * glm::length(walk);
  stuck_for_[i] = p.stuck ? stuck_for_[i] + 1 : 0;
  p.reached = glm::length(to_goal) < k_goal_reached;
  if (p.reached || stuck_for_[i] >= k_stuck_give_up) {
    goals_[i] = new_goal();
    stuck_for_[i] = 0;
  }
  return p;
}

} // namespace glide::demo
