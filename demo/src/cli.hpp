#pragma once

#include <iosfwd>

namespace glide::cli {

/// Runs the `glide` program on argv, writing to out/err instead of the process streams so
/// tests can drive it in-process. Returns the process exit code.
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

} // namespace glide::cli
