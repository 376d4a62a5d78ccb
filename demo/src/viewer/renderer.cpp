#include "renderer.hpp"

#include "gl.hpp"

#include <glide/error.hpp>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <cstddef>
#include <string>

namespace glide::viewer {
namespace {

constexpr const char* lit_vertex_source = R"(#version 330 core
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec3 in_color;
uniform mat4 view_projection;
uniform mat4 model;
out vec3 normal;
out vec3 color;
void main() {
  normal = mat3(model) * in_normal;
  color = in_color;
  gl_Position = view_projection * model * vec4(in_position, 1.0);
}
)";

// Half-Lambert from one directional light: every face keeps its hue, so the screenshot test
// can recognise surfaces whatever way they face.
constexpr const char* lit_fragment_source = R"(#version 330 core
in vec3 normal;
in vec3 color;
uniform vec3 tint;
out vec4 frag_color;
void main() {
  vec3 light = normalize(vec3(0.4, 1.0, 0.3));
  float lambert = dot(normalize(normal), light) * 0.5 + 0.5;
  frag_color = vec4(color * tint * (0.45 + 0.55 * lambert), 1.0);
}
)";

constexpr const char* line_vertex_source = R"(#version 330 core
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_color;
uniform mat4 view_projection;
out vec3 color;
void main() {
  color = in_color;
  gl_Position = view_projection * vec4(in_position, 1.0);
}
)";

constexpr const char* line_fragment_source = R"(#version 330 core
in vec3 color;
out vec4 frag_color;
void main() { frag_color = vec4(color, 1.0); }
)";

GLuint compile(GLenum stage, const char* source) {
  const GLuint shader = glCreateShader(stage);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    throw Error(std::string("viewer: shader does not compile: ") + log);
  }
  return shader;
}

GLuint link(const char* vertex_source, const char* fragment_source) {
  const GLuint vs = compile(GL_VERTEX_SHADER, vertex_source);
  const GLuint fs = compile(GL_FRAGMENT_SHADER, fragment_source);
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) throw Error("viewer: shader program does not link");
  return program;
}

void attribute(GLuint index, std::size_t stride, std::size_t offset) {
  glEnableVertexAttribArray(index);
  glVertexAttribPointer(index, 3, GL_FLOAT, GL_FALSE, static_cast<GLsizei>(stride),
                        reinterpret_cast<const void*>(offset));
}

} // namespace

Renderer::Renderer() {
  lit_program_ = link(lit_vertex_source, lit_fragment_source);
  line_program_ = link(line_vertex_source, line_fragment_source);
  upload(sphere_, sphere_mesh(glm::vec3(1.f)));
  glGenVertexArrays(1, &line_vao_);
  glGenBuffers(1, &line_vbo_);
  glBindVertexArray(line_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, line_vbo_);
  attribute(0, sizeof(LineVertex), offsetof(LineVertex, position));
  attribute(1, sizeof(LineVertex), offsetof(LineVertex, color));
  glBindVertexArray(0);
}

Renderer::~Renderer() {
  for (Mesh* m : {&level_, &capsule_, &walker_, &sphere_}) {
    glDeleteBuffers(1, &m->vbo);
    glDeleteVertexArrays(1, &m->vao);
  }
  for (Mesh& m : pieces_) {
    glDeleteBuffers(1, &m.vbo);
    glDeleteVertexArrays(1, &m.vao);
  }
  glDeleteBuffers(1, &line_vbo_);
  glDeleteVertexArrays(1, &line_vao_);
  glDeleteProgram(lit_program_);
  glDeleteProgram(line_program_);
}

void Renderer::upload(Mesh& mesh, const TriangleMesh& vertices) {
  if (mesh.vao == 0) {
    glGenVertexArrays(1, &mesh.vao);
    glGenBuffers(1, &mesh.vbo);
    glBindVertexArray(mesh.vao);
    glBindBuffer(GL_ARRAY_BUFFER, mesh.vbo);
    attribute(0, sizeof(MeshVertex), offsetof(MeshVertex, position));
    attribute(1, sizeof(MeshVertex), offsetof(MeshVertex, normal));
    attribute(2, sizeof(MeshVertex), offsetof(MeshVertex, color));
  }
  glBindVertexArray(mesh.vao);
  glBindBuffer(GL_ARRAY_BUFFER, mesh.vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(MeshVertex)), vertices.data(),
               GL_STATIC_DRAW);
  glBindVertexArray(0);
  mesh.count = static_cast<int>(vertices.size());
}

void Renderer::set_level(const TriangleMesh& mesh) { upload(level_, mesh); }
void Renderer::set_pieces(const std::vector<TriangleMesh>& meshes) {
  for (std::size_t i = meshes.size(); i < pieces_.size(); ++i) {
    glDeleteBuffers(1, &pieces_[i].vbo);
    glDeleteVertexArrays(1, &pieces_[i].vao);
  }
  pieces_.resize(meshes.size()); // the buffers of the ones kept are filled again
  for (std::size_t i = 0; i < meshes.size(); ++i) upload(pieces_[i], meshes[i]);
}

void Renderer::set_capsule(float radius, float height) {
  upload(capsule_, capsule_mesh(radius, height, k_capsule_color));
}

void Renderer::set_walker_capsule(float radius, float height) {
  upload(walker_, capsule_mesh(radius, height, k_walker_color));
}

void Renderer::begin(int width, int height, const glm::mat4& view_projection) {
  view_projection_ = view_projection;
  glViewport(0, 0, width, height);
  glClearColor(k_sky_color.r, k_sky_color.g, k_sky_color.b, 1.f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE); // flat hulls and terrain are seen from both sides
}

void Renderer::draw_mesh(const Mesh& mesh, const glm::mat4& model, const glm::vec3& tint) {
  if (mesh.count == 0) return;
  glUseProgram(lit_program_);
  glUniformMatrix4fv(glGetUniformLocation(lit_program_, "view_projection"), 1, GL_FALSE,
                     glm::value_ptr(view_projection_));
  glUniformMatrix4fv(glGetUniformLocation(lit_program_, "model"), 1, GL_FALSE, glm::value_ptr(model));
  glUniform3fv(glGetUniformLocation(lit_program_, "tint"), 1, glm::value_ptr(tint));
  glBindVertexArray(mesh.vao);
  glDrawArrays(GL_TRIANGLES, 0, mesh.count);
  glBindVertexArray(0);
}

void Renderer::draw_level() { draw_mesh(level_, glm::mat4(1.f), glm::vec3(1.f)); }

void Renderer::draw_piece(std::size_t index, const gjk::Transform& transform) {
  if (index >= pieces_.size()) return;
  const glm::mat4 model = glm::translate(glm::mat4(1.f), transform.translation) * glm::mat4_cast(transform.rotation);
  draw_mesh(pieces_[index], model, glm::vec3(1.f));
}

void Renderer::draw_capsule(const glm::vec3& feet) {
  draw_mesh(capsule_, glm::translate(glm::mat4(1.f), feet), glm::vec3(1.f));
}

void Renderer::draw_walker(const glm::vec3& feet) {
  draw_mesh(walker_, glm::translate(glm::mat4(1.f), feet), glm::vec3(1.f));
}

void Renderer::draw_sphere(const glm::vec3& centre, float radius, const glm::vec3& color) {
  draw_mesh(sphere_, glm::scale(glm::translate(glm::mat4(1.f), centre), glm::vec3(radius)), color);
}

void Renderer::draw_lines(const std::vector<LineVertex>& lines) {
  if (lines.empty()) return;
  glDisable(GL_DEPTH_TEST);
  glUseProgram(line_program_);
  glUniformMatrix4fv(glGetUniformLocation(line_program_, "view_projection"), 1, GL_FALSE,
                     glm::value_ptr(view_projection_));
  glBindVertexArray(line_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, line_vbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(lines.size() * sizeof(LineVertex)), lines.data(),
               GL_STREAM_DRAW);
  glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(lines.size()));
  glBindVertexArray(0);
  glEnable(GL_DEPTH_TEST);
}

} // namespace glide::viewer
