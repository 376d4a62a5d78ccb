// Terrain through the GJK path: the triangles triangles_in hands out, fed to gjk::distance
// with a vertical segment (the character's capsule core), must describe the same surface as
// height_at, and match a brute-force segment / triangle oracle over the whole field.
#include "approx.hpp"
#include "terrain_oracles.hpp"

#include <glide/gjk/distance.hpp>
#include <glide/terrain/heightfield.hpp>

#include <cmath>
#include <random>

using glide::Heightfield;
using glide::gjk::Segment;
using glide::gjk::Triangle;

namespace {

struct TerrainDistance {
  float distance = INFINITY; ///< smallest GJK distance over the triangles found (m)
  int triangles = 0;
  /// No invalid_input. A few runs end `degenerate` (rounding stopped progress, e.g. a
  /// segment parallel to a triangle edge); their distance is still checked below.
  bool valid = true;
};

/// GJK distance from `segment` to the terrain, over the triangles within `reach` of it.
TerrainDistance gjk_distance(const Heightfield& field, const Segment& segment, float reach) {
  const glide::gjk::Aabb box =
      glide::gjk::Aabb{glm::min(segment.a, segment.b), glm::max(segment.a, segment.b)}.expanded(reach);
  TerrainDistance out;
  field.triangles_in(box, [&](const Triangle& t) {
    const glide::gjk::DistanceResult r = glide::gjk::distance(segment, t);
    out.valid = out.valid && r.status != glide::gjk::Status::invalid_input;
    out.distance = std::min(out.distance, r.distance);
    ++out.triangles;
  });
  return out;
}

double oracle_distance(const Heightfield& field, const Segment& s) {
  double best = 1e300;
  for (int r = 0; r + 1 < field.rows(); ++r)
    for (int c = 0; c + 1 < field.columns(); ++c)
      if (!field.is_hole(r, c))
        for (const Triangle& t : field.cell_triangles(r, c))
          best = std::min(best, glide::test::segment_triangle_distance(glm::dvec3(s.a), glm::dvec3(s.b), t));
  return best;
}

} // namespace

TEST_CASE("GJK distance from a vertical segment to a sloped plane is the height gap times cos(slope)") {
  // Slopes up to 72 degrees: steep terrain is a wall to the capsule like any convex piece.
  struct Plane {
    double a, b, c;
  };
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> x(2.f, 14.f), z(2.f, 10.f), gap(0.01f, 1.f);
  for (const Plane p : {Plane{0, 0, 1}, Plane{0.3, -0.2, 2}, Plane{-1, 0.5, 0}, Plane{3, 0, -4}}) {
    const Heightfield field = glide::test::field_from(13, 17, glm::vec2(1.f), glm::vec3(0.f),
                                                      [&](double px, double pz) { return p.a * px + p.b * pz + p.c; });
    const double cos_slope = 1.0 / std::sqrt(1 + p.a * p.a + p.b * p.b);
    for (int i = 0; i < 500; ++i) {
      const float px = x(rng), pz = z(rng), d = gap(rng);
      const float bottom = field.height_at(px, pz) + d;
      const Segment core{{px, bottom, pz}, {px, bottom + 1.2f, pz}};
      const TerrainDistance got = gjk_distance(field, core, d + 0.01f);
      REQUIRE(got.triangles > 0);
      CHECK(got.valid);
      CHECK_APPROX(got.distance, static_cast<float>(d * cos_slope), 2e-5f);
    }
  }
}

TEST_CASE("GJK distance to triangles_in agrees with height_at and a brute-force oracle on bumpy terrain") {
  Heightfield field = glide::test::bumpy_field(16, 14, glm::vec2(0.9f, 1.1f), glm::vec3(-2.f, 0.5f, 1.f), 1.5f, 5);
  field.set_hole(7, 7);
  std::mt19937 rng(777);
  std::uniform_real_distribution<float> x(-1.f, 8.f), z(2.f, 15.f), gap(0.f, 0.8f);
  int above = 0, piercing = 0;
  for (int i = 0; i < 600; ++i) {
    const float px = x(rng), pz = z(rng), d = gap(rng);
    const glide::TerrainSample ground = field.sample(px, pz);
    REQUIRE(std::isfinite(ground.height));
    if (i % 2 == 0) {
      // Bottom d above the surface: the vertical path bounds the distance, which is positive.
      const Segment core{{px, ground.height + d, pz}, {px, ground.height + d + 1.f, pz}};
      const TerrainDistance got = gjk_distance(field, core, d + 0.01f);
      const double oracle = oracle_distance(field, core);
      CHECK(got.valid);
      if (oracle > d + 0.005) continue; // only through a hole: nothing within reach
      ++above;
      CHECK(got.distance <= d + 2e-5f);
      CHECK_APPROX(got.distance, static_cast<float>(oracle), 2e-5f);
      if (d > 1e-3f) CHECK(got.distance > 0.f);
    } else {
      // Bottom below the surface, top above: the segment pierces the terrain, except in a hole.
      const Segment core{{px, ground.height - d - 0.01f, pz}, {px, ground.height + 0.5f, pz}};
      const TerrainDistance got = gjk_distance(field, core, 0.01f);
      if (!ground.inside) continue;
      ++piercing;
      CHECK(got.distance <= 1e-5f);
    }
  }
  CHECK(above > 250);
  CHECK(piercing > 250);
}
