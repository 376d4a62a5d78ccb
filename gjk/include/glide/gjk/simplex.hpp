#pragma once

// The GJK simplex: up to four vertices w = a − b of the Minkowski difference A − B, each
// with the support points on A and on B that produced it (the closest points are recovered
// from those) and the search direction that found it (kept for warm starting). Points are
// held as detail::F4 (x, y, z, 0 in one register), the form the sub-algorithm works in.

#include <glide/gjk/closest_point.hpp>
#include <glide/gjk/detail/fp_exact.hpp>
#include <glide/gjk/detail/vec4.hpp>

#include <array>
#include <cstdint>

GLIDE_GJK_FP_EXACT_BEGIN

namespace glide::gjk {

struct Simplex {
  using F4 = detail::F4;

  /// For each 4-bit mask of kept vertices: bits 2j, 2j + 1 say where position j takes its
  /// vertex from, bits 8 and up how many are kept (a table: x86-64's baseline has no popcnt).
  static constexpr std::array<std::uint16_t, 16> k_keep_from = [] {
    std::array<std::uint16_t, 16> table{};
    for (unsigned mask = 0; mask < 16; ++mask) {
      unsigned from = 0, j = 0;
      for (unsigned i = 0; i < 4; ++i)
        if ((mask >> i) & 1u) from |= i << (2 * j++);
      from |= j << 8;
      for (; j < 4; ++j) from |= j << (2 * j);
      table[mask] = static_cast<std::uint16_t>(from);
    }
    return table;
  }();

  /// The slots byte after keeping the positions in a 4-bit mask, at [mask << 8 | slots]: the
  /// kept positions' slots first, in order, then the others' (now free). One load, where
  /// moving four slots and collecting the used ones took about 30 instructions.
  static constexpr std::array<std::uint8_t, 16 * 256> k_keep_slots = [] {
    std::array<std::uint8_t, 16 * 256> table{};
    for (unsigned mask = 0; mask < 16; ++mask)
      for (unsigned slots = 0; slots < 256; ++slots) {
        unsigned out = 0, j = 0;
        for (unsigned kept = 1; kept <= 2; ++kept) // kept positions, then the others
          for (unsigned i = 0; i < 4; ++i)
            if (((mask >> i) & 1u) == (kept == 1 ? 1u : 0u)) out |= ((slots >> (2 * i)) & 3u) << (2 * j++);
        table[mask << 8 | slots] = static_cast<std::uint8_t>(out);
      }
    return table;
  }();

  F4 w[4]{}; ///< vertices of A − B, in simplex order (m); zeroed: contains() reads all four
  float weights[4] = {1.f, 0.f, 0.f, 0.f}; ///< barycentric weights of the closest point, in simplex order
  int count = 0;
  /// Where each position's support points are stored, two bits per position (position j in
  /// bits 2j and 2j + 1): a permutation of the four slots, whose positions from `count` on
  /// hold the free ones, so the next vertex goes to slot(count).
  unsigned slots = 0b11'10'01'00;
  // Support points by slot: only w and the slots byte change when vertices are dropped.
  F4 a[4]; ///< support points on A (m)
  F4 b[4]; ///< support points on B (m)
  /// The direction A was searched along (B along its opposite), in the loop's vector form:
  /// one store per support call, where a glm::vec3 took the register's lanes apart first.
  F4 direction[4];
  std::uint32_t index_a[4]; ///< vertex index of a (IndexedSupport shapes; 0 otherwise)
  std::uint32_t index_b[4]; ///< vertex index of b

  /// The slot of position j.
  int slot(int j) const { return static_cast<int>((slots >> (2 * j)) & 3u); }

  /// Writes a candidate vertex after the last one; `keep` makes it part of the simplex,
  /// until then the simplex is unchanged.
  void stage(F4 pa, F4 pb, F4 d, std::uint32_t ia, std::uint32_t ib) {
    const int s = slot(count);
    a[s] = pa;
    b[s] = pb;
    direction[s] = d;
    index_a[s] = ia;
    index_b[s] = ib;
    w[count] = pa - pb;
  }

  /// Keeps the vertices in `closest.mask` with their weights, in order. Position j takes
  /// vertex k_keep_from[mask] >> 2j & 3 (the j-th kept one; positions past the new count copy
  /// themselves), so the four copies are independent: no branch, and no store address waiting
  /// on the count of vertices kept before it as in a copy-down loop.
  void keep(const detail::Closest4& closest) {
    const unsigned mask = closest.mask & 0xFu;
    const unsigned from = k_keep_from[mask];
    for (int j = 0; j < 4; ++j) { // in place: k >= j, increasing in j
      const unsigned k = (from >> (2 * j)) & 3u;
      w[j] = w[k];
      weights[j] = closest.weights[k];
    }
    slots = k_keep_slots[mask << 8 | slots];
    count = static_cast<int>(from >> 8);
  }

  /// Whether p is one of the first `count` vertices. All four are compared, with no loop
  /// branch on `count`: its trip count changes every iteration and mispredicts.
  bool contains(F4 p) const {
    unsigned hits = 0;
    for (int i = 0; i < 4; ++i) hits |= detail::equal_bit(w[i], p) << i;
    return (hits & ((1u << count) - 1u)) != 0u;
  }

  /// Σ λ_i p_i written as p_0 + Σ λ_i (p_i − p_0): the large common part of points far from
  /// the world origin is added once at the end instead of being rounded in every term.
  /// All four terms are formed and those beyond `count` dropped by a mask, not a branch.
  /// Positions past `count` read slot 0 (always staged first): a free slot may never have been
  /// written, and a and b are not zeroed (eight stores fewer per query).
  F4 combine(const F4* p) const {
    const unsigned held = slots & ((1u << (2 * count)) - 1u);
    const F4 base = p[held & 3u];
    F4 sum{};
    for (int i = 1; i < 4; ++i)
      sum += detail::keep_if(i < count, detail::splat(weights[i]) * (p[(held >> (2 * i)) & 3u] - base));
    return base + sum;
  }
  F4 point_a() const { return combine(a); }
  F4 point_b() const { return combine(b); }
  glm::vec3 direction_of(int i) const { return detail::to_vec3(direction[slot(i)]); }
  std::uint32_t index_a_of(int i) const { return index_a[slot(i)]; }
  std::uint32_t index_b_of(int i) const { return index_b[slot(i)]; }

  /// Makes the staged vertex part of the simplex.
  void admit() { ++count; }
  /// Makes the staged vertex part of the simplex unless it repeats one (false then).
  [[gnu::always_inline]] bool admit_staged() {
    if (contains(w[count])) return false;
    admit();
    return true;
  }
};

} // namespace glide::gjk

GLIDE_GJK_FP_EXACT_END
