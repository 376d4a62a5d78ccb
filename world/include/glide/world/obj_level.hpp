#pragma once

#include <glide/world/world.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace glide {

/// What load_obj_level does with an object whose faces are not the faces of its hull.
enum class NonConvexPolicy : std::uint8_t {
  error,    ///< throw glide::Error naming the object
  use_hull, ///< add its convex hull instead and report a warning
};

struct ObjLevelOptions {
  NonConvexPolicy non_convex = NonConvexPolicy::error; ///< policy for non-convex objects
  /// A face whose plane has object points farther than this on both sides is not a hull face.
  float convexity_tolerance = 1e-3f; ///< (m, after scale)
  float scale = 1.f;                 ///< multiplies every coordinate of the file (m per file unit, > 0)
  gjk::Transform transform{};        ///< placement of the whole level; every piece gets it
  PieceInfo info{};                  ///< layers and user data given to every piece
};

/// One piece added from the file.
struct ObjLevelPiece {
  std::string name;              ///< the OBJ object or group name ("object@<line>" when unnamed)
  int line = 0;                  ///< line of its `o`/`g` statement (or its first face)
  PieceId id;                    ///< the piece in the world
  bool replaced_by_hull = false; ///< it was not convex and its hull was added instead
  float convexity_error = 0.f;   ///< how far its least convex face is from a hull face (m)
};

struct ObjLevelReport {
  std::vector<ObjLevelPiece> pieces;
  std::vector<std::string> warnings; ///< "file:line: message" each
};

/// Adds one convex piece per OBJ object (`o`) or group (`g`) with faces. Throws glide::Error,
/// naming the file, the line and the object, for a missing file, a parse error (malformed
/// vertex or face, index out of range), a non-finite coordinate, an object without faces, or
/// (with NonConvexPolicy::error) a non-convex object. On error the world is left unchanged.
ObjLevelReport load_obj_level(World& world, const std::filesystem::path& path, const ObjLevelOptions& options = {});

} // namespace glide
