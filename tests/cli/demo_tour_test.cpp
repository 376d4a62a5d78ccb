#include <doctest/doctest.h>

#include "demo_level.hpp"
#include "map_image.hpp"
#include "run_glide.hpp"
#include "tour.hpp"

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

using glide::test::run_glide;
using Run = glide::test::CliRun;

fs::path work_dir() {
  const fs::path dir = fs::path(GLIDE_TEST_WORK_DIR) / "demo_tour";
  fs::create_directories(dir);
  return dir;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

struct Decoded {
  int width = 0, height = 0;
  std::unique_ptr<unsigned char, void (*)(void*)> pixels{nullptr, stbi_image_free};
  int count(const glide::demo::Rgb& c) const {
    int n = 0;
    for (int i = 0; i < width * height; ++i) {
      const unsigned char* p = pixels.get() + 3 * i;
      n += (p[0] == c[0] && p[1] == c[1] && p[2] == c[2]) ? 1 : 0;
    }
    return n;
  }
};

Decoded decode(const fs::path& file) {
  Decoded d;
  int channels = 0;
  d.pixels.reset(stbi_load(file.string().c_str(), &d.width, &d.height, &channels, 3));
  return d;
}

} // namespace

TEST_CASE("the demo tour walks every feature of the shipped level without getting stuck or penetrating") {
  const glide::demo::DemoLevel level = glide::demo::load_demo_level(glide::demo::default_level_file());
  const glide::ControllerSettings settings;
  const glide::demo::TourWalker walker = glide::demo::run_tour(level, settings);
  const glide::demo::TourStats s = walker.stats();

  CHECK(s.finished);
  CHECK(s.frames == static_cast<int>(walker.frames().size()));
  CHECK(s.stuck_frames == 0);
  CHECK(s.skipped == 0);
  CHECK(s.passed_unexpectedly == 0);
  CHECK(s.max_penetration <= settings.skin_width);
  CHECK(s.flicker == 0); // hill crests, tile seams and stairs keep the walker on the ground
  // Every waypoint marked "blocked" (narrow corridor, corners, 60 degree ramp, cliff, thin
  // wall, low and sloped ceilings) stopped the walker, and the walker pushed against each.
  int blocked = 0;
  for (const auto& w : level.script.waypoints) blocked += w.expect == glide::demo::Expect::blocked ? 1 : 0;
  CHECK(blocked >= 8);
  CHECK(s.blocked_as_expected == blocked);
  for (const auto& w : walker.waypoints())
    if (w.expect == glide::demo::Expect::blocked) CHECK_MESSAGE(w.blocked_frames > 10, w.name);
  // The tour meets every ground state and jumps twice (on a platform, under the sloped ceiling).
  CHECK(s.ground_frames[0] > s.frames / 2);
  CHECK(s.ground_frames[1] > 0);
  CHECK(s.ground_frames[2] > 0);
  CHECK(s.jumps == 2);
  // Every reachable waypoint was reached, so the walk ends at the last one.
  const glide::demo::Waypoint& home = level.script.waypoints.back();
  const glm::vec3 end = walker.frames().back().position;
  CHECK(std::hypot(end.x - home.target.x, end.z - home.target.z) <= home.radius);
  CHECK(s.distance > 300.0);

  // A few legs checked against the geometry they meet.
  const auto leg = [&](const std::string& name) {
    for (std::size_t i = 0; i < level.script.waypoints.size(); ++i)
      if (level.script.waypoints[i].name == name) return static_cast<int>(i);
    FAIL("no waypoint " << name);
    return -1;
  };
  bool ceiling_touched = false, stairs_grounded = true;
  float thin_wall_z = -1e9f, narrow_corridor_z = 1e9f, low_ceiling_z = 1e9f, stairs_top = -1e9f;
  for (const auto& f : walker.frames()) {
    if (f.waypoint == leg("sloped_ceiling_jump")) ceiling_touched = ceiling_touched || f.flags.above;
    if (f.waypoint == leg("thin_wall_blocked")) thin_wall_z = std::max(thin_wall_z, f.position.z);
    if (f.waypoint == leg("corridor_narrow_blocked")) narrow_corridor_z = std::min(narrow_corridor_z, f.position.z);
    if (f.waypoint == leg("low_ceiling_blocked")) low_ceiling_z = std::min(low_ceiling_z, f.position.z);
    if (f.waypoint == leg("house_steps_stair_top")) stairs_top = std::max(stairs_top, f.position.y);
    if (f.waypoint == leg("house_steps_down"))
      stairs_grounded = stairs_grounded && f.ground == glide::GroundState::on_ground;
  }
  CHECK(ceiling_touched);                           // the jump under the sloped ceiling hits it
  CHECK(thin_wall_z < 16.f - settings.radius);      // the 12 m/s sprint stays before the 5 cm wall (z = 16)
  CHECK(narrow_corridor_z > 9.f - settings.radius); // never enters the 0.5 m corridor (its end at z = 9)
  CHECK(low_ceiling_z > -8.f - settings.radius);    // never passes under the 1.6 m slab (from z = -8)
  // Up the real steps onto the mezzanine (top 2.75 m): the feet rest within the skin above it.
  CHECK(stairs_top >= 2.75f);
  CHECK(stairs_top <= 2.75f + 2.f * settings.skin_width);
  CHECK(stairs_grounded); // and down them on the ground every frame
  CHECK(s.p99_us >= s.median_us);
}

TEST_CASE("glide demo prints the table and writes a decodable PNG map with the legend and the path") {
  const fs::path png = work_dir() / "demo.png";
  fs::remove(png);
  const Run r = run_glide({"demo", "--output", png.string(), "--check"});
  INFO(r.out);
  INFO(r.err);
  REQUIRE(r.code == 0);
  for (const char* row : {"frames", "distance walked", "frames stuck", "max penetration", "ground-state flicker",
                          "us per move, median", "us per move, p99", "tour: OK"})
    CHECK_MESSAGE(contains(r.out, row), row);
  CHECK(contains(r.out, "map: " + fs::absolute(png).string()));

  const Decoded image = decode(png);
  REQUIRE(image.pixels);
  CHECK(image.width > 600);
  CHECK(image.height > 300);
  CHECK(image.width <= 1200 + 420);
  // Path colors: the walker was on ground most of the time, in the air and on steep ground a
  // little; the legend swatches (20 x 14 pixels each) are there even for no stuck frame.
  CHECK(image.count(glide::demo::k_on_ground_color) > 2000);
  CHECK(image.count(glide::demo::k_in_air_color) > 280);
  CHECK(image.count(glide::demo::k_steep_color) >= 280);
  CHECK(image.count(glide::demo::k_stuck_color) == 280);
}

TEST_CASE("glide demo --frames stops early and the options reach the controller") {
  const fs::path png = work_dir() / "short.png";
  const Run r = run_glide({"demo", "-o", png.string(), "--frames", "120", "--radius", "0.25", "--max-slope", "45"});
  CHECK(r.code == 0);
  CHECK(contains(r.out, "cut before the end"));
  CHECK(decode(png).pixels);
}

TEST_CASE("glide demo reports bad input clearly") {
  const fs::path png = work_dir() / "bad.png";
  Run r = run_glide({"demo", "--level", (work_dir() / "missing.json").string(), "-o", png.string()});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "missing.json: cannot open level description"));

  r = run_glide({"demo", "--radius", "-1", "-o", png.string()});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "radius"));

  r = run_glide({"demo", "--script", (work_dir() / "nowhere.json").string(), "-o", png.string()});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "nowhere.json: cannot open tour script"));

  const fs::path not_a_folder = work_dir() / "plain_file";
  std::ofstream(not_a_folder) << "not a folder";
  r = run_glide({"demo", "-o", (not_a_folder / "map.png").string()});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "cannot write the PNG"));

  r = run_glide({"demo", "--toi-method", "guess"});
  CHECK(r.code != 0);
}
