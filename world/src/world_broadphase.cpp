// The world's broadphase on its own: box and swept-box queries over the pieces' bounds, and
// the hierarchy's statistics. docs/world.md describes them.
#include "bvh.hpp"

#include <glide/world/world.hpp>

#include <cmath>
#include <utility>

namespace glide {

namespace {

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

bool valid_box(const gjk::Aabb& box) {
  return finite(box.min) && finite(box.max) && box.min.x <= box.max.x && box.min.y <= box.max.y &&
         box.min.z <= box.max.z;
}

} // namespace

void World::pieces_in_box(const gjk::Aabb& box, std::vector<PieceId>& out, const QueryFilter& filter) const {
  if (!valid_box(box)) return;
  update();
  bvh_->query_box(box, [&](const detail::LeafItem& piece) {
    const PieceId id{piece.item};
    if (accepts(id, piece.word, filter)) out.push_back(id);
  });
}

void World::pieces_along(const gjk::Aabb& box, const glm::vec3& motion, std::vector<PieceId>& out,
                         const QueryFilter& filter) const {
  if (!valid_box(box) || !finite(motion)) return;
  update();
  float limit = 1.f; // every box reached in [0, 1]: nothing lowers it
  bvh_->query_sweep(box.center(), 0.5f * box.extents(), motion, limit, [&](const detail::LeafItem& piece, float) {
    const PieceId id{piece.item};
    if (accepts(id, piece.word, filter)) out.push_back(id);
  });
}

WorldStats World::stats() const {
  update();
  const detail::Bvh& bvh = *bvh_;
  WorldStats s;
  s.pieces = live_count_;
  s.nodes = bvh.wide_nodes().size();
  s.build_nodes = bvh.nodes().size();
  s.grid_cells = bvh.cells().cell_count();
  for (std::size_t i = 0; i < s.grid_cells; ++i) s.used_cells += bvh.cells().cell(static_cast<std::uint32_t>(i)).used();
  s.hierarchy_bytes = bvh.node_bytes();
  s.piece_data_bytes = bvh.leaf_bytes();
  s.rebuilds = rebuilds_;
  s.refits = refits_;
  if (bvh.built_area() > 0.0) s.refit_area_ratio = bvh.area() / bvh.built_area();
  s.refit_reach_growth = bvh.reach_growth();
  if (bvh.wide_nodes().empty()) return s;
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
  return s;
}

} // namespace glide
