#pragma once

// The field tables (glide/world/field_table.hpp) of ControllerSettings and PlayerSettings: the
// one description validation, files, flags, the viewer's panel and docs/controller.md follow.

#include <glide/controller/controller_settings.hpp>
#include <glide/controller/player_step.hpp>
#include <glide/world/field_table.hpp>

namespace glide {

/// Every ControllerSettings field but `filter` (code, not a setting), in panel order.
fields::Table<ControllerSettings> controller_settings_table();

/// gravity and jump_speed.
fields::Table<PlayerSettings> player_settings_table();

} // namespace glide
