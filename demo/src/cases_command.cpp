#include "commands.hpp"

#include <glide/cases/cases.hpp>

#include <CLI/CLI.hpp>

#include <exception>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace glide::cli {
namespace {

struct CasesArgs {
  std::vector<std::string> paths;
  std::string filter;
  bool verbose = false;
  bool update = false;
  std::vector<double> shift; ///< x, y, z (m), or empty
};

int run_cases_command(const CasesArgs& args, std::ostream& out) {
  CaseRunOptions options{.filter = args.filter, .update = args.update};
  if (args.shift.size() == 3) options.shift = {args.shift[0], args.shift[1], args.shift[2]};
  int passed = 0, failed = 0;
  const auto report = [&](const CaseResult& r) {
    out << r.line() << "\n";
    if (args.verbose) {
      out << "  file: " << r.file << "\n";
      for (const auto& [field, value] : r.actual) out << "  " << field << " = " << value << "\n";
    }
    if (r.updated) out << "  updated: expectations rewritten in " << r.file << "\n";
    (r.passed() ? passed : failed) += 1;
  };
  for (const auto& path : args.paths) {
    std::vector<std::filesystem::path> files;
    try {
      files = find_case_files({path});
    } catch (const std::exception& e) { // a missing path, or the file system refusing a folder
      CaseResult missing;
      missing.file = missing.name = path;
      missing.error = e.what();
      report(missing);
      continue;
    }
    for (const auto& file : files)
      for (const auto& r : run_case_file(file, options)) report(r);
  }
  out << passed << " passed, " << failed << " failed\n";
  return failed == 0 ? 0 : 1;
}

} // namespace

void add_cases_command(CLI::App& app, std::ostream& out, std::function<int()>& action) {
  auto args = std::make_shared<CasesArgs>();
  CLI::App* cmd = app.add_subcommand("cases", "Run case files (docs/cases.md): one PASS/FAIL line per case");
  cmd->add_option("paths", args->paths, "Case files, or folders searched recursively for *.json")->required();
  cmd->add_option("--filter", args->filter, "Run only the cases whose name contains this");
  cmd->add_flag("--verbose", args->verbose, "Print every actual value of every case");
  CLI::Option* update = cmd->add_flag("--update", args->update,
                                      "Rewrite the expectations of failing cases to the actual values (golden files)");
  cmd->add_option("--shift", args->shift,
                  "Move every case's whole scene by X,Y,Z metres (e.g. 100000,0,100000): the answers must stay "
                  "the same far from the origin")
      ->delimiter(',')
      ->expected(3)
      ->check(CLI::Range(-1e8, 1e8))
      ->excludes(update);
  cmd->callback([args, &out, &action] { action = [args, &out] { return run_cases_command(*args, out); }; });
}

} // namespace glide::cli
