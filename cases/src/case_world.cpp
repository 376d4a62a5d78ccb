#include "case_world.hpp"

#include <glide/controller/controller.hpp>
#include <glide/controller/player_step.hpp>
#include <glide/error.hpp>
#include <glide/gjk/convex_hull.hpp>
#include <glide/terrain/heightfield_loader.hpp>
#include <glide/world/obj_level.hpp>
#include <glide/world/world.hpp>

#include <algorithm>
#include <map>
#include <vector>

namespace glide::cases {
namespace {

std::vector<glm::vec3> polytope_points(const ShapeDef& s) {
  if (s.kind != ShapeDef::Kind::box) return s.points;
  const glm::vec3 h = s.half_extents;
  std::vector<glm::vec3> corners;
  for (int i = 0; i < 8; ++i) corners.emplace_back(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z);
  return corners;
}

Heightfield make_terrain(const ShapeDef& s, const glm::vec3& position) {
  if (!s.file.empty()) {
    HeightfieldLoadSettings settings;
    settings.cell_size = s.cell_size;
    settings.origin = position;
    settings.height_scale = s.height_scale;
    settings.height_offset = s.height_offset;
    return load_heightfield(s.file, settings);
  }
  return Heightfield({.rows = s.rows,
                      .columns = s.columns,
                      .heights = s.heights,
                      .cell_size = s.cell_size,
                      .origin = position,
                      .height_scale = s.height_scale,
                      .height_offset = s.height_offset});
}

/// The case's world as a glide::World, with a name for every piece: the instance name, or
/// "<instance>/<object>" for the pieces of an OBJ level.
struct CaseWorld {
  World world;
  std::map<std::uint32_t, std::string> piece_names;
  std::string terrain_name;

  explicit CaseWorld(const Case& c) {
    for (const auto& inst : c.world) {
      const ShapeDef& s = inst.shape;
      if (s.kind == ShapeDef::Kind::obj) {
        ObjLevelOptions options;
        options.scale = s.scale;
        options.transform = inst.transform;
        options.non_convex = s.use_hull ? NonConvexPolicy::use_hull : NonConvexPolicy::error;
        const ObjLevelReport report = load_obj_level(world, s.file, options);
        for (const auto& piece : report.pieces) piece_names[piece.id.value] = inst.name + "/" + piece.name;
      } else if (s.kind == ShapeDef::Kind::heightfield) {
        world.set_terrain(make_terrain(s, inst.transform.translation));
        terrain_name = inst.name;
      } else {
        const std::vector<glm::vec3> points = polytope_points(s);
        const PieceId id = world.add_piece(gjk::ConvexHull(points), inst.transform);
        piece_names[id.value] = inst.name;
      }
    }
    world.update();
  }

  Value name_of(HitTarget target, PieceId piece) const {
    if (target == HitTarget::terrain) return terrain_name;
    if (target != HitTarget::piece) return {};
    const auto it = piece_names.find(piece.value);
    return it == piece_names.end() ? Value(std::string("?")) : Value(it->second);
  }
};

Value num(float v) { return static_cast<double>(v); }

} // namespace

Actuals sweep_query(const Case& c) {
  const CaseWorld w(c);
  const Query& q = c.query;
  const gjk::Capsule capsule{{q.pose.apply(q.capsule.points[0]), q.pose.apply(q.capsule.points[1])}, q.capsule.radius};
  const SweepSettings& settings = q.sweep;
  const SweepHit hit = w.world.sweep_capsule(capsule, q.motion, {}, settings);
  if (!hit.hit) return {{"hit", false}, {"fraction", num(1.f)}};
  return {{"hit", true},
          {"fraction", num(hit.fraction)},
          {"point", hit.point},
          {"normal", hit.normal},
          {"piece", w.name_of(hit.target, hit.piece)},
          {"started_overlapped", hit.started_overlapped}};
}

Actuals raycast_query(const Case& c) {
  const CaseWorld w(c);
  const Query& q = c.query;
  const RayHit hit = w.world.raycast(q.origin, q.direction, q.max_distance, {}, q.sweep);
  if (!hit.hit) return {{"hit", false}};
  return {{"hit", true},
          {"distance", num(hit.t)},
          {"point", hit.point},
          {"normal", hit.normal},
          {"piece", w.name_of(hit.target, hit.piece)}};
}

Actuals move_query(const Case& c) {
  const CaseWorld w(c);
  const MoveQuery& m = c.query.move;
  Controller controller(w.world, m.settings, m.start);
  PlayerStep player(m.player);
  const float start_up = glm::dot(m.start_velocity, m.settings.up);
  if (start_up != 0.f) player.launch(start_up);
  float max_penetration = 0.f, max_frame_move = 0.f;
  int frames_in_air = 0;
  MoveResult r;
  r.position = m.start;
  r.ground = controller.ground();
  for (const MoveQuery::Frames& run : m.frames) {
    for (int i = 0; i < run.count; ++i) {
      const glm::vec3 before = controller.position();
      r = player.step(controller, {.velocity = run.velocity}, m.dt);
      max_frame_move = std::max(max_frame_move, glm::length(controller.position() - before));
      for (const Contact& contact : w.world.overlap_capsule(controller.capsule(), 0.f))
        max_penetration = std::max(max_penetration, -contact.distance);
      if (r.ground.state == GroundState::in_air) ++frames_in_air;
    }
  }
  const char* ground = r.ground.state == GroundState::on_ground         ? "on_ground"
                       : r.ground.state == GroundState::on_steep_ground ? "on_steep_ground"
                                                                        : "in_air";
  return {{"position", r.position},
          {"velocity", r.velocity},
          {"ground", std::string(ground)},
          {"ground_normal", r.ground.normal},
          {"max_penetration", num(max_penetration)},
          {"max_frame_move", num(max_frame_move)},
          {"frames_in_air", num(static_cast<float>(frames_in_air))}};
}

} // namespace glide::cases
