// PGM (netpbm grayscale) reader for P2 (ASCII) and P5 (binary). Parsed here rather than
// through stb_image, which reads only P5, so both variants give the same errors.
#include "heightmap_readers.hpp"

#include <string>

namespace glide::terrain_detail {

namespace {

class PgmParser {
public:
  PgmParser(const std::vector<unsigned char>& bytes, const std::string& file) : bytes_(bytes), file_(file) {}

  /// Next unsigned decimal integer after whitespace and # comments; fails naming `what`.
  long long integer(const char* what, const char* problem) {
    skip_space_and_comments();
    if (pos_ >= bytes_.size()) fail(file_, std::string(problem) + ": missing " + what);
    if (!is_digit(bytes_[pos_]))
      fail(file_, "malformed " + std::string(what) + " at byte " + std::to_string(pos_) + " (not a decimal number)");
    long long value = 0;
    while (pos_ < bytes_.size() && is_digit(bytes_[pos_])) {
      value = value * 10 + (bytes_[pos_++] - '0');
      if (value > 1'000'000'000) fail(file_, "malformed " + std::string(what) + ": number too large");
    }
    if (pos_ < bytes_.size() && !is_space(bytes_[pos_]) && bytes_[pos_] != '#')
      fail(file_, "malformed " + std::string(what) + " at byte " + std::to_string(pos_));
    return value;
  }

  /// True when another token follows (after whitespace and comments).
  bool more() {
    skip_space_and_comments();
    return pos_ < bytes_.size();
  }

  /// Position of the binary raster: after exactly one whitespace character following maxval.
  std::size_t raster_start() {
    if (pos_ >= bytes_.size()) fail(file_, "truncated data: no samples after the header");
    return pos_ + 1;
  }

private:
  static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
  static bool is_space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
  }
  void skip_space_and_comments() {
    while (pos_ < bytes_.size()) {
      if (is_space(bytes_[pos_])) {
        ++pos_;
      } else if (bytes_[pos_] == '#') {
        while (pos_ < bytes_.size() && bytes_[pos_] != '\n' && bytes_[pos_] != '\r') ++pos_;
      } else {
        return;
      }
    }
  }

  const std::vector<unsigned char>& bytes_;
  const std::string& file_;
  std::size_t pos_ = 2; // after the magic number
};

} // namespace

HeightmapData read_pgm(const std::vector<unsigned char>& bytes, const std::string& file) {
  const char kind = static_cast<char>(bytes[1]);
  if (kind != '2' && kind != '5')
    fail(file, std::string("unsupported format: netpbm P") + kind + ", only grayscale PGM P2 and P5");
  PgmParser parser(bytes, file);
  const long long columns = parser.integer("width", "truncated data");
  const long long rows = parser.integer("height", "truncated data");
  check_dimensions(file, rows, columns);
  const long long maxval = parser.integer("maxval", "truncated data");
  if (maxval < 1 || maxval > 65535)
    fail(file, "unsupported bit depth: maxval " + std::to_string(maxval) + ", need 1 to 65535 (8 or 16 bit)");

  HeightmapData data{static_cast<int>(rows), static_cast<int>(columns), {}};
  const std::size_t count = static_cast<std::size_t>(rows) * static_cast<std::size_t>(columns);
  data.values.resize(count);
  const float scale = 1.f / static_cast<float>(maxval);
  const auto store = [&](std::size_t i, long long value) {
    if (value > maxval)
      fail(file, "malformed sample " + std::to_string(value) + " at row " + std::to_string(i / columns) + ", column " +
                     std::to_string(i % columns) + " exceeds maxval " + std::to_string(maxval));
    data.values[i] = static_cast<float>(value) * scale;
  };

  if (kind == '2') {
    for (std::size_t i = 0; i < count; ++i) {
      if (!parser.more())
        fail(file, "truncated data: " + std::to_string(i) + " of " + std::to_string(count) + " samples");
      store(i, parser.integer("sample", "truncated data"));
    }
    return data;
  }
  const std::size_t start = parser.raster_start();
  const std::size_t sample_bytes = maxval < 256 ? 1 : 2;
  const std::size_t available = bytes.size() > start ? bytes.size() - start : 0;
  if (available < count * sample_bytes)
    fail(file, "truncated data: " + std::to_string(available) + " raster bytes, expected " +
                   std::to_string(count * sample_bytes));
  const unsigned char* raster = bytes.data() + start;
  for (std::size_t i = 0; i < count; ++i)
    store(i, sample_bytes == 1 ? raster[i] : (raster[2 * i] << 8) | raster[2 * i + 1]); // big-endian
  return data;
}

} // namespace glide::terrain_detail
