#include "approx.hpp"
#include "png_writer.hpp"

#include <glide/error.hpp>
#include <glide/terrain/heightfield_loader.hpp>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using glide::HeightfieldLoadSettings;
using glide::load_heightfield;

namespace {

/// A scratch directory per test process, removed at exit.
struct ScratchDir {
  fs::path path = fs::temp_directory_path() / ("glide_terrain_test_" + std::to_string(::getpid()));
  ScratchDir() { fs::create_directories(path); }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};
const fs::path& scratch() {
  static const ScratchDir dir;
  return dir.path;
}

fs::path write_file(const std::string& name, const void* data, std::size_t size) {
  const fs::path p = scratch() / name;
  std::ofstream out(p, std::ios::binary);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  return p;
}
fs::path write_file(const std::string& name, const std::vector<unsigned char>& bytes) {
  return write_file(name, bytes.data(), bytes.size());
}
fs::path write_file(const std::string& name, const std::string& text) {
  return write_file(name, text.data(), text.size());
}
fs::path write_floats(const std::string& name, const std::vector<float>& values) {
  static_assert(std::endian::native == std::endian::little, "the test writes raw files in host order");
  return write_file(name, values.data(), values.size() * sizeof(float));
}

/// Samples of a test pattern: distinct values in every row and column.
std::vector<int> pattern(int rows, int columns, int max_value) {
  std::vector<int> v;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c) v.push_back((r * 37 + c * 101 + r * c * 13) % (max_value + 1));
  return v;
}

void check_matches(const glide::Heightfield& field, int rows, int columns, const std::vector<int>& samples,
                   float full_scale, const HeightfieldLoadSettings& s) {
  REQUIRE(field.rows() == rows);
  REQUIRE(field.columns() == columns);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < columns; ++c) {
      const float expected =
          s.origin.y + s.height_offset + s.height_scale * (static_cast<float>(samples[r * columns + c]) / full_scale);
      CHECK_APPROX(field.height(r, c), expected, 1e-5f * (1.f + std::abs(expected)));
    }
  CHECK_APPROX(field.vertex(rows - 1, columns - 1).x, s.origin.x + (columns - 1) * s.cell_size.x, 1e-5f);
  CHECK_APPROX(field.vertex(rows - 1, columns - 1).z, s.origin.z + (rows - 1) * s.cell_size.y, 1e-5f);
}

const HeightfieldLoadSettings placed{
    .cell_size = {0.5f, 2.f}, .origin = {1.f, -2.f, 3.f}, .height_scale = 40.f, .height_offset = 5.f};

/// Loading `file` throws glide::Error whose message names the file and contains `problem`.
void check_error(const fs::path& file, const std::string& problem, const HeightfieldLoadSettings& s = {}) {
  CAPTURE(file.string());
  CAPTURE(problem);
  try {
    (void)load_heightfield(file, s);
    FAIL("no error");
  } catch (const glide::Error& e) {
    const std::string message = e.what();
    CAPTURE(message);
    CHECK(message.find(file.string()) != std::string::npos);
    CHECK(message.find(problem) != std::string::npos);
  }
}

std::string pgm_p2(int columns, int rows, int maxval, const std::vector<int>& samples) {
  std::string text = "P2\n# written by the glide tests\n" + std::to_string(columns) + " " + std::to_string(rows) +
                     "\n" + std::to_string(maxval) + "\n";
  for (std::size_t i = 0; i < samples.size(); ++i) text += std::to_string(samples[i]) + ((i % 7 == 6) ? "\n" : " ");
  return text;
}
std::vector<unsigned char> pgm_p5(int columns, int rows, int maxval, const std::vector<int>& samples) {
  const std::string header =
      "P5 " + std::to_string(columns) + "\n" + std::to_string(rows) + " # comment\n" + std::to_string(maxval) + "\n";
  std::vector<unsigned char> bytes(header.begin(), header.end());
  for (int v : samples) {
    if (maxval >= 256) bytes.push_back(static_cast<unsigned char>(v >> 8));
    bytes.push_back(static_cast<unsigned char>(v));
  }
  return bytes;
}

} // namespace

TEST_CASE("8-bit PNG written by stb_image_write round-trips") {
  const int rows = 23, columns = 17;
  const std::vector<int> samples = pattern(rows, columns, 255);
  std::vector<unsigned char> pixels(samples.begin(), samples.end());
  const fs::path file = scratch() / "gray8.png";
  REQUIRE(stbi_write_png(file.string().c_str(), columns, rows, 1, pixels.data(), columns) != 0);
  check_matches(load_heightfield(file, placed), rows, columns, samples, 255.f, placed);
}

TEST_CASE("an empty IDAT chunk adds nothing; a chunk past the end of the file is truncated data") {
  // stb_image copied the first, empty one from a null pointer (undefined behaviour).
  const int rows = 3, columns = 4;
  const std::vector<int> samples = pattern(rows, columns, 255);
  std::vector<unsigned char> pixels(samples.begin(), samples.end());
  const fs::path plain = scratch() / "plain.png";
  REQUIRE(stbi_write_png(plain.string().c_str(), columns, rows, 1, pixels.data(), columns) != 0);
  std::ifstream in(plain, std::ios::binary);
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // After the signature (8) and IHDR (12 + 13): an empty IDAT before the data.
  std::vector<unsigned char> empty_idat;
  glide::test::put_chunk(empty_idat, "IDAT", {});
  bytes.insert(bytes.begin() + 33, empty_idat.begin(), empty_idat.end());
  const fs::path file = scratch() / "empty_idat.png";
  std::ofstream(file, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  check_matches(load_heightfield(file, placed), rows, columns, samples, 255.f, placed);
  // A chunk claiming more bytes than the file holds is truncated data (stb_image allocated
  // its claimed length first: 2 GiB for this one).
  bytes[33] = 0x7f;
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  CHECK_THROWS_WITH_AS(load_heightfield(file),
                       doctest::Contains("empty_idat.png': truncated data: PNG chunk of 2130706432 bytes"),
                       glide::Error);
  // A file that ends inside a chunk's length, type and CRC (an empty IDAT without its CRC, as
  // the heightmap fuzzer found) is truncated data too, never handed to stb_image.
  std::vector<unsigned char> cut(bytes.begin(), bytes.begin() + 33);
  const unsigned char idat_without_crc[] = {0, 0, 0, 0, 'I', 'D', 'A', 'T'};
  cut.insert(cut.end(), std::begin(idat_without_crc), std::end(idat_without_crc));
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(cut.data()), static_cast<std::streamsize>(cut.size()));
  CHECK_THROWS_WITH_AS(load_heightfield(file),
                       doctest::Contains("truncated data: PNG chunk at byte 33 has 8 bytes, fewer than a chunk's 12"),
                       glide::Error);
}

TEST_CASE("16-bit PNG round-trips") {
  const int rows = 9, columns = 31;
  const std::vector<int> samples = pattern(rows, columns, 65535);
  const std::vector<std::uint16_t> wide(samples.begin(), samples.end());
  const fs::path file = write_file("gray16.png", glide::test::png16(columns, rows, wide));
  check_matches(load_heightfield(file, placed), rows, columns, samples, 65535.f, placed);
}

TEST_CASE("PGM P2 and P5 round-trip at 8 and 16 bits and any maxval") {
  for (const int maxval : {255, 1000, 65535, 7}) {
    CAPTURE(maxval);
    const int rows = 11, columns = 6;
    const std::vector<int> samples = pattern(rows, columns, maxval);
    check_matches(load_heightfield(write_file("a.pgm", pgm_p2(columns, rows, maxval, samples)), placed), rows, columns,
                  samples, static_cast<float>(maxval), placed);
    check_matches(load_heightfield(write_file("b.pgm", pgm_p5(columns, rows, maxval, samples)), placed), rows, columns,
                  samples, static_cast<float>(maxval), placed);
  }
}

TEST_CASE("raw float32 round-trips, with .raw, .r32 and .f32 extensions") {
  const int rows = 5, columns = 8;
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> h(-100.f, 100.f);
  std::vector<float> values(rows * columns);
  for (float& v : values) v = h(rng);
  HeightfieldLoadSettings s = placed;
  s.raw_rows = rows;
  s.raw_columns = columns;
  for (const char* name : {"h.raw", "h.r32", "h.F32"}) {
    const glide::Heightfield field = load_heightfield(write_floats(name, values), s);
    REQUIRE(field.rows() == rows);
    REQUIRE(field.columns() == columns);
    for (int i = 0; i < rows * columns; ++i)
      CHECK_APPROX(field.height(i / columns, i % columns), s.origin.y + s.height_offset + s.height_scale * values[i],
                   1e-3f);
  }
}

TEST_CASE("a 4097 x 4097 raw terrain loads and answers queries") {
  const int n = 4097;
  std::vector<float> values(static_cast<std::size_t>(n) * n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) values[static_cast<std::size_t>(r) * n + c] = 0.01f * c - 0.02f * r;
  const fs::path file = write_floats("big.raw", values);
  values = {};
  const glide::Heightfield field = load_heightfield(file, {.raw_rows = n, .raw_columns = n});
  fs::remove(file);
  CHECK(field.memory_bytes() < static_cast<std::size_t>(n) * n * 4 * 101 / 100); // 4 bytes per sample + 1%
  CHECK_APPROX(field.height_at(4000.5f, 17.25f), 0.01f * 4000.5f - 0.02f * 17.25f, 1e-3f);
  const glide::TerrainRayHit hit = field.raycast({3000.f, 100.f, 3000.f}, {0.3f, -1.f, 0.2f}, 1000.f);
  REQUIRE(hit.hit);
  CHECK_APPROX(hit.point.y, field.height_at(hit.point.x, hit.point.z), 1e-3f);
}

TEST_CASE("every bad file yields its documented error naming the file") {
  const std::vector<int> samples = pattern(4, 4, 255);
  // Missing file and unsupported formats.
  check_error(scratch() / "missing.png", "cannot open");
  check_error(scratch(), "cannot open"); // a directory
  check_error(write_file("notes.txt", std::string("just text\n")), "unsupported format");
  check_error(write_file("color.ppm", std::string("P6 2 2 255\n123456789012")), "unsupported format");
  {
    const unsigned char rgb[2 * 2 * 3] = {};
    const fs::path file = scratch() / "rgb.png";
    REQUIRE(stbi_write_png(file.string().c_str(), 2, 2, 3, rgb, 6) != 0);
    check_error(file, "unsupported format");
  }
  // Bit depths.
  check_error(write_file("gray4.png", glide::test::png_bytes(4, 2, 4, 0, std::vector<unsigned char>(4), 2)),
              "unsupported bit depth");
  check_error(write_file("deep.pgm", std::string("P2 2 2 70000\n1 2 3 4\n")), "unsupported bit depth");
  check_error(write_file("zeromax.pgm", std::string("P2 2 2 0\n0 0 0 0\n")), "unsupported bit depth");
  // Zero and oversized dimensions.
  check_error(write_file("zero.pgm", std::string("P2 0 5 255\n")), "dimensions 5 x 0 (rows x columns) are zero");
  check_error(write_file("huge.pgm", std::string("P5 20000 4 255\n")), "dimensions 4 x 20000");
  check_error(write_file("one.pgm", std::string("P2 1 1 255\n7\n")), "dimensions 1 x 1");
  {
    std::vector<unsigned char> png = glide::test::png16(3, 2, std::vector<std::uint16_t>(6, 1));
    png[16] = png[17] = png[18] = png[19] = 0; // width 0 (the loader reads IHDR before any CRC)
    check_error(write_file("zero.png", png), "are zero");
    png[17] = 0x01; // width 65536
    check_error(write_file("wide.png", png), "dimensions 2 x 65536");
  }
  check_error(write_floats("nodims.raw", std::vector<float>(4)), "are zero");
  check_error(write_floats("huge.raw", std::vector<float>(4)), "out of range", {.raw_rows = 2, .raw_columns = 100000});
  // Truncated data.
  {
    std::string p2 = pgm_p2(4, 4, 255, samples);
    check_error(write_file("short2.pgm", p2.substr(0, p2.size() - 12)), "truncated data");
    std::vector<unsigned char> p5 = pgm_p5(4, 4, 1000, samples);
    p5.resize(p5.size() - 1);
    check_error(write_file("short5.pgm", p5), "truncated data");
    check_error(write_file("header.pgm", std::string("P5 4 4")), "truncated data");
    std::vector<unsigned char> png = glide::test::png16(8, 8, std::vector<std::uint16_t>(64, 9));
    png.resize(png.size() / 2);
    check_error(write_file("short.png", png), "truncated data");
    check_error(write_file("stub.png", std::vector<unsigned char>(png.begin(), png.begin() + 12)), "truncated data");
    check_error(write_floats("short.raw", std::vector<float>(15)), "truncated data", {.raw_rows = 4, .raw_columns = 4});
  }
  check_error(write_floats("long.raw", std::vector<float>(17)), "size mismatch", {.raw_rows = 4, .raw_columns = 4});
  // Malformed PGM.
  check_error(write_file("word.pgm", std::string("P2 4 four 255\n")), "malformed height");
  check_error(write_file("big_sample.pgm", std::string("P2 2 2 255\n1 2 300 4\n")), "exceeds maxval 255");
  check_error(write_file("junk.pgm", std::string("P2 2 2 255\n1 2 3x 4\n")), "malformed sample");
  // Non-finite heights.
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    std::vector<float> v(16, 1.f);
    v[6] = bad;
    check_error(write_floats("bad.raw", v), "non-finite height", {.raw_rows = 4, .raw_columns = 4});
    check_error(write_floats("bad.raw", v), "row 1, column 2", {.raw_rows = 4, .raw_columns = 4});
  }
  // Settings errors still name the file.
  check_error(write_file("ok.pgm", pgm_p2(4, 4, 255, samples)), "cell_size", {.cell_size = {0.f, 1.f}});
}
