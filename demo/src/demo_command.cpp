#include "demo_command.hpp"

#include "commands.hpp"
#include "demo_view.hpp"
#include "settings_flags.hpp"

#include <glide/cases/settings_json.hpp>
#include <glide/controller/settings_schema.hpp>
#include <glide/error.hpp>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <ostream>
#include <string>

namespace glide::cli {
namespace {

// One table row: a label in a fixed column, then the value right-aligned.
void row(std::ostream& out, const char* label, const std::string& value, const std::string& note = "") {
  char line[160];
  std::snprintf(line, sizeof line, "  %-28s %16s", label, value.c_str());
  out << line << (note.empty() ? "" : "   " + note) << "\n";
}

std::string fixed(double v, int decimals) {
  char s[64];
  std::snprintf(s, sizeof s, "%.*f", decimals, v);
  return s;
}

bool tour_ok(const demo::TourStats& s, const ControllerSettings& c) {
  return s.finished && s.stuck_frames == 0 && s.skipped == 0 && s.passed_unexpectedly == 0 &&
         s.max_penetration <= c.skin_width;
}

// `glide demo --crowd N`: the crowd's figures and its map.
int run_crowd_command(const DemoArgs& args, demo::DemoLevel& level, std::ostream& out) {
  demo::CrowdSettings crowd = args.crowd_settings;
  crowd.count = args.crowd;
  crowd.dt = args.tour.dt;
  const demo::CrowdStats s = demo::run_crowd(level, args.controller, crowd);
  demo::place_pieces(level.world, level.moving, 0.f);
  const demo::MapImage map = demo::render_map(level, s.paths, args.map);
  demo::write_png(args.output, map);

  const double hz = 1.0 / static_cast<double>(crowd.dt);
  out << "glide demo --crowd: " << s.characters << " characters on " << level.name << ", "
      << (crowd.threads == 0 ? std::string("every core") : std::to_string(crowd.threads) + " thread(s)") << "\n\n";
  row(out, "frames", std::to_string(s.frames), fixed(s.frames / hz, 1) + " s at " + fixed(hz, 0) + " Hz");
  row(out, "us per frame, median", fixed(s.median_frame_us, 1), "CharacterSet::update of all of them");
  row(out, "us per frame, max", fixed(s.max_frame_us, 1));
  row(out, "us per character-update", fixed(s.median_frame_us / s.characters, 2), "median frame / characters");
  row(out, "closest two characters", fixed(s.closest_pair, 5) + " m", "negative: overlapping");
  row(out, "pair overlaps beyond skin", std::to_string(s.pair_overlaps), "pairs x frames");
  row(out, "max penetration", fixed(s.max_penetration, 5) + " m",
      "into geometry, crushes aside; skin " + fixed(args.controller.skin_width, 4) + " m");
  row(out, "crushed character-frames", std::to_string(s.crushed),
      "by a moving piece, at most " + fixed(s.max_crushed_depth, 4) + " m into it");
  row(out, "stuck character-frames", std::to_string(s.stuck), "under 10% of the wanted progress");
  row(out, "goals reached", std::to_string(s.goals_reached));
  row(out, "moves made again", std::to_string(s.conflicts), "ended overlapping another: redone in id order");
  char hash[32];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(s.hash));
  row(out, "state hash", hash, "positions and ground states of every frame");
  const bool ok = s.pair_overlaps == 0 && s.max_penetration <= args.controller.skin_width;
  out << "\ncrowd: " << (ok ? "OK" : "PROBLEMS (see the figures above)") << "\n";
  out << "map: " << std::filesystem::absolute(args.output).string() << " (" << map.width << " x " << map.height
      << " pixels)\n";
  return args.check && !ok ? 1 : 0;
}

} // namespace

std::function<int(const DemoArgs&, std::ostream&, std::ostream&)>& demo_viewer() {
  static std::function<int(const DemoArgs&, std::ostream&, std::ostream&)> viewer;
  return viewer;
}

int run_demo_command(const DemoArgs& args, std::ostream& out, std::ostream& err) {
  try {
    const std::filesystem::path level_file =
        args.level.empty() ? demo::default_level_file() : std::filesystem::path(args.level);
    demo::DemoLevel level = demo::load_demo_level(level_file, args.script);
    for (const auto& w : level.warnings) err << "warning: " << w << "\n";
    if (args.crowd > 0) return run_crowd_command(args, level, out);

    const demo::TourWalker walker = demo::run_tour(level, args.controller, args.tour);
    const demo::TourStats s = walker.stats();
    demo::place_pieces(level.world, level.moving, 0.f); // the map shows them where they start
    const demo::MapImage map = demo::render_map(level, walker.frames(), args.map);
    demo::write_png(args.output, map);

    const double hz = 1.0 / static_cast<double>(args.tour.dt);
    out << "glide demo: " << level.name << " (" << level.file.string() << ")\n"
        << "  " << level.world.piece_count() << " pieces (" << level.geometry_file.filename().string() << "), terrain "
        << (level.world.terrain() ? std::to_string(level.world.terrain()->rows()) + " x " +
                                        std::to_string(level.world.terrain()->columns())
                                  : std::string("none"))
        << ", " << level.moving.size() << " moving, tour " << level.script.file.filename().string() << ": "
        << s.waypoints << " waypoints\n\n";
    row(out, "frames", std::to_string(s.frames),
        fixed(s.frames / hz, 1) + " s at " + fixed(hz, 0) + " Hz" + (s.finished ? "" : ", cut before the end"));
    row(out, "distance walked", fixed(s.distance, 1) + " m");
    row(out, "frames stuck", std::to_string(s.stuck_frames),
        "< " + fixed(100.0 * args.tour.stuck_ratio, 0) + "% of the requested progress");
    row(out, "frames blocked (expected)", std::to_string(s.blocked_frames), "pushing where the script expects a wall");
    row(out, "max penetration", fixed(s.max_penetration, 5) + " m",
        "skin " + fixed(args.controller.skin_width, 4) + " m");
    row(out, "ground-state flicker", std::to_string(s.flicker),
        "on ground -> other -> on ground within " + std::to_string(args.tour.flicker_frames) + " frames");
    row(out, "us per move, median", fixed(s.median_us, 1));
    row(out, "us per move, p99", fixed(s.p99_us, 1));
    row(out, "ground: on / steep / air",
        std::to_string(s.ground_frames[0]) + " / " + std::to_string(s.ground_frames[1]) + " / " +
            std::to_string(s.ground_frames[2]),
        "frames");
    row(out, "jumps", std::to_string(s.jumps));
    // Each moving piece's share of a figure, "lift 12, door 3", after the table's note.
    const auto per_piece = [&](int demo::MovingPieceStats::*field, const std::string& note) {
      std::string text = note;
      for (const demo::MovingPieceStats& m : s.moving)
        text += (&m == &s.moving.front() ? ": " : ", ") + m.name + " " + std::to_string(m.*field);
      return text;
    };
    int touching = 0;
    for (const demo::MovingPieceStats& m : s.moving) touching += m.touching;
    row(out, "frames on moving pieces", std::to_string(s.moving_frames),
        per_piece(&demo::MovingPieceStats::frames_on, "standing on them"));
    row(out, "frames touching them", std::to_string(touching),
        per_piece(&demo::MovingPieceStats::touching,
                  "within " + fixed(demo::k_touch_skins, 0) + " skins, standing included"));
    row(out, "off ground while riding", std::to_string(s.moving_off_ground),
        "frames in the air between two frames on the same moving piece");
    row(out, "frames pushed", std::to_string(s.pushed_frames),
        per_piece(&demo::MovingPieceStats::pushed, "by pieces moving into the walker"));
    row(out, "frames crushed", std::to_string(s.crushed_frames), "pushed against what does not let go");
    row(out, "waypoints reached", std::to_string(s.reached) + " / " + std::to_string(s.waypoints));
    row(out, "waypoints skipped", std::to_string(s.skipped), "reachable ones given up at their timeout");
    row(out, "blocked as expected", std::to_string(s.blocked_as_expected),
        std::to_string(s.passed_unexpectedly) + " passed where a wall was expected");
    if (args.verbose) {
      out << "\n  waypoint                          outcome    frames  stuck  blocked  flicker\n";
      for (const demo::WaypointReport& w : walker.waypoints()) {
        char line[200];
        const char* outcome = w.reached ? "reached" : (w.expect == demo::Expect::reach ? "SKIPPED" : "blocked");
        std::snprintf(line, sizeof line, "  %-32s %-9s %7d %6d %8d %8d", w.name.c_str(), outcome, w.frames,
                      w.stuck_frames, w.blocked_frames, w.flicker);
        out << line << "\n";
      }
    }
    for (const demo::WaypointReport& w : walker.waypoints()) {
      if (w.expect == demo::Expect::reach && !w.reached && &w != &walker.waypoints().back())
        out << "  skipped: " << w.name << "\n";
      if (w.expect == demo::Expect::blocked && w.reached) out << "  passed unexpectedly: " << w.name << "\n";
    }
    const bool ok = tour_ok(s, args.controller);
    out << "\ntour: " << (ok ? "OK" : "PROBLEMS (see the figures above)") << "\n";
    out << "map: " << std::filesystem::absolute(args.output).string() << " (" << map.width << " x " << map.height
        << " pixels)\n";
    return args.check && !ok ? 1 : 0;
  } catch (const Error& e) {
    err << "glide demo: " << e.what() << "\n";
    return 2;
  }
}

void add_demo_command(CLI::App& app, std::ostream& out, std::ostream& err, std::function<int()>& action) {
  auto args = std::make_shared<DemoArgs>();
  CLI::App* cmd =
      app.add_subcommand("demo", "Walk the demo level's scripted tour: a table of figures and a top-down PNG map");
  cmd->add_option("--level", args->level,
                  "Level description (JSON), or an OBJ/glTF file (.obj, .gltf, .glb) of pieces to walk the shipped "
                  "level's tour on in place of its own; default: the shipped demo/levels/demo.json");
  cmd->add_option("--script", args->script, "Tour script (JSON) replacing the level's");
  cmd->add_option("--output,-o", args->output, "Where to write the PNG map")->capture_default_str();
  cmd->add_option("--frames", args->tour.max_frames, "Stop after this many frames (0: the whole tour)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--verbose,-v", args->verbose, "Print one line per waypoint");
  cmd->add_flag("--check", args->check,
                "Exit 1 when the tour gets stuck, skips a waypoint or penetrates beyond the skin");
  cmd->add_flag("--view", args->view, "Open the interactive viewer on the level instead");
  cmd->add_flag("--print-settings", args->print_settings,
                "Print the controller and player settings the flags give, as JSON, and exit");
  add_demo_view(*cmd); // the viewer's own options (demo_view.hpp)
  cmd->add_option("--crowd", args->crowd, "Run N characters walking their own routes at once instead of the tour")
      ->check(CLI::Range(1, 100000))
      ->group("Crowd");
  cmd->add_option("--crowd-frames", args->crowd_settings.frames, "Frames of the crowd run")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000000))
      ->group("Crowd");
  cmd->add_option("--threads", args->crowd_settings.threads, "Threads of the crowd's update (0: every core)")
      ->capture_default_str()
      ->check(CLI::Range(0, 256))
      ->group("Crowd");
  cmd->add_option("--seed", args->crowd_settings.seed, "Seed of the crowd's spawn order and goals")
      ->capture_default_str()
      ->group("Crowd");

  // The tour's game rules.
  const auto hz = std::make_shared<float>(60.f);
  cmd->add_option("--hz", *hz, "Frames per second of the tour")
      ->capture_default_str()
      ->check(CLI::Range(1.f, 10000.f))
      ->group("Tour");
  const auto apply_player = add_settings_flags(*cmd, player_settings_table(), args->tour.player, "Tour");
  cmd->add_option("--map-size", args->map.max_size, "Pixels along the longer side of the map")
      ->capture_default_str()
      ->group("Tour");

  // Every ControllerSettings field; angles in degrees here, radians in the struct.
  const auto apply_controller = add_settings_flags(*cmd, controller_settings_table(), args->controller, "Controller");

  cmd->callback([args, hz, apply_player, apply_controller, &out, &err, &action] {
    args->tour.dt = 1.f / *hz;
    apply_player();
    apply_controller();
    action = [args, &out, &err] {
      if (args->print_settings) {
        // {"controller": ..., "player": ...}: the "controller" object is a viewer settings file.
        cases::Json j = cases::Json::object();
        j["controller"] = cases::settings_json(controller_settings_table(), args->controller);
        j["player"] = cases::settings_json(player_settings_table(), args->tour.player);
        out << cases::dump_readable(j);
        return 0;
      }
      if (!args->view) return run_demo_command(*args, out, err);
      if (demo_viewer()) return demo_viewer()(*args, out, err);
      err << "glide demo --view: the viewer is not built into this glide\n";
      return 2;
    };
  });
}

} // namespace glide::cli
