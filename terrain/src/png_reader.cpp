// PNG reader through stb_image (Debian libstb-dev). The header is checked here first so that
// unsupported color types and bit depths are reported precisely rather than converted.
#include "heightmap_readers.hpp"

// The one stb_image implementation of the library, private (static) so it never clashes
// with a game's own copy, and limited to PNG decoded from memory.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
#include <stb_image.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

namespace glide::terrain_detail {

namespace {

std::uint32_t big_endian_u32(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | std::uint32_t{p[3]};
}

const char* color_type_name(int type) {
  switch (type) {
  case 0:
    return "grayscale";
  case 2:
    return "RGB";
  case 3:
    return "palette";
  case 4:
    return "grayscale + alpha";
  case 6:
    return "RGBA";
  default:
    return "invalid";
  }
}

struct StbFree {
  void operator()(void* p) const { stbi_image_free(p); }
};

// The file without its empty IDAT chunks: they add no data, and stb_image copies the first
// one into a buffer it has not allocated yet (memcpy from a null pointer). A chunk longer than
// the rest of the file is refused here: stb_image would first allocate its claimed length.
std::vector<unsigned char> without_empty_idat(const std::vector<unsigned char>& bytes, const std::string& file) {
  std::vector<unsigned char> out(bytes.begin(), bytes.begin() + 8);
  std::size_t at = 8;
  while (at + 12 <= bytes.size()) {
    const std::size_t length = big_endian_u32(bytes.data() + at);
    if (length > bytes.size() - at - 12)
      fail(file, "truncated data: PNG chunk of " + std::to_string(length) + " bytes at byte " + std::to_string(at) +
                     " runs past the end of the file");
    if (length != 0 || std::memcmp(bytes.data() + at + 4, "IDAT", 4) != 0)
      out.insert(out.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at),
                 bytes.begin() + static_cast<std::ptrdiff_t>(at + 12 + length));
    at += 12 + length;
  }
  // A chunk cut short (no room for its length, type and CRC) is truncated data, not a chunk
  // to hand on: an empty IDAT without its CRC would reach stb_image's null-pointer copy.
  if (at != bytes.size())
    fail(file, "truncated data: PNG chunk at byte " + std::to_string(at) + " has " + std::to_string(bytes.size() - at) +
                   " bytes, fewer than a chunk's 12");
  return out;
}

} // namespace

HeightmapData read_png(const std::vector<unsigned char>& bytes, const std::string& file) {
  // Signature (8), IHDR length (4) and type (4), width (4), height (4), bit depth, color type.
  if (bytes.size() < 26) fail(file, "truncated data: PNG header incomplete");
  if (std::memcmp(bytes.data() + 12, "IHDR", 4) != 0) fail(file, "malformed PNG: first chunk is not IHDR");
  const std::uint32_t columns = big_endian_u32(bytes.data() + 16);
  const std::uint32_t rows = big_endian_u32(bytes.data() + 20);
  const int bit_depth = bytes[24], color_type = bytes[25];
  if (color_type != 0)
    fail(file, std::string("unsupported format: PNG color type ") + std::to_string(color_type) + " (" +
                   color_type_name(color_type) + "), need grayscale");
  if (bit_depth != 8 && bit_depth != 16)
    fail(file, "unsupported bit depth: grayscale PNG with " + std::to_string(bit_depth) + " bits, need 8 or 16");
  check_dimensions(file, rows, columns);
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) fail(file, "unsupported format: PNG larger than 2 GiB");

  int width = 0, height = 0, channels = 0;
  const std::vector<unsigned char> png = without_empty_idat(bytes, file);
  const int length = static_cast<int>(png.size());
  std::unique_ptr<void, StbFree> pixels(
      bit_depth == 16 ? static_cast<void*>(stbi_load_16_from_memory(png.data(), length, &width, &height, &channels, 1))
                      : static_cast<void*>(stbi_load_from_memory(png.data(), length, &width, &height, &channels, 1)));
  if (!pixels) fail(file, std::string("truncated data or corrupt PNG (stb_image: ") + stbi_failure_reason() + ")");
  if (static_cast<std::uint32_t>(width) != columns || static_cast<std::uint32_t>(height) != rows)
    fail(file, "malformed PNG: decoded size differs from the header");

  HeightmapData data{static_cast<int>(rows), static_cast<int>(columns), {}};
  const std::size_t count = static_cast<std::size_t>(rows) * columns;
  data.values.resize(count);
  if (bit_depth == 16) {
    const auto* p = static_cast<const std::uint16_t*>(pixels.get());
    for (std::size_t i = 0; i < count; ++i) data.values[i] = static_cast<float>(p[i]) / 65535.f;
  } else {
    const auto* p = static_cast<const unsigned char*>(pixels.get());
    for (std::size_t i = 0; i < count; ++i) data.values[i] = static_cast<float>(p[i]) / 255.f;
  }
  return data;
}

} // namespace glide::terrain_detail
