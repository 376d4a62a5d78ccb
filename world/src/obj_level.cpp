#include "obj_scan.hpp"

#include <glide/error.hpp>
#include <glide/limits.hpp>
#include <glide/world/obj_level.hpp>

#include <tiny_obj_loader.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace glide {

namespace {

// Reads a regular file of at most limits::k_max_obj_bytes: a device such as /dev/zero would
// be read until memory runs out, a directory reads as empty.
std::string read_file(const std::filesystem::path& path, const std::string& file) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) throw Error(file + ": cannot open file");
  if (!std::filesystem::is_regular_file(status)) throw Error(file + ": cannot open file: not a regular file");
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) throw Error(file + ": cannot open file: " + error.message());
  if (size > limits::k_max_obj_bytes)
    throw Error(file + ": " + std::to_string(size) + " bytes exceed the largest OBJ file of " +
                std::to_string(limits::k_max_obj_bytes) + " bytes");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(file + ": cannot open file");
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  if (in.bad() || in.gcount() != static_cast<std::streamsize>(size)) throw Error(file + ": read error");
  // A bare carriage return ends a line for tinyobjloader: make it one for the validating scan
  // too, which would otherwise read a statement hidden after it as part of the line before.
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out += text[i];
    } else if (i + 1 == text.size() || text[i + 1] != '\n') {
      out += '\n';
    }
  }
  return out;
}

std::vector<std::string> lines_of(const std::string& messages) {
  std::vector<std::string> out;
  std::istringstream in(messages);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

struct Convexity {
  float error = 0.f; ///< (m)
  int face = -1;     ///< index of the worst face
};

// A face of a convex object lies in a supporting plane of its points' hull: no point is beyond
// its plane on both sides. The hull's support mapping gives the farthest point either way, so
// the check costs one support call per face direction instead of a pass over every point.
Convexity convexity(const tinyobj::mesh_t& mesh, const std::vector<glm::vec3>& positions, const gjk::ConvexHull& hull) {
  Convexity worst;
  std::size_t offset = 0;
  for (std::size_t f = 0; f < mesh.num_face_vertices.size(); ++f) {
    const std::size_t n = mesh.num_face_vertices[f];
    glm::vec3 normal{0.f}, centroid{0.f};
    for (std::size_t k = 0; k < n; ++k) {
      const glm::vec3& a = positions[static_cast<std::size_t>(mesh.indices[offset + k].vertex_index)];
      const glm::vec3& b = positions[static_cast<std::size_t>(mesh.indices[offset + (k + 1) % n].vertex_index)];
      normal += glm::vec3{(a.y - b.y) * (a.z + b.z), (a.z - b.z) * (a.x + b.x), (a.x - b.x) * (a.y + b.y)}; // Newell
      centroid += a;
    }
    centroid /= static_cast<float>(n);
    const float length = glm::length(normal);
    if (length > 0.f && std::isfinite(length)) {
      normal /= length;
      float flatness = 0.f; // a warped polygon is no hull face either
      for (std::size_t k = 0; k < n; ++k) {
        const glm::vec3& p = positions[static_cast<std::size_t>(mesh.indices[offset + k].vertex_index)];
        flatness = std::max(flatness, std::abs(glm::dot(normal, p - centroid)));
      }
      const float above = glm::dot(normal, hull.support(normal) - centroid);
      const float below = glm::dot(normal, centroid - hull.support(-normal));
      const float error = std::max(std::min(above, below), flatness);
      if (error > worst.error) worst = {error, static_cast<int>(f)};
    }
    offset += n;
  }
  return worst;
}

std::string format_metres(float v) {
  std::ostringstream s;
  s.precision(4);
  s << v << " m";
  return s.str();
}

// What World::add_piece would refuse, checked before the world changes (limits.hpp).
void check_range(const gjk::ConvexHull& hull, const gjk::Transform& transform, const std::string& where) {
  const glm::vec3 size = hull.bounds_max() - hull.bounds_min();
  if (!(std::max({size.x, size.y, size.z}) <= limits::k_max_piece_size))
    throw Error(where + ": size " + limits::vec_text(size) + " exceeds the largest piece of " +
                limits::number_text(limits::k_max_piece_size) + " m along an axis");
  gjk::Aabb bounds;
  for (const glm::vec3& v : hull.vertices()) bounds = bounds.merged(transform.apply(v));
  if (!limits::in_range(bounds.min) || !limits::in_range(bounds.max))
    throw Error(where + ": spans " + limits::vec_text(bounds.min) + " to " + limits::vec_text(bounds.max) +
                " (m), beyond the valid coordinates (|v| <= " + limits::number_text(limits::k_max_coordinate) + " m)");
}

struct PendingPiece {
  gjk::ConvexHull hull;
  ObjLevelPiece report;
};

} // namespace

ObjLevelReport load_obj_level(World& world, const std::filesystem::path& path, const ObjLevelOptions& options) {
  const std::string file = path.string();
  if (!(options.scale > 0.f) || !std::isfinite(options.scale))
    throw Error("load_obj_level: options.scale must be finite and > 0, got " + std::to_string(options.scale));
  if (!(options.convexity_tolerance >= 0.f) || !std::isfinite(options.convexity_tolerance))
    throw Error("load_obj_level: options.convexity_tolerance must be finite and >= 0, got " +
                std::to_string(options.convexity_tolerance));

  const std::string text = read_file(path, file);
  detail::ObjScan scan = detail::scan_obj(text, file);
  ObjLevelReport report;
  report.warnings = std::move(scan.warnings);

  tinyobj::ObjReaderConfig config;
  config.triangulate = false; // keep polygons: each one is checked as a face of the hull
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  if (!reader.ParseFromString(text, "", config)) {
    const std::vector<std::string> errors = lines_of(reader.Error());
    throw Error(file + ": " + (errors.empty() ? std::string("parse error") : errors.front()));
  }
  for (const std::string& w : lines_of(reader.Warning())) report.warnings.push_back(file + ": " + w);

  const std::vector<tinyobj::real_t>& coords = reader.GetAttrib().vertices;
  std::vector<glm::vec3> positions(coords.size() / 3);
  for (std::size_t i = 0; i < positions.size(); ++i)
    positions[i] = options.scale * glm::vec3{coords[3 * i], coords[3 * i + 1], coords[3 * i + 2]};

  std::vector<const tinyobj::shape_t*> shapes;
  for (const tinyobj::shape_t& shape : reader.GetShapes())
    if (!shape.mesh.num_face_vertices.empty()) shapes.push_back(&shape);
  // The scan splits groups exactly as tinyobjloader does; if they ever disagree, names still
  // come from tinyobjloader and only line numbers are lost.
  const bool lines_known = shapes.size() == scan.groups.size();

  std::vector<PendingPiece> pending;
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    const tinyobj::mesh_t& mesh = shapes[s]->mesh;
    ObjLevelPiece piece;
    piece.line = lines_known ? scan.groups[s].line : 0;
    piece.name = lines_known ? scan.groups[s].name : shapes[s]->name;
    if (piece.name.empty()) piece.name = "object@" + std::to_string(piece.line);
    const std::string where = file + ":" + std::to_string(piece.line) + ": object '" + piece.name + "'";

    std::vector<glm::vec3> points;
    std::unordered_map<int, bool> seen;
    for (const tinyobj::index_t& index : mesh.indices) {
      if (index.vertex_index < 0 || static_cast<std::size_t>(index.vertex_index) >= positions.size())
        throw Error(where + ": vertex index out of range");
      if (seen.emplace(index.vertex_index, true).second) {
        points.push_back(positions[static_cast<std::size_t>(index.vertex_index)]);
        // Checked before the hull, whose time grows faster than the count.
        if (points.size() > limits::k_max_obj_object_vertices)
          throw Error(where + ": more than " + std::to_string(limits::k_max_obj_object_vertices) +
                      " vertices in one object; split it into smaller convex objects");
      }
    }
    std::optional<gjk::ConvexHull> hull;
    try {
      hull.emplace(points);
    } catch (const Error& e) {
      throw Error(where + ": " + e.what());
    }
    check_range(*hull, options.transform, where);

    const Convexity c = convexity(mesh, positions, *hull);
    piece.convexity_error = c.error;
    if (c.error > options.convexity_tolerance) {
      const int face_line =
          lines_known && c.face >= 0 && static_cast<std::size_t>(c.face) < scan.groups[s].face_lines.size()
              ? scan.groups[s].face_lines[static_cast<std::size_t>(c.face)]
              : piece.line;
      const std::string what = " is not convex: the face at line " + std::to_string(face_line) + " is " +
                               format_metres(c.error) + " from a face of its hull (tolerance " +
                               format_metres(options.convexity_tolerance) + ")";
      if (options.non_convex == NonConvexPolicy::error) throw Error(where + what);
      report.warnings.push_back(where + what + "; replaced by its convex hull");
      piece.replaced_by_hull = true;
    }
    pending.push_back({std::move(*hull), std::move(piece)});
  }
  if (pending.empty()) throw Error(file + ": no objects with faces");

  // Everything is validated: the world changes only now, so a failed load leaves it as it was.
  for (PendingPiece& p : pending) {
    p.report.id = world.add_piece(std::move(p.hull), options.transform, options.info);
    report.pieces.push_back(std::move(p.report));
  }
  return report;
}

} // namespace glide
