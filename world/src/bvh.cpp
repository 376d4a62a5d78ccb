#include "bvh.hpp"

#include <glide/error.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace glide::detail {

namespace {

constexpr int k_bins = 16;      // SAH candidates per axis
constexpr int k_sah_depth = 64; // deeper ranges are split at the median instead

struct Bin {
  gjk::Aabb bounds;
  std::uint32_t count = 0;
};

struct Task {
  std::uint32_t node;
  std::uint32_t begin, end;
  int depth;
  // Whether the node still spans several cells: it is split at a cell boundary, down to the
  // cells [cell_lo, cell_hi) it covers, before any SAH split.
  bool spatial = false;
  int cell_lo[3] = {};
  int cell_hi[3] = {};
};

constexpr std::uint32_t k_no_mark = ~0u;
constexpr std::uint32_t k_large_mark = ~0u - 1;

struct Split {
  int axis = -1;
  int bin = 0; // items in bins [0, bin] go left
  float cost = 0.f;
};

// The comparison form also sends a NaN (bounds that overflowed) to bin 0 instead of converting
// it to an int, which is undefined.
int bin_of(float c, float lo, float scale) {
  const float x = (c - lo) * scale;
  return x > 0.f ? static_cast<int>(std::min(x, static_cast<float>(k_bins - 1))) : 0;
}

// Best SAH split of prims[begin, end) over the three axes, binned in one pass.
Split best_split(const Prim* prims, std::uint32_t count, const gjk::Aabb& centroid_bounds) {
  const glm::vec3 extent = centroid_bounds.extents();
  glm::vec3 scale;
  for (int a = 0; a < 3; ++a) scale[a] = extent[a] > 0.f ? static_cast<float>(k_bins) / extent[a] : 0.f;
  std::array<std::array<Bin, k_bins>, 3> bins{};
  for (std::uint32_t i = 0; i < count; ++i) {
    const Prim& p = prims[i];
    for (int a = 0; a < 3; ++a) {
      Bin& bin = bins[a][static_cast<std::size_t>(bin_of(p.centroid[a], centroid_bounds.min[a], scale[a]))];
      bin.count++;
      bin.bounds = bin.bounds.merged(p.box);
    }
  }
  Split best;
  for (int a = 0; a < 3; ++a) {
    if (!(extent[a] > 0.f)) continue;
    // Sweep from the right for the cost of every right part, then from the left.
    std::array<float, k_bins> right_cost{};
    gjk::Aabb right;
    std::uint32_t right_count = 0;
    for (int b = k_bins - 1; b > 0; --b) {
      right = right.merged(bins[a][b].bounds);
      right_count += bins[a][b].count;
      right_cost[b - 1] = right_count > 0 ? right.half_area() * static_cast<float>(right_count) : 0.f;
    }
    gjk::Aabb left;
    std::uint32_t left_count = 0;
    for (int b = 0; b < k_bins - 1; ++b) {
      left = left.merged(bins[a][b].bounds);
      left_count += bins[a][b].count;
      if (left_count == 0 || left_count == count) continue;
      const float cost = left.half_area() * static_cast<float>(left_count) + right_cost[b];
      if (best.axis < 0 || cost < best.cost) best = {a, b, cost};
    }
  }
  return best;
}

// Splits a spatial task's prims at the middle cell boundary of its widest range of cells
// (returned in `axis`), after narrowing the range while one side would hold no centroid.
// Returns the first prim of the right side, or task.begin once the range is a single cell.
std::uint32_t split_at_cell(Task& task, Prim* prims, const CellGrid& cells, int& axis) {
  for (;;) {
    axis = 0;
    for (int a = 1; a < 3; ++a)
      if (task.cell_hi[a] - task.cell_lo[a] > task.cell_hi[axis] - task.cell_lo[axis]) axis = a;
    if (task.cell_hi[axis] - task.cell_lo[axis] == 1) return task.begin;
    const int middle = (task.cell_lo[axis] + task.cell_hi[axis]) / 2;
    Prim* const first = prims + task.begin;
    Prim* const last = prims + task.end;
    Prim* const mid =
        std::partition(first, last, [&](const Prim& p) { return cells.coord(p.centroid[axis], axis) < middle; });
    if (mid == first)
      task.cell_lo[axis] = middle;
    else if (mid == last)
      task.cell_hi[axis] = middle;
    else
      return static_cast<std::uint32_t>(mid - prims);
  }
}

// The smallest power of two `step` (exponent clamped to float's normal range) with
// 255 * step >= extent, so code 255 reaches the far side of the node's box.
int step_exponent(double extent) {
  int e = -126;
  if (extent > 0.0) e = std::clamp(std::ilogb(extent / 255.0), -126, 127);
  while (e < 127 && 255.0 * std::ldexp(1.0, e) < extent) ++e;
  while (e > -126 && 255.0 * std::ldexp(1.0, e - 1) >= extent) --e;
  return e;
}

// Stores slot k's bound along axis a on the node's grid, rounded outward: each code is the
// nearest one whose decoded value, computed exactly as the queries compute it, lies on the far
// side of the exact bound. Code 0 decodes to the origin itself, and code 255 to at least the
// node box's largest corner (255 * step covers its extent, and float rounding is monotone), so
// such a code exists for any bound within the grid's range.
void code_slot(WideNode& w, int a, int k, float min, float max) {
  const float step = w.step(a);
  const double lo = std::floor((static_cast<double>(min) - w.origin[a]) / step);
  const double hi = std::ceil((static_cast<double>(max) - w.origin[a]) / step);
  int q_lo = static_cast<int>(std::clamp(lo, 0.0, 255.0));
  int q_hi = static_cast<int>(std::clamp(hi, 0.0, 255.0));
  while (q_lo > 0 && WideNode::decode(w.origin[a], static_cast<std::uint8_t>(q_lo), step) > min) --q_lo;
  while (q_hi < 255 && WideNode::decode(w.origin[a], static_cast<std::uint8_t>(q_hi), step) < max) ++q_hi;
  w.lo[a][k] = static_cast<std::uint8_t>(q_lo);
  w.hi[a][k] = static_cast<std::uint8_t>(q_hi);
}

// ---- the build's phases (Bvh::build) ----------------------------------------------------

using NodeArray = std::vector<BvhNode, CacheLineAllocator<BvhNode>>;

// Each item's box and centroid, in input order.
std::vector<Prim> make_prims(std::span<const gjk::Aabb> boxes) {
  const auto n = static_cast<std::uint32_t>(boxes.size());
  std::vector<Prim> prims(n);
  for (std::uint32_t i = 0; i < n; ++i) prims[i] = {boxes[i], boxes[i].center(), i};
  return prims;
}

// Chooses the cell grid, moves the items small enough for a cell to the front of `prims` and
// records how far they reach beyond their centroids. Returns how many are small; with none
// (or no grid) the grid is cleared and every query starts at the root.
std::uint32_t plan_cells(CellGrid& cells, std::span<const gjk::Aabb> boxes, std::vector<Prim>& prims) {
  std::uint32_t small = 0;
  if (cells.plan(boxes)) {
    small = static_cast<std::uint32_t>(
        std::partition(prims.begin(), prims.end(), [&](const Prim& p) { return cells.small(p.box); }) - prims.begin());
    glm::vec3 reach(0.f);
    for (std::uint32_t i = 0; i < small; ++i)
      reach = glm::max(reach, glm::max(prims[i].box.max - prims[i].centroid, prims[i].centroid - prims[i].box.min));
    cells.set_reach(reach);
  }
  if (small == 0) cells.clear();
  return small;
}

// The binary tree, built top-down from a stack of tasks (depth first, left child first, so
// node numbers follow one fixed order): the cells' items are split at cell boundaries down to
// one cell each, each cell's items and the large items then by SAH down to one item a leaf.
struct BinaryBuild {
  NodeArray& nodes;
  CellGrid& cells;
  std::vector<Prim>& prims;
  std::vector<Task> tasks;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> marked; // binary node, cell or k_large_mark

  // The root (and its padding) and the first tasks: the cells' items first, then the large
  // ones; the root splits the two when both exist.
  void start(std::uint32_t small) {
    const auto n = static_cast<std::uint32_t>(prims.size());
    nodes.reserve(2 * static_cast<std::size_t>(n) + 1);
    nodes.push_back({}); // root
    nodes.push_back({}); // padding: sibling pairs start at even indices
    Task cells_task{0, 0, small, 0, true, {}, {cells.dims(0), cells.dims(1), cells.dims(2)}};
    if (small == 0) {
      tasks.push_back({0, 0, n, 0});
    } else if (small == n) {
      tasks.push_back(cells_task);
    } else {
      nodes[0] = {gjk::Aabb{}, 2, 0};
      nodes.push_back({});
      nodes.push_back({});
      for (const Prim& p : prims) nodes[0].bounds = nodes[0].bounds.merged(p.box);
      cells_task.node = 2;
      cells_task.depth = 1;
      tasks.push_back(cells_task);
      tasks.push_back({3, small, n, 1});
      marked.push_back({3, k_large_mark});
    }
  }

  void run() {
    while (!tasks.empty()) {
      Task task = tasks.back();
      tasks.pop_back();
      gjk::Aabb bounds, centroid_bounds;
      for (const Prim* p = prims.data() + task.begin; p != prims.data() + task.end; ++p) {
        bounds = bounds.merged(p->box);
        centroid_bounds = centroid_bounds.merged(p->centroid);
      }
      nodes[task.node].bounds = bounds;
      if (task.spatial && split_cells(task)) continue;
      split_items(task, centroid_bounds);
    }
  }

  // Gives the node two children and pushes their tasks, left on top.
  void push_children(Task& left, Task& right, std::uint32_t node) {
    const auto child = static_cast<std::uint32_t>(nodes.size());
    nodes.push_back({});
    nodes.push_back({});
    nodes[node].first = child;
    nodes[node].count = 0;
    left.node = child;
    right.node = child + 1;
    tasks.push_back(right);
    tasks.push_back(left);
  }

  // A spatial task's split at the middle cell boundary of its widest range of cells. False
  // once its items lie in one cell: the node is then that cell's subtree, split by SAH.
  bool split_cells(Task& task) {
    int axis = 0;
    const std::uint32_t mid = split_at_cell(task, prims.data(), cells, axis);
    if (mid == task.begin) {
      marked.push_back({task.node, cells.index(task.cell_lo[0], task.cell_lo[1], task.cell_lo[2])});
      return false;
    }
    Task left = task, right = task;
    left.end = right.begin = mid;
    left.depth = right.depth = task.depth + 1;
    left.cell_hi[axis] = right.cell_lo[axis] = (task.cell_lo[axis] + task.cell_hi[axis]) / 2;
    push_children(left, right, task.node);
    return true;
  }

  // A leaf for one item; otherwise the best SAH split, or the median along the widest
  // centroid axis when SAH finds none.
  void split_items(const Task& task, const gjk::Aabb& centroid_bounds) {
    // Every leaf holds one item. The wide tree's slot box of a leaf is then the item's own box
    // (to 1/255 of its node), so the walk reaches a leaf, and reads its block from memory,
    // only for a real candidate; with leaves of up to four items, 28 % of the blocks read on
    // a 100k level held none.
    const std::uint32_t count = task.end - task.begin;
    if (count == 1) {
      nodes[task.node].first = task.begin;
      nodes[task.node].count = 1;
      return;
    }
    Prim* const first = prims.data() + task.begin;
    Prim* const last = prims.data() + task.end;
    const glm::vec3 extent = centroid_bounds.extents();
    std::uint32_t mid = task.begin;
    const Split best = task.depth < k_sah_depth ? best_split(first, count, centroid_bounds) : Split{};
    if (best.axis >= 0) {
      const int axis = best.axis;
      const float scale = static_cast<float>(k_bins) / extent[axis];
      const float lo = centroid_bounds.min[axis];
      Prim* split =
          std::partition(first, last, [&](const Prim& p) { return bin_of(p.centroid[axis], lo, scale) <= best.bin; });
      mid = static_cast<std::uint32_t>(split - prims.data());
    }
    if (mid == task.begin || mid == task.end) {
      // No useful SAH split (coincident centroids or too deep): halve by count along the
      // widest centroid axis, which bounds the depth by log2(n).
      int axis = 0;
      if (extent.y > extent[axis]) axis = 1;
      if (extent.z > extent[axis]) axis = 2;
      mid = task.begin + count / 2;
      std::nth_element(first, prims.data() + mid, last,
                       [&](const Prim& a, const Prim& b) { return a.centroid[axis] < b.centroid[axis]; });
    }
    Task left{0, task.begin, mid, task.depth + 1};
    Task right{0, mid, task.end, task.depth + 1};
    push_children(left, right, task.node);
  }
};

constexpr std::size_t k_line = 64;
constexpr std::size_t k_huge_page = std::size_t{2} << 20;

// Rounded up to whole huge pages from one huge page on, so the advice covers every byte.
std::size_t storage_size(std::size_t bytes) {
  return bytes >= k_huge_page ? (bytes + k_huge_page - 1) / k_huge_page * k_huge_page : bytes;
}

} // namespace

void* allocate_query_storage(std::size_t bytes) {
  const std::size_t size = storage_size(bytes);
  if (size < k_huge_page) return ::operator new (size, std::align_val_t{k_line});
  void* p = ::operator new (size, std::align_val_t{k_huge_page});
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  madvise(p, size, MADV_HUGEPAGE); // advice only: without huge pages the storage still works
#endif
  return p;
}

void free_query_storage(void* p, std::size_t bytes) {
  const std::size_t size = storage_size(bytes);
  ::operator delete (p, size < k_huge_page ? std::align_val_t{k_line} : std::align_val_t{k_huge_page});
}

// The grid is anchored at the used slots' union: its smallest corner and the smallest power of
// two step whose 255 steps cover its extent.
void quantize(WideNode& w, std::span<const gjk::Aabb> exact, float margin) {
  gjk::Aabb node;
  for (const gjk::Aabb& b : exact) node = node.merged(b);
  for (int a = 0; a < 3; ++a) {
    // The grid spans the box grown by `margin` of its extent a side, and the power-of-two
    // step leaves slack beyond that: half of it goes below the box, so a refit that moves a
    // slot a little outward, either way, still finds it on the grid.
    const double lo = node.min[a], hi = node.max[a], pad = margin * (hi - lo);
    const int e = step_exponent(hi - lo + 2.0 * pad);
    w.step_bits[a] = static_cast<std::uint8_t>(e + 127);
    const float step = w.step(a);
    const auto below = static_cast<float>(lo - 0.5 * (255.0 * step - (hi - lo)));
    // Code 255 must still reach the box's far side as decoded; rounding may deny the slack.
    w.origin[a] = below <= node.min[a] && WideNode::decode(below, 255, step) >= node.max[a] ? below : node.min[a];
    for (int k = 0; k < 4; ++k) {
      if (static_cast<std::size_t>(k) >= exact.size()) { // unused: an empty box (lo > hi); queries check child first
        w.lo[a][k] = 255;
        w.hi[a][k] = 0;
        continue;
      }
      code_slot(w, a, k, exact[static_cast<std::size_t>(k)].min[a], exact[static_cast<std::size_t>(k)].max[a]);
    }
  }
}

namespace {

// quantize_slot's coding of one axis, for when SSE2 is not at hand (or the step is the largest
// float exponent, whose reciprocal is not a normal float).
void code_slot_axis(WideNode& w, int a, int k, float min, float max) {
  const float o = w.origin[a], s = w.step(a);
  // 1 / step exactly, from the exponent (a division costs more than the rest of the coding).
  const float inv =
      w.step_bits[a] < 254 ? std::bit_cast<float>(static_cast<std::uint32_t>(254 - w.step_bits[a]) << 23) : 1.f / s;
  int lo = static_cast<int>(std::clamp((min - o) * inv, 0.f, 255.f));
  int hi = static_cast<int>(std::clamp(std::ceil((max - o) * inv), 0.f, 255.f));
  while (lo > 0 && WideNode::decode(o, static_cast<std::uint8_t>(lo), s) > min) --lo;
  while (hi < 255 && WideNode::decode(o, static_cast<std::uint8_t>(hi), s) < max) ++hi;
  w.lo[a][k] = static_cast<std::uint8_t>(lo);
  w.hi[a][k] = static_cast<std::uint8_t>(hi);
}

} // namespace

// A refit's per-move coding, in float: the step is a power of two, so the estimate is within a
// code of the tightest, and the loops move it outward until it rounds outward as decoded. The
// SSE2 path codes the three axes at once with the same IEEE operations, so the codes agree.
bool quantize_slot(WideNode& w, int k, const gjk::Aabb& exact) {
  for (int a = 0; a < 3; ++a)
    if (!(exact.min[a] >= w.origin[a] && exact.max[a] <= WideNode::decode(w.origin[a], 255, w.step(a)))) return false;
#if defined(__SSE2__)
  if (w.step_bits[0] < 254 && w.step_bits[1] < 254 && w.step_bits[2] < 254) {
    const __m128i bits = _mm_setr_epi32(w.step_bits[0], w.step_bits[1], w.step_bits[2], 127);
    const __m128 step = _mm_castsi128_ps(_mm_slli_epi32(bits, 23)); // lane 3: 1
    const __m128 inv = _mm_castsi128_ps(_mm_slli_epi32(_mm_sub_epi32(_mm_set1_epi32(254), bits), 23));
    const __m128 o = _mm_setr_ps(w.origin[0], w.origin[1], w.origin[2], 0.f);
    const __m128 min = _mm_setr_ps(exact.min.x, exact.min.y, exact.min.z, 0.f);
    const __m128 max = _mm_setr_ps(exact.max.x, exact.max.y, exact.max.z, 0.f);
    const __m128 zero = _mm_setzero_ps(), top = _mm_set1_ps(255.f);
    __m128i lo = _mm_cvttps_epi32(_mm_min_ps(_mm_max_ps(_mm_mul_ps(_mm_sub_ps(min, o), inv), zero), top));
    const __m128 up = _mm_min_ps(_mm_max_ps(_mm_mul_ps(_mm_sub_ps(max, o), inv), zero), top);
    __m128i hi = _mm_cvttps_epi32(up); // then up to the ceiling (values are in [0, 255])
    hi = _mm_sub_epi32(hi, _mm_castps_si128(_mm_cmplt_ps(_mm_cvtepi32_ps(hi), up)));
    const auto decode = [&](__m128i q) { return _mm_add_ps(o, _mm_mul_ps(_mm_cvtepi32_ps(q), step)); };
    // Each lane steps outward while its scalar loop would: a mask lane is -1 where it moves.
    for (;;) {
      const __m128i more =
          _mm_and_si128(_mm_castps_si128(_mm_cmpgt_ps(decode(lo), min)), _mm_cmpgt_epi32(lo, _mm_setzero_si128()));
      if (_mm_movemask_epi8(more) == 0) break;
      lo = _mm_add_epi32(lo, more);
    }
    for (;;) {
      const __m128i more =
          _mm_and_si128(_mm_castps_si128(_mm_cmplt_ps(decode(hi), max)), _mm_cmplt_epi32(hi, _mm_set1_epi32(255)));
      if (_mm_movemask_epi8(more) == 0) break;
      hi = _mm_sub_epi32(hi, more);
    }
    alignas(16) std::int32_t lo4[4], hi4[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(lo4), lo);
    _mm_store_si128(reinterpret_cast<__m128i*>(hi4), hi);
    for (int a = 0; a < 3; ++a) {
      w.lo[a][k] = static_cast<std::uint8_t>(lo4[a]);
      w.hi[a][k] = static_cast<std::uint8_t>(hi4[a]);
    }
    return true;
  }
#endif
  for (int a = 0; a < 3; ++a) code_slot_axis(w, a, k, exact.min[a], exact.max[a]);
  return true;
}

void Bvh::build(std::span<const gjk::Aabb> boxes, std::span<const std::uint32_t> ids,
                std::span<const ItemPayload> payloads) {
  nodes_.clear();
  wide_.clear();
  leaves_.clear();
  item_count_ = 0;
  prefetch_limit_ = 0;
  cells_.clear();
  refs_.clear();
  area_ = built_area_ = 0.0;
  refit_.clear();
  const auto n = static_cast<std::uint32_t>(boxes.size());
  if (n == 0) return;

  std::vector<Prim> prims = make_prims(boxes);
  const std::uint32_t small = plan_cells(cells_, boxes, prims);
  BinaryBuild binary{nodes_, cells_, prims, {}, {}};
  binary.start(small);
  binary.run();
  const std::vector<std::uint32_t> block_of = lay_out_items(prims, ids, payloads);
  item_count_ = n;
  std::vector<std::uint32_t> slot_of(n); // by leaf position: wide node * 4 + slot
  fold(block_of, binary.marked, slot_of);
  // What refit() needs of each input: its block and leaf slot (the rest waits for a refit).
  refs_.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) refs_[prims[i].index] = {block_of[i], slot_of[i], {}, ~0u};
  first_large_block_ = small < n ? block_of[small] : static_cast<std::uint32_t>(leaves_.size());
  built_area_ = area_;
}

// Lays the items out in leaf order, one block each: its header (box, id, word, payload size),
// then its payload. Returns each leaf position's block, which the wide tree's leaf slots hold.
std::vector<std::uint32_t> Bvh::lay_out_items(std::span<const Prim> prims, std::span<const std::uint32_t> ids,
                                              std::span<const ItemPayload> payloads) {
  const auto n = static_cast<std::uint32_t>(prims.size());
  std::size_t size = 0;
  for (std::uint32_t i = 0; i < n && i < payloads.size(); ++i) size += payloads[i].data.size();
  size += static_cast<std::size_t>(k_header) * n;
  if (size >= WideNode::k_empty) throw Error("Bvh: leaf storage of " + std::to_string(size) + " points is too large");
  leaves_.reserve(size);
  std::vector<std::uint32_t> block_of(n); // by leaf position
  for (std::uint32_t i = 0; i < n; ++i) {
    const Prim& p = prims[i];
    const ItemPayload payload = p.index < payloads.size() ? payloads[p.index] : ItemPayload{};
    block_of[i] = static_cast<std::uint32_t>(leaves_.size());
    leaves_.push_back(p.box.min);
    leaves_.push_back(p.box.max);
    leaves_.push_back({std::bit_cast<float>(ids[p.index]), std::bit_cast<float>(payload.word),
                       std::bit_cast<float>(static_cast<std::uint32_t>(payload.data.size()))});
    leaves_.insert(leaves_.end(), payload.data.begin(), payload.data.end());
  }
  return block_of;
}

// Folds the binary tree into the wide one, recording the cells' subtrees where they land.
void Bvh::fold(std::span<const std::uint32_t> block_of, std::span<const std::pair<std::uint32_t, std::uint32_t>> marked,
               std::span<std::uint32_t> slot_of) {
  std::vector<std::uint32_t> marks(nodes_.size(), k_no_mark);
  for (const auto& [node, mark] : marked) marks[node] = mark;
  wide_.reserve(nodes_.size() / 3 + 1);
  collapse(0, block_of, marks, slot_of);
  prefetch_limit_ = wide_.size() >= k_prefetch_min_nodes ? k_prefetch_subtree : 0;
}

std::vector<std::uint32_t> Bvh::items() const {
  std::vector<std::uint32_t> ids;
  ids.reserve(item_count_);
  std::uint32_t block = 0;
  for (std::uint32_t i = 0; i < item_count_; ++i) {
    const LeafItem item = leaf_item(block);
    ids.push_back(item.item);
    block += k_header + static_cast<std::uint32_t>(item.payload.size());
  }
  return ids;
}

void Bvh::record_entry(std::uint32_t mark, std::uint32_t binary, std::uint32_t ref) {
  SubtreeEntry& e = mark == k_large_mark ? cells_.large() : cells_.cell(mark);
  e = {nodes_[binary].bounds, ref, nodes_[binary].count};
}

// Folds binary nodes into a 4-wide node: starting from the two children, the inner child with
// the largest surface is replaced by its own two children until there are four.
std::uint32_t Bvh::collapse(std::uint32_t binary, std::span<const std::uint32_t> block_of,
                            std::span<const std::uint32_t> marks, std::span<std::uint32_t> slot_of) {
  const auto index = static_cast<std::uint32_t>(wide_.size());
  wide_.emplace_back();
  if (marks[binary] != k_no_mark) record_entry(marks[binary], binary, index); // a cell's subtree starts here
  std::uint32_t slots[4];
  int n = 0;
  if (nodes_[binary].count > 0) {
    slots[n++] = binary; // a single leaf at the root
  } else {
    slots[n++] = nodes_[binary].first;
    slots[n++] = nodes_[binary].first + 1;
    while (n < 4) {
      int widest = -1;
      for (int k = 0; k < n; ++k)
        if (nodes_[slots[k]].count == 0 && marks[slots[k]] == k_no_mark &&
            (widest < 0 || nodes_[slots[k]].bounds.half_area() > nodes_[slots[widest]].bounds.half_area()))
          widest = k;
      if (widest < 0) break;
      const std::uint32_t first = nodes_[slots[widest]].first;
      slots[widest] = first;
      slots[n++] = first + 1;
    }
  }
  gjk::Aabb exact[4];
  for (int k = 0; k < n; ++k) {
    exact[k] = nodes_[slots[k]].bounds;
    area_ += exact[k].half_area();
  }
  quantize(wide_[index], {exact, static_cast<std::size_t>(n)});
  wide_[index].used = static_cast<std::uint8_t>((1u << n) - 1u);
  for (int k = 0; k < 4; ++k) {
    WideNode& w = wide_[index];
    if (k >= n) {
      w.child[k] = WideNode::k_empty;
      w.count[k] = 0;
      continue;
    }
    const BvhNode& b = nodes_[slots[k]];
    w.count[k] = static_cast<std::uint8_t>(b.count);
    w.child[k] = b.count > 0 ? block_of[b.first] : b.first;
    if (b.count == 0) {
      const std::uint32_t child = collapse(slots[k], block_of, marks, slot_of); // may reallocate wide_: index again
      wide_[index].child[k] = child;
      wide_[index].set_subtree(k, static_cast<std::uint32_t>(wide_.size()) - child); // depth-first: all after child
      continue;
    }
    slot_of[b.first] = 4 * index + static_cast<std::uint32_t>(k);
    if (marks[slots[k]] != k_no_mark) {
      record_entry(marks[slots[k]], slots[k], wide_[index].child[k]); // a cell of one item: its leaf
    }
  }
  return index;
}

} // namespace glide::detail
