// The settings tables: validate() enforces every limit a row states, and docs/controller.md
// lists every row with its default and unit.
#include "settings_samples.hpp"

#include <glide/controller/settings_schema.hpp>
#include <glide/error.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

using namespace glide;

namespace {

std::string error_of(const auto& settings) {
  try {
    validate(settings);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Values just outside each end of a row's range, in the stored unit.
template <class S>
std::vector<double> outside(const fields::Field<S>& f, const S& s) {
  using End = typename fields::Bound<S>::End;
  const bool is_float = f.kind == fields::Kind::real || f.kind == fields::Kind::angle;
  const auto stored = [&](const fields::Bound<S>& b) -> double {
    if (b.of) return b.of(s);
    if (f.kind == fields::Kind::angle) return glm::radians(static_cast<float>(b.value));
    return b.value;
  };
  const auto step = [&](double bound, bool down) -> double {
    if (!is_float) return bound + (down ? -1.0 : 1.0);
    const float b = static_cast<float>(bound);
    return std::nextafter(b, down ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity());
  };
  std::vector<double> out;
  if (f.min.end != End::none) out.push_back(f.min.end == End::open ? stored(f.min) : step(stored(f.min), true));
  if (f.max.end != End::none) out.push_back(f.max.end == End::open ? stored(f.max) : step(stored(f.max), false));
  if (is_float) out.push_back(std::numeric_limits<double>::quiet_NaN());
  return out;
}

// Sets a scalar row to `v` in the stored unit.
template <class S>
void set_stored(S& s, const fields::Field<S>& f, double v) {
  if (float* m = fields::member_ptr<float>(s, f))
    *m = static_cast<float>(v);
  else
    fields::set_number(s, f, v);
}

template <class S>
void check_limits(const fields::Table<S>& table, const S& valid) {
  REQUIRE(error_of(valid) == "no error");
  int checked = 0;
  for (const fields::Field<S>& f : table.rows) {
    std::string name = table.type_name;
    name.append(".").append(fields::member_name(f));
    for (const double v : outside(f, valid)) {
      S s = valid;
      set_stored(s, f, v);
      CAPTURE(name);
      CAPTURE(v);
      CHECK(contains(error_of(s), name));
      ++checked;
    }
  }
  CHECK(checked > 0);
}

} // namespace

TEST_CASE("validate() enforces every limit of the ControllerSettings and PlayerSettings tables") {
  check_limits(controller_settings_table(), ControllerSettings{});
  check_limits(controller_settings_table(), test::sample_controller_settings());
  check_limits(player_settings_table(), PlayerSettings{});

  ControllerSettings s;
  s.radius = -1.f;
  CHECK(error_of(s) == "ControllerSettings.radius = -1.000000 is out of range (in (0, 200000] m)");
  s = {};
  s.height = 0.5f;
  CHECK(error_of(s) == "ControllerSettings.height = 0.500000 is out of range (in [2 * radius, 200000])");
  // No larger than the largest piece: a capsule the world's queries take (found by the crowd
  // fuzzer: a restored state 2e27 m tall).
  s = {};
  s.radius = 1e7f;
  s.height = 3e7f;
  CHECK(error_of(s) == "ControllerSettings.radius = 10000000.000000 is out of range (in (0, 200000] m)");
  s = {};
  s.height = 2e27f;
  CHECK(contains(error_of(s), "ControllerSettings.height = "));
  s = {};
  s.up = {0.f, 1.1f, 0.f};
  CHECK(contains(error_of(s), "ControllerSettings.up = (0.000000, 1.100000, 0.000000) is not a unit vector"));
  s = {};
  s.toi_method = static_cast<ToiMethod>(7);
  CHECK(contains(error_of(s), "ControllerSettings.toi_method = 7 is not one of conservative_advancement or bisection"));
  s = {};
  s.max_slide_iterations = 17;
  CHECK(error_of(s) == "ControllerSettings.max_slide_iterations = 17 is out of range (in [1, 16])");
  CHECK(error_of(PlayerSettings{.gravity = -1.f}) ==
        "PlayerSettings.gravity = -1.000000 is out of range (in [0, 1000] m/s^2)");
}

TEST_CASE("same_bits tells apart settings that differ in any row, and -0 from 0") {
  const fields::Table<ControllerSettings> table = controller_settings_table();
  const ControllerSettings base = test::sample_controller_settings();
  CHECK(fields::same_bits(table, base, base));
  int changed = 0;
  for (const fields::Field<ControllerSettings>& f : table.rows) {
    ControllerSettings other = base;
    if (float* m = fields::member_ptr<float>(other, f))
      *m = std::nextafter(*m, 1e9f);
    else if (const auto* v = std::get_if<fields::Vec3Access<ControllerSettings>>(&f.member))
      v->set(other, v->get(other) + glm::vec3(0.f, 0.f, 1e-3f));
    else // counts, masks, flags and enums
      fields::set_number(other, f, fields::get_number(other, f) == 0.0 ? 1.0 : 0.0);
    CAPTURE(f.name);
    CHECK(!fields::same_bits(table, base, other));
    ++changed;
  }
  CHECK(changed == static_cast<int>(table.rows.size()));
  ControllerSettings zero = base, negative_zero = base;
  zero.step_min_forward = 0.f;
  negative_zero.step_min_forward = -0.f;
  CHECK(!fields::same_bits(table, zero, negative_zero));
}

TEST_CASE("the flags are the members' names: --max-slope for max_slope_deg") {
  const auto table = controller_settings_table();
  CHECK(fields::flag_name(fields::row(table, "max_slope_deg")) == "--max-slope");
  CHECK(fields::flag_name(fields::row(table, "max_slide_iterations")) == "--max-slide-iterations");
  CHECK_THROWS_AS(fields::row(table, "max_iterations"), Error);
}

namespace {

// A default as docs/controller.md writes it, in the shown unit.
template <class S>
std::string default_text(const fields::Field<S>& f, const S& s) {
  if (f.kind == fields::Kind::unit_vec3) {
    const glm::vec3 v = fields::get_vec3(s, f);
    std::ostringstream o;
    o << "(" << v.x << ", " << v.y << ", " << v.z << ")";
    return o.str();
  }
  const double v = fields::get_number(s, f);
  if (f.kind == fields::Kind::enumeration) return fields::enum_name(f, static_cast<int>(v));
  if (f.kind == fields::Kind::boolean) return v != 0.0 ? "true" : "false";
  if (f.kind == fields::Kind::mask) {
    std::ostringstream o;
    o << "0x" << std::hex << static_cast<unsigned long long>(v);
    return o.str();
  }
  std::ostringstream o;
  o << static_cast<float>(v);
  return o.str();
}

// The "unit, limit" cell: the limit when it names the unit, else the unit then the limit.
template <class S>
std::string unit_limit_text(const fields::Field<S>& f) {
  const std::string unit = f.kind == fields::Kind::enumeration ? fields::enum_choices(f) : f.unit;
  const std::string limit = fields::limit_text(f);
  if (limit.empty()) return unit;
  if (unit.empty() ||
      (limit.ends_with(unit) && limit.size() > unit.size() && limit[limit.size() - unit.size() - 1] == ' '))
    return limit;
  std::string out = unit;
  return out.append(", ").append(limit);
}

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string cell; std::getline(in, cell, '|');) {
    const auto b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
    out.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
  }
  return out;
}

template <class S>
void check_doc_rows(const fields::Table<S>& table, const std::vector<std::string>& lines) {
  for (const fields::Field<S>& f : table.rows) {
    CAPTURE(f.name);
    std::string start = "| `";
    start.append(f.name).append("` |");
    const std::string* found = nullptr;
    for (const std::string& line : lines)
      if (line.starts_with(start)) found = &line;
    REQUIRE_MESSAGE(found, "docs/controller.md \"Settings and tuning\" has no row " << f.name);
    const std::vector<std::string> c = cells(*found);
    REQUIRE(c.size() >= 5);
    CHECK(c[2] == default_text(f, S{}));
    CHECK(c[3] == unit_limit_text(f));
  }
}

} // namespace

TEST_CASE("docs/controller.md lists every settings row with its default, unit and limit") {
  const char* source = std::getenv("GLIDE_SOURCE_DIR");
  REQUIRE_MESSAGE(source, "run through ctest, which sets GLIDE_SOURCE_DIR");
  std::ifstream in(std::filesystem::path(source) / "docs" / "controller.md");
  REQUIRE(in);
  std::vector<std::string> section;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("## ")) inside = line == "## Settings and tuning";
    if (inside) section.push_back(line);
  }
  REQUIRE(!section.empty());
  check_doc_rows(controller_settings_table(), section);
  check_doc_rows(player_settings_table(), section);
}
