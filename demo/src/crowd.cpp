#include "crowd.hpp"

#include "moving_pieces.hpp"

#include <glide/controller/character_set.hpp>
#include <glide/error.hpp>
#include <glide/gjk/segment_pair.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <numeric>
#include <random>
#include <string>

namespace glide::demo {

namespace {

constexpr float k_gravity = 9.81f;          // (m/s^2)
constexpr float k_goal_reached = 1.f;       // horizontal distance at which a goal counts as reached (m)
constexpr int k_stuck_give_up = 90;         // frames stuck before a walker picks another goal (count)
constexpr float k_spawn_spacing = 1.5f;     // between spawn spots (m)
constexpr std::size_t k_mapped_paths = 200; // characters whose paths the map shows (count)

class Hasher {
public:
  template <class T>
  void add(const T& value) {
    unsigned char bytes[sizeof value];
    std::memcpy(bytes, &value, sizeof value);
    for (const unsigned char b : bytes) hash_ = (hash_ ^ b) * 1099511628211ull;
  }
  std::uint64_t value() const { return hash_; }

private:
  std::uint64_t hash_ = 1469598103934665603ull;
};

// Spots on a square spiral around the level's spawn, on whatever is below, where the capsule
// touches nothing.
std::vector<glm::vec3> spawn_spots(const World& world, const ControllerSettings& settings, glm::vec3 centre,
                                   int count) {
  std::vector<glm::vec3> spots;
  const gjk::Capsule shape{{settings.up * settings.radius, settings.up * (settings.height - settings.radius)},
                           settings.radius};
  int x = 0, z = 0, dx = 1, dz = 0, leg = 1, taken = 0;
  for (int tries = 0; tries < 40 * count + 100 && static_cast<int>(spots.size()) < count; ++tries) {
    const glm::vec3 above = centre + glm::vec3(float(x) * k_spawn_spacing, 6.f, float(z) * k_spawn_spacing);
    const RayHit ground = world.raycast(above, glm::vec3(0, -1, 0), 20.f);
    if (ground.hit && ground.normal.y > 0.8f) {
      const glm::vec3 feet = ground.point + glm::vec3(0, 2.f * settings.skin_width, 0);
      const gjk::Capsule capsule{{shape.segment.a + feet, shape.segment.b + feet}, shape.radius};
      if (world.overlap_capsule(capsule, settings.skin_width).empty()) spots.push_back(feet);
    }
    x += dx;
    z += dz;
    if (++taken == leg) {
      taken = 0;
      std::swap(dx, dz);
      dx = -dx;
      if (dz == 0) ++leg;
    }
  }
  if (spots.size() < static_cast<std::size_t>(count))
    throw Error("glide demo --crowd: found room for only " + std::to_string(spots.size()) + " of " +
                std::to_string(count) + " characters around the spawn");
  return spots;
}

// Pairs of characters overlapping by more than `allowed` (m), and the smallest gap, by a sweep
// along x.
void pair_gaps(const CharacterSet& set, float allowed, float& closest, int& overlaps) {
  const std::size_t n = set.size();
  std::vector<gjk::Capsule> capsules(n);
  std::vector<std::uint32_t> order(n);
  for (std::uint32_t i = 0; i < n; ++i) capsules[i] = set.controller(CharacterId{i}).capsule();
  const auto low = [&](std::uint32_t i) {
    return std::min(capsules[i].segment.a.x, capsules[i].segment.b.x) - capsules[i].radius;
  };
  const auto high = [&](std::uint32_t i) {
    return std::max(capsules[i].segment.a.x, capsules[i].segment.b.x) + capsules[i].radius;
  };
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return low(a) < low(b); });
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n && low(order[b]) <= high(order[a]); ++b) {
      const gjk::Capsule &p = capsules[order[a]], &q = capsules[order[b]];
      const float gap = gjk::closest_points(p.segment, q.segment).distance - p.radius - q.radius;
      closest = std::min(closest, gap);
      if (gap < -allowed) ++overlaps;
    }
}

} // namespace

CrowdStats run_crowd(DemoLevel& level, const ControllerSettings& settings, const CrowdSettings& crowd) {
  if (crowd.count < 1 || crowd.frames < 1)
    throw Error("glide demo --crowd: " + std::to_string(crowd.count) + " characters for " +
                std::to_string(crowd.frames) + " frames: both must be at least 1");
  World& world = level.world;
  place_pieces(world, level.moving, 0.f);
  const std::vector<glm::vec3> spots = spawn_spots(world, settings, level.spawn, crowd.count);

  CharacterSet set(world);
  for (const glm::vec3& spot : spots) set.add(settings, spot);
  const std::size_t n = set.size();
  std::mt19937 rng(crowd.seed);
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  const auto new_goal = [&] {
    glm::vec3 g;
    do {
      // One draw per statement: the order of a call's arguments is up to the compiler.
      g.x = unit(rng);
      g.y = 0.f;
      g.z = unit(rng);
    } while (glm::dot(g, g) > 1.f);
    return level.spawn + crowd.route_radius * g;
  };
  std::vector<glm::vec3> goals(n), velocities(n);
  std::vector<float> fall(n, 0.f);
  std::vector<int> stuck_for(n, 0);
  // The map shows the paths of the first characters only: enough to see the flow.
  std::vector<std::vector<FrameRecord>> paths(std::min<std::size_t>(n, k_mapped_paths));
  for (glm::vec3& g : goals) g = new_goal();

  JobThreads threads(crowd.threads);
  const ParallelFor hook = threads.hook();
  CrowdStats stats;
  stats.characters = static_cast<int>(n);
  stats.frames = crowd.frames;
  std::vector<double> frame_us;
  frame_us.reserve(static_cast<std::size_t>(crowd.frames));
  Hasher hash;
  float t = 0.f;
  for (int frame = 0; frame < crowd.frames; ++frame) {
    for (std::size_t i = 0; i < n; ++i) {
      const Controller& c = set.controller(CharacterId{static_cast<std::uint32_t>(i)});
      glm::vec3 to_goal = goals[i] - c.position();
      to_goal.y = 0.f;
      const float distance = glm::length(to_goal);
      fall[i] = c.ground().state == GroundState::on_ground ? 0.f : fall[i] - k_gravity * crowd.dt;
      const glm::vec3 walk = distance > 1e-3f ? to_goal * (crowd.speed / distance) : glm::vec3(0.f);
      velocities[i] = walk + glm::vec3(0.f, fall[i], 0.f);
    }
    move_pieces(world, level.moving, t, crowd.dt);
    t += crowd.dt;
    const auto start = std::chrono::steady_clock::now();
    set.update(velocities, crowd.dt, hook);
    frame_us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    stats.conflicts += set.last_conflicts();

    for (std::size_t i = 0; i < n; ++i) {
      const CharacterId id{static_cast<std::uint32_t>(i)};
      const Controller& c = set.controller(id);
      const MoveResult& r = set.result(id);
      hash.add(c.position());
      hash.add(static_cast<std::uint8_t>(c.ground().state));
      // A moving piece that pushes a character against others that do not give way crushes it,
      // and then it may overlap that piece (docs/controller.md, "Crushed"): counted apart.
      stats.crushed += r.flags.crushed;
      for (const Contact& contact : world.overlap_capsule(c.capsule(), 0.f)) {
        const bool crushing =
            r.flags.crushed && contact.target == HitTarget::piece && world.motion(contact.piece).dt > 0.f;
        float& worst = crushing ? stats.max_crushed_depth : stats.max_penetration;
        worst = std::max(worst, -contact.distance);
      }
      glm::vec3 to_goal = goals[i] - c.position();
      to_goal.y = 0.f;
      const glm::vec3 walk(velocities[i].x, 0.f, velocities[i].z);
      const float wanted = glm::length(walk) * crowd.dt;
      const bool stuck = wanted > 0.f && glm::dot(r.displacement, walk) < 0.1f * wanted * glm::length(walk);
      stats.stuck += stuck;
      stuck_for[i] = stuck ? stuck_for[i] + 1 : 0;
      if (glm::length(to_goal) < k_goal_reached || stuck_for[i] >= k_stuck_give_up) {
        stats.goals_reached += glm::length(to_goal) < k_goal_reached;
        goals[i] = new_goal();
        stuck_for[i] = 0;
      }
    }
    pair_gaps(set, settings.skin_width, stats.closest_pair, stats.pair_overlaps);
    if (frame % std::max(1, crowd.path_every) == 0)
      for (std::size_t i = 0; i < paths.size(); ++i) {
        FrameRecord f;
        const Controller& c = set.controller(CharacterId{static_cast<std::uint32_t>(i)});
        f.position = c.position();
        f.ground = c.ground().state;
        paths[i].push_back(f);
      }
  }
  for (std::vector<FrameRecord>& path : paths) {
    if (path.empty()) continue;
    path.front().path_start = true;
    stats.paths.insert(stats.paths.end(), path.begin(), path.end());
  }
  stats.hash = hash.value();
  std::sort(frame_us.begin(), frame_us.end());
  stats.median_frame_us = frame_us[frame_us.size() / 2];
  stats.max_frame_us = frame_us.back();
  return stats;
}

} // namespace glide::demo
