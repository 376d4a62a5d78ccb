#include "case_shapes.hpp"

#include <glide/limits.hpp>
#include <glide/terrain/heightfield_loader.hpp>

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
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

} // namespace

gjk::Transform pose_from(Fields& f) {
  gjk::Transform t;
  if (const auto p = f.optional("position")) t.translation = p->position();
  t.rotation = rotation_from(f);
  return t;
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
    s.points = {f.required("a").position(), f.required("b").position()};
    accepted = {"type", "a", "b"};
  } else if (type == "triangle") {
    s.kind = ShapeDef::Kind::triangle;
    s.points = {f.required("a").position(), f.required("b").position(), f.required("c").position()};
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
    s.points = {f.required("a").position(), f.required("b").position()};
    s.radius = f.required("radius").at_most(0.5f * limits::k_max_piece_size);
    accepted = {"type", "a", "b", "radius"};
  } else if (type == "hull") {
    s.kind = ShapeDef::Kind::hull;
    const Node p = f.required("points");
    s.points = p.points();
    if (s.points.empty()) p.fail("a hull needs at least one point");
    accepted = {"type", "points"};
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
                   "\" (one of: point, segment, triangle, box, sphere, capsule, hull, obj, heightfield)");
  }
  f.done(accepted);
  return s;
}

} // namespace glide::cases
