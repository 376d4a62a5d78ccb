#pragma once

#include "case_model.hpp"
#include "json_reader.hpp"

#include <glide/cases/cases.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace glide::cases {

/// JSON text with a 2-space indent where arrays of plain values stay on one line
/// ("[0, 1, 0]"), so vectors and hull points read as they would be typed.
std::string dump_readable(const Json& value);

/// A float as the JSON number with the shortest decimal text that reads back to it.
Json json_number(float value);
Json json_value(const Value& value);

/// Writes `text` to `path` through a temporary file so a failed write never leaves half a file.
void write_text_file(const std::filesystem::path& path, const std::string& text);

/// Rewrites the failed expectations of `c` inside `case_json` (one element of "cases") to
/// the actual values, keeping each one's form ({"value", "tol"} or bare). Failed expectations
/// whose field has no actual value (a miss has no point) are removed.
void update_expectations(Json& case_json, const Case& c, const Actuals& actual,
                         const std::vector<CaseMismatch>& mismatches);

} // namespace glide::cases
