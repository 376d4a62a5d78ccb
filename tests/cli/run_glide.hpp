#pragma once

// Runs the `glide` program in-process (glide::cli::run) and keeps what it printed.

#include "cli.hpp"

#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

namespace glide::test {

struct CliRun {
  int code = 0;
  std::string out, err;
  std::vector<std::string> lines; ///< `out` split at newlines
};

/// `glide <args...>`.
inline CliRun run_glide(const std::vector<std::string>& args) {
  std::vector<std::string> owned{"glide"};
  owned.insert(owned.end(), args.begin(), args.end());
  std::vector<const char*> argv;
  for (const auto& a : owned) argv.push_back(a.c_str());
  std::ostringstream out, err;
  CliRun r;
  r.code = glide::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
  r.out = out.str();
  r.err = err.str();
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) r.lines.push_back(line);
  return r;
}

inline CliRun run_glide(std::initializer_list<std::string> args) { return run_glide(std::vector<std::string>(args)); }

} // namespace glide::test
