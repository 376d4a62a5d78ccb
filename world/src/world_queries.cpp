// The world's queries: broadphase (BVH for pieces, the grid for terrain) feeding the
// narrowphase tests of narrowphase.hpp. docs/world.md describes them.
#include "bvh.hpp"
#include "mesh_piece.hpp"
#include "narrowphase.hpp"

#include <glide/world/world.hpp>

#include <algorithm>
#include <limits>

namespace glide {

SweepHit World::sweep_capsule(const gjk::Capsule& capsule, const glm::vec3& full_motion, const QueryFilter& filter,
                              const SweepSettings& settings) const {
  if (!detail::valid_capsule(capsule) || !detail::finite(full_motion)) return {};
  detail::check_range(capsule, "World::sweep_capsule");
  glm::vec3 motion = full_motion;
  const float shortened = detail::shorten(motion);
  update();
  const gjk::ToiSettings toi = detail::toi_settings(settings);
  const float tie = std::max(0.f, detail::fraction_of(settings.tie_distance, motion));
  // A time of impact may come up to one tolerance early, so the broadphase keeps pieces whose
  // boxes are reached within that much after the bound.
  const float slack = detail::fraction_of(toi.tolerance, motion);
  detail::HitCollector hits(tie);
  const gjk::Aabb box = gjk::capsule_bounds(capsule);

  if (terrain_ && (terrain_layers_ & filter.layer_mask) != 0u) {
    std::uint32_t order = 0;
    const float reach = capsule.radius + toi.tolerance;
    const detail::SweptBox swept(box.center(), 0.5f * box.extents(), motion);
    terrain_->triangles_in(detail::up_to_terrain_top(box.swept(motion), *terrain_), [&](const gjk::Triangle& triangle) {
      detail::Candidate below{};
      if (detail::below_terrain(triangle, capsule.segment, motion, settings, below)) {
        below.order = order++;
        if (below.target == HitTarget::terrain) hits.add(below);
        return;
      }
      // Skip triangles the capsule's box reaches only after the earliest hit so far, or whose
      // plane it passes beyond the radius.
      const gjk::Aabb bounds = gjk::Aabb::of_point(triangle.a).merged(triangle.b).merged(triangle.c);
      if (swept.enter(bounds) > hits.bound() + slack ||
          !detail::may_reach_plane(triangle, capsule.segment, motion, reach)) {
        ++order;
        return;
      }
      const gjk::ToiResult r =
          detail::time_of_impact(capsule.segment, capsule.radius, motion, triangle, settings.method, toi);
      if (r.hit && !detail::separating(r, motion, settings) &&
          !detail::leaves_terrain(r, triangle, capsule.segment, capsule.radius, motion, settings, toi.tolerance,
                                  *terrain_))
        hits.add({r.t, r.point, r.normal, HitTarget::terrain, PieceId{}, order, {}});
      ++order;
    });
  }

  float limit = std::min(1.f, hits.bound() + slack);
  // A mesh piece (no payload) is the same test on each of its triangles its box reaches.
  const auto visit = [&](const detail::LeafItem& piece, float) {
    const PieceId id{piece.item};
    if (!accepts(id, piece.word, filter)) return;
    if (piece.payload.empty()) // a mesh piece: the same test on each triangle (out of line)
      return detail::sweep_mesh(mesh_piece(id), id, capsule.segment, capsule.radius, box, motion, settings, true, slack,
                                hits, limit);
    const detail::VertexCloud shape(piece.payload);
    const gjk::ToiResult r =
        detail::time_of_impact(capsule.segment, capsule.radius, motion, shape, settings.method, toi);
    if (!r.hit || detail::separating(r, motion, settings)) return;
    hits.add({r.t, r.point, r.normal, HitTarget::piece, id, 0, {}});
    limit = std::min(limit, hits.bound() + slack);
  };
  for (const auto& tree : trees_) tree->query_sweep(box.center(), 0.5f * box.extents(), motion, limit, visit);
  SweepHit hit = detail::to_sweep_hit(hits.winner());
  if (hit.hit) hit.fraction *= shortened;
  return hit;
}

std::vector<Contact> World::overlap_capsule(const gjk::Capsule& capsule, float margin,
                                            const QueryFilter& filter) const {
  std::vector<Contact> contacts;
  if (!detail::valid_capsule(capsule) || !std::isfinite(margin)) return contacts;
  detail::check_range(capsule, "World::overlap_capsule");
  margin = std::max(margin, -capsule.radius);
  update();
  const gjk::Aabb box = gjk::capsule_bounds(capsule).expanded(std::max(margin, 0.f));
  const auto visit = [&](const detail::LeafItem& piece) {
    const PieceId id{piece.item};
    if (!accepts(id, piece.word, filter)) return;
    if (piece.payload.empty()) return detail::overlap_mesh(mesh_piece(id), id, capsule, margin, box, contacts);
    std::optional<Contact> c = detail::contact(capsule, margin, detail::VertexCloud(piece.payload));
    if (!c) return;
    c->target = HitTarget::piece;
    c->piece = id;
    contacts.push_back(*c);
  };
  for (const auto& tree : trees_) tree->query_box(box, visit);
  std::sort(contacts.begin(), contacts.end(),
            [](const Contact& a, const Contact& b) { return detail::piece_order(a, b); });

  if (terrain_ && (terrain_layers_ & filter.layer_mask) != 0u) {
    terrain_->triangles_in(detail::up_to_terrain_top(box, *terrain_), [&](const gjk::Triangle& triangle) {
      // Above the box, only a triangle the segment lies under has a contact.
      if (!overlaps(triangle, box) && !(detail::terrain_column(triangle, capsule.segment).lowest < 0.f)) return;
      std::optional<Contact> c =
          detail::terrain_contact_from(capsule, margin, triangle, gjk::distance(capsule.segment, triangle));
      if (!c) return;
      c->target = HitTarget::terrain;
      contacts.push_back(*c);
    });
  }
  return contacts;
}

std::vector<Contact> World::closest(const gjk::Capsule& capsule, float max_distance, const QueryFilter& filter,
                                    std::size_t max_contacts) const {
  std::vector<Contact> contacts = overlap_capsule(capsule, max_distance, filter);
  // Stable: equal distances keep the overlap order (piece ids, then terrain walk order).
  std::stable_sort(contacts.begin(), contacts.end(),
                   [](const Contact& a, const Contact& b) { return a.distance < b.distance; });
  if (contacts.size() > max_contacts) contacts.resize(max_contacts);
  return contacts;
}

RayHit World::raycast(const glm::vec3& origin, const glm::vec3& dir, float max_t, const QueryFilter& filter,
                      const SweepSettings& settings) const {
  glm::vec3 motion;
  if (!detail::ray_motion(origin, dir, max_t, motion)) return {};
  update();
  const gjk::ToiSettings toi = detail::toi_settings(settings);
  const float tie = detail::fraction_of(settings.tie_distance, motion);
  const float slack = detail::fraction_of(toi.tolerance, motion);
  detail::HitCollector hits(tie);
  detail::add_terrain_ray(terrain(), terrain_layers_, filter, origin, dir, max_t, hits);

  // A ray is a point swept along the motion: the same time of impact as a capsule of radius 0.
  const gjk::Segment point{origin, origin};
  float limit = std::min(1.f, hits.bound() + slack);
  const auto visit = [&](const detail::LeafItem& piece, float) {
    const PieceId id{piece.item};
    if (!accepts(id, piece.word, filter)) return;
    if (piece.payload.empty())
      return detail::sweep_mesh(mesh_piece(id), id, point, 0.f, gjk::Aabb::of_point(origin), motion, settings, false,
                                slack, hits, limit);
    const detail::VertexCloud shape(piece.payload);
    const gjk::ToiResult r = detail::time_of_impact(point, 0.f, motion, shape, settings.method, toi);
    if (!r.hit) return;
    hits.add({r.t, r.point, r.normal, HitTarget::piece, id, 0, {}});
    limit = std::min(limit, hits.bound() + slack);
  };
  for (const auto& tree : trees_) tree->query_sweep(origin, glm::vec3(0.f), motion, limit, visit);

  return detail::to_ray_hit(hits.winner(), origin, dir, max_t);
}

} // namespace glide
