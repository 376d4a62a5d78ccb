#include <glide/gjk/detail/hull_planes.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

GLIDE_GJK_FP_EXACT_BEGIN

namespace glide::gjk::detail {

namespace {

/// Normals closer than this (per component) share a plane: the two triangles of a box's side.
constexpr float k_same_normal = 2e-7f;
/// A plane whose own triangles' vertices lie further below it than this fraction of the hull's
/// radius (a face bent by merged, nearly coplanar points) does not answer over-face queries.
constexpr double k_exact_face = 2e-7;

/// Rounding of a squared radius in float, relative, with room to spare.
constexpr double k_square_rounding = 1e-6;
/// Hulls whose radius lies outside these keep no balls: the squares in their test would leave
/// float's normal range (m).
constexpr double k_ball_min_radius = 1e-15, k_ball_max_radius = 1e15;

/// The lowest of triangle k's own vertices along `normal`, relative to `c` (m): the triangle's
/// plane through its vertices, for the balls and the planes' exact faces alike.
double lowest_corner(std::span<const glm::vec3> vertices, std::span<const std::uint32_t> corners, std::size_t k,
                     const glm::dvec3& normal, const glm::dvec3& c) {
  double low = std::numeric_limits<double>::infinity();
  for (std::size_t j = 3 * k; j < 3 * k + 3; ++j)
    low = std::min(low, glm::dot(normal, glm::dvec3(vertices[corners[j]]) - c));
  return low;
}

/// The balls about centre `c`. Inside: a point behind every triangle's own plane (through its
/// vertices) is enclosed by the surface (each triangle subtends a positive solid angle from
/// it), so lies in the hull, whatever rounding bent the surface; the nearest such plane is
/// the inner ball's radius away.
void set_balls(HullPlanes& out, std::span<const glm::vec3> vertices, const glm::dvec3& c, double radius,
               std::span<const glm::dvec3> normals, std::span<const std::uint32_t> corners) {
  if (!(radius > k_ball_min_radius && radius < k_ball_max_radius)) return;
  double inner = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < normals.size(); ++k)
    inner = std::min(inner, lowest_corner(vertices, corners, k, normals[k], c));
  const double margin = static_cast<double>(out.margin), shrunk = inner - margin, grown = radius + margin;
  if (shrunk > 0.0) out.inner2 = static_cast<float>(shrunk * shrunk * (1.0 - k_square_rounding));
  out.outer2 = static_cast<float>(grown * grown * (1.0 + k_square_rounding));
  out.near2 = static_cast<float>(64.0 * radius * radius);
}

} // namespace

HullPlanes make_hull_planes(std::span<const glm::vec3> vertices, const glm::dvec3& centroid,
                            std::span<const glm::dvec3> normals, std::span<const std::uint32_t> corners) {
  HullPlanes out;
  if (vertices.empty() || normals.empty()) return out;
  const glm::vec3 rounded_center(centroid);
  out.center = load(rounded_center);
  const glm::dvec3 c(rounded_center);
  double radius = 0.0;
  for (const glm::vec3& v : vertices) radius = std::max(radius, glm::length(glm::dvec3(v) - c));
  out.margin = HullPlanes::k_margin * static_cast<float>(radius);
  set_balls(out, vertices, c, radius, normals, corners);

  // Hulls with planes have at most 2 * 64 - 4 vertices (each vertex on three or more planes), so
  // a byte indexes theirs.
  if (vertices.size() > 255) return out; // the balls alone
  struct Plane {
    glm::vec3 normal;
    double lowest_own;                  // its triangles' lowest vertex along the normal
    std::array<std::uint8_t, 4> corner; // its first triangle's vertices
  };
  std::vector<Plane> found;
  for (std::size_t k = 0; k < normals.size(); ++k) {
    const glm::vec3 n(normals[k]);
    const double low = lowest_corner(vertices, corners, k, glm::dvec3(n), c);
    const auto same = std::find_if(found.begin(), found.end(), [&](const Plane& p) {
      const glm::vec3 d = glm::abs(p.normal - n);
      return std::max(d.x, std::max(d.y, d.z)) <= k_same_normal;
    });
    if (same != found.end()) {
      same->lowest_own = std::min(same->lowest_own, low);
      continue;
    }
    std::array<std::uint8_t, 4> corner{};
    for (std::size_t j = 0; j < 3; ++j) corner[j] = static_cast<std::uint8_t>(corners[3 * k + j]);
    found.push_back({n, low, corner});
    if (found.size() > HullPlanes::k_max_planes) return out; // the balls alone
  }

  out.blocks.assign((found.size() + 3) / 4, PlaneBlock{{}, {}, {}, splat(std::numeric_limits<float>::max())});
  out.corners.resize(found.size());
  for (std::size_t i = 0; i < found.size(); ++i) {
    const glm::dvec3 n(found[i].normal);
    double offset = -std::numeric_limits<double>::infinity();
    for (const glm::vec3& v : vertices) offset = std::max(offset, glm::dot(n, glm::dvec3(v) - c));
    float rounded = static_cast<float>(offset);
    if (static_cast<double>(rounded) < offset) rounded = std::nextafter(rounded, std::numeric_limits<float>::max());
    PlaneBlock& block = out.blocks[i / 4];
    block.nx[i % 4] = found[i].normal.x;
    block.ny[i % 4] = found[i].normal.y;
    block.nz[i % 4] = found[i].normal.z;
    block.offset[i % 4] = rounded;
    out.corners[i] = found[i].corner;
    if (offset - found[i].lowest_own <= k_exact_face * radius) out.exact_faces |= std::uint64_t{1} << i;
  }
  return out;
}

} // namespace glide::gjk::detail

GLIDE_GJK_FP_EXACT_END
