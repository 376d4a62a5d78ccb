#pragma once

// Settings structs as JSON objects, read and written by their field tables
// (glide/world/field_table.hpp): every field by its name, angles in degrees with a `_deg`
// suffix, enums by name, unknown fields rejected, limits checked by the table. Case files,
// the viewer's settings files and the demo use these.

#include <glide/cases/json.hpp>
#include <glide/controller/settings_schema.hpp>
#include <glide/world/field_table.hpp>
#include <glide/world/sweep_settings_schema.hpp>

#include <climits>
#include <filesystem>
#include <string>
#include <vector>

namespace glide::cases {

/// Reads one row from `node` into `settings`; fails at the node on a wrong type or name.
template <class S>
void read_field(const Node& node, const fields::Field<S>& f, S& settings) {
  using fields::Kind;
  switch (f.kind) {
  case Kind::real:
  case Kind::angle:
    fields::set_number(settings, f, node.real());
    break;
  case Kind::integer: {
    // A closed static range is checked here already, as an integer.
    using End = typename fields::Bound<S>::End;
    const bool lo = f.min.end == End::closed && !f.min.of, hi = f.max.end == End::closed && !f.max.of;
    fields::set_number(
        settings, f,
        node.integer(lo ? static_cast<int>(f.min.value) : INT_MIN, hi ? static_cast<int>(f.max.value) : INT_MAX));
    break;
  }
  case Kind::unit_vec3:
    fields::set_vec3(settings, f, node.vec3());
    break;
  case Kind::enumeration: {
    const std::string name = node.string();
    const auto value = fields::enum_value(f, name);
    if (!value) node.fail("unknown " + std::string(f.name) + " \"" + name + "\" (" + fields::enum_choices(f) + ")");
    fields::set_number(settings, f, *value);
    break;
  }
  case Kind::mask:
    fields::set_number(settings, f, node.mask());
    break;
  case Kind::boolean:
    fields::set_number(settings, f, node.boolean() ? 1.0 : 0.0);
    break;
  }
}

/// The JSON value of one row.
template <class S>
Json field_json(const S& settings, const fields::Field<S>& f) {
  using fields::Kind;
  const double v = fields::get_number(settings, f);
  switch (f.kind) {
  case Kind::real:
  case Kind::angle:
    return json_number(static_cast<float>(v));
  case Kind::integer:
  case Kind::mask:
    return static_cast<long long>(v);
  case Kind::unit_vec3: {
    const glm::vec3 u = fields::get_vec3(settings, f);
    return Json::array({json_number(u.x), json_number(u.y), json_number(u.z)});
  }
  case Kind::enumeration:
    return fields::enum_name(f, static_cast<int>(v));
  case Kind::boolean:
    break;
  }
  return v != 0.0;
}

/// Reads the rows present in the object `node` over `settings` (fields left out keep their
/// values), then checks every limit of the table: an error names the file, the JSON path of the
/// field at fault (or of the object, for a field it left out) and the limit.
template <class S>
void read_settings(const Node& node, const fields::Table<S>& table, S& settings) {
  Fields f(node);
  std::vector<std::string> names;
  for (const fields::Field<S>& row : table.rows) {
    names.emplace_back(row.name);
    if (const auto n = f.optional(row.name)) read_field(*n, row, settings);
  }
  f.done(names);
  for (const fields::Field<S>& row : table.rows) {
    const auto problem = fields::check_field(table, settings, row);
    if (!problem) continue;
    Fields again(node);
    if (const auto n = again.optional(row.name)) n->fail(*problem);
    node.fail(*problem);
  }
}

/// Every row of `table` as one JSON object, in table order.
template <class S>
Json settings_json(const fields::Table<S>& table, const S& settings) {
  Json out = Json::object();
  for (const fields::Field<S>& row : table.rows) out[row.name] = field_json(settings, row);
  return out;
}

/// A settings file: one JSON object of ControllerSettings fields (settings_json). Fields left
/// out keep their value in `base`. Throws glide::Error naming the file and the field.
ControllerSettings load_controller_settings(const std::filesystem::path& file, const ControllerSettings& base = {});

/// Writes every ControllerSettings field but the filter. Throws glide::Error naming the file.
void save_controller_settings(const std::filesystem::path& file, const ControllerSettings& settings);

} // namespace glide::cases
