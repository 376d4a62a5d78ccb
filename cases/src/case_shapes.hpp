#pragma once

#include "case_model.hpp"
#include <glide/cases/json.hpp>

#include <glide/gjk/shapes.hpp>

#include <filesystem>

namespace glide::cases {

/// A shape object ({"type": ..., ...}); files it names resolve against `base_dir`.
ShapeDef parse_shape(const Node& node, const std::filesystem::path& base_dir);

/// Reads "position" and one of "euler_deg" / "quat" from an object (all optional).
gjk::Transform pose_from(Fields& fields);

} // namespace glide::cases
