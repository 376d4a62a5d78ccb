// FacePolygon against GJK: its exact face answers must equal the general ones wherever it
// gives any, and it must give them for the common cases (standing on a face, sliding along).
#include "approx.hpp"
#include "world_levels.hpp"

#include <glide/gjk/distance.hpp>
#include <glide/gjk/toi.hpp>
#include <glide/world/face_polygon.hpp>

#include <doctest/doctest.h>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include <cmath>
#include <random>
#include <vector>

using namespace glide;

namespace {

struct Placed {
  gjk::ConvexHull hull;
  gjk::Transform transform;
  std::vector<glm::vec3> world;
  glm::vec3 support(const glm::vec3& d) const {
    glm::vec3 best = world[0];
    for (const glm::vec3& v : world)
      if (glm::dot(v, d) > glm::dot(best, d)) best = v;
    return best;
  }
};

Placed place(gjk::ConvexHull hull, const gjk::Transform& t) {
  Placed p{std::move(hull), t, {}};
  for (const glm::vec3& v : p.hull.vertices()) p.world.push_back(t.apply(v));
  return p;
}

Placed random_piece(std::mt19937& rng, int i) {
  std::uniform_real_distribution<float> unit(-1.f, 1.f), size(0.2f, 2.f);
  std::normal_distribution<float> gauss;
  gjk::ConvexHull hull;
  if (i % 2 == 0) {
    hull = gjk::ConvexHull::box({size(rng), size(rng), size(rng)});
  } else {
    std::vector<glm::vec3> points;
    for (int k = 0; k < 12; ++k) points.push_back(size(rng) * glm::vec3{unit(rng), unit(rng), unit(rng)});
    hull = gjk::ConvexHull(points);
  }
  const gjk::Transform t{glm::normalize(glm::quat(gauss(rng), gauss(rng), gauss(rng), gauss(rng))),
                         {10.f * unit(rng), 10.f * unit(rng), 10.f * unit(rng)}};
  return place(std::move(hull), t);
}

gjk::Segment random_segment_near(std::mt19937& rng, const Placed& p) {
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  const glm::vec3 c = p.transform.translation;
  const glm::vec3 a = c + 3.f * glm::vec3{unit(rng), unit(rng), unit(rng)};
  return {a, a + glm::vec3{unit(rng), unit(rng), unit(rng)}};
}

} // namespace

TEST_CASE("FacePolygon distances equal GJK wherever it answers") {
  std::mt19937 rng(4242);
  int answered = 0, asked = 0;
  for (int piece = 0; piece < 200; ++piece) {
    const Placed p = random_piece(rng, piece);
    FacePolygon face;
    gjk::Segment s = random_segment_near(rng, p);
    std::uniform_real_distribution<float> step(-0.05f, 0.05f);
    for (int q = 0; q < 40; ++q) {
      // A segment drifting a few centimetres per query, as a character does per frame.
      const glm::vec3 drift{step(rng), step(rng), step(rng)};
      s = {s.a + drift, s.b + drift};
      const gjk::DistanceResult d = gjk::distance(s, p);
      if (d.distance <= 0.f) continue;
      ++asked;
      gjk::DistanceResult f;
      if (face.distance(s, f)) {
        ++answered;
        const float scale = 1.f + d.distance;
        CHECK_APPROX(f.distance, d.distance, 2e-5f * scale);
        CHECK_APPROX(glm::length(f.point_a - f.point_b), f.distance, 1e-5f * scale);
        // Its points are on the shapes: point_b on the hull's surface, point_a on the segment.
        CHECK(gjk::distance(gjk::Segment{f.point_b, f.point_b}, p).distance <= 2e-5f * scale);
        CHECK(gjk::distance(gjk::Segment{f.point_a, f.point_a}, gjk::Segment{s}).distance <= 2e-5f * scale);
      }
      // Learn the face of this query, as NearbyPieces does after a GJK query.
      face = FacePolygon(p.hull, p.transform, d.normal, d.point_b);
    }
  }
  CHECK(answered > asked / 5); // drifting queries often share the face: the check is not vacuous
}

TEST_CASE("FacePolygon time of impact agrees with bisection wherever it answers") {
  std::mt19937 rng(777);
  std::uniform_real_distribution<float> unit(-1.f, 1.f), length(0.01f, 4.f);
  const gjk::ToiSettings settings;
  int answered = 0, hits = 0;
  for (int piece = 0; piece < 200; ++piece) {
    const Placed p = random_piece(rng, piece);
    for (int q = 0; q < 20; ++q) {
      const gjk::Segment s = random_segment_near(rng, p);
      const gjk::DistanceResult start = gjk::distance(s, p);
      if (start.distance <= 0.f) continue;
      const FacePolygon face(p.hull, p.transform, start.normal, start.point_b);
      // Mostly toward the piece, some motions along or away from it.
      const glm::vec3 motion =
          length(rng) * glm::normalize(-start.normal + 0.7f * glm::vec3{unit(rng), unit(rng), unit(rng)});
      const float radius = 0.3f;
      gjk::ToiResult got;
      if (!face.time_of_impact(s, radius, motion, start, settings.tolerance, got)) continue;
      ++answered;
      const gjk::ToiResult expected = gjk::toi_bisection(s, radius, motion, p, settings);
      REQUIRE(got.hit == expected.hit);
      if (!got.hit) continue;
      ++hits;
      // Both at most one tolerance before the contact along the motion.
      CHECK(std::abs(got.t - expected.t) * glm::length(motion) <= 1.01f * settings.tolerance);
      CHECK(glm::dot(got.normal, expected.normal) > 0.999f);
      const gjk::Segment at{s.a + motion * got.t, s.b + motion * got.t};
      if (start.distance > radius) CHECK(gjk::distance(at, p).distance >= radius); // conservative: never inside
    }
  }
  CHECK(answered > 500);
  CHECK(hits > 200);
}

TEST_CASE("FacePolygon along a wall reports the contact nearest the segment's b end") {
  // A wall 1 m high facing -x; an upright segment from 0.3 to 1.5 m beside it, 0.31 m away.
  const Placed wall = place(gjk::ConvexHull::box({0.5f, 0.5f, 2.f}), gjk::Transform{{1, 0, 0, 0}, {1.f, 0.5f, 0.f}});
  const gjk::Segment s{{0.19f, 0.3f, 0.f}, {0.19f, 1.5f, 0.f}};
  const gjk::DistanceResult d = gjk::distance(s, wall);
  const FacePolygon face(wall.hull, wall.transform, d.normal, {0.5f, 0.5f, 0.f});
  REQUIRE_FALSE(face.empty());
  CHECK_APPROX(face.normal(), glm::vec3(-1, 0, 0), 1e-6f);
  gjk::DistanceResult f;
  REQUIRE(face.distance(s, f));
  CHECK_APPROX(f.distance, 0.31f, 1e-6f);
  CHECK_APPROX(f.point_a, glm::vec3(0.19f, 1.f, 0.f), 1e-5f); // the wall's top, within the margin
  CHECK_APPROX(f.point_b, glm::vec3(0.5f, 1.f, 0.f), 1e-5f);

  // holds(): on the face and at least the margin inside its rim (the wall's top is at y = 1).
  CHECK(face.holds({0.5f, 0.5f, 1.f}, 1e-4f));
  CHECK_FALSE(face.holds({0.5f, 0.99995f, 1.f}, 1e-4f));
  CHECK_FALSE(face.holds({0.4998f, 0.5f, 1.f}, 1e-4f));

  // Not over the face at all (beyond its side), and a point on an edge: no answer.
  CHECK_FALSE(face.distance({{0.19f, 0.3f, 2.5f}, {0.19f, 1.5f, 2.5f}}, f));
  CHECK(FacePolygon(wall.hull, wall.transform, glm::normalize(glm::vec3(-1, 1, 0)), {0.5f, 1.f, 0.f}).empty());
}

TEST_CASE("FacePolygon keeps faces of up to k_max_edges edges") {
  const auto prism = [](int sides) {
    std::vector<glm::vec3> points;
    for (int i = 0; i < sides; ++i) {
      const float a = 6.2831853f * static_cast<float>(i) / static_cast<float>(sides);
      points.push_back({std::cos(a), 0.f, std::sin(a)});
      points.push_back({std::cos(a), 1.f, std::sin(a)});
    }
    return place(gjk::ConvexHull(points), {});
  };
  const Placed eight = prism(8), sixteen = prism(16);
  CHECK_FALSE(FacePolygon(eight.hull, eight.transform, {0, 1, 0}, {0.1f, 1.f, 0.1f}).empty());
  CHECK(FacePolygon(sixteen.hull, sixteen.transform, {0, 1, 0}, {0.1f, 1.f, 0.1f}).empty());
}

TEST_CASE("FacePolygon of a terrain triangle equals GJK from either side") {
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> unit(-1.f, 1.f), step(-0.05f, 0.05f);
  int answered = 0, below = 0;
  for (int t = 0; t < 300; ++t) {
    const glm::vec3 c{10.f * unit(rng), 10.f * unit(rng), 10.f * unit(rng)};
    const gjk::Triangle tri{c + 2.f * glm::vec3{unit(rng), unit(rng), unit(rng)},
                            c + 2.f * glm::vec3{unit(rng), unit(rng), unit(rng)},
                            c + 2.f * glm::vec3{unit(rng), unit(rng), unit(rng)}};
    gjk::Segment s{c + glm::vec3{unit(rng), unit(rng), unit(rng)}, c + glm::vec3{unit(rng), unit(rng), unit(rng)}};
    FacePolygon face;
    for (int q = 0; q < 30; ++q) {
      const glm::vec3 drift{step(rng), step(rng), step(rng)};
      s = {s.a + drift, s.b + drift};
      const gjk::DistanceResult d = gjk::distance(s, tri);
      if (d.distance <= 0.f) continue;
      gjk::DistanceResult f;
      if (face.distance(s, f)) {
        ++answered;
        below += glm::dot(f.normal, glm::cross(tri.b - tri.a, tri.c - tri.a)) < 0.f;
        CHECK_APPROX(f.distance, d.distance, 2e-5f * (1.f + d.distance));
        CHECK(gjk::distance(gjk::Segment{f.point_b, f.point_b}, tri).distance <= 2e-5f);
      }
      face = FacePolygon(tri, d.normal, d.point_b);
    }
  }
  CHECK(answered > 1000);
  CHECK(below > 200); // both sides of the triangle were met
}

namespace {

bool same_bits(const gjk::DistanceResult& a, const gjk::DistanceResult& b) {
  return a.distance == b.distance && a.normal == b.normal && a.point_a == b.point_a && a.point_b == b.point_b;
}

} // namespace

TEST_CASE("FacePolygon::distance_within equals distance() to the bit, and holds_inside_by equals holds") {
  // Segments walking over a face (upright, tilted, nearly along it), across its rim and off it;
  // ordinary pieces, slivers and pieces thousands of metres from the origin.
  std::mt19937 rng(5150);
  std::uniform_real_distribution<float> unit(-1.f, 1.f), gap(0.001f, 0.5f);
  int asked = 0, answered = 0, walked_rim = 0, refused_inside = 0, holds_checked = 0;
  for (int piece = 0; piece < 300; ++piece) {
    Placed p = random_piece(rng, piece);
    if (piece % 3 == 1) // far from the origin
      p = place(p.hull, {p.transform.rotation, p.transform.translation + glm::vec3(4000.f, -2500.f, 3000.f)});
    if (piece % 3 == 2) // a sliver: a box 1 cm thick
      p = place(gjk::ConvexHull::box({2.f * (unit(rng) + 1.1f), 0.005f, 0.5f * (unit(rng) + 1.1f)}), p.transform);
    // A face of the hull, from a point inside one of its triangles.
    const gjk::HullFace& f = p.hull.faces()[rng() % p.hull.faces().size()];
    const std::span<const glm::vec3> v = p.hull.vertices();
    const glm::vec3 on_face = p.transform.apply((v[f.vertices[0]] + v[f.vertices[1]] + v[f.vertices[2]]) / 3.f);
    const FacePolygon face(p.hull, p.transform, p.transform.rotation * f.normal, on_face);
    if (face.empty()) continue;
    const glm::vec3 n = face.normal();
    // Upright on the face, tilted, or nearly along it (then the answer is distance()'s alone).
    const int kind = piece % 4;
    const glm::vec3 axis =
        glm::normalize(kind == 3 ? glm::cross(n, glm::vec3(unit(rng), unit(rng), unit(rng))) + 1e-7f * n
                                 : n + (kind == 2 ? 0.6f : 0.f) * glm::vec3(unit(rng), unit(rng), unit(rng)));
    glm::vec3 foot = on_face + n * gap(rng);
    FacePolygon::InsideDisc disc;
    for (int q = 0; q < 60; ++q) {
      // Centimetre steps along the face, now and then a stride that may cross the rim.
      const float stride = q % 15 == 14 ? 1.5f : 0.03f;
      glm::vec3 step{unit(rng), unit(rng), unit(rng)};
      step = stride * (step - n * glm::dot(step, n));
      foot += step;
      const gjk::Segment s{foot, foot + axis * (0.5f + 0.5f * (unit(rng) + 1.f))};
      gjk::DistanceResult want, got;
      float inside_by = -1.f;
      const bool full = face.distance(s, want);
      const bool quick = face.distance_within(s, disc, got, inside_by);
      ++asked;
      if (!quick) {
        walked_rim += !full;
        refused_inside += full;
        if (!full) foot -= step; // back onto the face: the walk stays about its rim
        continue;
      }
      ++answered;
      REQUIRE(full);
      CHECK(same_bits(got, want));
      CHECK(inside_by > 0.f);
      for (const float margin : {1e-4f + 1e-6f * glm::length(got.point_b), 1e-3f, 0.05f, 0.4f}) {
        CHECK(face.holds_inside_by(got.point_b, margin, inside_by) == face.holds(got.point_b, margin));
        ++holds_checked;
      }
    }
  }
  CHECK(answered > asked / 3);
  CHECK(walked_rim > 500);   // walks left their face often
  CHECK(refused_inside > 0); // nearly along a face it refuses, and distance() answers
  CHECK(holds_checked > 4 * 2000);
}
