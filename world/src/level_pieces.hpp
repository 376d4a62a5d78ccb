#pragma once

// What the OBJ and glTF level loaders share: reading a bounded regular file, building a piece's
// hull, the convexity check of its faces, and the range checks World::add_piece would make.

#include <glide/world/obj_level.hpp>

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace glide::detail {

/// Reads a regular file of at most limits::k_max_obj_bytes: a device such as /dev/zero would be
/// read until memory runs out, a directory reads as empty. `kind` names the format in errors.
std::string read_level_file(const std::filesystem::path& path, const std::string& file, const std::string& kind);

/// Throws for options out of range; `function` prefixes the message.
void check_level_options(const std::string& function, float scale, float convexity_tolerance);

/// The hull of a piece's points. Throws glide::Error prefixed with `where` for more than
/// limits::k_max_obj_object_vertices points (counted before the hull, whose time grows faster)
/// or points the hull refuses. `unit` names what to split in the message ("objects", "nodes").
gjk::ConvexHull piece_hull(std::span<const glm::vec3> points, const std::string& where, const std::string& unit);

/// Faces of a piece: face f has face_sizes[f] vertices, listed in order in `indices`
/// (indices into the positions).
struct PieceFaces {
  std::vector<std::uint32_t> face_sizes;
  std::vector<std::uint32_t> indices;
};

struct Convexity {
  float error = 0.f; ///< how far the least convex face is from a face of the hull (m)
  int face = -1;     ///< index of that face, -1 when every face is one of the hull's
};

/// A face of a convex piece lies in a supporting plane of its hull, and is flat.
Convexity convexity(const PieceFaces& faces, std::span<const glm::vec3> positions, const gjk::ConvexHull& hull);

/// Applies the policy to a piece whose worst face is `c`: returns false when it is convex within
/// `tolerance`; throws glide::Error (NonConvexPolicy::error) or adds a warning and returns true
/// (use_hull). `face` names the worst face ("the face at line 12").
bool non_convex(const Convexity& c, const std::string& where, const std::string& face, NonConvexPolicy policy,
                float tolerance, std::vector<std::string>& warnings);

/// What World::add_piece would refuse (size, placed coordinates), checked before the world changes.
void check_range(const gjk::ConvexHull& hull, const gjk::Transform& transform, const std::string& where);

std::string format_metres(float v);

/// The non-empty lines of a loader's messages.
std::vector<std::string> lines_of(const std::string& messages);

} // namespace glide::detail
