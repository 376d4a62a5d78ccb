#include <doctest/doctest.h>

#include "demo_level.hpp"

#include <glide/error.hpp>

#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace {

fs::path work_dir() {
  const fs::path dir = fs::path(GLIDE_TEST_WORK_DIR) / "demo_level";
  fs::create_directories(dir);
  return dir;
}

fs::path write_file(const std::string& name, const std::string& text) {
  const fs::path p = work_dir() / name;
  std::ofstream(p) << text;
  return p;
}

std::string error_of(const fs::path& level, const fs::path& script = {}) {
  try {
    (void)glide::demo::load_demo_level(level, script);
  } catch (const glide::Error& e) {
    return e.what();
  }
  return "no error";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

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

TEST_CASE("demo level errors name the file and the field") {
  CHECK(contains(error_of(work_dir() / "missing.json"), "missing.json: cannot open level description"));

  CHECK(contains(error_of(write_file("bad.json", "{ \"obj\": ")), "bad.json: malformed JSON"));

  const fs::path levels = glide::demo::default_level_file().parent_path();
  const std::string obj = (levels / "demo.obj").string();
  CHECK(contains(error_of(write_file("no_spawn.json", "{\"obj\": \"" + obj + "\", \"script\": \"x.json\"}")),
                 "no_spawn.json: /: missing required field \"spawn\""));
  CHECK(contains(error_of(write_file("typo.json", "{\"obj\": \"" + obj + "\", \"spawn\": [0, 0, 0], \"sript\": 1}")),
                 "typo.json: /sript: unknown field \"sript\""));
  CHECK(contains(error_of(write_file("bad_spawn.json", "{\"obj\": \"" + obj + "\", \"spawn\": [0, 0]}")),
                 "bad_spawn.json: /spawn: expected [x, y, z]"));
  CHECK(contains(
      error_of(write_file("no_obj.json", "{\"obj\": \"nowhere.obj\", \"spawn\": [0, 0, 0], \"script\": \"s.json\"}")),
      "nowhere.obj"));

  const fs::path level =
      write_file("ok.json", "{\"obj\": \"" + obj + "\", \"spawn\": [0, 0, 0], \"script\": \"s.json\"}");
  CHECK(contains(error_of(level, write_file("s1.json", "{\"waypoints\": []}")),
                 "s1.json: /waypoints: expected a non-empty array"));
  CHECK(contains(error_of(level, write_file("s2.json", "{\"waypoints\": [{\"to\": [1, 0, 1], \"speed\": -1}]}")),
                 "s2.json: /waypoints/0/speed: expected a number > 0, got -1"));
  CHECK(
      contains(error_of(level, write_file("s3.json", "{\"waypoints\": [{\"to\": [1, 0, 1], \"expect\": \"maybe\"}]}")),
               "s3.json: /waypoints/0/expect: expected \"reach\", \"blocked\" or \"either\""));
  CHECK(contains(error_of(level, write_file("s4.json", "{\"waypoints\": [{\"name\": \"a\"}]}")),
                 "s4.json: /waypoints/0: missing required field \"to\""));
  CHECK(contains(error_of(level, work_dir() / "absent_script.json"), "absent_script.json: cannot open tour script"));
  CHECK(error_of(level, write_file("s5.json", "{\"waypoints\": [{\"to\": [1, 0, 1], \"jump\": true}]}")) == "no error");
}
