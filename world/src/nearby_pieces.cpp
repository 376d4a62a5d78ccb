// A character's cached neighbourhood: the World's queries over the pieces held near it, with a
// separating plane and a warm start kept per piece. docs/controller.md ("Cost") tells why.
#include "mesh_piece.hpp"
#include "narrowphase.hpp"
#include "world_access.hpp"

#include <glide/gjk/detail/select.hpp>
#include <glide/gjk/segment_pair.hpp>
#include <glide/world/nearby_pieces.hpp>
#include <glide/world/world.hpp>

#include <glm/vec2.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace glide {

namespace {

// Room around the asked box when a gather is given no valid margin (m).
constexpr float k_default_margin = 0.5f;

// Whether the held plane proves the segment, moved along `motion`, cannot come within
// `radius` of the piece (and, when `leave_separating`, that the motion does not approach it
// while at most `tolerance` inside the radius). The dots carry float rounding of about 1e-7
// of their magnitudes; `slack` covers it so a skip is never wrong.
inline bool plane_skips(const glm::vec3& n, float offset, const gjk::Segment& s, float radius, const glm::vec3& motion,
                        float motion_length, float tolerance, bool leave_separating) {
  const float pa = glm::dot(n, s.a), pb = glm::dot(n, s.b), dm = glm::dot(n, motion);
  const float slack = 1e-6f * (std::abs(pa) + std::abs(pb) + std::abs(offset) + std::abs(dm));
  const float lowest = std::min(pa, pb) - offset - slack + std::min(0.f, dm);
  if (lowest > radius + tolerance) return true;
  return leave_separating && dm >= -1e-4f * motion_length && lowest >= radius - tolerance;
}

glm::vec3 centre_of(const gjk::Capsule& c) { return 0.5f * (c.segment.a + c.segment.b); }

// Two unit directions across a unit axis, and across each other: where leaving_direction turns.
struct Across {
  glm::vec3 u, w;
};
Across across_of(const glm::vec3& axis) {
  const glm::vec3 across = std::abs(axis.x) < 0.9f ? glm::vec3(1.f, 0.f, 0.f) : glm::vec3(0.f, 0.f, 1.f);
  const glm::vec3 u = glm::normalize(glm::cross(axis, across));
  return {u, glm::cross(axis, u)};
}

// The cosine and sine of character `id`'s turn: ids a golden angle apart round the axis, so no
// two share one. Each is worked out once per thread: in a pile at one spot every pair shares a
// centre, and every query of every move asked them of each neighbour anew.
glm::vec2 turn_of(CharacterId id) {
  const auto turn = [](std::uint32_t value) {
    constexpr double k_golden_angle = 2.399963229728653; // (radians)
    const double angle = std::fmod(double(value) * k_golden_angle, 6.283185307179586);
    return glm::vec2(float(std::cos(angle)), float(std::sin(angle)));
  };
  constexpr std::uint32_t k_kept_turns = 1u << 16; // ids whose turn is kept (count)
  if (id.value >= k_kept_turns) return turn(id.value);
  thread_local std::vector<glm::vec2> turns; // NaN: not worked out yet
  if (turns.size() <= id.value) turns.resize(id.value + 1, glm::vec2(std::numeric_limits<float>::quiet_NaN()));
  glm::vec2& kept = turns[id.value];
  if (std::isnan(kept.x)) kept = turn(id.value);
  return kept;
}

// The direction across the axis of `across` that a character of id `id` leaves a shared centre by.
glm::vec3 leaving_direction(const Across& across, CharacterId id) {
  const glm::vec2 turn = turn_of(id);
  return turn.x * across.u + turn.y * across.w;
}

// A normal for a capsule whose inner segment crosses another's: from the other's centre toward
// its own. Where the segments lie on one line (parallel segments that cross do: a short
// character put where a tall one stands) or the centres meet, as if each stood a hair off that
// line along its own leaving_direction (the other's alone for a capsule of no id): opposite
// for the two of a pair, and across the line, the shortest way out. From centre to centre
// there would be along it: up and down, which the floor and the one above stop, for good.
glm::vec3 crossing_normal(const gjk::Capsule& capsule, const gjk::Capsule& other, CharacterId self,
                          CharacterId other_id) {
  const glm::vec3 mine = capsule.segment.b - capsule.segment.a, theirs = other.segment.b - other.segment.a;
  const glm::vec3 gap = centre_of(capsule) - centre_of(other);
  const float length = glm::length(gap);
  // Parallel to within 1e-3 (far out, rounding turns an upright segment by up to ~1e-4).
  const bool on_one_line = glm::length(glm::cross(mine, theirs)) <= 1e-3f * glm::length(mine) * glm::length(theirs);
  if (length > 0.f && !on_one_line) return gap / length;
  const glm::vec3 sum = glm::dot(mine, theirs) >= 0.f ? mine + theirs : mine - theirs;
  // A pile of upright characters asks round one axis again and again: the last one's
  // directions across it are kept.
  thread_local glm::vec3 last_sum(std::numeric_limits<float>::quiet_NaN());
  thread_local Across across;
  if (!(sum == last_sum)) {
    across = across_of(glm::dot(sum, sum) > 0.f ? glm::normalize(sum) : glm::vec3(0.f, 1.f, 0.f));
    last_sum = sum;
  }
  const glm::vec3 away =
      (self.valid() ? leaving_direction(across, self) : glm::vec3(0.f)) - leaving_direction(across, other_id);
  const float away_length = glm::length(away);
  return away_length > 1e-6f ? away / away_length : glm::vec3(0.f, 1.f, 0.f);
}

// Whether a query of `filter` within `box` may meet character `o`: its layers and its bounds, in
// one test without a branch each, since among a crowd each is a coin toss.
bool character_may_meet(const CapsuleObstacle& o, const QueryFilter& filter, const gjk::Aabb& box) {
  const bool layered = (o.layers & filter.layer_mask) != 0;
  return layered & gjk::capsule_bounds(o.capsule).overlaps_unbranched(box);
}

// Whether character `o` is in a query of `capsule` over `box` (its layers meet the filter's,
// its bounds meet the box) and may come within `within` of it (m); then `d` is the two
// capsules' closest points.
bool character_in(const gjk::Capsule& capsule, const CapsuleObstacle& o, const gjk::Aabb& box,
                  const QueryFilter& filter, float within, gjk::SegmentPairClosest& d) {
  if (!character_may_meet(o, filter, box) || gjk::capsule_gap_surely_exceeds(capsule, o.capsule, within)) return false;
  d = gjk::closest_points(capsule.segment, o.capsule.segment);
  return true;
}

// Appends `c` member by member. Copied whole, a contact just built on the stack by narrower
// stores was read back in wider pieces the stores could not forward, which stalled each copy.
void append_contact(std::vector<Contact>& to, const Contact& c) {
  Contact& out = to.emplace_back();
  out.target = c.target;
  out.piece = c.piece;
  out.character = c.character;
  out.distance = c.distance;
  out.depth = c.depth;
  out.point_on_piece = c.point_on_piece;
  out.point_on_segment = c.point_on_segment;
  out.normal = c.normal;
  out.triangle = c.triangle;
}

// Whether two boxes overlap seen from above (x and z only): a triangle whose column holds some
// of a segment inside `box` does.
inline bool overlaps_from_above(const gjk::Aabb& a, const gjk::Aabb& box) {
  return a.min.x <= box.max.x && box.min.x <= a.max.x && a.min.z <= box.max.z && box.min.z <= a.max.z;
}

// Room for `more` items in `v`: twice what is needed when it grows, so the next, slightly larger
// gather finds room (a controller's first gathers grow one after another).
template <class T>
void grow_for(std::vector<T>& v, std::size_t more) {
  if (v.size() + more > v.capacity()) v.reserve(2 * (v.size() + more));
}

} // namespace

void NearbyPieces::learn_face(Entry& e, const gjk::DistanceResult& d) const {
  e.inside = {};
  if (!(d.distance > 0.f))
    e.face = FacePolygon();
  else if (e.target == HitTarget::terrain)
    e.face = FacePolygon(triangles_[e.order], d.normal, d.point_b);
  else if (e.triangle)
    e.face = FacePolygon(gjk::Triangle{e.vertices[0], e.vertices[1], e.vertices[2]}, d.normal, d.point_b);
  else
    e.face = FacePolygon(*e.hull, world_->transform(e.piece), d.normal, d.point_b);
}

const glm::vec3* NearbyPieces::face_normal(PieceId piece, const glm::vec3& point, float margin) const {
  for (const Entry& e : entries_)
    if (e.target == HitTarget::piece && e.piece == piece && !e.triangle)
      return e.face.holds(point, margin) ? &e.face.normal() : nullptr;
  return nullptr;
}

void NearbyPieces::clear() {
  entries_.clear();
  bounds_.clear();
  triangles_.clear();
  box_ = {};
  world_ = nullptr;
}

bool NearbyPieces::accepts(const Entry& e, const QueryFilter& filter) const {
  if ((e.layers & filter.layer_mask) == 0u) return false;
  return e.target != HitTarget::piece || !filter.accept || filter.accept(e.piece);
}

template <class Visit>
void NearbyPieces::with_shape(const Entry& e, Visit&& visit) const {
  if (e.target == HitTarget::terrain)
    visit(triangles_[e.order]);
  else
    visit(detail::VertexCloud(e.vertices, e.vertex_count));
}

// Any direction gives a valid plane: its offset is the shape's exact support along it.
void NearbyPieces::learn_plane(Entry& e, const glm::vec3& normal) {
  if (!detail::finite(normal) || !(glm::dot(normal, normal) > 0.25f)) return;
  with_shape(e, [&](const auto& shape) { e.plane_offset = glm::dot(normal, shape.support(normal)); });
  e.plane_normal = normal;
  e.has_plane = true;
}

template <class Shape>
const gjk::DistanceResult& NearbyPieces::distance_to(Entry& e, const gjk::Segment& segment, const Shape& shape) {
  if (e.has_known && e.known_segment.a == segment.a && e.known_segment.b == segment.b) return e.known;
  gjk::DistanceResult on_face;
  if (e.face.distance(segment, on_face)) {
    know_face_distance(e, segment, on_face);
    return e.known;
  }
  e.known_segment = segment;
  e.known = gjk::distance(segment, shape, {}, &e.cache);
  e.has_known = e.known.status != gjk::Status::invalid_input;
  if (e.known.distance > 0.f) learn_plane(e, e.known.normal);
  learn_face(e, e.known);
  return e.known;
}

// A distance the entry's face gave: kept for the same segment, its normal as the plane.
void NearbyPieces::know_face_distance(Entry& e, const gjk::Segment& segment, const gjk::DistanceResult& d) {
  e.known_segment = segment;
  e.known = d;
  e.has_known = true;
  if (!e.has_plane || e.plane_normal != d.normal) learn_plane(e, d.normal);
}

NearbyPieces::Entry NearbyPieces::piece_entry(const World& world, PieceId id) {
  Entry e;
  e.piece = id;
  const std::span<const glm::vec3> vertices = world.world_vertices(id);
  e.vertices = vertices.data();
  e.vertex_count = static_cast<std::uint32_t>(vertices.size());
  e.layers = world.info(id).layers;
  e.hull = &world.hull(id);
  return e;
}

// Only pieces moved since the last look: held ones start learning afresh, and ones that moved
// into the held box join. The static pieces and the terrain stay as they were gathered.
void NearbyPieces::take_moves(const World& world) {
  const std::uint64_t seen = revision_;
  revision_ = world.revision();
  const auto moved = [&](PieceId id) { return world.motion(id).serial > seen; };
  const std::size_t held = entries_.size();
  for (std::size_t i = 0; i < held; ++i) {
    if (entries_[i].target != HitTarget::piece || !moved(entries_[i].piece)) continue;
    entries_[i] = piece_entry(world, entries_[i].piece);
    bounds_[i] = world.bounds(entries_[i].piece);
  }
  for (const PieceId id : world.moved_pieces()) {
    if (!moved(id) || !world.bounds(id).overlaps(box_)) continue;
    const auto end = entries_.begin() + static_cast<std::ptrdiff_t>(held);
    if (std::find_if(entries_.begin(), end,
                     [&](const Entry& e) { return e.target == HitTarget::piece && e.piece == id; }) != end)
      continue;
    entries_.push_back(piece_entry(world, id));
    bounds_.push_back(world.bounds(id));
  }
}

// A mesh piece's triangles the held box meets, each as it was held if it was: a mesh never
// moves, so what they taught stays true.
void NearbyPieces::gather_triangles(const World& world, PieceId id, std::uint32_t layers) {
  // Counted first, their entries then made in one allocation, as the terrain's are.
  const detail::Bvh& tree = detail::WorldAccess::mesh(world, id).tree;
  std::size_t count = 0;
  tree.query_box(box_, [&](const detail::LeafItem&) { ++count; });
  grow_for(entries_, count);
  grow_for(bounds_, count);
  tree.query_box(box_, [&](const detail::LeafItem& t) {
    bounds_.push_back(t.box);
    if (!previous_triangles_.empty()) {
      const auto old = previous_triangles_.find(std::uint64_t{id.value} << 32 | t.item);
      if (old != previous_triangles_.end()) return entries_.push_back(previous_[old->second]);
    }
    Entry e;
    e.piece = id;
    e.vertices = t.payload.data();
    e.vertex_count = 3;
    e.layers = layers;
    e.triangle = true;
    e.order = t.item;
    e.edges = static_cast<std::uint8_t>(t.word);
    entries_.push_back(e);
  });
}

void NearbyPieces::reach(const World& world, const gjk::Aabb& box, float margin) {
  // Written only when it changes: a crowd's move otherwise dirtied a line that only a gather
  // writes, and among thousands of characters every dirty line goes back to memory.
  const float kept = std::isfinite(margin) && margin >= 0.f ? margin : k_default_margin;
  if (kept != margin_) margin_ = kept;
  hold(world, box);
}

// Every query starts here, with the margin it has, and nearly always finds its box held.
inline void NearbyPieces::hold(const World& world, const gjk::Aabb& box) {
  if (world_ == &world && box_.contains(box) && revision_ == world.revision()) return;
  gather(world, box);
}

[[gnu::noinline]] void NearbyPieces::gather(const World& world, const gjk::Aabb& box) {
  if (world_ == &world && box_.contains(box) && structure_revision_ == world.structure_revision())
    return take_moves(world);
  // What a piece taught while held before stays true while it has not moved: the same pieces
  // (no adds or removes since) and a motion older than the last gather.
  const bool same_pieces = world_ == &world && structure_revision_ == world.structure_revision();
  const std::uint64_t gathered = revision_;
  ++gathers_;
  previous_.swap(entries_);
  if (!previous_triangles_.empty()) previous_triangles_.clear();
  if (same_pieces)
    for (std::uint32_t i = 0; i < previous_.size(); ++i)
      if (previous_[i].triangle)
        previous_triangles_.emplace(std::uint64_t{previous_[i].piece.value} << 32 | previous_[i].order, i);
  entries_.clear();
  bounds_.clear();
  triangles_.clear();
  box_ = box.expanded(margin_);
  world_ = &world;
  revision_ = world.revision();
  structure_revision_ = world.structure_revision();

  const auto gather = [&](const detail::LeafItem& item) {
    const PieceId id{item.item};
    if (item.payload.empty()) return gather_triangles(world, id, item.word); // a mesh piece
    if (same_pieces && world.motion(id).serial <= gathered) {
      const auto old = std::find_if(previous_.begin(), previous_.end(),
                                    [&](const Entry& o) { return o.target == HitTarget::piece && o.piece == id; });
      if (old != previous_.end()) {
        entries_.push_back(*old);
        bounds_.push_back(world.bounds(id));
        return;
      }
    }
    entries_.push_back(piece_entry(world, id));
    bounds_.push_back(world.bounds(id));
  };
  for (const detail::Bvh* tree : detail::WorldAccess::trees(world)) tree->query_box(box_, gather);
  if (const Heightfield* terrain = world.terrain()) {
    // The triangles first, then their entries in one allocation: a fast move across hills
    // gathers hundreds, and growing the entries (392 bytes each) one doubling at a time took
    // fresh pages from the system at each step, half of such a move's time.
    terrain->triangles_in(detail::up_to_terrain_top(box_, *terrain),
                          [&](const gjk::Triangle& t) { triangles_.push_back(t); });
    grow_for(entries_, triangles_.size());
    grow_for(bounds_, triangles_.size());
    Entry e;
    e.target = HitTarget::terrain;
    e.layers = world.terrain_layers();
    for (std::uint32_t i = 0; i < triangles_.size(); ++i) {
      const gjk::Triangle& t = triangles_[i];
      e.order = i;
      entries_.push_back(e);
      bounds_.push_back(gjk::Aabb::of_point(t.a).merged(t.b).merged(t.c));
    }
  }
}

// Whether a held entry may meet a sweep within `reach_box`, else whether a character may: the
// bounds tests sweep_capsule starts each of them with (terrain by its column, which holds a
// capsule buried under it).
NearbyPieces::SweepMeets NearbyPieces::meets_any(const gjk::Aabb& reach_box, const QueryFilter& filter) const {
  for (std::size_t i = 0; i < entries_.size(); ++i)
    if (overlaps_from_above(bounds_[i], reach_box) &&
        (entries_[i].target == HitTarget::terrain || bounds_[i].overlaps(reach_box)))
      return SweepMeets::held;
  // The characters are a handful, each a coin toss: tested all, without a branch each.
  bool met = false;
  for (const CapsuleObstacle& o : characters_) met |= character_may_meet(o, filter, reach_box);
  return met ? SweepMeets::characters : SweepMeets::nothing;
}

SweepHit NearbyPieces::sweep_capsule(const World& world, const gjk::Capsule& capsule, const glm::vec3& motion,
                                     const QueryFilter& filter, const SweepSettings& settings) {
  if (!detail::valid_capsule(capsule) || !detail::finite(motion)) return {};
  const gjk::Aabb box = gjk::capsule_bounds(capsule);
  const gjk::Aabb reach_box = box.swept(motion);
  hold(world, reach_box);
  note_query(reach_box);
  // Most sweeps of a walk meet nothing held (the floor lies below the capsule's bounds): that
  // is told before anything else is set up. In a crowd many meet only characters: the held
  // entries, none of which the sweep can meet, are then passed over.
  const SweepMeets meets = meets_any(reach_box, filter);
  if (meets == SweepMeets::nothing) return {};
  const gjk::ToiSettings toi = detail::toi_settings(settings);
  const float tie = std::max(0.f, detail::fraction_of(settings.tie_distance, motion));
  const float slack = detail::fraction_of(toi.tolerance, motion);
  const float radius = capsule.radius;
  const float motion_length = glm::length(motion);
  detail::HitCollector hits(tie);
  const detail::SweptBox swept(box.center(), 0.5f * box.extents(), motion);

  const std::size_t held = meets == SweepMeets::held ? entries_.size() : 0;
  for (std::size_t i = 0; i < held; ++i) {
    // The bounds sit apart from the entries, so the many a sweep passes by cost little.
    if (!overlaps_from_above(bounds_[i], reach_box)) continue;
    Entry& e = entries_[i];
    if (e.target == HitTarget::terrain && accepts(e, filter)) {
      // Before the culling: a capsule buried under the surface is below the triangle's bounds.
      detail::Candidate below{};
      if (detail::below_terrain(triangles_[e.order], capsule.segment, motion, settings, below)) {
        below.order = e.order;
        if (below.target == HitTarget::terrain) hits.add(below);
        continue;
      }
    }
    if (!bounds_[i].overlaps(reach_box)) continue;
    if (!accepts(e, filter) || swept.enter(bounds_[i]) > std::min(1.f, hits.bound() + slack)) continue;
    if (e.target == HitTarget::terrain &&
        !detail::may_reach_plane(triangles_[e.order], capsule.segment, motion, radius + toi.tolerance))
      continue;
    if (e.has_plane && plane_skips(e.plane_normal, e.plane_offset, capsule.segment, radius, motion, motion_length,
                                   toi.tolerance, settings.ignore_separating))
      continue;
    with_shape(e, [&](const auto& shape) {
      // The distance at the start, often known from the last probe, lets conservative
      // advancement settle pieces the motion leaves or cannot reach without a GJK query.
      const gjk::DistanceResult& start = distance_to(e, capsule.segment, shape);
      if (start.status == gjk::Status::invalid_input) return;
      gjk::ToiResult r;
      if (!e.face.time_of_impact(capsule.segment, radius, motion, start, toi.tolerance, r))
        r = detail::time_of_impact(capsule.segment, radius, motion, shape, settings.method, toi, {&e.cache, &start});
      if (!r.hit) return;
      if (e.triangle) r.normal = detail::mesh_normal({e.vertices, 3}, e.edges, r.point, r.normal);
      learn_plane(e, r.normal);
      if (detail::separating(r, motion, settings)) return;
      if constexpr (std::is_same_v<std::decay_t<decltype(shape)>, gjk::Triangle>)
        if (detail::leaves_terrain(r, shape, capsule.segment, radius, motion, settings, toi.tolerance,
                                   *world.terrain()))
          return;
      hits.add({r.t, r.point, r.normal, e.target, e.piece, e.order, {}, e.mesh_triangle()});
    });
  }
  gjk::Capsule met = capsule; // what meets the characters: less the inset
  met.radius = std::max(0.f, capsule.radius - character_inset_);
  for (const CapsuleObstacle& o : characters_) {
    const gjk::Aabb bounds = gjk::capsule_bounds(o.capsule);
    const bool layered = (o.layers & filter.layer_mask) != 0, other = o.id != passing_;
    if (!(layered & other & bounds.overlaps_unbranched(reach_box)) || hits.beats_character(o.id)) continue;
    // Farther apart than the motion is long, beyond time_of_impact's own margin for that: no hit.
    if (gjk::capsule_gap_surely_exceeds(met, o.capsule, motion_length + 1.02f * toi.tolerance)) continue;
    gjk::CapsulePairHit r = gjk::time_of_impact(met, motion, o.capsule, toi.tolerance);
    // A hit counts where the swept bounds reach the other's in time, as a piece's must: tested
    // after the time of impact, as most pairs that come this far need that anyway and fewer hit.
    if (!r.hit || swept.enter(bounds) > std::min(1.f, hits.bound() + slack)) continue;
    // Inner segments crossing: the contact's normal is the overlap query's, so a push out along
    // it is let go.
    if (r.crossing) r.normal = crossing_normal(capsule, o.capsule, self_, o.id);
    if (settings.ignore_separating && glm::dot(r.normal, motion) >= -1e-4f * motion_length) continue;
    hits.add({r.t, r.point, r.normal, HitTarget::character, {}, 0, o.id});
  }
  return detail::to_sweep_hit(hits.winner());
}

std::span<const Contact> NearbyPieces::overlap_capsule(const World& world, const gjk::Capsule& capsule,
                                                       float max_distance, const QueryFilter& filter) {
  std::vector<Contact>& contacts = contact_list();
  contacts.clear();
  const std::optional<gjk::Aabb> held = overlap_box(world, capsule, max_distance);
  if (!held) return {};
  const gjk::Aabb& box = *held;
  for (int pass = 0; pass < 2; ++pass) {
    // Pieces first, then terrain in walk order, as World::overlap_capsule lists them.
    const HitTarget target = pass == 0 ? HitTarget::piece : HitTarget::terrain;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      Entry& e = entries_[i];
      if (e.target != target || !accepts(e, filter)) continue;
      // A segment under a terrain triangle is inside the terrain, however far below the
      // triangle's bounds; and a plane learnt from below the triangle faces down and proves
      // nothing about the solid under it.
      if (!overlaps_from_above(bounds_[i], box)) continue;
      const bool below =
          target == HitTarget::terrain && detail::terrain_column(triangles_[e.order], capsule.segment).lowest < 0.f;
      if (!below && !bounds_[i].overlaps(box)) continue;
      if (!below && target == HitTarget::terrain && !overlaps(triangles_[e.order], box)) continue;
      if (!below && e.has_plane &&
          plane_skips(e.plane_normal, e.plane_offset, capsule.segment, capsule.radius + max_distance, glm::vec3(0.f),
                      0.f, 0.f, false))
        continue;
      with_shape(e, [&](const auto& shape) {
        const gjk::DistanceResult& d = distance_to(e, capsule.segment, shape);
        std::optional<Contact> c;
        if constexpr (std::is_same_v<std::decay_t<decltype(shape)>, gjk::Triangle>)
          c = detail::terrain_contact_from(capsule, max_distance, shape, d);
        else
          c = detail::contact_from(capsule, max_distance, shape, d);
        if (!c) return;
        c->target = e.target;
        c->piece = e.piece;
        if (e.triangle) {
          c->triangle = e.order;
          const detail::LeafItem item{{}, e.order, e.edges, {e.vertices, 3}};
          c->normal = detail::mesh_contact_normal(item, *c, capsule.segment);
        }
        append_contact(contacts, *c);
      });
    }
    if (pass == 0) {
      std::sort(contacts.begin(), contacts.end(),
                [](const Contact& a, const Contact& b) { return detail::piece_order(a, b); });
      add_character_contacts(capsule, max_distance, box, filter);
    }
  }
  return contacts;
}

// What overlap_capsule asks of the held pieces, for `capsule` within `max_distance` (clamped to
// no deeper than the radius): the box, held and noted. None for an invalid query.
std::optional<gjk::Aabb> NearbyPieces::overlap_box(const World& world, const gjk::Capsule& capsule,
                                                   float& max_distance) {
  if (!detail::valid_capsule(capsule) || !std::isfinite(max_distance)) return std::nullopt;
  max_distance = gjk::detail::max_of(-capsule.radius, max_distance); // std::max's bits, without its branch
  const gjk::Aabb box = gjk::capsule_bounds(capsule).expanded(gjk::detail::max_of(0.f, max_distance));
  note_query(box);
  hold(world, box);
  return box;
}

// overlap_capsule and closest, pass by pass, when the only thing in the box is the face: the
// entries they would look at, the ground's plane test, distance_to's cache and plane, the
// contact as contact_from makes it.
bool NearbyPieces::closest_on_face(const World& world, const gjk::Capsule& capsule, float max_distance,
                                   const QueryFilter& filter, PieceId piece, std::span<const Contact>& contacts,
                                   FaceProbe& probe) {
  std::vector<Contact>& list = contact_list();
  list.clear();
  probe = {};
  const std::optional<gjk::Aabb> held = overlap_box(world, capsule, max_distance);
  if (!held) return false;
  const gjk::Aabb& box = *held;
  Entry* ground = nullptr;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    Entry& e = entries_[i];
    if (!accepts(e, filter) || !overlaps_from_above(bounds_[i], box)) continue;
    const bool meets = bounds_[i].overlaps(box);
    if (meets && e.target == HitTarget::piece && !e.triangle && e.piece == piece)
      ground = &e;
    else if (meets || e.target == HitTarget::terrain) // a terrain triangle may hold the capsule under it
      return false;
  }
  for (const CapsuleObstacle& o : characters_)
    if ((o.layers & filter.layer_mask) != 0 && gjk::capsule_bounds(o.capsule).overlaps(box)) return false;
  if (ground == nullptr) return false;
  contacts = list;
  if (ground->has_plane && plane_skips(ground->plane_normal, ground->plane_offset, capsule.segment,
                                       capsule.radius + max_distance, glm::vec3(0.f), 0.f, 0.f, false))
    return true;
  if (ground->has_known && ground->known_segment.a == capsule.segment.a && ground->known_segment.b == capsule.segment.b)
    return false; // distance_to would answer from its cache, which GJK may have filled
  gjk::DistanceResult d;
  float inside_by = 0.f;
  if (!ground->face.distance_within(capsule.segment, ground->inside, d, inside_by) || !(d.distance > 0.f)) return false;
  know_face_distance(*ground, capsule.segment, d);
  if (d.distance - capsule.radius > max_distance) return true;
  // contact_from's contact for a distance over a face: no penetration, a unit normal.
  Contact& c = list.emplace_back();
  c.target = HitTarget::piece;
  c.piece = ground->piece;
  c.distance = d.distance - capsule.radius;
  c.point_on_piece = d.point_b;
  c.point_on_segment = d.point_a;
  c.normal = d.normal;
  contacts = list;
  probe = {&ground->face, inside_by};
  return true;
}

bool NearbyPieces::character_closer(const gjk::Capsule& capsule, float gap, float max_distance,
                                    const QueryFilter& filter) {
  const gjk::Aabb box = gjk::capsule_bounds(capsule).expanded(std::max(max_distance, 0.f));
  note_query(box);
  gjk::SegmentPairClosest d;
  for (const CapsuleObstacle& o : characters_)
    if (character_in(capsule, o, box, filter, gap, d) && d.distance - capsule.radius - o.capsule.radius < gap)
      return true;
  return false;
}

// Characters after the pieces, in the order they were set (by id).
void NearbyPieces::add_character_contacts(const gjk::Capsule& capsule, float max_distance, const gjk::Aabb& box,
                                          const QueryFilter& filter) {
  gjk::SegmentPairClosest d;
  for (const CapsuleObstacle& o : characters_) {
    if (!character_in(capsule, o, box, filter, max_distance, d)) continue;
    const float gap = d.distance - capsule.radius - o.capsule.radius;
    if (gap > max_distance) continue;
    // Filled in place: a contact built on the stack and copied in was read back in 16-byte
    // pieces its narrower stores could not forward, which stalled each copy.
    Contact& c = contact_list().emplace_back();
    c.target = HitTarget::character;
    c.character = o.id;
    c.distance = gap;
    c.depth = std::max(0.f, o.capsule.radius - d.distance);
    c.normal = d.distance > 0.f ? d.normal : crossing_normal(capsule, o.capsule, self_, o.id);
    c.point_on_piece = d.point_b + c.normal * o.capsule.radius;
    c.point_on_segment = d.point_a;
  }
}

std::span<const Contact> NearbyPieces::closest(const World& world, const gjk::Capsule& capsule, float max_distance,
                                               const QueryFilter& filter, std::size_t max_contacts) {
  overlap_capsule(world, capsule, max_distance, filter);
  std::vector<Contact>& contacts = contact_list();
  // Stable, as World::closest; an insertion sort, since a probe sees a handful of contacts
  // and std::stable_sort would allocate a buffer each time.
  for (std::size_t i = 1; i < contacts.size(); ++i)
    for (std::size_t j = i; j > 0 && contacts[j].distance < contacts[j - 1].distance; --j)
      std::swap(contacts[j], contacts[j - 1]);
  if (contacts.size() > max_contacts) contacts.resize(max_contacts);
  return contacts;
}

RayHit NearbyPieces::raycast(const World& world, const glm::vec3& origin, const glm::vec3& dir, float max_t,
                             const QueryFilter& filter, const SweepSettings& settings) {
  glm::vec3 motion;
  if (!detail::ray_motion(origin, dir, max_t, motion)) return {};
  hold(world, gjk::Aabb::of_point(origin).swept(motion));
  const gjk::ToiSettings toi = detail::toi_settings(settings);
  detail::HitCollector hits(detail::fraction_of(settings.tie_distance, motion));
  const float slack = detail::fraction_of(toi.tolerance, motion);
  detail::add_terrain_ray(world.terrain(), world.terrain_layers(), filter, origin, dir, max_t, hits);
  const gjk::Segment point{origin, origin};
  const detail::SweptBox swept(origin, glm::vec3(0.f), motion);
  const gjk::Aabb ray_box = gjk::Aabb::of_point(origin).swept(motion);
  note_query(ray_box);
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (!bounds_[i].overlaps(ray_box)) continue;
    const Entry& e = entries_[i];
    if (e.target != HitTarget::piece || !accepts(e, filter) ||
        swept.enter(bounds_[i]) > std::min(1.f, hits.bound() + slack))
      continue;
    if (e.has_plane &&
        plane_skips(e.plane_normal, e.plane_offset, point, 0.f, motion, glm::length(motion), toi.tolerance, false))
      continue;
    gjk::ToiResult r = detail::time_of_impact(point, 0.f, motion, detail::VertexCloud(e.vertices, e.vertex_count),
                                              settings.method, toi);
    if (!r.hit) continue;
    if (e.triangle) r.normal = detail::mesh_normal({e.vertices, 3}, e.edges, r.point, r.normal);
    hits.add({r.t, r.point, r.normal, HitTarget::piece, e.piece, 0, {}, e.mesh_triangle()});
  }
  for (const CapsuleObstacle& o : characters_) {
    const gjk::Aabb bounds = gjk::capsule_bounds(o.capsule);
    if ((o.layers & filter.layer_mask) == 0 || !bounds.overlaps(ray_box) ||
        swept.enter(bounds) > std::min(1.f, hits.bound() + slack))
      continue;
    const gjk::CapsulePairHit r = gjk::time_of_impact(gjk::Capsule{point, 0.f}, motion, o.capsule, toi.tolerance);
    if (r.hit) hits.add({r.t, r.point, r.normal, HitTarget::character, {}, 0, o.id});
  }
  return detail::to_ray_hit(hits.winner(), origin, dir, max_t);
}

} // namespace glide
