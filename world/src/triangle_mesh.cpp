#include <glide/error.hpp>
#include <glide/limits.hpp>
#include <glide/world/triangle_mesh.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <unordered_map>

namespace glide {

namespace {

using limits::finite;

// Bit pattern of a position, with -0 read as +0: the key coincident vertices share.
struct PositionKey {
  std::uint32_t bits[3];
  explicit PositionKey(const glm::vec3& v) {
    for (int a = 0; a < 3; ++a) {
      const float x = v[a] == 0.f ? 0.f : v[a];
      std::memcpy(&bits[a], &x, sizeof x);
    }
  }
  bool operator==(const PositionKey& o) const {
    return bits[0] == o.bits[0] && bits[1] == o.bits[1] && bits[2] == o.bits[2];
  }
};

struct PositionHash {
  std::size_t operator()(const PositionKey& k) const {
    return (std::size_t{k.bits[0]} * 73856093u) ^ (std::size_t{k.bits[1]} * 19349663u) ^
           (std::size_t{k.bits[2]} * 83492791u);
  }
};

// One directed edge of a triangle, keyed by its welded ends (smaller first).
struct EdgeUse {
  std::uint64_t key;
  std::uint32_t triangle;
  std::uint8_t edge;
  bool forward; // runs from the smaller welded end to the larger
};

std::uint8_t active_bits(EdgeKind kind, int edge) {
  const bool front = kind == EdgeKind::boundary || kind == EdgeKind::convex;
  const bool back = kind == EdgeKind::boundary || kind == EdgeKind::concave;
  return static_cast<std::uint8_t>((front ? 1u << edge : 0u) | (back ? 8u << edge : 0u));
}

} // namespace

TriangleMesh::TriangleMesh(std::vector<glm::vec3> vertices, std::vector<Indices> triangles,
                           const TriangleMeshSettings& settings)
    : vertices_(std::move(vertices)) {
  if (!(settings.flat_angle >= 0.f && settings.flat_angle < glm::radians(90.f)))
    throw Error("TriangleMesh: flat_angle " + limits::number_text(settings.flat_angle) +
                " must be in [0, 90 degrees) (radians)");
  if (vertices_.size() >= k_none) throw Error("TriangleMesh: too many vertices");
  for (std::size_t i = 0; i < vertices_.size(); ++i)
    if (!finite(vertices_[i]))
      throw Error("TriangleMesh: vertex " + std::to_string(i) + " is not finite " + limits::vec_text(vertices_[i]));
  const auto count = static_cast<std::uint32_t>(vertices_.size());
  triangles_.reserve(triangles.size());
  source_.reserve(triangles.size());
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    const Indices& tri = triangles[t];
    for (std::size_t k = 0; k < 3; ++k)
      if (tri[k] >= count)
        throw Error("TriangleMesh: triangle " + std::to_string(t) + " corner " + std::to_string(k) + " is vertex " +
                    std::to_string(tri[k]) + ", beyond the " + std::to_string(count) + " vertices");
    const glm::vec3 &a = vertices_[tri[0]], &b = vertices_[tri[1]], &c = vertices_[tri[2]];
    const float longest = std::max({glm::dot(b - a, b - a), glm::dot(c - b, c - b), glm::dot(a - c, a - c)});
    const float doubled_area = glm::length(glm::cross(b - a, c - a));
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[2] == tri[0] || !(doubled_area > 1e-6f * longest)) {
      ++dropped_;
      continue;
    }
    triangles_.push_back(tri);
    source_.push_back(static_cast<std::uint32_t>(t));
  }
  if (triangles_.empty())
    throw Error("TriangleMesh: no triangle of positive area (" + std::to_string(triangles.size()) + " given, " +
                std::to_string(dropped_) + " of zero area)");
  min_ = max_ = vertices_[triangles_[0][0]];
  for (const Indices& tri : triangles_)
    for (const std::uint32_t i : tri) {
      min_ = glm::min(min_, vertices_[i]);
      max_ = glm::max(max_, vertices_[i]);
    }
  index_edges(settings);
}

glm::vec3 TriangleMesh::face_normal(std::uint32_t t) const {
  const Indices& tri = triangles_[t];
  const glm::vec3 &a = vertices_[tri[0]], &b = vertices_[tri[1]], &c = vertices_[tri[2]];
  return glm::normalize(glm::cross(b - a, c - a));
}

// Pairs the triangles' edges by their welded end vertices and classifies each pair.
void TriangleMesh::index_edges(const TriangleMeshSettings& settings) {
  const std::size_t n = triangles_.size();
  std::vector<std::uint32_t> weld(vertices_.size());
  for (std::uint32_t i = 0; i < weld.size(); ++i) weld[i] = i;
  if (settings.weld_coincident) {
    std::unordered_map<PositionKey, std::uint32_t, PositionHash> first;
    first.reserve(vertices_.size());
    for (std::uint32_t i = 0; i < weld.size(); ++i) weld[i] = first.emplace(PositionKey(vertices_[i]), i).first->second;
  }
  std::vector<EdgeUse> uses;
  uses.reserve(3 * n);
  for (std::uint32_t t = 0; t < n; ++t)
    for (std::uint8_t e = 0; e < 3; ++e) {
      const std::uint32_t from = weld[triangles_[t][e]], to = weld[triangles_[t][(e + 1) % 3]];
      const std::uint64_t lo = std::min(from, to), hi = std::max(from, to);
      uses.push_back({lo << 32 | hi, t, e, from < to});
    }
  std::sort(uses.begin(), uses.end(), [](const EdgeUse& a, const EdgeUse& b) {
    return a.key != b.key ? a.key < b.key : a.triangle != b.triangle ? a.triangle < b.triangle : a.edge < b.edge;
  });
  neighbours_.assign(n, {k_none, k_none, k_none});
  kinds_.assign(n, 0u); // every edge a boundary until paired
  active_.assign(n, 0u);
  const float flat_cos = std::cos(settings.flat_angle);
  for (std::size_t i = 0; i < uses.size();) {
    std::size_t j = i + 1;
    while (j < uses.size() && uses[j].key == uses[i].key) ++j;
    // Exactly two triangles, wound the opposite ways along the edge: a manifold edge.
    if (j - i == 2 && uses[i].forward != uses[i + 1].forward) {
      const EdgeUse &p = uses[i], &q = uses[i + 1];
      const glm::vec3 np = face_normal(p.triangle), nq = face_normal(q.triangle);
      const float cos = glm::dot(np, nq);
      EdgeKind kind = EdgeKind::boundary;
      if (cos >= flat_cos) {
        kind = EdgeKind::flat;
      } else if (cos > -0.9998f) { // back to back (folded onto itself): no side to tell
        // q's far corner behind p's plane: a ridge; in front of it: a valley.
        const glm::vec3& far = vertices_[triangles_[q.triangle][(q.edge + 2) % 3]];
        const float side = glm::dot(np, far - vertices_[triangles_[p.triangle][p.edge]]);
        kind = side < 0.f ? EdgeKind::convex : EdgeKind::concave;
      }
      neighbours_[p.triangle][p.edge] = q.triangle;
      neighbours_[q.triangle][q.edge] = p.triangle;
      kinds_[p.triangle] |= static_cast<std::uint8_t>(static_cast<unsigned>(kind) << (2 * p.edge));
      kinds_[q.triangle] |= static_cast<std::uint8_t>(static_cast<unsigned>(kind) << (2 * q.edge));
    }
    i = j;
  }
  for (std::uint32_t t = 0; t < n; ++t)
    for (int e = 0; e < 3; ++e) active_[t] |= active_bits(edge_kind(t, e), e);
}

} // namespace glide
