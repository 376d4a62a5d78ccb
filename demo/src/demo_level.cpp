#include "demo_level.hpp"

#include <glide/cases/json.hpp>
#include <glide/cases/piece_path_json.hpp>
#include <glide/error.hpp>
#include <glide/world/gltf_level.hpp>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>

#ifndef GLIDE_DEMO_LEVELS_DIR
#define GLIDE_DEMO_LEVELS_DIR "demo/levels"
#endif

namespace glide::demo {
namespace {

namespace fs = std::filesystem;
using cases::Fields;
using cases::Node;

Expect expect_from(const Node& node) {
  const std::string s = node.string();
  if (s == "reach") return Expect::reach;
  if (s == "blocked") return Expect::blocked;
  if (s == "either") return Expect::either;
  node.fail("expected \"reach\", \"blocked\" or \"either\", got \"" + s + "\"");
}

// The fields of a waypoint over `defaults`; `to` is required of listed waypoints.
Waypoint read_waypoint(const Node& node, const Waypoint& defaults, bool needs_target) {
  Fields f(node);
  Waypoint w = defaults;
  if (const auto n = f.optional("name")) w.name = n->string();
  if (needs_target) w.target = f.required("to").position();
  if (const auto n = needs_target ? std::nullopt : f.optional("to")) w.target = n->position();
  if (const auto n = f.optional("speed")) {
    w.speed = n->positive();
    if (w.speed > k_max_tour_speed)
      n->fail("expected a speed of at most " + std::to_string(static_cast<int>(k_max_tour_speed)) + " m/s, got " +
              n->json().dump());
  }
  if (const auto n = f.optional("radius")) w.radius = n->positive();
  if (const auto n = f.optional("timeout")) w.timeout = n->at_most(k_max_leg_seconds);
  if (const auto n = f.optional("wait")) w.wait = n->at_most(k_max_leg_seconds);
  if (const auto n = f.optional("until")) w.until = n->at_most(k_max_leg_seconds);
  if (const auto n = f.optional("jump")) w.jump = n->boolean();
  if (const auto n = f.optional("expect")) w.expect = expect_from(*n);
  f.done({"name", "to", "speed", "radius", "timeout", "wait", "until", "jump", "expect"});
  return w;
}

std::string lower_extension(const fs::path& file) {
  std::string e = file.extension().string();
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

bool is_gltf(const fs::path& file) {
  const std::string e = lower_extension(file);
  return e == ".gltf" || e == ".glb";
}

// The pieces of an OBJ or glTF file, by extension, as one list of names and ids.
void load_geometry(DemoLevel& level) {
  if (!is_gltf(level.geometry_file)) {
    ObjLevelReport report = load_obj_level(level.world, level.geometry_file);
    level.pieces = std::move(report.pieces);
    level.warnings = std::move(report.warnings);
    return;
  }
  GltfLevelReport report = load_gltf_level(level.world, level.geometry_file);
  for (const GltfLevelPiece& p : report.pieces)
    level.pieces.push_back({p.name, 0, p.id, p.replaced_by_hull, p.convexity_error});
  for (const GltfLevelMesh& m : report.meshes) level.pieces.push_back({m.name, 0, m.id, false, 0.f});
  level.warnings = std::move(report.warnings);
}

} // namespace

bool is_geometry_file(const fs::path& file) { return is_gltf(file) || lower_extension(file) == ".obj"; }

fs::path default_level_file() { return fs::path(GLIDE_DEMO_LEVELS_DIR) / "demo.json"; }

TourScript load_tour_script(const fs::path& file) {
  const cases::Json root = cases::read_json_file(file, "tour script");
  const cases::Where where{file.string(), ""};
  Fields top(Node(root, "", where));
  TourScript script;
  script.file = file;
  if (const auto n = top.optional("description")) script.description = n->string();
  Waypoint defaults;
  if (const auto d = top.optional("defaults")) defaults = read_waypoint(*d, defaults, false);
  const Node list = top.required("waypoints");
  if (list.size() == 0) list.fail("expected a non-empty array");
  for (std::size_t i = 0; i < list.size(); ++i) {
    Waypoint d = defaults;
    d.name = "waypoint " + std::to_string(i);
    script.waypoints.push_back(read_waypoint(list.element(i), d, true));
  }
  top.done({"description", "defaults", "waypoints"});
  return script;
}

DemoLevel load_demo_level(const fs::path& given, const fs::path& script) {
  const bool geometry_only = is_geometry_file(given);
  const fs::path file = geometry_only ? default_level_file() : given;
  const cases::Json root = cases::read_json_file(file, "level description");
  const cases::Where where{file.string(), ""};
  const fs::path dir = file.parent_path();
  Fields top(Node(root, "", where));

  DemoLevel level;
  level.file = file;
  level.name = file.stem().string();
  if (const auto n = top.optional("name")) level.name = n->string();
  level.spawn = top.required("spawn").position();
  // "obj" or "gltf" names the pieces' file; its extension picks the reader.
  const auto obj = top.optional("obj");
  const auto gltf = top.optional("gltf");
  if (obj && gltf) gltf->fail("give \"obj\" or \"gltf\", not both");
  if (!obj && !gltf) top.node().fail("missing required field \"obj\" (or \"gltf\")");
  level.geometry_file = geometry_only ? given : dir / (obj ? *obj : *gltf).string();

  if (const auto terrain = top.optional("terrain")) {
    Fields t(*terrain);
    level.terrain_file = dir / t.required("file").string();
    HeightfieldLoadSettings& s = level.terrain_settings;
    if (const auto cell = t.optional("cell_size")) {
      const glm::vec2 c = cell->vec2();
      if (!(c.x > 0.f && c.y > 0.f)) cell->fail("must be positive, got " + cell->json().dump());
      s.cell_size = c;
    }
    if (const auto n = t.optional("origin")) s.origin = n->position();
    if (const auto n = t.optional("height_scale")) s.height_scale = n->real();
    if (const auto n = t.optional("height_offset")) s.height_offset = n->real();
    // A raw float32 file does not know its size: rows and columns come with it, and only with it.
    if (is_raw_heightmap(level.terrain_file)) {
      s.raw_rows = t.required("rows").integer(2, Heightfield::k_max_dimension);
      s.raw_columns = t.required("columns").integer(2, Heightfield::k_max_dimension);
    } else {
      for (const char* raw_key : {"rows", "columns"})
        if (const auto n = t.optional(raw_key))
          n->fail(std::string("only a raw heightmap (.raw, .r32, .f32) takes \"") + raw_key + "\"");
    }
    t.done({"file", "cell_size", "origin", "height_scale", "height_offset", "rows", "columns"});
  }

  // Kinematic pieces: an OBJ object each and its motion, resolved once the OBJ is loaded.
  struct Named {
    std::optional<Node> object;
    PiecePath path;
  };
  std::vector<Named> moving;
  if (const auto list = top.optional("moving_pieces")) {
    for (std::size_t i = 0; i < list->size(); ++i) {
      Fields m(list->element(i));
      Named named{m.required("object"), {}};
      (void)named.object->string();
      named.path = cases::read_piece_path(m.required("motion"));
      m.done({"object", "motion"});
      moving.push_back(std::move(named));
    }
  }

  const auto script_node = top.optional("script");
  const std::string script_name = script_node ? script_node->string() : std::string();
  top.done({"name", "spawn", "obj", "gltf", "terrain", "moving_pieces", "script"});
  fs::path script_file = script;
  if (script_file.empty() && !script_name.empty()) script_file = dir / script_name;
  if (script_file.empty()) top.node().fail("missing field \"script\" (or give a script file on the command line)");

  // The heavy parts last, so a typo in the description fails fast.
  load_geometry(level);
  for (const Named& named : moving) {
    const std::string name = named.object->string();
    const auto piece =
        std::find_if(level.pieces.begin(), level.pieces.end(), [&](const ObjLevelPiece& p) { return p.name == name; });
    if (piece == level.pieces.end())
      named.object->fail("no object \"" + name + "\" in " + level.geometry_file.filename().string());
    for (const MovingPiece& earlier : level.moving)
      if (earlier.id == piece->id) named.object->fail("object \"" + name + "\" is already moving");
    level.moving.push_back({name, piece->id, level.world.transform(piece->id), named.path});
  }
  place_pieces(level.world, level.moving, 0.f);
  if (!level.terrain_file.empty())
    level.world.set_terrain(load_heightfield(level.terrain_file, level.terrain_settings));
  level.world.update();
  level.script = load_tour_script(script_file);
  return level;
}

} // namespace glide::demo
