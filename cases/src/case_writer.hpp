#pragma once

#include "case_model.hpp"
#include <glide/cases/json.hpp>

#include <glide/cases/cases.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace glide::cases {

Json json_value(const Value& value);

/// Rewrites the failed expectations of `c` inside `case_json` (one element of "cases") to
/// the actual values, keeping each one's form ({"value", "tol"} or bare). Failed expectations
/// whose field has no actual value (a miss has no point) are removed.
void update_expectations(Json& case_json, const Case& c, const Actuals& actual,
                         const std::vector<CaseMismatch>& mismatches);

} // namespace glide::cases
