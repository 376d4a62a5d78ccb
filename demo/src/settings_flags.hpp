#pragma once

// Command-line flags for a settings struct, one per row of its field table
// (glide/world/field_table.hpp): --max-slope for max_slope_deg, in the row's shown unit.

#include <glide/world/field_table.hpp>

#include <CLI/CLI.hpp>

#include <cctype>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace glide::cli {

/// Adds the flags of `table` to `cmd` in `group`, showing the defaults of `settings`. The returned
/// function writes the flags given on the command line into `settings` (the others keep their
/// value, exactly); the struct's limits are checked where the settings are used.
template <class S>
std::function<void()> add_settings_flags(CLI::App& cmd, const fields::Table<S>& table, S& settings,
                                         const std::string& group) {
  using fields::Kind;
  struct Slot {
    float real = 0.f;
    long long integer = 0;
    bool boolean = false;
    std::vector<float> vec;
    std::string text;
    CLI::Option* option = nullptr;
  };
  const auto slots = std::make_shared<std::vector<Slot>>(table.rows.size());
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const fields::Field<S>& f = table.rows[i];
    Slot& slot = (*slots)[i];
    std::string help = f.help;
    if (!help.empty()) help[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(help[0])));
    if (*f.unit) help += std::string(" (") + f.unit + ")";
    const std::string flag = fields::flag_name(f);
    const double value = fields::get_number(settings, f);
    switch (f.kind) {
    case Kind::real:
    case Kind::angle:
      slot.real = static_cast<float>(value);
      slot.option = cmd.add_option(flag, slot.real, help);
      break;
    case Kind::integer:
    case Kind::mask:
      slot.integer = static_cast<long long>(value);
      slot.option = cmd.add_option(flag, slot.integer, help);
      if (f.kind == Kind::mask) slot.option->check(CLI::Range(0LL, 0xffffffffLL));
      break;
    case Kind::boolean:
      slot.boolean = value != 0.0;
      slot.option = cmd.add_option(flag, slot.boolean, help);
      break;
    case Kind::unit_vec3: {
      const glm::vec3 v = fields::get_vec3(settings, f);
      slot.vec = {v.x, v.y, v.z};
      slot.option = cmd.add_option(flag, slot.vec, help)->expected(3);
      break;
    }
    case Kind::enumeration: {
      slot.text = fields::enum_name(f, static_cast<int>(value));
      std::vector<std::string> accepted(f.names.begin(), f.names.end());
      for (const fields::Alias& a : f.aliases) accepted.emplace_back(a.name);
      slot.option =
          cmd.add_option(flag, slot.text, help + ": " + fields::enum_choices(f))->check(CLI::IsMember(accepted));
      break;
    }
    }
    slot.option->capture_default_str()->group(group);
  }
  return [slots, table, &settings] {
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
      const fields::Field<S>& f = table.rows[i];
      const Slot& slot = (*slots)[i];
      if (slot.option->count() == 0) continue;
      if (f.kind == Kind::unit_vec3)
        fields::set_vec3(settings, f, {slot.vec[0], slot.vec[1], slot.vec[2]});
      else if (f.kind == Kind::enumeration)
        fields::set_number(settings, f, *fields::enum_value(f, slot.text));
      else if (f.kind == Kind::real || f.kind == Kind::angle)
        fields::set_number(settings, f, slot.real);
      else if (f.kind == Kind::boolean)
        fields::set_number(settings, f, slot.boolean ? 1.0 : 0.0);
      else
        fields::set_number(settings, f, static_cast<double>(slot.integer));
    }
  };
}

} // namespace glide::cli
