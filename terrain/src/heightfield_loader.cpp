// load_heightfield(): format detection, raw float32 files, and the shared error helpers.
#include "heightmap_readers.hpp"

#include <glide/error.hpp>
#include <glide/terrain/heightfield_loader.hpp>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <system_error>

namespace glide {

namespace terrain_detail {

void fail(const std::string& file, const std::string& problem) {
  throw Error("load_heightfield: '" + file + "': " + problem);
}

void check_dimensions(const std::string& file, long long rows, long long columns) {
  if (rows < 2 || columns < 2 || rows > Heightfield::k_max_dimension || columns > Heightfield::k_max_dimension)
    fail(file, "dimensions " + std::to_string(rows) + " x " + std::to_string(columns) + " (rows x columns) " +
                   (rows == 0 || columns == 0 ? "are zero" : "out of range") + ", need 2 to " +
                   std::to_string(Heightfield::k_max_dimension) + " samples per side");
}

} // namespace terrain_detail

namespace {

using terrain_detail::fail;
using terrain_detail::HeightmapData;

std::string lower_extension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

std::uintmax_t file_size_or_fail(const std::filesystem::path& path, const std::string& file) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) fail(file, "cannot open: file not found");
  if (!std::filesystem::is_regular_file(status)) fail(file, "cannot open: not a regular file");
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) fail(file, "cannot open: " + error.message());
  return size;
}

std::vector<unsigned char> read_bytes(const std::filesystem::path& path, const std::string& file, std::size_t size) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(file, "cannot open: " + std::generic_category().message(errno));
  std::vector<unsigned char> bytes(size);
  if (size > 0) in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size));
  if (static_cast<std::size_t>(in.gcount()) != size) fail(file, "cannot read the whole file");
  return bytes;
}

HeightmapData read_raw(const std::filesystem::path& path, const std::string& file, std::uintmax_t size,
                       const HeightfieldLoadSettings& settings) {
  terrain_detail::check_dimensions(file, settings.raw_rows, settings.raw_columns);
  HeightmapData data{settings.raw_rows, settings.raw_columns, {}};
  const std::uintmax_t count = static_cast<std::uintmax_t>(data.rows) * static_cast<std::uintmax_t>(data.columns);
  const std::uintmax_t expected = count * sizeof(float);
  const std::string dims = std::to_string(data.rows) + " x " + std::to_string(data.columns) + " float32";
  if (size < expected)
    fail(file,
         "truncated data: " + std::to_string(size) + " bytes, expected " + std::to_string(expected) + " for " + dims);
  if (size > expected)
    fail(file,
         "size mismatch: " + std::to_string(size) + " bytes, expected " + std::to_string(expected) + " for " + dims);
  data.values.resize(static_cast<std::size_t>(count));
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(file, "cannot open: " + std::generic_category().message(errno));
  in.read(reinterpret_cast<char*>(data.values.data()), static_cast<std::streamsize>(expected));
  if (static_cast<std::uintmax_t>(in.gcount()) != expected) fail(file, "truncated data: read failed");
  if constexpr (std::endian::native == std::endian::big) {
    for (float& v : data.values) {
      const std::uint32_t b = std::bit_cast<std::uint32_t>(v);
      v = std::bit_cast<float>((b >> 24) | ((b >> 8) & 0xff00u) | ((b << 8) & 0xff0000u) | (b << 24));
    }
  }
  return data;
}

} // namespace

bool is_raw_heightmap(const std::filesystem::path& path) {
  const std::string ext = lower_extension(path);
  return ext == ".raw" || ext == ".r32" || ext == ".f32";
}

Heightfield load_heightfield(const std::filesystem::path& path, const HeightfieldLoadSettings& settings) {
  const std::string file = path.string();
  const std::uintmax_t size = file_size_or_fail(path, file);
  HeightmapData data;
  if (is_raw_heightmap(path)) {
    data = read_raw(path, file, size, settings);
  } else {
    if (size > (std::uintmax_t{1} << 32)) fail(file, "unsupported format: image file larger than 4 GiB");
    const std::vector<unsigned char> bytes = read_bytes(path, file, static_cast<std::size_t>(size));
    static constexpr unsigned char png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (bytes.size() >= 8 && std::memcmp(bytes.data(), png_signature, 8) == 0)
      data = terrain_detail::read_png(bytes, file);
    else if (bytes.size() >= 2 && bytes[0] == 'P' && std::isdigit(bytes[1]))
      data = terrain_detail::read_pgm(bytes, file);
    else
      fail(file, "unsupported format: not PNG or PGM (P2/P5), and not a .raw/.r32/.f32 float32 file");
  }
  for (std::size_t i = 0; i < data.values.size(); ++i)
    if (!std::isfinite(data.values[i]))
      fail(file, "non-finite height " + std::to_string(data.values[i]) + " at row " +
                     std::to_string(i / static_cast<std::size_t>(data.columns)) + ", column " +
                     std::to_string(i % static_cast<std::size_t>(data.columns)));
  try {
    return Heightfield({.rows = data.rows,
                        .columns = data.columns,
                        .heights = std::move(data.values),
                        .cell_size = settings.cell_size,
                        .origin = settings.origin,
                        .height_scale = settings.height_scale,
                        .height_offset = settings.height_offset});
  } catch (const Error& e) {
    fail(file, e.what());
  }
}

} // namespace glide
