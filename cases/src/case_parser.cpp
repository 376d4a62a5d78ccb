#include "case_parser.hpp"

#include "case_move_parser.hpp"
#include "case_shapes.hpp"

#include <glide/cases/piece_path_json.hpp>
#include <glide/cases/settings_json.hpp>

#include <glide/error.hpp>
#include <glide/limits.hpp>

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace glide::cases {
namespace {

const std::vector<std::string> k_pose_fields{"position", "euler_deg", "quat"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

struct ShapeTable {
  std::map<std::string, ShapeDef> by_name;
};

/// A shape given inline (an object) or by name from the case's "shapes".
ShapeDef shape_ref(const Node& node, const ShapeTable& table, const std::filesystem::path& base_dir) {
  if (node.is_string()) {
    const std::string name = node.string();
    const auto it = table.by_name.find(name);
    if (it == table.by_name.end()) node.fail("no shape named \"" + name + "\" in \"shapes\"");
    return it->second;
  }
  return parse_shape(node, base_dir);
}

Instance parse_instance(const Node& node, std::size_t index, const ShapeTable& table,
                        const std::filesystem::path& base_dir) {
  Fields f(node);
  Instance inst;
  const Node shape = f.required("shape");
  inst.shape = shape_ref(shape, table, base_dir);
  if (const auto n = f.optional("name"))
    inst.name = n->string();
  else if (shape.is_string())
    inst.name = shape.string();
  else
    inst.name = "piece" + std::to_string(index);
  inst.transform = pose_from(f, inst.shape.offset);
  inst.shape.offset = glm::dvec3(0.0); // now in the transform
  if (inst.shape.kind == ShapeDef::Kind::heightfield && inst.transform.rotation != glm::quat(1.f, 0.f, 0.f, 0.f))
    node.fail("a heightfield can be moved with \"position\" but not rotated");
  if (const auto m = f.optional("motion")) {
    if (!inst.shape.convex())
      m->fail(std::string("only a convex piece can move; \"") + inst.name + "\" is " +
              (inst.shape.kind == ShapeDef::Kind::heightfield ? "a heightfield (the terrain)"
               : inst.shape.kind == ShapeDef::Kind::mesh      ? "a triangle mesh, which is static"
                                                              : "an OBJ level"));
    inst.motion = read_piece_path(*m);
    inst.motion_path = m->path();
  }
  f.done(with({"name", "shape", "motion"}, k_pose_fields));
  return inst;
}

/// "settings": SweepSettings fields (method, tolerance, max_iterations, tie_distance,
/// ignore_separating) over their defaults; a sweep may name its method beside them instead.
void parse_sweep_settings(Fields& query, Query& q, bool method_beside) {
  const fields::Table<SweepSettings> table = sweep_settings_table();
  const auto method = method_beside ? query.optional("method") : std::nullopt;
  if (method) read_field(*method, fields::row(table, "method"), q.sweep);
  const auto node = query.optional("settings");
  if (!node) return;
  if (method && Fields(*node).has("method")) method->fail("the method is given twice (also in \"settings\")");
  read_settings(*node, table, q.sweep);
}

const std::map<std::string, QueryType> k_query_types{
    {"distance", QueryType::distance}, {"intersect", QueryType::intersect}, {"penetration", QueryType::penetration},
    {"sweep", QueryType::sweep},       {"raycast", QueryType::raycast},     {"move", QueryType::move}};

Query parse_query(const Node& node, const std::vector<Instance>& world, const ShapeTable& table,
                  const std::filesystem::path& base_dir) {
  Fields f(node);
  Query q;
  const Node type_node = f.required("type");
  const std::string type = type_node.string();
  const auto it = k_query_types.find(type);
  if (it == k_query_types.end())
    type_node.fail("unknown query type \"" + type +
                   "\" (one of: distance, intersect, penetration, sweep, raycast, move)");
  q.type = it->second;
  if (q.type == QueryType::sweep || q.type == QueryType::raycast || q.type == QueryType::move) {
    // These run against a glide::World, whose pieces are convex polytopes.
    int terrains = 0;
    for (std::size_t i = 0; i < world.size(); ++i) {
      const ShapeDef::Kind kind = world[i].shape.kind;
      if (kind == ShapeDef::Kind::sphere || kind == ShapeDef::Kind::capsule)
        type_node.fail("a " + type + " runs against a World, whose pieces are polytopes: world instance \"" +
                       world[i].name + "\" is a " + (kind == ShapeDef::Kind::sphere ? "sphere" : "capsule"));
      if (kind == ShapeDef::Kind::heightfield && ++terrains > 1)
        type_node.fail("a World holds one heightfield; \"" + world[i].name + "\" is a second one");
    }
  }
  if (q.type != QueryType::move)
    for (const auto& inst : world)
      if (inst.motion)
        fail_at(node.where(), inst.motion_path,
                "a motion is only played by a move query; this is a " + type + " query");
  switch (q.type) {
  case QueryType::distance:
  case QueryType::intersect:
  case QueryType::penetration: {
    for (const char* key : {"a", "b"}) {
      const Node n = f.required(key);
      const std::string name = n.string();
      const Instance* found = nullptr;
      for (const auto& inst : world)
        if (inst.name == name) found = &inst;
      if (!found) n.fail("no world instance named \"" + name + "\"");
      if (!found->shape.convex()) n.fail("\"" + name + "\" is not a convex shape; " + type + " needs two");
      (key[0] == 'a' ? q.a : q.b) = name;
    }
    f.done({"type", "a", "b"});
    break;
  }
  case QueryType::sweep: {
    const Node c = f.required("capsule");
    q.capsule = shape_ref(c, table, base_dir);
    if (q.capsule.kind != ShapeDef::Kind::capsule) c.fail("a sweep moves a capsule");
    q.pose = pose_from(f, q.capsule.offset);
    q.capsule.offset = glm::dvec3(0.0);
    q.motion = f.required("motion").vec3();
    parse_sweep_settings(f, q, true);
    f.done(with({"type", "capsule", "motion", "method", "settings"}, k_pose_fields));
    break;
  }
  case QueryType::raycast: {
    q.origin = f.required("origin").position();
    const Node d = f.required("direction");
    const glm::vec3 dir = d.vec3();
    if (!(glm::length(dir) > 1e-12f)) d.fail("direction has zero length");
    q.direction = glm::normalize(dir);
    q.max_distance = f.required("max_distance").positive();
    parse_sweep_settings(f, q, false);
    f.done({"type", "origin", "direction", "max_distance", "settings"});
    break;
  }
  case QueryType::move:
    q.move = parse_move(f);
    if (!q.move.relative_to.empty()) {
      const Node n = *f.optional("relative_to");
      const auto found = std::find_if(world.begin(), world.end(),
                                      [&](const Instance& inst) { return inst.name == q.move.relative_to; });
      if (found == world.end()) n.fail("no world instance named \"" + q.move.relative_to + "\"");
      if (!found->shape.convex() && found->shape.kind != ShapeDef::Kind::mesh)
        n.fail("\"" + q.move.relative_to + "\" is not a piece with one frame");
    }
    f.done({"type", "controller", "start", "dt", "gravity", "jump_speed", "keep_ground_velocity", "relative_to",
            "frames"});
    break;
  }
  return q;
}

// `up`: the move's up axis, along which a shifted scene's heights move.
Expectation parse_expectation(const std::string& key, const Node& node, QueryType type, double default_tol,
                              const glm::vec3& up) {
  Expectation e;
  e.key = key;
  e.field = key;
  if (key.ends_with("_at_least")) {
    e.kind = Expectation::Kind::at_least;
    e.field = key.substr(0, key.size() - 9);
  } else if (key.ends_with("_at_most")) {
    e.kind = Expectation::Kind::at_most;
    e.field = key.substr(0, key.size() - 8);
  }
  const FieldSpec* spec = nullptr;
  for (const auto& s : fields_of(type))
    if (e.field == s.name) spec = &s;
  // One component of a vector field reads as a number: "position_y_at_most".
  static const FieldSpec component{"component", ValueKind::number};
  static const FieldSpec coordinate{"coordinate", ValueKind::number, true};
  std::string base;
  int axis = 0;
  if (!spec && split_component(e.field, base, axis))
    for (const auto& s : fields_of(type))
      if (base == s.name && (s.kind == ValueKind::vector || s.kind == ValueKind::position))
        spec = s.kind == ValueKind::position ? &coordinate : &component;
  if (!spec || (e.kind != Expectation::Kind::equal && spec->kind != ValueKind::number)) {
    std::string list;
    bool vectors = false;
    for (const auto& s : fields_of(type)) {
      list += (list.empty() ? "" : ", ") + std::string(s.name);
      if (s.kind == ValueKind::number) list += std::string(", ") + s.name + "_at_least, " + s.name + "_at_most";
      vectors = vectors || s.kind == ValueKind::vector || s.kind == ValueKind::position;
    }
    if (vectors) list += "; a vector's component as <field>_x, _y or _z, with the same bounds";
    node.fail(std::string("unknown expectation \"") + key + "\" for a " + query_type_name(type) +
              " query (accepted: " + list + ")");
  }
  // Bounds default to no slack; equalities to the case tolerance.
  e.tolerance = e.kind == Expectation::Kind::equal ? default_tol : 0.0;
  Node value = node;
  if (node.is_object() && spec->kind != ValueKind::boolean && spec->kind != ValueKind::text) {
    Fields f(node);
    value = f.required("value");
    if (const auto t = f.optional("tol")) {
      e.tolerance = t->number();
      if (e.tolerance < 0.0) t->fail("tolerance must be >= 0");
      e.tolerance_written = true;
    }
    f.done({"value", "tol"});
  }
  if (spec->kind == ValueKind::boolean || spec->kind == ValueKind::text) e.tolerance = 0.0; // exact
  switch (spec->kind) {
  case ValueKind::boolean:
    e.expected = value.boolean();
    break;
  case ValueKind::number:
    e.expected = value.number();
    e.global = spec->global;
    if (e.global && !limits::in_global_range(value.number()))
      value.fail("expected a coordinate within +-" + limits::number_text(limits::k_max_global_coordinate) + " m");
    if (e.global) { // a coordinate moves with the scene
      const glm::dvec3& shift = node.where().shift;
      e.expected = value.number() + (spec == &coordinate ? shift[axis] : glm::dot(shift, glm::dvec3(up)));
    }
    break;
  case ValueKind::vector:
    e.expected = value.vec3();
    break;
  case ValueKind::position:
    e.expected = Point{value.where().origin, value.position()};
    break;
  case ValueKind::text:
    e.expected = value.string();
    break;
  }
  return e;
}

Case parse_case(const Node& node, std::size_t index, Where& where, const std::filesystem::path& base_dir) {
  Fields f(node);
  Case c;
  c.index = index;
  where.case_name = std::string("#").append(std::to_string(index)); // until its name is known
  c.name = f.required("name").string();
  where.case_name = c.name;
  c.origin = where.origin = case_origin(node.json(), where.shift);
  if (const auto d = f.optional("description"); d && !d->json().is_string()) d->fail("expected a string");
  if (const auto t = f.optional("tolerance")) {
    c.tolerance = t->number();
    if (c.tolerance < 0.0) t->fail("tolerance must be >= 0");
  }
  if (const auto o = f.optional("origin")) o->global_position(); // taken by case_origin; checked here
  ShapeTable table;
  if (const auto shapes = f.optional("shapes")) {
    Fields sf(*shapes);
    for (const auto& [name, value] : shapes->json().items())
      table.by_name[name] = parse_shape(*sf.optional(name), base_dir);
  }
  if (const auto world = f.optional("world")) {
    std::set<std::string> names;
    for (std::size_t i = 0; i < world->size(); ++i) {
      Instance inst = parse_instance(world->element(i), i, table, base_dir);
      if (!names.insert(inst.name).second) world->element(i).fail("duplicate instance name \"" + inst.name + "\"");
      c.world.push_back(std::move(inst));
    }
  }
  c.query = parse_query(f.required("query"), c.world, table, base_dir);
  const Node expect = f.required("expect");
  Fields ef(expect);
  for (const auto& [key, value] : expect.json().items())
    c.expect.push_back(parse_expectation(key, *ef.optional(key), c.query.type, c.tolerance, c.query.move.settings.up));
  if (c.expect.empty()) expect.fail("a case must expect something");
  if (c.query.type == QueryType::move && c.query.move.relative_to.empty())
    for (const auto& e : c.expect)
      if (e.field == "relative_drift")
        ef.optional(e.key)->fail(
            "relative_drift is measured in a piece's frame: name it with \"relative_to\" in the query");
  f.done({"name", "description", "tolerance", "origin", "shapes", "world", "query", "expect"});
  where.case_name.clear();
  where.origin = glm::dvec3(0.0);
  return c;
}

} // namespace

const char* query_type_name(QueryType type) {
  switch (type) {
  case QueryType::distance:
    return "distance";
  case QueryType::intersect:
    return "intersect";
  case QueryType::penetration:
    return "penetration";
  case QueryType::sweep:
    return "sweep";
  case QueryType::raycast:
    return "raycast";
  case QueryType::move:
    return "move";
  }
  return "?";
}

bool split_component(const std::string& field, std::string& base, int& axis) {
  if (field.size() < 3 || field[field.size() - 2] != '_') return false;
  const char c = field.back();
  if (c < 'x' || c > 'z') return false;
  base = field.substr(0, field.size() - 2);
  axis = c - 'x';
  return true;
}

const std::vector<FieldSpec>& fields_of(QueryType type) {
  using K = ValueKind;
  static const std::vector<FieldSpec> distance{
      {"distance", K::number}, {"point_a", K::position}, {"point_b", K::position}, {"normal", K::vector}};
  static const std::vector<FieldSpec> intersect{{"overlapping", K::boolean}};
  static const std::vector<FieldSpec> penetration{{"overlapping", K::boolean},
                                                  {"depth", K::number},
                                                  {"normal", K::vector},
                                                  {"point_a", K::position},
                                                  {"point_b", K::position}};
  static const std::vector<FieldSpec> sweep{{"hit", K::boolean},    {"fraction", K::number},
                                            {"point", K::position}, {"normal", K::vector},
                                            {"piece", K::text},     {"started_overlapped", K::boolean},
                                            {"triangle", K::number}};
  static const std::vector<FieldSpec> raycast{{"hit", K::boolean},   {"distance", K::number}, {"point", K::position},
                                              {"normal", K::vector}, {"piece", K::text},      {"triangle", K::number}};
  static const std::vector<FieldSpec> move{{"position", K::position},
                                           {"velocity", K::vector},
                                           {"ground", K::text},
                                           {"ground_normal", K::vector},
                                           {"max_penetration", K::number},
                                           {"max_frame_move", K::number},
                                           {"frames_in_air", K::number},
                                           {"ground_piece", K::text},
                                           {"ground_velocity", K::vector},
                                           {"inherited_velocity", K::vector},
                                           {"yaw", K::number},
                                           {"frames_off_ground", K::number},
                                           {"relative_drift", K::number},
                                           {"max_pushed", K::number},
                                           {"crushed", K::boolean},
                                           {"crushed_frames", K::number},
                                           {"penetration", K::number},
                                           {"max_static_penetration", K::number},
                                           {"max_height", K::number, true}};
  switch (type) {
  case QueryType::distance:
    return distance;
  case QueryType::intersect:
    return intersect;
  case QueryType::penetration:
    return penetration;
  case QueryType::sweep:
    return sweep;
  case QueryType::raycast:
    return raycast;
  case QueryType::move:
    return move;
  }
  return distance;
}

CaseFile parse_case_text(const std::string& text, const std::string& label, const std::filesystem::path& base_dir,
                         const glm::dvec3& shift) {
  CaseFile file;
  file.path = label;
  Where where{label, {}, glm::dvec3(0.0), shift};
  file.document = parse_json(text, label);
  const Node root(file.document, "", where);
  Fields f(root);
  const Node cases = f.required("cases");
  if (const auto d = f.optional("description"); d && !d->json().is_string()) d->fail("expected a string");
  f.done({"description", "cases"});
  if (cases.size() == 0) cases.fail("a case file needs at least one case");
  std::set<std::string> names;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    Case c = parse_case(cases.element(i), i, where, base_dir);
    if (!names.insert(c.name).second) {
      where.case_name = c.name;
      fail_at(where, cases.element(i).path() + "/name", "duplicate case name \"" + c.name + "\"");
    }
    file.cases.push_back(std::move(c));
  }
  return file;
}

CaseFile parse_case_file(const std::filesystem::path& path, const glm::dvec3& shift) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path.string() + ": cannot open the case file");
  std::ostringstream text;
  text << in.rdbuf();
  CaseFile file = parse_case_text(text.str(), path.string(), path.parent_path(), shift);
  file.path = path;
  return file;
}

} // namespace glide::cases
