#include <glide/cases/settings_json.hpp>

namespace glide::cases {

ControllerSettings load_controller_settings(const std::filesystem::path& file, const ControllerSettings& base) {
  const Json doc = read_json_file(file, "settings file");
  const Where where{file.string(), ""};
  ControllerSettings s = base;
  read_settings(Node(doc, "", where), controller_settings_table(), s);
  return s;
}

void save_controller_settings(const std::filesystem::path& file, const ControllerSettings& settings) {
  write_text_file(file, dump_readable(settings_json(controller_settings_table(), settings)));
}

} // namespace glide::cases
