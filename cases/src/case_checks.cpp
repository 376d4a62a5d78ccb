#include "case_checks.hpp"

#include "case_parser.hpp"

#include <glm/geometric.hpp>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <type_traits>

namespace glide::cases {
namespace {

template <class T>
std::string shortest(T v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// "0.0001" rather than to_chars' shortest "1e-04" for the usual tolerances.
std::string format_tolerance(double tol) {
  if (tol == 0.0 || (tol >= 1e-7 && tol < 1e7)) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, tol, std::chars_format::fixed);
    return std::string(buf, r.ptr);
  }
  return shortest(tol);
}

// Expected numbers come from JSON as doubles; the queries answer in float. Comparing the
// expectation rounded to float makes a value written back by --update match exactly.
double as_float(double v) { return static_cast<double>(static_cast<float>(v)); }

bool holds(const Expectation& e, const Value& actual) {
  const double tol = e.tolerance;
  return std::visit(
      [&](const auto& exp) -> bool {
        using T = std::decay_t<decltype(exp)>;
        if (!std::holds_alternative<T>(actual)) return false;
        const T& act = std::get<T>(actual);
        if constexpr (std::is_same_v<T, double>) {
          const double a = act, x = e.global ? exp : as_float(exp);
          switch (e.kind) {
          case Expectation::Kind::equal:
            return std::abs(a - x) <= tol;
          case Expectation::Kind::at_least:
            return a >= x - tol;
          case Expectation::Kind::at_most:
            return a <= x + tol;
          }
          return false;
        } else if constexpr (std::is_same_v<T, glm::vec3>) {
          const glm::dvec3 d = glm::dvec3(act) - glm::dvec3(exp);
          return glm::length(d) <= tol; // NaN never passes
        } else if constexpr (std::is_same_v<T, Point>) {
          // Both relative to the case's origin: the float coordinates the case ran in.
          const glm::dvec3 d = glm::dvec3(act.local) - glm::dvec3(exp.local) + (act.origin - exp.origin);
          return glm::length(d) <= tol;
        } else {
          return act == exp;
        }
      },
      e.expected);
}

} // namespace

std::string coordinate_text(double origin, float local) {
  if (origin == 0.0) return shortest(local);
  // The shortest decimal that reads back, less the origin, as the same float.
  const double global = origin + static_cast<double>(local);
  char buf[64];
  for (int digits = 1; digits <= 17; ++digits) {
    const auto r = std::to_chars(buf, buf + sizeof buf, global, std::chars_format::general, digits);
    const std::string text(buf, r.ptr);
    if (static_cast<float>(std::strtod(text.c_str(), nullptr) - origin) == local) return text;
  }
  return shortest(global);
}

std::string format_value(const Value& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>)
          return "none";
        else if constexpr (std::is_same_v<T, bool>)
          return v ? "true" : "false";
        else if constexpr (std::is_same_v<T, double>) {
          // Actual values are floats widened to double: print them as floats.
          return static_cast<double>(static_cast<float>(v)) == v ? shortest(static_cast<float>(v)) : shortest(v);
        } else if constexpr (std::is_same_v<T, glm::vec3>)
          return std::string("[")
              .append(shortest(v.x))
              .append(", ")
              .append(shortest(v.y))
              .append(", ")
              .append(shortest(v.z))
              .append("]");
        else if constexpr (std::is_same_v<T, Point>)
          return std::string("[")
              .append(coordinate_text(v.origin.x, v.local.x))
              .append(", ")
              .append(coordinate_text(v.origin.y, v.local.y))
              .append(", ")
              .append(coordinate_text(v.origin.z, v.local.z))
              .append("]");
        else
          return std::string("\"").append(v).append("\"");
      },
      value);
}

Value find_actual(const Actuals& actual, const std::string& field) {
  for (const auto& a : actual)
    if (a.field == field) return a.value;
  std::string base;
  int axis = 0;
  if (split_component(field, base, axis))
    for (const auto& a : actual)
      if (a.field == base) {
        if (const auto* v = std::get_if<glm::vec3>(&a.value)) return static_cast<double>((*v)[axis]);
        if (const auto* p = std::get_if<Point>(&a.value)) return p->global()[axis];
      }
  return {};
}

std::vector<CaseMismatch> check_case(const Case& c, const Actuals& actual) {
  std::vector<CaseMismatch> out;
  for (const auto& e : c.expect) {
    const Value a = find_actual(actual, e.field);
    if (holds(e, a)) continue;
    std::string expected = format_value(e.expected);
    // (insert() rather than "x" + s: g++ 12 raises a false -Wrestrict on the latter.)
    if (e.kind == Expectation::Kind::at_least) expected.insert(0, ">= ");
    if (e.kind == Expectation::Kind::at_most) expected.insert(0, "<= ");
    out.push_back({e.key, expected, format_value(a), format_tolerance(e.tolerance)});
  }
  return out;
}

} // namespace glide::cases
