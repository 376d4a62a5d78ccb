#pragma once

#include <glide/world/obj_level.hpp>
#include <glide/world/world.hpp>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace glide {

struct GltfLevelOptions {
  NonConvexPolicy non_convex = NonConvexPolicy::error; ///< policy for non-convex nodes
  /// A triangle whose plane has node points farther than this on both sides is not a hull face.
  float convexity_tolerance = 1e-3f; ///< (m, after the node transforms and scale)
  float scale = 1.f;                 ///< multiplies every coordinate after the node transforms (m per file unit, > 0)
  gjk::Transform transform{};        ///< placement of the whole level; every piece gets it
  PieceInfo info{};                  ///< layers and user data given to every piece
};

/// One convex piece added from a mesh node.
struct GltfLevelPiece {
  std::string name;              ///< the node's name ("node <index>" when unnamed)
  int node = -1;                 ///< index of the node in the file
  std::string mesh;              ///< the mesh's name ("mesh <index>" when unnamed)
  PieceId id;                    ///< the piece in the world
  bool replaced_by_hull = false; ///< it was not convex and its hull was added instead
  float convexity_error = 0.f;   ///< how far its least convex triangle is from a hull face (m)
};

/// A mesh-marked node: one triangle-mesh piece (World::add_mesh).
struct GltfLevelMesh {
  std::string name;                  ///< the node's name ("node <index>" when unnamed)
  int node = -1;                     ///< index of the node in the file
  std::string mesh;                  ///< the mesh's name ("mesh <index>" when unnamed)
  PieceId id;                        ///< the mesh piece; its triangles keep the file's order
  std::size_t triangles = 0;         ///< triangles kept (count)
  std::size_t skipped_triangles = 0; ///< zero-area triangles left out (count; one warning per node)
};

struct GltfLevelReport {
  std::vector<GltfLevelPiece> pieces; ///< convex nodes, in scene order (depth first)
  std::vector<GltfLevelMesh> meshes;  ///< mesh-marked nodes, in scene order
  std::vector<std::string> warnings;  ///< "file: node 'name' ...: message" each
  /// Triangles of the mesh pieces added for mesh-marked nodes (count).
  std::size_t triangle_count() const;
};

/// Reads a glTF 2.0 level (.gltf with external or data: buffers, or .glb) and walks the default
/// scene's node hierarchy (the first scene without one; every root node without scenes),
/// composing each node's matrix or translation/rotation/scale with its parents'. glTF is +Y up
/// in metres, as glide is, so coordinates are taken as they are (times options.scale).
///
/// A node with a mesh becomes one convex piece: the hull of the vertices of all its primitives,
/// each triangle checked as a face of that hull as load_obj_level checks OBJ faces. A node
/// whose name ends in "-mesh", or whose extras hold {"glide": "mesh"}, is a triangle mesh
/// instead: its triangles of positive area become one mesh piece (World::add_mesh), the same
/// vertices shared between its primitives matched by position (TriangleMesh).
///
/// Primitives may be triangles, triangle strips or fans; POSITION must be a float VEC3
/// accessor, indices unsigned integer scalars. Throws glide::Error naming the file (and the
/// node and mesh) for a missing or malformed file, a missing buffer, an accessor or index out
/// of range, an unsupported primitive mode or accessor type, a non-finite coordinate or
/// transform, a file without mesh nodes, a mesh-marked node without a triangle of positive
/// area, or (with NonConvexPolicy::error) a non-convex node. On
/// error the world is left unchanged.
GltfLevelReport load_gltf_level(World& world, const std::filesystem::path& path, const GltfLevelOptions& options = {});

} // namespace glide
