#pragma once
// The arithmetic of placing and moving a piece: what World::add_piece, set_piece_transform
// and move_piece run for every vertex and every move.

#include <glide/gjk/aabb.hpp>
#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/shapes.hpp>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include <vector>

namespace glide::detail {

/// Bakes `t` into world-space vertices of `hull` (out is resized to them) and their bounds;
/// returns their largest |coordinate| (m), for the valid-range check. The SSE2 path and the
/// portable one compute the same IEEE operations in the same order.
float place(const gjk::ConvexHull& hull, const gjk::Transform& t, std::vector<glm::vec3>& out, gjk::Aabb& bounds);

/// The rate of the turn from `from` to `to` over `dt` seconds, taken the short way (at most
/// half a turn): axis times angle / dt (rad/s). Zero for no turn.
glm::vec3 angular_velocity(const glm::quat& from, const glm::quat& to, float dt);

/// atan2(y, x) for y, x >= 0 (radians, within 2e-7 relative): a polynomial rather than libm's,
/// about three times faster here and the same bits on every platform.
float atan2_positive(float y, float x);

} // namespace glide::detail
