#include <doctest/doctest.h>

#include "demo_level.hpp"
#include "run_glide.hpp"
#include "soak.hpp"
#include "work_files.hpp"

#include <string>

namespace {

using glide::demo::SoakCheck;
using glide::demo::SoakReport;
using glide::demo::SoakSettings;
using glide::test::contains;
using glide::test::run_glide;

long long violations(const SoakReport& r, SoakCheck c) { return r.violations[static_cast<std::size_t>(c)]; }

SoakReport soak(const SoakSettings& s) {
  glide::demo::DemoLevel level = glide::demo::load_demo_level(glide::demo::default_level_file());
  return glide::demo::run_soak(level, s);
}

} // namespace

TEST_CASE("soak: a short run on the demo level holds every check and does what it says") {
  SoakSettings s;
  s.frames = 6000;
  s.episode_frames = 2000;
  s.max_move_ms = 0.f; // timing belongs to the optimised run of ctest's soak test
  const SoakReport r = soak(s);
  CHECK(r.passed());
  CHECK(r.frames == 6000);
  CHECK(r.episodes == 3);
  CHECK(r.teleports >= 3); // one at each start
  CHECK(r.resizes > 0);
  CHECK(r.jumps > 0);
  CHECK(r.worst_beyond_skin <= s.penetration_tolerance);
  CHECK(r.max_move_ms > 0.0);
}

TEST_CASE("soak: runs repeat for the same seed, and an episode replays alone") {
  SoakSettings s;
  s.frames = 4000;
  s.episode_frames = 2000;
  s.max_move_ms = 0.f;
  const SoakReport a = soak(s), b = soak(s);
  CHECK(a.teleports == b.teleports);
  CHECK(a.resizes_refused == b.resizes_refused);
  CHECK(a.jumps == b.jumps);
  CHECK(a.worst_penetration == b.worst_penetration);
  CHECK(a.crossing_chord_hits == b.crossing_chord_hits);

  s.only_episode = 0;
  const SoakReport first = soak(s);
  s.only_episode = 1;
  const SoakReport second = soak(s);
  CHECK(first.episodes == 1);
  CHECK(first.frames == 2000);
  CHECK(first.teleports + second.teleports == a.teleports);
  CHECK(first.jumps + second.jumps == a.jumps);
  CHECK(std::max(first.worst_penetration, second.worst_penetration) == a.worst_penetration);

  s.only_episode = -1;
  s.seed = 2;
  const SoakReport other = soak(s);
  CHECK((other.teleports != a.teleports || other.jumps != a.jumps || other.resizes != a.resizes));
}

TEST_CASE("soak: a violated check is counted, reported with its replay, and fails the command") {
  // A limit no move meets: every move violates the timing check.
  SoakSettings s;
  s.frames = 500;
  s.max_move_ms = 1e-7f;
  s.max_reports = 2;
  const SoakReport r = soak(s);
  CHECK_FALSE(r.passed());
  CHECK(violations(r, SoakCheck::move_time) > 0);
  CHECK(violations(r, SoakCheck::penetration) == 0);
  REQUIRE(r.reports.size() == 2);
  CHECK(r.reports[0].episode == 0);
  CHECK(contains(r.reports[0].state, "position before"));

  const auto run = run_glide({"soak", "--frames", "300", "--max-move-ms", "0.0000001", "--reports", "1"});
  CHECK(run.code == 1);
  CHECK(contains(run.out, "move time: episode 0, frame "));
  CHECK(contains(run.out, "replay: glide soak --seed 1 --episode 0"));
  CHECK(contains(run.out, "soak: VIOLATIONS"));
}

TEST_CASE("soak: the command prints its table and exits 0 when every check holds") {
  const auto run = run_glide({"soak", "--frames", "1000", "--max-move-ms", "0", "--seed", "7"});
  CHECK(run.code == 0);
  CHECK(contains(run.out, "--seed 7"));
  for (const char* row : {"finite state", "no crossing", "penetration <= skin", "recovery within its bound",
                          "feet above terrain", "move time", "soak: OK"})
    CHECK(contains(run.out, row));
}

TEST_CASE("soak: bad options are refused with a message") {
  CHECK(run_glide({"soak", "--frames", "0"}).code != 0);
  CHECK(run_glide({"soak", "--max-move-ms", "-1"}).code != 0);
  const auto missing = run_glide({"soak", "--level", "/nonexistent/level.json", "--frames", "10"});
  CHECK(missing.code == 2);
  CHECK(contains(missing.err, "/nonexistent/level.json"));
  const auto beyond = run_glide({"soak", "--frames", "4000", "--episode", "2"});
  CHECK(beyond.code == 2);
  CHECK(contains(beyond.err, "episode 2 is beyond the run's 2 episodes"));
}
