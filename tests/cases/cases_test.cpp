// Runs every case file under tests/cases/ through the public header, the way a game's suite
// would, and checks what a case author sees: readable mismatches, errors that name the file,
// the case and the JSON path, and --update rewriting only what failed.

#include "work_files.hpp"

#include <doctest/doctest.h>

#include <glide/cases/cases.hpp>
#include <glide/cases/json.hpp>
#include <glide/cases/record.hpp>
#include <glide/error.hpp>
#include <glide/limits.hpp>
#include <glide/terrain/heightfield.hpp>
#include <glide/world/triangle_mesh.hpp>
#include <glide/world/world.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {
using glide::test::contains;
using glide::test::k_tests_dir;
using glide::test::k_work_dir;
using glide::test::write_file;

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Two spheres of radius 1, centres 5 apart along x: distance 3, normal +x.
std::string sphere_pair_file(const std::string& expect) {
  return R"({
  "cases": [
    {
      "name": "spheres",
      "world": [
        {"name": "a", "shape": {"type": "sphere", "radius": 1}, "position": [5, 0, 0]},
        {"name": "b", "shape": {"type": "sphere", "radius": 1}}
      ],
      "query": {"type": "distance", "a": "a", "b": "b"},
      "expect": )" +
         expect + R"(
    }
  ]
}
)";
}
} // namespace

TEST_CASE("every shipped case passes") {
  const auto results = glide::run_cases({k_tests_dir / "cases"});
  CHECK(results.size() >= 40);
  for (const auto& r : results) CHECK_MESSAGE(r.passed(), r.line());
}

TEST_CASE("a wrong expectation fails with field, expected, actual and tolerance") {
  const auto file = write_file(k_work_dir, "wrong.json", sphere_pair_file(R"({"distance": 2.5, "normal": [1, 0, 0]})"));
  const auto results = glide::run_case_file(file);
  REQUIRE(results.size() == 1);
  CHECK_FALSE(results[0].passed());
  CHECK(results[0].line() == "FAIL spheres: distance expected 2.5 got 3 (tol 0.0001)");
}

TEST_CASE("tolerances, vectors and bounds") {
  SUBCASE("a value inside its own tolerance passes") {
    const auto file =
        write_file(k_work_dir, "tol.json", sphere_pair_file(R"({"distance": {"value": 3.05, "tol": 0.1}})"));
    CHECK(glide::run_case_file(file).at(0).passed());
  }
  SUBCASE("a vector off by more than its tolerance fails and prints both vectors") {
    const auto file =
        write_file(k_work_dir, "vec.json", sphere_pair_file(R"({"point_a": {"value": [4, 0.5, 0], "tol": 0.01}})"));
    const auto r = glide::run_case_file(file).at(0);
    CHECK(r.line() == "FAIL spheres: point_a expected [4, 0.5, 0] got [4, 0, 0] (tol 0.01)");
  }
  SUBCASE("bounds") {
    const auto pass =
        write_file(k_work_dir, "bounds.json", sphere_pair_file(R"({"distance_at_least": 2, "distance_at_most": 3})"));
    CHECK(glide::run_case_file(pass).at(0).passed());
    const auto fail = write_file(k_work_dir, "bounds_fail.json", sphere_pair_file(R"({"distance_at_most": 2.5})"));
    CHECK(glide::run_case_file(fail).at(0).line() == "FAIL spheres: distance_at_most expected <= 2.5 got 3 (tol 0)");
  }
  SUBCASE("several mismatches are all listed") {
    const auto file = write_file(k_work_dir, "two.json", sphere_pair_file(R"({"distance": 1, "normal": [0, 1, 0]})"));
    const auto r = glide::run_case_file(file).at(0);
    REQUIRE(r.mismatches.size() == 2);
    CHECK(contains(r.line(), "distance expected 1 got 3 (tol 0.0001); normal expected [0, 1, 0] got [1, 0, 0]"));
  }
}

TEST_CASE("malformed files name the file, the case and the JSON path") {
  struct Bad {
    const char* file;
    std::vector<std::string> parts;
  };
  const std::vector<Bad> bad{
      {"syntax_error.json", {"syntax_error.json: ", "line 6, column 5"}},
      {"unknown_expectation.json",
       {"unknown_expectation.json: ", "case \"typo_in_expect\"", "/cases/0/expect/distanse", "unknown expectation"}},
      {"unknown_field.json",
       {"unknown_field.json: ", "case \"box_with_radius\"", "/cases/1/world/0/shape/radius", "unknown field"}},
      {"wrong_type.json",
       {"case \"radius_is_text\"", "/cases/0/world/0/shape/radius", "expected a number, got a string"}},
      {"missing_field.json", {"case \"query_without_b\"", "/cases/0/query", "missing required field \"b\""}},
      {"short_vector.json", {"case \"position_with_two_numbers\"", "/cases/0/world/0/position", "[x, y, z]"}},
      {"unknown_instance.json", {"case \"query_names_nothing\"", "/cases/0/query/b", "\"wall\""}},
      {"move_bad_controller.json",
       {"case \"capsule_too_short\"", "/cases/0/query/controller", "ControllerSettings.height", "0.8"}},
      {"duplicate_field.json", {"duplicate_field.json: ", "/cases/0/expect", "duplicate field \"distance\""}},
      {"number_overflow.json", {"number_overflow.json: ", "number overflow", "1e999"}},
      {"box_beyond_range.json",
       {"box_beyond_range.json: ", "case \"box_larger_than_any_piece\"", "/cases/0/world/0/shape/half_extents",
        "at most 1e+05 m (the largest piece), got [1e+38,1e+38,1e+38]"}},
      {"move_overflow.json",
       {"Controller::move: velocity (3e+38, -9.81, 0) times dt 1 s moves 3e+38 m, more than the 10000 m of one move"}},
      {"mesh_bad_index.json",
       {"case \"mesh_index_out_of_range\"", "/cases/0/world/0/shape/triangles/0/2", "expected an integer in [0, 2]"}},
      {"mesh_degenerate.json", {"case \"mesh_of_one_flat_triangle\"", "/cases/0/world/0/shape", "TriangleMesh"}},
      {"mesh_moving.json",
       {"case \"a_lift_made_of_a_mesh\"", "/cases/0/world/0/motion", "a triangle mesh, which is static"}},
      {"move_bad_motion.json",
       {"case \"lift_keys_out_of_order\"", "/cases/0/world/0/motion/keys/2/t",
        "expected a time >= the previous key's"}},
  };
  for (const auto& b : bad) {
    CAPTURE(b.file);
    const auto results = glide::run_case_file(k_tests_dir / "cases_bad" / b.file);
    REQUIRE(results.size() == 1);
    CHECK_FALSE(results[0].passed());
    for (const auto& part : b.parts) CHECK_MESSAGE(contains(results[0].error, part), results[0].error);
  }
  // Every file in the folder is covered above.
  CHECK(glide::find_case_files({k_tests_dir / "cases_bad"}).size() == bad.size());
}

namespace {
// A 4 x 4 m lift rising 1 m in 1 s with a rider, as a move case: `world_extra` adds fields to
// the lift, `query_extra` to the query.
std::string lift_file(const std::string& world_extra, const std::string& query_extra, const std::string& expect) {
  return R"({"cases": [{"name": "lift", "world": [
    {"name": "lift", "shape": {"type": "box", "half_extents": [2, 0.25, 2]})" +
         world_extra + R"(},
    {"name": "ground", "shape": {"type": "heightfield", "rows": 2, "columns": 2, "heights": [-5, -5, -5, -5]}}],
  "query": {"type": "move", "start": {"position": [0, 0.26, 0]}, "frames": [{"velocity": [0, 0, 0], "count": 60}])" +
         query_extra + R"(},
  "expect": )" +
         expect + "}]}";
}
const std::string k_lift_motion = R"(, "motion": {"keys": [{"t": 0}, {"t": 1, "offset": [0, 1, 0]}]})";
} // namespace

TEST_CASE("a move case plays a piece's motion before each step and reports the ride") {
  // The rider ends 1 m up with the lift, at the skin above it, moving at the lift's 1 m/s;
  // vector components and their bounds read as numbers.
  const auto file =
      write_file(k_work_dir, "lift.json",
                 lift_file(k_lift_motion, R"(, "relative_to": "lift")",
                           R"({"position": [0, 1.26, 0], "position_y_at_least": 1.2599, "ground_velocity_y": 1,
                                 "relative_drift_at_most": 0.0001, "frames_off_ground": 0, "ground_piece": "lift"})"));
  const auto r = glide::run_case_file(file).at(0);
  CHECK_MESSAGE(r.passed(), r.line());
  // Without the motion the lift stays put and the same expectations fail.
  const auto still =
      write_file(k_work_dir, "still.json", lift_file("", "", R"({"position": [0, 1.26, 0], "ground_velocity_y": 1})"));
  CHECK(glide::run_case_file(still).at(0).line() ==
        "FAIL lift: position expected [0, 1.26, 0] got [0, 0.26, 0] (tol 0.0001); ground_velocity_y expected 1 got 0 "
        "(tol 0.0001)");
}

TEST_CASE("motion errors name the case and the JSON path") {
  struct Bad {
    std::string text;
    std::vector<std::string> parts;
  };
  const std::vector<Bad> bad{
      {R"({"cases": [{"name": "sweep", "world": [{"shape": {"type": "box", "half_extents": [1, 1, 1]},
          "motion": {"keys": [{"t": 0}]}}], "query": {"type": "sweep", "capsule": {"type": "capsule", "a": [0, 0, 0],
          "b": [0, 1, 0], "radius": 0.5}, "position": [5, 0, 0], "motion": [-10, 0, 0]}, "expect": {"hit": true}}]})",
       {"/cases/0/world/0/motion", "only played by a move query"}},
      {lift_file(R"(, "motion": {"repeat": "bounce", "keys": [{"t": 0}]})", "", R"({"ground": "on_ground"})"),
       {"/cases/0/world/0/motion/repeat", "expected \"none\", \"loop\" or \"ping_pong\", got \"bounce\""}},
      {lift_file(R"(, "motion": {"keys": []})", "", R"({"ground": "on_ground"})"),
       {"/cases/0/world/0/motion/keys", "expected a non-empty array of keys"}},
      {lift_file(R"(, "motion": {"keys": [{"t": 0, "yaw": 90}]})", "", R"({"ground": "on_ground"})"),
       {"/cases/0/world/0/motion/keys/0/yaw", "unknown field"}},
      {lift_file(k_lift_motion, "", R"({"relative_drift_at_most": 0.001})"),
       {"/cases/0/expect/relative_drift_at_most", "\"relative_to\""}},
      {lift_file(k_lift_motion, R"(, "relative_to": "ground")", R"({"relative_drift": 0})"),
       {"/cases/0/query/relative_to", "\"ground\" is not a piece"}},
      {lift_file(k_lift_motion, R"(, "relative_to": "door")", R"({"relative_drift": 0})"),
       {"/cases/0/query/relative_to", "no world instance named \"door\""}},
      {lift_file(k_lift_motion, "", R"({"ground_y": 0})"), {"/cases/0/expect/ground_y", "unknown expectation"}},
  };
  for (const auto& b : bad) {
    CAPTURE(b.text);
    const auto r = glide::run_case_file(write_file(k_work_dir, "bad_motion.json", b.text)).at(0);
    for (const auto& part : b.parts) CHECK_MESSAGE(contains(r.error, part), r.error);
  }
  // A heightfield is the terrain, not a piece: it cannot move.
  const std::string terrain = R"({"cases": [{"name": "t", "world": [{"name": "ground", "shape": {"type": "heightfield",
      "rows": 2, "columns": 2, "heights": [0, 0, 0, 0]}, "motion": {"keys": [{"t": 0}]}}], "query": {"type": "move",
      "start": {"position": [0, 1, 0]}, "frames": [{"velocity": [0, 0, 0]}]}, "expect": {"ground": "in_air"}}]})";
  const auto r = glide::run_case_file(write_file(k_work_dir, "bad_terrain.json", terrain)).at(0);
  CHECK_MESSAGE(contains(r.error, "/cases/0/world/0/motion: only a convex piece can move"), r.error);
}

TEST_CASE("update rewrites failing expectations to the actual values and keeps the rest") {
  const auto file = write_file(k_work_dir, "update.json", R"({
  "cases": [
    {
      "name": "wrong",
      "world": [
        {"name": "a", "shape": {"type": "sphere", "radius": 1}, "position": [5, 0, 0]},
        {"name": "b", "shape": {"type": "sphere", "radius": 1}}
      ],
      "query": {"type": "distance", "a": "a", "b": "b"},
      "expect": {"distance": {"value": 2.5, "tol": 0.001}, "point_a": [0, 0, 0], "distance_at_least": 3.5, "normal": [0.99999, 0, 0]}
    },
    {
      "name": "right",
      "world": [
        {"name": "a", "shape": {"type": "box", "half_extents": [1, 1, 1]}, "position": [0, 2.1, 0]},
        {"name": "b", "shape": {"type": "box", "half_extents": [1, 1, 1]}}
      ],
      "query": {"type": "distance", "a": "a", "b": "b"},
      "expect": {"distance": 0.123}
    }
  ]
}
)");
  const auto before = glide::run_case_file(file, {.filter = "wrong", .update = true});
  REQUIRE(before.size() == 1);
  CHECK_FALSE(before[0].passed());
  CHECK(before[0].updated);
  const std::string text = read_file(file);
  CHECK(contains(text, R"("distance": {"value": 3, "tol": 0.001})"));
  CHECK(contains(text, R"("point_a": [4, 0, 0])"));
  CHECK(contains(text, R"("distance_at_least": 3)"));
  CHECK(contains(text, R"("normal": [0.99999, 0, 0])")); // it held: kept as written
  CHECK(contains(text, R"("distance": 0.123)"));         // the filtered-out case is untouched
  const auto after = glide::run_case_file(file);
  REQUIRE(after.size() == 2);
  CHECK(after[0].passed());
  CHECK_FALSE(after[1].passed());
  // Without update nothing is written.
  glide::run_case_file(file);
  CHECK(read_file(file) == text);
}

TEST_CASE("JSON nested deeper than the limit is refused while parsing, naming the path") {
  // 100,000 levels overflowed the stack of the recursive copy that followed the parse.
  const auto file = write_file(k_work_dir, "deep.json",
                               R"({"cases": [{"name": "deep", "world": )" + std::string(100000, '[') +
                                   std::string(100000, ']') + "}]}");
  const auto results = glide::run_case_file(file);
  REQUIRE(results.size() == 1);
  // The path names the value that would open the 65th level.
  std::string path = "/cases/0/world";
  for (int i = 0; i < 61; ++i) path += "/0";
  CHECK_MESSAGE(contains(results[0].error, "deep.json: " + path + ": nested deeper than 64 arrays"), results[0].error);
  // The limit itself is fine.
  std::string ok = "[1]";
  for (int i = 1; i < glide::limits::k_max_json_depth; ++i) ok = "[" + ok + "]";
  CHECK(glide::cases::parse_json(ok, "ok").is_array());
}

TEST_CASE("heightfields: raw files with their rows and columns, inline grids up to Heightfield's largest") {
  // A 2 x 3 raw float32 heightmap, sample (r, c) at height r + 10 c; a ray down onto sample (1, 2).
  {
    std::ofstream raw(k_work_dir / "ground.f32", std::ios::binary);
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 3; ++c) {
        const float h = static_cast<float>(r + 10 * c);
        raw.write(reinterpret_cast<const char*>(&h), sizeof h);
      }
  }
  const std::string ray =
      R"("query": {"type": "raycast", "origin": [2, 50, 1], "direction": [0, -1, 0], "max_distance": 100},)";
  const auto raw_case = [&](const std::string& fields) {
    return glide::run_case_file(write_file(
        k_work_dir, "raw.json",
        R"({"cases": [{"name": "raw", "world": [{"name": "ground", "shape": {"type": "heightfield", "path": "ground.f32")" +
            fields + "}}], " + ray + R"( "expect": {"point": [2, 21, 1]}}]})"));
  };
  const auto ok = raw_case(R"(, "rows": 2, "columns": 3)");
  REQUIRE(ok.size() == 1);
  CHECK_MESSAGE(ok[0].passed(), ok[0].line());
  const auto missing = raw_case("");
  CHECK(contains(missing.at(0).error, "/cases/0/world/0/shape: missing required field \"rows\""));

  // Heightfield::k_max_dimension columns, flat at height 1.
  const int columns = glide::Heightfield::k_max_dimension;
  std::string heights;
  for (int i = 0; i < 2 * columns; ++i) heights += i == 0 ? "1" : ", 1";
  const auto wide = glide::run_case_file(write_file(
      k_work_dir, "wide.json",
      R"({"cases": [{"name": "wide", "world": [{"name": "ground", "shape": {"type": "heightfield", "rows": 2, "columns": )" +
          std::to_string(columns) + R"(, "heights": [)" + heights + "]}}], " + ray +
          R"( "expect": {"point": [2, 1, 1]}}]})"));
  REQUIRE(wide.size() == 1);
  CHECK_MESSAGE(wide[0].passed(), wide[0].line());
}

TEST_CASE("a missing path is an error naming it") {
  CHECK_THROWS_AS(glide::find_case_files({k_tests_dir / "no_such_folder"}), glide::Error);
}

TEST_CASE("record_case writes a case that replays to the same answer") {
  glide::World world;
  const std::vector<glm::vec3> cube{{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                    {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
  // A crate turned by an awkward angle (not representable in Euler degrees exactly), one far
  // away, and a sloped terrain under both.
  const glm::quat turn = glm::normalize(glm::quat(0.9f, 0.1f, 0.37f, -0.2f));
  const glide::PieceId crate = world.add_piece(glide::gjk::ConvexHull(cube), {turn, {4.f, 1.2f, 0.3f}});
  world.add_piece(glide::gjk::ConvexHull(cube), {{1, 0, 0, 0}, {100.f, 0.f, 100.f}});
  std::vector<float> heights(32 * 32);
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c) heights[static_cast<std::size_t>(r * 32 + c)] = 0.05f * static_cast<float>(c) - 1.f;
  world.set_terrain(glide::Heightfield({.rows = 32, .columns = 32, .heights = heights, .origin = {-16.f, 0.f, -16.f}}));

  const glide::gjk::Capsule capsule{{{0.f, 1.f, 0.f}, {0.f, 2.f, 0.f}}, 0.4f};
  const auto file = k_work_dir / "recorded" / "recorded.json";
  std::filesystem::remove(file);

  SUBCASE("a hit on a piece") {
    const glide::SweepHit hit = glide::record_case(file, "into_crate", world, capsule, {6.f, 0.f, 0.f});
    REQUIRE(hit.hit);
    CHECK(hit.piece == crate);
    const std::string text = read_file(file);
    CHECK(contains(text, "\"piece\": \"piece" + std::to_string(crate.value) + "\""));
    CHECK_FALSE(contains(text, "[100, 0, 100]")); // the far crate is left out
    CHECK(contains(text, "\"type\": \"heightfield\""));
  }
  SUBCASE("a hit on the terrain, with bisection") {
    glide::SweepSettings settings;
    settings.method = glide::ToiMethod::bisection;
    const glide::SweepHit hit = glide::record_case(file, "onto_terrain", world, capsule, {0.f, -4.f, -3.f}, settings);
    REQUIRE(hit.hit);
    CHECK(hit.target == glide::HitTarget::terrain);
    CHECK(contains(read_file(file), "\"method\": \"bisection\""));
  }
  SUBCASE("a scene 1e5 m out, the world's origin near it: written in global coordinates") {
    const glm::dvec3 origin(1e5 + 0.375, 2.5, -1e5 + 0.125);
    glide::World far;
    far.shift_origin(origin);
    const glide::PieceId far_crate =
        far.add_piece(glide::gjk::ConvexHull(cube), {turn, far.to_local(origin + glm::dvec3(4.0, 1.2f, 0.3f))});
    const glide::gjk::Capsule moved{
        {far.to_local(origin + glm::dvec3(0, 1, 0)), far.to_local(origin + glm::dvec3(0, 2, 0))}, 0.4f};
    const glide::SweepHit hit = glide::record_case(file, "far_into_crate", far, moved, {6.f, 0.f, 0.f});
    REQUIRE(hit.hit);
    CHECK(hit.piece == far_crate);
    const std::string text = read_file(file);
    CHECK(contains(text, "\"origin\": [100000.375, 2.5, -99999.875]"));
    CHECK(contains(text, "\"position\": [100004.375, 3.7, -99999.575]"));
  }
  SUBCASE("a miss; recording twice under one name keeps one case") {
    glide::record_case(file, "miss", world, capsule, {0.f, 3.f, 0.f});
    glide::record_case(file, "miss", world, capsule, {0.f, 3.f, 0.f});
    glide::record_case(file, "other", world, capsule, {6.f, 0.f, 0.f});
    CHECK(glide::run_case_file(file).size() == 2);
  }
  const auto results = glide::run_case_file(file);
  REQUIRE_FALSE(results.empty());
  for (const auto& r : results) CHECK_MESSAGE(r.passed(), r.line());
}

TEST_CASE("record_case writes the mesh triangles near the query, which replay to the same answer") {
  // A 20 x 20 m grid of 1 m cells, turned and placed off the origin; a capsule swept along it,
  // 0.05 mm into it, across its internal edges, and one dropped onto it.
  std::vector<glm::vec3> vertices;
  std::vector<glide::TriangleMesh::Indices> triangles;
  for (int r = 0; r <= 20; ++r)
    for (int c = 0; c <= 20; ++c)
      vertices.emplace_back(static_cast<float>(c) - 10.f, 0.f, static_cast<float>(r) - 10.f);
  for (std::uint32_t r = 0; r < 20; ++r)
    for (std::uint32_t c = 0; c < 20; ++c) {
      const std::uint32_t a = r * 21 + c, b = a + 1, d = a + 21, e = d + 1;
      triangles.push_back({a, d, e});
      triangles.push_back({a, e, b});
    }
  glide::World world;
  const glm::quat turn = glm::angleAxis(0.3f, glm::vec3(0, 1, 0));
  const glide::PieceId grid = world.add_mesh(glide::TriangleMesh(vertices, triangles), {turn, {3.f, 0.5f, -2.f}});
  const auto file = k_work_dir / "recorded" / "recorded_mesh.json";
  std::filesystem::remove(file);
  const glide::gjk::Capsule along{{{3.f, 0.99995f, -2.f}, {3.f, 1.99995f, -2.f}}, 0.5f};
  const glide::SweepHit slide = glide::record_case(file, "along_the_grid", world, along, {2.5f, 0.f, 1.7f});
  CHECK_FALSE(slide.hit);
  const glide::gjk::Capsule above{{{4.2f, 3.f, -1.3f}, {4.2f, 4.f, -1.3f}}, 0.5f};
  const glide::SweepHit drop = glide::record_case(file, "onto_the_grid", world, above, {0.f, -4.f, 0.f});
  REQUIRE(drop.hit);
  CHECK(drop.piece == grid);
  const std::string text = read_file(file);
  CHECK(contains(text, "\"type\": \"mesh\""));
  const auto results = glide::run_case_file(file);
  REQUIRE(results.size() == 2);
  for (const auto& r : results) CHECK_MESSAGE(r.passed(), r.line());
}

TEST_CASE("record_case refuses to overwrite a file that is not a case file") {
  const auto file = write_file(k_work_dir, "not_cases.json", R"({"something": "else"})");
  glide::World world;
  const glide::gjk::Capsule capsule{{{0.f, 1.f, 0.f}, {0.f, 2.f, 0.f}}, 0.4f};
  CHECK_THROWS_AS(glide::record_case(file, "x", world, capsule, {1.f, 0.f, 0.f}), glide::Error);
  CHECK(read_file(file) == R"({"something": "else"})");
}
