#pragma once

#include <glide/gjk/aabb.hpp>
#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/shapes.hpp>
#include <glide/gjk/toi.hpp>
#include <glide/world/face_polygon.hpp>
#include <glide/world/query_types.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace glide {

class World;

/// The pieces and terrain triangles around one moving capsule, gathered from a World once and
/// queried many times: every sub-query of a character's move, and its next moves while they
/// stay inside the gathered box (a cached volume, as PhysX's controller keeps). The gather is
/// redone, `margin` wider than asked, when a query leaves the held box or pieces are added or
/// removed; pieces that only moved (World::moved_pieces) are taken up where they are.
///
/// Each held piece also keeps what its last GJK query taught: a plane the whole piece lies
/// behind, and the simplex to warm-start from. A query skips, without GJK, a piece its capsule
/// stays farther from than the radius behind that plane; with SweepSettings::ignore_separating
/// it also skips a piece whose plane the motion does not approach while the capsule is no
/// deeper than the tolerance into it (the capsule then never comes closer to the piece than
/// radius - tolerance, as World's rule for contacts the motion leaves). Where the closest
/// points lie inside a face of the piece, its FacePolygon answers exactly without GJK.
/// Otherwise results are those of the World's queries, within the time-of-impact tolerance.
/// A mesh piece is held as its triangles the box meets, each an entry of its own with its
/// active edges, and answered with the World's normal rule for them.
class NearbyPieces {
public:
  /// Makes sure everything whose bounds meet `box` is held; gathers anew, with `margin` (m)
  /// around the box, when the box is not inside the held one or the world changed.
  void reach(const World& world, const gjk::Aabb& box, float margin);
  /// Asks the CPU to fetch what the next queries read (the pieces held, their first 2 KB), for
  /// a caller that knows which character moves next: among thousands, these come from memory.
  void prefetch() const {
    constexpr std::size_t k_most = 2048; // (bytes)
    const auto* at = reinterpret_cast<const char*>(entries_.data());
    const std::size_t bytes = std::min(entries_.size() * sizeof(Entry), k_most);
    for (std::size_t line = 0; line < bytes; line += 64) __builtin_prefetch(at + line);
    __builtin_prefetch(bounds_.data());
  }
  /// While set, overlap_capsule and closest fill `list` instead of this object's own contact
  /// list, and the spans they return lie in it (null, the default: their own). A caller moving
  /// many characters one after another on a thread lends them all one list, which stays in
  /// cache: among 10,000 characters each one's own list was out of it, and a crowd's frame took
  /// half as long again.
  void lend_contact_list(std::vector<Contact>* list) { lent_ = list; }
  /// Drops everything held; the next query gathers anew. Keeps the characters.
  void clear();
  /// Other characters' capsules every query also meets (target HitTarget::character), held
  /// still: a CharacterSet's start-of-frame state. The span must stay valid while set; sort
  /// it by id so ties resolve alike everywhere. Empty (the default): no characters.
  void set_characters(std::span<const CapsuleObstacle> characters) { characters_ = characters; }
  std::span<const CapsuleObstacle> characters() const { return characters_; }
  /// Who tells whether character `other` meets the one these queries move (set_self) in turn:
  /// `meets_back(context, self, other)`. One that does not never moves out of its way, so a
  /// push out of it passes into no other character (Controller's recovery). Null, the default:
  /// every character does.
  using MeetsBack = bool (*)(const void* context, CharacterId self, CharacterId other);
  void set_meets_back(MeetsBack meets_back, const void* context) {
    meets_back_ = meets_back;
    meets_back_context_ = context;
  }
  bool meets_back(CharacterId other) const {
    return meets_back_ == nullptr || meets_back_(meets_back_context_, self_, other);
  }
  /// The id of the character these queries move, when it is one of a group (invalid, the
  /// default, otherwise). Two characters whose capsules share their centre are pushed apart
  /// across their axis in directions the ids choose, as if each stood a hair off the centre
  /// its own way: the shapes tell no way out, and two pushed alike would never part.
  void set_self(CharacterId self) { self_ = self; }
  /// While positive, sweeps meet the characters with the capsule's radius less `inset` (m): a
  /// push out of a pile may then pass closer than the skin to those round it, or into them by
  /// what the inset exceeds the skin by. 0: none.
  void set_character_inset(float inset) { character_inset_ = inset; }
  /// A character the sweeps pass through (invalid, the default: none): the one a carried
  /// character stands on, which moved as far, as a ride passes through its piece.
  void set_passing(CharacterId passing) { passing_ = passing; }
  /// The box the characters set are complete for: every character whose capsule may meet a
  /// query inside it is among them. A query reaching beyond it may have missed one, and is
  /// noted (left_character_region) rather than answered differently. The default: all space.
  void set_character_region(const gjk::Aabb& region) {
    region_ = region;
    left_region_ = false;
  }
  /// Whether a query since set_character_region reached beyond the region.
  bool left_character_region() const { return left_region_; }
  /// Whether a character's capsule (of the layers `filter` meets) lies less than `gap` (m)
  /// from `capsule`, as overlap_capsule with `max_distance` >= `gap` would find it: a query of
  /// its own over the capsule's bounds grown by `max_distance`, noted as one.
  bool character_closer(const gjk::Capsule& capsule, float gap, float max_distance, const QueryFilter& filter);

  /// World::sweep_capsule over the held pieces (gathering first when the sweep leaves them).
  SweepHit sweep_capsule(const World& world, const gjk::Capsule& capsule, const glm::vec3& motion,
                         const QueryFilter& filter, const SweepSettings& settings);
  /// World::overlap_capsule over the held pieces: pieces by id, then terrain. The span stays
  /// valid until the next query.
  std::span<const Contact> overlap_capsule(const World& world, const gjk::Capsule& capsule, float margin,
                                           const QueryFilter& filter);
  /// World::closest over the held pieces: nearest first, at most `max_contacts`. The span
  /// stays valid until the next query.
  std::span<const Contact> closest(const World& world, const gjk::Capsule& capsule, float max_distance,
                                   const QueryFilter& filter, std::size_t max_contacts);
  /// What closest_on_face knows of the face it asked: face_normal() for that face's points,
  /// without looking for its piece or, mostly, walking its rim.
  struct FaceProbe {
    const FacePolygon* face = nullptr; ///< null: no contact came from a face
    float inside_by = 0.f;             ///< the contact's point lies this far inside the rim, at least (m)
    const glm::vec3* face_normal(const glm::vec3& point, float margin) const {
      return face != nullptr && face->holds_inside_by(point, margin, inside_by) ? &face->normal() : nullptr;
    }
  };
  /// closest() with every contact, the same to the bit, told cheaply for a capsule standing
  /// over the inside of a face of `piece` and near nothing else: no other piece held, no
  /// terrain and no character comes into the query's box. `probe` then tells face_normal()
  /// for the contact's point (valid until the next query). False (nothing listed) when it
  /// cannot tell so: then ask closest().
  bool closest_on_face(const World& world, const gjk::Capsule& capsule, float max_distance, const QueryFilter& filter,
                       PieceId piece, std::span<const Contact>& contacts, FaceProbe& probe);
  /// World::raycast over the held pieces (terrain rays go to the heightfield, exactly).
  RayHit raycast(const World& world, const glm::vec3& origin, const glm::vec3& dir, float max_t,
                 const QueryFilter& filter, const SweepSettings& settings);

  /// The normal of the held face of `piece` holding `point` (FacePolygon::holds), or null:
  /// what a contact with a face's interior stands on, without searching the hull.
  const glm::vec3* face_normal(PieceId piece, const glm::vec3& point, float margin) const;

  const gjk::Aabb& held_box() const { return box_; }
  /// Where this object's members a move does not read begin (those only a gather touches),
  /// for a caller that fetches a controller's hot part ahead of its move.
  const void* cold_part() const { return &contacts_; }
  std::size_t held_count() const { return entries_.size(); }
  /// Gathers since construction (count): how often the held box was left.
  std::uint64_t gathers() const { return gathers_; }

private:
  struct Entry {
    // What every query of the entry reads comes first: a probe over a face, or a sweep its
    // plane skips, reads the fields before `vertices` alone. Its shape and GJK's warm start
    // come last.
    HitTarget target = HitTarget::piece;
    bool triangle = false;  ///< a mesh piece's triangle (index: `order`; vertices: its three corners)
    std::uint8_t edges = 0; ///< that triangle's active edges (TriangleMesh::active_edges)
    bool has_plane = false;
    bool has_known = false;
    PieceId piece;
    std::uint32_t layers = 0;
    std::uint32_t order = 0; ///< terrain walk order; a mesh triangle's index
    std::uint32_t mesh_triangle() const { return triangle ? order : ~0u; }
    // Every point of the shape has dot(plane_normal, p) <= plane_offset.
    glm::vec3 plane_normal{0.f};
    float plane_offset = 0.f;
    // The last distance query of the piece, reused while the segment has not moved (the
    // ground probe ends a move where the next one starts).
    gjk::Segment known_segment;
    gjk::DistanceResult known;
    FacePolygon face;                    ///< the face the last GJK closest points lay inside (empty: an edge or vertex)
    FacePolygon::InsideDisc inside;      ///< of `face`: where closest_on_face needs not walk its rim
    const glm::vec3* vertices = nullptr; ///< piece: its world vertices (terrain: triangles_[order])
    std::uint32_t vertex_count = 0;
    const gjk::ConvexHull* hull = nullptr; ///< piece: its hull in local space (null for a mesh's triangle)
    gjk::SimplexCache cache;
  };

  /// Distance from `segment` to the entry's shape: the known one, or a warm-started query
  /// that becomes the known one and teaches the plane.
  template <class Shape>
  const gjk::DistanceResult& distance_to(Entry& e, const gjk::Segment& segment, const Shape& shape);
  /// Remembers which face a distance result's closest points lie inside, if any.
  void learn_face(Entry& e, const gjk::DistanceResult& d) const;
  void know_face_distance(Entry& e, const gjk::Segment& segment, const gjk::DistanceResult& d);
  std::optional<gjk::Aabb> overlap_box(const World& world, const gjk::Capsule& capsule, float& max_distance);

  static Entry piece_entry(const World& world, PieceId id);
  void gather_triangles(const World& world, PieceId id, std::uint32_t layers);
  void add_character_contacts(const gjk::Capsule& capsule, float max_distance, const gjk::Aabb& box,
                              const QueryFilter& filter);
  void hold(const World& world, const gjk::Aabb& box);   // reach with the margin held
  void gather(const World& world, const gjk::Aabb& box); // reach's work when the box is not held
  void take_moves(const World& world);
  bool accepts(const Entry& e, const QueryFilter& filter) const;
  /// What a sweep within a box may meet: a held entry, only characters, or nothing.
  enum class SweepMeets : std::uint8_t { nothing, characters, held };
  SweepMeets meets_any(const gjk::Aabb& reach_box, const QueryFilter& filter) const;
  void learn_plane(Entry& e, const glm::vec3& normal);
  template <class Visit>
  void with_shape(const Entry& e, Visit&& visit) const;

  // What a move writes comes first, then what it reads, so a caller fetching a controller's
  // hot part (a crowd's moves) reads these and a move dirties few lines; what only a gather
  // touches comes last.
  std::vector<Contact>* lent_ = nullptr; ///< lend_contact_list's list
  std::span<const CapsuleObstacle> characters_;
  gjk::Aabb region_{glm::vec3(-std::numeric_limits<float>::infinity()),
                    glm::vec3(std::numeric_limits<float>::infinity())};
  bool left_region_ = false;
  CharacterId self_;
  float character_inset_ = 0.f;
  CharacterId passing_;
  MeetsBack meets_back_ = nullptr;
  const void* meets_back_context_ = nullptr;
  void note_query(const gjk::Aabb& box) {
    if (!region_.contains(box)) left_region_ = true;
  }
  std::vector<Contact>& contact_list() { return lent_ != nullptr ? *lent_ : contacts_; }
  gjk::Aabb box_;
  float margin_ = 0.5f; ///< around the asked box when gathering (m)
  std::uint64_t revision_ = ~0ull;
  std::uint64_t structure_revision_ = ~0ull;
  const World* world_ = nullptr;
  std::vector<Entry> entries_;
  std::vector<gjk::Aabb> bounds_;        ///< of entries_[i], kept apart so culling reads little
  std::vector<gjk::Triangle> triangles_; ///< terrain triangles held, by Entry::order
  std::vector<Contact> contacts_;
  std::vector<Entry> previous_; ///< the last gather's entries, whose planes carry over
  std::uint64_t gathers_ = 0;
  /// previous_'s mesh triangles, by (piece << 32 | triangle): where each one's entry is
  std::unordered_map<std::uint64_t, std::uint32_t> previous_triangles_;
};

} // namespace glide
