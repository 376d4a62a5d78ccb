#pragma once

#include <glide/gjk/aabb.hpp>
#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/shapes.hpp>
#include <glide/terrain/heightfield.hpp>
#include <glide/world/query_types.hpp>
#include <glide/world/triangle_mesh.hpp>

#include <glm/ext/vector_double3.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace glide {

namespace detail {
class Bvh;
struct MeshPiece;
struct WorldAccess; // the world's own sources and its tests reach the hierarchy through it
} // namespace detail

/// What the hierarchy over the pieces looks like as last built or refitted (World::stats()): for
/// tools, budgets and tests.
struct WorldStats {
  std::size_t pieces = 0;          ///< live pieces in the hierarchy (count)
  std::size_t nodes = 0;           ///< 4-wide nodes the queries walk, 64 bytes each (count)
  std::size_t leaves = 0;          ///< leaf slots of those nodes, one piece each (count; equals pieces)
  std::size_t depth = 0;           ///< wide nodes on the longest path from the root to a leaf (count; 0 when empty)
  std::size_t build_nodes = 0;     ///< nodes of the binary tree the wide one is folded from (count)
  std::size_t grid_cells = 0;      ///< cells small queries start from (count; 0: no grid, queries start at the root)
  std::size_t used_cells = 0;      ///< of those, the cells holding at least one piece (count)
  std::size_t hierarchy_bytes = 0; ///< memory in use by the wide and binary nodes and the cells (bytes)
  /// memory in use by the per-piece query data: each piece's box, id, layers and world vertices,
  /// stored in leaf order (bytes)
  std::size_t piece_data_bytes = 0;
  std::uint64_t rebuilds = 0; ///< hierarchy builds since the world was created (count)
  /// updates that refitted the hierarchy to moved pieces instead of rebuilding it (count)
  std::uint64_t refits = 0;
  /// the hierarchy's summed box surface now over the same sum at its last build (ratio; 1 right
  /// after a build): how far refits have loosened it. Past World::k_rebuild_area_ratio the
  /// world rebuilds.
  double refit_area_ratio = 1.0;
  /// how far refits have widened the reach of the cells small queries start from, beyond the
  /// build's (cells; 0 right after a build). Past World::k_rebuild_reach_growth the world rebuilds.
  double refit_reach_growth = 0.0;
};

/// The world the character moves through: convex pieces (each a hull in local space plus a
/// placement) and an optional heightfield terrain, with the capsule queries the controller
/// needs. Pieces go into a bounding volume hierarchy that is brought up to date lazily, by the
/// next query or update(): adding or removing pieces rebuilds it; when pieces were only moved
/// (move_piece, set_piece_transform) it is refitted, in time proportional to the moved pieces,
/// and rebuilt only once refits have loosened it too much. Queries are const and may run from
/// several threads at once once update() has been called after the last edit.
class World {
public:
  /// A refit rebuilds the hierarchy once its summed box surface exceeds this multiple of the
  /// sum at its last build (WorldStats::refit_area_ratio; docs/world.md, "Moving pieces").
  static constexpr double k_rebuild_area_ratio = 1.5;
  /// ... or once pieces moved away from the cells they were built into by more than this
  /// (WorldStats::refit_reach_growth, in cells): queries then span more cells.
  static constexpr double k_rebuild_reach_growth = 0.25;

  World();
  ~World();
  World(World&&) noexcept;
  World& operator=(World&&) noexcept;
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // ---- pieces ---------------------------------------------------------------------------

  /// Adds a piece; its world shape is the hull placed by `transform`. Throws glide::Error for an
  /// empty hull, a hull larger than limits::k_max_piece_size, a non-finite or non-unit rotation,
  /// a non-finite translation, or a placed piece beyond limits::k_max_coordinate (<glide/limits.hpp>).
  PieceId add_piece(gjk::ConvexHull hull, gjk::Transform transform = {}, PieceInfo info = {});
  /// Removes a piece; throws glide::Error for an unknown or removed id.
  void remove_piece(PieceId id);
  /// Re-places a piece at once, as a teleport: no velocity, so nothing standing on it is
  /// carried. Throws glide::Error for an unknown id or an invalid transform (as add_piece's); a
  /// failed call leaves the piece where it was.
  void set_piece_transform(PieceId id, gjk::Transform transform);

  /// Moves a kinematic piece (a platform, a lift, a door) to `pose`, which it reaches over the
  /// coming frame of `dt` seconds: its linear and angular velocity follow from the change, and
  /// a character standing on it is carried by the same change on its next move. Call it for
  /// every moving piece first, then move the characters (docs/controller.md, "Moving pieces").
  /// Throws glide::Error for an unknown id, an invalid pose or a dt not positive and finite.
  void move_piece(PieceId id, const gjk::Transform& pose, float dt);
  /// How a piece moved in its last move_piece; a still motion (from == to) for pieces never
  /// moved or last re-placed by set_piece_transform.
  const PieceMotion& motion(PieceId id) const {
    return contains(id) ? pieces_[id.value].motion : piece(id).motion; // piece() throws, naming the id
  }
  /// Every live piece ever moved by move_piece or set_piece_transform, in the order of its
  /// first move: with motion(id).serial, what moved since a revision, without a look at the
  /// static pieces.
  std::span<const PieceId> moved_pieces() const { return ever_moved_; }
  /// Velocity of the point of piece `id` at `point` (world, m), from its last move_piece (m/s).
  glm::vec3 point_velocity(PieceId id, const glm::vec3& point) const;

  std::size_t piece_count() const { return live_count_; }
  bool contains(PieceId id) const { return id.value < pieces_.size() && pieces_[id.value].alive; }
  /// Look-ups; each throws glide::Error for an unknown or removed id (hull also for a mesh piece).
  const gjk::ConvexHull& hull(PieceId id) const;
  const gjk::Transform& transform(PieceId id) const;
  const PieceInfo& info(PieceId id) const;
  const gjk::Aabb& bounds(PieceId id) const;
  /// The hull's vertices placed in the world (m): the shape the queries use.
  std::span<const glm::vec3> world_vertices(PieceId id) const;
  /// Ids of every live piece in increasing order.
  std::vector<PieceId> piece_ids() const;

  // ---- triangle meshes ------------------------------------------------------------------

  /// Adds a static triangle mesh placed by `transform`: one piece, whose every triangle the
  /// queries test as a flat piece of its own, with contact normals at the mesh's inactive
  /// edges replaced by face normals (TriangleMesh; docs/world.md, "Mesh pieces"). Hits and
  /// contacts report the mesh's id and the triangle. The piece cannot move: move_piece,
  /// set_piece_transform and hull throw glide::Error for it; world_vertices gives its placed
  /// vertices. Throws glide::Error for an invalid transform (as add_piece's) or a placed mesh
  /// beyond limits::k_max_coordinate.
  PieceId add_mesh(TriangleMesh mesh, gjk::Transform transform = {}, PieceInfo info = {});
  /// Whether `id` is a live mesh piece.
  bool is_mesh(PieceId id) const;
  /// The mesh of a mesh piece (local space); throws glide::Error for any other id.
  const TriangleMesh& mesh(PieceId id) const;

  // ---- origin ---------------------------------------------------------------------------

  /// The point every float position of this world is relative to (m, double): a piece's
  /// transform, the terrain, a query's capsule, a controller's feet. Zero unless moved by
  /// shift_origin. Floats resolve 0.06 mm at 1 km from it and 7.8 mm at 100 km, so a game whose
  /// characters roam kilometres away keeps it near them (docs/world.md, "Large worlds").
  const glm::dvec3& origin() const { return origin_; }
  /// Moves the origin to `origin` (m): every piece, every piece's last motion and the terrain
  /// are re-expressed relative to it, each coordinate computed in double and rounded once, and
  /// the hierarchy is rebuilt at the next query. Controllers on this world follow at their next
  /// call (Controller::position() at once). Throws glide::Error, changing nothing, for an origin
  /// not finite or beyond limits::k_max_global_coordinate, or one that would leave a piece or
  /// the terrain beyond limits::k_max_coordinate.
  void shift_origin(const glm::dvec3& origin);
  /// A global position (m, double) in this world's float coordinates: less the origin. Throws
  /// glide::Error for a position not finite or farther than limits::k_max_coordinate from it.
  glm::vec3 to_local(const glm::dvec3& position) const;
  /// A position of this world's float coordinates as a global one (m): plus the origin.
  glm::dvec3 to_global(const glm::vec3& position) const { return origin_ + glm::dvec3(position); }

  // ---- terrain --------------------------------------------------------------------------

  void set_terrain(Heightfield terrain, std::uint32_t layers = 1u);
  void clear_terrain();
  const Heightfield* terrain() const { return terrain_ ? &*terrain_ : nullptr; }
  std::uint32_t terrain_layers() const { return terrain_layers_; }

  // ---- queries --------------------------------------------------------------------------

  /// Brings the hierarchy up to date now (otherwise the next query does): rebuilds it after
  /// pieces were added or removed, refits it when they were only moved.
  void update() const;

  /// Changes with every edit (pieces added, removed or moved, terrain set or cleared) and
  /// move, and is never shared by two worlds: a query result cached for one world at one
  /// revision stays valid while both are unchanged.
  std::uint64_t revision() const { return revision_; }
  /// Changes only when pieces are added or removed or the terrain changes (and with a move
  /// of the world), not when pieces move: with World::motion's serials, a cache keeps what
  /// it learnt of the pieces that have not moved since (NearbyPieces does).
  std::uint64_t structure_revision() const { return structure_revision_; }

  /// First contact of `capsule` moved along `motion` (m). Among hits closer than
  /// settings.tie_distance to the earliest one, pieces win over terrain and the smallest piece
  /// id wins among pieces, so simultaneous hits resolve the same way whatever the build order.
  /// A motion of any finite length is answered (one longer than the valid range can hold is
  /// shortened, its fraction scaled back). Non-finite input finds nothing; a finite capsule
  /// beyond the valid range (<glide/limits.hpp>) throws glide::Error, as it does in
  /// overlap_capsule and closest, and so does a ray origin beyond it in raycast.
  SweepHit sweep_capsule(const gjk::Capsule& capsule, const glm::vec3& motion, const QueryFilter& filter = {},
                         const SweepSettings& settings = {}) const;

  /// Every piece (and terrain triangle) within capsule.radius + margin of the capsule's
  /// inner segment, in increasing piece id order, terrain last.
  std::vector<Contact> overlap_capsule(const gjk::Capsule& capsule, float margin, const QueryFilter& filter = {}) const;

  /// The nearest contacts whose gap is at most `max_distance` (m), nearest first, at most
  /// `max_contacts` of them: ground probes and contact normals.
  std::vector<Contact> closest(const gjk::Capsule& capsule, float max_distance, const QueryFilter& filter = {},
                               std::size_t max_contacts = 8) const;

  /// First hit of the ray origin + t * dir, t in [0, max_t], against pieces and terrain.
  /// Pieces are hit through the same time of impact as sweeps (a point swept along the ray),
  /// so t may stop up to settings.tolerance (m) short of the surface; terrain is hit exactly.
  RayHit raycast(const glm::vec3& origin, const glm::vec3& dir, float max_t, const QueryFilter& filter = {},
                 const SweepSettings& settings = {}) const;

  /// Appends to `out` every piece passing `filter` whose bounding box (World::bounds)
  /// overlaps `box` (closed bounds): the broadphase alone, for triggers, streaming or a
  /// game's own narrowphase. The order is the hierarchy's, the same for the same edits. A
  /// non-finite or inverted (min > max) box finds nothing.
  void pieces_in_box(const gjk::Aabb& box, std::vector<PieceId>& out, const QueryFilter& filter = {}) const;

  /// Appends to `out` every piece passing `filter` whose bounding box `box` reaches while it
  /// moves along `motion` (m, t in [0, 1]): the candidates of a cast of any shape inside
  /// `box`, which sweep_capsule then tests exactly. The order is the walk's, nearest boxes
  /// mostly first. Non-finite input or an inverted box finds nothing.
  void pieces_along(const gjk::Aabb& box, const glm::vec3& motion, std::vector<PieceId>& out,
                    const QueryFilter& filter = {}) const;

  /// The hierarchy's shape and memory, rebuilt first if edits made it dirty. O(nodes): for
  /// tools and tests, not for every frame.
  WorldStats stats() const;

private:
  friend struct detail::WorldAccess;
  // What a move reads and writes, kept small (the hull lives in hulls_): a thousand moving
  // pieces' records then share a core's cache with the hierarchy's.
  struct Piece {
    gjk::Transform transform;
    PieceInfo info;
    gjk::Aabb bounds;
    std::vector<glm::vec3> world_vertices;
    PieceMotion motion;
    bool alive = true;
    mutable bool refit_queued = false; // listed in moved_
    bool ever_moved = false;           // listed in ever_moved_
    mutable std::uint8_t tree = 0;     // the hierarchy holding it: k_static_tree or k_moving_tree
  };
  static constexpr std::uint8_t k_static_tree = 0;
  static constexpr std::uint8_t k_moving_tree = 1;
  void swap(World& other) noexcept;
  void placed(PieceId id); // after a piece's world vertices changed in place
  // Builds one hierarchy anew; the static one's rebuild first sends every piece that has moved
  // to the moving one, which it then rebuilds too.
  void rebuild(std::uint8_t tree) const;
  bool degraded(std::uint8_t tree) const;
  std::uint64_t next_revision() const; // after revision_, in this world's epoch
  void replace_checked(PieceId id, const gjk::Transform& pose, const char* call);
  const Piece& piece(PieceId id) const;
  Piece& piece(PieceId id);
  // The mesh pieces, by PieceId::value: a piece with no leaf payload in the hierarchy is one.
  const detail::MeshPiece& mesh_piece(PieceId id) const;
  std::unordered_map<std::uint32_t, std::unique_ptr<detail::MeshPiece>> meshes_;

  std::vector<Piece> pieces_;          // indexed by PieceId::value; removed slots stay dead
  std::vector<gjk::ConvexHull> hulls_; // by PieceId::value, as pieces_
  std::size_t live_count_ = 0;
  std::optional<Heightfield> terrain_;
  std::uint32_t terrain_layers_ = 1u;
  static bool accepts(PieceId id, std::uint32_t layers, const QueryFilter& filter) {
    return (layers & filter.layer_mask) != 0u && (!filter.accept || filter.accept(id));
  }
  // Two hierarchies, as physics engines keep static and moving bodies apart: the static
  // pieces', and the moving pieces' (declared kinematic, or moved since their tree was built),
  // so moves refit and rebuild a small tree and leave the large one tight. Each stores with its
  // pieces, in leaf order, their layers and world vertices (what the queries read per
  // candidate), so a candidate's box, id and vertices are one run of adjacent memory.
  mutable std::array<std::unique_ptr<detail::Bvh>, 2> trees_;
  mutable std::array<bool, 2> dirty_{true, true};  // pieces added or removed: the next update rebuilds
  mutable std::vector<std::uint32_t> moved_;       // pieces moved since the last update, once each
  std::vector<PieceId> ever_moved_;                // see moved_pieces()
  mutable std::vector<std::uint32_t> build_index_; // per piece, its index among its tree's last build's inputs
  mutable std::uint64_t rebuilds_ = 0;
  mutable std::uint64_t refits_ = 0;
  std::uint64_t revision_;
  std::uint64_t structure_revision_;
  glm::dvec3 origin_{0.0};
};

} // namespace glide
