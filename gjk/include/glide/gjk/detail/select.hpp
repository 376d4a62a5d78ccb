#pragma once

// Minimum and maximum as select instructions. GCC often compiles `a < b ? a : b` on floats
// into a branch, and inside GJK such choices (which end of a segment, which side of an
// edge) depend on the data and mispredict; minss and maxss have no branch to predict.

#include <glide/gjk/detail/fp_exact.hpp>
#include <glm/vec3.hpp>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

GLIDE_GJK_FP_EXACT_BEGIN

namespace glide::gjk::detail {

// One instruction each: through the intrinsics, each operand is first copied into a zeroed
// register (_mm_set_ss), three instructions where one does.
#if defined(__SSE2__) && defined(__AVX__)
#define GLIDE_GJK_MINMAX_SS(op, a, b) __asm__("v" op " %2, %1, %0" : "=x"(a) : "x"(a), "x"(b))
#elif defined(__SSE2__)
#define GLIDE_GJK_MINMAX_SS(op, a, b) __asm__(op " %1, %0" : "+x"(a) : "x"(b))
#endif

/// a < b ? a : b (b when either is NaN).
inline float min_of(float a, float b) {
#if defined(__SSE2__)
  GLIDE_GJK_MINMAX_SS("minss", a, b);
  return a;
#else
  return a < b ? a : b;
#endif
}

/// a > b ? a : b (b when either is NaN).
inline float max_of(float a, float b) {
#if defined(__SSE2__)
  GLIDE_GJK_MINMAX_SS("maxss", a, b);
  return a;
#else
  return a > b ? a : b;
#endif
}
#undef GLIDE_GJK_MINMAX_SS

/// glm::min(x, y) per component, as select instructions: the same bits, NaN included.
inline glm::vec3 min_of(const glm::vec3& x, const glm::vec3& y) {
  return {min_of(y.x, x.x), min_of(y.y, x.y), min_of(y.z, x.z)};
}

/// glm::max(x, y) per component, as select instructions: the same bits, NaN included.
inline glm::vec3 max_of(const glm::vec3& x, const glm::vec3& y) {
  return {max_of(y.x, x.x), max_of(y.y, x.y), max_of(y.z, x.z)};
}

/// t clamped to [0, 1]; NaN gives 0.
inline float clamp01(float t) { return min_of(max_of(t, 0.f), 1.f); }

} // namespace glide::gjk::detail

GLIDE_GJK_FP_EXACT_END
