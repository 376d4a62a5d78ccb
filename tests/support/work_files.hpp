#pragma once
// Files a suite reads from the source tree (GLIDE_TESTS_DIR) and writes for its tests under its
// work folder in the build tree (GLIDE_TEST_WORK_DIR): both defined by the suite's CMakeLists.

#include <filesystem>
#include <fstream>
#include <string>

namespace glide::test {

inline const std::filesystem::path k_tests_dir = GLIDE_TESTS_DIR;
inline const std::filesystem::path k_work_dir = GLIDE_TEST_WORK_DIR;

/// Whether `text` holds `part`.
inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// The folder `name` in the suite's work folder, created.
inline std::filesystem::path work_dir(const std::string& name) {
  const std::filesystem::path dir = k_work_dir / name;
  std::filesystem::create_directories(dir);
  return dir;
}

/// Writes `text` whole as `dir`/`name` (`dir` created) and returns the file's path.
inline std::filesystem::path write_file(const std::filesystem::path& dir, const std::string& name,
                                        const std::string& text) {
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = dir / name;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  return path;
}

} // namespace glide::test
