// Every case file under tests/cases/ run again with its whole scene moved far from the origin:
// 1e4 m and 1e5 m out, and by shifts that are no multiple of anything. A case computes relative
// to an origin near its scene, so every answer must be the unshifted one (positions less the
// shift) within 1e-4 m, where float coordinates at 1e5 m would be 7.8 mm apart.

#include "work_files.hpp"

#include <doctest/doctest.h>

#include <glide/cases/cases.hpp>
#include <glide/cases/json.hpp>

#include <glm/ext/vector_double3.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {
using glide::test::k_tests_dir;
using glide::test::k_work_dir;

using glide::cases::Json;

bool is_position(const std::string& field) {
  return field == "position" || field == "point" || field == "point_a" || field == "point_b";
}

void shift_position(Json& object, const char* key, const glm::dvec3& shift) {
  glm::dvec3 p(0.0);
  if (object.contains(key))
    for (int i = 0; i < 3; ++i) p[i] = object[key][static_cast<std::size_t>(i)].get<double>();
  p += shift;
  object[key] = Json::array({p.x, p.y, p.z});
}

// Files a shape names are found from the shifted file's folder.
void absolute_paths(Json& shape, const std::filesystem::path& dir) {
  if (shape.is_object() && shape.contains("path"))
    shape["path"] = (dir / shape["path"].get<std::string>()).lexically_normal().string();
}

// The same scene moved by `shift`: every placement in the world, the character's start, the
// sweep's pose and the ray's origin (shapes move with the instances that place them).
Json shifted(Json file, const glm::dvec3& shift, const std::filesystem::path& dir) {
  for (Json& c : file["cases"]) {
    if (c.contains("shapes"))
      for (auto& [name, shape] : c["shapes"].items()) absolute_paths(shape, dir);
    if (c.contains("world"))
      for (Json& instance : c["world"]) {
        shift_position(instance, "position", shift);
        absolute_paths(instance["shape"], dir);
        if (instance.contains("motion") && instance["motion"].contains("pivot"))
          shift_position(instance["motion"], "pivot", shift);
      }
    Json& query = c["query"];
    const std::string type = query["type"].get<std::string>();
    if (type == "move") shift_position(query["start"], "position", shift);
    if (type == "sweep") shift_position(query, "position", shift);
    if (type == "raycast") shift_position(query, "origin", shift);
    // The expected positions move with the scene.
    for (auto& [key, value] : c["expect"].items()) {
      Json& v = value.is_object() ? value["value"] : value;
      std::string field = key;
      for (const char* bound : {"_at_least", "_at_most"})
        if (field.ends_with(bound)) field.resize(field.size() - std::string(bound).size());
      if (is_position(field)) {
        for (int i = 0; i < 3; ++i)
          v[static_cast<std::size_t>(i)] = v[static_cast<std::size_t>(i)].get<double>() + shift[i];
      } else if (field.size() > 2 && field[field.size() - 2] == '_' && is_position(field.substr(0, field.size() - 2))) {
        v = v.get<double>() + shift[field.back() - 'x'];
      } else if (field == "max_height") {
        v = v.get<double>() + shift.y;
      }
    }
  }
  return file;
}

std::vector<double> numbers(const std::string& text) {
  std::vector<double> out;
  const char* p = text.c_str();
  while (*p) {
    char* end = nullptr;
    const double v = std::strtod(p, &end);
    if (end != p) {
      out.push_back(v);
      p = end;
    } else {
      ++p;
    }
  }
  return out;
}

struct Worst {
  double difference = 0.0;
  std::string where;
};

// Compares every answer of `moved` with `home`'s (of the move queries only when `moves_only`);
// returns the largest difference found.
Worst compare(const std::vector<glide::CaseResult>& home, const std::vector<glide::CaseResult>& moved,
              const glm::dvec3& shift, bool moves_only) {
  Worst worst;
  REQUIRE(home.size() == moved.size());
  for (std::size_t i = 0; i < home.size(); ++i) {
    CAPTURE(home[i].name);
    REQUIRE(home[i].error.empty());
    // Shifted, the case still meets its expectations, which moved with it.
    CHECK_MESSAGE(moved[i].passed(), moved[i].line());
    const bool move = !home[i].actual.empty() && home[i].actual.front().first == "position";
    if (moves_only && !move) continue;
    REQUIRE(home[i].actual.size() == moved[i].actual.size());
    for (std::size_t k = 0; k < home[i].actual.size(); ++k) {
      const std::string& field = home[i].actual[k].first; // not bindings: CAPTURE captures them
      const std::string& text = home[i].actual[k].second;
      CAPTURE(field);
      REQUIRE(moved[i].actual[k].first == field);
      const std::vector<double> a = numbers(text), b = numbers(moved[i].actual[k].second);
      if (a.empty()) { // true, false, none, a piece's name
        CHECK(moved[i].actual[k].second == text);
        continue;
      }
      REQUIRE(a.size() == b.size());
      for (std::size_t j = 0; j < a.size(); ++j) {
        double expected = a[j];
        if (is_position(field)) expected += shift[static_cast<int>(j)];
        if (field == "max_height") expected += shift.y;
        const double d = std::abs(b[j] - expected);
        if (d > worst.difference) worst = {d, home[i].name + " " + field};
      }
    }
  }
  return worst;
}

} // namespace

TEST_CASE("every case gives the same answers with its scene moved up to 1e5 m from the origin (1e-4 m)") {
  // Shifts by multiples of 16 m leave a case in the same float coordinates: every answer
  // compares. Other shifts round the scene differently: every case still meets its
  // expectations, and every move (the controller's scenes) answers alike; witness points and
  // normals that are not unique (parallel faces, concentric shapes, a ray onto a grid vertex)
  // may then differ.
  struct Shift {
    glm::dvec3 by;
    bool on_grid;
  };
  const std::vector<Shift> shifts{{{1e4, 0.0, 1e4}, true},
                                  {{1e5, 0.0, 1e5}, true},
                                  {{-1e5, 0.0, 1e5}, true},
                                  {{12345.678, 0.0, -98765.4321}, false},
                                  {{1e5 + 3.3, 1e3 + 0.7, -1e5 - 5.1}, false}};
  std::filesystem::create_directories(k_work_dir);
  int files = 0, cases = 0;
  for (const auto& file : glide::find_case_files({k_tests_dir / "cases"})) {
    CAPTURE(file.string());
    const std::vector<glide::CaseResult> home = glide::run_case_file(file);
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    const Json document = glide::cases::parse_json(text.str(), file.string());
    for (const Shift& by : shifts) {
      const glm::dvec3& shift = by.by;
      const bool on_grid = by.on_grid;
      CAPTURE(shift.x);
      CAPTURE(shift.y);
      CAPTURE(shift.z);
      const auto moved_file = k_work_dir / ("shifted_" + file.filename().string());
      std::ofstream(moved_file, std::ios::binary | std::ios::trunc)
          << shifted(document, shift, file.parent_path()).dump(2);
      const Worst worst = compare(home, glide::run_case_file(moved_file), shift, !on_grid);
      CAPTURE(worst.where);
      CHECK(worst.difference <= 1e-4);
    }
    ++files;
    cases += static_cast<int>(home.size());
  }
  CHECK(files >= 8);
  CHECK(cases >= 130);
}

TEST_CASE("a scene 1e5 m out is computed near zero, and its far positions read and print exactly") {
  // A segment above a box, both 1e5 m out: the distance's points are written and read back in
  // double, so they are within the float steps near zero, not the 7.8 mm steps at 1e5 m.
  const std::string text = R"({"cases": [{
    "name": "far_distance",
    "world": [
      {"name": "box", "shape": {"type": "box", "half_extents": [1, 1, 1]}, "position": [100000.3, 0.1, -100000.7]},
      {"name": "seg", "shape": {"type": "segment", "a": [100000.2, 1.6, -100000.6], "b": [100000.5, 1.6, -100000.9]}}
    ],
    "query": {"type": "distance", "a": "seg", "b": "box"},
    "expect": {"distance": 0.5, "point_a_x_at_least": 100000.2, "point_a_x_at_most": 100000.5,
               "point_b_y": {"value": 1.1, "tol": 1e-6}}
  }]})";
  const auto path = k_work_dir / "far_distance.json";
  std::filesystem::create_directories(k_work_dir);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  const auto results = glide::run_case_file(path);
  REQUIRE(results.size() == 1);
  CHECK_MESSAGE(results[0].passed(), results[0].line());
  for (const auto& [field, value] : results[0].actual)
    if (field == "point_b") {
      const std::vector<double> p = numbers(value);
      REQUIRE(p.size() == 3);
      CHECK(p[1] == doctest::Approx(1.1).epsilon(1e-7));
      CHECK(p[0] >= 100000.2 - 1e-6);
      CHECK(p[0] <= 100000.5 + 1e-6);
    }
}

TEST_CASE("CaseRunOptions::shift moves every scene: all shipped cases pass 1e5 m out, and off-grid") {
  for (const glm::dvec3 shift : {glm::dvec3(1e5, 0, 1e5), glm::dvec3(-12345.678, 250.5, 98765.4321)}) {
    CAPTURE(shift.x);
    glide::CaseRunOptions options;
    options.shift = shift;
    const auto results = glide::run_cases({k_tests_dir / "cases"}, options);
    CHECK(results.size() >= 130);
    for (const auto& r : results) CHECK_MESSAGE(r.passed(), r.line());
  }
  glide::CaseRunOptions both;
  both.shift = {1.0, 0.0, 0.0};
  both.update = true;
  const auto refused = glide::run_case_file(k_tests_dir / "cases" / "sweeps.json", both);
  REQUIRE(refused.size() == 1);
  CHECK(refused[0].error.find("--update with a shift") != std::string::npos);
}
