#pragma once

// What the fuzz targets share: the loaders read files, so each input goes to a file of the
// process's own first.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace glide::fuzz {

/// Writes `size` bytes to <tmp>/glide_fuzz_<pid>/<name> and returns the path.
inline std::filesystem::path write_input(const std::string& name, const std::uint8_t* data, std::size_t size) {
  const auto dir = std::filesystem::temp_directory_path() / ("glide_fuzz_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

} // namespace glide::fuzz
