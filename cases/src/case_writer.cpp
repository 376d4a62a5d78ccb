#include "case_writer.hpp"

#include "case_checks.hpp"

#include <glide/error.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <type_traits>

namespace glide::cases {
namespace {

bool is_flat_array(const Json& value) {
  if (!value.is_array()) return false;
  for (const auto& v : value)
    if (v.is_structured()) return false;
  return true;
}

void dump_compact(const Json& value, std::string& out) {
  if (value.is_object()) {
    out += "{";
    bool first = true;
    for (const auto& [key, v] : value.items()) {
      out.append(first ? "" : ", ").append(Json(key).dump()).append(": ");
      first = false;
      dump_compact(v, out);
    }
    out += "}";
  } else if (value.is_array()) {
    out += "[";
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (i) out += ", ";
      dump_compact(value[i], out);
    }
    out += "]";
  } else {
    out += value.dump();
  }
}

constexpr std::size_t k_line_width = 120;

// The file, its "cases", each case and a case's "shapes", "world" and "expect" are always
// laid out one entry per line; anything deeper (and the query) stays on one line when it fits.
bool always_expanded(int depth, const std::string& key) {
  return depth < 3 || (depth == 3 && (key == "shapes" || key == "world" || key == "expect"));
}

void dump_into(const Json& value, std::size_t column, int indent, int depth, const std::string& key, std::string& out) {
  if (!value.is_structured() || value.empty() || is_flat_array(value)) {
    dump_compact(value, out);
    return;
  }
  if (!always_expanded(depth, key)) {
    std::string line;
    dump_compact(value, line);
    if (column + line.size() + 1 <= k_line_width) {
      out += line;
      return;
    }
  }
  const std::string pad(static_cast<std::size_t>(indent) + 2, ' ');
  const bool object = value.is_object();
  out += object ? "{\n" : "[\n";
  bool first = true;
  for (const auto& [k, v] : value.items()) {
    if (!first) out += ",\n";
    first = false;
    out += pad;
    std::string child_key = object ? k : key;
    if (object) out.append(Json(k).dump()).append(": ");
    const std::size_t child_column = pad.size() + (object ? Json(k).dump().size() + 2 : 0);
    dump_into(v, child_column, indent + 2, depth + 1, child_key, out);
  }
  out.append("\n").append(static_cast<std::size_t>(indent), ' ').append(object ? "}" : "]");
}

} // namespace

std::string dump_readable(const Json& value) {
  std::string out;
  dump_into(value, 0, 0, 0, "", out);
  return out + "\n";
}

Json json_number(float value) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf - 1, value);
  *r.ptr = '\0';
  // The double nearest to the float's shortest text prints back as that text.
  const double d = std::strtod(buf, nullptr);
  if (d == static_cast<double>(static_cast<long long>(d)) && std::abs(d) < 1e15) return static_cast<long long>(d);
  return d;
}

Json json_position(const glm::dvec3& origin, const glm::vec3& local) {
  Json out = Json::array();
  for (int i = 0; i < 3; ++i)
    out.push_back(origin[i] == 0.0 ? json_number(local[i])
                                   : Json(std::strtod(coordinate_text(origin[i], local[i]).c_str(), nullptr)));
  return out;
}

Json json_value(const Value& value) {
  return std::visit(
      [](const auto& v) -> Json {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>)
          return nullptr;
        else if constexpr (std::is_same_v<T, bool>)
          return v;
        else if constexpr (std::is_same_v<T, double>) // a float widened, or a coordinate far out
          return static_cast<double>(static_cast<float>(v)) == v ? json_number(static_cast<float>(v)) : Json(v);
        else if constexpr (std::is_same_v<T, glm::vec3>)
          return Json::array({json_number(v.x), json_number(v.y), json_number(v.z)});
        else if constexpr (std::is_same_v<T, Point>)
          return json_position(v.origin, v.local);
        else
          return v;
      },
      value);
}

void write_text_file(const std::filesystem::path& path, const std::string& text) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error(tmp.string() + ": cannot write");
    out << text;
    out.close(); // a full disk may show only here
    if (!out) {
      std::error_code ignored;
      std::filesystem::remove(tmp, ignored);
      throw Error(tmp.string() + ": write failed");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw Error(path.string() + ": cannot replace: " + ec.message());
}

void update_expectations(Json& case_json, const Case& c, const Actuals& actual,
                         const std::vector<CaseMismatch>& mismatches) {
  Json& expect = case_json["expect"];
  for (const auto& e : c.expect) {
    // Expectations that held keep their value as written: the diff shows only what changed.
    const bool failed =
        std::any_of(mismatches.begin(), mismatches.end(), [&](const CaseMismatch& m) { return m.field == e.key; });
    if (!failed) continue;
    const Value a = find_actual(actual, e.field);
    if (std::holds_alternative<std::monostate>(a)) {
      expect.erase(e.key);
      continue;
    }
    Json& slot = expect[e.key];
    if (slot.is_object())
      slot["value"] = json_value(a);
    else
      slot = json_value(a);
  }
  // A case must expect something: keep the query's first field (hit, overlapping, distance).
  if (expect.empty() && !actual.empty()) expect[actual.front().field] = json_value(actual.front().value);
}

} // namespace glide::cases
