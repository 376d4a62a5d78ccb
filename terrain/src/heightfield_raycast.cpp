// Ray cast against the heightfield's triangles: a DDA over 16 x 16-cell blocks skips blocks
// the ray passes entirely above or below, and a DDA over the cells of the remaining blocks
// solves the ray against each cell's two triangles. Done in double so long rays and far
// origins keep the hit within float precision of the surface height_at describes.
#include <glide/limits.hpp>
#include <glide/terrain/heightfield.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace glide {

namespace {

constexpr double k_infinity = std::numeric_limits<double>::infinity();

/// Ray in grid units: u = column coordinate, v = row coordinate, y in metres.
struct GridRay {
  double u0, v0, y0;
  double du, dv, dy;
  double inv_du, inv_dv; ///< 1 / du and 1 / dv, 0 when the component is 0
};

/// Visits the squares of side `Side` cells crossed by the ray for t in [t0, t1], in order,
/// with the interval of t inside each; indices stay within [u_lo, u_hi] x [v_lo, v_hi].
/// Stops when visit returns true. Side is a template constant so no step divides.
template <int Side, class Visit>
bool walk(const GridRay& ray, double t0, double t1, int u_lo, int u_hi, int v_lo, int v_hi, Visit&& visit) {
  constexpr double inv_side = 1.0 / Side;
  const double us = (ray.u0 + ray.du * t0) * inv_side, vs = (ray.v0 + ray.dv * t0) * inv_side;
  // On a border, start in the square the ray moves into.
  double fu = std::floor(us), fv = std::floor(vs);
  if (ray.du < 0.0 && fu == us) fu -= 1.0;
  if (ray.dv < 0.0 && fv == vs) fv -= 1.0;
  int iu = static_cast<int>(std::clamp(fu, static_cast<double>(u_lo), static_cast<double>(u_hi)));
  int iv = static_cast<int>(std::clamp(fv, static_cast<double>(v_lo), static_cast<double>(v_hi)));
  const int step_u = ray.du > 0.0 ? 1 : -1, step_v = ray.dv > 0.0 ? 1 : -1;
  double t = t0;
  // Each step moves one index monotonically inside its range, so this terminates.
  for (;;) {
    const double tu =
        ray.du != 0.0 ? (static_cast<double>((ray.du > 0.0 ? iu + 1 : iu) * Side) - ray.u0) * ray.inv_du : k_infinity;
    const double tv =
        ray.dv != 0.0 ? (static_cast<double>((ray.dv > 0.0 ? iv + 1 : iv) * Side) - ray.v0) * ray.inv_dv : k_infinity;
    const double t_exit = std::max(t, std::min({tu, tv, t1}));
    if (visit(iu, iv, t, t_exit)) return true;
    if (t_exit >= t1) return false;
    if (tu <= tv)
      iu += step_u;
    else
      iv += step_v;
    if (iu < u_lo || iu > u_hi || iv < v_lo || iv > v_hi) return false;
    t = t_exit;
  }
}

/// Clips [t_min, t_max] to lo <= o + d t <= hi; false when empty.
bool clip(double o, double d, double inv_d, double lo, double hi, double& t_min, double& t_max) {
  if (d == 0.0) return o >= lo && o <= hi;
  double ta = (lo - o) * inv_d, tb = (hi - o) * inv_d;
  if (ta > tb) std::swap(ta, tb);
  t_min = std::max(t_min, ta);
  t_max = std::min(t_max, tb);
  return t_min <= t_max;
}

} // namespace

TerrainRayHit Heightfield::raycast(const glm::vec3& origin, const glm::vec3& dir, float max_t) const {
  if (!limits::finite(origin) || !limits::finite(dir) || !(max_t >= 0.f) || dir == glm::vec3(0.f)) return {};

  GridRay ray{(static_cast<double>(origin.x) - origin_.x) / cell_size_.x,
              (static_cast<double>(origin.z) - origin_.z) / cell_size_.y,
              origin.y,
              static_cast<double>(dir.x) / cell_size_.x,
              static_cast<double>(dir.z) / cell_size_.y,
              dir.y,
              0.0,
              0.0};
  ray.inv_du = ray.du != 0.0 ? 1.0 / ray.du : 0.0;
  ray.inv_dv = ray.dv != 0.0 ? 1.0 / ray.dv : 0.0;
  const double u_end = columns_ - 1, v_end = rows_ - 1;
  // A hit lies inside the grid and between the lowest and highest sample; the small margin
  // keeps hits exactly on the extreme heights.
  const double y_margin = 1e-6 * (1.0 + std::max(std::abs(bounds_.min.y), std::abs(bounds_.max.y)));
  double t_min = 0.0, t_max = max_t;
  const double inv_dy = ray.dy != 0.0 ? 1.0 / ray.dy : 0.0;
  if (!clip(ray.u0, ray.du, ray.inv_du, 0.0, u_end, t_min, t_max) ||
      !clip(ray.v0, ray.dv, ray.inv_dv, 0.0, v_end, t_min, t_max) ||
      !clip(ray.y0, ray.dy, inv_dy, bounds_.min.y - y_margin, bounds_.max.y + y_margin, t_min, t_max))
    return {};

  TerrainRayHit result;
  // Solves the ray against the two triangles of cell (r, c) for t in [ta, tb].
  const auto hit_cell = [&](int c, int r, double ta, double tb) {
    if (is_hole(r, c)) return false;
    const double h00 = at(r, c), h10 = at(r, c + 1), h01 = at(r + 1, c), h11 = at(r + 1, c + 1);
    const double fu0 = ray.u0 - c, fv0 = ray.v0 - r; // position in the cell at t = 0
    // The diagonal fu = fv separates triangle A (fu >= fv) from B.
    const double g0 = fu0 - fv0, dg = ray.du - ray.dv;
    double split[3] = {ta, tb, tb};
    if (dg != 0.0) {
      const double td = -g0 / dg;
      if (td > ta && td < tb) split[1] = td;
    }
    for (int i = 0; i < 2; ++i) {
      const double s0 = split[i], s1 = split[i + 1];
      if (i == 1 && s0 >= s1) break;
      const bool a = g0 + dg * (0.5 * (s0 + s1)) >= 0.0;
      const double dh_du = a ? h10 - h00 : h11 - h01, dh_dv = a ? h11 - h10 : h01 - h00;
      // f(t) = ray height - surface height, linear inside one triangle.
      const double slope = ray.dy - dh_du * ray.du - dh_dv * ray.dv;
      if (!(slope < 0.0)) continue; // only the top side faces rays going down relative to it
      const double f0 = ray.y0 - h00 - dh_du * fu0 - dh_dv * fv0;
      const double fa = f0 + slope * s0, fb = f0 + slope * s1;
      // Tolerance so that rounding between neighbouring cells never lets a ray slip through
      // a shared edge.
      const double tolerance = 1e-9 * (1.0 + std::abs(h00) + std::abs(ray.y0 + ray.dy * s0));
      if (fb > tolerance || fa < -tolerance) continue;
      const double t = std::clamp(fa <= 0.0 ? s0 : s0 + (s1 - s0) * (fa / (fa - fb)), s0, s1);
      result.hit = true;
      result.t = static_cast<float>(t);
      result.point = glm::vec3(static_cast<float>(origin_.x + (ray.u0 + ray.du * t) * cell_size_.x),
                               static_cast<float>(ray.y0 + ray.dy * t),
                               static_cast<float>(origin_.z + (ray.v0 + ray.dv * t) * cell_size_.y));
      const glm::vec3 n(static_cast<float>(-dh_du * cell_size_.y), cell_size_.x * cell_size_.y,
                        static_cast<float>(-dh_dv * cell_size_.x));
      result.normal = glm::normalize(n);
      return true;
    }
    return false;
  };

  if (ray.du == 0.0 && ray.dv == 0.0) {
    // Vertical ray (ground probes): one cell, no walk. Same cell choice as height_at.
    const int c = std::min(static_cast<int>(ray.u0), columns_ - 2), r = std::min(static_cast<int>(ray.v0), rows_ - 2);
    hit_cell(c, r, t_min, t_max);
    return result;
  }

  const auto visit_block = [&](int bc, int br, double ta, double tb) {
    const std::size_t b =
        static_cast<std::size_t>(br) * static_cast<std::size_t>(block_columns_) + static_cast<std::size_t>(bc);
    const double ya = ray.y0 + ray.dy * ta, yb = ray.y0 + ray.dy * tb;
    // Entirely above the block, or entirely below it (no top-side crossing possible).
    if (std::min(ya, yb) > block_bounds_[2 * b + 1] + y_margin) return false;
    if (std::max(ya, yb) < block_bounds_[2 * b] - y_margin) return false;
    const int c_lo = bc * k_block_cells, r_lo = br * k_block_cells;
    const int c_hi = std::min(c_lo + k_block_cells, columns_ - 1) - 1,
              r_hi = std::min(r_lo + k_block_cells, rows_ - 1) - 1;
    return walk<1>(ray, ta, tb, c_lo, c_hi, r_lo, r_hi, hit_cell);
  };

  walk<k_block_cells>(ray, t_min, t_max, 0, block_columns_ - 1, 0, block_rows_ - 1, visit_block);
  return result;
}

} // namespace glide
