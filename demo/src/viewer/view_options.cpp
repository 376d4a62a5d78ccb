#include "view_options.hpp"

#include <CLI/CLI.hpp>

namespace glide::viewer {

void add_view_options(CLI::App& command, ViewerOptions& options) {
  const char* group = "Viewer (--view)";
  command.add_option("--screenshot", options.screenshot, "Write the last frame to this PNG when the viewer stops")
      ->group(group);
  command.add_flag("--autopilot", options.autopilot, "Drive the character with a fixed input script")->group(group);
  command
      .add_option("--settings", options.settings_file,
                  "Controller settings JSON: loaded at start when it exists, saved from the tuning panel")
      ->group(group);
  command
      .add_option("--walkers", options.walkers,
                  "Spawn this many crowd walkers around the character at start (F6 spawns, F7 clears)")
      ->check(CLI::NonNegativeNumber)
      ->group(group);
  command.add_option("--record-file", options.record_file, "Case file the record key (F9) adds to")
      ->capture_default_str()
      ->group(group);
}

} // namespace glide::viewer
