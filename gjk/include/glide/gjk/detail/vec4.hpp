#pragma once

// A 3D vector held in one 128-bit register (GCC/Clang vector extension: x, y, z and a zero
// lane) for GJK's sub-algorithm. glm's scalar vec3 code spends most of its instructions
// moving components between registers; here a cross product is three shuffles, two
// multiplies and a subtraction. Every operation rounds exactly as glm's: the same products,
// summed in the same order, so the results are bit-identical.

#include <glide/gjk/detail/fp_exact.hpp>
#include <glm/ext/vector_double3.hpp>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <cmath>

#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

GLIDE_GJK_FP_EXACT_BEGIN

namespace glide::gjk::detail {

using F4 = float __attribute__((vector_size(16)));
using I4 = std::int32_t __attribute__((vector_size(16))); ///< lane masks of F4 comparisons

#if defined(__SSE2__)
/// v's lanes in the order `imm` (as _MM_SHUFFLE) by pshufd, which writes a register of its
/// own: shufps overwrites its input, so the compiler copies any input still needed first.
/// Data movement only, so the same bits.
template <int imm>
inline __m128 permute(__m128 v) {
  return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(v), imm));
}
#endif

inline F4 load(const glm::vec3& v) { return F4{v.x, v.y, v.z, 0.f}; }
inline glm::vec3 to_vec3(F4 v) { return {v[0], v[1], v[2]}; }
inline F4 splat(float s) { return F4{s, s, s, s}; }

/// (y, z, x): with it, a × b = yzx(a·yzx(b) − yzx(a)·b) lane by lane.
inline F4 yzx(F4 v) {
#if defined(__SSE2__)
  return reinterpret_cast<F4>(permute<_MM_SHUFFLE(3, 0, 2, 1)>(reinterpret_cast<__m128>(v)));
#else
  return __builtin_shufflevector(v, v, 1, 2, 0, 3);
#endif
}
inline F4 cross(F4 a, F4 b) { return yzx(a * yzx(b) - yzx(a) * b); }

/// (a.x b.x + a.y b.y) + a.z b.z, glm's order. With SSE2, y and z come to lane 0 by permute:
/// the compiler's shufps and unpckhps copied the products twice first (seven instructions
/// per product, now five).
inline float dot(F4 a, F4 b) {
  const F4 m = a * b;
#if defined(__SSE2__)
  const __m128 p = reinterpret_cast<__m128>(m);
  return _mm_cvtss_f32(
      _mm_add_ss(_mm_add_ss(p, permute<_MM_SHUFFLE(1, 1, 1, 1)>(p)), permute<_MM_SHUFFLE(2, 2, 2, 2)>(p)));
#else
  return (m[0] + m[1]) + m[2];
#endif
}

/// 1 when x, y and z are all equal, else 0: arithmetic on the lane mask, no branch.
inline unsigned equal_bit(F4 a, F4 b) {
  const I4 e = a == b;
#if defined(__SSE2__)
  return (static_cast<unsigned>(_mm_movemask_ps(reinterpret_cast<__m128>(e)) | 8) + 1u) >> 4;
#else
  return static_cast<unsigned>(e[0] & e[1] & e[2]) & 1u;
#endif
}

/// v when `keep`, else zero, by masking rather than branching.
inline F4 keep_if(bool keep, F4 v) {
  const I4 mask = I4{} - static_cast<std::int32_t>(keep);
  return reinterpret_cast<F4>(reinterpret_cast<I4>(v) & mask);
}

/// glm::normalize, rounded alike (v times 1 / sqrt(v·v)), but defined under fp_exact.hpp's
/// guard: GCC does not inline glm's into guarded code compiled with other flags, and calls a
/// copy that contracts.
inline glm::vec3 normalized(const glm::vec3& v) { return v * (1.f / std::sqrt(glm::dot(v, v))); }
inline glm::dvec3 normalized(const glm::dvec3& v) { return v * (1.0 / std::sqrt(glm::dot(v, v))); }

/// c ? x : y by masking, with no branch to mispredict: y with the bits where x differs
/// flipped under the mask (one mask; x & mask | y & ~mask made two).
inline F4 select(bool c, F4 x, F4 y) {
  const I4 mask = I4{} - static_cast<std::int32_t>(c);
  const I4 yi = reinterpret_cast<I4>(y);
  return reinterpret_cast<F4>(yi ^ ((reinterpret_cast<I4>(x) ^ yi) & mask));
}

} // namespace glide::gjk::detail

GLIDE_GJK_FP_EXACT_END
