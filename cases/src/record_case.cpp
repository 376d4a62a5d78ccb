#include <glide/cases/record.hpp>
#include <glide/cases/settings_json.hpp>

#include "case_writer.hpp"
#include <glide/cases/json.hpp>

#include <glide/error.hpp>
#include <glide/gjk/aabb.hpp>
#include <glide/world/triangle_mesh.hpp>
#include <glide/world/world.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace glide {
namespace {

using cases::Json;
using cases::json_number;

Json vec(const glm::vec3& v) { return Json::array({json_number(v.x), json_number(v.y), json_number(v.z)}); }
/// A position of the world's float coordinates as the global one the case file holds.
Json position(const World& world, const glm::vec3& v) { return cases::json_position(world.origin(), v); }

std::string piece_name(PieceId id) { return "piece" + std::to_string(id.value); }

/// The triangles of mesh piece `id` whose placed boxes meet `box`, and those next to them (whose
/// edges decide which of theirs are active), as a "mesh" shape of just those vertices.
Json mesh_shape(const World& world, PieceId id, const gjk::Aabb& box) {
  const TriangleMesh& mesh = world.mesh(id);
  const gjk::Transform& t = world.transform(id);
  std::vector<bool> kept(mesh.triangle_count(), false);
  for (std::uint32_t k = 0; k < mesh.triangle_count(); ++k) {
    const TriangleMesh::Indices& c = mesh.triangles()[k];
    const gjk::Aabb placed = gjk::Aabb::of_point(t.apply(mesh.vertices()[c[0]]))
                                 .merged(t.apply(mesh.vertices()[c[1]]))
                                 .merged(t.apply(mesh.vertices()[c[2]]));
    if (!placed.overlaps(box)) continue;
    kept[k] = true;
    for (int e = 0; e < 3; ++e)
      if (const std::uint32_t n = mesh.neighbour(k, e); n != TriangleMesh::k_none) kept[n] = true;
  }
  std::vector<std::uint32_t> index(mesh.vertices().size(), TriangleMesh::k_none);
  Json vertices = Json::array(), triangles = Json::array();
  for (std::uint32_t k = 0; k < mesh.triangle_count(); ++k) {
    if (!kept[k]) continue;
    Json corners = Json::array();
    for (const std::uint32_t v : mesh.triangles()[k]) {
      if (index[v] == TriangleMesh::k_none) {
        index[v] = static_cast<std::uint32_t>(vertices.size());
        vertices.push_back(vec(mesh.vertices()[v]));
      }
      corners.push_back(index[v]);
    }
    triangles.push_back(corners);
  }
  return Json{{"type", "mesh"}, {"vertices", vertices}, {"triangles", triangles}};
}

Json piece_instance(const World& world, PieceId id, const gjk::Aabb& box) {
  const gjk::Transform& t = world.transform(id);
  Json inst = Json::object();
  inst["name"] = piece_name(id);
  if (world.is_mesh(id)) {
    inst["shape"] = mesh_shape(world, id, box);
  } else {
    Json points = Json::array();
    for (const glm::vec3& p : world.hull(id).vertices()) points.push_back(vec(p));
    inst["shape"] = Json{{"type", "hull"}, {"points", points}};
  }
  inst["position"] = position(world, t.translation);
  // The exact rotation as a quaternion [w, x, y, z]; Euler angles would not round-trip.
  inst["quat"] = Json::array(
      {json_number(t.rotation.w), json_number(t.rotation.x), json_number(t.rotation.y), json_number(t.rotation.z)});
  return inst;
}

/// The terrain samples under `box` (at least 2 x 2), heights written as world heights.
Json terrain_instance(const World& world, const Heightfield& terrain, const gjk::Aabb& box) {
  const glm::vec3 o = terrain.origin();
  const glm::vec2 cell = terrain.cell_size();
  const auto clamp_index = [](float v, int n) {
    return static_cast<int>(std::clamp(v, 0.f, static_cast<float>(n - 1)));
  };
  int c0 = clamp_index(std::floor((box.min.x - o.x) / cell.x), terrain.columns());
  int c1 = clamp_index(std::ceil((box.max.x - o.x) / cell.x), terrain.columns());
  int r0 = clamp_index(std::floor((box.min.z - o.z) / cell.y), terrain.rows());
  int r1 = clamp_index(std::ceil((box.max.z - o.z) / cell.y), terrain.rows());
  // A heightfield needs 2 x 2 samples; every terrain has at least that many.
  if (c1 == c0) {
    if (c1 + 1 < terrain.columns())
      ++c1;
    else
      --c0;
  }
  if (r1 == r0) {
    if (r1 + 1 < terrain.rows())
      ++r1;
    else
      --r0;
  }
  Json heights = Json::array(); // one array per row keeps the file readable
  for (int r = r0; r <= r1; ++r) {
    Json row = Json::array();
    for (int c = c0; c <= c1; ++c) row.push_back(json_number(terrain.height(r, c)));
    heights.push_back(row);
  }
  const glm::vec3 corner = terrain.vertex(r0, c0);
  Json shape = Json::object();
  shape["type"] = "heightfield";
  shape["rows"] = r1 - r0 + 1;
  shape["columns"] = c1 - c0 + 1;
  shape["cell_size"] = Json::array({json_number(cell.x), json_number(cell.y)});
  shape["heights"] = heights;
  Json inst = Json::object();
  inst["name"] = "terrain";
  inst["shape"] = shape;
  inst["position"] = position(world, {corner.x, 0.f, corner.z});
  return inst;
}

Json read_or_new(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return Json{{"cases", Json::array()}};
  std::ostringstream text;
  text << in.rdbuf();
  const Json doc = cases::parse_json(text.str(), file.string());
  if (!doc.is_object() || !doc.contains("cases") || !doc.at("cases").is_array())
    throw Error(file.string() + ": not a case file (no \"cases\" array)");
  return doc;
}

} // namespace

SweepHit record_case(const std::filesystem::path& file, const std::string& name, const World& world,
                     const gjk::Capsule& capsule, const glm::vec3& motion, const SweepSettings& settings,
                     const RecordOptions& options) {
  if (name.empty()) throw Error(file.string() + ": record_case needs a case name");
  const SweepHit hit = world.sweep_capsule(capsule, motion, {}, settings);

  const gjk::Aabb start = gjk::Aabb::of_point(capsule.segment.a).merged(capsule.segment.b);
  const gjk::Aabb box = start.swept(motion).expanded(capsule.radius + std::max(0.f, options.margin));
  Json instances = Json::array();
  for (const PieceId id : world.piece_ids())
    if (world.bounds(id).overlaps(box)) instances.push_back(piece_instance(world, id, box));
  if (const Heightfield* terrain = world.terrain()) instances.push_back(terrain_instance(world, *terrain, box));

  Json query = Json::object();
  query["type"] = "sweep";
  query["capsule"] = Json{{"type", "capsule"},
                          {"a", position(world, capsule.segment.a)},
                          {"b", position(world, capsule.segment.b)},
                          {"radius", json_number(capsule.radius)}};
  query["motion"] = vec(motion);
  query["settings"] = cases::settings_json(sweep_settings_table(), settings);

  Json expect = Json::object();
  expect["hit"] = hit.hit;
  if (hit.hit) {
    expect["fraction"] = json_number(hit.fraction);
    expect["point"] = position(world, hit.point);
    expect["normal"] = vec(hit.normal);
    expect["piece"] = hit.target == HitTarget::terrain ? std::string("terrain") : piece_name(hit.piece);
    expect["started_overlapped"] = hit.started_overlapped;
  }

  Json c = Json::object();
  c["name"] = name;
  if (!options.description.empty()) c["description"] = options.description;
  // The world's origin, so the replay computes in the same floats wherever the scene is.
  c["origin"] = Json::array({world.origin().x, world.origin().y, world.origin().z});
  c["world"] = instances;
  c["query"] = query;
  c["expect"] = expect;

  Json doc = read_or_new(file);
  Json& all = doc["cases"];
  const auto same =
      std::find_if(all.begin(), all.end(), [&](const Json& existing) { return existing.value("name", "") == name; });
  if (same != all.end())
    *same = c;
  else
    all.push_back(c);
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  cases::write_text_file(file, cases::dump_readable(doc));
  return hit;
}

} // namespace glide
