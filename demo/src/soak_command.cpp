#include "commands.hpp"
#include "soak.hpp"

#include <glide/error.hpp>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <ostream>
#include <string>

namespace glide::cli {
namespace {

struct SoakArgs {
  std::string level;
  demo::SoakSettings soak;
};

std::string fixed(double v, int decimals) {
  char s[64];
  std::snprintf(s, sizeof s, "%.*f", decimals, v);
  return s;
}

void row(std::ostream& out, const std::string& label, const std::string& value, const std::string& note = "") {
  char line[200];
  std::snprintf(line, sizeof line, "  %-28s %14s", label.c_str(), value.c_str());
  out << line << (note.empty() ? "" : "   " + note) << "\n";
}

int run_soak_command(const SoakArgs& args, std::ostream& out, std::ostream& err) {
  try {
    const std::filesystem::path file =
        args.level.empty() ? demo::default_level_file() : std::filesystem::path(args.level);
    demo::DemoLevel level = demo::load_demo_level(file);
    const demo::SoakSettings& s = args.soak;
    const demo::SoakReport r = demo::run_soak(level, s);

    out << "glide soak: " << level.name << " (" << level.file.string() << "), " << level.world.piece_count()
        << " pieces, " << level.moving.size() << " moving; --seed " << s.seed << "\n\n";
    row(out, "frames", std::to_string(r.frames), fixed(r.wall_seconds, 1) + " s wall time");
    row(out, "episodes", std::to_string(r.episodes),
        std::to_string(s.episode_frames) + " frames each, every one replayable with --episode");
    row(out, "teleports", std::to_string(r.teleports),
        std::to_string(r.teleports_into_geometry) + " into geometry; " + std::to_string(r.crushes) +
            " crushes by moving pieces; " + std::to_string(r.recoveries_finished) + " recoveries finished");
    row(out, "resizes", std::to_string(r.resizes), std::to_string(r.resizes_refused) + " refused for lack of room");
    row(out, "jumps", std::to_string(r.jumps));
    row(out, "saves restored", std::to_string(r.restores));
    row(out, "listener episodes", std::to_string(r.listener_episodes),
        "a ContactListener slows, stops or reverses the rest of the move after contacts");
    out << "\n  check                        violations   worst\n";
    const auto check = [&](demo::SoakCheck c, const std::string& worst) {
      row(out, demo::soak_check_name(c), std::to_string(r.violations[static_cast<std::size_t>(c)]), worst);
    };
    check(demo::SoakCheck::finite, "");
    check(demo::SoakCheck::error, "");
    check(demo::SoakCheck::crossing, std::to_string(r.crossing_chord_hits) +
                                         " chords clipped a corner the path went around (radius - skin - " +
                                         fixed(1000.0 * s.crossing_margin, 1) + " mm)");
    const std::string allowed = fixed(1000.0 * s.penetration_tolerance, 1) + " mm";
    check(demo::SoakCheck::penetration, fixed(1000.0 * r.worst_penetration, 3) + " mm deep; at most " +
                                            fixed(1000.0 * r.worst_beyond_skin, 3) + " mm beyond the skin (allowed " +
                                            allowed + ")");
    check(demo::SoakCheck::recovery,
          std::to_string(r.max_recovery_frames) + " frames at most, from up to " +
              fixed(1000.0 * r.worst_recovery_depth, 0) + " mm deep; at most " + std::to_string(r.max_recovery_excess) +
              " frames beyond the fastest at recovery_speed (bound: " + fixed(s.recovery_slack, 1) +
              " x that distance + " + std::to_string(s.recovery_extra_frames) + " frames)");
    check(demo::SoakCheck::terrain, fixed(1000.0 * r.worst_below_terrain, 3) + " mm below; at most " +
                                        fixed(1000.0 * r.worst_below_beyond_skin, 3) + " mm beyond the skin (allowed " +
                                        allowed + ")");
    check(demo::SoakCheck::move_time,
          s.max_move_ms > 0.f ? "max " + fixed(r.max_move_ms, 3) + " ms, p99.9 " + fixed(r.p999_move_ms, 3) +
                                    " ms, median " + fixed(r.median_move_us, 1) + " us; CPU max " +
                                    fixed(r.max_move_cpu_ms, 3) + " ms (limit " + fixed(s.max_move_ms, 1) + " ms, " +
                                    std::to_string(r.moves_preempted) + " over on the wall clock only: preempted)"
                              : "off; max " + fixed(r.max_move_ms, 3) + " ms, p99.9 " + fixed(r.p999_move_ms, 3) +
                                    " ms; CPU max " + fixed(r.max_move_cpu_ms, 3) + " ms");

    for (const demo::SoakViolation& v : r.reports) {
      out << "\n"
          << demo::soak_check_name(v.check) << ": episode " << v.episode << ", frame " << v.frame << ": " << v.what
          << "\n    " << v.state << "\n    replay: glide soak --seed " << s.seed << " --episode " << v.episode
          << " --episode-frames " << s.episode_frames << " --frames " << s.frames << "\n";
    }
    out << "\nsoak: " << (r.passed() ? "OK" : "VIOLATIONS") << "\n";
    return r.passed() ? 0 : 1;
  } catch (const Error& e) {
    err << "glide soak: " << e.what() << "\n";
    return 2;
  }
}

} // namespace

void add_soak_command(CLI::App& app, std::ostream& out, std::ostream& err, std::function<int()>& action) {
  auto args = std::make_shared<SoakArgs>();
  demo::SoakSettings& s = args->soak;
  CLI::App* cmd = app.add_subcommand(
      "soak", "Random episodes on the demo level, every frame checked: finite state, no crossing of geometry, "
              "penetration within the skin, recovery in time, feet above the terrain, move time");
  cmd->add_option("--level", args->level,
                  "Level description (JSON), or an OBJ/glTF file (.obj, .gltf, .glb) of pieces in place of the "
                  "shipped level's; default: the shipped demo/levels/demo.json");
  cmd->add_option("--frames", s.frames, "Frames in all")->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--seed", s.seed, "Of the random generator: the same run for the same value")->capture_default_str();
  cmd->add_option("--episode-frames", s.episode_frames, "Frames per episode")
      ->capture_default_str()
      ->check(CLI::Range(1, 10'000'000));
  cmd->add_option("--episode", s.only_episode, "Run only this episode of the run (to replay a violation)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--max-move-ms", s.max_move_ms, "Slowest move allowed (ms); 0 turns the timing check off")
      ->capture_default_str()
      ->check(CLI::Range(0.f, 1e6f));
  cmd->add_option("--reports", s.max_reports, "Violations printed in full")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000));
  cmd->callback(
      [args, &out, &err, &action] { action = [args, &out, &err] { return run_soak_command(*args, out, err); }; });
}

} // namespace glide::cli
