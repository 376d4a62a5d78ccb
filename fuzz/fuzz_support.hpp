#pragma once

// What the fuzz targets share: the loaders read files, so each input goes to a file of the
// process's own first; the targets driving the controller read the input as numbers.

#include <glm/vec3.hpp>

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

/// Reads the input as numbers in given ranges; zeros once it runs out.
class Reader {
public:
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  float unit() { // [0, 1]
    std::uint16_t v = byte();
    v = static_cast<std::uint16_t>(v << 8 | byte());
    return static_cast<float>(v) / 65535.f;
  }
  float range(float lo, float hi) { return lo + (hi - lo) * unit(); }
  glm::vec3 vec(float lo, float hi) { return {range(lo, hi), range(lo, hi), range(lo, hi)}; }
  bool done() const { return at_ >= size_; }

private:
  const std::uint8_t* data_;
  std::size_t size_, at_ = 0;
};

} // namespace glide::fuzz
