#include "placement.hpp"

#include <glm/mat3x3.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace glide::detail {

float place(const gjk::ConvexHull& hull, const gjk::Transform& t, std::vector<glm::vec3>& out, gjk::Aabb& bounds) {
  const auto vertices = hull.vertices();
  out.resize(vertices.size()); // a re-placed piece keeps its storage: moving pieces do this every frame
  const glm::mat3 r = glm::mat3_cast(t.rotation);
  glm::vec3* const to = out.data();
#if defined(__SSE2__)
  const __m128 c0 = _mm_setr_ps(r[0].x, r[0].y, r[0].z, 0.f);
  const __m128 c1 = _mm_setr_ps(r[1].x, r[1].y, r[1].z, 0.f);
  const __m128 c2 = _mm_setr_ps(r[2].x, r[2].y, r[2].z, 0.f);
  const __m128 shift = _mm_setr_ps(t.translation.x, t.translation.y, t.translation.z, 0.f);
  __m128 lo = _mm_set1_ps(std::numeric_limits<float>::infinity());
  __m128 hi = _mm_set1_ps(-std::numeric_limits<float>::infinity());
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const glm::vec3& v = vertices[i];
    const __m128 p =
        _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(c0, _mm_set1_ps(v.x)), _mm_mul_ps(c1, _mm_set1_ps(v.y))),
                              _mm_mul_ps(c2, _mm_set1_ps(v.z))),
                   shift);
    _mm_storel_pi(reinterpret_cast<__m64*>(&to[i].x), p);
    _mm_store_ss(&to[i].z, _mm_shuffle_ps(p, p, _MM_SHUFFLE(2, 2, 2, 2)));
    lo = _mm_min_ps(lo, p);
    hi = _mm_max_ps(hi, p);
  }
  const auto store = [](glm::vec3& to, __m128 v) {
    _mm_storel_pi(reinterpret_cast<__m64*>(&to.x), v);
    _mm_store_ss(&to.z, _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 2, 2, 2)));
  };
  store(bounds.min, lo);
  store(bounds.max, hi);
  // The largest |coordinate| (lane 3 is 0 in both). Finite poses and hulls give no NaN: an
  // overflow is an infinity, which the range check refuses.
  const __m128 sign = _mm_set1_ps(-0.f);
  __m128 far = _mm_max_ps(_mm_andnot_ps(sign, lo), _mm_andnot_ps(sign, hi));
  far = _mm_max_ps(far, _mm_shuffle_ps(far, far, _MM_SHUFFLE(1, 0, 3, 2)));
  far = _mm_max_ps(far, _mm_shuffle_ps(far, far, _MM_SHUFFLE(2, 3, 0, 1)));
  return _mm_cvtss_f32(far);
#else
  gjk::Aabb box;
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    const glm::vec3& v = vertices[i];
    // Per coordinate: a vec3 written whole would go through the stack, and its 8-byte reload
    // of two 4-byte stores stalls every vertex.
    for (int a = 0; a < 3; ++a) {
      const float c = r[0][a] * v.x + r[1][a] * v.y + r[2][a] * v.z + t.translation[a];
      to[i][a] = c;
      box.min[a] = std::min(box.min[a], c);
      box.max[a] = std::max(box.max[a], c);
    }
  }
  bounds = box;
  float far = 0.f;
  for (int a = 0; a < 3; ++a) far = std::max({far, std::abs(box.min[a]), std::abs(box.max[a])});
  return far;
#endif
}

namespace {

// atan(z) = z + z^3 P(z^2) within float's precision for |z| <= tan(pi/8) (the Cephes
// coefficients of an odd polynomial of degree 9).
float atan_poly(float z2) {
  // Two halves evaluated side by side (Estrin): half the dependent steps of Horner's scheme.
  const float z4 = z2 * z2;
  return (8.05374449538e-2f * z2 - 1.38776856032e-1f) * z4 + (1.99777106478e-1f * z2 - 3.33329491539e-1f);
}

constexpr float k_tan_eighth = 0.41421356f;        // tan(pi/8)
constexpr float k_tan_three_eighths = 2.41421356f; // tan(3 pi/8)

} // namespace

float atan2_positive(float y, float x) {
  float base = 0.f, z = 0.f; // reduced so that |z| <= tan(pi/8)
  if (y > k_tan_three_eighths * x) {
    base = 0.5f * std::numbers::pi_v<float>;
    z = -x / y;
  } else if (y > k_tan_eighth * x) {
    base = 0.25f * std::numbers::pi_v<float>;
    z = (y - x) / (y + x);
  } else {
    z = x > 0.f ? y / x : 0.f;
  }
  const float z2 = z * z;
  return base + (atan_poly(z2) * z2 * z + z);
}

glm::vec3 angular_velocity(const glm::quat& from, const glm::quat& to, float dt) {
  glm::quat turn = to * glm::conjugate(from);
  if (turn.w < 0.f) turn = -turn;
  const glm::vec3 axis(turn.x, turn.y, turn.z);
  // The angle is 2 atan2(|axis|, w); the rate is axis * angle / (|axis| dt).
  const float sine2 = glm::dot(axis, axis);
  if (!(sine2 > 0.f)) return glm::vec3(0.f);
  if (sine2 <= k_tan_eighth * k_tan_eighth * turn.w * turn.w) {
    // Up to a quarter turn a frame, the common case: with z = |axis| / w, angle / |axis| is
    // 2 (atan(z) / z) / w = 2 (1 + z^2 P(z^2)) / w, which needs no square root.
    const float z2 = sine2 / (turn.w * turn.w);
    const float scale = 2.f / (turn.w * dt); // divided alongside z2, not after the polynomial
    return axis * (scale * (1.f + atan_poly(z2) * z2));
  }
  const float sine = std::sqrt(sine2);
  return axis * (2.f * atan2_positive(sine, turn.w) / (sine * dt));
}

} // namespace glide::detail
