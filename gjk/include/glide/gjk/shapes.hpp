#pragma once

#include <glide/error.hpp>
#include <glide/gjk/aabb.hpp>
#include <glide/gjk/detail/fp_exact.hpp>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include <concepts>
#include <cstdint>
#include <span>

GLIDE_GJK_FP_EXACT_BEGIN

namespace glide::gjk {

/// A convex shape described by its support mapping: the point of the shape farthest along
/// `dir` (any point of the farthest face for flat directions). `dir` need not be unit length
/// and may be zero. GJK and the other queries are templates over this concept, so support
/// calls inline.
template <class S>
concept SupportMapping = requires(const S& shape, const glm::vec3& dir) {
  { shape.support(dir) } -> std::convertible_to<glm::vec3>;
};

/// A shape whose support points are numbered vertices (Segment, ConvexHull): GJK records
/// which vertices its simplex used, so a warm start can re-evaluate them without a search.
template <class S>
concept IndexedSupport = requires(const S& shape, const glm::vec3& dir, std::uint32_t i) {
  { shape.support_index(dir) } -> std::convertible_to<std::uint32_t>;
  { shape.vertex(i) } -> std::convertible_to<glm::vec3>;
  { shape.vertex_count() } -> std::convertible_to<std::uint32_t>;
};

struct Point {
  glm::vec3 position{0.f}; ///< (m)
  glm::vec3 support(const glm::vec3&) const { return position; }
};

struct Segment {
  glm::vec3 a{0.f}; ///< first end point (m)
  glm::vec3 b{0.f}; ///< second end point (m)
  // A plain branch: inside GJK successive directions mostly pick the same end (the world's
  // upright capsules, warm-started steps), and a compare-mask select measured slower there.
  glm::vec3 support(const glm::vec3& dir) const { return glm::dot(dir, b - a) > 0.f ? b : a; }
  /// 0 for a, 1 for b: the end support(dir) returns.
  std::uint32_t support_index(const glm::vec3& dir) const { return glm::dot(dir, b - a) > 0.f ? 1u : 0u; }
  glm::vec3 vertex(std::uint32_t i) const { return i != 0u ? b : a; }
  std::uint32_t vertex_count() const { return 2; }
};

struct Triangle {
  glm::vec3 a{0.f}, b{0.f}, c{0.f}; ///< corners (m)
  /// Compares the corners along the edges from a, not their coordinates: far from the
  /// origin (1e4 m) dot(dir, corner) would round away differences of a millimetre.
  glm::vec3 support(const glm::vec3& dir) const {
    const float db = glm::dot(dir, b - a), dc = glm::dot(dir, c - a);
    if (0.f >= db && 0.f >= dc) return a;
    return db >= dc ? b : c;
  }
};

/// The convex hull of a run of points it does not own, with no hull built: support() scans
/// every point, which suits small clouds and points that change (vertices placed in the world,
/// as World::world_vertices gives them). ConvexHull, which hill-climbs, suits large ones. The
/// points must outlive the cloud.
class PointCloud {
public:
  /// Throws glide::Error for an empty span: an empty cloud has no support point.
  explicit PointCloud(std::span<const glm::vec3> points) : points_(points) {
    if (points_.empty()) throw glide::Error("gjk::PointCloud: points must not be empty");
  }
  std::span<const glm::vec3> points() const { return points_; }
  /// The first of the points farthest along `dir` (the first point for a zero direction).
  glm::vec3 support(const glm::vec3& dir) const {
    std::size_t best = 0;
    float best_dot = glm::dot(dir, points_[0]);
    for (std::size_t i = 1; i < points_.size(); ++i) {
      const float d = glm::dot(dir, points_[i]);
      if (d > best_dot) {
        best_dot = d;
        best = i;
      }
    }
    return points_[best];
  }

private:
  std::span<const glm::vec3> points_;
};

/// Axis-aligned box centred on the origin; place it with Transformed.
struct Box {
  glm::vec3 half_extents{0.5f}; ///< half size along x, y, z (m, >= 0)
  glm::vec3 support(const glm::vec3& dir) const {
    return {dir.x >= 0.f ? half_extents.x : -half_extents.x, dir.y >= 0.f ? half_extents.y : -half_extents.y,
            dir.z >= 0.f ? half_extents.z : -half_extents.z};
  }
};

/// Rounded shape: a point core inflated by a radius. Queries take the core and apply the
/// radius to the result, so GJK never iterates on the curved surface.
struct Sphere {
  glm::vec3 center{0.f}; ///< (m)
  float radius = 0.5f;   ///< (m, >= 0)
  glm::vec3 support(const glm::vec3& dir) const {
    const float len = glm::length(dir);
    return len > 0.f ? center + dir * (radius / len) : center;
  }
};

/// Rounded shape: a segment core (the character's inner segment) inflated by a radius.
struct Capsule {
  Segment segment;     ///< inner segment (m)
  float radius = 0.5f; ///< (m, >= 0)
  glm::vec3 support(const glm::vec3& dir) const {
    const float len = glm::length(dir);
    return len > 0.f ? segment.support(dir) + dir * (radius / len) : segment.support(dir);
  }
};

/// The smallest axis-aligned box around a capsule: its segment's box grown by the radius.
inline Aabb capsule_bounds(const Capsule& c) {
  return Aabb::of_point(c.segment.a).merged(c.segment.b).expanded(c.radius);
}

/// Cylinder along the Y axis, centred on the origin.
struct Cylinder {
  float half_height = 0.5f; ///< (m, >= 0)
  float radius = 0.5f;      ///< (m, >= 0)
  glm::vec3 support(const glm::vec3& dir) const {
    const float lateral = glm::sqrt(dir.x * dir.x + dir.z * dir.z);
    const float y = dir.y >= 0.f ? half_height : -half_height;
    if (lateral > 0.f) return {dir.x * (radius / lateral), y, dir.z * (radius / lateral)};
    return {0.f, y, 0.f};
  }
};

/// Cone along the Y axis: apex at +half_height, base disc of `radius` at -half_height.
struct Cone {
  float half_height = 0.5f; ///< (m, >= 0)
  float radius = 0.5f;      ///< base radius (m, >= 0)
  glm::vec3 support(const glm::vec3& dir) const {
    const float lateral = glm::sqrt(dir.x * dir.x + dir.z * dir.z);
    const glm::vec3 apex{0.f, half_height, 0.f};
    glm::vec3 rim{0.f, -half_height, 0.f};
    if (lateral > 0.f) rim += glm::vec3{dir.x * (radius / lateral), 0.f, dir.z * (radius / lateral)};
    return glm::dot(dir, apex) >= glm::dot(dir, rim) ? apex : rim;
  }
};

/// A rigid placement: rotate, then translate.
struct Transform {
  glm::quat rotation{1.f, 0.f, 0.f, 0.f}; ///< unit quaternion (w, x, y, z)
  glm::vec3 translation{0.f};             ///< (m)

  glm::vec3 apply(const glm::vec3& p) const { return rotation * p + translation; }
  glm::vec3 apply_inverse(const glm::vec3& p) const { return glm::conjugate(rotation) * (p - translation); }
};

/// S placed in the world: support(d) = R·S.support(R⁻¹·d) + t.
template <SupportMapping S>
struct Transformed {
  S shape;
  Transform transform;
  glm::vec3 support(const glm::vec3& dir) const {
    return transform.apply(shape.support(glm::conjugate(transform.rotation) * dir));
  }
};

/// S swept along `motion`: the convex hull of S and S + motion.
template <SupportMapping S>
struct Swept {
  S shape;
  glm::vec3 motion{0.f}; ///< (m)
  glm::vec3 support(const glm::vec3& dir) const {
    const glm::vec3 p = shape.support(dir);
    return glm::dot(dir, motion) > 0.f ? p + motion : p;
  }
};

template <SupportMapping S>
Transformed(S, Transform) -> Transformed<S>;
template <SupportMapping S>
Swept(S, glm::vec3) -> Swept<S>;

// Rounded shapes enter the queries as their core plus a radius.
template <SupportMapping S>
const S& core_of(const S& shape) {
  return shape;
}
inline Point core_of(const Sphere& s) { return Point{s.center}; }
inline const Segment& core_of(const Capsule& c) { return c.segment; }

template <SupportMapping S>
float radius_of(const S&) {
  return 0.f;
}
inline float radius_of(const Sphere& s) { return s.radius; }
inline float radius_of(const Capsule& c) { return c.radius; }

} // namespace glide::gjk

GLIDE_GJK_FP_EXACT_END
