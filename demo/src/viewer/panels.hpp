#pragma once

#include "crowd_walkers.hpp"
#include "debug_draw.hpp"
#include "walker.hpp"

#include <string>

namespace glide::viewer {

/// What the user asked for in the panels this frame; the viewer carries it out.
struct PanelActions {
  bool save_settings = false;
  bool load_settings = false;
  bool reload_level = false;
  bool record_case = false;
  bool spawn_walkers = false;
  bool clear_walkers = false;
};

/// The panels' own state: the last status line and whether it reports a failure.
struct PanelState {
  std::string status;
  bool status_is_error = false;
  int walker_count = 50; ///< walkers the spawn button and F6 place (count)
  void report(std::string message, bool error) {
    status = std::move(message);
    status_is_error = error;
  }
};

/// Tuning panel (RecastDemo-style groups: Shape, Movement, Slopes & steps, Solver, Debug draw)
/// with every ControllerSettings field. Changes go through Controller::set_settings at once; a
/// refused change (no room for a bigger capsule, a value out of its limits) is reported and undone.
/// The Walkers group spawns and clears crowd walkers (`crowd`).
PanelActions tuning_panel(Walker& walker, const CrowdWalkers& crowd, DebugDrawOptions& debug, PanelState& state,
                          const std::string& settings_file);

/// Stats panel: time per move, iterations, ground state, contacts, frame rate.
void stats_panel(const Walker& walker, const std::string& level_name, float frame_ms);

} // namespace glide::viewer
