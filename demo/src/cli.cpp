#include "cli.hpp"
#include "commands.hpp"

#include <glide/version.hpp>

#include <CLI/CLI.hpp>

#include <ostream>

namespace glide::cli {

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"glide: capsule character-controller middleware", "glide"};
  app.set_version_flag("--version", std::string("glide ") + version_string);
  app.require_subcommand(0, 1);

  std::function<int()> action;
  add_info_command(app, out, action);
  add_cases_command(app, out, action);
  add_demo_command(app, out, err, action);
  add_soak_command(app, out, err, action);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e, out, err);
  }
  if (!action) {
    out << app.help();
    return 0;
  }
  const int code = action();
  // A full disk or a closed pipe: say so rather than exit 0 with the report lost.
  if (!out.flush()) {
    err << "glide: cannot write to standard output\n";
    return code == 0 ? 2 : code;
  }
  return code;
}

} // namespace glide::cli
