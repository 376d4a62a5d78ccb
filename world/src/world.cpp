#include "bvh.hpp"

#include <glide/error.hpp>
#include <glide/limits.hpp>
#include <glide/world/world.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>

namespace glide {

namespace {

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

void validate(const gjk::Transform& t) {
  const glm::quat& q = t.rotation;
  const float len = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  if (!std::isfinite(len) || std::abs(len - 1.f) > 1e-3f)
    throw Error("World: piece rotation must be a unit quaternion, got (w " + std::to_string(q.w) + ", x " +
                std::to_string(q.x) + ", y " + std::to_string(q.y) + ", z " + std::to_string(q.z) + ")");
  if (!finite(t.translation))
    throw Error("World: piece translation is not finite (" + std::to_string(t.translation.x) + ", " +
                std::to_string(t.translation.y) + ", " + std::to_string(t.translation.z) + ")");
}

// Bakes the placement into world-space vertices: static pieces are queried far more often than
// moved, and a plain point cloud saves two rotations per support call.
void place(const gjk::ConvexHull& hull, const gjk::Transform& t, std::vector<glm::vec3>& out, gjk::Aabb& bounds) {
  const auto vertices = hull.vertices();
  out.resize(vertices.size()); // a re-placed piece keeps its storage: moving pieces do this every frame
  bounds = gjk::Aabb{};
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    out[i] = t.apply(vertices[i]);
    bounds = bounds.merged(out[i]);
  }
}

// Throws unless the placed piece lies inside the valid coordinate range (limits.hpp).
void check_placed(const gjk::Aabb& bounds, const char* call) {
  if (!limits::in_range(bounds.min) || !limits::in_range(bounds.max))
    throw Error(std::string(call) + ": the placed piece spans " + limits::vec_text(bounds.min) + " to " +
                limits::vec_text(bounds.max) +
                ", beyond the valid coordinates (|v| <= " + limits::number_text(limits::k_max_coordinate) + " m)");
}

// Revisions are unique across every world, so a cache keyed on (world address, revision)
// also notices a world moved into the same object.
std::uint64_t next_revision() {
  static std::atomic<std::uint64_t> counter{0};
  return ++counter;
}

} // namespace

World::World()
    : revision_(next_revision()), structure_revision_(revision_) {} // the hierarchy is created by the first update()
World::~World() = default;

// Moving leaves the source an empty world, not one with stale counts or terrain.
World::World(World&& other) noexcept { swap(other); }

World& World::operator=(World&& other) noexcept {
  World taken(std::move(other));
  swap(taken);
  return *this;
}

void World::swap(World& other) noexcept {
  std::swap(pieces_, other.pieces_);
  std::swap(ever_moved_, other.ever_moved_);
  std::swap(live_count_, other.live_count_);
  std::swap(terrain_, other.terrain_);
  std::swap(terrain_layers_, other.terrain_layers_);
  std::swap(bvh_, other.bvh_);
  std::swap(bvh_dirty_, other.bvh_dirty_);
  std::swap(moved_, other.moved_);
  std::swap(build_index_, other.build_index_);
  std::swap(rebuilds_, other.rebuilds_);
  std::swap(refits_, other.refits_);
  revision_ = next_revision();
  other.revision_ = next_revision();
  structure_revision_ = revision_;
  other.structure_revision_ = other.revision_;
}

PieceId World::add_piece(gjk::ConvexHull hull, gjk::Transform transform, PieceInfo info) {
  if (hull.empty())
    throw Error("World::add_piece: hull is empty (a default-constructed gjk::ConvexHull); build it from points or "
                "with ConvexHull::box, wedge or cylinder");
  validate(transform);
  const glm::vec3 size = hull.bounds_max() - hull.bounds_min();
  if (!(std::max({size.x, size.y, size.z}) <= limits::k_max_piece_size))
    throw Error("World::add_piece: hull size " + limits::vec_text(size) + " exceeds the largest piece of " +
                limits::number_text(limits::k_max_piece_size) + " m along an axis");
  if (pieces_.size() >= ~0u - 1u) throw Error("World: too many pieces");
  Piece p{std::move(hull), transform, info, {}, {}, {transform, transform, {}, {}, 0.f, 0}, true, false, false};
  place(p.hull, p.transform, p.world_vertices, p.bounds);
  check_placed(p.bounds, "World::add_piece");
  pieces_.push_back(std::move(p));
  ++live_count_;
  bvh_dirty_ = true;
  revision_ = structure_revision_ = next_revision();
  return PieceId{static_cast<std::uint32_t>(pieces_.size() - 1)};
}

void World::remove_piece(PieceId id) {
  Piece& p = piece(id);
  if (p.ever_moved) ever_moved_.erase(std::find(ever_moved_.begin(), ever_moved_.end(), id));
  p.alive = false;
  p.world_vertices = {};
  --live_count_;
  bvh_dirty_ = true;
  revision_ = structure_revision_ = next_revision();
}

void World::set_piece_transform(PieceId id, gjk::Transform transform) {
  validate(transform);
  Piece& p = piece(id);
  replace_checked(p, transform, "World::set_piece_transform");
  p.transform = transform;
  p.motion = {transform, transform, {}, {}, 0.f, next_revision()};
  placed(id);
}

// Places the piece's vertices at `pose`; when that leaves the valid range, puts them back
// where they were and throws, so a failed call changes nothing.
void World::replace_checked(Piece& p, const gjk::Transform& pose, const char* call) {
  place(p.hull, pose, p.world_vertices, p.bounds);
  try {
    check_placed(p.bounds, call);
  } catch (const Error&) {
    place(p.hull, p.transform, p.world_vertices, p.bounds);
    throw;
  }
}

// A moved piece keeps its place in the hierarchy: listed once for the next update's refit,
// unless a rebuild is due anyway.
void World::placed(PieceId id) {
  Piece& p = pieces_[id.value];
  if (!p.ever_moved) {
    p.ever_moved = true;
    ever_moved_.push_back(id);
  }
  if (bvh_ && !bvh_dirty_ && !p.refit_queued) {
    p.refit_queued = true;
    moved_.push_back(id.value);
  }
  revision_ = p.motion.serial; // already new: one counter step per move
}

void World::move_piece(PieceId id, const gjk::Transform& pose, float dt) {
  validate(pose);
  if (!(dt > 0.f && std::isfinite(dt)))
    throw Error("World::move_piece: dt must be positive and finite, got " + std::to_string(dt));
  Piece& p = piece(id);
  replace_checked(p, pose, "World::move_piece");
  PieceMotion m{p.transform, pose, (pose.translation - p.transform.translation) / dt, {}, dt, next_revision()};
  // The turn from the old pose to the new, as an axis and an angle of at most half a turn.
  glm::quat turn = pose.rotation * glm::conjugate(p.transform.rotation);
  if (turn.w < 0.f) turn = -turn;
  const glm::vec3 axis(turn.x, turn.y, turn.z);
  const float sine = glm::length(axis);
  if (sine > 0.f) m.angular = axis * (2.f * std::atan2(sine, turn.w) / (sine * dt));
  p.transform = pose;
  p.motion = m;
  placed(id);
}

const PieceMotion& World::motion(PieceId id) const { return piece(id).motion; }

glm::vec3 World::point_velocity(PieceId id, const glm::vec3& point) const {
  return piece(id).motion.velocity_at(point);
}

bool World::contains(PieceId id) const { return id.value < pieces_.size() && pieces_[id.value].alive; }

const World::Piece& World::piece(PieceId id) const {
  if (!contains(id)) throw Error("World: unknown or removed piece id " + std::to_string(id.value));
  return pieces_[id.value];
}

World::Piece& World::piece(PieceId id) {
  if (!contains(id)) throw Error("World: unknown or removed piece id " + std::to_string(id.value));
  return pieces_[id.value];
}

const gjk::ConvexHull& World::hull(PieceId id) const { return piece(id).hull; }
const gjk::Transform& World::transform(PieceId id) const { return piece(id).transform; }
const PieceInfo& World::info(PieceId id) const { return piece(id).info; }
const gjk::Aabb& World::bounds(PieceId id) const { return piece(id).bounds; }
std::span<const glm::vec3> World::world_vertices(PieceId id) const { return piece(id).world_vertices; }

std::vector<PieceId> World::piece_ids() const {
  std::vector<PieceId> ids;
  ids.reserve(live_count_);
  for (std::uint32_t i = 0; i < pieces_.size(); ++i)
    if (pieces_[i].alive) ids.push_back(PieceId{i});
  return ids;
}

void World::set_terrain(Heightfield terrain, std::uint32_t layers) {
  terrain_.emplace(std::move(terrain));
  terrain_layers_ = layers;
  revision_ = structure_revision_ = next_revision();
}

void World::clear_terrain() {
  terrain_.reset();
  revision_ = structure_revision_ = next_revision();
}

void World::update() const {
  if (!bvh_) {
    bvh_ = std::make_unique<detail::Bvh>();
    bvh_dirty_ = true;
  }
  if (bvh_dirty_) return rebuild();
  if (moved_.empty()) return;
  // Each refit's data is fetched while earlier ones run: first the piece's record and its
  // place in the hierarchy, then what the refit reads there (bvh.hpp, prefetch_refit).
  constexpr std::size_t k_ahead = 4;
  const std::size_t n = moved_.size();
  for (std::size_t j = 0; j < n; ++j) {
    if (j + 3 * k_ahead < n) {
      __builtin_prefetch(&pieces_[moved_[j + 3 * k_ahead]]);
      __builtin_prefetch(&build_index_[moved_[j + 3 * k_ahead]]);
    }
    if (j + 2 * k_ahead < n) {
      const std::uint32_t ahead = moved_[j + 2 * k_ahead];
      __builtin_prefetch(pieces_[ahead].world_vertices.data());
      bvh_->prefetch_refit_record(build_index_[ahead]);
    }
    if (j + k_ahead < n) bvh_->prefetch_refit(build_index_[moved_[j + k_ahead]]);
    const Piece& p = pieces_[moved_[j]];
    p.refit_queued = false;
    bvh_->refit(build_index_[moved_[j]], p.bounds, p.world_vertices);
  }
  moved_.clear();
  ++refits_;
  if (bvh_->area() > k_rebuild_area_ratio * bvh_->built_area() || bvh_->reach_growth() > k_rebuild_reach_growth)
    rebuild();
}

void World::rebuild() const {
  for (const std::uint32_t i : moved_) pieces_[i].refit_queued = false;
  moved_.clear();
  std::vector<gjk::Aabb> boxes;
  std::vector<std::uint32_t> ids;
  std::vector<detail::ItemPayload> payloads;
  boxes.reserve(live_count_);
  ids.reserve(live_count_);
  payloads.reserve(live_count_);
  build_index_.resize(pieces_.size());
  for (std::uint32_t i = 0; i < pieces_.size(); ++i) {
    const Piece& p = pieces_[i];
    if (!p.alive) continue;
    build_index_[i] = static_cast<std::uint32_t>(ids.size());
    boxes.push_back(p.bounds);
    ids.push_back(i);
    payloads.push_back({p.info.layers, p.world_vertices});
  }
  bvh_->build(boxes, ids, payloads);
  bvh_dirty_ = false;
  ++rebuilds_;
}

} // namespace glide
