#include "case_move_parser.hpp"

#include <glide/cases/settings_json.hpp>
#include <glide/error.hpp>

#include <glm/trigonometric.hpp>

#include <string>

namespace glide::cases {

MoveQuery parse_move(Fields& query) {
  MoveQuery m;
  if (const auto c = query.optional("controller")) read_settings(*c, controller_settings_table(), m.settings);
  Fields start(query.required("start"));
  m.start = start.required("position").position();
  if (const auto v = start.optional("velocity")) m.start_velocity = v->vec3();
  start.done({"position", "velocity"});
  if (const auto dt = query.optional("dt")) {
    m.dt = dt->positive();
    if (m.dt > 1.f) dt->fail("dt must be at most 1 s");
  }
  // The game's PlayerSettings, each beside the other query fields.
  const fields::Table<PlayerSettings> player = player_settings_table();
  for (const char* key : {"gravity", "jump_speed", "keep_ground_velocity"}) {
    const auto n = query.optional(key);
    if (!n) continue;
    read_field(*n, fields::row(player, key), m.player);
    if (const auto problem = fields::check_field(player, m.player, fields::row(player, key))) n->fail(*problem);
  }
  if (const auto r = query.optional("relative_to")) m.relative_to = r->string();
  const Node frames = query.required("frames");
  long total = 0;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    Fields ff(frames.element(i));
    MoveQuery::Frames run;
    run.velocity = ff.required("velocity").vec3();
    if (const auto n = ff.optional("count")) run.count = n->integer(1, 1000000);
    if (const auto j = ff.optional("jump")) run.jump = j->boolean();
    ff.done({"velocity", "count", "jump"});
    total += run.count;
    if (total > 1000000) frames.element(i).fail("more than 1,000,000 frames in all");
    m.frames.push_back(run);
  }
  if (m.frames.empty()) frames.fail("a move needs at least one frame");
  return m;
}

} // namespace glide::cases
