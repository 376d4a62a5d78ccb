#include "case_move_parser.hpp"

#include <glide/cases/settings_json.hpp>
#include <glide/error.hpp>

#include <string>

namespace glide::cases {

MoveQuery parse_move(Fields& query) {
  MoveQuery m;
  if (const auto c = query.optional("controller")) read_settings(*c, controller_settings_table(), m.settings);
  Fields start(query.required("start"));
  m.start = start.required("position").vec3();
  if (const auto v = start.optional("velocity")) m.start_velocity = v->vec3();
  start.done({"position", "velocity"});
  if (const auto dt = query.optional("dt")) {
    m.dt = dt->positive();
    if (m.dt > 1.f) dt->fail("dt must be at most 1 s");
  }
  if (const auto g = query.optional("gravity")) {
    const fields::Table<PlayerSettings> player = player_settings_table();
    read_field(*g, fields::row(player, "gravity"), m.player);
    if (const auto problem = fields::check_field(player, m.player, fields::row(player, "gravity"))) g->fail(*problem);
  }
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
