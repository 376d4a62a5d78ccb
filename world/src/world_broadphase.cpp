// The world's broadphase on its own: box and swept-box queries over the pieces' bounds, and
// the hierarchy's statistics. docs/world.md describes them.
#include "bvh.hpp"
#include "mesh_piece.hpp"

#include <glide/limits.hpp>
#include <glide/world/world.hpp>

#include <algorithm>
#include <cmath>
#include <utility>

namespace glide {

namespace {

using limits::finite;

bool valid_box(const gjk::Aabb& box) {
  return finite(box.min) && finite(box.max) && box.min.x <= box.max.x && box.min.y <= box.max.y &&
         box.min.z <= box.max.z;
}

} // namespace

void World::pieces_in_box(const gjk::Aabb& box, std::vector<PieceId>& out, const QueryFilter& filter) const {
  if (!valid_box(box)) return;
  update();
  const auto visit = [&](const detail::LeafItem& piece) {
    const PieceId id{piece.item};
    if (!accepts(id, piece.word, filter)) return;
    // A mesh piece counts when one of its triangles' boxes does.
    if (piece.payload.empty() && !detail::mesh_in_box(mesh_piece(id), box)) return;
    out.push_back(id);
  };
  for (const auto& tree : trees_) tree->query_box(box, visit);
}

void World::pieces_along(const gjk::Aabb& box, const glm::vec3& motion, std::vector<PieceId>& out,
                         const QueryFilter& filter) const {
  if (!valid_box(box) || !finite(motion)) return;
  update();
  float limit = 1.f; // every box reached in [0, 1]: nothing lowers it
  const auto visit = [&](const detail::LeafItem& piece, float) {
    const PieceId id{piece.item};
    if (!accepts(id, piece.word, filter)) return;
    // A mesh piece counts when the box reaches one of its triangles' boxes.
    if (piece.payload.empty() && !detail::mesh_along(mesh_piece(id), box, motion)) return;
    out.push_back(id);
  };
  for (const auto& tree : trees_) tree->query_sweep(box.center(), 0.5f * box.extents(), motion, limit, visit);
}

WorldStats World::stats() const {
  update();
  WorldStats s;
  s.pieces = live_count_;
  s.rebuilds = rebuilds_;
  s.refits = refits_;
  double area = 0.0, built_area = 0.0;
  for (const auto& tree : trees_) {
    const detail::Bvh& bvh = *tree;
    s.nodes += bvh.wide_nodes().size();
    s.build_nodes += bvh.nodes().size();
    s.grid_cells += bvh.cells().cell_count();
    for (std::uint32_t i = 0; i < bvh.cells().cell_count(); ++i) s.used_cells += bvh.cells().cell(i).used();
    s.hierarchy_bytes += bvh.node_bytes();
    s.piece_data_bytes += bvh.leaf_bytes();
    area += bvh.area();
    built_area += bvh.built_area();
    s.refit_reach_growth = std::max(s.refit_reach_growth, static_cast<double>(bvh.reach_growth()));
    if (bvh.wide_nodes().empty()) continue;
    // Depth first from the root: (wide node, its depth counting the root as 1).
    std::vector<std::pair<std::uint32_t, std::size_t>> stack{{0u, 1u}};
    while (!stack.empty()) {
      const auto [index, depth] = stack.back();
      stack.pop_back();
      const detail::WideNode& node = bvh.wide_nodes()[index];
      for (int k = 0; k < 4; ++k) {
        if ((node.used >> k & 1u) == 0u) continue;
        if (node.count[k] == 0) {
          stack.push_back({node.child[k], depth + 1});
          continue;
        }
        ++s.leaves;
        s.depth = std::max(s.depth, depth);
      }
    }
  }
  if (built_area > 0.0) s.refit_area_ratio = area / built_area;
  return s;
}

} // namespace glide
