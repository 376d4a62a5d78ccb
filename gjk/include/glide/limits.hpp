#pragma once

#include <glm/ext/vector_double3.hpp>
#include <glm/vec3.hpp>

#include <charconv>
#include <cmath>
#include <cstddef>
#include <string>

namespace glide {

/// The valid input range of the whole library (docs/world.md, "Valid input"). Inside it every
/// query is answered to within a few float steps of the largest coordinate involved; outside
/// it the entry points (World, Controller, Heightfield, the loaders, the demo program) throw
/// glide::Error naming the field and the value instead of overflowing later.
namespace limits {

/// Largest |x|, |y| or |z| of anything placed in a world: piece vertices, heightfield samples,
/// character positions (m). Float steps there are 0.06 m.
inline constexpr float k_max_coordinate = 1e6f;
/// Largest |x|, |y| or |z| of a position given in double (World::origin, Controller's global
/// positions, case files) (m): doubles there still resolve 1e-7 m. What glide computes with is
/// such a position less the world's origin, held to k_max_coordinate.
inline constexpr double k_max_global_coordinate = 1e9;
/// Largest extent of one piece's bounding box along any axis (m): larger pieces lose the
/// precision their queries need.
inline constexpr float k_max_piece_size = 2e5f;
/// Longest motion of one Controller::move, |velocity * dt| (m).
inline constexpr float k_max_move_distance = 1e4f;
/// Fastest a point of a moving piece may go, over the whole valid range (m/s): the square of a
/// velocity stays a finite float, as lengths and dot products of it need. World::move_piece
/// refuses a dt so short that its move is faster.
inline constexpr double k_max_speed = 1e19;
/// Smallest heightfield cell size along x or z (m).
inline constexpr float k_min_cell_size = 1e-3f;
/// Deepest nesting of arrays and objects in a JSON file (levels).
inline constexpr int k_max_json_depth = 64;
/// Largest OBJ file the level loader reads (bytes).
inline constexpr std::size_t k_max_obj_bytes = std::size_t{64} << 20;
/// Most distinct vertices of one OBJ object (count): each becomes a convex piece.
inline constexpr std::size_t k_max_obj_object_vertices = 100000;

/// |v| <= k_max_coordinate; false for NaN and infinities.
inline bool in_range(float v) { return std::abs(v) <= k_max_coordinate; }
inline bool in_range(const glm::vec3& v) { return in_range(v.x) && in_range(v.y) && in_range(v.z); }
/// Whether every component is finite (no NaN, no infinity).
inline bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
/// |v| <= k_max_global_coordinate on every axis; false for NaN and infinities.
inline bool in_global_range(double v) { return std::abs(v) <= k_max_global_coordinate; }

/// One number for error messages, in the shortest form that reads back exactly ("3e+38").
inline std::string number_text(float v) {
  char buffer[32];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
  return std::string(buffer, r.ptr);
}
inline std::string number_text(double v) {
  char buffer[32];
  const auto r = std::to_chars(buffer, buffer + sizeof buffer, v);
  return std::string(buffer, r.ptr);
}
/// "(x, y, z)" for error messages, of a float or a double vector.
template <class T>
std::string vec_text(const glm::vec<3, T>& v) {
  std::string out = "(";
  out += number_text(v.x);
  out += ", ";
  out += number_text(v.y);
  out += ", ";
  out += number_text(v.z);
  out += ')';
  return out;
}

} // namespace limits

} // namespace glide
