// The flags of `glide demo` come from the settings tables: every row has one, non-default
// values reach the settings exactly, and --print-settings shows what the flags gave.
#include "run_glide.hpp"
#include "settings_samples.hpp"

#include <glide/cases/settings_json.hpp>

#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

using namespace glide;

namespace {

// The flag and its values for one row of `settings`, in the row's shown unit.
template <class S>
void add_flag(std::vector<std::string>& args, const fields::Field<S>& f, const S& settings) {
  args.push_back(fields::flag_name(f));
  if (f.kind == fields::Kind::unit_vec3) {
    const glm::vec3 v = fields::get_vec3(settings, f);
    for (const float c : {v.x, v.y, v.z}) args.push_back(cases::json_number(c).dump());
    return;
  }
  const double v = fields::get_number(settings, f);
  if (f.kind == fields::Kind::enumeration)
    args.emplace_back(fields::enum_name(f, static_cast<int>(v)));
  else if (f.kind == fields::Kind::real || f.kind == fields::Kind::angle)
    args.push_back(cases::json_number(static_cast<float>(v)).dump());
  else
    args.push_back(std::to_string(static_cast<long long>(v)));
}

struct Printed {
  ControllerSettings controller;
  PlayerSettings player;
};

Printed print_settings(const std::vector<std::string>& flags) {
  std::vector<std::string> args{"demo", "--print-settings"};
  args.insert(args.end(), flags.begin(), flags.end());
  const test::CliRun r = test::run_glide(args);
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const cases::Json doc = cases::parse_json(r.out, "glide demo --print-settings");
  const cases::Where where{"glide demo --print-settings", ""};
  cases::Fields top(cases::Node(doc, "", where));
  Printed p;
  cases::read_settings(top.required("controller"), controller_settings_table(), p.controller);
  cases::read_settings(top.required("player"), player_settings_table(), p.player);
  top.done({"controller", "player"});
  return p;
}

} // namespace

TEST_CASE("glide demo: a flag for every settings row, non-default values reach the settings") {
  const ControllerSettings c = test::sample_controller_settings();
  const PlayerSettings p = test::sample_player_settings();
  std::vector<std::string> flags;
  for (const auto& f : controller_settings_table().rows) add_flag(flags, f, c);
  for (const auto& f : player_settings_table().rows) add_flag(flags, f, p);
  const Printed printed = print_settings(flags);
  test::check_every_field(controller_settings_table(), c, printed.controller);
  test::check_every_field(player_settings_table(), p, printed.player);

  // Without flags, the defaults exactly (no trip through degrees).
  const Printed defaults = print_settings({});
  CHECK(defaults.controller.max_slope == ControllerSettings{}.max_slope);
  CHECK(defaults.controller.step_max_wall_angle == ControllerSettings{}.step_max_wall_angle);
  CHECK(defaults.player.gravity == PlayerSettings{}.gravity);
}

TEST_CASE("glide demo: the settings flags' names, help and the old toi_method spelling") {
  const test::CliRun help = test::run_glide({"demo", "--help"});
  for (const char* flag : {"--radius", "--max-slope", "--step-max-wall-angle", "--max-slide-iterations", "--toi-method",
                           "--layer-mask", "--gravity", "--jump-speed"})
    CHECK_MESSAGE(help.out.find(flag) != std::string::npos, flag);
  CHECK(help.out.find("Steepest walkable slope (degrees)") != std::string::npos);
  CHECK(help.out.find("--max-iterations") == std::string::npos);
  CHECK(print_settings({"--toi-method", "fast"}).controller.toi_method == ToiMethod::conservative_advancement);
  CHECK(print_settings({"--toi-method", "bisection"}).controller.toi_method == ToiMethod::bisection);
}
