#pragma once

// A glTF file read by tinygltf, with the accessor checks tinygltf leaves to its users: every
// index, offset and count is checked against the buffers before a byte is read.

#include <tiny_gltf.h>

#include <glm/vec3.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace glide::detail {

/// One primitive as triangles.
struct GltfPrimitive {
  std::vector<glm::vec3> positions;     ///< POSITION, as in the file
  std::vector<std::uint32_t> triangles; ///< three indices into positions each
};

class GltfModel {
public:
  /// Reads a .gltf (JSON, buffers external or data: URIs) or .glb (told apart by the file's
  /// first bytes). Throws glide::Error naming the file for a missing, oversized or malformed file
  /// or a buffer that cannot be read.
  explicit GltfModel(const std::filesystem::path& path);

  const tinygltf::Model& model() const { return model_; }
  const std::string& file() const { return file_; }
  const std::vector<std::string>& warnings() const { return warnings_; }
  /// The default scene's nodes, else the first scene's, else every node that is nobody's child.
  std::vector<int> root_nodes() const;
  /// Throws glide::Error prefixed with `where` for anything out of range or unsupported.
  GltfPrimitive primitive(const tinygltf::Primitive& primitive, const std::string& where) const;

private:
  struct View {
    const unsigned char* data = nullptr;
    std::size_t stride = 0;
    std::size_t count = 0;
  };
  View accessor(int index, const std::string& where) const;

  std::string file_;
  tinygltf::Model model_;
  std::vector<std::string> warnings_;
};

} // namespace glide::detail
