#include "demo_view.hpp"

#include "demo_command.hpp"
#include "demo_level.hpp"
#include "view_options.hpp"

#include <CLI/CLI.hpp>

#include <memory>

namespace glide::cli {

void add_demo_view(CLI::App& demo) {
  auto options = std::make_shared<viewer::ViewerOptions>();
  viewer::add_view_options(demo, *options);
  demo_viewer() = [options](const DemoArgs& args, std::ostream& out, std::ostream& err) {
    viewer::ViewerOptions o = *options;
    o.frames = args.tour.max_frames;
    o.controller = args.controller;
    o.player = args.tour.player;
    // Read again on every reload (F5), so edits to the level files show up.
    const std::filesystem::path file =
        args.level.empty() ? demo::default_level_file() : std::filesystem::path(args.level);
    const std::filesystem::path script = args.script;
    const viewer::LevelLoader load = [file, script] {
      demo::DemoLevel level = demo::load_demo_level(file, script);
      return viewer::ViewerLevel{std::move(level.world), level.spawn, level.name, std::move(level.moving)};
    };
    return viewer::run_viewer(o, load, out, err);
  };
}

} // namespace glide::cli
