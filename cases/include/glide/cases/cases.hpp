#pragma once

// Case files: geometric behaviour pinned down as data ("this capsule, swept this way against
// this piece, stops here with this normal"). The format is described in docs/cases.md.
//
// In a game's doctest suite:
//
//   for (const auto& r : glide::run_cases({"tests/glide_cases"}))
//     CHECK_MESSAGE(r.passed(), r.line());

#include <glm/ext/vector_double3.hpp>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace glide {

/// One expectation that did not hold.
struct CaseMismatch {
  std::string field;     ///< the expectation as written, e.g. "fraction" or "fraction_at_least"
  std::string expected;  ///< formatted: "0.5", "[0, 1, 0]", ">= 0.25", "true", "\"crate\""
  std::string actual;    ///< formatted the same way; "none" when the query has no such value (a miss)
  std::string tolerance; ///< formatted

  /// "<field> expected <e> got <a> (tol <t>)"
  std::string describe() const;
};

struct CaseResult {
  std::string file;  ///< the case file
  std::string name;  ///< the case name; the file name when the file itself did not parse
  std::string error; ///< set when the file did not parse or the case could not run
  std::vector<CaseMismatch> mismatches;
  std::vector<std::pair<std::string, std::string>> actual; ///< every value the query produced, formatted
  bool updated = false;                                    ///< its expectations were rewritten (CaseRunOptions::update)

  bool passed() const { return error.empty() && mismatches.empty(); }
  /// "PASS name", "FAIL name: <mismatch>; <mismatch>..." or "FAIL name: <error>".
  std::string line() const;
};

struct CaseRunOptions {
  std::string filter;  ///< run only the cases whose name contains this (empty: all)
  bool update = false; ///< rewrite the expectations of failing cases to the actual values
  /// Moves every case's whole scene by this (m): its placements, start, sweep, ray and expected
  /// positions (docs/cases.md, "Large coordinates"). Not with `update`, which would write the
  /// shifted values back.
  glm::dvec3 shift{0.0};
};

/// Runs every case of one file. A file that cannot be read or parsed gives one failed result
/// named after the file whose error names the file, the case and the JSON path.
std::vector<CaseResult> run_case_file(const std::filesystem::path& file, const CaseRunOptions& options = {});

/// Files as given and folders searched recursively for *.json, each folder's files sorted.
/// Throws glide::Error for a path that does not exist.
std::vector<std::filesystem::path> find_case_files(const std::vector<std::filesystem::path>& paths);

/// run_case_file over find_case_files(paths).
std::vector<CaseResult> run_cases(const std::vector<std::filesystem::path>& paths, const CaseRunOptions& options = {});

} // namespace glide
