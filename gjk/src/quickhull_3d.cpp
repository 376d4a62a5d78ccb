#include "quickhull_3d.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>

namespace glide::gjk::detail {

using glm::dvec3;

Builder3::Builder3(const std::vector<dvec3>& p, double eps)
    : p_(p), eps_(eps), vertex_mark_(p.size(), 0), vertex_edge_(p.size(), 0) {}

double Builder3::distance(const Face& f, std::uint32_t i) const { return glm::dot(f.normal, p_[i]) - f.offset; }

std::uint32_t Builder3::add_face(std::uint32_t a, std::uint32_t b, std::uint32_t c, const dvec3& fallback_normal) {
  Face f;
  f.v = {a, b, c};
  const dvec3 n = glm::cross(p_[b] - p_[a], p_[c] - p_[a]);
  const double length = glm::length(n);
  f.normal = length > 0.0 ? n / length : fallback_normal;
  f.offset = glm::dot(f.normal, (p_[a] + p_[b] + p_[c]) / 3.0);
  faces_.push_back(std::move(f));
  face_mark_.push_back(0);
  return static_cast<std::uint32_t>(faces_.size() - 1);
}

bool Builder3::assign(std::uint32_t point, std::uint32_t first_face, std::uint32_t end_face) {
  std::uint32_t best_face = first_face;
  double best = -INFINITY;
  for (std::uint32_t f = first_face; f < end_face; ++f) {
    const double d = distance(faces_[f], point);
    if (d > best) {
      best = d;
      best_face = f;
    }
  }
  if (!(best > eps_)) return false;
  if (faces_[best_face].outside.empty()) work_.push_back(best_face);
  faces_[best_face].outside.push_back(point);
  return true;
}

// Farthest outside point; on near ties the one farthest from the centroid (see pick_extreme).
std::uint32_t Builder3::eye_of(const Face& f) const {
  double best = -INFINITY;
  for (std::uint32_t i : f.outside) best = std::max(best, distance(f, i));
  std::uint32_t eye = f.outside[0];
  double far = -1.0;
  for (std::uint32_t i : f.outside)
    if (distance(f, i) >= best - eps_ && glm::dot(p_[i], p_[i]) > far) {
      far = glm::dot(p_[i], p_[i]);
      eye = i;
    }
  return eye;
}

std::vector<Triangle3> Builder3::build(std::span<const std::uint32_t> ids, std::array<std::uint32_t, 4> s) {
  // Orient so that s[3] lies below the face (s0, s1, s2); the other three then follow.
  if (glm::dot(glm::cross(p_[s[1]] - p_[s[0]], p_[s[2]] - p_[s[0]]), p_[s[3]] - p_[s[0]]) > 0.0) std::swap(s[1], s[2]);
  const std::array<std::array<std::uint32_t, 3>, 4> tetra{
      {{s[0], s[1], s[2]}, {s[0], s[3], s[1]}, {s[1], s[3], s[2]}, {s[2], s[3], s[0]}}};
  for (const auto& t : tetra) add_face(t[0], t[1], t[2], dvec3(0.0, 0.0, 1.0));
  for (Face& f : faces_)
    for (int e = 0; e < 3; ++e)
      for (std::uint32_t g = 0; g < 4; ++g)
        for (int k = 0; k < 3; ++k)
          if (faces_[g].v[k] == f.v[(e + 1) % 3] && faces_[g].v[(k + 1) % 3] == f.v[e]) f.adj[e] = g;

  for (std::uint32_t i : ids)
    if (std::find(s.begin(), s.end(), i) == s.end()) assign(i, 0, 4);

  while (!work_.empty()) {
    const std::uint32_t f = work_.back();
    work_.pop_back();
    if (!faces_[f].alive || faces_[f].outside.empty()) continue;
    const std::uint32_t eye = eye_of(faces_[f]);
    if (!add_point(f, eye)) {
      // Rounding made the visible region not a disk: skip this point (it lies within a few
      // eps of the hull) rather than corrupt the surface.
      std::erase(faces_[f].outside, eye);
      work_.push_back(f);
    }
  }

  std::vector<Triangle3> out;
  for (const Face& f : faces_)
    if (f.alive) out.push_back({f.v, f.normal});
  return out;
}

bool Builder3::find_horizon(std::uint32_t seed, std::uint32_t eye) {
  ++stamp_;
  visible_.assign(1, seed);
  face_mark_[seed] = stamp_;
  for (std::size_t k = 0; k < visible_.size(); ++k)
    for (std::uint32_t g : faces_[visible_[k]].adj)
      if (face_mark_[g] != stamp_ && distance(faces_[g], eye) > eps_) {
        face_mark_[g] = stamp_;
        visible_.push_back(g);
      }
  horizon_.clear();
  for (std::uint32_t f : visible_)
    for (int e = 0; e < 3; ++e) {
      const Face& face = faces_[f];
      if (face_mark_[face.adj[e]] == stamp_) continue;
      const std::uint32_t a = face.v[e];
      if (vertex_mark_[a] == stamp_) return false; // a pinched horizon
      vertex_mark_[a] = stamp_;
      vertex_edge_[a] = static_cast<std::uint32_t>(horizon_.size());
      horizon_.push_back({a, face.v[(e + 1) % 3], face.adj[e]});
    }
  // Order the edges into one loop; anything else (several loops) is a failure.
  ordered_.clear();
  std::uint32_t edge = 0;
  do {
    ordered_.push_back(edge);
    const std::uint32_t b = horizon_[edge].b;
    if (vertex_mark_[b] != stamp_ || ordered_.size() > horizon_.size()) return false;
    edge = vertex_edge_[b];
  } while (edge != 0);
  return ordered_.size() == horizon_.size();
}

bool Builder3::add_point(std::uint32_t seed, std::uint32_t eye) {
  if (!find_horizon(seed, eye)) return false;
  std::vector<std::uint32_t> orphans;
  for (std::uint32_t f : visible_) {
    Face& face = faces_[f];
    for (std::uint32_t i : face.outside)
      if (i != eye) orphans.push_back(i);
    face.outside = {};
    face.alive = false;
  }
  const dvec3 fallback = faces_[seed].normal;
  const std::uint32_t first = static_cast<std::uint32_t>(faces_.size());
  const std::uint32_t m = static_cast<std::uint32_t>(ordered_.size());
  for (std::uint32_t k = 0; k < m; ++k) {
    const HorizonEdge h = horizon_[ordered_[k]];
    const std::uint32_t nf = add_face(h.a, h.b, eye, fallback);
    // Edge b -> eye is shared with the next new face, edge eye -> a with the previous one.
    faces_[nf].adj = {h.outer, first + (k + 1) % m, first + (k + m - 1) % m};
    Face& outer = faces_[h.outer];
    for (int j = 0; j < 3; ++j)
      if (outer.v[j] == h.b && outer.v[(j + 1) % 3] == h.a) outer.adj[j] = nf;
  }
  // An orphan below every new face may still lie outside a hidden face next to the horizon
  // (one the eye rose at most eps above, as in thin slabs): offer it there before dropping it.
  for (std::uint32_t i : orphans)
    if (!assign(i, first, first + m))
      for (std::uint32_t k = 0; k < m; ++k) {
        const std::uint32_t outer = horizon_[ordered_[k]].outer;
        if (distance(faces_[outer], i) > eps_) {
          if (faces_[outer].outside.empty()) work_.push_back(outer);
          faces_[outer].outside.push_back(i);
          break;
        }
      }
  return true;
}

std::vector<std::uint32_t> extreme_vertices(const std::vector<dvec3>& p, const std::vector<Triangle3>& triangles,
                                            double eps) {
  std::vector<dvec3> normal_sum(p.size(), dvec3(0.0));
  std::vector<std::uint32_t> vertices;
  for (const Triangle3& t : triangles)
    for (std::uint32_t v : t.v) {
      if (normal_sum[v] == dvec3(0.0)) vertices.push_back(v);
      normal_sum[v] += t.normal;
    }
  std::sort(vertices.begin(), vertices.end());
  // Largest rise of each vertex above a neighbour that stays, along its mean normal; each
  // surface edge a -> b is seen once from a's side.
  enum : std::uint8_t { undecided, kept, dropped };
  std::vector<std::uint8_t> state(p.size(), undecided);
  std::vector<std::vector<std::uint32_t>> neighbours(p.size());
  for (const Triangle3& t : triangles)
    for (int e = 0; e < 3; ++e) neighbours[t.v[e]].push_back(t.v[(e + 1) % 3]);
  std::vector<std::uint32_t> out;
  for (std::uint32_t v : vertices) {
    const double length = glm::length(normal_sum[v]);
    const dvec3 dir = length > 0.0 ? normal_sum[v] / length : normal_sum[v];
    bool drop = false;
    for (std::uint32_t u : neighbours[v])
      if (state[u] != dropped && glm::dot(dir, p[v] - p[u]) <= eps) drop = true;
    state[v] = drop ? dropped : kept;
    if (!drop) out.push_back(v);
  }
  return out;
}

} // namespace glide::gjk::detail
