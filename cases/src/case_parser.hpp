#pragma once

#include "case_model.hpp"
#include <glide/cases/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace glide::cases {

struct CaseFile {
  std::filesystem::path path;
  Json document; ///< kept (in its key order) so --update can rewrite expectations in place
  std::vector<Case> cases;
};

/// Reads and validates a case file. Throws glide::Error naming the file, the case and the
/// JSON path of the first problem: parse errors, unknown fields, wrong types, missing fields.
/// `shift` moves every case's scene (CaseRunOptions::shift).
CaseFile parse_case_file(const std::filesystem::path& path, const glm::dvec3& shift = glm::dvec3(0.0));

/// The same from text; `label` names it in errors and relative shape files resolve
/// against `base_dir`.
CaseFile parse_case_text(const std::string& text, const std::string& label, const std::filesystem::path& base_dir,
                         const glm::dvec3& shift = glm::dvec3(0.0));

enum class ValueKind { boolean, number, vector, position, text };

/// The fields a query type reports, in the order results list them.
struct FieldSpec {
  const char* name;
  ValueKind kind;
  bool global = false; ///< a number that is a coordinate (a height): compared in double
};
const std::vector<FieldSpec>& fields_of(QueryType type);
/// "position_y" -> ("position", 1): an expectation may check one component of a vector field.
bool split_component(const std::string& field, std::string& base, int& axis);
const char* query_type_name(QueryType type);

} // namespace glide::cases
