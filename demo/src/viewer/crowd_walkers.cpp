#include "crowd_walkers.hpp"

#include <chrono>

namespace glide::viewer {

CrowdWalkers::CrowdWalkers(const World& world, unsigned threads) : world_(&world), threads_(threads) {}

std::size_t CrowdWalkers::spawn(const Controller& player, int count, std::uint32_t seed) {
  clear();
  const ControllerSettings settings;
  const gjk::Capsule taken = player.capsule();
  const std::vector<glm::vec3> spots =
      demo::spawn_spots(*world_, settings, player.position(), count, std::span(&taken, 1));
  set_ = std::make_unique<CharacterSet>(*world_);
  for (const glm::vec3& spot : spots) set_->add(settings, spot);
  steering_ = std::make_unique<demo::CrowdSteering>(spots.size(), player.position(), k_route_radius, k_speed, seed);
  velocities_.assign(spots.size(), glm::vec3(0.f));
  refresh_obstacles(1.f);
  return spots.size();
}

void CrowdWalkers::clear() {
  set_.reset();
  steering_.reset();
  velocities_.clear();
  obstacles_.clear();
  last_update_us_ = 0.0;
}

void CrowdWalkers::step(const glm::vec3& player_feet, float dt) {
  if (!set_ || set_->size() == 0) return;
  steering_->centre = player_feet;
  steering_->steer(*set_, dt, velocities_);
  const auto start = std::chrono::steady_clock::now();
  set_->update(velocities_, dt, threads_.hook());
  last_update_us_ = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  for (std::size_t i = 0; i < set_->size(); ++i) steering_->advance(*set_, i, velocities_[i], dt);
  refresh_obstacles(dt);
}

void CrowdWalkers::refresh_obstacles(float dt) {
  obstacles_.resize(size());
  for (std::uint32_t i = 0; i < size(); ++i) {
    const CharacterId id{i};
    const Controller& c = set_->controller(id);
    obstacles_[i] = {c.capsule(), set_->result(id).displacement / dt, 1u, id};
  }
}

} // namespace glide::viewer
