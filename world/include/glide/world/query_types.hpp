#pragma once

#include <glide/gjk/shapes.hpp>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <cstdint>
#include <functional>

namespace glide {

/// Handle of a convex piece in a World. Ids are never reused, so a stale id is detected.
struct PieceId {
  std::uint32_t value = ~0u;
  bool valid() const { return value != ~0u; }
  friend bool operator==(PieceId, PieceId) = default;
  friend auto operator<=>(PieceId, PieceId) = default;
};

/// Handle of a character among those a query meets as obstacles (CharacterSet assigns them).
struct CharacterId {
  std::uint32_t value = ~0u;
  bool valid() const { return value != ~0u; }
  friend bool operator==(CharacterId, CharacterId) = default;
  friend auto operator<=>(CharacterId, CharacterId) = default;
};

/// Per-piece data the game attaches: collision layers and an opaque value.
struct PieceInfo {
  std::uint32_t layers = 1u;   ///< layer bits this piece belongs to
  std::uint64_t user_data = 0; ///< opaque to glide
  /// The game will move this piece (World::move_piece): the hierarchy keeps it with the other
  /// moving pieces from the start, so its moves stay cheap refits. A piece moved without it
  /// joins them at the next rebuild.
  bool kinematic = false;
};

/// Which candidates a query considers. A piece is a candidate when its layers share a bit with
/// `layer_mask` and `accept` (when set) returns true for it; the terrain when its layers share
/// a bit with `layer_mask`.
struct QueryFilter {
  std::uint32_t layer_mask = ~0u;        ///< layer bits to test against
  std::function<bool(PieceId)> accept{}; ///< optional per-piece predicate; empty accepts all
};

/// What a query hit.
enum class HitTarget : std::uint8_t { none, piece, terrain, character };

/// Another character's capsule as an obstacle of queries (NearbyPieces::set_characters): held
/// still during the query, moving at `velocity` for whoever stands on it.
struct CapsuleObstacle {
  gjk::Capsule capsule;
  glm::vec3 velocity{0.f};   ///< (m/s)
  std::uint32_t layers = 1u; ///< layer bits the character belongs to
  CharacterId id;
};

/// First contact of a swept capsule.
struct SweepHit {
  bool hit = false;
  float fraction = 1.f;            ///< of the motion travelled before contact, in [0, 1]
  glm::vec3 point{0.f};            ///< contact point on the piece or terrain (m, world)
  glm::vec3 normal{0.f, 1.f, 0.f}; ///< unit, from the hit surface toward the capsule
  HitTarget target = HitTarget::none;
  PieceId piece;                   ///< valid when target == HitTarget::piece
  CharacterId character;           ///< valid when target == HitTarget::character
  bool started_overlapped = false; ///< the capsule already touched or overlapped it at fraction 0
  std::uint32_t triangle = ~0u;    ///< a mesh piece's triangle hit (TriangleMesh index); ~0u otherwise
};

/// Time-of-impact method used by sweeps.
enum class ToiMethod : std::uint8_t {
  conservative_advancement, ///< advances by the distance over the closing speed; few GJK calls
  bisection,                ///< halves the motion interval; slower, the reference
};

struct SweepSettings {
  ToiMethod method = ToiMethod::conservative_advancement; ///< time-of-impact algorithm
  float tolerance = 1e-4f;                                ///< contact distance accepted as touching (m)
  int max_iterations = 64;                                ///< time-of-impact iterations per candidate (count)
  /// Hits closer than this along the motion are simultaneous (m). At least the tolerance, since
  /// each time of impact may stop up to that much early.
  float tie_distance = 1e-4f;
  /// Skip contacts the motion does not approach (motion · normal >= 0): a capsule that starts
  /// touching a piece and leaves it or slides along it, or that only grazes a face
  /// tangentially (as at the seam between floor tiles), is not stopped. The distance to a
  /// convex piece along a straight motion is convex, so such a piece is never entered later.
  bool ignore_separating = true;
};

/// A piece or terrain triangle near a capsule.
struct Contact {
  HitTarget target = HitTarget::none;
  PieceId piece;                   ///< valid when target == HitTarget::piece
  CharacterId character;           ///< valid when target == HitTarget::character
  float distance = 0.f;            ///< gap between the capsule surface and the piece (m); < 0 overlapping
  float depth = 0.f;               ///< penetration of the capsule's inner segment into the piece (m); 0 if outside
  glm::vec3 point_on_piece{0.f};   ///< closest (or deepest) point on the piece (m, world)
  glm::vec3 point_on_segment{0.f}; ///< matching point on the capsule's inner segment (m, world)
  glm::vec3 normal{0.f, 1.f, 0.f}; ///< unit, from the piece toward the capsule
  std::uint32_t triangle = ~0u;    ///< a mesh piece's triangle (TriangleMesh index); ~0u otherwise
};

/// First hit of a ray.
struct RayHit {
  bool hit = false;
  float t = 0.f;                   ///< hit at origin + t * dir (units of dir)
  glm::vec3 point{0.f};            ///< (m, world)
  glm::vec3 normal{0.f, 1.f, 0.f}; ///< unit, surface normal facing the ray origin
  HitTarget target = HitTarget::none;
  PieceId piece;                ///< valid when target == HitTarget::piece
  CharacterId character;        ///< valid when target == HitTarget::character
  std::uint32_t triangle = ~0u; ///< a mesh piece's triangle hit (TriangleMesh index); ~0u otherwise
};

/// How a kinematic piece moved over its last World::move_piece: from one pose to the next in
/// dt seconds. A still motion (from == to, zero velocities) for a piece that has not moved.
struct PieceMotion {
  gjk::Transform from;      ///< pose before the move
  gjk::Transform to;        ///< pose after it: the piece's transform
  glm::vec3 linear{0.f};    ///< velocity of the piece's origin (m/s)
  glm::vec3 angular{0.f};   ///< angular velocity: axis times rate (rad/s, world)
  float dt = 0.f;           ///< duration of the move (s); 0 for a piece that has not moved
  std::uint64_t serial = 0; ///< new with every move or re-placement, unique across worlds:
                            ///< a carry is applied once per move

  /// Where the move took a point that moved with the piece (m, world).
  glm::vec3 carry(const glm::vec3& point) const { return to.apply(from.apply_inverse(point)); }
  /// Velocity of the piece's point at `point` (m/s).
  glm::vec3 velocity_at(const glm::vec3& point) const { return linear + glm::cross(angular, point - to.translation); }
};

} // namespace glide
