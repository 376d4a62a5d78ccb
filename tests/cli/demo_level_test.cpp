#include <doctest/doctest.h>

#include "demo_level.hpp"
#include "work_files.hpp"

#include <glide/error.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace {

using glide::test::contains;
using glide::test::write_file;
fs::path level_dir() { return glide::test::work_dir("demo_level"); }

std::string error_of(const fs::path& level, const fs::path& script = {}) {
  try {
    (void)glide::demo::load_demo_level(level, script);
  } catch (const glide::Error& e) {
    return e.what();
  }
  return "no error";
}

} // namespace

TEST_CASE("the shipped demo level loads with every part demo/levels/README.md lists") {
  const glide::demo::DemoLevel level = glide::demo::load_demo_level(glide::demo::default_level_file());
  CHECK(level.warnings.empty());
  CHECK(level.world.terrain() != nullptr);
  CHECK(level.world.terrain()->rows() == 257);
  CHECK(level.world.piece_count() == level.pieces.size());
  // The centre is flat at y = 0, the level stands on it.
  CHECK(std::abs(level.world.terrain()->height_at(0.f, 0.f)) < 1e-4f);
  for (const char* part : {"tile_", "ramp_20deg", "ramp_40deg", "ramp_50deg", "ramp_60deg", "corridor_wide",
                           "corridor_narrow", "corner_90", "corner_45", "pillar_box", "pillar_octagon", "thin_wall",
                           "low_ceiling", "sloped_ceiling", "house_ramp_stair_ramp", "house_steps_step_"}) {
    bool found = false;
    for (const auto& p : level.pieces) found = found || contains(p.name, part);
    CHECK_MESSAGE(found, part);
  }
  REQUIRE(level.script.waypoints.size() > 20);
  CHECK(level.script.waypoints.front().speed > 0.f);
}

TEST_CASE("the shipped demo level moves a lift, a turntable, a walkway and a door, placed at time 0") {
  const glide::demo::DemoLevel level = glide::demo::load_demo_level(glide::demo::default_level_file());
  REQUIRE(level.moving.size() == 4);
  const char* names[] = {"lift", "turntable", "walkway", "door"};
  for (std::size_t i = 0; i < 4; ++i) {
    const glide::demo::MovingPiece& m = level.moving[i];
    CHECK(m.name == names[i]);
    // The id is the OBJ object of that name, and the path passed glide::validate.
    const auto piece = std::find_if(level.pieces.begin(), level.pieces.end(),
                                    [&](const glide::ObjLevelPiece& p) { return p.name == m.name; });
    REQUIRE(piece != level.pieces.end());
    CHECK(piece->id == m.id);
    CHECK_NOTHROW(glide::validate(m.path));
    // Loaded pieces stand at their pose at time 0.
    const glide::gjk::Transform at0 = m.path.pose_at(m.rest, 0.f);
    CHECK(glm::length(level.world.transform(m.id).translation - at0.translation) < 1e-6f);
  }
  // The walkway starts 2 m toward -x of where demo.obj has it and slides 4 m and back every 8 s.
  const glide::demo::MovingPiece& walkway = level.moving[2];
  CHECK(walkway.path.repeat == glide::PiecePath::Repeat::ping_pong);
  CHECK(glm::length(level.world.transform(walkway.id).translation - glm::vec3(-2.f, 0.f, 0.f)) < 1e-6f);
  CHECK(glm::length(walkway.path.pose_at(walkway.rest, 6.f).translation - glm::vec3(0.f, 0.f, 0.f)) < 1e-5f);
  // The turntable turns 90 degrees in 2 s about its centre (8, 0, -20): its centre stays put.
  const glide::demo::MovingPiece& turntable = level.moving[1];
  const glide::gjk::Transform quarter = turntable.path.pose_at(turntable.rest, 2.f);
  CHECK(glm::length(quarter.apply({8.f, 0.1f, -20.f}) - glm::vec3(8.f, 0.1f, -20.f)) < 1e-5f);
  CHECK(glm::length(quarter.apply({10.f, 0.f, -20.f}) - glm::vec3(8.f, 0.f, -22.f)) < 1e-5f); // +x turns to -z
}

TEST_CASE("a malformed motion names the level file and the JSON path") {
  const fs::path levels = glide::demo::default_level_file().parent_path();
  const std::string head = "{\"obj\": \"" + (levels / "demo.obj").string() +
                           "\", \"spawn\": [0, 0, 0], \"script\": \"" + (levels / "demo_tour.json").string() +
                           "\", \"moving_pieces\": [";
  const auto level_error = [&](const std::string& name, const std::string& pieces) {
    return error_of(write_file(level_dir(), name, head + pieces + "]}"));
  };
  CHECK(contains(level_error("m1.json", R"({"object": "lift", "motion": {"keys": [{"t": 1}, {"t": 0.5}]}})"),
                 "m1.json: /moving_pieces/0/motion/keys/1/t: expected a time >= the previous key's (1.000000 s), "
                 "got 0.5"));
  CHECK(contains(level_error("m2.json", R"({"object": "lift", "motion": {"repeat": "bounce", "keys": [{"t": 0}]}})"),
                 "m2.json: /moving_pieces/0/motion/repeat: expected \"none\", \"loop\" or \"ping_pong\", got "
                 "\"bounce\""));
  CHECK(contains(level_error("m3.json", R"({"object": "lift", "motion": {"keys": []}})"),
                 "m3.json: /moving_pieces/0/motion/keys: expected a non-empty array"));
  CHECK(contains(level_error("m4.json", R"({"object": "lift", "motion": {"keys": [{"t": 0, "yaw": 90}]}})"),
                 "m4.json: /moving_pieces/0/motion/keys/0/yaw: unknown field \"yaw\""));
  CHECK(contains(level_error("m5.json", R"({"object": "lift", "motion": {"keys": [{"t": -1}]}})"),
                 "m5.json: /moving_pieces/0/motion/keys/0/t: expected a number >= 0, got -1"));
  CHECK(contains(level_error("m6.json", R"({"object": "lift", "motion": {"pivot": [0, 0], "keys": [{"t": 0}]}})"),
                 "m6.json: /moving_pieces/0/motion/pivot: expected [x, y, z]"));
  CHECK(contains(level_error("m7.json", R"({"object": "lift", "motion": {"keys": [{"t": 0, "yaw_deg": 1e39}]}})"),
                 "m7.json: /moving_pieces/0/motion/keys/0/yaw_deg"));
  CHECK(contains(level_error("m8.json", R"({"object": "lift"})"),
                 "m8.json: /moving_pieces/0: missing required field \"motion\""));
  CHECK(contains(level_error("m9.json", R"({"object": "nowhere", "motion": {"keys": [{"t": 0}]}})"),
                 "m9.json: /moving_pieces/0/object: no object \"nowhere\" in demo.obj"));
  CHECK(contains(level_error("m10.json", R"({"object": "door", "motion": {"keys": [{"t": 0}]}},
                                           {"object": "door", "motion": {"keys": [{"t": 0}]}})"),
                 "m10.json: /moving_pieces/1/object: object \"door\" is already moving"));
  CHECK(contains(level_error("m11.json", R"({"object": "lift", "motion": [0, 1]})"),
                 "m11.json: /moving_pieces/0/motion: expected a motion object"));
  // A motion without pivot or repeat holds its keys: the lift, 1 m up at time 0.
  const fs::path ok = write_file(level_dir(), "m_ok.json",
                                 head + R"({"object": "lift", "motion": {"keys": [{"t": 0, "offset": [0, 1, 0]}]}}]})");
  const glide::demo::DemoLevel level = glide::demo::load_demo_level(ok);
  REQUIRE(level.moving.size() == 1);
  CHECK(level.moving[0].path.repeat == glide::PiecePath::Repeat::none);
  CHECK(glm::length(level.world.transform(level.moving[0].id).translation - glm::vec3(0.f, 1.f, 0.f)) < 1e-6f);
}

TEST_CASE("demo level errors name the file and the field") {
  CHECK(contains(error_of(level_dir() / "missing.json"), "missing.json: cannot open level description"));

  CHECK(contains(error_of(write_file(level_dir(), "bad.json", "{ \"obj\": ")), "bad.json: malformed JSON"));

  const fs::path levels = glide::demo::default_level_file().parent_path();
  const std::string obj = (levels / "demo.obj").string();
  CHECK(
      contains(error_of(write_file(level_dir(), "no_spawn.json", "{\"obj\": \"" + obj + "\", \"script\": \"x.json\"}")),
               "no_spawn.json: /: missing required field \"spawn\""));
  CHECK(contains(
      error_of(write_file(level_dir(), "typo.json", "{\"obj\": \"" + obj + "\", \"spawn\": [0, 0, 0], \"sript\": 1}")),
      "typo.json: /sript: unknown field \"sript\""));
  CHECK(contains(error_of(write_file(level_dir(), "bad_spawn.json", "{\"obj\": \"" + obj + "\", \"spawn\": [0, 0]}")),
                 "bad_spawn.json: /spawn: expected [x, y, z]"));
  CHECK(contains(error_of(write_file(level_dir(), "no_obj.json",
                                     "{\"obj\": \"nowhere.obj\", \"spawn\": [0, 0, 0], \"script\": \"s.json\"}")),
                 "nowhere.obj"));

  const fs::path level =
      write_file(level_dir(), "ok.json", "{\"obj\": \"" + obj + "\", \"spawn\": [0, 0, 0], \"script\": \"s.json\"}");
  CHECK(contains(error_of(level, write_file(level_dir(), "s1.json", "{\"waypoints\": []}")),
                 "s1.json: /waypoints: expected a non-empty array"));
  CHECK(contains(
      error_of(level, write_file(level_dir(), "s2.json", "{\"waypoints\": [{\"to\": [1, 0, 1], \"speed\": -1}]}")),
      "s2.json: /waypoints/0/speed: expected a number > 0, got -1"));
  CHECK(contains(error_of(level, write_file(level_dir(), "s3.json",
                                            "{\"waypoints\": [{\"to\": [1, 0, 1], \"expect\": \"maybe\"}]}")),
                 "s3.json: /waypoints/0/expect: expected \"reach\", \"blocked\" or \"either\""));
  CHECK(contains(error_of(level, write_file(level_dir(), "s4.json", "{\"waypoints\": [{\"name\": \"a\"}]}")),
                 "s4.json: /waypoints/0: missing required field \"to\""));
  CHECK(contains(error_of(level, level_dir() / "absent_script.json"), "absent_script.json: cannot open tour script"));
  CHECK(error_of(level, write_file(level_dir(), "s5.json", "{\"waypoints\": [{\"to\": [1, 0, 1], \"jump\": true}]}")) ==
        "no error");
  CHECK(contains(
      error_of(level, write_file(level_dir(), "s6.json", "{\"waypoints\": [{\"to\": [1, 0, 1], \"until\": -2}]}")),
      "s6.json: /waypoints/0/until: expected a number >= 0, got -2"));
  // Tours that would never end, or walk beyond the valid range.
  CHECK(contains(
      error_of(level, write_file(level_dir(), "s7.json", "{\"waypoints\": [{\"to\": [1, 0, 1], \"wait\": 1e30}]}")),
      "s7.json: /waypoints/0/wait: expected a number in [0, 3600], got 1e+30"));
  CHECK(contains(error_of(level, write_file(level_dir(), "s8.json", "{\"waypoints\": [{\"to\": [1e29, 0, 1]}]}")),
                 "s8.json: /waypoints/0/to: expected coordinates within +-1e+06 m, got [1e+29,0,1]"));
  CHECK(contains(error_of(level, write_file(level_dir(), "s9.json",
                                            "{\"defaults\": {\"speed\": 1e6}, \"waypoints\": [{\"to\": [1, 0, 1]}]}")),
                 "s9.json: /defaults/speed: expected a speed of at most 100 m/s, got 1000000.0"));
  CHECK(contains(
      error_of(level, write_file(level_dir(), "s10.json", "{\"waypoints\": [{\"to\": [1, 0, 1], \"until\": 4000}]}")),
      "s10.json: /waypoints/0/until: expected a number in [0, 3600], got 4000"));
}

TEST_CASE("demo levels refuse device and directory OBJ paths and read raw heightmaps with their size") {
  CHECK(contains(error_of(write_file(level_dir(), "zero.json",
                                     "{\"obj\": \"/dev/zero\", \"spawn\": [0, 0, 0], \"script\": \"s.json\"}")),
                 "/dev/zero: cannot open file: not a regular file"));
  CHECK(contains(
      error_of(write_file(level_dir(), "dir.json",
                          "{\"obj\": \"" + level_dir().string() + "\", \"spawn\": [0, 0, 0], \"script\": \"s.json\"}")),
      "cannot open file: not a regular file"));
  const fs::path levels = glide::demo::default_level_file().parent_path();
  const std::string obj = (levels / "demo.obj").string();
  // A 3 x 4 raw float32 heightmap: sample (r, c) at height r + 10 c.
  {
    std::ofstream raw(level_dir() / "ground.r32", std::ios::binary);
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 4; ++c) {
        const float h = static_cast<float>(r + 10 * c);
        raw.write(reinterpret_cast<const char*>(&h), sizeof h);
      }
  }
  const std::string head = "{\"obj\": \"" + obj +
                           "\", \"spawn\": [0, 50, 0], \"script\": \"s.json\", \"terrain\": {\"file\": \"ground.r32\"";
  CHECK(contains(error_of(write_file(level_dir(), "raw_no_size.json", head + "}}")),
                 "raw_no_size.json: /terrain: missing required field \"rows\""));
  CHECK(
      contains(error_of(write_file(level_dir(), "png_size.json",
                                   "{\"obj\": \"" + obj +
                                       "\", \"spawn\": [0, 50, 0], \"script\": \"s.json\", \"terrain\": {\"file\": \"" +
                                       (levels / "demo_terrain.png").string() + "\", \"rows\": 3}}")),
               "png_size.json: /terrain/rows: only a raw heightmap (.raw, .r32, .f32) takes \"rows\""));
  const glide::demo::DemoLevel level =
      glide::demo::load_demo_level(write_file(level_dir(), "raw.json", head + ", \"rows\": 3, \"columns\": 4}}"),
                                   write_file(level_dir(), "raw_tour.json", "{\"waypoints\": [{\"to\": [1, 0, 1]}]}"));
  REQUIRE(level.world.terrain());
  CHECK(level.world.terrain()->rows() == 3);
  CHECK(level.world.terrain()->columns() == 4);
  CHECK(level.world.terrain()->height(2, 3) == 32.f);
}

TEST_CASE("a level description names its pieces' file with \"obj\" or \"gltf\", not both") {
  const fs::path levels = glide::demo::default_level_file().parent_path();
  const std::string tail = "\"spawn\": [0, 0, 0], \"script\": \"" + (levels / "demo_tour.json").string() +
                           "\", \"moving_pieces\": [{\"object\": \"lift\", \"motion\": {\"keys\": [{\"t\": 0}]}}]}";
  const fs::path gltf =
      write_file(level_dir(), "g_ok.json", "{\"gltf\": \"" + (levels / "demo.gltf").string() + "\", " + tail);
  const glide::demo::DemoLevel level = glide::demo::load_demo_level(gltf);
  CHECK(level.world.piece_count() == 110);
  REQUIRE(level.moving.size() == 1);
  CHECK(level.moving[0].name == "lift");
  CHECK(contains(
      error_of(write_file(level_dir(), "g_both.json", "{\"obj\": \"demo.obj\", \"gltf\": \"demo.gltf\", " + tail)),
      "g_both.json: /gltf: give \"obj\" or \"gltf\", not both"));
  CHECK(contains(error_of(write_file(level_dir(), "g_none.json", "{" + tail)),
                 "g_none.json: /: missing required field \"obj\" (or \"gltf\")"));
  // A glTF error names the glTF file, node and mesh.
  const fs::path broken =
      write_file(level_dir(), "broken.gltf", R"({"asset": {"version": "2.0"}, "nodes": [{"name": "N", "mesh": 3}]})");
  CHECK(contains(error_of(write_file(level_dir(), "g_broken.json", "{\"gltf\": \"" + broken.string() + "\", " + tail)),
                 "broken.gltf: node 'N': mesh index 3 out of range (0 meshes)"));
}
