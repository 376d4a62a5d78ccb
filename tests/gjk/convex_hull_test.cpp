#include "approx.hpp"
#include "convex_hull_oracle.hpp"

#include <glide/error.hpp>
#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/detail/hull_scan.hpp>

#include <glm/common.hpp>
#include <glm/vector_relational.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using glide::gjk::ConvexHull;
using glide::gjk::ConvexHullSettings;
using glm::dvec3;
using namespace hull_oracle;

namespace {

constexpr std::uint32_t k_never = std::numeric_limits<std::uint32_t>::max();
ConvexHullSettings scan_only() { return {.hill_climb_min_vertices = k_never, .warm_hill_climb_min_vertices = k_never}; }
ConvexHullSettings climb_always() { return {.hill_climb_min_vertices = 0, .warm_hill_climb_min_vertices = 0}; }

std::vector<glm::vec3> cube_with_surface_points(int per_face, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::uniform_int_distribution<int> pick(0, 2);
  std::vector<glm::vec3> pts;
  for (int i = 0; i < 8; ++i) pts.push_back({i & 1 ? 1.f : -1.f, i & 2 ? 1.f : -1.f, i & 4 ? 1.f : -1.f});
  for (int k = 0; k < 6 * per_face; ++k) {
    glm::vec3 p{u(rng), u(rng), u(rng)};
    p[pick(rng)] = k % 2 ? 1.f : -1.f; // on a face
    pts.push_back(p);
    glm::vec3 e{u(rng), k % 3 ? 1.f : -1.f, k % 5 ? 1.f : -1.f}; // on an edge
    pts.push_back(e);
    pts.push_back(0.9f * glm::vec3{u(rng), u(rng), u(rng)}); // inside
  }
  std::shuffle(pts.begin(), pts.end(), rng);
  return pts;
}

} // namespace

TEST_CASE("ConvexHull support picks the extreme point") {
  const std::vector<glm::vec3> cube{{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                                    {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {1, 1, 1}};
  const ConvexHull hull(cube);
  CHECK_APPROX(hull.support({1, 2, -3}), glm::vec3(1, 1, -1), 0);
  CHECK_APPROX(hull.support({-1, -2, 3}), glm::vec3(-1, -1, 1), 0);
}

TEST_CASE("ConvexHull rejects empty and non-finite input with a message naming the value") {
  CHECK_THROWS_AS(ConvexHull(std::vector<glm::vec3>{}), glide::Error);
  const std::vector<glm::vec3> bad{{0, 0, 0}, {1, std::numeric_limits<float>::quiet_NaN(), 0}};
  CHECK_THROWS_WITH_AS(ConvexHull{bad}, doctest::Contains("point 1"), glide::Error);
  const std::vector<glm::vec3> inf{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 0, std::numeric_limits<float>::infinity()}};
  CHECK_THROWS_WITH_AS(ConvexHull{inf}, doctest::Contains("point 3"), glide::Error);
  CHECK_THROWS_WITH_AS(ConvexHull{inf}, doctest::Contains("inf"), glide::Error);
  CHECK_THROWS_WITH_AS(ConvexHull(std::vector<glm::vec3>{}), doctest::Contains("no points"), glide::Error);
  const std::vector<glm::vec3> fine{{0, 0, 0}, {1, 0, 0}};
  CHECK_THROWS_WITH_AS(ConvexHull(fine, {.tolerance = -1.f}), doctest::Contains("tolerance"), glide::Error);
  CHECK_THROWS_WITH_AS(ConvexHull(fine, {.tolerance = std::numeric_limits<float>::quiet_NaN()}),
                       doctest::Contains("tolerance"), glide::Error);
}

TEST_CASE("ConvexHull of a cube with points on its faces, edges and inside keeps the 8 corners") {
  std::mt19937 rng(12345);
  const std::vector<glm::quat> rotations{glm::quat(1, 0, 0, 0), glm::normalize(glm::quat(0.9f, 0.2f, -0.3f, 0.1f))};
  for (const glm::vec3 offset : {glm::vec3(0.f), glm::vec3(1e4f, -1e4f, 5e3f)})
    for (const glm::quat& r : rotations) {
      CAPTURE(offset);
      std::vector<glm::vec3> corners, pts = cube_with_surface_points(30, rng);
      const bool rotated = r.w != 1.f;
      // Rotated points are rounded to float, so points on faces sit up to ~1e-7 off them:
      // within the default tolerance near the origin; far away only the unrotated cube is exact.
      if (rotated && offset != glm::vec3(0.f)) continue;
      for (auto& p : pts) {
        const bool corner = std::abs(p.x) == 1.f && std::abs(p.y) == 1.f && std::abs(p.z) == 1.f;
        p = r * (0.5f * p) + offset;
        if (corner) corners.push_back(p);
      }
      for (const auto& settings : {scan_only(), climb_always()}) {
        const ConvexHull hull(pts, settings);
        CHECK(hull.dimension() == 3);
        CHECK(hull.faces().size() == 12);
        CHECK(positions(hull.vertices()) == positions(corners));
        const Cloud cloud = measure(pts);
        check_solid_hull(hull, cloud, 1e-6 * cloud.radius);
        check_support(hull, cloud, rng, 200, 1e-6 * (cloud.radius + glm::length(d3(offset))));
        glm::vec3 lo = corners[0], hi = corners[0];
        for (const auto& p : corners) lo = glm::min(lo, p), hi = glm::max(hi, p);
        CHECK(hull.bounds_min() == lo);
        CHECK(hull.bounds_max() == hi);
      }
    }
}

TEST_CASE("ConvexHull of a flat cloud keeps the polygon's corners") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (const glm::vec3 offset : {glm::vec3(0.f), glm::vec3(-1e4f, 2e3f, 1e4f)}) {
    // A square in the plane y = 3 with points inside and on its sides.
    std::vector<glm::vec3> pts{{-1, 3, -1}, {1, 3, -1}, {1, 3, 1}, {-1, 3, 1}};
    for (int k = 0; k < 200; ++k) {
      pts.push_back({u(rng), 3, u(rng)});
      pts.push_back({k % 2 ? 1.f : -1.f, 3, u(rng)});
      pts.push_back({u(rng), 3, k % 2 ? 1.f : -1.f});
    }
    std::vector<glm::vec3> corners(pts.begin(), pts.begin() + 4);
    for (auto& p : pts) p += offset;
    for (auto& p : corners) p += offset;
    std::shuffle(pts.begin(), pts.end(), rng);
    for (const auto& settings : {scan_only(), climb_always()}) {
      const ConvexHull hull(pts, settings);
      CHECK(hull.dimension() == 2);
      CHECK(hull.is_flat());
      CHECK(positions(hull.vertices()) == positions(corners));
      REQUIRE(hull.faces().size() == 4); // two triangles facing up, two facing down
      int up = 0, down = 0;
      for (const auto& f : hull.faces()) {
        up += f.normal.y > 0.999f;
        down += f.normal.y < -0.999f;
        CHECK(std::abs(f.offset - f.normal.y * (3.f + offset.y)) <= 1e-6f * (1.f + std::abs(offset.y)));
      }
      CHECK(up == 2);
      CHECK(down == 2);
      for (std::uint32_t i = 0; i < 4; ++i) CHECK(hull.neighbors(i).size() == 2);
      const Cloud cloud = measure(pts);
      check_support(hull, cloud, rng, 200, 1e-6 * (cloud.radius + glm::length(d3(offset))));
    }
  }
}

TEST_CASE("ConvexHull of random coplanar clouds matches the brute-force 2D hull") {
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::uniform_int_distribution<int> count(3, 48);
  for (int c = 0; c < 200; ++c) {
    // Points in an axis plane (exact in float), scaled and moved.
    const int axis = c % 3;
    const float scale = std::pow(10.f, static_cast<float>(c % 5) - 2.f);
    std::vector<glm::vec3> pts(static_cast<std::size_t>(count(rng)));
    for (auto& p : pts) {
      p = scale * glm::vec3{u(rng), u(rng), u(rng)};
      p[axis] = 0.5f * scale;
    }
    // Brute force: a point is a corner iff it is not inside or on a triangle or segment of
    // the others (2D, exact enough in double for these float inputs).
    const int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    const auto cross = [&](const glm::vec3& o, const glm::vec3& a, const glm::vec3& b) {
      return (double(a[a1]) - o[a1]) * (double(b[a2]) - o[a2]) - (double(a[a2]) - o[a2]) * (double(b[a1]) - o[a1]);
    };
    std::set<std::array<float, 3>> expected;
    const std::size_t n = pts.size();
    for (std::size_t q = 0; q < n; ++q) {
      bool corner = false;
      // q is a corner iff some supporting line through q and another point has all points
      // on one side, with q an end of the points on that line.
      for (std::size_t j = 0; j < n && !corner; ++j) {
        if (pts[j] == pts[q]) continue;
        bool left = false, right = false, beyond = false;
        const dvec3 dq = d3(pts[q]), dj = d3(pts[j]);
        for (std::size_t k = 0; k < n; ++k) {
          const double s = cross(pts[q], pts[j], pts[k]);
          left |= s > 0;
          right |= s < 0;
          if (s == 0 && glm::dot(d3(pts[k]) - dq, dj - dq) < 0) beyond = true; // q is not an end
        }
        corner = !(left && right) && !beyond;
      }
      if (corner) expected.insert({pts[q].x, pts[q].y, pts[q].z});
    }
    bool collinear = expected.size() <= 2;
    const ConvexHull hull(pts, c % 2 ? scan_only() : climb_always());
    CHECK(hull.dimension() == (collinear ? 1 : 2));
    CHECK(positions(hull.vertices()) == expected);
    const Cloud cloud = measure(pts);
    check_support(hull, cloud, rng, 20, 1e-6 * cloud.radius);
  }
}

TEST_CASE("ConvexHull of collinear, single-point and duplicate clouds") {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  for (const glm::vec3 offset : {glm::vec3(0.f), glm::vec3(1e4f, 1e4f, -1e4f)}) {
    // Collinear along an axis: exact in float, so only the two ends are corners.
    std::vector<glm::vec3> line{offset + glm::vec3(0, 0, 0), offset + glm::vec3(0, 4, 0)};
    for (int k = 0; k < 100; ++k) line.push_back(offset + glm::vec3(0, 4.f * u(rng), 0));
    std::shuffle(line.begin(), line.end(), rng);
    const ConvexHull segment(line);
    CHECK(segment.dimension() == 1);
    CHECK(positions(segment.vertices()) == positions(std::vector<glm::vec3>{offset, offset + glm::vec3(0, 4, 0)}));
    CHECK(segment.faces().empty());
    CHECK(segment.support({0.1f, 1.f, 0.3f}) == offset + glm::vec3(0, 4, 0));
    CHECK(segment.support({0.1f, -1.f, 0.3f}) == offset);
  }
  // A tilted line, rounded to float: kept as its two ends (within tolerance of the line).
  std::vector<glm::vec3> tilted;
  for (int k = 0; k <= 50; ++k) tilted.push_back(glm::vec3(1, 2, 3) + (k / 50.f) * glm::vec3(0.3f, -0.7f, 0.2f));
  std::shuffle(tilted.begin(), tilted.end(), rng);
  const ConvexHull t(tilted);
  CHECK(t.dimension() == 1);
  CHECK(t.vertices().size() == 2);
  CHECK_APPROX(t.support({0.3f, -0.7f, 0.2f}), glm::vec3(1.3f, 1.3f, 3.2f), 1e-6f);

  const std::vector<glm::vec3> one{{1e4f, -2.f, 3.f}};
  const ConvexHull point(one);
  CHECK(point.dimension() == 0);
  CHECK(point.vertices().size() == 1);
  CHECK(point.support({0, 0, 0}) == one[0]);
  CHECK(point.support({1, 0, 0}) == one[0]);
  const std::vector<glm::vec3> same(50, glm::vec3(-3.f, 0.5f, 7.f));
  const ConvexHull dup(same, climb_always());
  CHECK(dup.vertices().size() == 1);
  CHECK(dup.support({0, -1, 0}) == same[0]);
  CHECK(dup.bounds_min() == same[0]);
  CHECK(dup.bounds_max() == same[0]);
}

TEST_CASE("ConvexHull merges near-duplicates within the tolerance") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> jitter(-1e-7f, 1e-7f);
  std::vector<glm::vec3> corners, pts;
  for (int i = 0; i < 8; ++i) corners.push_back({i & 1 ? 2.f : 0.f, i & 2 ? 3.f : 1.f, i & 4 ? 1.f : -1.f});
  pts = corners;
  for (int k = 0; k < 10; ++k)
    for (const auto& c : corners) pts.push_back(c + glm::vec3{jitter(rng), jitter(rng), jitter(rng)});
  std::shuffle(pts.begin(), pts.end(), rng);
  const ConvexHull hull(pts);
  CHECK(hull.vertices().size() == 8);
  // Each kept vertex is within the tolerance (1e-6 of the radius) of a true corner.
  const double radius = measure(pts).radius;
  for (const auto& v : hull.vertices()) {
    double nearest = INFINITY;
    for (const auto& c : corners) nearest = std::min(nearest, glm::length(d3(v) - d3(c)));
    CHECK(nearest <= 1e-6 * radius);
  }
  // A coarser tolerance merges coarser clusters.
  std::vector<glm::vec3> blobs;
  std::uniform_real_distribution<float> spread(-1e-3f, 1e-3f);
  for (int k = 0; k < 20; ++k)
    for (const auto& c : corners) blobs.push_back(c + glm::vec3{spread(rng), spread(rng), spread(rng)});
  CHECK(ConvexHull(blobs, {.tolerance = 0.01f}).vertices().size() == 8);
}

TEST_CASE("ConvexHull of points on a sphere keeps them all") {
  std::mt19937 rng(11);
  for (const int n : {20, 200, 1000}) {
    std::vector<glm::vec3> pts;
    const float golden = 2.39996323f;
    for (int i = 0; i < n; ++i) {
      const float y = 1.f - 2.f * (static_cast<float>(i) + 0.5f) / static_cast<float>(n);
      const float r = std::sqrt(1.f - y * y);
      pts.push_back(glm::vec3{r * std::cos(golden * i), y, r * std::sin(golden * i)} * 3.f + glm::vec3(5, -2, 1));
    }
    for (const auto& settings : {scan_only(), climb_always(), ConvexHullSettings{}}) {
      const ConvexHull hull(pts, settings);
      CHECK(hull.vertices().size() == static_cast<std::size_t>(n));
      CHECK(positions(hull.vertices()) == positions(pts));
      const Cloud cloud = measure(pts);
      check_solid_hull(hull, cloud, 1e-6 * cloud.radius);
      check_support(hull, cloud, rng, 300, 1e-6 * 10.0);
    }
    CHECK_FALSE(ConvexHull(pts, scan_only()).uses_hill_climbing());
    CHECK(ConvexHull(pts, climb_always()).uses_hill_climbing());
  }
}

TEST_CASE("ConvexHull of random clouds matches brute-force extreme points and support") {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::uniform_real_distribution<float> exponent(-2.f, 2.f);
  std::normal_distribution<float> g;
  int exact_compared = 0, ambiguous = 0;
  for (int c = 0; c < 1000; ++c) {
    CAPTURE(c);
    const bool small = c % 2 == 0;
    const int n = small ? 4 + c % 29 : 33 + (c * 37) % 224; // 4..32 brute force; 33..256 certificates
    const float scale = std::pow(10.f, exponent(rng));
    const bool far = c % 4 == 1 || c % 4 == 2;
    const glm::vec3 center = far ? 1e4f * glm::normalize(glm::vec3{g(rng), g(rng), g(rng)}) : glm::vec3(0.f);
    std::vector<glm::vec3> pts(static_cast<std::size_t>(n));
    // Cube, shell, and (every fifth cloud) a slab 1e-5..1e-3 of its width thick, where
    // quickhull's plane-distance test needs the stretched build.
    const float thickness = std::pow(10.f, -5.f + 2.f * std::abs(u(rng)));
    for (auto& p : pts) {
      glm::vec3 q{u(rng), u(rng), u(rng)};
      if (c % 3 == 0) q = glm::normalize(glm::vec3{g(rng), g(rng), g(rng)}) * (0.8f + 0.2f * std::abs(u(rng)));
      if (c % 5 == 4) q.y *= thickness;
      p = center + scale * q;
    }
    const Cloud cloud = measure(pts);
    CAPTURE(scale);
    CAPTURE(center);
    const double eps = 1e-6 * cloud.radius; // the default tolerance
    const ConvexHull scanned(pts, scan_only()), climbed(pts, climb_always());
    if (scanned.dimension() < 3) {
      CHECK(c % 5 == 4); // only a slab, flattened by float rounding far out, may come out flat
      continue;
    }
    CHECK(positions(scanned.vertices()) == positions(climbed.vertices()));
    check_solid_hull(scanned, cloud, 4 * eps);
    // Support: dropped points lie within a few eps of the hull; float dot products of the
    // centred vertices add ~1e-7 of the radius, and the far dot products of the oracle ~1e-7 of 1e4.
    const double support_tol = 8 * eps + 1e-7 * glm::length(d3(center));
    check_support(scanned, cloud, rng, 24, support_tol);
    check_support(climbed, cloud, rng, 24, support_tol);
    if (small) {
      ++exact_compared;
      const auto expected = brute_vertices(pts, 1e-12 * cloud.radius);
      const auto got = positions(scanned.vertices());
      // On a disagreement, settle it by how far the point rises above the hull of the others:
      // a kept point must rise above it; a dropped one may only if by less than a few eps.
      for (std::size_t q = 0; q < pts.size(); ++q) {
        const std::array<float, 3> key{pts[q].x, pts[q].y, pts[q].z};
        if (expected.count(key) == got.count(key)) continue;
        const double rise = brute_rise_above_others(pts, q, 1e-12 * cloud.radius);
        if (got.count(key)) {
          CHECK_MESSAGE(rise > 1e-12 * cloud.radius, "kept point " << q << " rises only " << rise);
        } else {
          CHECK_MESSAGE(rise <= 4 * eps, "dropped point " << q << " rises " << rise << " above the others");
          ++ambiguous;
        }
      }
    }
  }
  CHECK(exact_compared >= 450);
  MESSAGE("tolerance-ambiguous points: " << ambiguous);
  CHECK(ambiguous <= 5);
}

TEST_CASE("ConvexHull numbers its vertices and scans up to 191 vertices by default") {
  static_assert(glide::gjk::IndexedSupport<ConvexHull>);
  std::mt19937 rng(11);
  std::normal_distribution<float> g;
  for (const std::size_t n : {std::size_t{5}, std::size_t{191}, std::size_t{192}}) {
    std::vector<glm::vec3> pts(n);
    for (auto& p : pts) p = glm::normalize(glm::vec3{g(rng), g(rng), g(rng)}); // all on the sphere: all kept
    const ConvexHull hull(pts);
    REQUIRE(hull.vertex_count() == n);
    CHECK(hull.uses_hill_climbing() == (n >= 192));
    CHECK(hull.uses_warm_hill_climbing() == (n >= 192));
    for (std::uint32_t i = 0; i < hull.vertex_count(); ++i) CHECK(hull.vertex(i) == hull.vertices()[i]);
    // support_index names the vertex support returns, and it is a maximum.
    for (int k = 0; k < 100; ++k) {
      const glm::vec3 dir{g(rng), g(rng), g(rng)};
      const std::uint32_t i = hull.support_index(dir);
      REQUIRE(i < hull.vertex_count());
      CHECK(hull.vertex(i) == hull.support(dir));
      float best = -INFINITY;
      for (const glm::vec3& v : hull.vertices()) best = std::max(best, glm::dot(dir, v));
      CHECK(glm::dot(dir, hull.vertex(i)) >= best - 1e-5f);
    }
  }
}

TEST_CASE("ConvexHull queries are total and the hull copies") {
  std::mt19937 rng(8);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<glm::vec3> pts(300);
  for (auto& p : pts) p = {u(rng), u(rng), u(rng)};
  const ConvexHull hull(pts, climb_always());
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const glm::vec3 dir : {glm::vec3(0.f), glm::vec3(nan), glm::vec3(1e-30f, 0, 0), glm::vec3(1e30f, -1e30f, 0)}) {
    int hint = 12345;
    const glm::vec3 s = hull.support(dir, hint);
    CHECK(hint >= 0);
    CHECK(static_cast<std::size_t>(hint) < hull.vertices().size());
    CHECK(std::isfinite(s.x));
    CHECK(std::isfinite(hull.support(dir).x));
  }
  ConvexHull copy = hull;
  const ConvexHull moved = std::move(copy);
  for (int k = 0; k < 50; ++k) {
    const glm::vec3 dir{u(rng), u(rng), u(rng)};
    CHECK(moved.support(dir) == hull.support(dir));
  }
  CHECK(moved.faces().size() == hull.faces().size());
  for (const auto& v : hull.vertices()) {
    CHECK(glm::all(glm::lessThanEqual(hull.bounds_min(), v)));
    CHECK(glm::all(glm::lessThanEqual(v, hull.bounds_max())));
  }
}

TEST_CASE("Cold hill climbs start along the nearest of the 26 cube directions") {
  // Brute force: the largest dot product with the normalised directions; a different cell
  // passes only when it is as near (a tie, within rounding).
  const auto direction = [](std::uint32_t cell) {
    return glm::normalize(glide::gjk::detail::cube_cell_direction(cell));
  };
  std::mt19937 rng(26);
  std::normal_distribution<float> g;
  std::uniform_int_distribution<int> pick(0, 4);
  for (int i = 0; i < 100000; ++i) {
    glm::vec3 d{g(rng), g(rng), g(rng)};
    // Exact ties and zero components too: directions along axes, edges and corners.
    if (i % 7 == 0) d[pick(rng) % 3] = 0.f;
    if (i % 11 == 0) d.y = std::abs(d.x);
    if (i % 13 == 0) d = glm::vec3(1, -1, 1) * std::abs(d.x);
    if (d == glm::vec3(0.f)) continue;
    float best = -2.f;
    for (std::uint32_t cell = 0; cell < 27; ++cell)
      if (cell != 13) best = std::max(best, glm::dot(d, direction(cell)));
    const std::uint32_t got = glide::gjk::detail::nearest_cube_cell(d);
    CAPTURE(d);
    REQUIRE(got < 27);
    REQUIRE(got != 13);
    CHECK(glm::dot(d, direction(got)) >= best - 1e-6f * glm::length(d));
  }
  CHECK(glide::gjk::detail::nearest_cube_cell(glm::vec3(0.f)) == 0u);
}
