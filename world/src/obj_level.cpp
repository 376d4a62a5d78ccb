#include "level_pieces.hpp"
#include "obj_scan.hpp"

#include <glide/error.hpp>
#include <glide/limits.hpp>
#include <glide/world/obj_level.hpp>

#include <tiny_obj_loader.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace glide {

namespace {

// A bare carriage return ends a line for tinyobjloader: make it one for the validating scan
// too, which would otherwise read a statement hidden after it as part of the line before.
std::string normalise_line_ends(const std::string& text) {
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

detail::PieceFaces faces_of(const tinyobj::mesh_t& mesh) {
  detail::PieceFaces faces;
  faces.face_sizes.assign(mesh.num_face_vertices.begin(), mesh.num_face_vertices.end());
  faces.indices.reserve(mesh.indices.size());
  for (const tinyobj::index_t& index : mesh.indices)
    faces.indices.push_back(static_cast<std::uint32_t>(index.vertex_index));
  return faces;
}

struct PendingPiece {
  gjk::ConvexHull hull;
  ObjLevelPiece report;
};

} // namespace

ObjLevelReport load_obj_level(World& world, const std::filesystem::path& path, const ObjLevelOptions& options) {
  const std::string file = path.string();
  detail::check_level_options("load_obj_level", options.scale, options.convexity_tolerance);

  const std::string text = normalise_line_ends(detail::read_level_file(path, file, "OBJ"));
  detail::ObjScan scan = detail::scan_obj(text, file);
  ObjLevelReport report;
  report.warnings = std::move(scan.warnings);

  tinyobj::ObjReaderConfig config;
  config.triangulate = false; // keep polygons: each one is checked as a face of the hull
  config.vertex_color = false;
  tinyobj::ObjReader reader;
  if (!reader.ParseFromString(text, "", config)) {
    const std::vector<std::string> errors = detail::lines_of(reader.Error());
    throw Error(file + ": " + (errors.empty() ? std::string("parse error") : errors.front()));
  }
  for (const std::string& w : detail::lines_of(reader.Warning())) report.warnings.push_back(file + ": " + w);

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
        if (points.size() > limits::k_max_obj_object_vertices) break; // piece_hull says so
      }
    }
    gjk::ConvexHull hull = detail::piece_hull(points, where, "objects");
    detail::check_range(hull, options.transform, where);

    const detail::Convexity c = detail::convexity(faces_of(mesh), positions, hull);
    piece.convexity_error = c.error;
    const int face_line =
        lines_known && c.face >= 0 && static_cast<std::size_t>(c.face) < scan.groups[s].face_lines.size()
            ? scan.groups[s].face_lines[static_cast<std::size_t>(c.face)]
            : piece.line;
    piece.replaced_by_hull = detail::non_convex(c, where, "the face at line " + std::to_string(face_line),
                                                options.non_convex, options.convexity_tolerance, report.warnings);
    pending.push_back({std::move(hull), std::move(piece)});
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
