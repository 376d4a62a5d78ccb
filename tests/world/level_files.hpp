#pragma once

// Level files for the loader tests: the checked-in ones, and ones a test writes.

#include <filesystem>
#include <fstream>
#include <string>

namespace glide::test {

/// A checked-in level under tests/levels.
inline std::string level(const char* name) { return std::string(GLIDE_LEVELS_DIR) + "/" + name; }

/// Writes `bytes` to `name` in the test's own folder `folder` under the temporary directory.
inline std::filesystem::path write_level_file(const std::string& folder, const std::string& name,
                                              const std::string& bytes) {
  const auto dir = std::filesystem::temp_directory_path() / folder;
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  return path;
}

} // namespace glide::test
