// TriangleMesh: validation, adjacency and active edges on small meshes whose answers are known,
// the normal rule on one triangle, and a mesh piece's place among a world's pieces.
#include "approx.hpp"
#include "mesh_levels.hpp"
#include "mesh_piece.hpp"

#include <glide/error.hpp>
#include <glide/world/triangle_mesh.hpp>
#include <glide/world/world.hpp>

#include <doctest/doctest.h>
#include <glm/gtc/quaternion.hpp>

#include <cmath>
#include <limits>
#include <string>

using namespace glide;
using namespace glide::test;

namespace {

std::string error_of(const auto& make) {
  try {
    make();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Two triangles sharing the edge (0,0,0)-(0,0,1): the first in the plane y = 0 over x < 0,
// facing up; the second turned about the edge by `degrees` (positive: folded down, a ridge).
TriangleMesh hinge(float degrees, const TriangleMeshSettings& settings = {}) {
  const float a = glm::radians(degrees);
  MeshData m;
  m.add({0, 0, 0});
  m.add({0, 0, 1});
  m.add({-1, 0, 0.5f});
  m.add({std::cos(a), -std::sin(a), 0.5f});
  m.triangles = {{1, 0, 2}, {0, 1, 3}};
  return m.mesh(settings);
}

// The kind of the shared edge, seen from triangle 0, and checked the same from triangle 1.
EdgeKind shared_kind(const TriangleMesh& mesh) {
  REQUIRE(mesh.neighbour(0, 0) == 1u);
  REQUIRE(mesh.neighbour(1, 0) == 0u);
  CHECK(mesh.edge_kind(1, 0) == mesh.edge_kind(0, 0));
  return mesh.edge_kind(0, 0);
}

} // namespace

TEST_CASE("TriangleMesh refuses invalid input with an error naming the vertex or triangle") {
  const std::vector<glm::vec3> v{{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
  CHECK(error_of([&] {
          TriangleMesh({{0, 0, 0}, {1, NAN, 0}, {0, 0, 1}}, {{0, 1, 2}});
        }).find("vertex 1 is not finite") != std::string::npos);
  CHECK(error_of([&] {
          TriangleMesh(v, {{0, 1, 2}, {0, 2, 7}});
        }).find("triangle 1 corner 2 is vertex 7") != std::string::npos);
  CHECK(error_of([&] {
          TriangleMesh(v, {{0, 1, 1}, {0, 0, 0}});
        }).find("no triangle of positive area") != std::string::npos);
  CHECK(error_of([&] { TriangleMesh(v, {}); }).find("no triangle") != std::string::npos);
  CHECK(error_of([&] { TriangleMesh(v, {{0, 1, 2}}, {.flat_angle = -0.1f}); }).find("flat_angle") != std::string::npos);
  CHECK(error_of([&] { TriangleMesh(v, {{0, 1, 2}}, {.flat_angle = NAN}); }).find("flat_angle") != std::string::npos);
}

TEST_CASE("TriangleMesh drops zero-area triangles and counts them") {
  // A collinear triangle, a repeated index, and two good ones.
  const TriangleMesh mesh({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 0, 1}}, {{0, 1, 2}, {0, 3, 1}, {1, 1, 3}, {1, 3, 2}});
  CHECK(mesh.dropped_triangles() == 2u);
  REQUIRE(mesh.triangle_count() == 2u);
  CHECK(mesh.source_triangle(0) == 1u);
  CHECK(mesh.source_triangle(1) == 3u);
  CHECK_APPROX(mesh.face_normal(0), glm::vec3(0, 1, 0), 1e-6f);
  CHECK_APPROX(mesh.bounds_min(), glm::vec3(0, 0, 0), 0.f);
  CHECK_APPROX(mesh.bounds_max(), glm::vec3(2, 0, 1), 0.f);
}

TEST_CASE("Edges between two triangles: flat, ridge and valley by the angle between their faces") {
  CHECK(shared_kind(hinge(0.f)) == EdgeKind::flat);
  CHECK(shared_kind(hinge(2.f)) == EdgeKind::flat); // under the 2.5 degree default
  CHECK(shared_kind(hinge(-2.f)) == EdgeKind::flat);
  CHECK(shared_kind(hinge(3.f)) == EdgeKind::convex);
  CHECK(shared_kind(hinge(90.f)) == EdgeKind::convex);
  CHECK(shared_kind(hinge(170.f)) == EdgeKind::convex);
  CHECK(shared_kind(hinge(-3.f)) == EdgeKind::concave);
  CHECK(shared_kind(hinge(-90.f)) == EdgeKind::concave);
  CHECK(shared_kind(hinge(5.f, {.flat_angle = glm::radians(10.f)})) == EdgeKind::flat);
  CHECK(shared_kind(hinge(1.f, {.flat_angle = 0.f})) == EdgeKind::convex);
  // Folded flat onto itself: no side to tell, so active from both.
  CHECK(shared_kind(hinge(180.f)) == EdgeKind::boundary);

  // Active bits: edge 0 is the shared one; edges 1 and 2 are boundaries, active from both sides.
  CHECK(hinge(0.f).active_edges(0) == 0b110'110);
  CHECK(hinge(30.f).active_edges(0) == 0b110'111);
  CHECK(hinge(-30.f).active_edges(0) == 0b111'110);
}

TEST_CASE("Edges are matched through coincident vertices, and only between consistent windings") {
  // A flat quad whose two triangles have vertices of their own (as exporters split them).
  const std::vector<glm::vec3> split{{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {0, 0, 0}, {1, 0, 1}, {1, 0, 0}};
  const std::vector<TriangleMesh::Indices> two{{0, 1, 2}, {3, 4, 5}};
  const TriangleMesh welded(split, two);
  CHECK(welded.neighbour(0, 2) == 1u);
  CHECK(welded.edge_kind(0, 2) == EdgeKind::flat);
  const TriangleMesh apart(split, two, {.weld_coincident = false});
  for (int e = 0; e < 3; ++e) {
    CHECK(apart.neighbour(0, e) == TriangleMesh::k_none);
    CHECK(apart.edge_kind(0, e) == EdgeKind::boundary);
  }
  // The second triangle wound the other way: the pair is not a surface, its edge a boundary.
  const TriangleMesh flipped(split, {{0, 1, 2}, {3, 5, 4}});
  CHECK(flipped.neighbour(0, 2) == TriangleMesh::k_none);
  CHECK(flipped.edge_kind(0, 2) == EdgeKind::boundary);
  // Three triangles on one edge: not a surface either.
  const TriangleMesh fin({{0, 0, 0}, {0, 0, 1}, {-1, 0, 0.5f}, {1, 0, 0.5f}, {0, 1, 0.5f}},
                         {{0, 1, 2}, {1, 0, 3}, {1, 0, 4}});
  for (std::uint32_t t = 0; t < 3; ++t) CHECK(fin.edge_kind(t, 0) == EdgeKind::boundary);
}

TEST_CASE("A closed box's edges are all convex; the inside of a room's corner is concave") {
  MeshData box;
  add_box_mesh(box, {0, 0, 0}, {1, 2, 3});
  const TriangleMesh mesh = box.mesh();
  REQUIRE(mesh.triangle_count() == 12u);
  int convex = 0, flat = 0;
  for (std::uint32_t t = 0; t < 12; ++t)
    for (int e = 0; e < 3; ++e) {
      REQUIRE(mesh.neighbour(t, e) != TriangleMesh::k_none);
      convex += mesh.edge_kind(t, e) == EdgeKind::convex;
      flat += mesh.edge_kind(t, e) == EdgeKind::flat;
    }
  CHECK(convex == 24); // 12 edges, seen from both sides
  CHECK(flat == 12);   // each face's diagonal
}

TEST_CASE("The normal rule: inactive edges and vertices give the face normal, active ones keep theirs") {
  const glm::vec3 c[3] = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}}; // faces up
  const std::span<const glm::vec3> corners(c, 3);
  const glm::vec3 tilted = glm::normalize(glm::vec3(-1, 1, 0)); // from edge 0 (x = 0), up and out
  // Edge 0 inactive from the front: up instead.
  CHECK_APPROX(detail::mesh_normal(corners, 0b000'110, {0, 0, 0.5f}, tilted), glm::vec3(0, 1, 0), 0.f);
  // Active from the front: kept.
  CHECK_APPROX(detail::mesh_normal(corners, 0b000'001, {0, 0, 0.5f}, tilted), tilted, 0.f);
  // Seen from behind, the front's bits do not count: the face normal behind.
  const glm::vec3 below = glm::normalize(glm::vec3(-1, -1, 0));
  CHECK_APPROX(detail::mesh_normal(corners, 0b000'111, {0, 0, 0.5f}, below), glm::vec3(0, -1, 0), 0.f);
  CHECK_APPROX(detail::mesh_normal(corners, 0b001'000, {0, 0, 0.5f}, below), below, 0.f);
  // A vertex: kept when either edge through it is active, the face's when both are inactive.
  const glm::vec3 corner_normal = glm::normalize(glm::vec3(-1, 1, -1));
  CHECK_APPROX(detail::mesh_normal(corners, 0b000'100, {0, 0, 0}, corner_normal), corner_normal, 0.f);
  CHECK_APPROX(detail::mesh_normal(corners, 0b000'010, {0, 0, 0}, corner_normal), glm::vec3(0, 1, 0), 0.f);
  // Within the reach of an active edge (0.1 mm) counts as on it; beyond, not.
  CHECK_APPROX(detail::mesh_normal(corners, 0b000'001, {0.00005f, 0, 0.5f}, tilted), tilted, 0.f);
  CHECK_APPROX(detail::mesh_normal(corners, 0b000'001, {0.001f, 0, 0.5f}, tilted), glm::vec3(0, 1, 0), 0.f);
  // The side may be given: a capsule reaching through the triangle from above.
  CHECK_APPROX(detail::mesh_normal(corners, 0b000'000, {0.2f, 0, 0.2f}, glm::vec3(0, -1, 0), 1.f), glm::vec3(0, 1, 0),
               0.f);
}

TEST_CASE("A mesh piece is static, has no hull, and reports its placed vertices") {
  World world;
  MeshData m;
  add_quad(m, {0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 0, 0});
  const gjk::Transform place{glm::angleAxis(glm::radians(90.f), glm::vec3(0, 1, 0)), {10, 0, 0}};
  const PieceId box = world.add_piece(gjk::ConvexHull::box({1, 1, 1}));
  const PieceId id = world.add_mesh(m.mesh(), place, {.layers = 2u, .user_data = 7u});
  CHECK(world.is_mesh(id));
  CHECK_FALSE(world.is_mesh(box));
  CHECK(world.mesh(id).triangle_count() == 2u);
  CHECK(world.info(id).user_data == 7u);
  CHECK(world.piece_count() == 2u);
  REQUIRE(world.world_vertices(id).size() == 4u);
  for (std::size_t i = 0; i < 4; ++i) CHECK_APPROX(world.world_vertices(id)[i], place.apply(m.vertices[i]), 1e-6f);
  CHECK_APPROX(world.bounds(id).min, glm::vec3(10, 0, -1), 1e-6f);
  CHECK_APPROX(world.bounds(id).max, glm::vec3(11, 0, 0), 1e-6f);
  CHECK(error_of([&] { world.hull(id); }).find("triangle mesh") != std::string::npos);
  CHECK(error_of([&] { world.move_piece(id, {}, 0.1f); }).find("World::move_piece: piece 1 is a triangle mesh") !=
        std::string::npos);
  CHECK(error_of([&] { world.set_piece_transform(id, {}); }).find("triangle mesh") != std::string::npos);
  CHECK(error_of([&] { world.mesh(box); }).find("not a triangle mesh") != std::string::npos);
  CHECK(error_of([&] { world.add_mesh(m.mesh(), {}, {.kinematic = true}); }).find("kinematic") != std::string::npos);
  CHECK(error_of([&] { world.add_mesh(TriangleMesh{}); }).find("no triangles") != std::string::npos);
  CHECK(error_of([&] {
          world.add_mesh(m.mesh(), {{1, 0, 0, 0}, {2e6f, 0, 0}});
        }).find("beyond the valid") != std::string::npos);
  CHECK(error_of([&] { world.add_mesh(m.mesh(), {{2, 0, 0, 0}, {}}); }).find("unit quaternion") != std::string::npos);
  CHECK(world.piece_count() == 2u); // the failed calls added nothing

  const gjk::Capsule above{{{10.5f, 1.f, -0.5f}, {10.5f, 2.f, -0.5f}}, 0.3f};
  const SweepHit hit = world.sweep_capsule(above, {0, -2, 0});
  REQUIRE(hit.hit);
  CHECK(hit.piece == id);
  CHECK(hit.triangle < 2u);
  CHECK_APPROX(hit.normal, glm::vec3(0, 1, 0), 1e-6f);
  // Filters see the mesh's id and layers.
  CHECK_FALSE(world.sweep_capsule(above, {0, -2, 0}, {.layer_mask = 1u}).hit);
  CHECK_FALSE(world.sweep_capsule(above, {0, -2, 0}, {.accept = [&](PieceId p) { return p != id; }}).hit);

  world.remove_piece(id);
  CHECK_FALSE(world.is_mesh(id));
  CHECK_FALSE(world.sweep_capsule(above, {0, -2, 0}).hit);
  CHECK(world.piece_count() == 1u);

  // Moving the world moves its meshes with it.
  const PieceId again = world.add_mesh(m.mesh(), place);
  World moved = std::move(world);
  CHECK(moved.is_mesh(again));
  CHECK(moved.sweep_capsule(above, {0, -2, 0}).piece == again);
  CHECK(world.piece_count() == 0u);
}
