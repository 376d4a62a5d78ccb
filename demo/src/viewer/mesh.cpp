#include "mesh.hpp"

#include <glm/geometric.hpp>
#include <glm/gtc/constants.hpp>
#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>

namespace glide::viewer {
namespace {

void add_triangle(TriangleMesh& mesh, const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                  const glm::vec3& color) {
  const glm::vec3 n = glm::cross(b - a, c - a);
  const float len = glm::length(n);
  if (!(len > 0.f)) return;
  const glm::vec3 normal = n / len;
  mesh.push_back({a, normal, color});
  mesh.push_back({b, normal, color});
  mesh.push_back({c, normal, color});
}

// Point on a sphere-ish surface of revolution around +y: ring angle `around`, elevation `up`.
glm::vec3 direction(float around, float up) {
  return {std::cos(up) * std::cos(around), std::sin(up), std::cos(up) * std::sin(around)};
}

// A band of quads between two elevations, offset vertically: the capsule's caps and sphere.
void add_band(TriangleMesh& mesh, float radius, float up0, float up1, float y0, float y1, const glm::vec3& color) {
  constexpr int segments = 24;
  for (int i = 0; i < segments; ++i) {
    const float a0 = glm::two_pi<float>() * static_cast<float>(i) / segments;
    const float a1 = glm::two_pi<float>() * static_cast<float>(i + 1) / segments;
    const glm::vec3 d00 = direction(a0, up0), d01 = direction(a1, up0);
    const glm::vec3 d10 = direction(a0, up1), d11 = direction(a1, up1);
    const glm::vec3 o0{0.f, y0, 0.f}, o1{0.f, y1, 0.f};
    // Smooth normals: the surface normal is the direction from the ring's centre.
    const auto v = [&](const glm::vec3& d, const glm::vec3& o) { return MeshVertex{o + radius * d, d, color}; };
    mesh.push_back(v(d00, o0));
    mesh.push_back(v(d11, o1));
    mesh.push_back(v(d01, o0));
    mesh.push_back(v(d00, o0));
    mesh.push_back(v(d10, o1));
    mesh.push_back(v(d11, o1));
  }
}

} // namespace

TriangleMesh level_mesh(const World& world, float max_slope, std::span<const PieceId> skip) {
  TriangleMesh mesh;
  const float walkable_cos = std::cos(max_slope);
  for (const PieceId id : world.piece_ids()) {
    if (std::find(skip.begin(), skip.end(), id) != skip.end()) continue;
    const auto vertices = world.world_vertices(id);
    if (world.is_mesh(id)) {
      for (const auto& t : world.mesh(id).triangles()) {
        const glm::vec3 a = vertices[t[0]], b = vertices[t[1]], c = vertices[t[2]];
        const glm::vec3 n = glm::normalize(glm::cross(b - a, c - a));
        add_triangle(mesh, a, b, c, n.y >= walkable_cos ? k_walkable_color : k_wall_color);
      }
      continue;
    }
    for (const auto& face : world.hull(id).faces()) {
      const glm::vec3 a = vertices[face.vertices[0]], b = vertices[face.vertices[1]], c = vertices[face.vertices[2]];
      const glm::vec3 n = glm::normalize(glm::cross(b - a, c - a));
      add_triangle(mesh, a, b, c, n.y >= walkable_cos ? k_walkable_color : k_wall_color);
    }
  }
  if (const Heightfield* terrain = world.terrain()) {
    const int cells = std::max(terrain->rows(), terrain->columns()) - 1;
    const int stride = std::max(1, (cells + 255) / 256);
    for (int r = 0; r + 1 < terrain->rows(); r += stride) {
      for (int c = 0; c + 1 < terrain->columns(); c += stride) {
        if (terrain->is_hole(r, c)) continue;
        const int r1 = std::min(r + stride, terrain->rows() - 1), c1 = std::min(c + stride, terrain->columns() - 1);
        const glm::vec3 p00 = terrain->vertex(r, c), p01 = terrain->vertex(r, c1);
        const glm::vec3 p10 = terrain->vertex(r1, c), p11 = terrain->vertex(r1, c1);
        // Same split as Heightfield::cell_triangles, wound so the normal points up.
        add_triangle(mesh, p00, p11, p01, k_terrain_color);
        add_triangle(mesh, p00, p10, p11, k_terrain_color);
      }
    }
  }
  return mesh;
}

TriangleMesh piece_mesh(const World& world, PieceId id, float max_slope) {
  TriangleMesh mesh;
  const float walkable_cos = std::cos(max_slope);
  const glm::quat rotation = world.transform(id).rotation;
  if (world.is_mesh(id)) { // static, but drawn as any piece when asked
    const glide::TriangleMesh& m = world.mesh(id);
    for (const auto& t : m.triangles()) {
      const glm::vec3 a = m.vertices()[t[0]], b = m.vertices()[t[1]], c = m.vertices()[t[2]];
      const glm::vec3 n = rotation * glm::normalize(glm::cross(b - a, c - a));
      add_triangle(mesh, a, b, c, n.y >= walkable_cos ? k_walkable_color : k_wall_color);
    }
    return mesh;
  }
  const gjk::ConvexHull& hull = world.hull(id);
  for (const auto& face : hull.faces()) {
    const glm::vec3 a = hull.vertices()[face.vertices[0]], b = hull.vertices()[face.vertices[1]],
                    c = hull.vertices()[face.vertices[2]];
    const glm::vec3 n = rotation * glm::normalize(glm::cross(b - a, c - a));
    add_triangle(mesh, a, b, c, n.y >= walkable_cos ? k_walkable_color : k_wall_color);
  }
  return mesh;
}

TriangleMesh capsule_mesh(float radius, float height, const glm::vec3& color) {
  TriangleMesh mesh;
  constexpr int rings = 8;
  const float bottom = radius, top = std::max(radius, height - radius); // sphere centres (m)
  for (int i = 0; i < rings; ++i) {
    const float e0 = glm::half_pi<float>() * static_cast<float>(i) / rings;
    const float e1 = glm::half_pi<float>() * static_cast<float>(i + 1) / rings;
    add_band(mesh, radius, e0, e1, top, top, color);         // upper cap
    add_band(mesh, radius, -e1, -e0, bottom, bottom, color); // lower cap
  }
  add_band(mesh, radius, 0.f, 0.f, bottom, top, color); // cylinder
  return mesh;
}

TriangleMesh sphere_mesh(const glm::vec3& color) {
  TriangleMesh mesh;
  constexpr int rings = 8;
  for (int i = 0; i < rings; ++i) {
    const float e0 = -glm::half_pi<float>() + glm::pi<float>() * static_cast<float>(i) / rings;
    const float e1 = -glm::half_pi<float>() + glm::pi<float>() * static_cast<float>(i + 1) / rings;
    add_band(mesh, 1.f, e0, e1, 0.f, 0.f, color);
  }
  return mesh;
}

} // namespace glide::viewer
