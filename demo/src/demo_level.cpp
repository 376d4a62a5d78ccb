#include "demo_level.hpp"

#include <glide/error.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <set>

#ifndef GLIDE_DEMO_LEVELS_DIR
#define GLIDE_DEMO_LEVELS_DIR "demo/levels"
#endif

namespace glide::demo {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

Json read_json(const fs::path& file, const char* what) {
  std::ifstream in(file);
  if (!in) throw Error(file.string() + ": cannot open " + what);
  try {
    return Json::parse(in);
  } catch (const Json::exception& e) {
    throw Error(file.string() + ": malformed JSON (" + e.what() + ")");
  }
}

// A JSON object read field by field; errors name the file and the path to the field, and
// fields nobody asked for are reported (a misspelt "sped" must not pass silently).
class Fields {
public:
  Fields(const Json& node, std::string file, std::string where)
      : node_(node), file_(std::move(file)), where_(std::move(where)) {
    if (!node_.is_object()) fail(where_, "expected an object");
  }

  [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
    throw Error(file_ + ": " + field + ": " + problem);
  }
  std::string path(const std::string& key) const { return where_.empty() ? key : where_ + "." + key; }

  const Json* find(const std::string& key) {
    used_.insert(key);
    const auto it = node_.find(key);
    return it == node_.end() ? nullptr : &*it;
  }
  const Json& require(const std::string& key) {
    const Json* v = find(key);
    if (!v) fail(path(key), "missing");
    return *v;
  }

  float number(const std::string& key, float fallback, float min_value, bool allow_equal_min = true) {
    const Json* v = find(key);
    if (!v) return fallback;
    return number_of(*v, path(key), min_value, allow_equal_min);
  }
  float number_of(const Json& v, const std::string& at, float min_value, bool allow_equal_min) const {
    if (!v.is_number()) fail(at, "expected a number, got " + v.dump());
    const double d = v.get<double>();
    if (!std::isfinite(d) || d < min_value || (!allow_equal_min && d == min_value))
      fail(at, "value " + v.dump() + " out of range (" + (allow_equal_min ? ">= " : "> ") + std::to_string(min_value) +
                   ")");
    return static_cast<float>(d);
  }
  std::string string(const std::string& key, const std::string& fallback) {
    const Json* v = find(key);
    if (!v) return fallback;
    if (!v->is_string()) fail(path(key), "expected a string, got " + v->dump());
    return v->get<std::string>();
  }
  bool boolean(const std::string& key, bool fallback) {
    const Json* v = find(key);
    if (!v) return fallback;
    if (!v->is_boolean()) fail(path(key), "expected true or false, got " + v->dump());
    return v->get<bool>();
  }
  template <int N>
  std::array<float, N> numbers(const Json& v, const std::string& at) const {
    if (!v.is_array() || v.size() != N) fail(at, "expected " + std::to_string(N) + " numbers, got " + v.dump());
    std::array<float, N> out{};
    for (int i = 0; i < N; ++i)
      out[static_cast<std::size_t>(i)] = number_of(v[static_cast<std::size_t>(i)], at, -1e30f, true);
    return out;
  }
  glm::vec3 vec3(const std::string& key) {
    const auto a = numbers<3>(require(key), path(key));
    return {a[0], a[1], a[2]};
  }

  /// Throws for a field that was never read.
  void no_others() const {
    for (const auto& [key, value] : node_.items())
      if (!used_.contains(key)) fail(path(key), "unknown field");
  }

private:
  const Json& node_;
  std::string file_;
  std::string where_;
  std::set<std::string> used_;
};

Expect expect_from(const std::string& s, const Fields& f, const std::string& at) {
  if (s == "reach") return Expect::reach;
  if (s == "blocked") return Expect::blocked;
  if (s == "either") return Expect::either;
  f.fail(at, "expected \"reach\", \"blocked\" or \"either\", got \"" + s + "\"");
}

Waypoint read_waypoint(Fields& f, const Waypoint& defaults) {
  Waypoint w = defaults;
  w.name = f.string("name", w.name);
  if (f.find("to")) w.target = f.vec3("to");
  w.speed = f.number("speed", w.speed, 0.f, false);
  w.radius = f.number("radius", w.radius, 0.f, false);
  w.timeout = f.number("timeout", w.timeout, 0.f);
  w.wait = f.number("wait", w.wait, 0.f);
  w.jump = f.boolean("jump", w.jump);
  if (f.find("expect")) w.expect = expect_from(f.string("expect", ""), f, f.path("expect"));
  f.no_others();
  return w;
}

} // namespace

fs::path default_level_file() { return fs::path(GLIDE_DEMO_LEVELS_DIR) / "demo.json"; }

TourScript load_tour_script(const fs::path& file) {
  const Json root = read_json(file, "tour script");
  const std::string name = file.string();
  Fields top(root, name, "");
  TourScript script;
  script.file = file;
  script.description = top.string("description", "");
  Waypoint defaults;
  if (const Json* d = top.find("defaults")) {
    Fields f(*d, name, "defaults");
    defaults = read_waypoint(f, defaults);
  }
  const Json& list = top.require("waypoints");
  if (!list.is_array() || list.empty()) top.fail("waypoints", "expected a non-empty array");
  for (std::size_t i = 0; i < list.size(); ++i) {
    Waypoint d = defaults;
    d.name = "waypoint " + std::to_string(i);
    Fields f(list[i], name, "waypoints[" + std::to_string(i) + "]");
    f.require("to");
    script.waypoints.push_back(read_waypoint(f, d));
  }
  top.no_others();
  return script;
}

DemoLevel load_demo_level(const fs::path& file, const fs::path& script) {
  const Json root = read_json(file, "level description");
  const std::string name = file.string();
  const fs::path dir = file.parent_path();
  Fields top(root, name, "");

  DemoLevel level;
  level.file = file;
  level.name = top.string("name", file.stem().string());
  level.spawn = top.vec3("spawn");

  const Json& obj = top.require("obj");
  if (!obj.is_string()) top.fail("obj", "expected a file name");
  level.obj_file = dir / obj.get<std::string>();

  if (const Json* terrain = top.find("terrain")) {
    Fields t(*terrain, name, "terrain");
    const Json& tf = t.require("file");
    if (!tf.is_string()) t.fail("terrain.file", "expected a file name");
    level.terrain_file = dir / tf.get<std::string>();
    HeightfieldLoadSettings& s = level.terrain_settings;
    if (const Json* cell = t.find("cell_size")) {
      const auto c = t.numbers<2>(*cell, "terrain.cell_size");
      if (!(c[0] > 0.f && c[1] > 0.f)) t.fail("terrain.cell_size", "must be positive, got " + cell->dump());
      s.cell_size = {c[0], c[1]};
    }
    if (t.find("origin")) s.origin = t.vec3("origin");
    s.height_scale = t.number("height_scale", s.height_scale, -1e30f);
    s.height_offset = t.number("height_offset", s.height_offset, -1e30f);
    t.no_others();
  }

  const std::string script_name = top.string("script", "");
  top.no_others();
  fs::path script_file = script;
  if (script_file.empty() && !script_name.empty()) script_file = dir / script_name;
  if (script_file.empty()) top.fail("script", "missing (or give a script file on the command line)");

  // The heavy parts last, so a typo in the description fails fast.
  const ObjLevelReport report = load_obj_level(level.world, level.obj_file);
  level.pieces = report.pieces;
  level.warnings = report.warnings;
  if (!level.terrain_file.empty())
    level.world.set_terrain(load_heightfield(level.terrain_file, level.terrain_settings));
  level.world.update();
  level.script = load_tour_script(script_file);
  return level;
}

} // namespace glide::demo
