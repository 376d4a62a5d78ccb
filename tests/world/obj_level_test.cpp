#include "approx.hpp"
#include "level_files.hpp"

#include <glide/error.hpp>
#include <glide/world/obj_level.hpp>

#include <glide/limits.hpp>

#include <filesystem>
#include <fstream>
#include <string>

using glide::NonConvexPolicy;
using glide::ObjLevelOptions;
using glide::World;

namespace {
using glide::test::level;

// Writes `text` to a file of the test's own under the temporary directory.
std::filesystem::path write_obj(const std::string& name, const std::string& text) {
  return glide::test::write_level_file("glide_obj_level_test", name, text);
}

const std::string k_tetra = "o Tetra\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
} // namespace

TEST_CASE("OBJ level: one convex piece per object and group, with names and lines") {
  World world;
  const glide::ObjLevelReport report = glide::load_obj_level(world, level("multi_object.obj"));
  REQUIRE(report.pieces.size() == 4);
  CHECK(world.piece_count() == 4);
  CHECK(report.pieces[0].name == "Floor");
  CHECK(report.pieces[0].line == 3);
  CHECK(report.pieces[1].name == "Crate");
  CHECK(report.pieces[2].name == "Ramp");
  CHECK(report.pieces[3].name == "Pillar");
  CHECK(report.warnings.empty());
  for (const auto& p : report.pieces) {
    CHECK_FALSE(p.replaced_by_hull);
    CHECK(p.convexity_error <= 1e-5f);
  }
  // Bounds come from the file's coordinates.
  const glide::gjk::Aabb floor = world.bounds(report.pieces[0].id);
  CHECK_APPROX(floor.min, glm::vec3(-10, -0.5f, -10), 0);
  CHECK_APPROX(floor.max, glm::vec3(10, 0, 10), 0);
  const glide::gjk::Aabb ramp = world.bounds(report.pieces[2].id);
  CHECK_APPROX(ramp.min, glm::vec3(-6, 0, -1), 0);
  CHECK_APPROX(ramp.max, glm::vec3(-4, 1, 1), 0);
  CHECK(world.hull(report.pieces[2].id).vertices().size() == 6);
}

TEST_CASE("OBJ level: scale, placement and piece info apply to every piece") {
  World world;
  ObjLevelOptions options;
  options.scale = 2.f;
  options.transform.translation = {0, 10, 0};
  options.info.layers = 4u;
  const auto report = glide::load_obj_level(world, level("multi_object.obj"), options);
  const glide::gjk::Aabb crate = world.bounds(report.pieces[1].id);
  CHECK_APPROX(crate.min, glm::vec3(4, 10, 4), 1e-6f);
  CHECK_APPROX(crate.max, glm::vec3(6, 12, 6), 1e-6f);
  CHECK(world.info(report.pieces[1].id).layers == 4u);
}

TEST_CASE("OBJ level: a non-convex object is an error naming it, or its hull with a warning") {
  World world;
  CHECK_THROWS_WITH_AS(glide::load_obj_level(world, level("l_shape.obj")),
                       doctest::Contains("l_shape.obj:2: object 'LShape' is not convex"), glide::Error);
  CHECK(world.piece_count() == 0);

  ObjLevelOptions options;
  options.non_convex = NonConvexPolicy::use_hull;
  const auto report = glide::load_obj_level(world, level("l_shape.obj"), options);
  REQUIRE(report.pieces.size() == 1);
  CHECK(report.pieces[0].replaced_by_hull);
  CHECK_APPROX(report.pieces[0].convexity_error, 1.f, 1e-5f);
  REQUIRE(report.warnings.size() == 1);
  CHECK(report.warnings[0].find("LShape") != std::string::npos);
  CHECK(report.warnings[0].find("replaced by its convex hull") != std::string::npos);
  // The piece is the hull: its farthest point toward the inner corner's side is on the hull's
  // diagonal face x + z = 3, not the corner at x + z = 2.
  const glm::vec3 far = world.hull(report.pieces[0].id).support({1, 0, 1});
  CHECK_APPROX(far.x + far.z, 3.f, 1e-6f);

  // A loose tolerance accepts it as it is.
  ObjLevelOptions loose;
  loose.convexity_tolerance = 1.5f;
  World other;
  CHECK_FALSE(glide::load_obj_level(other, level("l_shape.obj"), loose).pieces[0].replaced_by_hull);
}

TEST_CASE("OBJ level: broken files give errors naming file, line and object; the world is unchanged") {
  World world;
  CHECK_THROWS_WITH_AS(glide::load_obj_level(world, level("does_not_exist.obj")),
                       doctest::Contains("does_not_exist.obj: cannot open file"), glide::Error);
  CHECK_THROWS_WITH_AS(glide::load_obj_level(world, level("bad_syntax.obj")),
                       doctest::Contains("bad_syntax.obj:5: object 'Wedge': malformed number '1.0x'"), glide::Error);
  CHECK_THROWS_WITH_AS(glide::load_obj_level(world, level("nan_coordinate.obj")),
                       doctest::Contains("nan_coordinate.obj:10: object 'Bad': non-finite vertex coordinate 'nan'"),
                       glide::Error);
  CHECK_THROWS_WITH_AS(glide::load_obj_level(world, level("empty_object.obj")),
                       doctest::Contains("empty_object.obj:9: object 'Nothing' has no faces"), glide::Error);
  CHECK_THROWS_WITH_AS(glide::load_obj_level(world, level("bad_index.obj")),
                       doctest::Contains("bad_index.obj:7: object 'Tetra': vertex index 9 out of range"), glide::Error);
  CHECK(world.piece_count() == 0);
}

TEST_CASE("OBJ level: bad options are rejected") {
  World world;
  ObjLevelOptions options;
  options.scale = 0.f;
  CHECK_THROWS_WITH_AS(glide::load_obj_level(world, level("multi_object.obj"), options),
                       doctest::Contains("options.scale"), glide::Error);
  options.scale = 1.f;
  options.convexity_tolerance = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH_AS(glide::load_obj_level(world, level("multi_object.obj"), options),
                       doctest::Contains("convexity_tolerance"), glide::Error);
}

TEST_CASE("OBJ level: devices, directories and files over the size limit are refused before reading") {
  World world;
  CHECK_THROWS_WITH_AS(glide::load_obj_level(world, "/dev/zero"),
                       doctest::Contains("/dev/zero: cannot open file: not a regular file"), glide::Error);
  CHECK_THROWS_WITH_AS(glide::load_obj_level(world, GLIDE_LEVELS_DIR),
                       doctest::Contains("cannot open file: not a regular file"), glide::Error);
  // A sparse file one byte over the limit costs no disk.
  const auto big = write_obj("big.obj", "");
  std::filesystem::resize_file(big, glide::limits::k_max_obj_bytes + 1);
  CHECK_THROWS_WITH_AS(glide::load_obj_level(world, big),
                       doctest::Contains("67108865 bytes exceed the largest OBJ file of 67108864 bytes"), glide::Error);
  std::filesystem::remove(big);
  CHECK(world.piece_count() == 0);
}

TEST_CASE("OBJ level: a bare carriage return ends a line for the checks as for the parser") {
  World world;
  // The statement after the return is a vertex of its own, and its nan is caught.
  const auto hidden = write_obj("hidden.obj", "g x\rv nan 5 5\n" + k_tetra);
  CHECK_THROWS_WITH_AS(glide::load_obj_level(world, hidden),
                       doctest::Contains("hidden.obj:2: object 'x': non-finite vertex coordinate 'nan'"), glide::Error);
  CHECK(world.piece_count() == 0);
  // Files with only carriage returns, or with CR LF, load as with line feeds.
  for (const std::string eol : {"\r", "\r\n"}) {
    std::string text = k_tetra;
    for (std::size_t i = text.find('\n'); i != std::string::npos; i = text.find('\n', i + eol.size()))
      text.replace(i, 1, eol);
    const glide::ObjLevelReport report = glide::load_obj_level(world, write_obj("cr.obj", text));
    REQUIRE(report.pieces.size() == 1);
    CHECK(report.pieces[0].name == "Tetra");
    CHECK(report.pieces[0].line == 1);
    CHECK(world.hull(report.pieces[0].id).vertices().size() == 4);
  }
}

TEST_CASE("OBJ level: objects beyond the valid range or the vertex limit are errors; the world is unchanged") {
  World world;
  // Two triangles at x = +-2e38: finite, but their bounds overflow in the broadphase.
  const auto far = write_obj("far.obj", "o Near\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"
                                        "o A\nv -2e38 0 0\nv -2e38 1 0\nv -2e38 0 1\nf 4 5 6\n"
                                        "o B\nv 2e38 0 0\nv 2e38 1 0\nv 2e38 0 1\nf 7 8 9\n");
  CHECK_THROWS_WITH_AS(glide::load_obj_level(world, far),
                       doctest::Contains("far.obj:6: object 'A': spans (-2e+38, 0, 0) to (-2e+38, 1, 1) (m), beyond "
                                         "the valid coordinates (|v| <= 1e+06 m)"),
                       glide::Error);
  ObjLevelOptions scaled;
  scaled.scale = 1e7f; // in range only before the scale
  CHECK_THROWS_WITH_AS(glide::load_obj_level(world, write_obj("tetra.obj", k_tetra), scaled),
                       doctest::Contains("object 'Tetra': size (1e+07, 1e+07, 1e+07) exceeds the largest piece"),
                       glide::Error);
  // One vertex over the limit, in a single face: refused before its hull is built.
  const std::size_t n = glide::limits::k_max_obj_object_vertices + 1;
  std::string many = "o Many\n", face = "f";
  for (std::size_t i = 0; i < n; ++i) {
    many.append("v ").append(std::to_string(i % 1000)).append(" ").append(std::to_string(i / 1000)).append(" 0\n");
    face.append(" ").append(std::to_string(i + 1));
  }
  CHECK_THROWS_WITH_AS(glide::load_obj_level(world, write_obj("many.obj", many + face + "\n")),
                       doctest::Contains("many.obj:1: object 'Many': more than 100000 vertices in one object"),
                       glide::Error);
  CHECK(world.piece_count() == 0);
}
