#pragma once

#include "case_model.hpp"
#include <glide/cases/json.hpp>

#include <glide/cases/cases.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace glide::cases {

Json json_value(const Value& value);
/// A position's coordinates: `local` relative to `origin` (m) as the shortest JSON numbers
/// that read back, less the origin, as the same floats (json_number when the origin is zero).
Json json_position(const glm::dvec3& origin, const glm::vec3& local);

/// Rewrites the failed expectations of `c` inside `case_json` (one element of "cases") to
/// the actual values, keeping each one's form ({"value", "tol"} or bare). Failed expectations
/// whose field has no actual value (a miss has no point) are removed.
void update_expectations(Json& case_json, const Case& c, const Actuals& actual,
                         const std::vector<CaseMismatch>& mismatches);

} // namespace glide::cases
