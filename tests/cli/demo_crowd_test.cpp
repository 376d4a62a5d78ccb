// `glide demo --crowd`: a scripted crowd on the demo level whose state hash is fixed here, on
// one thread and on eight; and the guarantees it reports.
#include <doctest/doctest.h>

#include "run_glide.hpp"

#include <filesystem>
#include <string>

namespace {

// The state hash of 100 characters walking 1,000 frames on the demo level (seed 1, 60 Hz).
// A change here means the controller's results changed: say why in the commit.
constexpr const char* k_golden_hash = "2ce29797e2371bc4";

std::string crowd_png() {
  const std::filesystem::path dir = std::filesystem::path(GLIDE_TEST_WORK_DIR) / "demo_crowd";
  std::filesystem::create_directories(dir);
  return (dir / "crowd.png").string();
}

std::string figure(const glide::test::CliRun& run, const std::string& label) {
  for (const std::string& line : run.lines)
    if (line.find(label) != std::string::npos) return line;
  return "";
}

} // namespace

TEST_CASE("the demo level's crowd gives the golden state hash on 1 and 8 threads, and no overlap") {
  for (const char* threads : {"1", "8"}) {
    CAPTURE(threads);
    const glide::test::CliRun run = glide::test::run_glide(
        {"demo", "--crowd", "100", "--crowd-frames", "1000", "--threads", threads, "--check", "-o", crowd_png()});
    INFO(run.out, run.err);
    REQUIRE(run.code == 0);
    CHECK(figure(run, "state hash").find(k_golden_hash) != std::string::npos);
    CHECK(figure(run, "pair overlaps beyond skin").find(" 0 ") != std::string::npos);
    CHECK(std::filesystem::file_size(crowd_png()) > 1000);
  }
}

TEST_CASE("glide demo --crowd refuses a crowd it cannot place") {
  const glide::test::CliRun run =
      glide::test::run_glide({"demo", "--crowd", "100000", "--crowd-frames", "1", "-o", crowd_png()});
  CHECK(run.code == 2);
  CHECK(run.err.find("found room for only") != std::string::npos);
}
