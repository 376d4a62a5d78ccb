#pragma once

// Private: the 3D part of quickhull (see quickhull.cpp), on points already relative to the
// cloud's centroid.

#include <glm/vec3.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace glide::gjk::detail {

struct Triangle3 {
  std::array<std::uint32_t, 3> v{}; ///< point indices, counter-clockwise seen from outside
  glm::dvec3 normal{0.0};           ///< outward unit normal
};

/// Incremental quickhull over `p[ids]` from a tetrahedron whose fourth point is more than eps
/// off the plane of the first three. A point joins only when more than eps above a face.
class Builder3 {
public:
  Builder3(const std::vector<glm::dvec3>& p, double eps);
  std::vector<Triangle3> build(std::span<const std::uint32_t> ids, std::array<std::uint32_t, 4> simplex);

private:
  struct Face {
    std::array<std::uint32_t, 3> v{};
    std::array<std::uint32_t, 3> adj{}; ///< adj[e]: face across the edge v[e] -> v[(e + 1) % 3]
    glm::dvec3 normal{0.0};
    double offset = 0.0;
    std::vector<std::uint32_t> outside; ///< points more than eps above this face, not yet added
    bool alive = true;
  };
  struct HorizonEdge {
    std::uint32_t a, b, outer; ///< edge a -> b of a visible face; `outer` is the hidden face across it
  };

  double distance(const Face& f, std::uint32_t i) const;
  std::uint32_t add_face(std::uint32_t a, std::uint32_t b, std::uint32_t c, const glm::dvec3& fallback_normal);
  /// Puts `point` in the outside set of the face it is farthest above, if more than eps.
  bool assign(std::uint32_t point, std::uint32_t first_face, std::uint32_t end_face);
  std::uint32_t eye_of(const Face& f) const;
  bool add_point(std::uint32_t seed, std::uint32_t eye);
  bool find_horizon(std::uint32_t seed, std::uint32_t eye);

  const std::vector<glm::dvec3>& p_;
  double eps_;
  std::vector<Face> faces_;
  std::vector<std::uint32_t> face_mark_, vertex_mark_, vertex_edge_;
  std::uint32_t stamp_ = 0;
  std::vector<std::uint32_t> visible_, ordered_;
  std::vector<std::uint32_t> work_; ///< faces that got outside points since last looked at
  std::vector<HorizonEdge> horizon_;
};

/// The vertices of `triangles` that are extreme: v stays unless, along the mean of its
/// incident face normals, it rises at most eps above a neighbour that itself stays (a point
/// on a face or an edge rises 0 above the corners there).
std::vector<std::uint32_t> extreme_vertices(const std::vector<glm::dvec3>& p, const std::vector<Triangle3>& triangles,
                                            double eps);

} // namespace glide::gjk::detail
