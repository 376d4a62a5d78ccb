#pragma once

// The demo level (demo/levels/README.md): a description file naming an OBJ or glTF file of convex
// pieces, a heightmap terrain, the pieces that move and their motions, a spawn point and a tour
// script. Loading prints nothing, so the headless tour and the viewer share it.

#include "moving_pieces.hpp"

#include <glide/terrain/heightfield_loader.hpp>
#include <glide/world/obj_level.hpp>
#include <glide/world/world.hpp>

#include <glm/vec3.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace glide::demo {

/// What the walker should achieve at a waypoint.
enum class Expect : std::uint8_t {
  reach,   ///< the waypoint is reachable: a frame without progress toward it is stuck
  blocked, ///< the walker pushes against geometry it must not pass until the timeout
  either,  ///< a borderline case (a ramp at exactly max_slope): both outcomes are fine
};

/// One leg of the tour: the walker steers toward `target` until it is within `radius`.
/// Bounds of a tour script's times and speeds, so every tour ends: each leg walks at most
/// k_max_leg_seconds before its timeout and idles at most as long.
inline constexpr float k_max_leg_seconds = 3600.f; ///< (s)
inline constexpr float k_max_tour_speed = 100.f;   ///< (m/s)

struct Waypoint {
  std::string name;
  glm::vec3 target{0.f}; ///< (m, world, in the valid range); only x and z steer, y is where the ground is (drawing)
  float speed = 4.f;     ///< walking speed on this leg (m/s, in (0, k_max_tour_speed])
  float radius = 0.3f;   ///< reached within this horizontal distance (m, > 0)
  /// give up after this long (s, in [0, k_max_leg_seconds]); 0 = twice the straight walk + 2 s,
  /// at most k_max_leg_seconds
  float timeout = 0.f;
  float wait = 0.f; ///< idle this long once reached (s, in [0, k_max_leg_seconds])
  /// and idle until the tour's clock reads this (s, in [0, k_max_leg_seconds]): meets a lift or a door on time
  float until = 0.f;
  bool jump = false; ///< jump when the leg starts (if on the ground)
  Expect expect = Expect::reach;
};

/// The scripted walk: waypoints in order.
struct TourScript {
  std::filesystem::path file;
  std::string description;
  std::vector<Waypoint> waypoints;
};

/// A loaded level: the world to move through, where to start and the tour.
struct DemoLevel {
  std::filesystem::path file; ///< the description (JSON)
  std::string name;
  std::filesystem::path geometry_file; ///< the pieces: OBJ, or glTF (.gltf, .glb)
  std::filesystem::path terrain_file;  ///< empty without terrain
  HeightfieldLoadSettings terrain_settings;
  World world;
  /// The pieces with their names and ids (a glTF mesh node's triangles are "<node>/<index>", line 0)
  std::vector<ObjLevelPiece> pieces;
  std::vector<std::string> warnings; ///< from the OBJ or glTF loader
  std::vector<MovingPiece> moving;   ///< kinematic pieces, placed at their pose at time 0
  glm::vec3 spawn{0.f};              ///< feet of the character at the start (m)
  TourScript script;
};

/// demo/levels/demo.json of the source tree this program was built from.
std::filesystem::path default_level_file();

/// True for the geometry files a level may name instead of a description: .obj, .gltf, .glb.
bool is_geometry_file(const std::filesystem::path& file);

/// Loads a level description; file names in it are relative to its folder. Given a geometry
/// file (is_geometry_file) instead, loads the shipped description with that file's pieces in
/// place of its own. `script` replaces the tour named in the description when not empty. Throws
/// glide::Error naming the file and field for a missing file, malformed JSON, a missing or wrong
/// field, or an OBJ/glTF/terrain error.
DemoLevel load_demo_level(const std::filesystem::path& file, const std::filesystem::path& script = {});

/// Loads a tour script (JSON): {"defaults": {...}, "waypoints": [{"name", "to": [x, y, z],
/// "speed", "radius", "timeout", "wait", "until", "jump", "expect": "reach" | "blocked" | "either"}]}.
/// Throws glide::Error naming the file, the waypoint and the field.
TourScript load_tour_script(const std::filesystem::path& file);

} // namespace glide::demo
