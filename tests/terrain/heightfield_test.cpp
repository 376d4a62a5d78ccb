#include "approx.hpp"
#include "terrain_oracles.hpp"

#include <glide/error.hpp>
#include <glide/limits.hpp>
#include <glide/terrain/heightfield.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using glide::Heightfield;
using glide::HeightfieldDef;
using glide::test::bumpy_field;
using glide::test::field_from;

namespace {
constexpr float k_nan = std::numeric_limits<float>::quiet_NaN();
constexpr float k_inf = std::numeric_limits<float>::infinity();

using glide::limits::finite;

// h = a x + b z + c over a 9 x 13 grid of 2 x 1.5 m cells starting at (-3, -5).
struct Plane {
  double a, b, c;
  double height(double x, double z) const { return a * x + b * z + c; }
  glm::vec3 normal() const { return glm::vec3(glm::normalize(glm::dvec3(-a, 1, -b))); }
};
constexpr glm::vec2 k_plane_cell{2.f, 1.5f};
constexpr glm::vec3 k_plane_origin{-3.f, 0.f, -5.f};
constexpr int k_plane_rows = 9, k_plane_columns = 13; // x in [-3, 21], z in [-5, 7]
Heightfield plane_field(const Plane& p) {
  return field_from(k_plane_rows, k_plane_columns, k_plane_cell, k_plane_origin,
                    [&](double x, double z) { return p.height(x, z); });
}
const Plane planes[] = {{0, 0, 1.25}, {0.25, -0.5, 3}, {-1.5, 0.75, -2}, {3, 2, 0.5}};
} // namespace

TEST_CASE("height_at, normal_at and sample are exact on planes h = a x + b z + c") {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> x(-3, 21), z(-5, 7);
  for (const Plane& p : planes) {
    const Heightfield field = plane_field(p);
    for (int i = 0; i < 2000; ++i) {
      const double px = x(rng), pz = z(rng);
      const float fx = static_cast<float>(px), fz = static_cast<float>(pz);
      CHECK_APPROX(field.height_at(fx, fz), static_cast<float>(p.height(fx, fz)), 1e-5f);
      CHECK_APPROX(field.normal_at(fx, fz), p.normal(), 1e-5f);
      const glide::TerrainSample s = field.sample(fx, fz);
      CHECK(s.inside);
      CHECK_APPROX(s.height, static_cast<float>(p.height(fx, fz)), 1e-5f);
      CHECK_APPROX(s.normal, p.normal(), 1e-5f);
    }
  }
}

TEST_CASE("height scale, offset and origin.y place the samples") {
  // Stored 0..2 scaled by 3 and offset by -1 on an origin at y = 10: world 9..15.
  const Heightfield field({.rows = 2,
                           .columns = 3,
                           .heights = {0.f, 1.f, 2.f, 0.f, 1.f, 2.f},
                           .origin = {0.f, 10.f, 0.f},
                           .height_scale = 3.f,
                           .height_offset = -1.f});
  CHECK_APPROX(field.height(0, 0), 9.f, 1e-6f);
  CHECK_APPROX(field.height(1, 2), 15.f, 1e-6f);
  CHECK_APPROX(field.height_at(1.5f, 0.5f), 13.5f, 1e-5f);
  CHECK_APPROX(field.bounds().min, glm::vec3(0.f, 9.f, 0.f), 1e-6f);
  CHECK_APPROX(field.bounds().max, glm::vec3(2.f, 15.f, 1.f), 1e-6f);
}

TEST_CASE("the cell diagonal runs from sample (r, c) to (r + 1, c + 1)") {
  // Only the far corner is raised: the surface is two planes meeting on the diagonal, not the
  // bilinear saddle fu * fv.
  const Heightfield field({.rows = 2, .columns = 2, .heights = {0.f, 0.f, 0.f, 1.f}});
  CHECK_APPROX(field.height_at(0.75f, 0.25f), 0.25f, 1e-6f); // triangle {00, 11, 10}: h = fv
  CHECK_APPROX(field.height_at(0.25f, 0.75f), 0.25f, 1e-6f); // triangle {00, 01, 11}: h = fu
  CHECK_APPROX(field.height_at(0.5f, 0.5f), 0.5f, 1e-6f);
  CHECK_APPROX(field.normal_at(0.75f, 0.25f), glm::normalize(glm::vec3(0, 1, -1)), 1e-6f);
  CHECK_APPROX(field.normal_at(0.25f, 0.75f), glm::normalize(glm::vec3(-1, 1, 0)), 1e-6f);
  const auto tris = field.cell_triangles(0, 0);
  for (const auto& t : tris) CHECK(glm::cross(t.b - t.a, t.c - t.a).y > 0.f);
  CHECK_APPROX(tris[0].b, glm::vec3(1, 1, 1), 0.f);
  CHECK_APPROX(tris[1].c, glm::vec3(1, 1, 1), 0.f);
}

TEST_CASE("height is continuous across cell borders and equals the edge interpolation there") {
  const glm::vec2 cell{1.5f, 0.75f};
  const Heightfield field = bumpy_field(12, 10, cell, glm::vec3(2.f, 0.f, -1.f), 4.f);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> f(0.f, 1.f);
  std::uniform_int_distribution<int> col(1, 8), row(1, 10);
  const float delta = 1e-4f;
  const float max_slope = 4.f / 0.75f; // steepest possible rise (m per m)
  for (int i = 0; i < 3000; ++i) {
    // A point on a column line (x fixed) and one on a row line (z fixed).
    const int c = col(rng), r = row(rng);
    const float fv = f(rng), fu = f(rng);
    const float x = 2.f + c * cell.x, z = -1.f + (r + fv) * cell.y;
    const float edge = field.height(r, c) + fv * (field.height(r + 1, c) - field.height(r, c));
    CHECK_APPROX(field.height_at(x, z), edge, 2e-5f);
    CHECK(std::abs(field.height_at(x - delta, z) - field.height_at(x + delta, z)) <= 2 * delta * max_slope + 2e-5f);
    const float x2 = 2.f + (c + fu) * cell.x, z2 = -1.f + r * cell.y;
    const float edge2 = field.height(r, c) + fu * (field.height(r, c + 1) - field.height(r, c));
    CHECK_APPROX(field.height_at(x2, z2), edge2, 2e-5f);
    CHECK(std::abs(field.height_at(x2, z2 - delta) - field.height_at(x2, z2 + delta)) <= 2 * delta * max_slope + 2e-5f);
  }
}

TEST_CASE("grid edges: samples at the corners, clamping outside, sample() inside only on the grid") {
  const Heightfield field = bumpy_field(5, 6, glm::vec2(2.f, 1.f), glm::vec3(1.f, 0.5f, 2.f), 3.f);
  // x in [1, 11], z in [2, 6]
  CHECK_APPROX(field.height_at(1.f, 2.f), field.height(0, 0), 1e-6f);
  CHECK_APPROX(field.height_at(11.f, 6.f), field.height(4, 5), 1e-6f);
  CHECK_APPROX(field.height_at(11.f, 2.f), field.height(0, 5), 1e-6f);
  CHECK_APPROX(field.height_at(1.f, 6.f), field.height(4, 0), 1e-6f);
  CHECK(field.sample(11.f, 6.f).inside);
  CHECK(field.sample(1.f, 2.f).inside);
  for (const glm::vec2 p : {glm::vec2(0.99f, 3.f), glm::vec2(11.01f, 3.f), glm::vec2(5.f, 1.99f), glm::vec2(5.f, 6.01f),
                            glm::vec2(-1e30f, 1e30f)}) {
    const glide::TerrainSample s = field.sample(p.x, p.y);
    CHECK_FALSE(s.inside);
    CHECK(std::isfinite(s.height));
    CHECK(finite(s.normal));
  }
  // Outside, height_at and normal_at report the nearest border point.
  CHECK_APPROX(field.height_at(-50.f, 4.f), field.height_at(1.f, 4.f), 1e-6f);
  CHECK_APPROX(field.height_at(7.f, 100.f), field.height_at(7.f, 6.f), 1e-6f);
  CHECK_APPROX(field.normal_at(40.f, 3.3f), field.normal_at(11.f, 3.3f), 1e-6f);
  CHECK_APPROX(field.bounds().min.x, 1.f, 0.f);
  CHECK_APPROX(field.bounds().max.z, 6.f, 0.f);
}

TEST_CASE("holes: sample() is outside there, rays fall through, triangles_in skips them") {
  Heightfield field({.rows = 4, .columns = 4, .heights = std::vector<float>(16, 1.f)});
  const std::size_t without_holes = field.memory_bytes();
  field.set_hole(1, 2);
  CHECK(field.memory_bytes() > without_holes);
  CHECK(field.is_hole(1, 2));
  CHECK_FALSE(field.is_hole(2, 1));
  CHECK_FALSE(field.sample(2.5f, 1.5f).inside);
  CHECK(field.sample(1.5f, 1.5f).inside);
  CHECK(field.sample(2.5f, 0.5f).inside);
  CHECK_APPROX(field.height_at(2.5f, 1.5f), 1.f, 1e-6f); // height_at ignores holes
  CHECK_FALSE(field.raycast({2.5f, 5.f, 1.5f}, {0.f, -1.f, 0.f}, 10.f).hit);
  CHECK(field.raycast({1.5f, 5.f, 1.5f}, {0.f, -1.f, 0.f}, 10.f).hit);
  // A slanted ray entering the hole falls below the surface and hits nothing after it.
  CHECK_FALSE(field.raycast({2.5f, 1.2f, 1.5f}, {1.f, -1.f, 0.f}, 10.f).hit);
  int count = 0;
  field.triangles_in({{2.1f, 0.f, 1.1f}, {2.9f, 2.f, 1.9f}}, [&](const glide::gjk::Triangle&) { ++count; });
  CHECK(count == 0);
  CHECK(field.triangles_in({{1.9f, 0.f, 1.1f}, {2.9f, 2.f, 1.9f}}, [](const glide::gjk::Triangle&) {}) == 2);
  field.set_hole(1, 2, false);
  CHECK(field.sample(2.5f, 1.5f).inside);
  CHECK_THROWS_AS(field.set_hole(3, 0), glide::Error);
  CHECK_THROWS_AS(field.set_hole(0, -1), glide::Error);
}

TEST_CASE("non-finite query input gives finite output, inside = false, no hit") {
  const Heightfield field = bumpy_field(6, 6, glm::vec2(1.f), glm::vec3(0.f), 2.f);
  for (const float bad : {k_nan, k_inf, -k_inf}) {
    CHECK(std::isfinite(field.height_at(bad, 1.f)));
    CHECK(std::isfinite(field.height_at(1.f, bad)));
    CHECK(finite(field.normal_at(bad, bad)));
    const glide::TerrainSample s = field.sample(bad, 2.f);
    CHECK_FALSE(s.inside);
    CHECK(std::isfinite(s.height));
    CHECK_FALSE(field.raycast({bad, 5.f, 2.f}, {0.f, -1.f, 0.f}, 10.f).hit);
    CHECK_FALSE(field.raycast({2.f, 5.f, 2.f}, {0.f, bad, 0.f}, 10.f).hit);
  }
  CHECK_FALSE(field.raycast({2.f, 5.f, 2.f}, {0.f, -1.f, 0.f}, k_nan).hit);
  CHECK_FALSE(field.raycast({2.f, 5.f, 2.f}, {0.f, -1.f, 0.f}, -1.f).hit);
  CHECK_FALSE(field.raycast({2.f, 5.f, 2.f}, {0.f, 0.f, 0.f}, 10.f).hit);
  CHECK(field.raycast({2.f, 5.f, 2.f}, {0.f, -1.f, 0.f}, k_inf).hit);
}

TEST_CASE("the constructor rejects bad input with a message naming the problem") {
  const auto four = std::vector<float>(4);
  CHECK_THROWS_WITH_AS(Heightfield({.rows = 1, .columns = 4, .heights = four}), doctest::Contains("1 x 4"),
                       glide::Error);
  CHECK_THROWS_AS(Heightfield({.rows = 2, .columns = 2, .heights = std::vector<float>(3)}), glide::Error);
  CHECK_THROWS_AS(Heightfield({.rows = 2, .columns = 2, .heights = four, .cell_size = {0.f, 1.f}}), glide::Error);
  CHECK_THROWS_WITH_AS(Heightfield({.rows = 2, .columns = 2, .heights = four, .cell_size = {1.f, k_nan}}),
                       doctest::Contains("cell_size"), glide::Error);
  CHECK_THROWS_WITH_AS(Heightfield({.rows = 2, .columns = 2, .heights = four, .origin = glm::vec3(k_inf)}),
                       doctest::Contains("origin"), glide::Error);
  CHECK_THROWS_WITH_AS(Heightfield({.rows = 2, .columns = 2, .heights = four, .height_scale = k_nan}),
                       doctest::Contains("height_scale"), glide::Error);
  CHECK_THROWS_AS(Heightfield({.rows = 2, .columns = 16386, .heights = std::vector<float>(2 * 16386)}), glide::Error);
  CHECK_THROWS_WITH_AS(Heightfield({.rows = 2, .columns = 2, .heights = {0.f, 1.f, k_nan, 0.f}}),
                       doctest::Contains("sample (row 1, column 0)"), glide::Error);
  CHECK_THROWS_AS(Heightfield({.rows = 2, .columns = 2, .heights = {0.f, 1.f, 0.f, 3e38f}, .height_scale = 10.f}),
                  glide::Error);
  // A default definition has no samples.
  CHECK_THROWS_WITH_AS(Heightfield(HeightfieldDef{}), doctest::Contains("0 x 0"), glide::Error);
}

TEST_CASE("cell sizes and heights outside the valid range are rejected; at its edges every answer is finite") {
  const std::vector<float> four{0.f, 1.f, 0.f, 2.f};
  // Tiny cells made normal_at and sample return (-inf, nan, inf).
  CHECK_THROWS_WITH_AS(Heightfield({.rows = 2, .columns = 2, .heights = four, .cell_size = glm::vec2(1e-25f, 1.f)}),
                       doctest::Contains("cell_size must be in [0.001, 2e+05] m, got (1e-25, 1)"), glide::Error);
  CHECK_THROWS_WITH_AS(
      Heightfield({.rows = 2, .columns = 2, .heights = {0.f, 0.f, 0.f, 0.f}, .cell_size = glm::vec2(1.f, 1e-20f)}),
      doctest::Contains("cell_size"), glide::Error);
  // The message gives the height as scaled, the value that is out of range.
  CHECK_THROWS_WITH_AS(
      Heightfield({.rows = 2, .columns = 2, .heights = {0.f, 1.f, 0.f, 2e5f}, .height_scale = 10.f}),
      doctest::Contains("sample (row 1, column 1) height 2e+05 is 2e+06 m after scale and offset, beyond 1e+06 m"),
      glide::Error);
  // Smallest cells, steepest heights: finite unit normals, finite heights.
  const float k = glide::limits::k_max_coordinate;
  const Heightfield steep({.rows = 3,
                           .columns = 3,
                           .heights = {-k, k, -k, k, -k, k, -k, k, -k},
                           .cell_size = glm::vec2(glide::limits::k_min_cell_size)});
  for (const glm::vec2 p : {glm::vec2(0.0004f, 0.0007f), glm::vec2(0.0015f, 0.0011f), glm::vec2(0.001f)}) {
    const glide::TerrainSample s = steep.sample(p.x, p.y);
    CHECK(s.inside);
    CHECK(std::isfinite(s.height));
    CHECK(finite(s.normal));
    CHECK(glm::length(s.normal) == doctest::Approx(1.f).epsilon(1e-4));
    CHECK(finite(steep.normal_at(p.x, p.y)));
  }
}

TEST_CASE("raycast hits planes at the analytic point with the analytic normal") {
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> x(-3, 21), z(-5, 7), unit(-1, 1), up(1, 8);
  int hits = 0;
  for (const Plane& p : planes) {
    const Heightfield field = plane_field(p);
    for (int i = 0; i < 2000; ++i) {
      // Aim at a random surface point from above the plane, along a random downward slant.
      const glm::dvec3 target(x(rng), 0, z(rng));
      const glm::dvec3 on(target.x, p.height(target.x, target.z), target.z);
      glm::dvec3 dir = glm::normalize(glm::dvec3(unit(rng), -1.0, unit(rng)));
      const glm::dvec3 n(-p.a, 1, -p.b);
      if (glm::dot(dir, n) > -0.05 * glm::length(n)) continue; // grazing: skip
      const double back = up(rng);
      const glm::vec3 o(on - dir * back), d(dir);
      // Analytic t on the float inputs.
      const double t_exact = (p.height(o.x, o.z) - o.y) / (d.y - p.a * d.x - p.b * d.z);
      const glm::dvec3 hit = glm::dvec3(o) + glm::dvec3(d) * t_exact;
      const bool inside = hit.x > -3 + 1e-3 && hit.x < 21 - 1e-3 && hit.z > -5 + 1e-3 && hit.z < 7 - 1e-3;
      const bool starts_inside = o.x > -3 && o.x < 21 && o.z > -5 && o.z < 7;
      if (!inside || !starts_inside) continue;
      const glide::TerrainRayHit h = field.raycast(o, d, 20.f);
      REQUIRE(h.hit);
      ++hits;
      CHECK_APPROX(h.t, static_cast<float>(t_exact), 1e-5f);
      CHECK_APPROX(h.point, glm::vec3(hit), 1e-5f);
      CHECK_APPROX(h.normal, p.normal(), 1e-5f);
      // A shorter ray stops before the surface.
      CHECK_FALSE(field.raycast(o, d, static_cast<float>(t_exact) * 0.99f).hit);
    }
  }
  CHECK(hits > 4000);
}

TEST_CASE("raycast agrees with a brute-force ray / triangle oracle on bumpy terrain") {
  const Heightfield field = bumpy_field(40, 37, glm::vec2(0.5f, 0.7f), glm::vec3(-4.f, -1.f, 3.f), 3.f, 4242);
  // x in [-4, 14], z in [3, 30.3]; heights in [-1, 2]
  std::mt19937 rng(4242);
  std::uniform_real_distribution<float> x(-6.f, 16.f), z(1.f, 32.f), y(-2.f, 4.f), unit(-1.f, 1.f), len(0.f, 30.f);
  int compared = 0, hits = 0;
  for (int i = 0; i < 3000; ++i) {
    const glm::vec3 o(x(rng), y(rng), z(rng));
    glm::vec3 d(unit(rng), unit(rng) - 0.3f, unit(rng));
    if (glm::length(d) < 1e-3f) continue;
    if (i % 3 == 0) d = glm::normalize(d);
    const float max_t = len(rng);
    const auto expected = glide::test::oracle_raycast(field, o, d, max_t);
    const glide::TerrainRayHit h = field.raycast(o, d, max_t);
    // Skip rays whose first hit is within rounding of an edge, a grazing angle or max_t.
    if (expected && (expected->edge_distance < 1e-4 || expected->t > max_t - 1e-4)) continue;
    if (expected) {
      const glm::dvec3 dd(d);
      if (-glm::dot(expected->normal, dd) < 1e-3 * glm::length(dd)) continue;
    }
    ++compared;
    REQUIRE(h.hit == expected.has_value());
    if (!h.hit) continue;
    ++hits;
    CHECK_APPROX(h.t, static_cast<float>(expected->t), 2e-5f * (1.f + expected->t));
    CHECK_APPROX(h.normal, glm::vec3(expected->normal), 1e-5f);
    CHECK_APPROX(h.point, o + d * h.t, 1e-4f);
    CHECK_APPROX(h.point.y, field.height_at(h.point.x, h.point.z), 1e-4f);
  }
  CHECK(compared > 2500);
  CHECK(hits > 500);
}

TEST_CASE("raycast: vertical rays, rays along grid lines and through vertices, rays from below") {
  const Heightfield field = bumpy_field(20, 20, glm::vec2(1.f), glm::vec3(0.f), 2.f, 3);
  for (int r = 0; r < 20; ++r)
    for (int c = 0; c < 20; ++c) {
      const glm::vec3 top(static_cast<float>(c), 5.f, static_cast<float>(r));
      const glide::TerrainRayHit down = field.raycast(top, {0.f, -2.f, 0.f}, 10.f);
      REQUIRE(down.hit); // exactly through a vertex
      CHECK_APPROX(down.point.y, field.height(r, c), 1e-5f);
      CHECK_APPROX(down.t, (5.f - field.height(r, c)) / 2.f, 1e-5f);
      // From below the surface going up: the top side does not face the ray.
      CHECK_FALSE(field.raycast({top.x, -3.f, top.z}, {0.f, 1.f, 0.f}, 10.f).hit);
    }
  // Along the grid line z = 7 and along the diagonal x = z, sloping down toward the terrain.
  for (const glm::vec3 d : {glm::vec3(1.f, -0.1f, 0.f), glm::vec3(1.f, -0.1f, 1.f), glm::vec3(-1.f, -0.1f, 0.f)}) {
    const glm::vec3 o = d.x > 0 ? glm::vec3(0.f, 3.f, d.z > 0 ? 0.f : 7.f) : glm::vec3(19.f, 3.f, 7.f);
    const glide::TerrainRayHit h = field.raycast(o, d, 100.f);
    REQUIRE(h.hit);
    CHECK_APPROX(h.point.y, field.height_at(h.point.x, h.point.z), 1e-5f);
    // Nothing closer: the ray stays above the surface before the hit.
    for (float t = 0.f; t < h.t; t += 0.01f) {
      const glm::vec3 p = o + d * t;
      CHECK(p.y >= field.height_at(p.x, p.z) - 1e-5f);
    }
  }
  // A ray outside the grid, and one above everything, miss.
  CHECK_FALSE(field.raycast({-5.f, 1.f, 3.f}, {0.f, -1.f, 0.f}, 10.f).hit);
  CHECK_FALSE(field.raycast({0.f, 3.f, 3.f}, {1.f, 0.f, 0.f}, 100.f).hit);
}

TEST_CASE("triangles_in reports every triangle that overlaps the box") {
  const Heightfield field = bumpy_field(30, 25, glm::vec2(0.8f, 0.6f), glm::vec3(1.f, 0.f, -2.f), 2.f, 77);
  std::mt19937 rng(77);
  std::uniform_real_distribution<float> x(-1.f, 22.f), z(-4.f, 18.f), y(-1.f, 3.f), size(0.f, 2.5f);
  int reported_total = 0, expected_total = 0;
  for (int i = 0; i < 300; ++i) {
    const glm::vec3 lo(x(rng), y(rng), z(rng));
    const glide::gjk::Aabb box{lo, lo + glm::vec3(size(rng), size(rng), size(rng))};
    std::vector<glide::gjk::Triangle> reported;
    field.triangles_in(box, [&](const glide::gjk::Triangle& t) { reported.push_back(t); });
    for (const auto& t : reported) {
      const glide::gjk::Aabb tb{glm::min(t.a, glm::min(t.b, t.c)), glm::max(t.a, glm::max(t.b, t.c))};
      CHECK(tb.overlaps(box));
    }
    for (int r = 0; r + 1 < field.rows(); ++r)
      for (int c = 0; c + 1 < field.columns(); ++c)
        for (const auto& t : field.cell_triangles(r, c)) {
          if (!glide::test::oracle_overlaps(t, box)) continue;
          ++expected_total;
          bool found = false;
          for (const auto& s : reported) found = found || (s.a == t.a && s.b == t.b && s.c == t.c);
          CHECK(found);
        }
    reported_total += static_cast<int>(reported.size());
  }
  CHECK(expected_total > 500);
  // The plane test keeps false positives rare.
  CHECK(reported_total <= expected_total + expected_total / 5);
  // A callback returning false stops the walk.
  int calls = 0;
  CHECK(field.triangles_in(field.bounds(), [&](const glide::gjk::Triangle&) { return ++calls < 3; }) == 3);
  CHECK(calls == 3);
  // Boxes outside the grid, above or below the terrain, or empty report nothing.
  const auto none = [&](const glide::gjk::Aabb& b) {
    return field.triangles_in(b, [](const glide::gjk::Triangle&) {}) == 0;
  };
  CHECK(none({{-5.f, 0.f, 0.f}, {-1.f, 2.f, 2.f}}));
  CHECK(none({{2.f, 2.5f, 0.f}, {4.f, 3.f, 2.f}}));
  CHECK(none({{2.f, -3.f, 0.f}, {4.f, -0.1f, 2.f}}));
  CHECK(none(glide::gjk::Aabb{}));
  CHECK(none({{k_nan, 0.f, 0.f}, {4.f, 1.f, 2.f}}));
}

TEST_CASE("raycast across many 16 x 16 blocks of very different heights agrees with the oracle") {
  // Plateaus of 0 to 12 m per 8 x 8 samples with small ripples: long shallow rays skip some
  // blocks above or below and must still find the first cliff or plateau they meet.
  const int n = 70;
  std::vector<float> heights;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      heights.push_back(static_cast<float>(((r / 8) * 5 + (c / 8) * 3) % 5) * 3.f + 0.1f * std::sin(0.7f * r + c));
  // x, z in [-10, 24.5]
  const Heightfield field(
      {.rows = n, .columns = n, .heights = heights, .cell_size = glm::vec2(0.5f), .origin = {-10.f, 0.f, -10.f}});
  std::mt19937 rng(31);
  std::uniform_real_distribution<float> xz(-12.f, 26.f), y(-1.f, 16.f), unit(-1.f, 1.f), slope(-0.3f, 0.05f);
  int compared = 0, hits = 0;
  for (int i = 0; i < 400; ++i) {
    const glm::vec3 o(xz(rng), y(rng), xz(rng));
    const glm::vec3 d = glm::normalize(glm::vec3(unit(rng), slope(rng), unit(rng)));
    const auto expected = glide::test::oracle_raycast(field, o, d, 60.0);
    if (expected && (expected->edge_distance < 1e-4 || -glm::dot(expected->normal, glm::dvec3(d)) < 1e-3)) continue;
    ++compared;
    const glide::TerrainRayHit h = field.raycast(o, d, 60.f);
    REQUIRE(h.hit == expected.has_value());
    if (!h.hit) continue;
    ++hits;
    CHECK_APPROX(h.t, static_cast<float>(expected->t), 1e-4f);
  }
  CHECK(compared > 350);
  CHECK(hits > 150);
}
