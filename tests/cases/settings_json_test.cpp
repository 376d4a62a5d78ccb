// Settings as JSON through their field tables (<glide/cases/settings_json.hpp>): every field
// round-trips, unknown fields and values out of their limits are errors naming the file and
// the JSON path, and the old spelling "fast" of toi_method still reads.
#include "settings_samples.hpp"
#include "work_files.hpp"

#include <glide/cases/settings_json.hpp>
#include <glide/error.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using namespace glide;

namespace {

using glide::test::contains;
using glide::test::write_file;
const fs::path k_settings_dir = glide::test::work_dir("settings_json");
fs::path settings_file(const std::string& name) { return k_settings_dir / name; }

// Writes `settings` as JSON text, parses the text and reads it back over the defaults.
template <class S>
S round_trip(const fields::Table<S>& table, const S& settings) {
  const std::string text = cases::dump_readable(cases::settings_json(table, settings));
  const cases::Json doc = cases::parse_json(text, "round trip");
  const cases::Where where{"round trip", ""};
  S back{};
  cases::read_settings(cases::Node(doc, "", where), table, back);
  return back;
}

std::string load_error(const fs::path& file) {
  try {
    (void)cases::load_controller_settings(file);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

} // namespace

TEST_CASE("settings JSON: every field of every table round-trips") {
  const ControllerSettings c = test::sample_controller_settings();
  test::check_every_field(controller_settings_table(), c, round_trip(controller_settings_table(), c));
  const PlayerSettings p = test::sample_player_settings();
  test::check_every_field(player_settings_table(), p, round_trip(player_settings_table(), p));
  const SweepSettings w = test::sample_sweep_settings();
  test::check_every_field(sweep_settings_table(), w, round_trip(sweep_settings_table(), w));

  // Through a file as the viewer saves it, angles in degrees, one spelling of the method.
  const fs::path file = settings_file("all.json");
  cases::save_controller_settings(file, c);
  test::check_every_field(controller_settings_table(), c, cases::load_controller_settings(file));
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(contains(text, "\"max_slope_deg\": 37"));
  CHECK(contains(text, "\"toi_method\": \"bisection\""));
  CHECK(contains(text, "\"max_slide_iterations\": 7"));
  CHECK_FALSE(contains(text, "filter"));
}

TEST_CASE("settings JSON: fields left out keep the base, degrees become radians, \"fast\" still reads") {
  ControllerSettings base;
  base.step_height = 0.2f;
  base.toi_method = ToiMethod::bisection;
  const ControllerSettings r = cases::load_controller_settings(
      write_file(k_settings_dir, "partial.json", R"({"radius": 0.5, "max_slope_deg": 30})"), base);
  CHECK(r.radius == 0.5f);
  CHECK(r.max_slope == glm::radians(30.f));
  CHECK(r.step_height == 0.2f);
  CHECK(r.height == base.height);
  CHECK(r.toi_method == ToiMethod::bisection);
  CHECK(cases::load_controller_settings(write_file(k_settings_dir, "fast.json", R"({"toi_method": "fast"})"), base)
            .toi_method == ToiMethod::conservative_advancement);
  CHECK(cases::load_controller_settings(
            write_file(k_settings_dir, "ca.json", R"({"toi_method": "conservative_advancement"})"), base)
            .toi_method == ToiMethod::conservative_advancement);
}

TEST_CASE("settings JSON: bad files name the file, the JSON path and the problem") {
  const fs::path missing = settings_file("does_not_exist.json");
  fs::remove(missing);
  CHECK(contains(load_error(missing), "does_not_exist.json: cannot open settings file"));
  CHECK(contains(load_error(write_file(k_settings_dir, "garbage.json", "{ radius: ")), "garbage.json: malformed JSON"));
  CHECK(contains(load_error(write_file(k_settings_dir, "array.json", "[1, 2]")), "array.json: /: expected an object"));
  CHECK(contains(load_error(write_file(k_settings_dir, "type.json", R"({"height": "tall"})")),
                 "type.json: /height: expected a number, got a string"));
  CHECK(contains(load_error(write_file(k_settings_dir, "method.json", R"({"toi_method": "guess"})")),
                 "method.json: /toi_method: unknown toi_method \"guess\" (conservative_advancement or bisection)"));
  // One name per field: the old max_iterations is an unknown field.
  CHECK(contains(load_error(write_file(k_settings_dir, "old.json", R"({"max_iterations": 4})")),
                 "old.json: /max_iterations: unknown field \"max_iterations\""));
  CHECK(
      contains(load_error(write_file(k_settings_dir, "limit.json", R"({"radius": 0.3, "height": 0.5})")),
               "limit.json: /height: ControllerSettings.height = 0.500000 is out of range (in [2 * radius, 200000])"));
  // A field left out that breaks a limit against one given: the object's path.
  CHECK(contains(load_error(write_file(k_settings_dir, "left_out.json", R"({"radius": 1.5})")),
                 "left_out.json: /: ControllerSettings.height"));
  CHECK(contains(load_error(write_file(k_settings_dir, "slides.json", R"({"max_slide_iterations": 17})")),
                 "slides.json: /max_slide_iterations: expected an integer in [1, 16], got 17"));
  CHECK(contains(load_error(write_file(k_settings_dir, "mask.json", R"({"layer_mask": -1})")),
                 "mask.json: /layer_mask: expected an integer in [0, 4294967295]"));
}
