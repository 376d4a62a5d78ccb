// `glide cases` driven in-process: the lines a person or a CI log sees, the summary line,
// exit codes and the options.

#include "work_files.hpp"

#include <doctest/doctest.h>

#include "run_glide.hpp"

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

namespace {
using glide::test::contains;
using glide::test::k_tests_dir;
using glide::test::k_work_dir;
using glide::test::write_file;

using Run = glide::test::CliRun;

/// `glide cases <args...>`.
Run glide_cases(std::initializer_list<std::string> args) {
  std::vector<std::string> all{"cases"};
  all.insert(all.end(), args.begin(), args.end());
  return glide::test::run_glide(all);
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }
// Two cases: "apart" (distance 3, expected 2.5: fails) and "touching" (distance 0: passes).
const char* k_two_cases = R"({
  "cases": [
    {
      "name": "apart",
      "world": [
        {"name": "a", "shape": {"type": "sphere", "radius": 1}, "position": [5, 0, 0]},
        {"name": "b", "shape": {"type": "sphere", "radius": 1}}
      ],
      "query": {"type": "distance", "a": "a", "b": "b"},
      "expect": {"distance": 2.5}
    },
    {
      "name": "touching",
      "world": [
        {"name": "a", "shape": {"type": "sphere", "radius": 1}, "position": [2, 0, 0]},
        {"name": "b", "shape": {"type": "sphere", "radius": 1}}
      ],
      "query": {"type": "distance", "a": "a", "b": "b"},
      "expect": {"distance": 0}
    }
  ]
}
)";
} // namespace

TEST_CASE("--help lists cases") {
  std::ostringstream out, err;
  const char* argv[] = {"glide", "--help"};
  CHECK(glide::cli::run(2, argv, out, err) == 0);
  CHECK(contains(out.str(), "cases"));
}

TEST_CASE("the shipped cases all pass: one PASS line each, then the summary") {
  const Run r = glide_cases({(k_tests_dir / "cases").string()});
  CHECK(r.code == 0);
  REQUIRE(r.lines.size() >= 41);
  for (std::size_t i = 0; i + 1 < r.lines.size(); ++i) CHECK_MESSAGE(starts_with(r.lines[i], "PASS "), r.lines[i]);
  CHECK(r.lines.back() == std::to_string(r.lines.size() - 1) + " passed, 0 failed");
}

TEST_CASE("--shift runs every case with its scene moved far from the origin") {
  const Run r = glide_cases({(k_tests_dir / "cases").string(), "--shift", "100000,0,-100000"});
  CHECK(r.code == 0);
  CHECK(contains(r.out, " passed, 0 failed"));
  CHECK(glide_cases({(k_tests_dir / "cases").string(), "--shift", "1,2"}).code != 0);
  CHECK(glide_cases({(k_tests_dir / "cases").string(), "--shift", "1,0,0", "--update"}).code != 0);
}

TEST_CASE("a failing case prints FAIL with the diff and exits 1") {
  const auto file = write_file(k_work_dir, "two.json", k_two_cases);
  const Run r = glide_cases({file.string()});
  CHECK(r.code == 1);
  REQUIRE(r.lines.size() == 3);
  CHECK(r.lines[0] == "FAIL apart: distance expected 2.5 got 3 (tol 0.0001)");
  CHECK(r.lines[1] == "PASS touching");
  CHECK(r.lines[2] == "1 passed, 1 failed");
}

TEST_CASE("--filter runs only matching cases") {
  const auto file = write_file(k_work_dir, "two.json", k_two_cases);
  const Run r = glide_cases({file.string(), "--filter", "touch"});
  CHECK(r.code == 0);
  REQUIRE(r.lines.size() == 2);
  CHECK(r.lines[0] == "PASS touching");
  CHECK(r.lines[1] == "1 passed, 0 failed");
}

TEST_CASE("--verbose prints every actual value") {
  const auto file = write_file(k_work_dir, "two.json", k_two_cases);
  const Run r = glide_cases({file.string(), "--verbose", "--filter", "apart"});
  CHECK(contains(r.out, "  distance = 3\n"));
  CHECK(contains(r.out, "  point_a = [4, 0, 0]\n"));
  CHECK(contains(r.out, "  normal = [1, 0, 0]\n"));
  CHECK(r.lines.back() == "0 passed, 1 failed");
}

TEST_CASE("--update rewrites a failing case of a copy, which then passes") {
  const auto file = write_file(k_work_dir, "update.json", k_two_cases);
  const Run first = glide_cases({file.string(), "--update"});
  CHECK(first.code == 1); // this run still compared against the old expectations
  CHECK(contains(first.out, "updated: expectations rewritten in"));
  const Run second = glide_cases({file.string()});
  CHECK(second.code == 0);
  CHECK(second.lines.back() == "2 passed, 0 failed");
}

TEST_CASE("malformed files and missing paths count as failed with their error") {
  const Run r = glide_cases({(k_tests_dir / "cases_bad").string(), (k_work_dir / "no_such.json").string()});
  CHECK(r.code == 1);
  REQUIRE(r.lines.size() >= 3);
  for (std::size_t i = 0; i + 1 < r.lines.size(); ++i) CHECK_MESSAGE(starts_with(r.lines[i], "FAIL "), r.lines[i]);
  CHECK(
      contains(r.out, "FAIL " + (k_tests_dir / "cases_bad" / "wrong_type.json").string() +
                          ": case \"radius_is_text\": /cases/0/world/0/shape/radius: expected a number, got a string"));
  CHECK(contains(r.out, "no_such.json: no such file or folder"));
  CHECK(r.lines.back() == "0 passed, " + std::to_string(r.lines.size() - 1) + " failed");
}

TEST_CASE("a folder is searched recursively for *.json") {
  std::filesystem::create_directories(k_work_dir / "tree" / "deeper");
  write_file(k_work_dir, "tree/deeper/one.json", k_two_cases);
  write_file(k_work_dir, "tree/notes.txt", "not a case file");
  const Run r = glide_cases({(k_work_dir / "tree").string(), "--filter", "touching"});
  CHECK(r.code == 0);
  CHECK(r.lines.back() == "1 passed, 0 failed");
}

TEST_CASE("cases without a path is a usage error") {
  const Run r = glide_cases({});
  CHECK(r.code != 0);
}
