#include <doctest/doctest.h>

#include "demo_level.hpp"
#include "map_image.hpp"
#include "run_glide.hpp"
#include "tour.hpp"
#include "work_files.hpp"

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

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
using glide::test::contains;
fs::path tour_dir() { return glide::test::work_dir("demo_tour"); }

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
  glide::demo::DemoLevel level = glide::demo::load_demo_level(glide::demo::default_level_file());
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

  // The moving pieces: the walker stands on the lift, the turntable and the walkway, and the
  // door swings into it; nothing crushes it and no ride loses its ground.
  REQUIRE(s.moving.size() == 4);
  for (const auto& m : s.moving) {
    CHECK_MESSAGE(m.touching > 0, m.name);
    CHECK_MESSAGE(m.off_ground == 0, m.name);
    if (m.name != "door") CHECK_MESSAGE(m.frames_on > 60, m.name); // a second or more on each
  }
  CHECK(s.moving[3].name == "door");
  CHECK(s.moving[3].pushed > 0);
  CHECK(s.pushed_frames == s.moving[3].pushed); // only the door pushes
  CHECK(s.crushed_frames == 0);
  CHECK(s.moving_frames == s.moving[0].frames_on + s.moving[1].frames_on + s.moving[2].frames_on);
  const float dt = glide::demo::TourSettings{}.dt;
  float deck_top = -1e9f, door_x = 1e9f;
  std::vector<glm::vec3> turning;
  for (const auto& f : walker.frames()) {
    if (f.waypoint == leg("lift_top_off")) deck_top = std::max(deck_top, f.position.y);
    if (f.waypoint == leg("turntable_ride") && f.riding == 1 && f.walk == glm::vec3(0.f)) turning.push_back(f.position);
    if (f.waypoint == leg("door_stand")) door_x = std::min(door_x, f.position.x);
    if (f.waypoint == leg("lift_board") || f.waypoint == leg("lift_top_back"))
      CHECK(f.ground == glide::GroundState::on_ground); // on the lift all the way up and down
  }
  // Up the lift onto the deck (top 3.2 m): the feet rest within the skin above it.
  CHECK(deck_top >= 3.2f);
  CHECK(deck_top <= 3.2f + 2.f * settings.skin_width);
  // Standing on the turntable (a turn in 8 s about (8, -20)): carried around its centre at
  // the radius it stood at, by 45 degrees a second.
  REQUIRE(turning.size() > 120);
  const glm::vec2 centre{8.f, -20.f};
  const glm::vec2 a{turning.front().x - centre.x, turning.front().z - centre.y};
  const glm::vec2 b{turning.back().x - centre.x, turning.back().z - centre.y};
  CHECK(std::abs(glm::length(b) - glm::length(a)) < 0.01f);
  const float turned = std::atan2(a.x * b.y - a.y * b.x, glm::dot(a, b));                   // from a to b, x toward z
  const float expected = -glm::radians(45.f) * dt * static_cast<float>(turning.size() - 1); // +x turns to -z
  const float pi = glm::radians(180.f);
  CHECK(std::abs(std::remainder(turned - expected, 2.f * pi)) < glm::radians(1.f)); // half a turn: modulo a turn
  // The door (hinged at x = 15.55, opening toward -z) pushed the walker past its open position.
  CHECK(door_x < 15.55f - settings.radius);
}

TEST_CASE("the tour moves the pieces before the walker: a lift carries it up by its rise") {
  // A floor, and a 2 x 2 m lift (top at 0.2 m) that rises 2 m between t = 1 s and t = 3 s.
  glide::demo::DemoLevel level;
  level.world.add_piece(glide::gjk::ConvexHull::box({10.f, 0.5f, 10.f}), {{1.f, 0.f, 0.f, 0.f}, {0.f, -0.5f, 0.f}});
  const glide::PieceId lift =
      level.world.add_piece(glide::gjk::ConvexHull::box({1.f, 0.1f, 1.f}), {{1.f, 0.f, 0.f, 0.f}, {0.f, 0.1f, 0.f}});
  glide::PiecePath path;
  path.keys = {{0.f, {0.f, 0.f, 0.f}, 0.f}, {1.f, {0.f, 0.f, 0.f}, 0.f}, {3.f, {0.f, 2.f, 0.f}, 0.f}};
  level.moving.push_back({"lift", lift, level.world.transform(lift), path});
  level.spawn = {0.f, 0.25f, 0.f};
  // Stand on it until 4 s, then step 3 m off to the +x side (off its top, 2.2 m up: a fall).
  level.script.waypoints = {{.name = "ride", .target = {0.f, 0.f, 0.f}, .until = 4.f},
                            {.name = "off", .target = {3.f, 0.f, 0.f}, .wait = 1.f}};
  const glide::ControllerSettings settings;
  const glide::demo::TourWalker walker = glide::demo::run_tour(level, settings);
  const glide::demo::TourStats s = walker.stats();
  CHECK(s.finished);
  CHECK(s.stuck_frames == 0);
  CHECK(s.max_penetration <= settings.skin_width);
  float top = -1e9f, lag = 1e9f, lead = -1e9f;
  int ride_frames = 0, landed = -1;
  for (const auto& f : walker.frames()) {
    if (f.waypoint != 0) continue;
    ++ride_frames;
    top = std::max(top, f.position.y);
    if (landed < 0 && f.riding == 0) landed = ride_frames;
    // The lift's top where the frame ends: the walker stands on it there (a skin above), not
    // where it was when the frame began (1.7 cm lower at 1 m/s: the pieces moved after the walker).
    const float frame_end = static_cast<float>(ride_frames) * glide::demo::TourSettings{}.dt;
    const float lift_top = 0.2f + 2.f * std::clamp((frame_end - 1.f) / 2.f, 0.f, 1.f);
    if (landed >= 0) {
      lag = std::min(lag, f.position.y - lift_top);
      lead = std::max(lead, f.position.y - lift_top);
    }
    if (landed >= 0) CHECK(f.riding == 0); // once settled from 5 cm up: on the lift every frame, rising included
  }
  CHECK(landed > 0);
  CHECK(landed < 15);
  CHECK(lag >= 0.f);
  CHECK(lead <= 2.f * settings.skin_width);
  // Idle until the clock reads 4 s: 240 frames at 60 Hz (the float count-down may add one).
  CHECK(ride_frames >= 240);
  CHECK(ride_frames <= 241);
  CHECK(top >= 2.2f);
  CHECK(top <= 2.2f + 2.f * settings.skin_width);
  CHECK(s.moving[0].frames_on >= 240);
  CHECK(s.moving[0].off_ground == 0);
  CHECK(walker.frames().back().position.y < 0.05f); // fell off its side back onto the floor
}

TEST_CASE("glide demo prints the table and writes a decodable PNG map with the legend and the path") {
  const fs::path png = tour_dir() / "demo.png";
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
  const fs::path png = tour_dir() / "short.png";
  const Run r = run_glide({"demo", "-o", png.string(), "--frames", "120", "--radius", "0.25", "--max-slope", "45"});
  CHECK(r.code == 0);
  CHECK(contains(r.out, "cut before the end"));
  CHECK(decode(png).pixels);
}

TEST_CASE("glide demo reports bad input clearly") {
  const fs::path png = tour_dir() / "bad.png";
  Run r = run_glide({"demo", "--level", (tour_dir() / "missing.json").string(), "-o", png.string()});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "missing.json: cannot open level description"));

  r = run_glide({"demo", "--radius", "-1", "-o", png.string()});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "radius"));

  r = run_glide({"demo", "--script", (tour_dir() / "nowhere.json").string(), "-o", png.string()});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "nowhere.json: cannot open tour script"));

  const fs::path not_a_folder = tour_dir() / "plain_file";
  std::ofstream(not_a_folder) << "not a folder";
  r = run_glide({"demo", "-o", (not_a_folder / "map.png").string()});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "cannot write the PNG"));

  r = run_glide({"demo", "--toi-method", "guess"});
  CHECK(r.code != 0);
}

TEST_CASE("a tour ends whatever its speeds and waits: a crawling leg times out within the leg bound") {
  glide::demo::DemoLevel level;
  level.world.add_piece(glide::gjk::ConvexHull::box({10.f, 0.5f, 10.f}), {{1.f, 0.f, 0.f, 0.f}, {0.f, -0.5f, 0.f}});
  level.spawn = {0.f, 0.01f, 0.f};
  // At 1e-30 m/s the default timeout (twice the walk + 2 s) was 1e31 s: now at most an hour.
  level.script.waypoints = {{.name = "crawl", .target = {5.f, 0.f, 0.f}, .speed = 1e-30f}};
  const glide::demo::TourWalker walker = glide::demo::run_tour(level, glide::ControllerSettings{});
  const glide::demo::TourStats s = walker.stats();
  CHECK(s.finished);
  CHECK(s.skipped == 1);
  const float seconds = static_cast<float>(s.frames) * glide::demo::TourSettings{}.dt;
  CHECK(seconds == doctest::Approx(glide::demo::k_max_leg_seconds).epsilon(1e-3));
}

TEST_CASE("glide demo refuses a gravity that would overflow, and a map or report it cannot write") {
  Run r = run_glide({"demo", "--gravity", "1e30", "--frames", "10", "-o", (tour_dir() / "g.png").string()});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "PlayerSettings.gravity"));
  CHECK(contains(r.err, "in [0, 1000] m/s^2"));
  // /dev/full accepts the open and fails every write.
  r = run_glide({"demo", "--frames", "10", "-o", "/dev/full"});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "/dev/full: cannot write the PNG: write failed"));
  // A report to a stream that fails (standard output on a full disk).
  std::vector<const char*> argv{"glide", "info"};
  std::ostream full(nullptr);
  std::ostringstream err;
  CHECK(glide::cli::run(static_cast<int>(argv.size()), argv.data(), full, err) == 2);
  CHECK(contains(err.str(), "cannot write to standard output"));
}

TEST_CASE("the demo tour on demo.gltf, the same pieces as glTF, gives the figures it gives on demo.obj") {
  const std::filesystem::path gltf = glide::demo::default_level_file().parent_path() / "demo.gltf";
  glide::demo::DemoLevel obj_level = glide::demo::load_demo_level(glide::demo::default_level_file());
  glide::demo::DemoLevel gltf_level = glide::demo::load_demo_level(gltf);
  CHECK(gltf_level.geometry_file == gltf);
  CHECK(gltf_level.warnings.empty());
  REQUIRE(gltf_level.pieces.size() == obj_level.pieces.size());
  for (std::size_t i = 0; i < obj_level.pieces.size(); ++i) {
    CHECK(gltf_level.pieces[i].name == obj_level.pieces[i].name);
    const auto a = obj_level.world.hull(obj_level.pieces[i].id).vertices();
    const auto b = gltf_level.world.hull(gltf_level.pieces[i].id).vertices();
    CHECK(std::equal(a.begin(), a.end(), b.begin(), b.end())); // bit for bit
  }
  const glide::ControllerSettings settings;
  const glide::demo::TourWalker on_obj = glide::demo::run_tour(obj_level, settings);
  const glide::demo::TourWalker on_gltf = glide::demo::run_tour(gltf_level, settings);
  const glide::demo::TourStats a = on_obj.stats(), b = on_gltf.stats();
  CHECK(b.finished);
  CHECK(a.frames == b.frames);
  CHECK(a.distance == b.distance);
  CHECK(a.stuck_frames == b.stuck_frames);
  CHECK(a.blocked_frames == b.blocked_frames);
  CHECK(a.max_penetration == b.max_penetration);
  CHECK(a.flicker == b.flicker);
  for (int g = 0; g < 3; ++g) CHECK(a.ground_frames[g] == b.ground_frames[g]);
  CHECK(a.reached == b.reached);
  CHECK(a.blocked_as_expected == b.blocked_as_expected);
  CHECK(a.moving_frames == b.moving_frames);
  CHECK(a.pushed_frames == b.pushed_frames);
  REQUIRE(on_obj.frames().size() == on_gltf.frames().size());
  for (std::size_t i = 0; i < on_obj.frames().size(); ++i)
    if (on_obj.frames()[i].position != on_gltf.frames()[i].position) {
      FAIL("frame " << i << " differs");
      break;
    }
}

TEST_CASE("the demo tour on demo.gltf with its static nodes marked as meshes walks as cleanly") {
  // Every node but the moving pieces renamed "<name>-mesh": each box a closed mesh of 12
  // triangles, whose edges are convex and whose face diagonals are flat.
  const fs::path levels = glide::demo::default_level_file().parent_path();
  std::ifstream in(levels / "demo.gltf");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  int marked = 0;
  for (std::size_t at = text.find("{\"name\":\""); at != std::string::npos; at = text.find("{\"name\":\"", at + 1)) {
    const std::size_t begin = at + 9, end = text.find('"', begin);
    const std::string name = text.substr(begin, end - begin);
    if (text.compare(end, 9, "\",\"mesh\":") != 0) continue; // a mesh's name, not a node's
    if (name == "lift" || name == "lift_deck" || name == "turntable" || name == "walkway" || name == "door") continue;
    text.insert(end, "-mesh");
    ++marked;
  }
  REQUIRE(marked == 105);
  const fs::path file = tour_dir() / "demo_meshes.gltf";
  std::ofstream(file) << text;
  fs::copy_file(levels / "demo.bin", tour_dir() / "demo.bin", fs::copy_options::overwrite_existing);

  glide::demo::DemoLevel level = glide::demo::load_demo_level(file);
  int meshes = 0;
  for (const auto& p : level.pieces) meshes += level.world.is_mesh(p.id) ? 1 : 0;
  CHECK(meshes == 105);
  const glide::ControllerSettings settings;
  const glide::demo::TourStats s = glide::demo::run_tour(level, settings).stats();
  glide::demo::DemoLevel convex = glide::demo::load_demo_level(levels / "demo.gltf");
  const glide::demo::TourStats c = glide::demo::run_tour(convex, settings).stats();
  CHECK(s.finished);
  CHECK(s.stuck_frames == 0);
  CHECK(s.skipped == 0);
  CHECK(s.passed_unexpectedly == 0);
  CHECK(s.max_penetration <= settings.skin_width);
  CHECK(s.flicker == 0);
  CHECK(s.reached == c.reached);
  CHECK(s.blocked_as_expected == c.blocked_as_expected);
  CHECK(s.jumps == c.jumps);
  CHECK(std::abs(s.distance - c.distance) < 0.01 * c.distance);
}
