#pragma once

#include "mesh.hpp"

#include <glide/gjk/shapes.hpp>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include <cstdint>
#include <vector>

namespace glide::viewer {

struct LineVertex {
  glm::vec3 position{0.f}; ///< (m)
  glm::vec3 color{1.f};
};

/// Draws the scene with OpenGL 3.3 core: lit triangle meshes (one directional light) and
/// unlit debug lines. Needs a current context for its whole life.
class Renderer {
public:
  Renderer();
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  void set_level(const TriangleMesh& mesh);
  /// The moving pieces, one mesh each in the piece's own space (piece_mesh).
  void set_pieces(const std::vector<TriangleMesh>& meshes);
  void set_capsule(float radius, float height);
  /// The crowd walkers' capsule (k_walker_color).
  void set_walker_capsule(float radius, float height);

  /// Clears to the sky color and sets the camera for the draws that follow.
  void begin(int width, int height, const glm::mat4& view_projection);
  void draw_level();
  /// Draws moving piece `index` (of set_pieces) placed by `transform`.
  void draw_piece(std::size_t index, const gjk::Transform& transform);
  void draw_capsule(const glm::vec3& feet);
  void draw_walker(const glm::vec3& feet);
  void draw_sphere(const glm::vec3& centre, float radius, const glm::vec3& color);
  /// Pairs of vertices, one segment each, drawn over the geometry (no depth test) so
  /// contacts inside walls stay visible.
  void draw_lines(const std::vector<LineVertex>& lines);

private:
  struct Mesh {
    std::uint32_t vao = 0, vbo = 0;
    int count = 0;
  };
  void upload(Mesh& mesh, const TriangleMesh& vertices);
  void draw_mesh(const Mesh& mesh, const glm::mat4& model, const glm::vec3& tint);

  std::uint32_t lit_program_ = 0, line_program_ = 0;
  Mesh level_, capsule_, walker_, sphere_;
  std::vector<Mesh> pieces_;
  std::uint32_t line_vao_ = 0, line_vbo_ = 0;
  glm::mat4 view_projection_{1.f};
};

} // namespace glide::viewer
