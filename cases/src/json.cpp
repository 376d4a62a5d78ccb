#include <glide/cases/json.hpp>

#include <glide/error.hpp>
#include <glide/limits.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

namespace glide::cases {

void fail_at(const Where& where, const std::string& path, const std::string& message) {
  std::ostringstream s;
  s << where.file << ": ";
  if (!where.case_name.empty()) s << "case \"" << where.case_name << "\": ";
  s << (path.empty() ? "/" : path) << ": " << message;
  throw Error(s.str());
}

Json read_json_file(const std::filesystem::path& file, const std::string& what) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(file.string() + ": cannot open " + what);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_json(text.str(), file.string() + ": malformed JSON");
}

Json parse_json(const std::string& text, const std::string& label) {
  // The parser callback sees keys as they come; a stack of open containers gives the path of
  // a duplicate (an array frame counts its finished elements).
  struct Frame {
    bool object = false;
    std::set<std::string> keys;
    std::string key;
    std::size_t index = 0;
  };
  std::vector<Frame> stack;
  const auto element_done = [&stack] {
    if (!stack.empty() && !stack.back().object) ++stack.back().index;
  };
  // The path of the value being read in the first `depth` open containers.
  const auto path_of = [&stack](std::size_t depth) {
    std::string path;
    for (std::size_t i = 0; i < depth; ++i)
      path.append("/").append(stack[i].object ? pointer_escape(stack[i].key) : std::to_string(stack[i].index));
    return path.empty() ? std::string("/") : path;
  };
  // Deeper documents are refused while parsing: copying or walking them recursively would
  // overflow the stack.
  const auto open = [&](bool object) {
    if (stack.size() >= static_cast<std::size_t>(limits::k_max_json_depth))
      throw Error(label + ": " + path_of(stack.size()) + ": nested deeper than " +
                  std::to_string(limits::k_max_json_depth) + " arrays and objects");
    stack.push_back({object, {}, {}, 0});
  };
  const auto callback = [&](int, Json::parse_event_t event, Json& parsed) {
    switch (event) {
    case Json::parse_event_t::object_start:
      open(true);
      break;
    case Json::parse_event_t::array_start:
      open(false);
      break;
    case Json::parse_event_t::object_end:
    case Json::parse_event_t::array_end:
      stack.pop_back();
      element_done();
      break;
    case Json::parse_event_t::key: {
      Frame& top = stack.back();
      top.key = parsed.get<std::string>();
      if (!top.keys.insert(top.key).second)
        throw Error(label + ": " + path_of(stack.size() - 1) + ": duplicate field \"" + top.key + "\"");
      break;
    }
    case Json::parse_event_t::value:
      element_done();
      break;
    }
    return true;
  };
  try {
    return Json::parse(text, callback);
  } catch (const Json::exception& e) {
    // Syntax errors and number overflow ("1e999"). nlohmann's message carries the line and
    // column; drop its "[json.exception...]" prefix.
    std::string what = e.what();
    if (const auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    throw Error(label + ": " + what);
  }
}

std::string type_name(const Json& value) {
  if (value.is_number()) return "a number";
  if (value.is_string()) return "a string";
  if (value.is_boolean()) return "a boolean";
  if (value.is_array()) return "an array";
  if (value.is_object()) return "an object";
  return "null";
}

std::string pointer_escape(const std::string& key) {
  std::string out;
  for (const char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

double Node::number() const {
  if (!value_->is_number()) fail("expected a number, got " + type_name(*value_));
  const double v = value_->get<double>();
  if (!std::isfinite(v)) fail("expected a finite number");
  return v;
}

float Node::real() const {
  const double v = number();
  if (std::abs(v) > static_cast<double>(std::numeric_limits<float>::max())) fail("number out of float range");
  return static_cast<float>(v);
}

float Node::positive() const {
  const float v = real();
  if (!(v > 0.f)) fail("expected a number > 0, got " + value_->dump());
  return v;
}

float Node::non_negative() const {
  const float v = real();
  if (!(v >= 0.f)) fail("expected a number >= 0, got " + value_->dump());
  return v;
}

int Node::integer(int min, int max) const {
  if (!value_->is_number_integer()) fail("expected an integer, got " + type_name(*value_));
  const auto v = value_->get<long long>();
  if (v < min || v > max)
    fail("expected an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "], got " + value_->dump());
  return static_cast<int>(v);
}

std::uint32_t Node::mask() const {
  if (!value_->is_number_integer()) fail("expected an integer, got " + type_name(*value_));
  const auto v = value_->get<long long>();
  if (v < 0 || v > 0xffffffffLL) fail("expected an integer in [0, 4294967295], got " + value_->dump());
  return static_cast<std::uint32_t>(v);
}

bool Node::boolean() const {
  if (!value_->is_boolean()) fail("expected true or false, got " + type_name(*value_));
  return value_->get<bool>();
}

std::string Node::string() const {
  if (!value_->is_string()) fail("expected a string, got " + type_name(*value_));
  std::string s = value_->get<std::string>();
  if (s.empty()) fail("expected a non-empty string");
  return s;
}

std::size_t Node::size() const {
  if (!value_->is_array()) fail("expected an array, got " + type_name(*value_));
  return value_->size();
}

Node Node::element(std::size_t i) const { return Node((*value_)[i], path_ + "/" + std::to_string(i), *where_); }

void Node::require_triple() const {
  if (!value_->is_array() || value_->size() != 3)
    fail("expected [x, y, z], got " +
         (value_->is_array() ? "an array of " + std::to_string(value_->size()) : type_name(*value_)));
}

glm::vec3 Node::vec3() const {
  require_triple();
  return {element(0).real(), element(1).real(), element(2).real()};
}

glm::dvec3 Node::global_position() const {
  require_triple();
  const glm::dvec3 v{element(0).number(), element(1).number(), element(2).number()};
  if (!limits::in_global_range(v.x) || !limits::in_global_range(v.y) || !limits::in_global_range(v.z))
    fail("expected coordinates within +-" + limits::number_text(limits::k_max_global_coordinate) + " m, got " +
         value_->dump());
  return v;
}

glm::vec3 Node::position() const {
  require_triple();
  const glm::dvec3 local =
      glm::dvec3(element(0).number(), element(1).number(), element(2).number()) + where_->shift - where_->origin;
  // Checked in double: a float cast of a number beyond float's range is undefined.
  if (!(std::max({std::abs(local.x), std::abs(local.y), std::abs(local.z)}) <=
        static_cast<double>(limits::k_max_coordinate)))
    fail("expected coordinates within +-" + limits::number_text(limits::k_max_coordinate) + " m" +
         (where_->origin == glm::dvec3(0.0) ? std::string()
                                            : " of the case's origin " + limits::vec_text(where_->origin)) +
         ", got " + value_->dump());
  return glm::vec3(local);
}

float Node::at_most(float max) const {
  const float v = non_negative();
  if (v > max) fail("expected a number in [0, " + limits::number_text(max) + "], got " + value_->dump());
  return v;
}

glm::vec2 Node::vec2() const {
  if (!value_->is_array() || value_->size() != 2)
    fail("expected [x, z], got " +
         (value_->is_array() ? "an array of " + std::to_string(value_->size()) : type_name(*value_)));
  return {element(0).real(), element(1).real()};
}

std::vector<float> Node::reals() const {
  std::vector<float> out(size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = element(i).real();
  return out;
}

std::vector<glm::dvec3> Node::global_points() const {
  std::vector<glm::dvec3> out(size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = element(i).global_position();
  return out;
}

std::vector<glm::vec3> Node::points() const {
  std::vector<glm::vec3> out(size());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = element(i).position();
  return out;
}

Fields::Fields(const Node& node) : node_(node) {
  if (!node.is_object()) node.fail("expected an object, got " + type_name(node.json()));
}

std::optional<Node> Fields::optional(const std::string& key) {
  const auto it = node_.json().find(key);
  if (it == node_.json().end()) return std::nullopt;
  read_.insert(key);
  return Node(*it, node_.path() + "/" + pointer_escape(key), node_.where());
}

Node Fields::required(const std::string& key) {
  auto n = optional(key);
  if (!n) node_.fail("missing required field \"" + key + "\"");
  return *n;
}

void Fields::done(const std::vector<std::string>& accepted) const {
  for (const auto& [key, value] : node_.json().items()) {
    if (read_.count(key)) continue;
    std::string list;
    for (const auto& a : accepted) list += (list.empty() ? "" : ", ") + a;
    fail_at(node_.where(), node_.path() + "/" + pointer_escape(key),
            "unknown field \"" + key + "\" (accepted here: " + list + ")");
  }
}

} // namespace glide::cases
