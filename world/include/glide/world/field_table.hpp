#pragma once

// A settings struct described once, as a table of its fields: name, kind, unit, limits, panel
// group and help. Validation, the JSON files, the command line, the viewer's panel and the docs
// all walk the same table, so a new setting is one struct member and one row.

#include <glide/error.hpp>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>
#include <glm/vec3.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

namespace glide::fields {

/// How a field is stored and shown.
enum class Kind : std::uint8_t {
  real,        ///< float
  angle,       ///< float stored in radians, shown (files, flags, panel) in degrees with a `_deg` name
  integer,     ///< int
  unit_vec3,   ///< glm::vec3 of length 1
  enumeration, ///< an enum, shown by name
  mask,        ///< std::uint32_t bit mask
  boolean,     ///< bool
};

/// An enum member read and written as its index into Field::names.
template <class S>
struct EnumAccess {
  int (*get)(const S&);
  void (*set)(S&, int);
};

template <class M>
struct MemberClass;
template <class C, class T>
struct MemberClass<T C::*> {
  using type = C;
  using value = T;
};

/// EnumAccess of `S::*member`, an enum whose values are 0, 1, ... in the order of the names.
template <auto member>
constexpr auto enum_access() {
  using S = typename MemberClass<decltype(member)>::type;
  using E = typename MemberClass<decltype(member)>::value;
  return EnumAccess<S>{[](const S& s) { return static_cast<int>(s.*member); },
                       [](S& s, int v) { s.*member = static_cast<E>(v); }};
}

/// A vec3 member. Reached through functions rather than a member pointer, so code walking a
/// table of a struct without one does not look like it reads past the struct.
template <class S>
struct Vec3Access {
  glm::vec3 (*get)(const S&);
  void (*set)(S&, const glm::vec3&);
};

template <auto member>
constexpr auto vec3_access() {
  using S = typename MemberClass<decltype(member)>::type;
  return Vec3Access<S>{[](const S& s) { return s.*member; }, [](S& s, const glm::vec3& v) { s.*member = v; }};
}

template <class S>
using Member = std::variant<float S::*, int S::*, std::uint32_t S::*, bool S::*, EnumAccess<S>, Vec3Access<S>>;

/// One end of a field's range. A static end is `value` in the shown unit (degrees for angles);
/// a relational end is `of(settings)` in the stored unit and reads as `text` ("2 * radius").
template <class S>
struct Bound {
  enum class End : std::uint8_t { none, closed, open };
  End end = End::none;
  double value = 0.0;
  float (*of)(const S&) = nullptr;
  const char* text = nullptr;
};

template <class S>
constexpr Bound<S> closed(double v) {
  return {Bound<S>::End::closed, v, nullptr, nullptr};
}
template <class S>
constexpr Bound<S> open(double v) {
  return {Bound<S>::End::open, v, nullptr, nullptr};
}
template <class S>
constexpr Bound<S> closed(float (*of)(const S&), const char* text) {
  return {Bound<S>::End::closed, 0.0, of, text};
}
template <class S>
constexpr Bound<S> open(float (*of)(const S&), const char* text) {
  return {Bound<S>::End::open, 0.0, of, text};
}

/// Slider range of the viewer's panel (shown unit); `log` for a logarithmic slider.
struct UiRange {
  double min = 0.0;
  double max = 0.0;
  bool log = false;
};

/// Another name read for an enum value (files written before the names settled).
struct Alias {
  const char* name;
  int value;
};

template <class S>
struct Field {
  const char* name; ///< JSON name; the flag is --name with '-' for '_' and without `_deg`
  Member<S> member;
  Kind kind;
  const char* unit; ///< "m", "m/s", "degrees", "count", "" (enums, masks)
  Bound<S> min{};
  Bound<S> max{};
  UiRange ui{};                         ///< the viewer's panel shows enums and the rows with a range
  const char* group = "";               ///< panel group: Shape, Movement, Slopes & steps, Solver, Filtering
  const char* help = "";                ///< one line: what it is
  std::span<const char* const> names{}; ///< enumeration: the names by value; the first writers use
  std::span<const Alias> aliases{};     ///< enumeration: other names accepted when reading
};

/// A struct's table: its C++ name (for messages) and rows.
template <class S>
struct Table {
  const char* type_name;
  std::span<const Field<S>> rows;
};

/// Whether every field of the table holds the same bits in `a` and `b` (so -0 and 0 differ: code
/// reading either may tell them apart).
template <class S>
bool same_bits(const Table<S>& table, const S& a, const S& b) {
  const auto same = [](const auto& x, const auto& y) { return std::memcmp(&x, &y, sizeof x) == 0; };
  for (const Field<S>& f : table.rows) {
    const bool equal = std::visit(
        [&](const auto& m) {
          using M = std::decay_t<decltype(m)>;
          if constexpr (std::is_same_v<M, EnumAccess<S>>)
            return m.get(a) == m.get(b);
          else if constexpr (std::is_same_v<M, Vec3Access<S>>) {
            const glm::vec3 va = m.get(a), vb = m.get(b);
            return same(va.x, vb.x) && same(va.y, vb.y) && same(va.z, vb.z);
          } else
            return same(a.*m, b.*m);
        },
        f.member);
    if (!equal) return false;
  }
  return true;
}

/// The row named `name`; throws glide::Error when the table has none.
template <class S>
const Field<S>& row(const Table<S>& table, std::string_view name) {
  for (const Field<S>& f : table.rows)
    if (name == f.name) return f;
  throw Error(std::string(table.type_name) + " has no field " + std::string(name));
}

/// The struct member's name: the JSON name without the `_deg` of angles.
template <class S>
std::string member_name(const Field<S>& f) {
  std::string n = f.name;
  if (f.kind == Kind::angle && n.ends_with("_deg")) n.resize(n.size() - 4);
  return n;
}

/// The flag of a field: "--max-slope" for max_slope_deg.
template <class S>
std::string flag_name(const Field<S>& f) {
  std::string n = member_name(f);
  for (char& c : n)
    if (c == '_') c = '-';
  return "--" + n;
}

/// A scalar field's value in its shown unit (degrees for angles; enums as their index).
template <class S>
double get_number(const S& s, const Field<S>& f) {
  return std::visit(
      [&](auto m) -> double {
        using M = decltype(m);
        if constexpr (std::is_same_v<M, EnumAccess<S>>)
          return m.get(s);
        else if constexpr (std::is_same_v<M, Vec3Access<S>>)
          return 0.0;
        else if constexpr (std::is_same_v<M, float S::*>)
          return f.kind == Kind::angle ? glm::degrees(s.*m) : s.*m;
        else
          return static_cast<double>(s.*m);
      },
      f.member);
}

/// Sets a scalar field from its shown unit; angles convert as glm::radians of the float.
template <class S>
void set_number(S& s, const Field<S>& f, double v) {
  std::visit(
      [&](auto m) {
        using M = decltype(m);
        if constexpr (std::is_same_v<M, EnumAccess<S>>)
          m.set(s, static_cast<int>(v));
        else if constexpr (std::is_same_v<M, Vec3Access<S>>)
          return;
        else if constexpr (std::is_same_v<M, float S::*>)
          s.*m = f.kind == Kind::angle ? glm::radians(static_cast<float>(v)) : static_cast<float>(v);
        else if constexpr (std::is_same_v<M, bool S::*>)
          s.*m = v != 0.0;
        else
          s.*m = static_cast<std::remove_reference_t<decltype(s.*m)>>(v);
      },
      f.member);
}

template <class S>
glm::vec3 get_vec3(const S& s, const Field<S>& f) {
  return std::get<Vec3Access<S>>(f.member).get(s);
}
template <class S>
void set_vec3(S& s, const Field<S>& f, const glm::vec3& v) {
  std::get<Vec3Access<S>>(f.member).set(s, v);
}

/// The member of `s` a row names when it is a `T`, else nullptr.
template <class T, class S>
T* member_ptr(S& s, const Field<S>& f) {
  const auto* m = std::get_if<T S::*>(&f.member);
  return m ? &(s.**m) : nullptr;
}

/// The name of an enum value, or "" for an index without one.
template <class S>
const char* enum_name(const Field<S>& f, int value) {
  return value >= 0 && static_cast<std::size_t>(value) < f.names.size() ? f.names[static_cast<std::size_t>(value)] : "";
}

/// The enum value of a name or alias.
template <class S>
std::optional<int> enum_value(const Field<S>& f, std::string_view name) {
  for (std::size_t i = 0; i < f.names.size(); ++i)
    if (name == f.names[i]) return static_cast<int>(i);
  for (const Alias& a : f.aliases)
    if (name == a.name) return a.value;
  return std::nullopt;
}

/// "conservative_advancement or bisection".
template <class S>
std::string enum_choices(const Field<S>& f) {
  std::string out;
  for (std::size_t i = 0; i < f.names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == f.names.size() ? " or " : ", ") + std::string(f.names[i]);
  return out;
}

namespace detail {
inline std::string number_text(double v) {
  std::string s = std::to_string(v);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}
template <class S>
std::string bound_text(const Bound<S>& b) {
  return b.of ? std::string(b.text) : number_text(b.value);
}
} // namespace detail

/// The limit as text: "> 0 m", ">= 2 * radius", "in (0, radius / 2] m", "in [1, 16]".
template <class S>
std::string limit_text(const Field<S>& f) {
  using End = typename Bound<S>::End;
  std::string out;
  if (f.min.end != End::none && f.max.end != End::none) {
    out += "in ";
    out += f.min.end == End::open ? '(' : '[';
    out += detail::bound_text(f.min);
    out += ", ";
    out += detail::bound_text(f.max);
    out += f.max.end == End::open ? ')' : ']';
  } else if (f.min.end != End::none) {
    out += f.min.end == End::open ? "> " : ">= ";
    out += detail::bound_text(f.min);
  } else if (f.max.end != End::none) {
    out += f.max.end == End::open ? "< " : "<= ";
    out += detail::bound_text(f.max);
  }
  // Static bounds carry the unit; a relational one reads in its fields' units.
  const std::string_view unit = f.unit;
  if (!out.empty() && !f.min.of && !f.max.of && !unit.empty() && unit != "count") {
    out += ' ';
    out += unit;
  }
  return out;
}

/// What is wrong with one field of `s`, or nothing. Real fields must be finite; relational
/// bounds compare in float as the fields themselves.
template <class S>
std::optional<std::string> check_field(const Table<S>& table, const S& s, const Field<S>& f) {
  using End = typename Bound<S>::End;
  const std::string field = std::string(table.type_name) + "." + member_name(f);
  if (f.kind == Kind::unit_vec3) {
    const glm::vec3 v = get_vec3(s, f);
    if (std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) && std::abs(glm::length(v) - 1.f) <= 1e-3f)
      return std::nullopt;
    return field + " = (" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) +
           ") is not a unit vector";
  }
  if (f.kind == Kind::enumeration) {
    if (*enum_name(f, static_cast<int>(get_number(s, f)))) return std::nullopt;
    return field + " = " + std::to_string(static_cast<int>(get_number(s, f))) + " is not one of " + enum_choices(f);
  }
  if (f.kind == Kind::mask || f.kind == Kind::boolean) return std::nullopt;
  // Compare in the stored type: floats as floats, so a bound is exactly the one the code uses.
  const bool is_float = f.kind == Kind::real || f.kind == Kind::angle;
  const auto stored = [&](const Bound<S>& b) -> double {
    if (b.of) return b.of(s);
    if (f.kind == Kind::angle) return glm::radians(static_cast<float>(b.value));
    return is_float ? static_cast<double>(static_cast<float>(b.value)) : b.value;
  };
  const double v = is_float ? static_cast<double>(s.*std::get<float S::*>(f.member)) : get_number(s, f);
  bool ok = std::isfinite(v);
  if (ok && f.min.end != End::none) ok = f.min.end == End::open ? v > stored(f.min) : v >= stored(f.min);
  if (ok && f.max.end != End::none) ok = f.max.end == End::open ? v < stored(f.max) : v <= stored(f.max);
  if (ok) return std::nullopt;
  std::string value = is_float ? std::to_string(static_cast<float>(v)) : std::to_string(static_cast<long long>(v));
  if (f.kind == Kind::angle) value += " radians (" + std::to_string(glm::degrees(static_cast<float>(v))) + " degrees)";
  return field + " = " + value + " is out of range (" + limit_text(f) + ")";
}

/// Throws glide::Error naming the first field (in table order) out of its limits.
template <class S>
void validate_fields(const Table<S>& table, const S& s) {
  for (const Field<S>& f : table.rows)
    if (const auto problem = check_field(table, s, f)) throw Error(*problem);
}

} // namespace glide::fields
