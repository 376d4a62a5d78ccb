#pragma once

#include "viewer.hpp"

namespace CLI {
class App;
}

namespace glide::viewer {

/// Registers the viewer's own options on a subcommand (`glide demo`, which has --view and
/// --frames): --screenshot, --autopilot, --settings, --record-file fill `options`.
void add_view_options(CLI::App& command, ViewerOptions& options);

/// Whether this glide was built with the viewer (GLIDE_BUILD_VIEWER and its packages).
bool viewer_available();

} // namespace glide::viewer
