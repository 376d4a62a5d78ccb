#include "gltf_model.hpp"
#include "level_pieces.hpp"

#include <glide/error.hpp>
#include <glide/limits.hpp>
#include <glide/world/gltf_level.hpp>

#include <glm/ext/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <cmath>
#include <cstring>
#include <optional>
#include <string_view>
#include <unordered_set>

namespace glide {

std::size_t GltfLevelReport::triangle_count() const {
  std::size_t n = 0;
  for (const GltfLevelMesh& m : meshes) n += m.triangles;
  return n;
}

namespace {

using detail::GltfModel;

bool finite(const std::vector<double>& values) {
  for (double v : values)
    if (!std::isfinite(v)) return false;
  return true;
}

std::string numbers_text(const std::vector<double>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + limits::number_text(static_cast<float>(values[i]));
  return out + "]";
}

// The node's local matrix: `matrix` (column-major) or translation * rotation * scale.
glm::dmat4 local_matrix(const tinygltf::Node& node, const std::string& where) {
  const auto check = [&](const std::vector<double>& values, std::size_t size, const char* name) {
    if (!values.empty() && values.size() != size)
      throw Error(where + ": " + name + " has " + std::to_string(values.size()) + " numbers, expected " +
                  std::to_string(size));
    if (!finite(values)) throw Error(where + ": " + name + " is not finite: " + numbers_text(values));
  };
  check(node.matrix, 16, "matrix");
  check(node.translation, 3, "translation");
  check(node.rotation, 4, "rotation");
  check(node.scale, 3, "scale");
  if (!node.matrix.empty()) return glm::make_mat4(node.matrix.data());
  glm::dmat4 m(1.0);
  if (!node.translation.empty()) m = glm::translate(m, glm::make_vec3(node.translation.data()));
  if (!node.rotation.empty()) {
    const glm::dquat q(node.rotation[3], node.rotation[0], node.rotation[1], node.rotation[2]); // glTF: x, y, z, w
    const double length = glm::length(q);
    if (!(length > 1e-6)) throw Error(where + ": rotation " + numbers_text(node.rotation) + " is not a rotation");
    m *= glm::mat4_cast(q / length);
  }
  if (!node.scale.empty()) m = glm::scale(m, glm::make_vec3(node.scale.data()));
  return m;
}

bool mesh_marked(const tinygltf::Node& node) {
  constexpr std::string_view k_suffix = "-mesh";
  if (node.name.ends_with(k_suffix)) return true;
  if (!node.extras.IsObject() || !node.extras.Has("glide")) return false;
  const tinygltf::Value& mark = node.extras.Get("glide");
  return mark.IsString() && mark.Get<std::string>() == "mesh";
}

// Every vertex of a node's mesh placed by the node's world matrix, and its triangles.
struct NodeGeometry {
  std::vector<glm::vec3> positions;
  std::vector<std::uint32_t> triangles;     ///< three indices into positions each
  std::vector<std::size_t> primitive_start; ///< first triangle of each primitive
};

NodeGeometry node_geometry(const GltfModel& model, const tinygltf::Mesh& mesh, const glm::dmat4& matrix, float scale,
                           const std::string& where) {
  NodeGeometry g;
  for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
    const std::string at = where + ": primitive " + std::to_string(p);
    const detail::GltfPrimitive primitive = model.primitive(mesh.primitives[p], at);
    const auto base = static_cast<std::uint32_t>(g.positions.size());
    for (std::size_t i = 0; i < primitive.positions.size(); ++i) {
      const glm::dvec3 v = glm::dvec3(matrix * glm::dvec4(glm::dvec3(primitive.positions[i]), 1.0)) * double(scale);
      const glm::vec3 f(v);
      if (!std::isfinite(f.x) || !std::isfinite(f.y) || !std::isfinite(f.z))
        throw Error(at + ": vertex " + std::to_string(i) + " is not finite once placed by the node transforms");
      g.positions.push_back(f);
    }
    g.primitive_start.push_back(g.triangles.size() / 3);
    for (std::uint32_t index : primitive.triangles) g.triangles.push_back(base + index);
  }
  return g;
}

// Which primitive and triangle face `face` of a node is.
std::string triangle_text(const NodeGeometry& g, int face) {
  std::size_t p = 0;
  while (p + 1 < g.primitive_start.size() && g.primitive_start[p + 1] <= static_cast<std::size_t>(face)) ++p;
  return "triangle " + std::to_string(static_cast<std::size_t>(face) - g.primitive_start[p]) + " of primitive " +
         std::to_string(p);
}

struct BitsHash {
  std::size_t operator()(const glm::vec3& v) const {
    std::uint32_t b[3];
    std::memcpy(b, &v, sizeof b);
    return (std::size_t{b[0]} * 73856093u) ^ (std::size_t{b[1]} * 19349663u) ^ (std::size_t{b[2]} * 83492791u);
  }
};

// The node's distinct vertices in the order its triangles first use them.
std::vector<glm::vec3> used_points(const NodeGeometry& g) {
  std::vector<glm::vec3> points;
  std::unordered_set<glm::vec3, BitsHash> seen;
  for (std::uint32_t index : g.triangles) {
    if (seen.insert(g.positions[index]).second) points.push_back(g.positions[index]);
    if (points.size() > limits::k_max_obj_object_vertices) break; // piece_hull says so
  }
  return points;
}

struct Pending {
  gjk::ConvexHull hull;
  std::optional<TriangleMesh> mesh; ///< a mesh-marked node's, instead of the hull
  std::size_t report_index = 0;     ///< into pieces, or meshes for a mesh
};

// What World::add_mesh would refuse (placed coordinates), checked before the world changes.
void check_mesh_range(const TriangleMesh& mesh, const gjk::Transform& transform, const std::string& where) {
  for (const glm::vec3& v : mesh.vertices()) {
    const glm::vec3 placed = transform.apply(v);
    if (!limits::in_range(placed))
      throw Error(where + ": a vertex placed at " + limits::vec_text(placed) +
                  " is beyond the valid coordinates (|v| <= " + limits::number_text(limits::k_max_coordinate) + " m)");
  }
}

class LevelBuilder {
public:
  LevelBuilder(const GltfModel& model, const GltfLevelOptions& options, GltfLevelReport& report)
      : model_(model), options_(options), report_(report), reached_(model.model().nodes.size(), false) {}

  void node(int index, const glm::dmat4& parent, int depth) {
    const std::vector<tinygltf::Node>& nodes = model_.model().nodes;
    if (index < 0 || static_cast<std::size_t>(index) >= nodes.size())
      throw Error(model_.file() + ": node index " + std::to_string(index) + " out of range (" +
                  std::to_string(nodes.size()) + " nodes)");
    const tinygltf::Node& n = nodes[static_cast<std::size_t>(index)];
    const std::string name = n.name.empty() ? "node " + std::to_string(index) : n.name;
    const std::string where = model_.file() + ": node '" + name + "'";
    if (reached_[static_cast<std::size_t>(index)])
      throw Error(where + ": reached twice (a node may have one parent and must not contain itself)");
    reached_[static_cast<std::size_t>(index)] = true;
    if (depth > limits::k_max_json_depth)
      throw Error(where + ": nested deeper than " + std::to_string(limits::k_max_json_depth) + " nodes");
    const glm::dmat4 matrix = parent * local_matrix(n, where);
    if (n.mesh >= 0) add_mesh(index, name, n, matrix, where);
    for (int child : n.children) node(child, matrix, depth + 1);
  }

  std::vector<Pending>& pending() { return pending_; }

private:
  void add_mesh(int index, const std::string& name, const tinygltf::Node& n, const glm::dmat4& matrix,
                std::string where) {
    const std::vector<tinygltf::Mesh>& meshes = model_.model().meshes;
    if (static_cast<std::size_t>(n.mesh) >= meshes.size())
      throw Error(where + ": mesh index " + std::to_string(n.mesh) + " out of range (" + std::to_string(meshes.size()) +
                  " meshes)");
    const tinygltf::Mesh& mesh = meshes[static_cast<std::size_t>(n.mesh)];
    const std::string mesh_name = mesh.name.empty() ? "mesh " + std::to_string(n.mesh) : mesh.name;
    where += ", mesh '" + mesh_name + "'";
    const NodeGeometry g = node_geometry(model_, mesh, matrix, options_.scale, where);
    if (g.triangles.empty()) throw Error(where + ": no triangles");

    if (mesh_marked(n)) {
      std::vector<TriangleMesh::Indices> triangles(g.triangles.size() / 3);
      for (std::size_t t = 0; t < triangles.size(); ++t)
        triangles[t] = {g.triangles[3 * t], g.triangles[3 * t + 1], g.triangles[3 * t + 2]};
      std::optional<TriangleMesh> mesh;
      try {
        mesh.emplace(g.positions, std::move(triangles));
      } catch (const Error& e) {
        constexpr std::string_view k_prefix = "TriangleMesh: "; // the node says what it is
        std::string_view message = e.what();
        if (message.starts_with(k_prefix)) message.remove_prefix(k_prefix.size());
        throw Error(where + ": " + std::string(message));
      }
      check_mesh_range(*mesh, options_.transform, where);
      GltfLevelMesh m{name, index, mesh_name, {}, mesh->triangle_count(), mesh->dropped_triangles()};
      pending_.push_back({{}, std::move(mesh), report_.meshes.size()});
      if (m.skipped_triangles > 0)
        report_.warnings.push_back(where + ": " + std::to_string(m.skipped_triangles) + " zero-area triangles skipped");
      report_.meshes.push_back(std::move(m));
      return;
    }

    GltfLevelPiece piece{name, index, mesh_name, {}, false, 0.f};
    gjk::ConvexHull hull = detail::piece_hull(used_points(g), where, "nodes");
    detail::check_range(hull, options_.transform, where);
    detail::PieceFaces faces;
    faces.face_sizes.assign(g.triangles.size() / 3, 3);
    faces.indices = g.triangles;
    const detail::Convexity c = detail::convexity(faces, g.positions, hull);
    piece.convexity_error = c.error;
    piece.replaced_by_hull = detail::non_convex(c, where, c.face >= 0 ? triangle_text(g, c.face) : "a triangle",
                                                options_.non_convex, options_.convexity_tolerance, report_.warnings);
    pending_.push_back({std::move(hull), std::nullopt, report_.pieces.size()});
    report_.pieces.push_back(std::move(piece));
  }

  const GltfModel& model_;
  const GltfLevelOptions& options_;
  GltfLevelReport& report_;
  std::vector<bool> reached_;
  std::vector<Pending> pending_;
};

} // namespace

GltfLevelReport load_gltf_level(World& world, const std::filesystem::path& path, const GltfLevelOptions& options) {
  detail::check_level_options("load_gltf_level", options.scale, options.convexity_tolerance);
  const GltfModel model(path);
  GltfLevelReport report;
  report.warnings = model.warnings();

  LevelBuilder builder(model, options, report);
  for (int root : model.root_nodes()) builder.node(root, glm::dmat4(1.0), 0);
  if (report.pieces.empty() && report.meshes.empty()) throw Error(model.file() + ": no nodes with meshes in the scene");
  PieceInfo mesh_info = options.info;
  mesh_info.kinematic = false; // a mesh piece is static

  // Everything is validated: the world changes only now, so a failed load leaves it as it was.
  for (Pending& p : builder.pending()) {
    if (p.mesh)
      report.meshes[p.report_index].id = world.add_mesh(std::move(*p.mesh), options.transform, mesh_info);
    else
      report.pieces[p.report_index].id = world.add_piece(std::move(p.hull), options.transform, options.info);
  }
  return report;
}

} // namespace glide
