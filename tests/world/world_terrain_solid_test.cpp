// Terrain is solid below its surface: a capsule whose inner segment reaches under a terrain
// triangle is inside the terrain, and every query says so with the triangle's up-facing normal
// and the depth below the surface, never the shortest way out of the thin triangle.
#include "approx.hpp"

#include <glide/world/nearby_pieces.hpp>
#include <glide/world/world.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace glide;

namespace {

// 16 x 16 cells of 0.5 m, the plane y = slope * x (so the face normal is known exactly).
World terrain_world(float slope) {
  HeightfieldDef def;
  def.rows = 17;
  def.columns = 17;
  def.cell_size = {0.5f, 0.5f};
  def.origin = {-4.f, 0.f, -4.f};
  for (int r = 0; r < def.rows; ++r)
    for (int c = 0; c < def.columns; ++c) def.heights.push_back(slope * (-4.f + 0.5f * static_cast<float>(c)));
  World world;
  world.set_terrain(Heightfield(std::move(def)));
  return world;
}

// An upright capsule of radius 0.3 whose segment's lower end is `below` under the surface at
// (x, z) on the plane y = slope * x, 1 m long.
gjk::Capsule upright(float x, float z, float slope, float below) {
  const float y = slope * x - below;
  return {{{x, y, z}, {x, y + 1.f, z}}, 0.3f};
}

Contact deepest(std::span<const Contact> contacts) {
  REQUIRE_FALSE(contacts.empty());
  return *std::min_element(contacts.begin(), contacts.end(),
                           [](const Contact& a, const Contact& b) { return a.distance < b.distance; });
}

} // namespace

TEST_CASE("a segment under or through the terrain gets the surface normal and the depth below it") {
  for (const float slope : {0.f, 0.5f}) {
    CAPTURE(slope);
    const World world = terrain_world(slope);
    const glm::vec3 up = glm::normalize(glm::vec3(-slope, 1.f, 0.f));
    // Through the surface (the docs' sinking character), just under it, a radius under it, and
    // buried 3 m deep, its box far below every triangle: at a cell's interior and on a cell's
    // diagonal, where two triangles meet.
    for (const float below : {0.01f, 0.2f, 0.35f, 3.f}) {
      for (const glm::vec2 xz : {glm::vec2(0.3f, 0.1f), glm::vec2(0.25f, 0.25f), glm::vec2(-1.13f, 2.71f)}) {
        CAPTURE(below);
        CAPTURE(xz);
        const gjk::Capsule capsule = upright(xz.x, xz.y, slope, below);
        // Depth along the normal of a point `below` under the plane, vertically: below * up.y.
        const float expected = -(below * up.y + capsule.radius);
        const std::vector<Contact> contacts = world.overlap_capsule(capsule, 0.f);
        const Contact c = deepest(contacts);
        CHECK(c.target == HitTarget::terrain);
        CHECK(c.distance == doctest::Approx(expected).epsilon(1e-4));
        CHECK(c.depth == doctest::Approx(below * up.y).epsilon(1e-4));
        CHECK_APPROX(c.normal, up, 1e-5f);
        // Every triangle the capsule overlaps, beside its column too, pushes up out of the
        // plane: none sideways off a thin triangle's edge, none down.
        for (const Contact& other : contacts) {
          CHECK(glm::dot(other.normal, up) >= -1e-5f);
          if (other.distance < 0.f) CHECK_APPROX(other.normal, up, 1e-5f);
        }

        NearbyPieces nearby;
        const Contact n = deepest(nearby.overlap_capsule(world, capsule, 0.f, {}));
        CHECK(n.distance == doctest::Approx(c.distance).epsilon(1e-5));
        CHECK_APPROX(n.normal, c.normal, 1e-6f);

        // A sweep from there: down (or along the slope into it) is stopped at once, up is free.
        for (const glm::vec3 motion : {glm::vec3(0.f, -0.5f, 0.f), -0.5f * up}) {
          const SweepHit hit = world.sweep_capsule(capsule, motion);
          CHECK(hit.hit);
          CHECK(hit.fraction == 0.f);
          CHECK(hit.target == HitTarget::terrain);
          CHECK(glm::dot(hit.normal, up) > 0.f); // one of the contacts tied at the start
          const SweepHit near_hit = nearby.sweep_capsule(world, capsule, motion, {}, {});
          CHECK(near_hit.hit);
          CHECK(near_hit.fraction == 0.f);
        }
        const glm::vec3 rise = (below + 0.5f) * glm::vec3(0.f, 1.f, 0.f);
        CHECK_FALSE(world.sweep_capsule(capsule, rise).hit);
        CHECK_FALSE(nearby.sweep_capsule(world, capsule, rise, {}, {}).hit);
      }
    }
  }
}

TEST_CASE("a capsule dipping into flat terrain slides along it: the overlap is not deepened") {
  // A character teleported 28 mm into the ground beside a triangle's edge, pushed sideways (a
  // turning platform): the neighbouring triangle's closest point is on its edge, with a tilted
  // normal, but moving along the surface leaves the solid no deeper. It used to stop at once.
  const World world = terrain_world(0.f);
  const float radius = 0.31f;
  const glm::vec3 feet{0.36f, -0.028f, 0.12f};
  const gjk::Capsule capsule{{feet + glm::vec3(0.f, radius, 0.f), feet + glm::vec3(0.f, 1.2f, 0.f)}, radius};
  NearbyPieces nearby;
  for (const glm::vec3 motion : {glm::vec3(0.011f, 0.f, -0.007f), glm::vec3(-0.011f, 0.f, 0.007f),
                                 glm::vec3(0.f, 0.f, 0.2f), glm::vec3(0.2f, 0.f, 0.f)}) {
    CAPTURE(motion);
    CHECK_FALSE(world.sweep_capsule(capsule, motion).hit);
    CHECK_FALSE(nearby.sweep_capsule(world, capsule, motion, {}, {}).hit);
  }
  // Down it deepens: stopped at once.
  const SweepHit down = world.sweep_capsule(capsule, {0.f, -0.1f, 0.f});
  CHECK(down.hit);
  CHECK(down.fraction == 0.f);
}

TEST_CASE("a capsule coming down along a steep face onto the crest of a knife-edge ridge stops at the crest") {
  // A ridge along x: 1.3 m high, its faces 0.3 m wide (77 degrees). The capsule's sphere is 0.2 m
  // in front of the +z face's plane, above the crest, where that plane runs on in the open over
  // the far face, and it moves down along the face: its sphere meets the crest edge when its
  // centre is sqrt(r^2 - 0.2^2) from the crest along the face. The plane's extension once passed
  // it through, 0.11 m into the ridge.
  HeightfieldDef def;
  def.rows = 3;
  def.columns = 4;
  def.cell_size = {0.3f, 0.3f};
  def.origin = {-0.45f, 0.f, -0.3f};
  def.heights = {0.f, 0.f, 0.f, 0.f, 1.3f, 1.3f, 1.3f, 1.3f, 0.f, 0.f, 0.f, 0.f};
  World world;
  world.set_terrain(Heightfield(std::move(def)));
  const glm::vec3 normal = glm::normalize(glm::vec3(0.f, 0.3f, 1.3f));   // of the +z face
  const glm::vec3 up_face = glm::normalize(glm::vec3(0.f, 1.3f, -0.3f)); // along it, up past the crest
  const glm::vec3 crest{0.05f, 1.3f, 0.f};
  const float radius = 0.31f, off = 0.2f, along = 0.5f, travel = 0.8f;
  const glm::vec3 centre = crest + off * normal + along * up_face;
  const gjk::Capsule capsule{{centre, centre + glm::vec3(0.f, 1.2f, 0.f)}, radius};
  const glm::vec3 motion = -travel * up_face;
  const float reach = std::sqrt(radius * radius - off * off); // the centre's way along the face from the crest
  const float expected = (along - reach) / travel;
  const glm::vec3 expected_normal = (off * normal + reach * up_face) / radius;
  NearbyPieces nearby;
  for (const SweepHit& hit :
       {world.sweep_capsule(capsule, motion), nearby.sweep_capsule(world, capsule, motion, {}, {})}) {
    REQUIRE(hit.hit);
    CHECK(hit.target == HitTarget::terrain);
    CHECK(hit.fraction == doctest::Approx(expected).epsilon(0.002));
    CHECK(glm::length(hit.normal - expected_normal) < 2e-3f);
  }
  // From where it touches the crest, on along the face: stopped at once, not let into the ridge.
  const glm::vec3 touching = crest + off * normal + (reach + 5e-5f) * up_face;
  const gjk::Capsule at_crest{{touching, touching + glm::vec3(0.f, 1.2f, 0.f)}, radius};
  const SweepHit on = world.sweep_capsule(at_crest, motion);
  REQUIRE(on.hit);
  CHECK(on.fraction < 1e-3f);
}
