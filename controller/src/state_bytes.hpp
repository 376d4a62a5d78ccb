#pragma once

// Little-endian writing and checked reading of the controller's saved states.

#include <glide/error.hpp>
#include <glide/limits.hpp>

#include <glm/ext/vector_double3.hpp>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace glide::detail {

/// Bytes of a state's header: magic (4), version (u16), total byte count (u32).
inline constexpr std::size_t k_state_header_bytes = 10;

/// Writes a state over a byte region of its exact size, header first: straight into the
/// caller's storage (a set's snapshot, a buffer reused every frame), one byte at a time.
class StateWriter {
public:
  StateWriter(std::span<std::byte> to, const std::array<char, 4>& magic, std::uint16_t version) : to_(to) {
    for (const char c : magic) u8(static_cast<std::uint8_t>(c));
    u16(version);
    u32(static_cast<std::uint32_t>(to.size()));
  }
  void u8(std::uint8_t v) { to_[at_++] = static_cast<std::byte>(v); }
  void u16(std::uint16_t v) {
    for (int i = 0; i < 2; ++i) u8(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) u8(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void f32(float v) { u32(std::bit_cast<std::uint32_t>(v)); }
  void vec3(const glm::vec3& v) {
    f32(v.x);
    f32(v.y);
    f32(v.z);
  }
  void f64(double v) {
    const auto bits = std::bit_cast<std::uint64_t>(v);
    u32(static_cast<std::uint32_t>(bits));
    u32(static_cast<std::uint32_t>(bits >> 32));
  }
  void dvec3(const glm::dvec3& v) {
    f64(v.x);
    f64(v.y);
    f64(v.z);
  }
  /// The next n bytes, for a state of their own written over them.
  std::span<std::byte> region(std::size_t n) {
    const std::span<std::byte> r = to_.subspan(at_, n);
    at_ += n;
    return r;
  }

private:
  std::span<std::byte> to_;
  std::size_t at_ = 0;
};

/// Reads a state after checking its header; every read names the field in its error.
class StateReader {
public:
  /// How far a saved normal's squared length may be from 1 (a normalized float vector is
  /// within a few 1e-7).
  static constexpr float k_unit_tolerance = 1e-4f;

  StateReader(std::span<const std::byte> bytes, const char* what, const std::array<char, 4>& magic,
              std::uint16_t version, std::size_t size)
      : bytes_(bytes), what_(what) {
    if (bytes.size() < k_state_header_bytes)
      fail("header",
           std::to_string(bytes.size()) + " bytes, fewer than the header's " + std::to_string(k_state_header_bytes));
    for (std::size_t i = 0; i < magic.size(); ++i)
      if (static_cast<char>(bytes[i]) != magic[i])
        fail("magic", "not a " + std::string(magic.data(), magic.size()) + " state");
    at_ = magic.size();
    if (const std::uint16_t v = u16("version"); v != version)
      fail("version", std::to_string(v) + " is not the supported " + std::to_string(version));
    if (const std::uint32_t n = u32("byte count"); n != size)
      fail("byte count", std::to_string(n) + " is not " + std::to_string(size));
    if (bytes.size() != size)
      fail("byte count", "got " + std::to_string(bytes.size()) + " bytes, expected " + std::to_string(size));
  }

  /// Names the fields read from now on as those of one item of many: "character 2: velocity".
  void within(const char* item, std::size_t index) {
    item_ = item;
    index_ = index;
  }
  [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
    const std::string item = item_ != nullptr ? std::string(item_) + " " + std::to_string(index_) + ": " : "";
    throw Error(std::string(what_) + ": " + item + field + ": " + problem);
  }
  std::uint8_t u8(const char*) { return static_cast<std::uint8_t>(bytes_[at_++]); }
  std::uint16_t u16(const char* field) {
    const std::uint16_t lo = u8(field), hi = u8(field);
    return static_cast<std::uint16_t>(lo | (hi << 8));
  }
  std::uint32_t u32(const char* field) {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(u8(field)) << (8 * i);
    return v;
  }
  float f32(const char* field) {
    const float v = std::bit_cast<float>(u32(field));
    if (!std::isfinite(v)) fail(field, std::to_string(v) + " is not finite");
    return v;
  }
  glm::vec3 vec3(const char* field) {
    const float x = f32(field), y = f32(field), z = f32(field);
    return {x, y, z};
  }
  /// A normal: a move projects its motion on it, so one a bit flip lengthened would fling the
  /// character (found by the crowd fuzzer).
  glm::vec3 unit_vec3(const char* field) {
    const glm::vec3 v = vec3(field);
    if (!(std::abs(glm::dot(v, v) - 1.f) <= k_unit_tolerance))
      fail(field, limits::vec_text(v) + " is not of unit length");
    return v;
  }
  /// A velocity (m/s) whose length a move can compute without overflowing.
  glm::vec3 velocity(const char* field) {
    const glm::vec3 v = vec3(field);
    if (!std::isfinite(glm::dot(v, v))) fail(field, limits::vec_text(v) + " is too fast to measure");
    return v;
  }
  double f64(const char* field) {
    const std::uint64_t lo = u32(field), hi = u32(field);
    const double v = std::bit_cast<double>(lo | (hi << 32));
    if (!std::isfinite(v)) fail(field, std::to_string(v) + " is not finite");
    return v;
  }
  glm::dvec3 dvec3(const char* field) {
    const double x = f64(field), y = f64(field), z = f64(field);
    return {x, y, z};
  }
  bool flag(const char* field) {
    const std::uint8_t v = u8(field);
    if (v > 1) fail(field, std::to_string(v) + " is neither 0 nor 1");
    return v == 1;
  }
  /// The next n bytes, as they are (the reader checked the total size).
  std::span<const std::byte> bytes(std::size_t n) {
    const std::span<const std::byte> b = bytes_.subspan(at_, n);
    at_ += n;
    return b;
  }
  /// An enum stored as u8 whose values are 0 .. count - 1.
  template <class Enum>
  Enum enumeration(const char* field, std::uint8_t count) {
    const std::uint8_t v = u8(field);
    if (v >= count) fail(field, std::to_string(v) + " is out of range [0, " + std::to_string(count - 1) + "]");
    return static_cast<Enum>(v);
  }

private:
  std::span<const std::byte> bytes_;
  const char* what_;
  std::size_t at_ = 0;
  const char* item_ = nullptr; ///< within's item, if any
  std::size_t index_ = 0;
};

} // namespace glide::detail
