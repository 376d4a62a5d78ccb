// A crowd's frame: neighbours from a grid, every move against the start-of-frame capsules, then
// the moves that ended in an overlap taken back and made again one by one in id order.
#include <glide/controller/character_set.hpp>
#include <glide/error.hpp>
#include <glide/gjk/segment_pair.hpp>
#include <glide/world/world.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <string>
#include <utility>

namespace glide {

namespace {

// A reach wider than this many of the largest body is checked against every character instead
// of widening the grid's cells (count).
constexpr float k_oversized_bodies = 4.f;

// The run that takes the calling thread when the game gives no job hook.
void run_here(std::size_t count, const std::function<void(std::size_t, std::size_t)>& body) {
  if (count > 0) body(0, count);
}

} // namespace

CharacterSet::CharacterSet(const World& world) : world_(&world) {}

CharacterId CharacterSet::add(const ControllerSettings& settings, const glm::vec3& position,
                              const CharacterInfo& info) {
  if (!std::isfinite(info.mass) || !(info.mass > 0.f))
    throw Error("CharacterSet::add: CharacterInfo::mass = " + std::to_string(info.mass) +
                " must be positive and finite (kg)");
  Character c;
  c.controller = std::make_unique<Controller>(*world_, settings, position);
  c.info = info;
  c.result.position = position;
  c.result.ground = c.controller->ground();
  c.checkpoint = c.controller->checkpoint();
  characters_.push_back(std::move(c));
  return CharacterId{static_cast<std::uint32_t>(characters_.size() - 1)};
}

CharacterSet::Character& CharacterSet::at(CharacterId id) {
  if (id.value >= characters_.size())
    throw Error("CharacterSet: character id " + std::to_string(id.value) + " is not in the set (" +
                std::to_string(characters_.size()) + " characters)");
  return characters_[id.value];
}
const CharacterSet::Character& CharacterSet::at(CharacterId id) const {
  return const_cast<CharacterSet*>(this)->at(id);
}

Controller& CharacterSet::controller(CharacterId id) { return *at(id).controller; }
const Controller& CharacterSet::controller(CharacterId id) const { return *at(id).controller; }
const MoveResult& CharacterSet::result(CharacterId id) const { return at(id).result; }

// Everything a character's move may touch lies in its reach: its capsule grown by the motion
// and what a move queries beyond it (steps, floor snap, ground probe, the skin). Neighbours come
// from a grid over the two axes the crowd spreads most along, in cells at least as wide as any
// reach: each character goes into the one cell of its reach's low corner, so the characters
// whose reach can meet i's lie in the cells from one before i's low corner to its high corner.
// Cells hash into buckets, counted and filled in id order (a counting sort). Reaches wider than
// a cell (a fast fall) are checked against every character instead. Whatever the grid, `near`
// is exactly the others whose reach meets i's, in id order.
void CharacterSet::find_neighbours(float dt, std::span<const glm::vec3> velocities, const ParallelFor& run) {
  const std::size_t n = characters_.size();
  start_.resize(n);
  reach_.resize(n);
  float body_size = 0.f;
  gjk::Aabb all;
  for (std::size_t i = 0; i < n; ++i) {
    const Character& c = characters_[i];
    const Controller& k = *c.controller;
    const ControllerSettings& s = k.settings();
    start_[i] = {k.capsule(), c.velocity, c.info.layers, CharacterId{static_cast<std::uint32_t>(i)}};
    const float margin = glm::length(velocities[i]) * dt + s.step_height + s.step_min_forward + s.floor_snap_distance +
                         4.f * s.skin_width;
    const gjk::Aabb body = gjk::capsule_bounds(start_[i].capsule);
    reach_[i] = body.expanded(margin);
    const glm::vec3 size = body.max - body.min;
    body_size = std::max(body_size, std::max({size.x, size.y, size.z}));
    all.min = glm::min(all.min, reach_[i].min);
    all.max = glm::max(all.max, reach_[i].max);
  }
  if (n == 0) return;

  // The grid's axes: the two the crowd spans most (a crowd on a floor: the floor's).
  const glm::vec3 spread = all.max - all.min;
  int skip = 0;
  for (int a = 1; a < 3; ++a)
    if (spread[a] < spread[skip]) skip = a;
  const int ax = skip == 0 ? 1 : 0, az = skip == 2 ? 1 : 2;
  // Cells as wide as the widest reach, but a reach far wider than a body (a fast one) does not
  // widen them for all: it is oversized instead. 1 % over, so rounding never loses a neighbour.
  const float widest = std::max(1.f, k_oversized_bodies * body_size);
  float cell = 0.f;
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec3 size = reach_[i].max - reach_[i].min;
    const float width = std::max(size[ax], size[az]);
    if (width <= widest) cell = std::max(cell, width);
  }
  cell = std::max(cell, 1.f) * 1.01f;

  const std::size_t buckets = std::bit_ceil(std::max<std::size_t>(16, 2 * n));
  const auto bucket_of = [&](std::int64_t x, std::int64_t z) {
    std::uint64_t h =
        static_cast<std::uint64_t>(x) * 0x9e3779b97f4a7c15ull ^ static_cast<std::uint64_t>(z) * 0xc2b2ae3d27d4eb4full;
    h ^= h >> 29;
    return static_cast<std::size_t>(h & (buckets - 1));
  };
  const auto cell_of = [&](float v) { return static_cast<std::int64_t>(std::floor(v / cell)); };
  cell_bucket_.resize(n);
  bucket_start_.assign(buckets + 1, 0);
  oversized_.clear();
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec3 size = reach_[i].max - reach_[i].min;
    if (size[ax] > cell || size[az] > cell) {
      oversized_.push_back(static_cast<std::uint32_t>(i));
      cell_bucket_[i] = buckets;
      continue;
    }
    cell_bucket_[i] = static_cast<std::uint32_t>(bucket_of(cell_of(reach_[i].min[ax]), cell_of(reach_[i].min[az])));
    ++bucket_start_[cell_bucket_[i] + 1];
  }
  for (std::size_t b = 0; b < buckets; ++b) bucket_start_[b + 1] += bucket_start_[b];
  in_buckets_.resize(n - oversized_.size());
  {
    std::vector<std::uint32_t>& fill = bucket_fill_;
    fill.assign(bucket_start_.begin(), bucket_start_.end() - 1);
    for (std::size_t i = 0; i < n; ++i)
      if (cell_bucket_[i] != buckets) in_buckets_[fill[cell_bucket_[i]]++] = static_cast<std::uint32_t>(i);
  }

  run(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      std::vector<std::uint32_t>& near = characters_[i].near;
      near.clear();
      const gjk::Aabb& mine = reach_[i];
      const auto consider = [&](std::uint32_t j) {
        if (j != i && reach_[j].overlaps(mine)) near.push_back(j);
      };
      if (cell_bucket_[i] == buckets) {
        for (std::size_t j = 0; j < n; ++j) consider(static_cast<std::uint32_t>(j));
        continue;
      }
      // Up to 3 x 3 cells; cells sharing a bucket are visited once.
      std::array<std::size_t, 9> seen{};
      std::size_t seen_count = 0;
      const std::int64_t x1 = cell_of(mine.max[ax]), z1 = cell_of(mine.max[az]);
      for (std::int64_t x = cell_of(mine.min[ax]) - 1; x <= x1; ++x)
        for (std::int64_t z = cell_of(mine.min[az]) - 1; z <= z1; ++z) {
          const std::size_t b = bucket_of(x, z);
          if (std::find(seen.begin(), seen.begin() + seen_count, b) != seen.begin() + seen_count) continue;
          seen[seen_count++] = b;
          for (std::uint32_t k = bucket_start_[b]; k < bucket_start_[b + 1]; ++k) consider(in_buckets_[k]);
        }
      for (const std::uint32_t j : oversized_) consider(j);
      std::sort(near.begin(), near.end());
    }
  });
}

// One character's move against the others as `start_` (and, for a second try, the
// characters' current capsules) holds them.
void CharacterSet::move_one(std::size_t i, const glm::vec3& velocity, float dt, bool from_start) {
  Character& c = characters_[i];
  const std::uint32_t mask = c.controller->settings().layer_mask;
  c.others.clear();
  for (const std::uint32_t j : c.near) {
    CapsuleObstacle o = start_[j];
    if ((o.layers & mask) == 0) continue;
    if (!from_start) o.capsule = characters_[j].controller->capsule();
    c.others.push_back(o);
  }
  c.controller->set_characters(c.others);
  c.result = c.controller->move(velocity, dt);
  c.controller->set_characters({});
}

// What a character moves by this frame: its input, the last velocity of the character it
// stands on (a one-frame lag, as every character moves against the others' start of frame),
// and the pushes of the characters that walked into it last frame.
glm::vec3 CharacterSet::carried_velocity(std::size_t i, const glm::vec3& input) const {
  const Character& c = characters_[i];
  glm::vec3 v = input + c.pushed;
  const GroundInfo& ground = c.controller->ground();
  if (ground.state == GroundState::on_ground && ground.target == HitTarget::character &&
      ground.character.value < characters_.size()) {
    const glm::vec3& up = c.controller->settings().up;
    const glm::vec3 under = characters_[ground.character.value].velocity;
    v += under - up * glm::dot(under, up); // along the ground: falling with it is gravity's job
  }
  return v;
}

// Each pusher that walked into another gives it, for the next frame, the part of its velocity
// into it scaled by the mass ratio m / (m + m_other), along the ground: the pair then moves on
// together as the pusher's momentum shared. In id order, so the sums are the same on any thread.
void CharacterSet::gather_pushes(std::span<const glm::vec3> moved_by) {
  for (Character& c : characters_) c.pushed = glm::vec3(0.f);
  for (std::size_t i = 0; i < characters_.size(); ++i) {
    const Character& c = characters_[i];
    if (!c.info.push) continue;
    const glm::vec3& up = c.controller->settings().up;
    const MoveResult& r = c.result;
    for (int h = 0; h < r.hit_count; ++h) {
      const ControllerHit& hit = r.hits[static_cast<std::size_t>(h)];
      if (hit.target != HitTarget::character || hit.character.value >= characters_.size()) continue;
      Character& other = characters_[hit.character.value];
      glm::vec3 along = -(hit.normal - up * glm::dot(hit.normal, up)); // from the pusher into the other
      const float length = glm::length(along);
      if (length < 1e-3f) continue;
      along /= length;
      const float into = glm::dot(moved_by[i], along);
      if (into <= 0.f) continue;
      other.pushed += along * (into * c.info.mass / (c.info.mass + other.info.mass));
    }
  }
}

void CharacterSet::update(std::span<const glm::vec3> velocities, float dt, const ParallelFor& parallel_for) {
  const std::size_t n = characters_.size();
  if (velocities.size() != n)
    throw Error("CharacterSet::update: " + std::to_string(velocities.size()) + " velocities for " + std::to_string(n) +
                " characters");
  effective_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    try {
      characters_[i].controller->check_move(velocities[i], dt);
      effective_[i] = carried_velocity(i, velocities[i]);
      characters_[i].controller->check_move(effective_[i], dt);
    } catch (const Error& e) {
      throw Error("CharacterSet::update: character " + std::to_string(i) + ": " + e.what());
    }
  }
  velocities = effective_;
  const ParallelFor& run = parallel_for ? parallel_for : ParallelFor(run_here);
  world_->update(); // queries from many threads then only read the world
  find_neighbours(dt, velocities, run);

  run(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      characters_[i].checkpoint = characters_[i].controller->checkpoint();
      move_one(i, velocities[i], dt, true);
    }
  });

  // Which moves ended overlapping another's: each character decides for itself, symmetrically.
  run(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      Character& c = characters_[i];
      const gjk::Capsule mine = c.controller->capsule();
      c.conflict = false;
      for (const std::uint32_t j : c.near) {
        const Character& o = characters_[j];
        if ((start_[j].layers & c.controller->settings().layer_mask) == 0 &&
            (c.info.layers & o.controller->settings().layer_mask) == 0)
          continue;
        const gjk::Capsule theirs = o.controller->capsule();
        if (gjk::closest_points(mine.segment, theirs.segment).distance < mine.radius + theirs.radius) {
          c.conflict = true;
          break;
        }
      }
    }
  });

  last_conflicts_ = 0;
  for (Character& c : characters_)
    if (c.conflict) c.controller->rewind(c.checkpoint);
  for (std::size_t i = 0; i < n; ++i) {
    if (!characters_[i].conflict) continue;
    ++last_conflicts_;
    move_one(i, velocities[i], dt, false);
  }

  for (std::size_t i = 0; i < n; ++i) {
    Character& c = characters_[i];
    c.velocity = c.result.displacement / dt;
  }
  gather_pushes(velocities);
}

} // namespace glide
