#pragma once

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
};

/// The panels' own state: the last status line and whether it reports a failure.
struct PanelState {
  std::string status;
  bool status_is_error = false;
  void report(std::string message, bool error) {
    status = std::move(message);
    status_is_error = error;
  }
};

/// Tuning panel (RecastDemo-style groups: Shape, Movement, Slopes & steps, Solver, Debug draw)
/// with every ControllerSettings field. Changes go through Controller::set_settings at once; a
/// refused change (no room for a bigger capsule, a value out of its limits) is reported and undone.
PanelActions tuning_panel(Walker& walker, DebugDrawOptions& debug, PanelState& state, const std::string& settings_file);

/// Stats panel: time per move, iterations, ground state, contacts, frame rate.
void stats_panel(const Walker& walker, const std::string& level_name, float frame_ms);

} // namespace glide::viewer
