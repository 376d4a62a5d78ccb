#pragma once

// The soak of the controller (`glide soak`): random episodes on a loaded level, every frame
// checked against what the controller promises. It prints nothing: the command prints the
// table, a test reads the report.

#include "demo_level.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace glide::demo {

/// What one soak run does and how strictly it checks.
struct SoakSettings {
  std::uint64_t seed = 1;              ///< of the random generator; the same run for the same seed (count)
  long long frames = 1'000'000;        ///< total frames over all episodes (count, > 0)
  int episode_frames = 2000;           ///< frames per episode, the last one shorter (count, > 0)
  long long only_episode = -1;         ///< run only this episode (as numbered in a full run), -1 = all (count)
  float max_move_ms = 2.f;             ///< slowest move allowed (ms); 0 turns the timing check off
  float penetration_tolerance = 1e-4f; ///< allowed beyond the skin: the sweeps' time-of-impact tolerance (m)
  float crossing_margin = 1e-3f;       ///< the crossing sweep's capsule is this much thinner than radius - skin (m)
  float recovery_slack = 1.5f;         ///< recovery bound: this many times the push distance at recovery_speed (ratio)
  int recovery_extra_frames = 2;       ///< ... plus this many frames (count)
  int max_reports = 5;                 ///< violations printed in full (count)
};

/// The checks, each counted separately.
enum class SoakCheck : int {
  finite,      ///< every value the controller exposes is finite
  error,       ///< a call with valid input threw glide::Error, or a state restored just after its save differed
  crossing,    ///< the frame's motion passed through a piece or the terrain
  penetration, ///< deeper than skin + tolerance, not recovering from a teleport or a crush
  recovery,    ///< a recovery from a teleport into geometry or a crush took longer than its bound
  terrain,     ///< feet below the terrain under them by more than skin + tolerance
  move_time,   ///< one move took longer than max_move_ms, on the wall clock and in CPU time
};
inline constexpr int k_soak_checks = 7;
const char* soak_check_name(SoakCheck check);

/// One violation, with what reproduces it.
struct SoakViolation {
  SoakCheck check = SoakCheck::finite;
  long long episode = 0;
  long long frame = 0; ///< within the episode
  std::string what;    ///< the measured value against its limit
  std::string state;   ///< the exact state and inputs of the frame (floats in hex)
};

/// The figures of a soak run.
struct SoakReport {
  long long frames = 0;
  long long episodes = 0;
  std::array<long long, k_soak_checks> violations{};
  std::vector<SoakViolation> reports;   ///< the first max_reports violations
  float worst_penetration = 0.f;        ///< deepest overlap outside recoveries (m)
  float worst_beyond_skin = -1.f;       ///< most of worst_penetration's kind beyond the character's skin (m)
  float worst_below_terrain = 0.f;      ///< feet below the terrain under them, outside recoveries (m, >= 0)
  float worst_below_beyond_skin = -1.f; ///< most of worst_below_terrain's kind beyond the character's skin (m)
  long long teleports = 0;
  long long teleports_into_geometry = 0; ///< ... that started a recovery
  long long crushes = 0; ///< a moving piece pressed the character against static geometry, overlapping it
  long long recoveries_finished = 0;
  int max_recovery_frames = 0;
  int max_recovery_excess = 0;      ///< most frames a recovery took beyond the fastest recovery_speed allows (count)
  float worst_recovery_depth = 0.f; ///< deepest overlap a recovery started from (m)
  long long resizes = 0;
  long long resizes_refused = 0;
  long long jumps = 0;
  long long restores = 0;            ///< states saved and restored at once
  long long listener_episodes = 0;   ///< episodes whose ContactListener changed velocities after contacts
  long long crossing_chord_hits = 0; ///< chords that hit, cleared by the path the move took
  double max_move_ms = 0.0;          ///< slowest move on the wall clock (ms)
  double max_move_cpu_ms = 0.0;      ///< most thread CPU time of one move (ms)
  long long moves_preempted = 0;     ///< moves over max_move_ms on the wall clock only, not in CPU time
  double p999_move_ms = 0.0;
  double median_move_us = 0.0;
  double wall_seconds = 0.0;
  bool passed() const;
};

/// Runs the soak on `level` (its moving pieces are placed, held or moved per episode).
/// Throws glide::Error for invalid settings (frames, episode frames, an episode beyond the run).
SoakReport run_soak(DemoLevel& level, const SoakSettings& settings);

} // namespace glide::demo
