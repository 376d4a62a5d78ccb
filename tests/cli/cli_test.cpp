#include <doctest/doctest.h>

#include "cli.hpp"

#include <glide/version.hpp>

#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

namespace {
struct Run {
  int code = 0;
  std::string out, err;
};

Run run_glide(std::initializer_list<const char*> args) {
  std::vector<const char*> argv{"glide"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::ostringstream out, err;
  Run r;
  r.code = glide::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}
} // namespace

TEST_CASE("--version prints the project version") {
  const Run r = run_glide({"--version"});
  CHECK(r.code == 0);
  CHECK(r.out.find(std::string("glide ") + glide::version_string) != std::string::npos);
}

TEST_CASE("--help lists the subcommands") {
  const Run r = run_glide({"--help"});
  CHECK(r.code == 0);
  CHECK(r.out.find("info") != std::string::npos);
}

TEST_CASE("info reports the version") {
  const Run r = run_glide({"info"});
  CHECK(r.code == 0);
  CHECK(r.out.find(glide::version_string) != std::string::npos);
}

TEST_CASE("an unknown subcommand fails with a message") {
  const Run r = run_glide({"no-such-command"});
  CHECK(r.code != 0);
  CHECK(r.err.find("no-such-command") != std::string::npos);
}
