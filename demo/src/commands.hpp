#pragma once

#include <functional>
#include <iosfwd>

namespace CLI {
class App;
}

namespace glide::cli {

// Each subcommand registers itself on the app and, when chosen, stores what to run in
// `action` (called after parsing; its return value is the exit code).
void add_info_command(CLI::App& app, std::ostream& out, std::function<int()>& action);
/// `glide cases PATH...`: runs case files (docs/cases.md), one PASS/FAIL line per case.
void add_cases_command(CLI::App& app, std::ostream& out, std::function<int()>& action);
/// `glide demo`: the scripted tour of the demo level, a table of figures and a PNG map.
void add_demo_command(CLI::App& app, std::ostream& out, std::ostream& err, std::function<int()>& action);
/// `glide soak`: random episodes on the demo level, every frame checked; a table of the checks.
void add_soak_command(CLI::App& app, std::ostream& out, std::ostream& err, std::function<int()>& action);

} // namespace glide::cli
