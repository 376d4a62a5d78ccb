#pragma once

#include "case_model.hpp"
#include <glide/cases/json.hpp>

#include <glide/gjk/shapes.hpp>

#include <filesystem>

namespace glide::cases {

/// A shape object ({"type": ..., ...}); files it names resolve against `base_dir`.
ShapeDef parse_shape(const Node& node, const std::filesystem::path& base_dir);

/// Reads "position" and one of "euler_deg" / "quat" from an object (all optional): the pose of
/// a shape whose points are relative to `offset`, relative to the case's origin (Where::origin).
gjk::Transform pose_from(Fields& fields, const glm::dvec3& offset = glm::dvec3(0.0));

/// The multiple of 16 m nearest to `p` on each axis: where far coordinates are measured from.
/// Shifting a scene by a multiple of 16 m shifts it by as much, so the scene is computed in the
/// same float coordinates; within 8 m of the origin it is zero.
glm::dvec3 grid_point(const glm::dvec3& p);

/// The origin a case is computed relative to (Case::origin): its "origin" as written, else
/// grid_point of its first position
/// among the move's start, the sweep's or the ray's origin, the world instances' positions and
/// their shapes' first points; zero when it has none (or none that reads as one). All moved by
/// `shift` (CaseRunOptions::shift).
glm::dvec3 case_origin(const Json& case_json, const glm::dvec3& shift);

} // namespace glide::cases
