// The world's queries on a mesh piece: each triangle its hierarchy finds, as a flat piece, with
// the normal rule of mesh_piece.hpp.
#include "mesh_piece.hpp"
#include "narrowphase.hpp"

namespace glide::detail {

void sweep_mesh(const MeshPiece& mesh, PieceId id, const gjk::Segment& segment, float radius, const gjk::Aabb& box,
                const glm::vec3& motion, const SweepSettings& settings, bool separating_rule, float slack,
                HitCollector& hits, float& limit) {
  const gjk::ToiSettings toi = toi_settings(settings);
  mesh.tree.query_sweep(box.center(), 0.5f * box.extents(), motion, limit, [&](const LeafItem& t, float) {
    gjk::ToiResult r = time_of_impact(segment, radius, motion, VertexCloud(t.payload), settings.method, toi);
    if (!r.hit) return;
    r.normal = mesh_normal(t.payload, t.word, r.point, r.normal);
    if (separating_rule && separating(r, motion, settings)) return;
    hits.add({r.t, r.point, r.normal, HitTarget::piece, id, 0, {}, t.item});
    limit = std::min(limit, hits.bound() + slack);
  });
}

void overlap_mesh(const MeshPiece& mesh, PieceId id, const gjk::Capsule& capsule, float margin, const gjk::Aabb& box,
                  std::vector<Contact>& out) {
  mesh.tree.query_box(box, [&](const LeafItem& t) {
    std::optional<Contact> c = contact(capsule, margin, VertexCloud(t.payload));
    if (!c) return;
    c->target = HitTarget::piece;
    c->piece = id;
    c->triangle = t.item;
    c->normal = mesh_contact_normal(t, *c, capsule.segment);
    out.push_back(*c);
  });
}

bool mesh_in_box(const MeshPiece& mesh, const gjk::Aabb& box) {
  bool any = false;
  mesh.tree.query_box(box, [&](const LeafItem&) { any = true; });
  return any;
}

bool mesh_along(const MeshPiece& mesh, const gjk::Aabb& box, const glm::vec3& motion) {
  float limit = 1.f;
  bool any = false;
  mesh.tree.query_sweep(box.center(), 0.5f * box.extents(), motion, limit, [&](const LeafItem&, float) {
    any = true;
    limit = -1.f; // the first one answers: prunes the rest of the walk
  });
  return any;
}

} // namespace glide::detail
