#pragma once

#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/shapes.hpp>
#include <glide/gjk/toi.hpp>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <array>
#include <cmath>

namespace glide {

/// One face of a placed convex hull — its coplanar triangles merged into a convex polygon —
/// kept to answer, without GJK, the queries whose closest points lie inside it: a capsule
/// standing on a floor or sliding along a wall. The whole hull lies behind the face's plane,
/// so when the segment's nearest point to that plane projects inside the face, that point and
/// its projection are the closest pair, exactly.
class FacePolygon {
public:
  static constexpr int k_max_edges = 8; ///< larger faces are not kept (count)

  FacePolygon() = default;
  /// The face of `hull` (placed by `transform`) with outward normal `normal` (world, unit)
  /// whose interior holds `point` (world, on the face); empty when there is none (the point
  /// is on an edge or a vertex) or the face has more than k_max_edges edges.
  FacePolygon(const gjk::ConvexHull& hull, const gjk::Transform& transform, const glm::vec3& normal,
              const glm::vec3& point);

  /// A terrain triangle as a face: the side `normal` (world, unit, from the closest points)
  /// looks out of; empty unless `point` (world) is inside it.
  FacePolygon(const gjk::Triangle& triangle, const glm::vec3& normal, const glm::vec3& point);

  bool empty() const { return edge_count_ == 0; }

  /// The distance from `segment` when its nearest point projects inside the face, by a margin
  /// of a millionth of the face's size (closer to the rim GJK decides). When the segment runs
  /// along the face, the pair reported is the one nearest its `b` end over the face.
  bool distance(const gjk::Segment& segment, gjk::DistanceResult& out) const;

  /// A disc on the plane whose points all lie inside the rim, by more than the rounding of
  /// the tests that ask it (distance()'s and holds()'s): a walk across the face asks the rim
  /// once per disc instead of once per query.
  struct InsideDisc {
    glm::vec3 centre{0.f};
    float radius = -1.f; ///< (m); not positive: no disc yet
  };

  /// distance(), the same result to the bit, for a segment whose nearest point is one of its
  /// ends (it does not run along the face): the rim is walked only when that end's projection
  /// leaves `disc`, which is then moved there. `inside_by` (m) is how far inside the rim the
  /// projection lies, at least. False where distance() would be false or the segment runs
  /// along the face.
  bool distance_within(const gjk::Segment& segment, InsideDisc& disc, gjk::DistanceResult& out, float& inside_by) const;

  /// Time of impact of the segment with `radius` moving by `motion`, when the capsule reaches
  /// the face's plane over its interior (then nothing else of the hull came first) or never
  /// reaches the plane: `start` is the distance at t = 0 (from distance() or GJK). The time is
  /// reported a quarter tolerance early, so it is conservative as gjk's methods are. False
  /// when the face cannot tell.
  bool time_of_impact(const gjk::Segment& segment, float radius, const glm::vec3& motion,
                      const gjk::DistanceResult& start, float tolerance, gjk::ToiResult& out) const;

  /// Whether `point` (world) lies within `margin` (m) of the face's plane and at least
  /// `margin` inside its rim: then this face is the only one of the hull through it.
  bool holds(const glm::vec3& point, float margin) const;

  /// holds() for a point known to lie at least `inside_by` (m) inside the rim (distance_within):
  /// the same answer where that is more than `margin` (else holds() decides).
  bool holds_inside_by(const glm::vec3& point, float margin, float inside_by) const {
    return inside_by > margin + rounding(point) ? on_plane(point, margin) : holds(point, margin);
  }

  /// Outward unit normal (world).
  const glm::vec3& normal() const { return normal_; }

private:
  bool inside(const glm::vec3& q) const;
  // Whether a segment whose ends lie `ga` and `gb` above the plane runs along it: every point
  // of it is then as near.
  static bool runs_along(float ga, float gb) {
    return std::abs(ga - gb) <= 1e-6f * (1.f + std::abs(ga) + std::abs(gb));
  }
  bool on_plane(const glm::vec3& point, float margin) const {
    return std::abs(glm::dot(normal_, point) - offset_) <= margin;
  }
  // How far inside the rim `q` (on the plane) lies, the least over the edges (m).
  float clearance(const glm::vec3& q) const;
  // What float rounding may take from a rim test at `q`: about 80 float epsilons of the
  // coordinates involved, the query's and the rim's.
  float rounding(const glm::vec3& q) const { return 1e-4f + 1e-5f * (glm::length(q) + extent_); }
  void finish_distance(const gjk::Segment& segment, float ga, float gb, float s, gjk::DistanceResult& out) const;
  void add_rim_edge(const glm::vec3& from, const glm::vec3& to);
  void keep_if_inside(const glm::vec3& point);

  glm::vec3 normal_{0.f}; ///< world, unit
  float offset_ = 0.f;    ///< plane: dot(normal_, x) = offset_ (m)
  float extent_ = 0.f;    ///< largest distance of a rim vertex from the origin (m)
  int edge_count_ = 0;
  /// Per rim edge, in the plane: xyz points inward, w is the limit with the margin included.
  std::array<glm::vec4, k_max_edges> rim_{};
};

} // namespace glide
