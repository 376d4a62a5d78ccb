#pragma once

#include <glm/vec3.hpp>

#include <span>

namespace glide {

/// The slide solver of one move: a pure function of this frame's contact planes and the
/// motion still to do, so tests can hit it directly (Box2D's b2SolvePlanes in spirit).
///
/// `normals` are unit contact normals pointing from the geometry toward the character.
/// Returns the part of `motion` that enters none of the planes:
/// - no plane blocks: `motion` unchanged;
/// - one plane blocks: `motion` projected onto it;
/// - two planes block: `motion` along their crease (the cross product of the normals);
/// - three or more block: zero.
/// The result never points against `original` (the motion the frame started with), so the
/// character cannot ping-pong between planes. A plane counts as entered only beyond
/// `tolerance` (m).
glm::vec3 solve_slide(std::span<const glm::vec3> normals, const glm::vec3& motion, const glm::vec3& original,
                      float tolerance = 1e-6f);

/// `motion` with its component into the plane of unit normal `n` removed (only when it
/// points into the plane).
glm::vec3 clip_to_plane(const glm::vec3& motion, const glm::vec3& n);

} // namespace glide
