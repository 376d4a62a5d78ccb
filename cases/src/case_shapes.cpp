#include "case_shapes.hpp"

#include <glide/error.hpp>
#include <glide/limits.hpp>
#include <glide/terrain/heightfield_loader.hpp>
#include <glide/world/triangle_mesh.hpp>

#include <glm/ext/quaternion_double.hpp>
#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace glide::cases {
namespace {

glm::quat rotation_from(Fields& f) {
  const auto euler = f.optional("euler_deg");
  const auto quat = f.optional("quat");
  if (euler && quat) quat->fail("give either \"euler_deg\" or \"quat\", not both");
  if (euler) {
    // Degrees about the fixed world axes, X first, then Y, then Z: R = Rz * Ry * Rx.
    const glm::vec3 deg = euler->vec3();
    const glm::vec3 rad = glm::radians(deg);
    const glm::quat qx = glm::angleAxis(rad.x, glm::vec3(1.f, 0.f, 0.f));
    const glm::quat qy = glm::angleAxis(rad.y, glm::vec3(0.f, 1.f, 0.f));
    const glm::quat qz = glm::angleAxis(rad.z, glm::vec3(0.f, 0.f, 1.f));
    return glm::normalize(qz * qy * qx);
  }
  if (quat) {
    if (quat->size() != 4) quat->fail("expected [w, x, y, z]");
    const glm::quat q{quat->element(0).real(), quat->element(1).real(), quat->element(2).real(),
                      quat->element(3).real()};
    const float len = glm::length(q);
    if (!(len > 1e-6f)) quat->fail("quaternion has zero length");
    // A unit quaternion (as record_case writes) is kept bit for bit so a replay is exact.
    return std::abs(len - 1.f) <= 1e-6f ? q : q / len;
  }
  return glm::quat(1.f, 0.f, 0.f, 0.f);
}

// Within this of zero or of the case's origin, a shape's points are read relative to it (m).
constexpr double k_near = 1024.0;

// The shape's points relative to zero, the case's origin or the grid point nearest their
// middle, whichever is near them (ShapeDef::offset).
void set_points(ShapeDef& s, const std::vector<Node>& nodes) {
  std::vector<glm::dvec3> global;
  for (const Node& n : nodes) global.push_back(n.global_position());
  glm::dvec3 lo = global[0], hi = global[0];
  for (const glm::dvec3& p : global) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  // Points written near zero or near the case's origin keep them as they are, less that
  // origin: a scene and the same scene shifted far out are then the same floats.
  const glm::dvec3 centre = 0.5 * (lo + hi), origin = nodes[0].where().origin;
  const auto distance = [](const glm::dvec3& d) { return std::max({std::abs(d.x), std::abs(d.y), std::abs(d.z)}); };
  const glm::dvec3 nearer = distance(centre - origin) < distance(centre) ? origin : glm::dvec3(0.0);
  s.offset = distance(centre - nearer) <= k_near ? nearer : grid_point(centre);
  s.points.clear();
  for (std::size_t i = 0; i < global.size(); ++i) {
    s.points.emplace_back(global[i] - s.offset);
    if (!limits::in_range(s.points.back()))
      nodes[i].fail("expected coordinates within +-" + limits::number_text(limits::k_max_coordinate) +
                    " m of the shape's other points, got " + nodes[i].json().dump());
  }
}

// A mesh's vertices (as a hull's points), triangles of three vertex indices and flat angle,
// checked by building the TriangleMesh the world will hold, whose errors name the triangle.
void parse_mesh(Fields& f, ShapeDef& s) {
  const Node v = f.required("vertices");
  if (v.size() < 3) v.fail("a mesh needs at least three vertices");
  std::vector<Node> vertices;
  for (std::size_t i = 0; i < v.size(); ++i) vertices.push_back(v.element(i));
  set_points(s, vertices);
  const Node t = f.required("triangles");
  if (t.size() == 0) t.fail("a mesh needs at least one triangle");
  const int last = static_cast<int>(std::min<std::size_t>(s.points.size(), 1u << 30)) - 1;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const Node tri = t.element(i);
    if (tri.size() != 3) tri.fail("expected [i, j, k], three vertex indices");
    std::array<std::uint32_t, 3> corners{};
    for (std::size_t k = 0; k < 3; ++k) corners[k] = static_cast<std::uint32_t>(tri.element(k).integer(0, last));
    s.triangles.push_back(corners);
  }
  TriangleMeshSettings settings;
  if (const auto a = f.optional("flat_angle_deg")) settings.flat_angle = glm::radians(a->at_most(89.f));
  s.flat_angle = settings.flat_angle;
  try {
    (void)TriangleMesh(s.points, s.triangles, settings);
  } catch (const Error& e) {
    f.node().fail(e.what());
  }
}

} // namespace

gjk::Transform pose_from(Fields& f, const glm::dvec3& offset) {
  gjk::Transform t;
  t.rotation = rotation_from(f);
  const auto p = f.optional("position");
  const glm::dvec3 origin = f.node().where().origin;
  if (offset == glm::dvec3(0.0) && p) {
    t.translation = p->position(); // less the origin, rounded once
    return t;
  }
  const glm::dvec3 local =
      (p ? p->global_position() : glm::dvec3(0.0)) + f.node().where().shift + glm::dquat(t.rotation) * offset - origin;
  // Checked in double: a float cast of a number beyond float's range is undefined.
  if (!(std::max({std::abs(local.x), std::abs(local.y), std::abs(local.z)}) <=
        static_cast<double>(limits::k_max_coordinate)))
    (p ? *p : f.node())
        .fail("the shape is placed " + limits::vec_text(local) + " from the case's origin " + limits::vec_text(origin) +
              ", beyond the valid coordinates (|v| <= " + limits::number_text(limits::k_max_coordinate) + " m)");
  t.translation = glm::vec3(local);
  return t;
}

glm::dvec3 grid_point(const glm::dvec3& p) {
  const auto snap = [](double v) { return 16.0 * std::round(v / 16.0); };
  return {snap(p.x), snap(p.y), snap(p.z)};
}

namespace {

// A position as the scan reads it: three finite numbers in the global range, else nothing (the
// parse that follows reports what is wrong with it).
std::optional<glm::dvec3> scan_position(const Json* j) {
  if (!j || !j->is_array() || j->size() != 3) return std::nullopt;
  glm::dvec3 v;
  for (int i = 0; i < 3; ++i) {
    if (!(*j)[static_cast<std::size_t>(i)].is_number()) return std::nullopt;
    v[i] = (*j)[static_cast<std::size_t>(i)].get<double>();
    if (!limits::in_global_range(v[i])) return std::nullopt;
  }
  return v;
}

const Json* scan_field(const Json* j, const char* key) {
  if (!j || !j->is_object()) return nullptr;
  const auto it = j->find(key);
  return it == j->end() ? nullptr : &*it;
}

std::optional<glm::dvec3> scan_shape_point(const Json& case_json, const Json* shape) {
  if (shape && shape->is_string())
    shape = scan_field(scan_field(&case_json, "shapes"), shape->get<std::string>().c_str());
  if (const auto a = scan_position(scan_field(shape, "a"))) return a;
  const Json* points = scan_field(shape, "points");
  if (points && points->is_array() && !points->empty()) return scan_position(&(*points)[0]);
  return std::nullopt;
}

} // namespace

glm::dvec3 case_origin(const Json& case_json, const glm::dvec3& shift) {
  if (const auto written = scan_position(scan_field(&case_json, "origin"))) return *written + shift;
  const Json* query = scan_field(&case_json, "query");
  std::optional<glm::dvec3> first = scan_position(scan_field(scan_field(query, "start"), "position"));
  if (!first) first = scan_position(scan_field(query, "position"));
  if (!first) first = scan_position(scan_field(query, "origin"));
  if (const Json* world = scan_field(&case_json, "world"); !first && world && world->is_array()) {
    for (const Json& instance : *world)
      if ((first = scan_position(scan_field(&instance, "position")))) break;
    if (!first && !world->empty()) first = scan_shape_point(case_json, scan_field(&(*world)[0], "shape"));
  }
  return first ? grid_point(*first + shift) : grid_point(shift);
}

ShapeDef parse_shape(const Node& node, const std::filesystem::path& base_dir) {
  Fields f(node);
  ShapeDef s;
  s.json_path = node.path();
  const Node type_node = f.required("type");
  const std::string type = type_node.string();
  std::vector<std::string> accepted{"type"};
  if (type == "point") {
    s.kind = ShapeDef::Kind::point;
    s.points = {glm::vec3(0.f)};
  } else if (type == "segment") {
    s.kind = ShapeDef::Kind::segment;
    set_points(s, {f.required("a"), f.required("b")});
    accepted = {"type", "a", "b"};
  } else if (type == "triangle") {
    s.kind = ShapeDef::Kind::triangle;
    set_points(s, {f.required("a"), f.required("b"), f.required("c")});
    accepted = {"type", "a", "b", "c"};
  } else if (type == "box") {
    s.kind = ShapeDef::Kind::box;
    const Node h = f.required("half_extents");
    s.half_extents = h.vec3();
    if (!(s.half_extents.x >= 0.f && s.half_extents.y >= 0.f && s.half_extents.z >= 0.f))
      h.fail("half extents must be >= 0");
    if (std::max({s.half_extents.x, s.half_extents.y, s.half_extents.z}) > 0.5f * limits::k_max_piece_size)
      h.fail("half extents must be at most " + limits::number_text(0.5f * limits::k_max_piece_size) +
             " m (the largest piece), got " + h.json().dump());
    accepted = {"type", "half_extents"};
  } else if (type == "sphere") {
    s.kind = ShapeDef::Kind::sphere;
    s.radius = f.required("radius").at_most(0.5f * limits::k_max_piece_size);
    accepted = {"type", "radius"};
  } else if (type == "capsule") {
    s.kind = ShapeDef::Kind::capsule;
    set_points(s, {f.required("a"), f.required("b")});
    s.radius = f.required("radius").at_most(0.5f * limits::k_max_piece_size);
    accepted = {"type", "a", "b", "radius"};
  } else if (type == "hull") {
    s.kind = ShapeDef::Kind::hull;
    const Node p = f.required("points");
    if (p.size() == 0) p.fail("a hull needs at least one point");
    std::vector<Node> points;
    for (std::size_t i = 0; i < p.size(); ++i) points.push_back(p.element(i));
    set_points(s, points);
    accepted = {"type", "points"};
  } else if (type == "mesh") {
    s.kind = ShapeDef::Kind::mesh;
    parse_mesh(f, s);
    accepted = {"type", "vertices", "triangles", "flat_angle_deg"};
  } else if (type == "obj") {
    s.kind = ShapeDef::Kind::obj;
    s.file = base_dir / f.required("path").string();
    if (const auto sc = f.optional("scale")) s.scale = sc->positive();
    if (const auto nc = f.optional("non_convex")) {
      const std::string policy = nc->string();
      if (policy != "error" && policy != "use_hull") nc->fail("expected \"error\" or \"use_hull\"");
      s.use_hull = policy == "use_hull";
    }
    accepted = {"type", "path", "scale", "non_convex"};
  } else if (type == "heightfield") {
    s.kind = ShapeDef::Kind::heightfield;
    accepted = {"type", "path", "rows", "columns", "heights", "cell_size", "height_scale", "height_offset"};
    if (const auto path = f.optional("path")) {
      s.file = base_dir / path->string();
      if (f.has("heights")) node.fail("give either \"path\" or \"heights\", not both");
      // A raw float32 file does not know its size: rows and columns come with it, and only with it.
      if (is_raw_heightmap(s.file)) {
        s.rows = f.required("rows").integer(2, Heightfield::k_max_dimension);
        s.columns = f.required("columns").integer(2, Heightfield::k_max_dimension);
      } else {
        for (const char* raw_key : {"rows", "columns"})
          if (const auto n = f.optional(raw_key))
            n->fail(std::string("only a raw heightmap (.raw, .r32, .f32) or \"heights\" takes \"") + raw_key + "\"");
      }
    } else {
      s.rows = f.required("rows").integer(2, Heightfield::k_max_dimension);
      s.columns = f.required("columns").integer(2, Heightfield::k_max_dimension);
      const Node h = f.required("heights");
      if (h.size() > 0 && h.element(0).is_array()) {
        // One array per row (+z), each of `columns` heights (+x).
        if (h.size() != static_cast<std::size_t>(s.rows))
          h.fail("expected " + std::to_string(s.rows) + " rows, got " + std::to_string(h.size()));
        for (std::size_t r = 0; r < h.size(); ++r) {
          const std::vector<float> row = h.element(r).reals();
          if (row.size() != static_cast<std::size_t>(s.columns))
            h.element(r).fail("expected " + std::to_string(s.columns) + " heights, got " + std::to_string(row.size()));
          s.heights.insert(s.heights.end(), row.begin(), row.end());
        }
      } else {
        s.heights = h.reals();
      }
      if (s.heights.size() != static_cast<std::size_t>(s.rows) * static_cast<std::size_t>(s.columns))
        h.fail("expected rows * columns = " + std::to_string(s.rows * s.columns) + " heights, got " +
               std::to_string(s.heights.size()));
    }
    if (const auto c = f.optional("cell_size")) {
      s.cell_size = c->vec2();
      if (!(s.cell_size.x > 0.f && s.cell_size.y > 0.f)) c->fail("cell size must be > 0");
    }
    if (const auto h = f.optional("height_scale")) s.height_scale = h->real();
    if (const auto h = f.optional("height_offset")) s.height_offset = h->real();
  } else {
    type_node.fail("unknown shape type \"" + type +
                   "\" (one of: point, segment, triangle, box, sphere, capsule, hull, obj, heightfield, mesh)");
  }
  f.done(accepted);
  return s;
}

} // namespace glide::cases
