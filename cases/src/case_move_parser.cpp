#include "case_move_parser.hpp"

#include <glide/error.hpp>

#include <glm/trigonometric.hpp>

#include <string>

namespace glide::cases {
namespace {

/// "controller": ControllerSettings fields by name; angles in degrees (…_deg).
ControllerSettings parse_controller(const Node& node) {
  Fields f(node);
  ControllerSettings s;
  if (const auto n = f.optional("radius")) s.radius = n->positive();
  if (const auto n = f.optional("height")) s.height = n->positive();
  if (const auto n = f.optional("up")) s.up = n->vec3();
  if (const auto n = f.optional("skin_width")) s.skin_width = n->positive();
  if (const auto n = f.optional("min_move_distance")) s.min_move_distance = n->non_negative();
  if (const auto n = f.optional("recovery_speed")) s.recovery_speed = n->positive();
  if (const auto n = f.optional("max_slope_deg")) s.max_slope = glm::radians(n->non_negative());
  if (const auto n = f.optional("step_height")) s.step_height = n->non_negative();
  if (const auto n = f.optional("step_min_forward")) s.step_min_forward = n->non_negative();
  if (const auto n = f.optional("step_max_wall_angle_deg")) s.step_max_wall_angle = glm::radians(n->non_negative());
  if (const auto n = f.optional("floor_snap_distance")) s.floor_snap_distance = n->non_negative();
  if (const auto n = f.optional("max_iterations")) s.max_iterations = n->integer(1, 16);
  if (const auto n = f.optional("toi_method")) s.toi_method = parse_toi_method(*n);
  if (const auto n = f.optional("toi_tolerance")) s.toi_tolerance = n->positive();
  f.done({"radius", "height", "up", "skin_width", "min_move_distance", "recovery_speed", "max_slope_deg", "step_height",
          "step_min_forward", "step_max_wall_angle_deg", "floor_snap_distance", "max_iterations", "toi_method",
          "toi_tolerance"});
  try {
    validate(s);
  } catch (const Error& e) {
    node.fail(e.what());
  }
  return s;
}

} // namespace

ToiMethod parse_toi_method(const Node& node) {
  const std::string method = node.string();
  if (method == "bisection") return ToiMethod::bisection;
  if (method == "fast") return ToiMethod::conservative_advancement;
  node.fail("unknown method \"" + method + "\" (bisection or fast)");
}

MoveQuery parse_move(Fields& query) {
  MoveQuery m;
  if (const auto c = query.optional("controller")) m.settings = parse_controller(*c);
  Fields start(query.required("start"));
  m.start = start.required("position").vec3();
  if (const auto v = start.optional("velocity")) m.start_velocity = v->vec3();
  start.done({"position", "velocity"});
  if (const auto dt = query.optional("dt")) {
    m.dt = dt->positive();
    if (m.dt > 1.f) dt->fail("dt must be at most 1 s");
  }
  if (const auto g = query.optional("gravity")) m.player.gravity = g->non_negative();
  const Node frames = query.required("frames");
  long total = 0;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    Fields ff(frames.element(i));
    MoveQuery::Frames run;
    run.velocity = ff.required("velocity").vec3();
    if (const auto n = ff.optional("count")) run.count = n->integer(1, 1000000);
    ff.done({"velocity", "count"});
    total += run.count;
    if (total > 1000000) frames.element(i).fail("more than 1,000,000 frames in all");
    m.frames.push_back(run);
  }
  if (m.frames.empty()) frames.fail("a move needs at least one frame");
  return m;
}

} // namespace glide::cases
