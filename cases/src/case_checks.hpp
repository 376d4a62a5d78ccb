#pragma once

#include "case_model.hpp"

#include <glide/cases/cases.hpp>

#include <string>
#include <vector>

namespace glide::cases {

/// Shortest text that reads back to the same float ("0.1", "[1, 0, 0.5]", "true", "\"crate\"").
std::string format_value(const Value& value);
/// One coordinate of a position: `local` relative to `origin` (m), as the shortest decimal that
/// reads back, less the origin, as the same float.
std::string coordinate_text(double origin, float local);

/// Compares every expectation of `c` with the actual values (floats compared as floats, so a
/// value written by --update always passes again).
std::vector<CaseMismatch> check_case(const Case& c, const Actuals& actual);

/// The actual value an expectation's field names (a vector's component for "<field>_x"), or
/// none when the answer has no such value.
Value find_actual(const Actuals& actual, const std::string& field);

} // namespace glide::cases
