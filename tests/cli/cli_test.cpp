#include <doctest/doctest.h>

#include "run_glide.hpp"

#include <glide/version.hpp>

#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

using glide::test::run_glide;

TEST_CASE("--version prints the project version") {
  const glide::test::CliRun r = run_glide({"--version"});
  CHECK(r.code == 0);
  CHECK(r.out.find(std::string("glide ") + glide::version_string) != std::string::npos);
}

TEST_CASE("--help lists the subcommands") {
  const glide::test::CliRun r = run_glide({"--help"});
  CHECK(r.code == 0);
  CHECK(r.out.find("info") != std::string::npos);
}

TEST_CASE("info reports the version") {
  const glide::test::CliRun r = run_glide({"info"});
  CHECK(r.code == 0);
  CHECK(r.out.find(glide::version_string) != std::string::npos);
}

TEST_CASE("an unknown subcommand fails with a message") {
  const glide::test::CliRun r = run_glide({"no-such-command"});
  CHECK(r.code != 0);
  CHECK(r.err.find("no-such-command") != std::string::npos);
}
