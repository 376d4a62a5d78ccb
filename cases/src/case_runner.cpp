#include <glide/cases/cases.hpp>

#include "case_checks.hpp"
#include "case_parser.hpp"
#include "case_queries.hpp"
#include "case_writer.hpp"

#include <glide/error.hpp>
#include <glide/limits.hpp>

#include <algorithm>

namespace glide {

std::string CaseMismatch::describe() const {
  return field + " expected " + expected + " got " + actual + " (tol " + tolerance + ")";
}

std::string CaseResult::line() const {
  if (passed()) return "PASS " + name;
  // A file that did not parse is named after the file, which its error already starts with.
  if (!error.empty() && error.starts_with(name + ": ")) return "FAIL " + error;
  std::string s = "FAIL " + name + ": ";
  if (!error.empty()) return s + error;
  for (std::size_t i = 0; i < mismatches.size(); ++i) s += (i ? "; " : "") + mismatches[i].describe();
  return s;
}

std::vector<CaseResult> run_case_file(const std::filesystem::path& file, const CaseRunOptions& options) {
  std::vector<CaseResult> results;
  cases::CaseFile parsed;
  try {
    const glm::dvec3& shift = options.shift;
    if (!limits::in_global_range(shift.x) || !limits::in_global_range(shift.y) || !limits::in_global_range(shift.z))
      throw Error(file.string() + ": shift " + limits::vec_text(shift) + " is not finite or beyond " +
                  limits::number_text(limits::k_max_global_coordinate) + " m");
    if (options.update && options.shift != glm::dvec3(0.0))
      throw Error(file.string() + ": --update with a shift would write the shifted values back");
    parsed = cases::parse_case_file(file, options.shift);
  } catch (const std::exception& e) { // glide::Error, or the file system failing
    CaseResult r;
    r.file = file.string();
    r.name = file.string();
    r.error = e.what();
    results.push_back(std::move(r));
    return results;
  }
  bool rewrite = false;
  for (const auto& c : parsed.cases) {
    if (!options.filter.empty() && c.name.find(options.filter) == std::string::npos) continue;
    CaseResult r;
    r.file = file.string();
    r.name = c.name;
    try {
      const cases::Actuals actual = cases::evaluate(c);
      for (const auto& a : actual) r.actual.emplace_back(a.field, cases::format_value(a.value));
      r.mismatches = cases::check_case(c, actual);
      if (options.update && !r.mismatches.empty()) {
        cases::update_expectations(parsed.document["cases"][c.index], c, actual, r.mismatches);
        r.updated = rewrite = true;
      }
    } catch (const std::exception& e) { // glide::Error from a level or terrain file, or out of memory
      r.error = e.what();
    }
    results.push_back(std::move(r));
  }
  if (rewrite) cases::write_text_file(file, cases::dump_readable(parsed.document));
  return results;
}

std::vector<std::filesystem::path> find_case_files(const std::vector<std::filesystem::path>& paths) {
  std::vector<std::filesystem::path> files;
  for (const auto& p : paths) {
    std::error_code ec;
    if (std::filesystem::is_directory(p, ec)) {
      std::vector<std::filesystem::path> found;
      try {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(p))
          if (entry.is_regular_file() && entry.path().extension() == ".json") found.push_back(entry.path());
      } catch (const std::filesystem::filesystem_error& e) {
        throw Error(p.string() + ": cannot list the folder: " + e.code().message());
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (std::filesystem::exists(p, ec)) {
      files.push_back(p);
    } else {
      throw Error(p.string() + ": no such file or folder");
    }
  }
  return files;
}

std::vector<CaseResult> run_cases(const std::vector<std::filesystem::path>& paths, const CaseRunOptions& options) {
  std::vector<CaseResult> results;
  for (const auto& file : find_case_files(paths)) {
    auto r = run_case_file(file, options);
    results.insert(results.end(), std::make_move_iterator(r.begin()), std::make_move_iterator(r.end()));
  }
  return results;
}

} // namespace glide
