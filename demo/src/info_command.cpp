#include "commands.hpp"

#include <glide/version.hpp>

#include <CLI/CLI.hpp>

#include <ostream>

namespace glide::cli {

void add_info_command(CLI::App& app, std::ostream& out, std::function<int()>& action) {
  CLI::App* cmd = app.add_subcommand("info", "Print the glide version and how it was built");
  cmd->callback([&out, &action] {
    action = [&out] {
      out << "glide " << version_string << "\n"
          << "modules: gjk, terrain, controller\n"
#ifdef NDEBUG
          << "assertions: off\n";
#else
          << "assertions: on\n";
#endif
      return 0;
    };
  });
}

} // namespace glide::cli
