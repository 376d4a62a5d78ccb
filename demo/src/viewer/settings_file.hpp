#pragma once

#include <glide/controller/controller_settings.hpp>

#include <filesystem>

namespace glide::viewer {

// The tuning panel's settings as JSON: every ControllerSettings field by its name, angles in
// degrees with a `_deg` suffix (max_slope_deg, step_max_wall_angle_deg) since people edit these
// files, toi_method as "conservative_advancement" or "bisection". The filter is code and not
// saved.

/// Throws glide::Error naming the file when it cannot be written.
void save_settings(const std::filesystem::path& file, const ControllerSettings& settings);

/// Fields missing from the file keep their value in `base`. Throws glide::Error naming the file
/// and field for unreadable JSON, a wrong type or an unknown toi_method; the values' limits are
/// Controller's to check.
ControllerSettings load_settings(const std::filesystem::path& file, const ControllerSettings& base = {});

} // namespace glide::viewer
