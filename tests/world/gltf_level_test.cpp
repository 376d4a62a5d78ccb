#include "approx.hpp"
#include "level_files.hpp"

#include <glide/error.hpp>
#include <glide/world/gltf_level.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <filesystem>
#include <fstream>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

using glide::EdgeKind;
using glide::GltfLevelOptions;
using glide::NonConvexPolicy;
using glide::PieceId;
using glide::TriangleMesh;
using glide::World;

namespace {

using glide::test::level;

std::filesystem::path write_file(const std::string& name, const std::string& bytes) {
  return glide::test::write_level_file("glide_gltf_level_test", name, bytes);
}

std::string base64(const std::string& bytes) {
  static const char* k_digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 2]);
    out += k_digits[(v >> 18) & 63];
    out += k_digits[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? k_digits[(v >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? k_digits[v & 63] : '=';
  }
  return out;
}

// A one-mesh glTF with its buffer in a data: URI: positions (FLOAT VEC3) then uint16 indices.
// `node` is the JSON of the single node; the accessor fields can be overridden to break it.
struct OneMesh {
  std::vector<glm::vec3> positions;
  std::vector<std::uint16_t> indices;
  std::string node = R"({"name": "Thing", "mesh": 0})";
  std::string position_fields = R"("componentType": 5126, "type": "VEC3")";
  std::string buffer_uri; ///< default: the data: URI of the buffer

  std::string text() const {
    std::string bytes(positions.size() * 12, '\0');
    std::memcpy(bytes.data(), positions.data(), bytes.size());
    const std::size_t index_offset = bytes.size();
    bytes.resize(index_offset + indices.size() * 2);
    std::memcpy(bytes.data() + index_offset, indices.data(), indices.size() * 2);
    const std::string uri = buffer_uri.empty() ? "data:application/octet-stream;base64," + base64(bytes) : buffer_uri;
    return R"({"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "nodes": [)" + node +
           R"(], "meshes": [{"name": "thing", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
  "accessors": [{"bufferView": 0, )" +
           position_fields + R"(, "count": )" + std::to_string(positions.size()) +
           R"(}, {"bufferView": 1, "componentType": 5123, "type": "SCALAR", "count": )" +
           std::to_string(indices.size()) + R"(}],
  "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": )" +
           std::to_string(index_offset) + R"(}, {"buffer": 0, "byteOffset": )" + std::to_string(index_offset) +
           R"(, "byteLength": )" + std::to_string(indices.size() * 2) + R"(}],
  "buffers": [{"uri": ")" +
           uri + R"(", "byteLength": )" + std::to_string(bytes.size()) + "}]}";
  }
};

OneMesh tetra() {
  OneMesh m;
  m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  m.indices = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
  return m;
}

// The hull's vertices sorted, to compare with an expected set in any order.
std::vector<glm::vec3> sorted(std::vector<glm::vec3> v) {
  std::sort(v.begin(), v.end(), [](const glm::vec3& a, const glm::vec3& b) {
    return a.x != b.x ? a.x < b.x : a.y != b.y ? a.y < b.y : a.z < b.z;
  });
  return v;
}

void check_vertices(const World& world, glide::PieceId id, const std::vector<glm::vec3>& expected) {
  // Rounded to 1e-4 m before sorting so float noise cannot reorder them.
  auto rounded = [](std::vector<glm::vec3> v) {
    for (glm::vec3& p : v) p = glm::round(p * 1e4f) / 1e4f;
    return sorted(v);
  };
  const std::span<const glm::vec3> vertices = world.hull(id).vertices();
  const std::vector<glm::vec3> got = rounded({vertices.begin(), vertices.end()});
  const std::vector<glm::vec3> want = rounded(expected);
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) CHECK_APPROX(got[i], want[i], 1e-4f);
}

// The placed corners of a mesh piece's triangle `t`, in any order.
void check_triangle(const World& world, PieceId id, std::uint32_t t, std::vector<glm::vec3> expected) {
  std::vector<glm::vec3> got;
  for (const std::uint32_t i : world.mesh(id).triangles()[t]) got.push_back(world.world_vertices(id)[i]);
  got = sorted(got);
  expected = sorted(expected);
  for (std::size_t i = 0; i < 3; ++i) CHECK_APPROX(got[i], expected[i], 1e-5f);
}

// Root translates by (10, 0, 0); Box turns the unit cube 90 degrees about +y after scaling x by 2:
// (x, y, z) -> (10 + z, y, -2x). Child scales by 0.5 and lifts by 3, Tetra moves by (0, 0, 2)
// first: v -> (10, 3, 1) + 0.5 v. (tests/levels/make_gltf_levels.py writes the files.)
void check_multi_node(const World& world, const glide::GltfLevelReport& report) {
  REQUIRE(report.pieces.size() == 2);
  CHECK(report.pieces[0].name == "Box");
  CHECK(report.pieces[0].mesh == "cube");
  CHECK(report.pieces[0].node == 1);
  CHECK(report.pieces[1].name == "Tetra");
  CHECK(report.pieces[1].node == 3);
  for (const auto& p : report.pieces) {
    CHECK_FALSE(p.replaced_by_hull);
    CHECK(p.convexity_error <= 1e-5f);
  }
  std::vector<glm::vec3> box;
  for (float x : {-0.5f, 0.5f})
    for (float y : {-0.5f, 0.5f})
      for (float z : {-0.5f, 0.5f}) box.push_back({10 + z, y, -2 * x});
  check_vertices(world, report.pieces[0].id, box);
  check_vertices(world, report.pieces[1].id, {{10, 3, 1}, {10.5f, 3, 1}, {10, 3.5f, 1}, {10, 3, 1.5f}});

  // Mesh-marked by name (Floor-mesh) and by extras (Ramp): one mesh piece each.
  REQUIRE(report.meshes.size() == 2);
  CHECK(report.meshes[0].name == "Floor-mesh");
  REQUIRE(world.is_mesh(report.meshes[0].id));
  CHECK(report.meshes[0].triangles == 2);
  CHECK(report.meshes[0].skipped_triangles == 1);
  check_triangle(world, report.meshes[0].id, 0, {{-1, 0, -1}, {1, 0, 1}, {1, 0, -1}});
  check_triangle(world, report.meshes[0].id, 1, {{-1, 0, -1}, {-1, 0, 1}, {1, 0, 1}});
  // The floor's two triangles share their diagonal: one flat surface.
  const TriangleMesh& floor = world.mesh(report.meshes[0].id);
  CHECK(floor.neighbour(0, 0) == 1u);
  CHECK(floor.edge_kind(0, 0) == EdgeKind::flat);
  CHECK(report.meshes[1].name == "Ramp");
  REQUIRE(world.is_mesh(report.meshes[1].id));
  CHECK(report.meshes[1].triangles == 1);
  check_triangle(world, report.meshes[1].id, 0, {{0, 0, -5}, {0, 1, -7}, {1, 0, -5}});
  CHECK(report.triangle_count() == 3);
  REQUIRE(report.warnings.size() == 1);
  CHECK(report.warnings[0].find("node 'Floor-mesh', mesh 'floor': 1 zero-area triangles skipped") != std::string::npos);
  CHECK(world.piece_count() == 4);
}

} // namespace

TEST_CASE("glTF level: nested TRS and matrix transforms place every node's hull") {
  World world;
  const glide::GltfLevelReport report = glide::load_gltf_level(world, level("multi_node.gltf"));
  check_multi_node(world, report);
}

TEST_CASE("glTF level: the .glb gives the same pieces as its .gltf") {
  World text, binary;
  const auto a = glide::load_gltf_level(text, level("multi_node.gltf"));
  const auto b = glide::load_gltf_level(binary, level("multi_node.glb"));
  check_multi_node(binary, b);
  REQUIRE(a.pieces.size() == b.pieces.size());
  for (std::size_t i = 0; i < a.pieces.size(); ++i) {
    CHECK(a.pieces[i].name == b.pieces[i].name);
    const auto va = text.hull(a.pieces[i].id).vertices();
    const auto vb = binary.hull(b.pieces[i].id).vertices();
    CHECK(std::equal(va.begin(), va.end(), vb.begin(), vb.end()));
  }
  CHECK(a.triangle_count() == b.triangle_count());
}

TEST_CASE("glTF level: scale, placement and piece info apply to every piece") {
  World world;
  GltfLevelOptions options;
  options.scale = 2.f;
  options.transform.translation = {0, 10, 0};
  options.info.layers = 4u;
  const auto report = glide::load_gltf_level(world, level("multi_node.gltf"), options);
  const glide::gjk::Aabb tetra = world.bounds(report.pieces[1].id);
  CHECK_APPROX(tetra.min, glm::vec3(20, 16, 2), 1e-5f);
  CHECK_APPROX(tetra.max, glm::vec3(21, 17, 3), 1e-5f);
  CHECK(world.info(report.pieces[1].id).layers == 4u);
  CHECK(world.info(report.meshes[0].id).layers == 4u);
  CHECK(world.bounds(report.meshes[0].id).min.y == doctest::Approx(10.f));
}

TEST_CASE("glTF level: a data: URI buffer; a non-convex node is an error naming it, or its hull") {
  World world;
  const auto path = write_file("tetra.gltf", tetra().text());
  const auto report = glide::load_gltf_level(world, path);
  REQUIRE(report.pieces.size() == 1);
  CHECK(report.pieces[0].name == "Thing");
  check_vertices(world, report.pieces[0].id, {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});

  // An L-shaped prism: x in [0, 2], z in [0, 2] without the square [1, 2] x [1, 2]; y in [0, 1].
  OneMesh l;
  const glm::vec2 outline[6] = {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}};
  for (float y : {0.f, 1.f})
    for (const glm::vec2& p : outline) l.positions.push_back({p.x, y, p.y});
  // Caps fanned from the corner (0, 0); walls two triangles each.
  for (std::uint16_t k = 1; k + 1 < 6; ++k) l.indices.insert(l.indices.end(), {0, k, std::uint16_t(k + 1)});
  for (std::uint16_t k = 1; k + 1 < 6; ++k)
    l.indices.insert(l.indices.end(), {6, std::uint16_t(6 + k + 1), std::uint16_t(6 + k)});
  for (std::uint16_t k = 0; k < 6; ++k) {
    const auto next = std::uint16_t((k + 1) % 6);
    l.indices.insert(l.indices.end(),
                     {k, std::uint16_t(6 + k), next, next, std::uint16_t(6 + k), std::uint16_t(6 + next)});
  }
  l.node = R"({"name": "LShape", "mesh": 0})";
  const auto l_path = write_file("l_shape.gltf", l.text());
  World other;
  CHECK_THROWS_WITH_AS(glide::load_gltf_level(other, l_path),
                       doctest::Contains("l_shape.gltf: node 'LShape', mesh 'thing' is not convex: triangle "),
                       glide::Error);
  CHECK(other.piece_count() == 0);

  GltfLevelOptions options;
  options.non_convex = NonConvexPolicy::use_hull;
  const auto hull = glide::load_gltf_level(other, l_path, options);
  REQUIRE(hull.pieces.size() == 1);
  CHECK(hull.pieces[0].replaced_by_hull);
  CHECK_APPROX(hull.pieces[0].convexity_error, 1.f, 1e-5f);
  REQUIRE(hull.warnings.size() == 1);
  CHECK(hull.warnings[0].find("replaced by its convex hull") != std::string::npos);
  // The inner corner (1, 1) is inside the hull: the farthest point along (1, 0, 1) is on x + z = 3.
  const glm::vec3 far = other.hull(hull.pieces[0].id).support({1, 0, 1});
  CHECK_APPROX(far.x + far.z, 3.f, 1e-6f);

  // Marked as a mesh, the same node is its triangles as they are: no convexity check.
  l.node = R"({"name": "LShape-mesh", "mesh": 0})";
  World meshed;
  const auto mesh = glide::load_gltf_level(meshed, write_file("l_shape_mesh.gltf", l.text()));
  REQUIRE(mesh.meshes.size() == 1);
  CHECK(mesh.pieces.empty());
  CHECK(mesh.meshes[0].triangles == l.indices.size() / 3);
  CHECK(mesh.warnings.empty());
  // Down onto the missing square's middle: through it, onto nothing.
  const glide::gjk::Capsule probe{{{1.5f, 3.f, 1.5f}, {1.5f, 3.f, 1.5f}}, 0.1f};
  CHECK_FALSE(meshed.sweep_capsule(probe, {0, -5, 0}).hit);
  CHECK(meshed.sweep_capsule(probe, {-1, -5, -1}).hit);
}

TEST_CASE("glTF level: malformed files give errors naming file, node and mesh; the world is unchanged") {
  World world;
  world.add_piece(glide::gjk::ConvexHull::box({1, 1, 1}));
  const auto fails = [&](const std::string& name, const std::string& text, const std::string& message) {
    const auto path = write_file(name, text);
    CHECK_THROWS_WITH_AS(glide::load_gltf_level(world, path), doctest::Contains(message.c_str()), glide::Error);
    CHECK(world.piece_count() == 1);
  };
  CHECK_THROWS_WITH_AS(glide::load_gltf_level(world, level("does_not_exist.gltf")),
                       doctest::Contains("does_not_exist.gltf: cannot open file"), glide::Error);
  CHECK_THROWS_WITH_AS(glide::load_gltf_level(world, "/dev/zero"),
                       doctest::Contains("/dev/zero: cannot open file: not a regular file"), glide::Error);
  fails("bad_json.gltf", "{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [",
        "bad_json.gltf: [json.exception.parse_error");

  OneMesh missing = tetra();
  missing.buffer_uri = "missing.bin";
  fails("missing_buffer.gltf", missing.text(), "missing_buffer.gltf: File not found : missing.bin");

  OneMesh index = tetra();
  index.indices[4] = 9;
  fails("bad_index.gltf", index.text(),
        "bad_index.gltf: node 'Thing', mesh 'thing': primitive 0: indices: index 4 is 9, out of range (4 vertices)");

  OneMesh ints = tetra();
  ints.position_fields = R"("componentType": 5125, "type": "VEC3")";
  fails("int_positions.gltf", ints.text(),
        "int_positions.gltf: node 'Thing', mesh 'thing': primitive 0: POSITION: accessor 0 is UNSIGNED_INT VEC3, "
        "expected FLOAT VEC3");

  OneMesh vec2 = tetra();
  vec2.position_fields = R"("componentType": 5126, "type": "VEC2")";
  fails("vec2_positions.gltf", vec2.text(), "vec2_positions.gltf: node 'Thing', mesh 'thing': primitive 0: POSITION: ");

  OneMesh overrun = tetra();
  overrun.position_fields = R"("componentType": 5126, "type": "VEC4")";
  fails("overrun.gltf", overrun.text(),
        "overrun.gltf: node 'Thing', mesh 'thing': primitive 0: POSITION: accessor 0: ");

  OneMesh zero_rotation = tetra();
  zero_rotation.node = R"({"name": "Thing", "mesh": 0, "rotation": [0, 0, 0, 0]})";
  fails("zero_rotation.gltf", zero_rotation.text(),
        "zero_rotation.gltf: node 'Thing': rotation [0, 0, 0, 0] is not a rotation");

  OneMesh cycle = tetra();
  cycle.node = R"({"name": "Thing", "mesh": 0, "children": [0]})";
  fails("cycle.gltf", cycle.text(), "cycle.gltf: node 'Thing': reached twice");

  OneMesh line = tetra();
  line.positions = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}};
  line.node = R"({"name": "Line-mesh", "mesh": 0})";
  fails("line_mesh.gltf", line.text(),
        "line_mesh.gltf: node 'Line-mesh', mesh 'thing': no triangle of positive area (4 given, 4 of zero area)");

  OneMesh no_mesh = tetra();
  no_mesh.node = R"({"name": "Empty"})";
  fails("no_mesh.gltf", no_mesh.text(), "no_mesh.gltf: no nodes with meshes in the scene");

  OneMesh points = tetra();
  std::string points_text = points.text();
  points_text.replace(points_text.find("\"indices\": 1}"), 13, "\"indices\": 1, \"mode\": 0}");
  fails("points.gltf", points_text,
        "points.gltf: node 'Thing', mesh 'thing': primitive 0: mode POINTS is not supported");
}

TEST_CASE("glTF level: a non-finite node matrix is an error naming the file or the node") {
  // JSON has no NaN or infinity: an entry beyond double's range fails the parse.
  World world;
  OneMesh m = tetra();
  m.node = R"({"name": "Thing", "mesh": 0, "matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1e999, 0, 1]})";
  CHECK_THROWS_WITH_AS(glide::load_gltf_level(world, write_file("inf_matrix.gltf", m.text())),
                       doctest::Contains("inf_matrix.gltf: [json.exception.out_of_range.406] number overflow"),
                       glide::Error);
  // A finite matrix that takes a vertex beyond float's range.
  m.node = R"({"name": "Thing", "mesh": 0, "matrix": [1e300, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]})";
  CHECK_THROWS_WITH_AS(glide::load_gltf_level(world, write_file("huge_matrix.gltf", m.text())),
                       doctest::Contains("huge_matrix.gltf: node 'Thing', mesh 'thing': primitive 0: vertex 1 is not "
                                         "finite once placed by the node transforms"),
                       glide::Error);
  // A finite one that places the piece beyond the valid coordinates.
  m.node = R"({"name": "Thing", "mesh": 0, "translation": [2e6, 0, 0]})";
  CHECK_THROWS_WITH_AS(glide::load_gltf_level(world, write_file("far.gltf", m.text())),
                       doctest::Contains("far.gltf: node 'Thing', mesh 'thing': spans"), glide::Error);
  CHECK(world.piece_count() == 0);
}

TEST_CASE("glTF level: triangle strips and fans give the triangles the specification lists") {
  // Four corners of a square at y = 0, as a strip (0 1 2, then 2 1 3 keeping the winding) and
  // five points as a fan (0 1 2, 0 2 3, 0 3 4); mesh-marked so each triangle is a piece.
  const auto load = [](const std::string& name, std::vector<glm::vec3> positions, int mode) {
    OneMesh m;
    m.positions = std::move(positions);
    for (std::size_t i = 0; i < m.positions.size(); ++i) m.indices.push_back(static_cast<std::uint16_t>(i));
    m.node = R"({"name": "Strip-mesh", "mesh": 0})";
    std::string text = m.text();
    text.replace(text.find("\"indices\": 1}"), 13, "\"indices\": 1, \"mode\": " + std::to_string(mode) + "}");
    auto world = std::make_unique<World>();
    const auto report = glide::load_gltf_level(*world, write_file(name, text));
    return std::pair{std::move(world), report};
  };
  const auto [strip_world, strip] = load("strip.gltf", {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {1, 0, 1}}, 5);
  REQUIRE(strip.meshes.size() == 1);
  REQUIRE(strip.meshes[0].triangles == 2);
  check_triangle(*strip_world, strip.meshes[0].id, 0, {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}});
  check_triangle(*strip_world, strip.meshes[0].id, 1, {{0, 0, 1}, {1, 0, 0}, {1, 0, 1}});

  const auto [fan_world, fan] = load("fan.gltf", {{0, 0, 0}, {2, 0, 0}, {2, 0, 1}, {1, 0, 2}, {0, 0, 2}}, 6);
  REQUIRE(fan.meshes.size() == 1);
  REQUIRE(fan.meshes[0].triangles == 3);
  check_triangle(*fan_world, fan.meshes[0].id, 0, {{0, 0, 0}, {2, 0, 0}, {2, 0, 1}});
  check_triangle(*fan_world, fan.meshes[0].id, 1, {{0, 0, 0}, {2, 0, 1}, {1, 0, 2}});
  check_triangle(*fan_world, fan.meshes[0].id, 2, {{0, 0, 0}, {1, 0, 2}, {0, 0, 2}});
}
