#pragma once

// Support of a vertex set by scanning every vertex. Inline, so that a GJK loop over a small
// hull keeps the whole scan in registers (an out-of-line call was about a fifth of an
// 8-vertex distance query). The coordinates are stored in blocks of four vertices, x then y
// then z (12 floats per block), so one SSE2 step loads three registers from one cache line.

#include <glide/gjk/detail/fp_exact.hpp>
#include <glide/gjk/detail/vec4.hpp>
#include <glm/vec3.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

GLIDE_GJK_FP_EXACT_BEGIN

namespace glide::gjk::detail {

/// Cells of the 3 × 3 × 3 grid of directions with components in {-1, 0, 1}: cell
/// (x + 1) * 9 + (y + 1) * 3 + (z + 1); cell 13 is the zero direction.
inline constexpr std::uint32_t k_cube_cells = 27;

/// The direction of a cell (not normalised; zero for cell 13).
inline glm::vec3 cube_cell_direction(std::uint32_t cell) {
  return {static_cast<float>(cell / 9) - 1.f, static_cast<float>(cell / 3 % 3) - 1.f,
          static_cast<float>(cell % 3) - 1.f};
}

/// The nearest to `dir` of the 26 directions toward a cube's faces, edges and corners, as the
/// cell of its components (never 13; a zero `dir` gives 0). The nearest keeps the largest one, two or three of dir's
/// components, whichever normalised sum is largest. Hill climbs start at the hull's extreme along it: at most about 35°
/// off the query, against 55° for the dominant axis alone, so fewer steps. Arithmetic, not branches: query directions
/// are random to the branch predictor.
inline std::uint32_t nearest_cube_cell(const glm::vec3& dir) {
  const float ax = std::abs(dir.x), ay = std::abs(dir.y), az = std::abs(dir.z);
  const float hi = std::max(ax, std::max(ay, az)), lo = std::min(ax, std::min(ay, az));
  const float mid = std::max(std::min(ax, ay), std::min(std::max(ax, ay), az)); // the median, exactly
  const float axis = hi, edge = (hi + mid) * 0.70710678f, corner = (hi + mid + lo) * 0.57735027f;
  // Components kept: those at least `cut` (ties keep both, which are equally near).
  const float cut_edge = edge >= axis ? mid : hi;
  const float cut = corner >= std::max(edge, axis) ? lo : cut_edge;
  const auto cell = [cut](float c) {
    return 1 + static_cast<int>(std::abs(c) >= cut) * (2 * static_cast<int>(c > 0.f) - 1);
  };
  return static_cast<std::uint32_t>(cell(dir.x) * 9 + cell(dir.y) * 3 + cell(dir.z));
}

/// Floats per block of four vertices in the scan layout.
inline constexpr std::uint32_t k_scan_block = 12;

/// Dot product of `dir` with vertex i of the block layout, rounded as the scan rounds it
/// (dir.x * x + dir.y * y, then + dir.z * z; builds use -ffp-contract=off).
inline float scan_dot(const float* blocks, std::uint32_t i, const glm::vec3& dir) {
  const float* b = blocks + (i >> 2) * k_scan_block + (i & 3u);
  return dir.x * b[0] + dir.y * b[4] + dir.z * b[8];
}

#if defined(__SSE2__)
/// The first maximum of at most eight products (lanes of `low`: vertices 0-3, of `high`:
/// 4-7), found from lane masks rather than by carrying indices through the reduction: a
/// small hull's support is on GJK's critical path, and this is about a dozen cycles shorter.
inline std::uint32_t scan_two_blocks(__m128 low, __m128 high, std::uint32_t n) {
  const unsigned upper = static_cast<unsigned>(_mm_movemask_ps(_mm_cmpgt_ps(high, low))); // lanes where 4-7 win
  const __m128 best = _mm_max_ps(high, low);                                              // high > low ? high : low
  __m128 top = _mm_max_ps(best, permute<_MM_SHUFFLE(2, 3, 0, 1)>(best));
  top = _mm_max_ps(top, permute<_MM_SHUFFLE(1, 0, 3, 2)>(top));
  const unsigned tied = static_cast<unsigned>(_mm_movemask_ps(_mm_cmpeq_ps(best, top)));
  if (tied == 0u) return 0u; // NaN products
  const unsigned tied_low = tied & ~upper;
  const std::uint32_t i = tied_low != 0u ? static_cast<std::uint32_t>(__builtin_ctz(tied_low))
                                         : 4u + static_cast<std::uint32_t>(__builtin_ctz(tied));
  return i < n ? i : 0u; // a padding copy of vertex 0 tied
}

/// The first maximum of at most sixteen products (four blocks of four vertices), the same way:
/// the largest product by a tree of maxima, then the first lane equal to it from one mask of
/// the 16 comparisons. Its chain is three maxima deep, against four steps of the indexed
/// reduction's loop-carried chain and its final pass over the indices.
inline std::uint32_t scan_four_blocks(__m128 d0, __m128 d1, __m128 d2, __m128 d3, std::uint32_t n) {
  const __m128 best = _mm_max_ps(_mm_max_ps(d0, d1), _mm_max_ps(d2, d3));
  __m128 top = _mm_max_ps(best, permute<_MM_SHUFFLE(2, 3, 0, 1)>(best));
  top = _mm_max_ps(top, permute<_MM_SHUFFLE(1, 0, 3, 2)>(top));
  const unsigned tied = static_cast<unsigned>(_mm_movemask_ps(_mm_cmpeq_ps(d0, top))) |
                        static_cast<unsigned>(_mm_movemask_ps(_mm_cmpeq_ps(d1, top))) << 4 |
                        static_cast<unsigned>(_mm_movemask_ps(_mm_cmpeq_ps(d2, top))) << 8 |
                        static_cast<unsigned>(_mm_movemask_ps(_mm_cmpeq_ps(d3, top))) << 12;
  if (tied == 0u) return 0u; // NaN products
  const auto i = static_cast<std::uint32_t>(__builtin_ctz(tied));
  return i < n ? i : 0u; // a padding copy of vertex 0 tied
}
#endif

#if defined(__SSE2__)
/// scan_support below, the direction given as its components splat across lanes.
[[gnu::always_inline]] inline std::uint32_t scan_support_splat(const float* blocks, std::uint32_t n, __m128 dx,
                                                               __m128 dy, __m128 dz) {
  const auto dots = [&](const float* b) {
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(dx, _mm_loadu_ps(b)), _mm_mul_ps(dy, _mm_loadu_ps(b + 4))),
                      _mm_mul_ps(dz, _mm_loadu_ps(b + 8)));
  };
  if (n <= 8) return scan_two_blocks(dots(blocks), n > 4 ? dots(blocks + k_scan_block) : dots(blocks), n);
  if (n <= 16) { // a missing fourth block repeats the first, whose copies only tie with earlier lanes
    const float* b3 = n > 12 ? blocks + 3 * k_scan_block : blocks;
    return scan_four_blocks(dots(blocks), dots(blocks + k_scan_block), dots(blocks + 2 * k_scan_block), dots(b3), n);
  }
  // Per lane: the best product and its vertex index (as a float: exact below 2^24 vertices,
  // which the hull enforces), kept on strict improvement so the first maximum wins.
  __m128 best = dots(blocks);
  __m128 index = _mm_setr_ps(0.f, 1.f, 2.f, 3.f);
  __m128 best_index = index;
  const __m128 four = _mm_set1_ps(4.f);
  const float* end = blocks + ((n + 3u) >> 2) * k_scan_block;
  for (const float* b = blocks + k_scan_block; b < end; b += k_scan_block) {
    index = _mm_add_ps(index, four);
    const __m128 d = dots(b);
    const __m128 better = _mm_cmpgt_ps(d, best);
    best = _mm_max_ps(d, best); // better ? d : best, in one step of the loop-carried chain
    // better ? index : best_index, in two steps: index only grows, and the indices are >= 0.
    best_index = _mm_max_ps(best_index, _mm_and_ps(better, index));
  }
  // The largest product over the lanes, then the smallest index among the lanes holding it.
  __m128 top = _mm_max_ps(best, permute<_MM_SHUFFLE(2, 3, 0, 1)>(best));
  top = _mm_max_ps(top, permute<_MM_SHUFFLE(1, 0, 3, 2)>(top));
  const __m128 tied = _mm_cmpeq_ps(best, top);
  __m128 pick = _mm_or_ps(_mm_and_ps(tied, best_index), _mm_andnot_ps(tied, _mm_set1_ps(16777216.f)));
  pick = _mm_min_ps(pick, permute<_MM_SHUFFLE(2, 3, 0, 1)>(pick));
  pick = _mm_min_ps(pick, permute<_MM_SHUFFLE(1, 0, 3, 2)>(pick));
  const auto i = static_cast<std::uint32_t>(_mm_cvttss_si32(pick));
  return i < n ? i : 0u; // a padding copy of vertex 0 tied, or NaN products
}
#endif

/// Index of the first of the n vertices with the largest dot product with `dir`. The last
/// block is padded with copies of vertex 0, which only tie with it. A NaN direction gives 0.
[[gnu::always_inline]] inline std::uint32_t scan_support(const float* blocks, std::uint32_t n, const glm::vec3& dir) {
#if defined(__SSE2__)
  return scan_support_splat(blocks, n, _mm_set1_ps(dir.x), _mm_set1_ps(dir.y), _mm_set1_ps(dir.z));
#else
  std::uint32_t pick = 0;
  float pick_dot = scan_dot(blocks, 0, dir);
  for (std::uint32_t i = 1; i < n; ++i) {
    const float d = scan_dot(blocks, i, dir);
    if (d > pick_dot) {
      pick_dot = d;
      pick = i;
    }
  }
  return pick;
#endif
}

/// scan_support for a direction in GJK's vector form: each component is splat by one shuffle
/// of the register, where taking it out to a glm::vec3 and splatting it back took two.
[[gnu::always_inline]] inline std::uint32_t scan_support(const float* blocks, std::uint32_t n, F4 dir) {
#if defined(__SSE2__)
  const __m128 d = reinterpret_cast<__m128>(dir);
  return scan_support_splat(blocks, n, permute<_MM_SHUFFLE(0, 0, 0, 0)>(d), permute<_MM_SHUFFLE(1, 1, 1, 1)>(d),
                            permute<_MM_SHUFFLE(2, 2, 2, 2)>(d));
#else
  return scan_support(blocks, n, to_vec3(dir));
#endif
}

} // namespace glide::gjk::detail

GLIDE_GJK_FP_EXACT_END
