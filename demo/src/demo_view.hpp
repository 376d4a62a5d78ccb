#pragma once

// `glide demo --view`: the viewer's options on the demo command and the function --view runs
// (demo_viewer()), loading the same level as the headless tour.

namespace CLI {
class App;
}

namespace glide::cli {

/// Adds --screenshot, --autopilot, --settings and --record-file to `demo` and points
/// demo_viewer() at the viewer. The level, --frames, the controller options, --gravity and
/// --jump-speed of `glide demo` apply to the viewer too.
void add_demo_view(CLI::App& demo);

} // namespace glide::cli
