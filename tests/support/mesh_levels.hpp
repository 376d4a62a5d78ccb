#pragma once

// Triangle meshes for the mesh tests: grids, extruded profiles (ramps, stairs), boxes, quads.

#include <glide/world/triangle_mesh.hpp>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace glide::test {

struct MeshData {
  std::vector<glm::vec3> vertices;
  std::vector<TriangleMesh::Indices> triangles;

  TriangleMesh mesh(const TriangleMeshSettings& settings = {}) const {
    return TriangleMesh(vertices, triangles, settings);
  }
  std::uint32_t add(const glm::vec3& v) {
    vertices.push_back(v);
    return static_cast<std::uint32_t>(vertices.size() - 1);
  }
};

/// An n x n grid of square cells of `cell` m from `origin` (x and z), faces up, each cell split
/// along one of its diagonals as `flip(i, k)` says; heights from `height(x, z)` (0 by default).
inline MeshData grid_mesh(int n, float cell, const glm::vec3& origin, const std::function<bool(int, int)>& flip,
                          const std::function<float(float, float)>& height = {}) {
  MeshData m;
  for (int k = 0; k <= n; ++k)
    for (int i = 0; i <= n; ++i) {
      const float x = origin.x + cell * static_cast<float>(i), z = origin.z + cell * static_cast<float>(k);
      m.add({x, origin.y + (height ? height(x, z) : 0.f), z});
    }
  const auto at = [&](int i, int k) { return static_cast<std::uint32_t>(k * (n + 1) + i); };
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i) {
      const std::uint32_t p00 = at(i, k), p10 = at(i + 1, k), p01 = at(i, k + 1), p11 = at(i + 1, k + 1);
      if (flip(i, k)) {
        m.triangles.push_back({p00, p01, p10});
        m.triangles.push_back({p10, p01, p11});
      } else {
        m.triangles.push_back({p00, p01, p11});
        m.triangles.push_back({p00, p11, p10});
      }
    }
  return m;
}

/// A profile in the x-y plane (points in order, the surface on its left walking along it, so a
/// profile going +x faces up) extruded over z in [-half_width, half_width]: consecutive segments
/// share their vertices.
inline MeshData profile_mesh(std::span<const glm::vec2> profile, float half_width) {
  MeshData m;
  for (const glm::vec2& p : profile) {
    m.add({p.x, p.y, -half_width});
    m.add({p.x, p.y, half_width});
  }
  for (std::uint32_t i = 0; i + 1 < profile.size(); ++i) {
    const std::uint32_t a0 = 2 * i, a1 = 2 * i + 1, b0 = 2 * i + 2, b1 = 2 * i + 3; // 0: -z, 1: +z
    m.triangles.push_back({a0, a1, b1});
    m.triangles.push_back({a0, b1, b0});
  }
  return m;
}

/// Appends a closed box [lo, hi] wound outward (12 triangles, 8 vertices of its own).
inline void add_box_mesh(MeshData& m, const glm::vec3& lo, const glm::vec3& hi) {
  const auto base = static_cast<std::uint32_t>(m.vertices.size());
  for (int k = 0; k < 8; ++k) {
    const int x = (k == 1 || k == 2 || k == 5 || k == 6), y = (k == 2 || k == 3 || k == 6 || k == 7), z = k >= 4;
    m.add({x ? hi.x : lo.x, y ? hi.y : lo.y, z ? hi.z : lo.z});
  }
  const std::uint32_t faces[12][3] = {{0, 3, 2}, {0, 2, 1}, {4, 5, 6}, {4, 6, 7}, {0, 4, 7}, {0, 7, 3},
                                      {1, 2, 6}, {1, 6, 5}, {0, 1, 5}, {0, 5, 4}, {3, 7, 6}, {3, 6, 2}};
  for (const auto& f : faces) m.triangles.push_back({base + f[0], base + f[1], base + f[2]});
}

/// A quad a, b, c, d (in order around it, facing by the right-hand rule) as two triangles.
inline void add_quad(MeshData& m, const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, const glm::vec3& d) {
  const std::uint32_t i = m.add(a), j = m.add(b), k = m.add(c), l = m.add(d);
  m.triangles.push_back({i, j, k});
  m.triangles.push_back({i, k, l});
}

} // namespace glide::test
