#pragma once

// The GJK simplex: up to four vertices w = a − b of the Minkowski difference A − B, each
// with the support points on A and on B that produced it (the closest points are recovered
// from those) and the search direction that found it (kept for warm starting).

#include <glide/gjk/closest_point.hpp>

#include <glm/vec3.hpp>

#include <cstdint>

namespace glide::gjk {

struct Simplex {
  glm::vec3 w[4]{}; ///< vertices of A − B, in simplex order (m); zeroed so no read is of unset memory
  int slot[4] = {}; ///< where each vertex's support points are stored
  float weights[4] = {1.f, 0.f, 0.f, 0.f}; ///< barycentric weights of the closest point, in simplex order
  int count = 0;
  unsigned used = 0; ///< bit s set: slot s holds a vertex of the simplex
  // Support points by slot: only w and the slot index move when vertices are dropped.
  glm::vec3 a[4];           ///< support points on A (m)
  glm::vec3 b[4];           ///< support points on B (m)
  glm::vec3 direction[4];   ///< the direction A was searched along (B along its opposite)
  std::uint32_t index_a[4]; ///< vertex index of a (IndexedSupport shapes; 0 otherwise)
  std::uint32_t index_b[4]; ///< vertex index of b

  /// Writes a candidate vertex after the last one; `keep` makes it part of the simplex,
  /// until then the simplex is unchanged.
  void stage(const glm::vec3& pa, const glm::vec3& pb, const glm::vec3& d, std::uint32_t ia, std::uint32_t ib) {
    const int s = __builtin_ctz(~used);
    a[s] = pa;
    b[s] = pb;
    direction[s] = d;
    index_a[s] = ia;
    index_b[s] = ib;
    w[count] = pa - pb;
    slot[count] = s;
  }

  /// Keeps the vertices in `closest.mask` (among the first `total`) with their weights.
  /// Branch-free compaction: every vertex is copied down, the position advances only when kept.
  void keep(const SimplexClosest& closest, int total) {
    int n = 0;
    used = 0;
    for (int i = 0; i < total; ++i) {
      const unsigned kept = (closest.mask >> i) & 1u;
      w[n] = w[i];
      slot[n] = slot[i];
      weights[n] = closest.weights[i];
      used |= kept << slot[i];
      n += static_cast<int>(kept);
    }
    count = n;
  }

  bool contains(const glm::vec3& p) const {
    bool found = false;
    for (int i = 0; i < count; ++i) found |= w[i] == p;
    return found;
  }

  /// Σ λ_i p_i written as p_0 + Σ λ_i (p_i − p_0): the large common part of points far from
  /// the world origin is added once at the end instead of being rounded in every term.
  glm::vec3 combine(const glm::vec3* p) const {
    const glm::vec3 base = p[slot[0]];
    glm::vec3 sum{0.f};
    for (int i = 1; i < count; ++i) sum += weights[i] * (p[slot[i]] - base);
    return base + sum;
  }
  glm::vec3 point_a() const { return combine(a); }
  glm::vec3 point_b() const { return combine(b); }
  glm::vec3 direction_of(int i) const { return direction[slot[i]]; }
  std::uint32_t index_a_of(int i) const { return index_a[slot[i]]; }
  std::uint32_t index_b_of(int i) const { return index_b[slot[i]]; }

  /// Makes the staged vertex part of the simplex unless it repeats one (false then).
  bool admit_staged() {
    if (contains(w[count])) return false;
    used |= 1u << slot[count];
    ++count;
    return true;
  }
};

} // namespace glide::gjk
