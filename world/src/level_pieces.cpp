#include "level_pieces.hpp"

#include <glide/error.hpp>
#include <glide/limits.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>

namespace glide::detail {

std::string read_level_file(const std::filesystem::path& path, const std::string& file, const std::string& kind) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) throw Error(file + ": cannot open file");
  if (!std::filesystem::is_regular_file(status)) throw Error(file + ": cannot open file: not a regular file");
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) throw Error(file + ": cannot open file: " + error.message());
  if (size > limits::k_max_obj_bytes)
    throw Error(file + ": " + std::to_string(size) + " bytes exceed the largest " + kind + " file of " +
                std::to_string(limits::k_max_obj_bytes) + " bytes");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(file + ": cannot open file");
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  if (in.bad() || in.gcount() != static_cast<std::streamsize>(size)) throw Error(file + ": read error");
  return text;
}

void check_level_options(const std::string& function, float scale, float convexity_tolerance) {
  if (!(scale > 0.f) || !std::isfinite(scale))
    throw Error(function + ": options.scale must be finite and > 0, got " + std::to_string(scale));
  if (!(convexity_tolerance >= 0.f) || !std::isfinite(convexity_tolerance))
    throw Error(function + ": options.convexity_tolerance must be finite and >= 0, got " +
                std::to_string(convexity_tolerance));
}

gjk::ConvexHull piece_hull(std::span<const glm::vec3> points, const std::string& where, const std::string& unit) {
  if (points.size() > limits::k_max_obj_object_vertices)
    throw Error(where + ": more than " + std::to_string(limits::k_max_obj_object_vertices) + " vertices in one " +
                unit.substr(0, unit.size() - 1) + "; split it into smaller convex " + unit);
  std::optional<gjk::ConvexHull> hull;
  try {
    hull.emplace(points);
  } catch (const Error& e) {
    throw Error(where + ": " + e.what());
  }
  return std::move(*hull);
}

// The hull's support mapping gives the farthest point either way, so the check costs one
// support call per face direction instead of a pass over every point.
Convexity convexity(const PieceFaces& faces, std::span<const glm::vec3> positions, const gjk::ConvexHull& hull) {
  Convexity worst;
  std::size_t offset = 0;
  for (std::size_t f = 0; f < faces.face_sizes.size(); ++f) {
    const std::size_t n = faces.face_sizes[f];
    const auto at = [&](std::size_t k) -> const glm::vec3& { return positions[faces.indices[offset + k]]; };
    glm::vec3 normal{0.f}, centroid{0.f};
    for (std::size_t k = 0; k < n; ++k) {
      const glm::vec3& a = at(k);
      const glm::vec3& b = at((k + 1) % n);
      normal += glm::vec3{(a.y - b.y) * (a.z + b.z), (a.z - b.z) * (a.x + b.x), (a.x - b.x) * (a.y + b.y)}; // Newell
      centroid += a;
    }
    centroid /= static_cast<float>(n);
    const float length = glm::length(normal);
    if (length > 0.f && std::isfinite(length)) {
      normal /= length;
      float flatness = 0.f; // a warped polygon is no hull face either
      for (std::size_t k = 0; k < n; ++k) flatness = std::max(flatness, std::abs(glm::dot(normal, at(k) - centroid)));
      const float above = glm::dot(normal, hull.support(normal) - centroid);
      const float below = glm::dot(normal, centroid - hull.support(-normal));
      const float error = std::max(std::min(above, below), flatness);
      if (error > worst.error) worst = {error, static_cast<int>(f)};
    }
    offset += n;
  }
  return worst;
}

bool non_convex(const Convexity& c, const std::string& where, const std::string& face, NonConvexPolicy policy,
                float tolerance, std::vector<std::string>& warnings) {
  if (!(c.error > tolerance)) return false;
  const std::string what = " is not convex: " + face + " is " + format_metres(c.error) +
                           " from a face of its hull (tolerance " + format_metres(tolerance) + ")";
  if (policy == NonConvexPolicy::error) throw Error(where + what);
  warnings.push_back(where + what + "; replaced by its convex hull");
  return true;
}

std::string format_metres(float v) {
  std::ostringstream s;
  s.precision(4);
  s << v << " m";
  return s.str();
}

void check_range(const gjk::ConvexHull& hull, const gjk::Transform& transform, const std::string& where) {
  const glm::vec3 size = hull.bounds_max() - hull.bounds_min();
  if (!(std::max({size.x, size.y, size.z}) <= limits::k_max_piece_size))
    throw Error(where + ": size " + limits::vec_text(size) + " exceeds the largest piece of " +
                limits::number_text(limits::k_max_piece_size) + " m along an axis");
  gjk::Aabb bounds;
  for (const glm::vec3& v : hull.vertices()) bounds = bounds.merged(transform.apply(v));
  if (!limits::in_range(bounds.min) || !limits::in_range(bounds.max))
    throw Error(where + ": spans " + limits::vec_text(bounds.min) + " to " + limits::vec_text(bounds.max) +
                " (m), beyond the valid coordinates (|v| <= " + limits::number_text(limits::k_max_coordinate) + " m)");
}

std::vector<std::string> lines_of(const std::string& messages) {
  std::vector<std::string> out;
  std::istringstream in(messages);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

} // namespace glide::detail
