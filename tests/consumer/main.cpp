// A tiny game, written as the README shows: uses each module through the installed or added
// glide, so a missing header, library or dependency fails to build, and a broken link fails to
// run.
#include <glide/cases/settings_json.hpp>
#include <glide/controller/controller.hpp>
#include <glide/controller/player_step.hpp>
#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/terrain/heightfield.hpp>
#include <glide/version.hpp>
#include <glide/world/world.hpp>

#include <cstdio>
#include <filesystem>
#include <vector>

int main() {
  glide::World world;
  world.add_piece(glide::gjk::ConvexHull::box({10.f, 0.5f, 10.f}), {.translation = {0.f, -0.5f, 0.f}});
  world.set_terrain(
      glide::Heightfield({.rows = 2, .columns = 2, .heights = {0.f, 1.f, 0.f, 1.f}, .origin = {50.f, 0.f, 50.f}}));

  // The tuning comes from a settings file, as a game's would (the cases module, nlohmann_json).
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "glide_consumer_settings.json";
  glide::cases::save_controller_settings(file, glide::ControllerSettings{.radius = 0.3f, .height = 1.8f});
  glide::Controller player(world, glide::cases::load_controller_settings(file), {0.f, 0.5f, 0.f});
  std::filesystem::remove(file);
  glide::PlayerStep step({.gravity = 9.81f, .jump_speed = 5.f});
  glide::MoveResult r;
  for (int frame = 0; frame < 60; ++frame) r = step.step(player, {.velocity = {1.f, 0.f, 0.f}}, 1.f / 60.f);

  const auto d = glide::gjk::distance(player.capsule(), glide::gjk::Point{{0.f, 5.f, 0.f}});
  std::printf("glide %s: feet at (%.3f, %.3f, %.3f), %s, %.3f m below the point\n", glide::version_string, r.position.x,
              r.position.y, r.position.z,
              r.ground.state == glide::GroundState::on_ground ? "on ground" : "not on ground", d.distance);
  const bool ok = r.ground.state == glide::GroundState::on_ground && r.position.y >= 0.f && r.position.y < 0.02f &&
                  r.position.x > 0.9f && d.distance > 2.f;
  return ok ? 0 : 1;
}
