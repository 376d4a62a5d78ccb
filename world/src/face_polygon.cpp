#include <glide/world/face_polygon.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace glide {

namespace {

bool coplanar(const gjk::HullFace& f, const gjk::HullFace& g) {
  return glm::dot(f.normal, g.normal) >= 1.f - 1e-5f &&
         std::abs(f.offset - g.offset) <= 1e-5f * (1.f + std::abs(f.offset));
}

bool has_edge(const gjk::HullFace& g, std::uint32_t from, std::uint32_t to) {
  for (std::size_t i = 0; i < 3; ++i)
    if (g.vertices[i] == from && g.vertices[(i + 1) % 3] == to) return true;
  return false;
}

} // namespace

FacePolygon::FacePolygon(const gjk::ConvexHull& hull, const gjk::Transform& transform, const glm::vec3& normal,
                         const glm::vec3& point) {
  const glm::vec3 n = glm::conjugate(transform.rotation) * normal;
  const std::span<const gjk::HullFace> faces = hull.faces();
  const std::span<const glm::vec3> v = hull.vertices();
  const auto face = std::find_if(faces.begin(), faces.end(),
                                 [&](const gjk::HullFace& f) { return glm::dot(f.normal, n) >= 1.f - 1e-5f; });
  if (face == faces.end()) return;
  // Everything is kept in world space, where the queries are, so a query rotates nothing.
  normal_ = transform.rotation * face->normal;
  const glm::vec3 on_plane = transform.apply(v[face->vertices[0]]);
  offset_ = glm::dot(normal_, on_plane);
  // The rim: edges of the coplanar triangles that no other of them shares (reversed).
  for (const gjk::HullFace& g : faces) {
    if (!coplanar(*face, g)) continue;
    for (std::size_t i = 0; i < 3; ++i) {
      const std::uint32_t from = g.vertices[i], to = g.vertices[(i + 1) % 3];
      const bool inner = std::any_of(faces.begin(), faces.end(), [&](const gjk::HullFace& h) {
        return &h != &g && coplanar(*face, h) && has_edge(h, to, from);
      });
      if (inner) continue;
      if (edge_count_ == k_max_edges) {
        edge_count_ = 0;
        return;
      }
      add_rim_edge(transform.apply(v[from]), transform.apply(v[to]));
    }
  }
  keep_if_inside(point);
}

FacePolygon::FacePolygon(const gjk::Triangle& triangle, const glm::vec3& normal, const glm::vec3& point) {
  // A triangle is flat: it lies in its plane, behind it seen from either side. Its face is
  // the side `normal` (from the closest points) looks out of.
  const glm::vec3 n = glm::cross(triangle.b - triangle.a, triangle.c - triangle.a);
  const float length = glm::length(n);
  if (!(length > 0.f) || !(std::abs(glm::dot(n, normal)) >= (1.f - 1e-5f) * length)) return;
  normal_ = glm::dot(n, normal) > 0.f ? n / length : -n / length;
  offset_ = glm::dot(normal_, triangle.a);
  const bool counter_clockwise = glm::dot(n, normal_) > 0.f;
  const glm::vec3& second = counter_clockwise ? triangle.b : triangle.c;
  const glm::vec3& third = counter_clockwise ? triangle.c : triangle.b;
  add_rim_edge(triangle.a, second);
  add_rim_edge(second, third);
  add_rim_edge(third, triangle.a);
  keep_if_inside(point);
}

void FacePolygon::add_rim_edge(const glm::vec3& from, const glm::vec3& to) {
  // Counter-clockwise seen from outside: the inside is to the left, along normal x edge.
  const glm::vec3 edge = to - from;
  const glm::vec3 inward = glm::cross(normal_, edge);
  extent_ = std::max({extent_, glm::length(from), glm::length(to)});
  rim_[static_cast<std::size_t>(edge_count_++)] =
      glm::vec4(inward, glm::dot(inward, from) + 1e-6f * glm::dot(edge, edge));
}

void FacePolygon::keep_if_inside(const glm::vec3& point) {
  if (!inside(point - normal_ * (glm::dot(normal_, point) - offset_))) edge_count_ = 0;
}

bool FacePolygon::inside(const glm::vec3& q) const {
  if (edge_count_ == 0) return false;
  for (int i = 0; i < edge_count_; ++i) {
    const glm::vec4& r = rim_[static_cast<std::size_t>(i)];
    if (!(glm::dot(glm::vec3(r), q) > r.w)) return false;
  }
  return true;
}

bool FacePolygon::holds(const glm::vec3& point, float margin) const {
  if (empty() || !on_plane(point, margin)) return false;
  for (int i = 0; i < edge_count_; ++i) {
    const glm::vec4& r = rim_[static_cast<std::size_t>(i)];
    const glm::vec3 inward(r);
    if (!(glm::dot(inward, point) - r.w > margin * glm::length(inward))) return false;
  }
  return true;
}

bool FacePolygon::distance(const gjk::Segment& segment, gjk::DistanceResult& out) const {
  if (empty()) return false;
  const glm::vec3 &a = segment.a, &b = segment.b;
  const float ga = glm::dot(normal_, a) - offset_, gb = glm::dot(normal_, b) - offset_;
  if (!(std::min(ga, gb) > 0.f)) return false;
  // Along the face every point of the segment is nearest: of those over the face, take the
  // one nearest b. Otherwise the lower end is the only candidate.
  const bool along = runs_along(ga, gb);
  float lo = 0.f, hi = 1.f;
  if (!along) lo = hi = gb < ga ? 1.f : 0.f;
  const glm::vec3 pa = a - normal_ * ga, pb = b - normal_ * gb; // projections of the ends
  for (int i = 0; i < edge_count_ && lo <= hi; ++i) {
    const glm::vec4& r = rim_[static_cast<std::size_t>(i)];
    const float fa = glm::dot(glm::vec3(r), pa) - r.w, fb = glm::dot(glm::vec3(r), pb) - r.w;
    // Inside where fa + s (fb - fa) > 0.
    if (fa <= 0.f && fb <= 0.f) return false;
    if (fa <= 0.f) lo = std::max(lo, fa / (fa - fb));
    if (fb <= 0.f) hi = std::min(hi, fa / (fa - fb));
  }
  if (!(lo <= hi)) return false;
  finish_distance(segment, ga, gb, hi, out);
  return true;
}

void FacePolygon::finish_distance(const gjk::Segment& segment, float ga, float gb, float s,
                                  gjk::DistanceResult& out) const {
  const glm::vec3 &a = segment.a, &b = segment.b;
  out = {};
  out.distance = ga + s * (gb - ga);
  out.normal = normal_;
  out.point_a = a + s * (b - a);
  out.point_b = out.point_a - normal_ * out.distance;
}

// Not along the face, distance() takes the nearer end alone (lo = hi = s): it holds when that
// end's projection is inside every edge, and the walk over the rim changes nothing else.
bool FacePolygon::distance_within(const gjk::Segment& segment, InsideDisc& disc, gjk::DistanceResult& out,
                                  float& inside_by) const {
  if (empty()) return false;
  const glm::vec3 &a = segment.a, &b = segment.b;
  const float ga = glm::dot(normal_, a) - offset_, gb = glm::dot(normal_, b) - offset_;
  if (!(std::min(ga, gb) > 0.f)) return false;
  if (runs_along(ga, gb)) return false;
  const float s = gb < ga ? 1.f : 0.f;
  const glm::vec3 end = s == 0.f ? a - normal_ * ga : b - normal_ * gb; // as distance() projects it
  float moved = glm::length(end - disc.centre);
  if (!(moved < disc.radius)) {
    disc = {end, clearance(end) - 2.f * rounding(end)};
    moved = 0.f;
    if (!(disc.radius > 0.f)) return false;
  }
  inside_by = disc.radius - moved;
  finish_distance(segment, ga, gb, s, out);
  return true;
}

float FacePolygon::clearance(const glm::vec3& q) const {
  float least = std::numeric_limits<float>::infinity();
  for (int i = 0; i < edge_count_; ++i) {
    const glm::vec4& r = rim_[static_cast<std::size_t>(i)];
    const glm::vec3 inward(r);
    least = std::min(least, (glm::dot(inward, q) - r.w) / glm::length(inward));
  }
  return least;
}

bool FacePolygon::time_of_impact(const gjk::Segment& segment, float radius, const glm::vec3& motion,
                                 const gjk::DistanceResult& start, float tolerance, gjk::ToiResult& out) const {
  gjk::DistanceResult here;
  if (!distance(segment, here)) return false;
  out = {};
  if (start.distance <= radius) { // touching already: reported as conservative advancement does
    out.hit = true;
    out.t = 0.f;
    out.point = start.point_b;
    out.normal = start.normal;
    return true;
  }
  const float closing = -glm::dot(here.normal, motion);
  if (!(closing > 0.f)) return true; // leaving the plane the whole hull lies behind
  const float reach = (here.distance - radius) / closing;
  if (reach > 1.f) return true;
  gjk::DistanceResult there;
  if (!distance({segment.a + motion * reach, segment.b + motion * reach}, there)) return false;
  out.hit = true;
  out.t = std::max(0.f, reach - 0.25f * tolerance / glm::length(motion));
  out.normal = there.normal;
  out.point = there.point_b;
  return true;
}

} // namespace glide
