#include <glide/cases/piece_path_json.hpp>

#include <glide/error.hpp>

#include <glm/trigonometric.hpp>

#include <string>

namespace glide::cases {
namespace {

PiecePath::Repeat repeat_from(const Node& node) {
  const std::string s = node.string();
  if (s == "none") return PiecePath::Repeat::none;
  if (s == "loop") return PiecePath::Repeat::loop;
  if (s == "ping_pong") return PiecePath::Repeat::ping_pong;
  node.fail("expected \"none\", \"loop\" or \"ping_pong\", got \"" + s + "\"");
}

} // namespace

PiecePath read_piece_path(const Node& node) {
  if (!node.is_object()) node.fail("expected a motion object {\"pivot\", \"repeat\", \"keys\"}");
  Fields f(node);
  PiecePath path;
  if (const auto n = f.optional("pivot")) path.pivot = n->position();
  if (const auto n = f.optional("repeat")) path.repeat = repeat_from(*n);
  const Node keys = f.required("keys");
  if (keys.size() == 0) keys.fail("expected a non-empty array of keys");
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const Node key_node = keys.element(i);
    Fields k(key_node);
    PiecePath::Key key;
    const Node t = k.required("t");
    key.time = t.non_negative();
    if (!path.keys.empty() && key.time < path.keys.back().time)
      t.fail("expected a time >= the previous key's (" + std::to_string(path.keys.back().time) + " s), got " +
             t.json().dump());
    if (const auto n = k.optional("offset")) key.offset = n->vec3();
    if (const auto n = k.optional("yaw_deg")) key.yaw = glm::radians(n->real());
    k.done({"t", "offset", "yaw_deg"});
    path.keys.push_back(key);
  }
  f.done({"pivot", "repeat", "keys"});
  try {
    validate(path); // what the checks above miss still names the motion
  } catch (const Error& e) {
    node.fail(e.what());
  }
  return path;
}

} // namespace glide::cases
