#pragma once

// Tolerance checks for the glide test suites: CHECK_APPROX(actual, expected, tolerance) for
// float, glm::vec3 (Euclidean distance) and glm::quat (rotation angle, q and -q equal).

#include <doctest/doctest.h>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include <cmath>
#include <sstream>
#include <string>

namespace doctest {
template <>
struct StringMaker<glm::vec3> {
  static String convert(const glm::vec3& v) {
    std::ostringstream s;
    s.precision(9);
    s << "(" << v.x << ", " << v.y << ", " << v.z << ")";
    return String(s.str().c_str());
  }
};
template <>
struct StringMaker<glm::quat> {
  static String convert(const glm::quat& q) {
    std::ostringstream s;
    s.precision(9);
    s << "quat(w " << q.w << ", " << q.x << ", " << q.y << ", " << q.z << ")";
    return String(s.str().c_str());
  }
};
} // namespace doctest

namespace glide::test {

inline float approx_error(float actual, float expected) { return std::abs(actual - expected); }
inline float approx_error(const glm::vec3& actual, const glm::vec3& expected) { return glm::length(actual - expected); }
/// Angle (radians) of the rotation between the two; q and -q are the same rotation.
inline float approx_error(const glm::quat& actual, const glm::quat& expected) {
  const float c = std::min(1.f, std::abs(glm::dot(actual, expected)));
  return 2.f * std::acos(c);
}

struct ApproxResult {
  bool ok = false;
  std::string message;
};

/// Compares `actual` (converted to the expected value's type) with `expected`; NaN never passes.
template <class A, class E>
ApproxResult approx(const A& actual_in, const E& expected, float tolerance) {
  const E actual = static_cast<E>(actual_in);
  const float error = approx_error(actual, expected);
  std::ostringstream s;
  s.precision(9);
  s << "expected " << doctest::StringMaker<E>::convert(expected).c_str() << " got "
    << doctest::StringMaker<E>::convert(actual).c_str() << " (error " << error << ", tol " << tolerance << ")";
  return {error <= tolerance, s.str()};
}

} // namespace glide::test

// Variadic so braced arguments with commas need no extra parentheses.
#define GLIDE_APPROX_IMPL(macro, ...)                                                                                  \
  do {                                                                                                                 \
    const ::glide::test::ApproxResult glide_approx_result = ::glide::test::approx(__VA_ARGS__);                        \
    macro(glide_approx_result.ok, glide_approx_result.message);                                                        \
  } while (false)

#define CHECK_APPROX(...) GLIDE_APPROX_IMPL(CHECK_MESSAGE, __VA_ARGS__)
#define REQUIRE_APPROX(...) GLIDE_APPROX_IMPL(REQUIRE_MESSAGE, __VA_ARGS__)
