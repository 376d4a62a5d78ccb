#include "bvh.hpp"
#include "mesh_piece.hpp"
#include "placement.hpp"

#include <glide/error.hpp>
#include <glide/limits.hpp>
#include <glide/world/world.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>
#include <string>

namespace glide {

namespace {

using limits::finite;

void validate(const gjk::Transform& t) {
  const glm::quat& q = t.rotation;
  // |q| within 1e-3 of 1, tested on its square: no square root on every move.
  const float len2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
  if (!(len2 >= 0.998001f && len2 <= 1.002001f))
    throw Error("World: piece rotation must be a unit quaternion, got (w " + std::to_string(q.w) + ", x " +
                std::to_string(q.x) + ", y " + std::to_string(q.y) + ", z " + std::to_string(q.z) + ")");
  if (!finite(t.translation))
    throw Error("World: piece translation is not finite (" + std::to_string(t.translation.x) + ", " +
                std::to_string(t.translation.y) + ", " + std::to_string(t.translation.z) + ")");
}

// Throws unless the placed piece lies inside the valid coordinate range (limits.hpp): `far` is
// its largest |coordinate| (detail::place).
void check_placed(float far, const gjk::Aabb& bounds, const char* call) {
  if (!(far <= limits::k_max_coordinate))
    throw Error(std::string(call) + ": the placed piece spans " + limits::vec_text(bounds.min) + " to " +
                limits::vec_text(bounds.max) +
                ", beyond the valid coordinates (|v| <= " + limits::number_text(limits::k_max_coordinate) + " m)");
}

// Revisions are unique across every world, so a cache keyed on (world address, revision)
// also notices a world moved into the same object: a world counts its changes in the low
// bits from an epoch of its own, taken from one increasing counter. Per-world counting keeps
// an atomic (a barrier that waits on every pending store) out of each move.
constexpr int k_revision_count_bits = 40;
std::uint64_t new_epoch() {
  static std::atomic<std::uint64_t> epochs{0};
  return ++epochs << k_revision_count_bits;
}

} // namespace

std::uint64_t World::next_revision() const {
  constexpr std::uint64_t k_count_mask = (std::uint64_t{1} << k_revision_count_bits) - 1;
  const std::uint64_t next = revision_ + 1;
  return (next & k_count_mask) != 0 ? next : new_epoch() + 1; // a later epoch: still increasing
}

World::World()
    : revision_(new_epoch()), structure_revision_(revision_) {} // the hierarchy is created by the first update()
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
  std::swap(hulls_, other.hulls_);
  std::swap(meshes_, other.meshes_);
  std::swap(ever_moved_, other.ever_moved_);
  std::swap(live_count_, other.live_count_);
  std::swap(terrain_, other.terrain_);
  std::swap(terrain_layers_, other.terrain_layers_);
  std::swap(trees_, other.trees_);
  std::swap(dirty_, other.dirty_);
  std::swap(moved_, other.moved_);
  std::swap(build_index_, other.build_index_);
  std::swap(rebuilds_, other.rebuilds_);
  std::swap(refits_, other.refits_);
  std::swap(origin_, other.origin_);
  revision_ = new_epoch();
  other.revision_ = new_epoch();
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
  Piece p{transform,
          info,
          {},
          {},
          {transform, transform, {}, {}, 0.f, 0},
          true,
          false,
          false,
          info.kinematic ? k_moving_tree : k_static_tree};
  check_placed(detail::place(hull, p.transform, p.world_vertices, p.bounds), p.bounds, "World::add_piece");
  dirty_[p.tree] = true;
  pieces_.push_back(std::move(p));
  hulls_.push_back(std::move(hull));
  ++live_count_;
  revision_ = structure_revision_ = next_revision();
  return PieceId{static_cast<std::uint32_t>(pieces_.size() - 1)};
}

void World::remove_piece(PieceId id) {
  Piece& p = piece(id);
  if (p.ever_moved) ever_moved_.erase(std::find(ever_moved_.begin(), ever_moved_.end(), id));
  p.alive = false;
  p.world_vertices = {};
  hulls_[id.value] = {};
  meshes_.erase(id.value);
  --live_count_;
  dirty_[p.tree] = true;
  revision_ = structure_revision_ = next_revision();
}

void World::set_piece_transform(PieceId id, gjk::Transform transform) {
  validate(transform);
  Piece& p = piece(id);
  replace_checked(id, transform, "World::set_piece_transform");
  p.transform = transform;
  p.motion = {transform, transform, {}, {}, 0.f, next_revision()};
  placed(id);
}

// Places the piece's vertices at `pose`; when that leaves the valid range, puts them back
// where they were and throws, so a failed call changes nothing.
void World::replace_checked(PieceId id, const gjk::Transform& pose, const char* call) {
  Piece& p = pieces_[id.value];
  if (meshes_.contains(id.value))
    throw Error(std::string(call) + ": piece " + std::to_string(id.value) + " is a triangle mesh, which is static");
  const float far = detail::place(hulls_[id.value], pose, p.world_vertices, p.bounds);
  try {
    check_placed(far, p.bounds, call);
  } catch (const Error&) {
    detail::place(hulls_[id.value], p.transform, p.world_vertices, p.bounds);
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
  if (trees_[0] && !dirty_[p.tree] && !p.refit_queued) {
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
  const glm::vec3 linear = (pose.translation - p.transform.translation) / dt;
  const glm::vec3 angular = detail::angular_velocity(p.transform.rotation, pose.rotation, dt);
  // Its points' velocities, anywhere in the range, must stay measurable (their squares finite):
  // a dt far below any frame's turns a small move into one faster than a float holds.
  const double shift = glm::length(glm::dvec3(pose.translation) - glm::dvec3(p.transform.translation));
  const double fastest = shift / dt + glm::length(glm::dvec3(angular)) * 2.0 * limits::k_max_coordinate;
  if (!(fastest <= limits::k_max_speed)) {
    const double turn = 2.0 * std::acos(std::min(1.0, double(std::abs(glm::dot(p.transform.rotation, pose.rotation)))));
    throw Error("World::move_piece: dt = " + limits::number_text(dt) + " s is too short for a move of " +
                limits::number_text(float(shift)) + " m and a turn of " + limits::number_text(float(turn)) +
                " rad: the piece's points would go faster than " + limits::number_text(limits::k_max_speed) + " m/s");
  }
  replace_checked(id, pose, "World::move_piece");
  // Written field by field into the record: a PieceMotion built aside and copied whole makes
  // the compiler reload its scalar stores as vectors, which stalls.
  PieceMotion& m = p.motion;
  m.from = p.transform;
  m.to = pose;
  m.linear = linear;
  m.dt = dt;
  m.serial = next_revision();
  m.angular = angular;
  p.transform = pose;
  placed(id);
}

glm::vec3 World::point_velocity(PieceId id, const glm::vec3& point) const {
  return piece(id).motion.velocity_at(point);
}

const World::Piece& World::piece(PieceId id) const {
  if (!contains(id)) throw Error("World: unknown or removed piece id " + std::to_string(id.value));
  return pieces_[id.value];
}

World::Piece& World::piece(PieceId id) {
  if (!contains(id)) throw Error("World: unknown or removed piece id " + std::to_string(id.value));
  return pieces_[id.value];
}

const gjk::ConvexHull& World::hull(PieceId id) const {
  piece(id); // checks the id
  if (meshes_.contains(id.value))
    throw Error("World::hull: piece " + std::to_string(id.value) +
                " is a triangle mesh, which has no hull (World::mesh gives its triangles)");
  return hulls_[id.value];
}
const gjk::Transform& World::transform(PieceId id) const { return piece(id).transform; }
const PieceInfo& World::info(PieceId id) const { return piece(id).info; }
const gjk::Aabb& World::bounds(PieceId id) const { return piece(id).bounds; }
std::span<const glm::vec3> World::world_vertices(PieceId id) const {
  const Piece& p = piece(id);
  if (p.world_vertices.empty()) return mesh_piece(id).world_vertices; // only meshes have none
  return p.world_vertices;
}

std::vector<PieceId> World::piece_ids() const {
  std::vector<PieceId> ids;
  ids.reserve(live_count_);
  for (std::uint32_t i = 0; i < pieces_.size(); ++i)
    if (pieces_[i].alive) ids.push_back(PieceId{i});
  return ids;
}

namespace {

glm::vec3 moved_by(const glm::vec3& v, const glm::dvec3& by) { return glm::vec3(glm::dvec3(v) + by); }

void check_global(const glm::dvec3& p, const char* call, const char* what) {
  if (!limits::in_global_range(p.x) || !limits::in_global_range(p.y) || !limits::in_global_range(p.z))
    throw Error(std::string(call) + ": " + what + " " + limits::vec_text(p) + " is not finite or beyond " +
                limits::number_text(limits::k_max_global_coordinate) + " m");
}

} // namespace

glm::vec3 World::to_local(const glm::dvec3& position) const {
  check_global(position, "World::to_local", "position");
  const glm::vec3 local(position - origin_);
  if (!limits::in_range(local))
    throw Error("World::to_local: position " + limits::vec_text(position) + " is " + limits::vec_text(local) +
                " from the world's origin " + limits::vec_text(origin_) +
                ", beyond the valid coordinates (|v| <= " + limits::number_text(limits::k_max_coordinate) + " m)");
  return local;
}

void World::shift_origin(const glm::dvec3& origin) {
  check_global(origin, "World::shift_origin", "origin");
  const glm::dvec3 by = origin_ - origin; // what every float position gains
  if (by == glm::dvec3(0.0)) return;
  // Checked first, on the boxes moved in double, so a failed shift changes nothing; a box
  // within an eighth of a metre of the range's edge (a float step there) is refused.
  constexpr double k_edge = static_cast<double>(limits::k_max_coordinate) - 0.125;
  for (const Piece& p : pieces_) {
    if (!p.alive) continue;
    const glm::dvec3 lo = glm::dvec3(p.bounds.min) + by, hi = glm::dvec3(p.bounds.max) + by;
    if (!(std::max({-lo.x, -lo.y, -lo.z, hi.x, hi.y, hi.z}) <= k_edge))
      throw Error("World::shift_origin: a piece would span " + limits::vec_text(lo) + " to " + limits::vec_text(hi) +
                  " from the new origin, beyond the valid coordinates (|v| <= " +
                  limits::number_text(limits::k_max_coordinate) + " m)");
  }
  std::optional<Heightfield> terrain = terrain_;
  if (terrain) terrain->translate(by);
  for (std::uint32_t i = 0; i < pieces_.size(); ++i) {
    Piece& p = pieces_[i];
    if (!p.alive) continue;
    p.transform.translation = moved_by(p.transform.translation, by);
    if (const auto mesh = meshes_.find(i); mesh != meshes_.end()) {
      // Its triangles' hierarchy is built over their placed corners: placed and built anew.
      mesh->second = std::make_unique<detail::MeshPiece>(std::move(mesh->second->mesh), p.transform);
      p.bounds = mesh->second->bounds;
    } else {
      detail::place(hulls_[i], p.transform, p.world_vertices, p.bounds); // in place: no allocation
    }
    // The last motion keeps its serial: a character that rode it is not carried again.
    p.motion.from.translation = moved_by(p.motion.from.translation, by);
    p.motion.to.translation = p.transform.translation;
  }
  terrain_ = std::move(terrain);
  origin_ = origin;
  dirty_ = {true, true};
  revision_ = structure_revision_ = next_revision();
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
  if (!trees_[0]) {
    for (auto& tree : trees_) tree = std::make_unique<detail::Bvh>();
    dirty_ = {true, true};
  }
  if (dirty_[k_static_tree]) rebuild(k_static_tree);
  // A static piece that moved leaves the static tree at once: its leaf there is taken out, and
  // the moving tree is rebuilt with it (a thousand pieces take well under a millisecond).
  bool left_static = false;
  for (const std::uint32_t i : moved_) {
    const Piece& p = pieces_[i];
    if (p.tree != k_static_tree) continue;
    trees_[k_static_tree]->stage_removal(build_index_[i]);
    p.tree = k_moving_tree;
    left_static = true;
  }
  if (left_static) {
    trees_[k_static_tree]->finish_refits();
    dirty_[k_moving_tree] = true;
  }
  if (dirty_[k_moving_tree]) rebuild(k_moving_tree);
  if (moved_.empty()) return;
  // Every moved piece is in the moving tree by now (above): only that tree is refitted, and only
  // it can loosen; the static tree changes only by rebuilds and removals.
  detail::Bvh& moving = *trees_[k_moving_tree];
  // Each refit's data is fetched while earlier ones run: first the piece's record and its
  // place in the hierarchy, then what the refit reads there (bvh.hpp, prefetch_refit).
  constexpr std::size_t k_ahead = 8;
  const std::size_t n = moved_.size();
  for (std::size_t j = 0; j < n; ++j) {
    if (j + 3 * k_ahead < n) {
      __builtin_prefetch(&pieces_[moved_[j + 3 * k_ahead]]);
      __builtin_prefetch(&build_index_[moved_[j + 3 * k_ahead]]);
    }
    if (j + 2 * k_ahead < n) {
      __builtin_prefetch(pieces_[moved_[j + 2 * k_ahead]].world_vertices.data());
      moving.prefetch_refit_record(build_index_[moved_[j + 2 * k_ahead]]);
    }
    if (j + k_ahead < n) moving.prefetch_refit(build_index_[moved_[j + k_ahead]]);
    const Piece& p = pieces_[moved_[j]];
    p.refit_queued = false;
    moving.stage_refit(build_index_[moved_[j]], p.bounds, p.world_vertices);
  }
  moving.finish_refits();
  moved_.clear();
  ++refits_;
  if (degraded(k_moving_tree)) rebuild(k_moving_tree);
}

bool World::degraded(std::uint8_t tree) const {
  const detail::Bvh& bvh = *trees_[tree];
  return bvh.area() > k_rebuild_area_ratio * bvh.built_area() || bvh.reach_growth() > k_rebuild_reach_growth;
}

void World::rebuild(std::uint8_t tree) const {
  const bool both = tree == k_static_tree;
  // Moves waiting for a refit of a tree about to be rebuilt are taken up by the rebuild.
  std::erase_if(moved_, [&](std::uint32_t i) {
    if (!both && pieces_[i].tree != tree) return false;
    pieces_[i].refit_queued = false;
    return true;
  });
  if (both)
    for (const Piece& p : pieces_) p.tree = p.info.kinematic || p.ever_moved ? k_moving_tree : k_static_tree;
  build_index_.resize(pieces_.size());
  for (std::uint8_t t = both ? k_static_tree : tree; t <= k_moving_tree; ++t) {
    std::vector<gjk::Aabb> boxes;
    std::vector<std::uint32_t> ids;
    std::vector<detail::ItemPayload> payloads;
    for (std::uint32_t i = 0; i < pieces_.size(); ++i) {
      const Piece& p = pieces_[i];
      if (!p.alive || p.tree != t) continue;
      build_index_[i] = static_cast<std::uint32_t>(ids.size());
      boxes.push_back(p.bounds);
      ids.push_back(i);
      payloads.push_back({p.info.layers, p.world_vertices});
    }
    trees_[t]->build(boxes, ids, payloads);
    dirty_[t] = false;
  }
  ++rebuilds_;
}

} // namespace glide
