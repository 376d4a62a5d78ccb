#pragma once

// The GJK simplex: up to four vertices of the Minkowski difference A − B, each with the
// support points on A and on B that produced it (the closest points are recovered from
// those) and the search direction that found it (kept for warm starting).

#include <glide/gjk/closest_point.hpp>

#include <glm/vec3.hpp>

#include <array>

namespace glide::gjk {

struct SimplexVertex {
  glm::vec3 w{0.f};         ///< a − b (m)
  glm::vec3 a{0.f};         ///< support point on A (m)
  glm::vec3 b{0.f};         ///< support point on B (m)
  glm::vec3 direction{0.f}; ///< the direction A was searched along (B along its opposite)
};

struct Simplex {
  std::array<SimplexVertex, 4> vertices{};
  std::array<float, 4> weights{}; ///< barycentric weights of the closest point
  int count = 0;

  /// Closest point of the simplex with one more (candidate) vertex, without changing it.
  SimplexClosest closest_with(const SimplexVertex& extra) const {
    glm::vec3 w[4];
    for (int i = 0; i < count; ++i) w[i] = vertices[i].w;
    w[count] = extra.w;
    return closest_to_origin(w, count + 1);
  }

  SimplexClosest closest() const {
    glm::vec3 w[4];
    for (int i = 0; i < count; ++i) w[i] = vertices[i].w;
    return closest_to_origin(w, count);
  }

  /// Keeps the vertices in `closest.mask` with their weights (`extra` is vertex `count`).
  void reduce(const SimplexClosest& closest, const SimplexVertex* extra) {
    std::array<SimplexVertex, 4> kept;
    std::array<float, 4> kept_weights{};
    int n = 0;
    const int total = extra ? count + 1 : count;
    for (int i = 0; i < total; ++i) {
      if (!(closest.mask & (1u << i))) continue;
      kept[n] = i < count ? vertices[i] : *extra;
      kept_weights[n] = closest.weights[i];
      ++n;
    }
    vertices = kept;
    weights = kept_weights;
    count = n;
  }

  bool contains(const glm::vec3& w) const {
    for (int i = 0; i < count; ++i)
      if (vertices[i].w == w) return true;
    return false;
  }

  /// Σ λ_i p_i written as p_0 + Σ λ_i (p_i − p_0): the large common part of points far from
  /// the world origin is added once at the end instead of being rounded in every term.
  template <class Member>
  glm::vec3 combine(Member member) const {
    const glm::vec3 base = vertices[0].*member;
    glm::vec3 sum{0.f};
    for (int i = 1; i < count; ++i) sum += weights[i] * (vertices[i].*member - base);
    return base + sum;
  }
};

} // namespace glide::gjk
