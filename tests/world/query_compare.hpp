#pragma once

// Field-by-field equality of query answers: a world against a fresh world or a brute-force
// oracle that share its narrowphase, so answers agree to the bit.

#include "approx.hpp"

#include <doctest/doctest.h>
#include <glide/world/query_types.hpp>

#include <vector>

namespace glide::test {

/// The hit, its target, time and normal: what a brute-force oracle answers too.
inline void check_same(const SweepHit& got, const SweepHit& expected) {
  REQUIRE(got.hit == expected.hit);
  if (!got.hit) return;
  CHECK(got.target == expected.target);
  CHECK(got.piece == expected.piece);
  CHECK(got.fraction == expected.fraction);
  CHECK_APPROX(got.normal, expected.normal, 0);
}

/// Every field, for two worlds answering through the same code.
inline void check_identical(const SweepHit& got, const SweepHit& expected) {
  check_same(got, expected);
  CHECK(got.started_overlapped == expected.started_overlapped);
  CHECK_APPROX(got.point, expected.point, 0);
}

inline void check_same(const RayHit& got, const RayHit& expected) {
  REQUIRE(got.hit == expected.hit);
  CHECK(got.target == expected.target);
  CHECK(got.piece == expected.piece);
  CHECK(got.t == expected.t);
  CHECK_APPROX(got.point, expected.point, 0);
  CHECK_APPROX(got.normal, expected.normal, 0);
}

inline void check_same(const std::vector<Contact>& got, const std::vector<Contact>& expected) {
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CHECK(got[i].target == expected[i].target);
    CHECK(got[i].piece == expected[i].piece);
    CHECK(got[i].distance == expected[i].distance);
    CHECK(got[i].depth == expected[i].depth);
    CHECK_APPROX(got[i].point_on_piece, expected[i].point_on_piece, 0);
    CHECK_APPROX(got[i].point_on_segment, expected[i].point_on_segment, 0);
    CHECK_APPROX(got[i].normal, expected[i].normal, 0);
  }
}

} // namespace glide::test
