#include "settings_file.hpp"

#include <glide/error.hpp>

#include <glm/trigonometric.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <fstream>
#include <string>

namespace glide::viewer {
namespace {

const char* method_name(ToiMethod m) { return m == ToiMethod::bisection ? "bisection" : "conservative_advancement"; }

} // namespace

void save_settings(const std::filesystem::path& file, const ControllerSettings& s) {
  const nlohmann::ordered_json j = {
      {"radius", s.radius},
      {"height", s.height},
      {"up", {s.up.x, s.up.y, s.up.z}},
      {"skin_width", s.skin_width},
      {"min_move_distance", s.min_move_distance},
      {"recovery_speed", s.recovery_speed},
      {"max_slope_deg", glm::degrees(s.max_slope)},
      {"step_height", s.step_height},
      {"step_min_forward", s.step_min_forward},
      {"step_max_wall_angle_deg", glm::degrees(s.step_max_wall_angle)},
      {"floor_snap_distance", s.floor_snap_distance},
      {"max_iterations", s.max_iterations},
      {"toi_method", method_name(s.toi_method)},
      {"toi_tolerance", s.toi_tolerance},
      {"layer_mask", s.layer_mask},
  };
  std::ofstream out(file);
  out << j.dump(2) << "\n";
  if (!out) throw Error("settings file " + file.string() + ": cannot be written");
}

ControllerSettings load_settings(const std::filesystem::path& file, const ControllerSettings& base) {
  std::ifstream in(file);
  if (!in) throw Error("settings file " + file.string() + ": cannot be opened");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw Error("settings file " + file.string() + ": not JSON (" + e.what() + ")");
  }
  if (!j.is_object()) throw Error("settings file " + file.string() + ": expected an object");
  ControllerSettings s = base;
  const auto field = [&](const char* name, auto& value) {
    if (!j.contains(name)) return;
    try {
      j.at(name).get_to(value);
    } catch (const nlohmann::json::exception&) {
      throw Error("settings file " + file.string() + ": field " + name + " has the wrong type (" + j.at(name).dump() +
                  ")");
    }
  };
  field("radius", s.radius);
  field("height", s.height);
  if (j.contains("up")) {
    std::array<float, 3> up{};
    field("up", up);
    s.up = {up[0], up[1], up[2]};
  }
  field("skin_width", s.skin_width);
  field("min_move_distance", s.min_move_distance);
  field("recovery_speed", s.recovery_speed);
  float degrees = glm::degrees(s.max_slope);
  field("max_slope_deg", degrees);
  s.max_slope = glm::radians(degrees);
  field("step_height", s.step_height);
  field("step_min_forward", s.step_min_forward);
  degrees = glm::degrees(s.step_max_wall_angle);
  field("step_max_wall_angle_deg", degrees);
  s.step_max_wall_angle = glm::radians(degrees);
  field("floor_snap_distance", s.floor_snap_distance);
  field("max_iterations", s.max_iterations);
  std::string method = method_name(s.toi_method);
  field("toi_method", method);
  if (method == "bisection") {
    s.toi_method = ToiMethod::bisection;
  } else if (method == "conservative_advancement") {
    s.toi_method = ToiMethod::conservative_advancement;
  } else {
    throw Error("settings file " + file.string() + ": toi_method \"" + method +
                "\" is neither conservative_advancement nor bisection");
  }
  field("toi_tolerance", s.toi_tolerance);
  field("layer_mask", s.layer_mask);
  return s;
}

} // namespace glide::viewer
