#pragma once

// The queries of the floating-point flags test (fp_flags_test.cpp), compiled twice: with the
// library's flags in fp_flags_test.cpp and with -O3 -mfma -ffp-contract=fast in
// fp_flags_fast.cpp. Everything here has internal linkage, so each file keeps its own copy
// and the linker cannot merge the two into one.

#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/intersect.hpp>
#include <glide/gjk/penetration.hpp>
#include <glide/gjk/toi.hpp>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <cstdint>
#include <cstring>
#include <span>
#include <variant>
#include <vector>

namespace glide::test::fp_flags {

/// One shape of each kind, as plain data (building the shapes from it does no arithmetic).
struct ShapeData {
  glm::vec3 p[3]{};   ///< points, segment and triangle corners, centres (m)
  glm::vec3 half{};   ///< box half extents; y: cylinder and cone half height (m)
  float radius = 0.f; ///< (m)
  gjk::Transform pose;
  int hull = 0; ///< index into Inputs::hulls
};

struct Inputs {
  std::vector<gjk::ConvexHull> hulls;
  std::vector<glm::vec3> cloud;
  std::vector<ShapeData> a, b;   ///< one pair per sample
  std::vector<glm::vec3> motion; ///< per sample, for the time of impact (m)
};

/// The built-in shape kinds, in the order of the variant below.
inline constexpr int k_kinds = 12;
inline constexpr const char* k_kind_names[k_kinds] = {
    "Point",    "Segment", "Triangle",   "Box",        "Sphere",           "Capsule",
    "Cylinder", "Cone",    "ConvexHull", "PointCloud", "Transformed<Box>", "Transformed<ConvexHull>"};

/// One result word: the query, the shapes and the sample it came from, and 32 bits of it.
struct Word {
  int query = 0; ///< 0 distance, 1 warm distance, 2 intersect, 3 penetration, 4 toi (CA), 5 toi (bisection)
  int a = 0, b = 0, sample = 0;
  std::uint32_t bits = 0;
};

namespace {

using Shape = std::variant<gjk::Point, gjk::Segment, gjk::Triangle, gjk::Box, gjk::Sphere, gjk::Capsule, gjk::Cylinder,
                           gjk::Cone, const gjk::ConvexHull*, gjk::PointCloud, gjk::Transformed<gjk::Box>,
                           gjk::Transformed<gjk::ConvexHull>>;

Shape make(int kind, const ShapeData& d, const Inputs& in) {
  switch (kind) {
  case 0:
    return gjk::Point{d.p[0]};
  case 1:
    return gjk::Segment{d.p[0], d.p[1]};
  case 2:
    return gjk::Triangle{d.p[0], d.p[1], d.p[2]};
  case 3:
    return gjk::Box{d.half};
  case 4:
    return gjk::Sphere{d.p[0], d.radius};
  case 5:
    return gjk::Capsule{{d.p[0], d.p[1]}, d.radius};
  case 6:
    return gjk::Cylinder{d.half.y, d.radius};
  case 7:
    return gjk::Cone{d.half.y, d.radius};
  case 8:
    return &in.hulls[static_cast<std::size_t>(d.hull)];
  case 9:
    return gjk::PointCloud(in.cloud);
  case 10:
    return gjk::Transformed<gjk::Box>{gjk::Box{d.half}, d.pose};
  default:
    return gjk::Transformed<gjk::ConvexHull>{in.hulls[static_cast<std::size_t>(d.hull)], d.pose};
  }
}

template <class S>
const S& ref(const S& s) {
  return s;
}
const gjk::ConvexHull& ref(const gjk::ConvexHull* s) { return *s; }

GLIDE_GJK_FP_EXACT_BEGIN
/// A shape defined by its user, not by glide: an ellipsoid, whose support is all products and sums.
struct Ellipsoid {
  glm::vec3 center{0.f};
  glm::vec3 radii{1.f};
  glm::vec3 support(const glm::vec3& dir) const {
    const glm::vec3 rd = radii * dir;
    const float len = std::sqrt(rd.x * rd.x + rd.y * rd.y + rd.z * rd.z);
    return len > 0.f ? center + radii * rd / len : center;
  }
};

GLIDE_GJK_FP_EXACT_END

struct Recorder {
  std::vector<Word>& out;
  int query = 0, a = 0, b = 0, sample = 0;
  void add(float f) {
    Word w{query, a, b, sample, 0};
    std::memcpy(&w.bits, &f, sizeof f);
    out.push_back(w);
  }
  void add(int i) { out.push_back({query, a, b, sample, static_cast<std::uint32_t>(i)}); }
  void add(const glm::vec3& v) {
    add(v.x);
    add(v.y);
    add(v.z);
  }
  void add(const gjk::DistanceResult& r) {
    add(r.distance);
    add(r.point_a);
    add(r.point_b);
    add(r.normal);
    add(r.iterations);
    add(static_cast<int>(r.status));
  }
};

template <class A, class B>
void pair_queries(const A& a, const B& b, Recorder& rec) {
  rec.query = 0;
  gjk::SimplexCache cache;
  rec.add(gjk::distance(a, b, {}, &cache));
  rec.query = 1;
  rec.add(gjk::distance(a, b, {}, &cache));
  rec.query = 2;
  rec.add(static_cast<int>(gjk::intersect(a, b)));
  rec.query = 3;
  const gjk::PenetrationResult p = gjk::penetration(a, b);
  rec.add(static_cast<int>(p.overlapping));
  rec.add(p.depth);
  rec.add(p.normal);
  rec.add(p.point_a);
  rec.add(p.point_b);
  rec.add(static_cast<int>(p.status));
}

template <class B>
void toi_queries(const gjk::Segment& seg, float radius, const glm::vec3& motion, const B& b, Recorder& rec) {
  for (int method = 0; method < 2; ++method) {
    rec.query = 4 + method;
    const gjk::ToiResult t = method == 0 ? gjk::toi_conservative_advancement(seg, radius, motion, b)
                                         : gjk::toi_bisection(seg, radius, motion, b);
    rec.add(static_cast<int>(t.hit));
    rec.add(t.t);
    rec.add(t.point);
    rec.add(t.normal);
    rec.add(t.iterations);
  }
}

/// Every built-in pair on every sample, the time of impact of a capsule against every built-in
/// shape, then (when `user_shape`) an ellipsoid against every built-in shape.
[[maybe_unused]] std::vector<Word> run_all(const Inputs& in, bool user_shape) {
  std::vector<Word> out;
  Recorder rec{out};
  for (std::size_t s = 0; s < in.a.size(); ++s) {
    rec.sample = static_cast<int>(s);
    for (int ka = 0; ka < k_kinds; ++ka) {
      const Shape a = make(ka, in.a[s], in);
      for (int kb = 0; kb < k_kinds; ++kb) {
        const Shape b = make(kb, in.b[s], in);
        rec.a = ka;
        rec.b = kb;
        std::visit([&](const auto& sa, const auto& sb) { pair_queries(ref(sa), ref(sb), rec); }, a, b);
      }
    }
    for (int kb = 0; kb < k_kinds; ++kb) {
      const Shape b = make(kb, in.b[s], in);
      rec.a = 5;
      rec.b = kb;
      const ShapeData& d = in.a[s];
      std::visit(
          [&](const auto& sb) {
            toi_queries(gjk::Segment{d.p[0], d.p[1]}, d.radius, in.motion[s], ref(sb), rec);
          },
          b);
    }
    if (!user_shape) continue;
    const Ellipsoid e{in.a[s].p[0], in.a[s].half};
    for (int kb = 0; kb < k_kinds; ++kb) {
      const Shape b = make(kb, in.b[s], in);
      rec.a = -1;
      rec.b = kb;
      std::visit([&](const auto& sb) { pair_queries(e, ref(sb), rec); }, b);
    }
  }
  return out;
}

} // namespace

/// run_all compiled with -O3 -mfma -ffp-contract=fast (fp_flags_fast.cpp).
std::vector<Word> run_all_fast(const Inputs& in, bool user_shape);
/// a * b + c compiled there too: shows whether those flags contract.
float multiply_add_probe(float a, float b, float c);

} // namespace glide::test::fp_flags
