// Quickhull in double precision on points taken relative to the cloud's centroid, with one
// distance tolerance eps = relative_tolerance · radius used everywhere: merging, "outside a
// face", flatness (thin clouds are built in a stretched frame with eps scaled alike, see
// stretch_thin). A point is only ever added when it lies more than eps above a face, so
// every new triangle is at least eps high over its horizon edge and normals stay well defined.
#include "quickhull.hpp"
#include "quickhull_3d.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace glide::gjk::detail {
namespace {

using glm::dvec3;

/// Input indices of the points kept after merging: a point within eps of an earlier kept
/// point is dropped. Candidates come from a sort along a skew axis: points within eps of each
/// other project within eps of each other, and exact ties (a face of a box) are unlikely.
std::vector<std::uint32_t> merge_duplicates(const std::vector<dvec3>& p, double eps) {
  const dvec3 axis = glm::normalize(dvec3(0.6123, 0.5389, 0.5786));
  std::vector<std::pair<double, std::uint32_t>> order(p.size());
  for (std::uint32_t i = 0; i < p.size(); ++i) order[i] = {glm::dot(axis, p[i]), i};
  std::sort(order.begin(), order.end());
  std::vector<std::uint32_t> rank(p.size());
  for (std::uint32_t r = 0; r < order.size(); ++r) rank[order[r].second] = r;
  std::vector<bool> is_kept(p.size(), false);
  std::vector<std::uint32_t> kept;
  for (std::uint32_t i = 0; i < p.size(); ++i) {
    const double key = order[rank[i]].first;
    bool merged = false;
    // Walk outwards from i's slot both ways while the projections stay within eps. An exact
    // copy of an earlier point goes where that point went (and ends the walk early, so a
    // cloud of copies costs O(n log n)).
    const auto merges_into = [&](std::uint32_t j) {
      return j < i && (p[i] == p[j] || (is_kept[j] && glm::length(p[i] - p[j]) <= eps));
    };
    for (std::uint32_t r = rank[i]; r-- > 0 && !merged && key - order[r].first <= eps;)
      merged = merges_into(order[r].second);
    for (std::uint32_t r = rank[i] + 1; r < order.size() && !merged && order[r].first - key <= eps; ++r)
      merged = merges_into(order[r].second);
    if (merged) continue;
    is_kept[i] = true;
    kept.push_back(i);
  }
  return kept;
}

/// The id maximising value(); among those within eps of the maximum, the one farthest from
/// the centroid. That distance is strictly convex, so on exact ties (a face or edge of points
/// parallel to the measured plane or line) the pick is a corner, never a mid-face point.
template <class Value>
std::uint32_t pick_extreme(const std::vector<dvec3>& p, std::span<const std::uint32_t> ids, double eps, Value value,
                           double* best_value = nullptr) {
  double best = -INFINITY;
  for (std::uint32_t i : ids) best = std::max(best, value(p[i]));
  std::uint32_t pick = ids[0];
  double far = -1.0;
  for (std::uint32_t i : ids)
    if (value(p[i]) >= best - eps && glm::dot(p[i], p[i]) > far) {
      far = glm::dot(p[i], p[i]);
      pick = i;
    }
  if (best_value) *best_value = best;
  return pick;
}

struct Pass {
  int dimension = 0;
  std::vector<std::uint32_t> vertices; ///< input indices
  std::vector<Triangle3> triangles;    ///< dimension 3, input indices
  std::vector<std::uint32_t> polygon;  ///< dimension 2, input indices in order
  dvec3 normal{0.0};                   ///< dimension 2: the plane's normal
};

/// 2D hull (Andrew's monotone chain) of coplanar points; a middle point within eps of the
/// line through its neighbours is dropped. Counter-clockwise around u × w.
std::vector<std::uint32_t> polygon_hull(const std::vector<dvec3>& p, std::span<const std::uint32_t> ids,
                                        const dvec3& origin, const dvec3& u, const dvec3& w, double eps) {
  struct P2 {
    double x, y;
    std::uint32_t id;
  };
  std::vector<P2> pts;
  pts.reserve(ids.size());
  for (std::uint32_t i : ids) pts.push_back({glm::dot(p[i] - origin, u), glm::dot(p[i] - origin, w), i});
  std::sort(pts.begin(), pts.end(), [](const P2& a, const P2& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  const auto keeps_turn = [eps](const P2& o, const P2& a, const P2& b) {
    const double cross = (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
    return cross > eps * std::hypot(b.x - o.x, b.y - o.y);
  };
  std::vector<P2> chain;
  for (int pass = 0; pass < 2; ++pass) {
    const std::size_t base = chain.size();
    for (std::size_t k = 0; k < pts.size(); ++k) {
      const P2& q = pass == 0 ? pts[k] : pts[pts.size() - 1 - k];
      while (chain.size() >= base + 2 && !keeps_turn(chain[chain.size() - 2], chain.back(), q)) chain.pop_back();
      chain.push_back(q);
    }
    chain.pop_back(); // the last point starts the other chain
  }
  std::vector<std::uint32_t> out;
  for (const P2& q : chain) out.push_back(q.id);
  return out;
}

Pass run_pass(const std::vector<dvec3>& p, std::span<const std::uint32_t> ids, double eps) {
  Pass out;
  if (ids.size() == 1) {
    out.vertices = {ids[0]};
    return out;
  }
  const std::uint32_t a = pick_extreme(p, ids, eps, [](const dvec3& q) { return glm::length(q); });
  const std::uint32_t b = pick_extreme(p, ids, eps, [&](const dvec3& q) { return glm::length(q - p[a]); });
  const dvec3 u = glm::normalize(p[b] - p[a]);
  double line_distance = 0.0;
  const std::uint32_t c = pick_extreme(
      p, ids, eps, [&](const dvec3& q) { return glm::length(glm::cross(q - p[a], u)); }, &line_distance);
  if (!(line_distance > eps)) {
    out.dimension = 1;
    const std::uint32_t lo = pick_extreme(p, ids, eps, [&](const dvec3& q) { return -glm::dot(q, u); });
    const std::uint32_t hi = pick_extreme(p, ids, eps, [&](const dvec3& q) { return glm::dot(q, u); });
    out.vertices = {std::min(lo, hi), std::max(lo, hi)};
    return out;
  }
  const dvec3 n = glm::normalize(glm::cross(p[b] - p[a], p[c] - p[a]));
  double plane_distance = 0.0;
  const std::uint32_t d = pick_extreme(
      p, ids, eps, [&](const dvec3& q) { return std::abs(glm::dot(q - p[a], n)); }, &plane_distance);
  if (!(plane_distance > eps)) {
    out.polygon = polygon_hull(p, ids, p[a], u, glm::cross(n, u), eps);
    if (out.polygon.size() >= 3) {
      out.dimension = 2;
      out.normal = n;
      out.vertices = out.polygon;
      return out;
    }
    // Unreachable in exact arithmetic (c is eps off the line); keep the two extremes.
    out.dimension = 1;
    out.vertices = {std::min(a, b), std::max(a, b)};
    return out;
  }
  out.dimension = 3;
  out.triangles = Builder3(p, eps).build(ids, {a, b, c, d});
  for (const Triangle3& t : out.triangles) out.vertices.insert(out.vertices.end(), t.v.begin(), t.v.end());
  std::sort(out.vertices.begin(), out.vertices.end());
  out.vertices.erase(std::unique(out.vertices.begin(), out.vertices.end()), out.vertices.end());
  return out;
}

/// Quickhull's "more than eps above a face" test fails for thin clouds: beyond the sharp rim
/// of a thin slab a point far outside is within eps of both nearly parallel faces. Hull
/// vertices are invariant under linear maps, so a thin cloud is stretched along its thin
/// axes (from the initial simplex: A->B, the farthest offset from that line, the farthest
/// offset from that plane) until it is about as thick as it is long, and built there.
std::vector<dvec3> stretch_thin(const std::vector<dvec3>& p, std::span<const std::uint32_t> ids, double eps) {
  if (ids.size() < 4) return p;
  const std::uint32_t a = pick_extreme(p, ids, eps, [](const dvec3& q) { return glm::length(q); });
  const std::uint32_t b = pick_extreme(p, ids, eps, [&](const dvec3& q) { return glm::length(q - p[a]); });
  const double length = glm::length(p[b] - p[a]);
  const dvec3 u = (p[b] - p[a]) / length;
  double width = 0.0, thickness = 0.0;
  const std::uint32_t c = pick_extreme(
      p, ids, eps, [&](const dvec3& q) { return glm::length(glm::cross(q - p[a], u)); }, &width);
  if (!(width > eps)) return p;
  const dvec3 n = glm::normalize(glm::cross(p[b] - p[a], p[c] - p[a]));
  pick_extreme(
      p, ids, eps, [&](const dvec3& q) { return std::abs(glm::dot(q - p[a], n)); }, &thickness);
  if (!(thickness > eps) || (width > 0.25 * length && thickness > 0.25 * length)) return p;
  const dvec3 w = glm::cross(n, u);
  const double sw = std::max(1.0, length / width), sn = std::max(1.0, length / thickness);
  std::vector<dvec3> q(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    const dvec3 r = p[i] - p[a];
    q[i] = glm::dot(r, u) * u + sw * glm::dot(r, w) * w + sn * glm::dot(r, n) * n;
  }
  return q;
}

} // namespace

QuickhullResult quickhull(std::span<const glm::vec3> points, double relative_tolerance) {
  dvec3 centroid{0.0};
  for (const glm::vec3& q : points) centroid += dvec3(q);
  centroid /= static_cast<double>(points.size());
  std::vector<dvec3> p(points.size());
  double radius = 0.0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    p[i] = dvec3(points[i]) - centroid;
    radius = std::max(radius, glm::length(p[i]));
  }

  QuickhullResult result;
  if (!(radius > 0.0)) {
    result.vertices = {0};
    return result;
  }
  const double eps = relative_tolerance * radius;
  std::vector<std::uint32_t> ids = merge_duplicates(p, eps);
  // Build in the stretched space (the tolerance scales with it; merging stays in real space).
  const std::vector<dvec3> q = stretch_thin(p, ids, eps);
  double stretched_radius = 0.0;
  for (std::uint32_t i : ids) stretched_radius = std::max(stretched_radius, glm::length(q[i]));
  const double eps_q = eps * std::max(1.0, stretched_radius / radius);
  Pass pass = run_pass(q, ids, eps_q);
  // Ties in quickhull can make a point on a face or edge a vertex; drop such vertices and
  // rebuild from the rest until none is left (each round removes points, so this ends).
  for (int round = 0; round < 8 && pass.dimension == 3; ++round) {
    std::vector<std::uint32_t> kept = extreme_vertices(q, pass.triangles, eps_q);
    if (kept.size() == pass.vertices.size()) break;
    ids = std::move(kept);
    pass = run_pass(q, ids, eps_q);
  }

  result.dimension = pass.dimension;
  result.vertices = pass.vertices;
  std::sort(result.vertices.begin(), result.vertices.end());
  std::vector<std::uint32_t> index_of(points.size(), 0);
  for (std::uint32_t k = 0; k < result.vertices.size(); ++k) index_of[result.vertices[k]] = k;
  const auto make_triangle = [&](std::uint32_t i, std::uint32_t j, std::uint32_t k, const dvec3& normal) {
    HullTriangle t;
    t.vertices = {index_of[i], index_of[j], index_of[k]};
    t.normal = normal;
    t.offset = glm::dot(normal, (p[i] + p[j] + p[k]) / 3.0) + glm::dot(normal, centroid);
    return t;
  };
  if (pass.dimension == 3) {
    for (const Triangle3& t : pass.triangles) {
      // Normals in real space (the triangles may come from the stretched one).
      const dvec3 c = glm::cross(p[t.v[1]] - p[t.v[0]], p[t.v[2]] - p[t.v[0]]);
      const double length = glm::length(c);
      result.triangles.push_back(make_triangle(t.v[0], t.v[1], t.v[2], length > 0.0 ? c / length : t.normal));
    }
  } else if (pass.dimension == 2) {
    const std::vector<std::uint32_t>& poly = pass.polygon;
    for (std::uint32_t id : poly) result.polygon.push_back(index_of[id]);
    for (std::size_t k = 1; k + 1 < poly.size(); ++k)
      result.triangles.push_back(make_triangle(poly[0], poly[k], poly[k + 1], pass.normal));
    for (std::size_t k = 1; k + 1 < poly.size(); ++k)
      result.triangles.push_back(make_triangle(poly[0], poly[k + 1], poly[k], -pass.normal));
  }
  return result;
}

} // namespace glide::gjk::detail
