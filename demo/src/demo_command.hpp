#pragma once

// `glide demo`: the headless tour of the demo level, its table and its map picture.

#include "crowd.hpp"
#include "map_image.hpp"
#include "tour.hpp"

#include <glide/controller/controller_settings.hpp>

#include <functional>
#include <iosfwd>
#include <string>

namespace glide::cli {

/// The parsed options of `glide demo`.
struct DemoArgs {
  std::string level;  ///< level description; empty = the shipped demo/levels/demo.json
  std::string script; ///< tour script replacing the level's; empty = the level's
  std::string output = "glide_demo.png";
  ControllerSettings controller;
  demo::TourSettings tour;
  demo::MapImageSettings map;
  bool verbose = false;        ///< one line per waypoint
  bool check = false;          ///< exit 1 when the tour breaks a guarantee (stuck, skipped, penetration)
  bool view = false;           ///< open the interactive viewer instead of the headless tour
  bool print_settings = false; ///< print the controller and player settings as JSON instead
  int crowd = 0;               ///< characters of a crowd run instead of the tour (0: the tour)
  demo::CrowdSettings crowd_settings;
};

/// What `glide demo --view` runs; empty while no viewer is linked in (the viewer sets it).
std::function<int(const DemoArgs&, std::ostream& out, std::ostream& err)>& demo_viewer();

/// Runs the headless tour and prints its table; returns the exit code (2 for bad input).
int run_demo_command(const DemoArgs& args, std::ostream& out, std::ostream& err);

} // namespace glide::cli
