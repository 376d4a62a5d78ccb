#include <glide/gjk/detail/hull_planes.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

GLIDE_GJK_FP_EXACT_BEGIN

namespace glide::gjk::detail {

namespace {

/// Normals closer than this (per component) share a plane: the two triangles of a box's side.
constexpr float k_same_normal = 2e-7f;
/// The margin, as a fraction of the hull's radius: far above float rounding of points within
/// the hull (about 1e-7) and the planes' own (a few 1e-7), and the contract's overlap threshold.
constexpr float k_margin = 1e-5f;

} // namespace

HullPlanes make_hull_planes(std::span<const glm::vec3> vertices, std::span<const glm::dvec3> normals) {
  HullPlanes out;
  if (vertices.empty() || normals.empty()) return out;
  glm::dvec3 center{0.0};
  for (const glm::vec3& v : vertices) center += glm::dvec3(v);
  const glm::vec3 rounded_center(center / static_cast<double>(vertices.size()));
  out.center = load(rounded_center);
  const glm::dvec3 c(rounded_center);
  double radius = 0.0;
  for (const glm::vec3& v : vertices) radius = std::max(radius, glm::length(glm::dvec3(v) - c));

  std::vector<glm::vec3> found; // the planes' normals
  for (const glm::dvec3& normal : normals) {
    const glm::vec3 n(normal);
    const auto same = std::find_if(found.begin(), found.end(), [&](const glm::vec3& m) {
      const glm::vec3 d = glm::abs(m - n);
      return std::max(d.x, std::max(d.y, d.z)) <= k_same_normal;
    });
    if (same != found.end()) continue;
    found.push_back(n);
    if (found.size() > HullPlanes::k_max_planes) return {};
  }

  out.blocks.assign((found.size() + 3) / 4, PlaneBlock{{}, {}, {}, splat(std::numeric_limits<float>::max())});
  for (std::size_t i = 0; i < found.size(); ++i) {
    const glm::dvec3 n(found[i]);
    double offset = -std::numeric_limits<double>::infinity();
    for (const glm::vec3& v : vertices) offset = std::max(offset, glm::dot(n, glm::dvec3(v) - c));
    float rounded = static_cast<float>(offset);
    if (static_cast<double>(rounded) < offset) rounded = std::nextafter(rounded, std::numeric_limits<float>::max());
    PlaneBlock& block = out.blocks[i / 4];
    block.nx[i % 4] = found[i].x;
    block.ny[i % 4] = found[i].y;
    block.nz[i % 4] = found[i].z;
    block.offset[i % 4] = rounded;
  }
  out.margin = k_margin * static_cast<float>(radius);
  return out;
}

} // namespace glide::gjk::detail

GLIDE_GJK_FP_EXACT_END
