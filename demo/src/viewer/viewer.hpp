#pragma once

#include <glide/controller/controller_settings.hpp>
#include <glide/controller/player_step.hpp>
#include <glide/world/world.hpp>

#include "moving_pieces.hpp"

#include <glm/vec3.hpp>

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace glide::viewer {

/// What the viewer shows: the world, where the character starts, and where it came from.
struct ViewerLevel {
  World world;
  glm::vec3 spawn{0.f};                  ///< feet of the character at start (m)
  std::string name;                      ///< shown in the window title and stats
  std::vector<demo::MovingPiece> moving; ///< pieces of `world` that move each frame
};

/// Builds the level; called at start and again on reload (F5). Throws glide::Error when the
/// level cannot be read, which the viewer reports and survives on reload.
using LevelLoader = std::function<ViewerLevel()>;

struct ViewerOptions {
  int width = 1280;          ///< window width (pixels)
  int height = 720;          ///< window height (pixels)
  int frames = 0;            ///< stop after this many frames; 0 runs until the window closes (count)
  std::string screenshot;    ///< PNG written from the last frame when not empty
  bool autopilot = false;    ///< drive the character with a fixed input script instead of the keyboard
  std::string settings_file; ///< JSON of ControllerSettings: loaded at start when it exists, saved by the panel
  std::string record_file = "glide_recorded_cases.json"; ///< case file the record key (F9) adds to
  ControllerSettings controller; ///< starting settings; the settings file, when it exists, overrides them
  PlayerSettings player{.gravity = 15.f, .jump_speed = 5.5f}; ///< the walker's gravity and jumps
  int walkers = 0; ///< crowd walkers spawned around the character at start (count, >= 0)
};

/// Opens a window and runs the interactive viewer until it is closed (Esc) or `frames` have
/// been drawn. Returns 0 on success, 2 when no display or OpenGL 3.3 context is available
/// (with the reason on `err`), 1 for other failures.
int run_viewer(const ViewerOptions& options, const LevelLoader& load_level, std::ostream& out, std::ostream& err);

/// A small level built in code (a floor, boxes, a ramp, stairs): used when no level file is given.
ViewerLevel builtin_level();

} // namespace glide::viewer
