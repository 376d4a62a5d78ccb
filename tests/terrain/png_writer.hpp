#pragma once
// Minimal PNG writer for tests: grayscale, any bit depth, zlib "stored" (uncompressed)
// blocks. stb_image_write only writes 8-bit PNGs; this one writes the 16-bit (and odd bit
// depth) files the loader tests need.

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace glide::test {

inline std::uint32_t crc32(const unsigned char* p, std::size_t n, std::uint32_t crc = 0xffffffffu) {
  for (std::size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return crc;
}

inline void put_u32(std::vector<unsigned char>& out, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<unsigned char>(v >> s));
}

inline void put_chunk(std::vector<unsigned char>& out, const char* type, const std::vector<unsigned char>& data) {
  put_u32(out, static_cast<std::uint32_t>(data.size()));
  std::vector<unsigned char> body(type, type + 4);
  body.insert(body.end(), data.begin(), data.end());
  out.insert(out.end(), body.begin(), body.end());
  put_u32(out, crc32(body.data(), body.size()) ^ 0xffffffffu);
}

/// PNG bytes for `rows` scanlines of `row_bytes` raw bytes each (filter 0 prepended here).
inline std::vector<unsigned char> png_bytes(int columns, int rows, int bit_depth, int color_type,
                                            const std::vector<unsigned char>& raster, std::size_t row_bytes) {
  std::vector<unsigned char> out{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::vector<unsigned char> ihdr;
  put_u32(ihdr, static_cast<std::uint32_t>(columns));
  put_u32(ihdr, static_cast<std::uint32_t>(rows));
  ihdr.insert(ihdr.end(), {static_cast<unsigned char>(bit_depth), static_cast<unsigned char>(color_type), 0, 0, 0});
  put_chunk(out, "IHDR", ihdr);
  // Each scanline starts with filter type 0 (none).
  std::vector<unsigned char> filtered(static_cast<std::size_t>(rows) * (row_bytes + 1), 0);
  for (std::size_t r = 0; r < static_cast<std::size_t>(rows); ++r)
    std::copy_n(raster.begin() + static_cast<std::ptrdiff_t>(r * row_bytes), row_bytes,
                filtered.begin() + static_cast<std::ptrdiff_t>(r * (row_bytes + 1) + 1));
  std::vector<unsigned char> z{0x78, 0x01}; // zlib header, no compression
  for (std::size_t pos = 0; pos < filtered.size() || pos == 0;) {
    const std::size_t n = std::min<std::size_t>(65535, filtered.size() - pos);
    const bool last = pos + n >= filtered.size();
    z.push_back(last ? 1 : 0);
    z.insert(z.end(), {static_cast<unsigned char>(n), static_cast<unsigned char>(n >> 8),
                       static_cast<unsigned char>(~n), static_cast<unsigned char>(~n >> 8)});
    z.insert(z.end(), filtered.begin() + static_cast<std::ptrdiff_t>(pos),
             filtered.begin() + static_cast<std::ptrdiff_t>(pos + n));
    pos += n;
    if (last) break;
  }
  std::uint32_t a = 1, b = 0; // Adler-32
  for (unsigned char c : filtered) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  put_u32(z, (b << 16) | a);
  put_chunk(out, "IDAT", z);
  put_chunk(out, "IEND", {});
  return out;
}

/// 16-bit grayscale PNG of row-major samples.
inline std::vector<unsigned char> png16(int columns, int rows, const std::vector<std::uint16_t>& samples) {
  std::vector<unsigned char> raster;
  for (std::uint16_t s : samples)
    raster.insert(raster.end(), {static_cast<unsigned char>(s >> 8), static_cast<unsigned char>(s)});
  return png_bytes(columns, rows, 16, 0, raster, static_cast<std::size_t>(columns) * 2);
}

} // namespace glide::test
