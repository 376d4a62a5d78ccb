#pragma once

#include <stdexcept>
#include <string>

namespace glide {

/// The one error type of the whole library. Thrown for bad input (non-finite coordinates,
/// malformed files, out-of-range settings); the message names the file, field or value.
/// Queries on valid shapes never throw: they report degenerate situations in a status.
class Error : public std::runtime_error {
public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

} // namespace glide
