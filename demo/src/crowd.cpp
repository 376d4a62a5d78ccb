#include "crowd.hpp"

#include "crowd_walk.hpp"
#include "moving_pieces.hpp"

#include <glide/controller/character_set.hpp>
#include <glide/error.hpp>
#include <glide/gjk/segment_pair.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <numeric>
#include <string>

namespace glide::demo {

namespace {

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
  if (spots.size() < static_cast<std::size_t>(crowd.count))
    throw Error("glide demo --crowd: found room for only " + std::to_string(spots.size()) + " of " +
                std::to_string(crowd.count) + " characters around the spawn");

  CharacterSet set(world);
  for (const glm::vec3& spot : spots) set.add(settings, spot);
  const std::size_t n = set.size();
  CrowdSteering steering(n, level.spawn, crowd.route_radius, crowd.speed, crowd.seed);
  std::vector<glm::vec3> velocities(n);
  // The map shows the paths of the first characters only: enough to see the flow.
  std::vector<std::vector<FrameRecord>> paths(std::min<std::size_t>(n, k_mapped_paths));

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
    steering.steer(set, crowd.dt, velocities);
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
      const CrowdSteering::Progress progress = steering.advance(set, i, velocities[i], crowd.dt);
      stats.stuck += progress.stuck;
      stats.goals_reached += progress.reached;
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
