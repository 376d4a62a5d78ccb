#pragma once

#include <glide/world/field_table.hpp>
#include <glide/world/query_types.hpp>

namespace glide {

/// The names of ToiMethod by value; "fast" is read as conservative_advancement.
inline constexpr const char* k_toi_method_names[] = {"conservative_advancement", "bisection"};
inline constexpr fields::Alias k_toi_method_aliases[] = {{"fast", 0}};

/// SweepSettings as a field table (glide/world/field_table.hpp). The World takes any values;
/// these limits are the ones files are held to.
inline fields::Table<SweepSettings> sweep_settings_table() {
  using F = fields::Field<SweepSettings>;
  using fields::closed;
  using fields::Kind;
  using fields::open;
  using S = SweepSettings;
  // clang-format off
  static const F rows[] = {
    {"method", fields::enum_access<&S::method>(), Kind::enumeration, "", {}, {}, {},
     "Solver", "time-of-impact algorithm", k_toi_method_names, k_toi_method_aliases},
    {"tolerance", &S::tolerance, Kind::real, "m", open<S>(0), {}, {},
     "Solver", "contact distance accepted as touching"},
    {"max_iterations", &S::max_iterations, Kind::integer, "count", closed<S>(1), closed<S>(1 << 20), {},
     "Solver", "time-of-impact iterations per candidate"},
    {"tie_distance", &S::tie_distance, Kind::real, "m", closed<S>(0), {}, {},
     "Solver", "hits closer than this along the motion are simultaneous"},
    {"ignore_separating", &S::ignore_separating, Kind::boolean, "", {}, {}, {},
     "Solver", "skip contacts the motion does not approach"},
  };
  // clang-format on
  return {"SweepSettings", rows};
}

} // namespace glide
