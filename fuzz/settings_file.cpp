// Controller settings files: valid settings or a glide::Error.
#include "fuzz_support.hpp"

#include <glide/cases/settings_json.hpp>
#include <glide/error.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = glide::fuzz::write_input("settings.json", data, size);
  try {
    glide::validate(glide::cases::load_controller_settings(path));
  } catch (const glide::Error&) {
  }
  return 0;
}
