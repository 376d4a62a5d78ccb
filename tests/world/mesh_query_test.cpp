// Every query on a mesh piece against the same triangles added as flat pieces of their own:
// the answers agree but for the normal rule at inactive edges, which the oracle applies to the
// flat pieces' normals. Random meshes (jagged grids with boxes on them), fixed seeds.
#include "approx.hpp"
#include "mesh_levels.hpp"
#include "mesh_piece.hpp"
#include "narrowphase.hpp"

#include <glide/world/nearby_pieces.hpp>
#include <glide/world/world.hpp>

#include <doctest/doctest.h>
#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <random>
#include <vector>

using namespace glide;
using namespace glide::test;

namespace {

constexpr float k_tolerance = 1e-4f; // SweepSettings::tolerance (m)

// One random level twice: a mesh piece in `meshed`, its triangles as flat pieces (piece i is
// triangle i, placed where the mesh places it) in `flat`.
struct Twin {
  World meshed, flat;
  PieceId mesh;
  std::vector<std::array<glm::vec3, 3>> corners; // per triangle, placed
  std::vector<std::uint8_t> active;              // per triangle
};

Twin make_twin(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> jag(-0.25f, 0.25f), unit(-1.f, 1.f), pos(-3.f, 3.f);
  std::bernoulli_distribution coin(0.5);
  MeshData m = grid_mesh(
      14, 0.5f, {-3.5f, 0.f, -3.5f}, [&](int, int) { return coin(rng); }, [&](float, float) { return jag(rng); });
  for (int b = 0; b < 4; ++b) {
    const glm::vec3 lo{pos(rng), 0.f, pos(rng)};
    add_box_mesh(m, lo, lo + glm::vec3(0.3f + std::abs(unit(rng)), 0.3f + std::abs(unit(rng)), 0.4f));
  }
  Twin t;
  const gjk::Transform place{glm::normalize(glm::quat(1.f, 0.2f * unit(rng), 0.2f * unit(rng), 0.2f * unit(rng))),
                             {pos(rng), pos(rng), pos(rng)}};
  const TriangleMesh mesh = m.mesh();
  for (std::uint32_t i = 0; i < mesh.triangle_count(); ++i) {
    std::array<glm::vec3, 3> c;
    for (std::size_t k = 0; k < 3; ++k) c[k] = place.apply(mesh.vertices()[mesh.triangles()[i][k]]);
    t.corners.push_back(c);
    t.active.push_back(mesh.active_edges(i));
    t.flat.add_piece(gjk::ConvexHull(std::vector<glm::vec3>(c.begin(), c.end())));
  }
  t.mesh = t.meshed.add_mesh(mesh, place);
  return t;
}

glm::vec3 corrected(const Twin& t, std::uint32_t triangle, const glm::vec3& point, const glm::vec3& normal,
                    float side = 0.f) {
  return detail::mesh_normal(t.corners[triangle], t.active[triangle], point, normal, side);
}

// The brute-force sweep of the rule: each triangle's time of impact, its normal corrected, then
// the separating test and the tie rule, as the World does for any candidates.
SweepHit oracle_sweep(const Twin& t, const gjk::Capsule& c, const glm::vec3& motion, const SweepSettings& s) {
  const gjk::ToiSettings toi = detail::toi_settings(s);
  detail::HitCollector hits(std::max(0.f, detail::fraction_of(s.tie_distance, motion)));
  for (std::uint32_t i = 0; i < t.corners.size(); ++i) {
    gjk::ToiResult r =
        detail::time_of_impact(c.segment, c.radius, motion, detail::VertexCloud(t.corners[i]), s.method, toi);
    if (!r.hit) continue;
    r.normal = corrected(t, i, r.point, r.normal);
    if (detail::separating(r, motion, s)) continue;
    hits.add({r.t, r.point, r.normal, HitTarget::piece, t.mesh, 0, {}, i});
  }
  return detail::to_sweep_hit(hits.winner());
}

gjk::Capsule random_capsule(std::mt19937& rng) {
  std::uniform_real_distribution<float> pos(-4.f, 4.f), up(-0.5f, 1.5f), unit(-1.f, 1.f), radius(0.05f, 0.5f);
  const glm::vec3 a{pos(rng), up(rng), pos(rng)};
  return {{a, a + 0.8f * glm::vec3(unit(rng), unit(rng), unit(rng))}, radius(rng)};
}

} // namespace

TEST_CASE("Mesh sweeps equal the flat pieces' with the normal rule applied (3 meshes, 6000 sweeps)") {
  int hits = 0, corrected_normals = 0;
  for (const std::uint32_t seed : {11u, 12u, 13u}) {
    const Twin t = make_twin(seed);
    std::mt19937 rng(seed * 7u);
    std::uniform_real_distribution<float> unit(-1.f, 1.f);
    for (int q = 0; q < 2000; ++q) {
      const gjk::Capsule c = random_capsule(rng);
      const glm::vec3 motion = 3.f * glm::vec3(unit(rng), unit(rng), unit(rng));
      // Without the separating test the candidates and times are the flat pieces' exactly;
      // only the normal differs, by the rule.
      SweepSettings all;
      all.ignore_separating = false;
      const SweepHit got = t.meshed.sweep_capsule(c, motion, {}, all);
      const SweepHit flat = t.flat.sweep_capsule(c, motion, {}, all);
      REQUIRE(got.hit == flat.hit);
      if (got.hit) {
        ++hits;
        CHECK(got.piece == t.mesh);
        CHECK(got.triangle == flat.piece.value);
        CHECK(got.fraction == doctest::Approx(flat.fraction).epsilon(1e-5));
        CHECK_APPROX(got.point, flat.point, 1e-4f);
        const glm::vec3 expected = corrected(t, flat.piece.value, flat.point, flat.normal);
        CHECK_APPROX(got.normal, expected, 1e-4f);
        corrected_normals += glm::dot(expected, flat.normal) < 0.9999f;
      }
      // With it, the brute-force rule.
      const SweepHit rule = oracle_sweep(t, c, motion, {});
      const SweepHit sliding = t.meshed.sweep_capsule(c, motion);
      REQUIRE(sliding.hit == rule.hit);
      if (!rule.hit) continue;
      CHECK(sliding.triangle == rule.triangle);
      CHECK(sliding.fraction == rule.fraction);
      CHECK_APPROX(sliding.normal, rule.normal, 0.f);
    }
  }
  CHECK(hits > 1000);            // about a quarter of the sweeps hit (the count varies with the compiler's rounding)
  CHECK(corrected_normals > 50); // the rule had work to do
}

TEST_CASE("Mesh contacts, rays and broadphase equal the flat pieces' (3 meshes, 6000 queries each)") {
  int contacts = 0, rays = 0, corrected_normals = 0;
  for (const std::uint32_t seed : {21u, 22u, 23u}) {
    const Twin t = make_twin(seed);
    std::mt19937 rng(seed * 5u);
    std::uniform_real_distribution<float> unit(-1.f, 1.f), margin(0.f, 0.2f);
    for (int q = 0; q < 2000; ++q) {
      const gjk::Capsule c = random_capsule(rng);
      const float m = margin(rng);
      const std::vector<Contact> got = t.meshed.overlap_capsule(c, m);
      const std::vector<Contact> flat = t.flat.overlap_capsule(c, m);
      REQUIRE(got.size() == flat.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        ++contacts;
        CHECK(got[i].piece == t.mesh);
        REQUIRE(got[i].triangle == flat[i].piece.value); // the same order: by triangle
        CHECK(got[i].distance == doctest::Approx(flat[i].distance).epsilon(1e-5));
        CHECK(got[i].depth == doctest::Approx(flat[i].depth).epsilon(1e-5));
        CHECK_APPROX(got[i].point_on_piece, flat[i].point_on_piece, 1e-4f);
        const float side = flat[i].distance < 0.f
                               ? detail::mesh_side(t.corners[got[i].triangle], 0.5f * (c.segment.a + c.segment.b))
                               : 0.f;
        const glm::vec3 expected = corrected(t, got[i].triangle, flat[i].point_on_piece, flat[i].normal, side);
        CHECK_APPROX(got[i].normal, expected, 1e-4f);
        corrected_normals += glm::dot(expected, flat[i].normal) < 0.9999f;
      }
      const std::vector<Contact> near = t.meshed.closest(c, m, {}, 3);
      CHECK(near.size() == std::min<std::size_t>(3, got.size()));
      for (std::size_t i = 1; i < near.size(); ++i) CHECK(near[i - 1].distance <= near[i].distance);

      const glm::vec3 origin = c.segment.a, dir{unit(rng), unit(rng), unit(rng)};
      const RayHit ray = t.meshed.raycast(origin, dir, 5.f);
      const RayHit flat_ray = t.flat.raycast(origin, dir, 5.f);
      REQUIRE(ray.hit == flat_ray.hit);
      if (ray.hit) {
        ++rays;
        CHECK(ray.triangle == flat_ray.piece.value);
        CHECK(ray.t == doctest::Approx(flat_ray.t).epsilon(1e-5));
        CHECK_APPROX(ray.normal, corrected(t, ray.triangle, ray.point, flat_ray.normal), 1e-4f);
      }

      const gjk::Aabb box = gjk::Aabb::of_point(c.segment.a).merged(c.segment.b).expanded(c.radius);
      std::vector<PieceId> in_mesh, in_flat;
      t.meshed.pieces_in_box(box, in_mesh);
      t.flat.pieces_in_box(box, in_flat);
      CHECK(in_mesh.size() == (in_flat.empty() ? 0u : 1u));
      const glm::vec3 motion = 2.f * glm::vec3(unit(rng), unit(rng), unit(rng));
      in_mesh.clear();
      in_flat.clear();
      t.meshed.pieces_along(box, motion, in_mesh);
      t.flat.pieces_along(box, motion, in_flat);
      CHECK(in_mesh.size() == (in_flat.empty() ? 0u : 1u));
    }
  }
  CHECK(contacts > 2000);
  CHECK(rays > 500);
  CHECK(corrected_normals > 50);
}

TEST_CASE("NearbyPieces answers as the World on a mesh along sliding walks") {
  const Twin t = make_twin(31u);
  std::mt19937 rng(32);
  std::uniform_real_distribution<float> pos(-3.f, 3.f), unit(-1.f, 1.f), speed(0.01f, 0.4f), radius(0.2f, 0.4f);
  int sweeps = 0, agreed = 0, contacts = 0, touching = 0, grazes = 0;
  for (int walk = 0; walk < 80; ++walk) {
    NearbyPieces nearby;
    // From above the mesh, down onto it and along it.
    const glm::vec3 start{pos(rng), t.meshed.bounds(t.mesh).max.y + 0.5f, pos(rng)};
    gjk::Capsule c{{start, start + glm::vec3(0, 1.f, 0)}, radius(rng)};
    glm::vec3 dir = glm::normalize(glm::vec3{unit(rng), -0.5f, unit(rng)});
    for (int step = 0; step < 40; ++step) {
      const glm::vec3 motion = dir * speed(rng);
      const SweepHit expected = t.meshed.sweep_capsule(c, motion);
      const SweepHit got = nearby.sweep_capsule(t.meshed, c, motion, {}, {});
      ++sweeps;
      // The same hit within the tolerance, or a contact the motion does not approach skipped
      // by one of them (NearbyPieces' plane rule): either way the capsule stays out of the mesh.
      if (got.hit && expected.hit &&
          std::abs(got.fraction - expected.fraction) * glm::length(motion) <= 2.f * k_tolerance) {
        ++agreed;
        touching += expected.fraction == 0.f;
        if (got.triangle == expected.triangle) CHECK(glm::dot(got.normal, expected.normal) > 0.99f);
      } else if (got.hit != expected.hit || got.fraction != expected.fraction) {
        ++grazes;
      }
      c.segment.a += motion * got.fraction;
      c.segment.b += motion * got.fraction;
      for (const Contact& k : t.meshed.overlap_capsule(c, 0.f)) CHECK(k.distance >= -2.f * k_tolerance);

      const std::span<const Contact> near = nearby.closest(t.meshed, c, 0.05f, {}, 8);
      const std::vector<Contact> world_near = t.meshed.closest(c, 0.05f, {}, 8);
      REQUIRE(near.size() == world_near.size());
      for (std::size_t i = 0; i < near.size(); ++i) {
        ++contacts;
        CHECK(near[i].distance == doctest::Approx(world_near[i].distance).epsilon(1e-4));
      }
      const RayHit ray = nearby.raycast(t.meshed, c.segment.a, {0, -1, 0}, 1.f, {}, {});
      const RayHit world_ray = t.meshed.raycast(c.segment.a, {0, -1, 0}, 1.f);
      REQUIRE(ray.hit == world_ray.hit);
      if (ray.hit) {
        CHECK(std::abs(ray.t - world_ray.t) <= 2.f * k_tolerance);
        CHECK(ray.triangle == world_ray.triangle);
      }
      if (got.hit) {
        const glm::vec3 along = dir - got.normal * glm::dot(dir, got.normal);
        const glm::vec3 next = along + 0.2f * glm::vec3{unit(rng), unit(rng), unit(rng)} - glm::vec3(0, 0.1f, 0);
        if (glm::length(next) > 1e-3f) dir = glm::normalize(next);
      }
    }
  }
  CHECK(agreed > 200);
  CHECK(touching > 50);
  CHECK(grazes <= sweeps / 50);
  CHECK(contacts > 500);
}
