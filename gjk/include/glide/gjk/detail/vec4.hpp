#pragma once

// A 3D vector held in one 128-bit register (GCC/Clang vector extension: x, y, z and a zero
// lane) for GJK's sub-algorithm. glm's scalar vec3 code spends most of its instructions
// moving components between registers; here a cross product is three shuffles, two
// multiplies and a subtraction. Every operation rounds exactly as glm's: the same products,
// summed in the same order, so the results are bit-identical.

#include <glm/vec3.hpp>

namespace glide::gjk::detail {

using F4 = float __attribute__((vector_size(16)));

inline F4 load(const glm::vec3& v) { return F4{v.x, v.y, v.z, 0.f}; }
inline glm::vec3 to_vec3(F4 v) { return {v[0], v[1], v[2]}; }
inline F4 splat(float s) { return F4{s, s, s, s}; }

/// (y, z, x): with it, a × b = yzx(a·yzx(b) − yzx(a)·b) lane by lane.
inline F4 yzx(F4 v) { return __builtin_shufflevector(v, v, 1, 2, 0, 3); }
inline F4 cross(F4 a, F4 b) { return yzx(a * yzx(b) - yzx(a) * b); }

/// (a.x b.x + a.y b.y) + a.z b.z, glm's order.
inline float dot(F4 a, F4 b) {
  const F4 m = a * b;
  return (m[0] + m[1]) + m[2];
}

} // namespace glide::gjk::detail
