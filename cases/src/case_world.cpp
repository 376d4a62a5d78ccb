#include "case_world.hpp"

#include <glide/controller/controller.hpp>
#include <glide/controller/player_step.hpp>
#include <glide/error.hpp>
#include <glide/gjk/convex_hull.hpp>
#include <glide/terrain/heightfield_loader.hpp>
#include <glide/world/obj_level.hpp>
#include <glide/world/triangle_mesh.hpp>
#include <glide/world/world.hpp>

#include <glm/trigonometric.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
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
    settings.raw_rows = s.rows; // 0 but for raw files
    settings.raw_columns = s.columns;
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
  struct Mover {
    PieceId id;
    gjk::Transform rest;
    const PiecePath* path;
  };
  World world;
  std::map<std::uint32_t, std::string> piece_names;
  std::map<std::string, PieceId> instance_pieces; ///< convex instances by name
  std::vector<Mover> movers;                      ///< instances with a motion, in file order
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
      } else if (s.kind == ShapeDef::Kind::mesh) {
        TriangleMeshSettings settings;
        settings.flat_angle = s.flat_angle;
        const PieceId id = world.add_mesh(TriangleMesh(s.points, s.triangles, settings), inst.transform);
        piece_names[id.value] = inst.name;
        instance_pieces[inst.name] = id;
      } else if (s.kind == ShapeDef::Kind::heightfield) {
        world.set_terrain(make_terrain(s, inst.transform.translation));
        terrain_name = inst.name;
      } else {
        const std::vector<glm::vec3> points = polytope_points(s);
        // A moving piece starts where its path is at time 0.
        const gjk::Transform start = inst.motion ? inst.motion->pose_at(inst.transform, 0.f) : inst.transform;
        const PieceId id =
            world.add_piece(gjk::ConvexHull(points), start, PieceInfo{.kinematic = inst.motion.has_value()});
        piece_names[id.value] = inst.name;
        instance_pieces[inst.name] = id;
        if (inst.motion) movers.push_back({id, inst.transform, &*inst.motion});
      }
    }
    world.update();
  }

  bool moves(PieceId id) const {
    return std::any_of(movers.begin(), movers.end(), [&](const Mover& m) { return m.id == id; });
  }

  Value name_of(HitTarget target, PieceId piece) const {
    if (target == HitTarget::terrain) return terrain_name;
    if (target != HitTarget::piece) return {};
    const auto it = piece_names.find(piece.value);
    return it == piece_names.end() ? Value(std::string("?")) : Value(it->second);
  }
};

Value num(float v) { return static_cast<double>(v); }

const char* ground_name(GroundState state) {
  return state == GroundState::on_ground         ? "on_ground"
         : state == GroundState::on_steep_ground ? "on_steep_ground"
                                                 : "in_air";
}

} // namespace

Actuals sweep_query(const Case& c) {
  const CaseWorld w(c);
  const Query& q = c.query;
  const gjk::Capsule capsule{{q.pose.apply(q.capsule.points[0]), q.pose.apply(q.capsule.points[1])}, q.capsule.radius};
  const SweepSettings& settings = q.sweep;
  const SweepHit hit = w.world.sweep_capsule(capsule, q.motion, {}, settings);
  if (!hit.hit) return {{"hit", false}, {"fraction", num(1.f)}};
  Actuals out{{"hit", true},
              {"fraction", num(hit.fraction)},
              {"point", Point{c.origin, hit.point}},
              {"normal", hit.normal},
              {"piece", w.name_of(hit.target, hit.piece)},
              {"started_overlapped", hit.started_overlapped}};
  if (hit.triangle != ~0u) out.push_back({"triangle", static_cast<double>(hit.triangle)});
  return out;
}

Actuals raycast_query(const Case& c) {
  const CaseWorld w(c);
  const Query& q = c.query;
  const RayHit hit = w.world.raycast(q.origin, q.direction, q.max_distance, {}, q.sweep);
  if (!hit.hit) return {{"hit", false}};
  Actuals out{{"hit", true},
              {"distance", num(hit.t)},
              {"point", Point{c.origin, hit.point}},
              {"normal", hit.normal},
              {"piece", w.name_of(hit.target, hit.piece)}};
  if (hit.triangle != ~0u) out.push_back({"triangle", static_cast<double>(hit.triangle)});
  return out;
}

Actuals move_query(const Case& c) {
  CaseWorld w(c);
  const MoveQuery& m = c.query.move;
  Controller controller(w.world, m.settings, m.start);
  PlayerStep player(m.player);
  const glm::vec3 up = m.settings.up;
  const float start_up = glm::dot(m.start_velocity, up);
  if (start_up != 0.f) player.launch(start_up);
  const std::optional<PieceId> frame_piece =
      m.relative_to.empty() ? std::nullopt : std::optional<PieceId>(w.instance_pieces.at(m.relative_to));
  float max_penetration = 0.f, max_static_penetration = 0.f, penetration = 0.f, max_frame_move = 0.f;
  float max_pushed = 0.f, yaw = 0.f, relative_drift = 0.f;
  float max_height = -std::numeric_limits<float>::infinity();
  int frames_in_air = 0, frames_off_ground = 0, crushed_frames = 0;
  std::optional<glm::vec3> relative_start; // the feet in frame_piece's frame after the first frame
  MoveResult r;
  r.position = m.start;
  r.ground = controller.ground();
  long frame = 0;
  for (const MoveQuery::Frames& run : m.frames) {
    for (int i = 0; i < run.count; ++i, ++frame) {
      // The frame order of docs/controller.md: every piece moves to where it is at the end of
      // the frame, then the character. t * dt by multiplication, so long runs do not drift.
      const float t_end = static_cast<float>(static_cast<double>(frame + 1) * static_cast<double>(m.dt));
      for (const CaseWorld::Mover& mover : w.movers)
        w.world.move_piece(mover.id, mover.path->pose_at(mover.rest, t_end), m.dt);
      const glm::vec3 before = controller.position();
      r = player.step(controller, {.velocity = run.velocity, .jump = run.jump}, m.dt);
      max_frame_move = std::max(max_frame_move, glm::length(controller.position() - before));
      max_pushed = std::max(max_pushed, glm::length(r.pushed));
      max_height = std::max(max_height, glm::dot(r.position, up));
      yaw += r.yaw_delta;
      penetration = 0.f;
      for (const Contact& contact : w.world.overlap_capsule(controller.capsule(), 0.f)) {
        penetration = std::max(penetration, -contact.distance);
        if (contact.target != HitTarget::piece || !w.moves(contact.piece))
          max_static_penetration = std::max(max_static_penetration, -contact.distance);
      }
      max_penetration = std::max(max_penetration, penetration);
      if (r.ground.state == GroundState::in_air) ++frames_in_air;
      if (r.ground.state != GroundState::on_ground) ++frames_off_ground;
      if (r.flags.crushed) ++crushed_frames;
      if (frame_piece) {
        const glm::vec3 local = w.world.transform(*frame_piece).apply_inverse(r.position);
        if (!relative_start) relative_start = local;
        relative_drift = std::max(relative_drift, glm::length(local - *relative_start));
      }
    }
  }
  Actuals out{{"position", Point{c.origin, r.position}},
              {"velocity", r.velocity},
              {"ground", std::string(ground_name(r.ground.state))},
              {"ground_normal", r.ground.normal},
              {"max_penetration", num(max_penetration)},
              {"max_frame_move", num(max_frame_move)},
              {"frames_in_air", num(static_cast<float>(frames_in_air))},
              {"ground_piece", w.name_of(r.ground.target, r.ground.piece)},
              {"ground_velocity", r.ground.velocity},
              {"inherited_velocity", player.inherited_velocity()},
              {"yaw", num(glm::degrees(yaw))},
              {"frames_off_ground", num(static_cast<float>(frames_off_ground))},
              {"max_pushed", num(max_pushed)},
              {"crushed", r.flags.crushed},
              {"crushed_frames", num(static_cast<float>(crushed_frames))},
              {"penetration", num(penetration)},
              {"max_static_penetration", num(max_static_penetration)},
              {"max_height", glm::dot(c.origin, glm::dvec3(up)) + static_cast<double>(max_height)}};
  if (frame_piece) out.push_back({"relative_drift", num(relative_drift)});
  return out;
}

} // namespace glide::cases
