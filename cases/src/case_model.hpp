#pragma once

// The parsed form of a case file (see docs/cases.md). Private to the controller library:
// the public face is glide/cases/cases.hpp.

#include <glide/controller/controller_settings.hpp>
#include <glide/controller/player_step.hpp>
#include <glide/gjk/shapes.hpp>
#include <glide/world/piece_path.hpp>

#include <glm/ext/vector_double3.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace glide::cases {

/// One shape definition, in the local space of the instance that places it.
struct ShapeDef {
  enum class Kind { point, segment, triangle, box, sphere, capsule, hull, obj, heightfield, mesh };
  Kind kind = Kind::point;
  /// point: 1, segment and capsule: 2, triangle: 3, hull: >= 1, mesh: its vertices (m, from offset)
  std::vector<glm::vec3> points;
  std::vector<std::array<std::uint32_t, 3>> triangles; ///< mesh: vertex indices, three per triangle
  float flat_angle = 0.f;                              ///< mesh: TriangleMeshSettings::flat_angle (radians)
  /// What the points are relative to (m): zero or the case's origin when one is within 1 km of
  /// their middle, else the multiple of 16 m nearest it, so points written far out keep their
  /// float precision. The instance placing the shape takes it into its translation.
  glm::dvec3 offset{0.0};
  glm::vec3 half_extents{0.f}; ///< box (m)
  float radius = 0.f;          ///< sphere and capsule (m)
  std::filesystem::path file;  ///< obj, and heightfield from a file: resolved against the case file
  float scale = 1.f;           ///< obj: uniform scale applied to the vertices
  bool use_hull = false;       ///< obj: a non-convex object becomes its hull instead of an error
  // Inline heightfield.
  int rows = 0, columns = 0;
  std::vector<float> heights; ///< row-major, rows * columns (m)
  glm::vec2 cell_size{1.f};   ///< spacing along x and z (m)
  float height_scale = 1.f;   ///< world height per stored unit (a file's full-scale value) (m)
  float height_offset = 0.f;  ///< added to every scaled height (m)
  std::string json_path;      ///< where it was written, for error messages

  bool convex() const { return kind != Kind::obj && kind != Kind::heightfield && kind != Kind::mesh; }
};

/// A shape placed in the world.
struct Instance {
  std::string name;
  ShapeDef shape;
  gjk::Transform transform;
  std::optional<PiecePath> motion; ///< a kinematic piece moved along this path by move queries
  std::string motion_path;         ///< JSON path of "motion", for error messages
};

enum class QueryType { distance, intersect, penetration, sweep, raycast, move };

/// A controller run over frames: every frame the game asks for `velocity` and applies its
/// own gravity, as a player update does (docs/cases.md, "move").
struct MoveQuery {
  struct Frames {
    glm::vec3 velocity{0.f}; ///< desired velocity, without gravity (m/s)
    int count = 1;           ///< frames it is held for
    bool jump = false;       ///< ask for a jump every frame of the run (taken on walkable ground)
  };
  ControllerSettings settings;
  glm::vec3 start{0.f};          ///< feet at the first frame (m)
  glm::vec3 start_velocity{0.f}; ///< the game's velocity before the first frame (m/s)
  float dt = 1.f / 60.f;         ///< frame time (s)
  PlayerSettings player;         ///< the game's gravity, jump speed and keep_ground_velocity
  std::vector<Frames> frames;
  std::string relative_to; ///< instance whose frame relative_drift is measured in (empty: none)
};

struct Query {
  QueryType type = QueryType::distance;
  // distance, intersect, penetration: two world instances by name.
  std::string a, b;
  // sweep: a capsule (local space) placed at `pose`, moved by `motion`.
  ShapeDef capsule;
  gjk::Transform pose;
  glm::vec3 motion{0.f};
  SweepSettings sweep; ///< sweep and raycast: the query's "method" and "settings" over the defaults
  // raycast.
  glm::vec3 origin{0.f};
  glm::vec3 direction{0.f, -1.f, 0.f}; ///< normalised while parsing
  float max_distance = 0.f;
  // move.
  MoveQuery move;
};

/// A position: `local` in the float coordinates the case is computed in, relative to the case's
/// `origin` (m).
struct Point {
  glm::dvec3 origin{0.0};
  glm::vec3 local{0.f};
  glm::dvec3 global() const { return origin + glm::dvec3(local); }
};

/// An expected or actual value: none (a miss has no point), boolean, number, vector (a
/// direction or a velocity), position, text.
using Value = std::variant<std::monostate, bool, double, glm::vec3, Point, std::string>;

struct Expectation {
  enum class Kind { equal, at_least, at_most };
  std::string key;   ///< as written, e.g. "fraction_at_least"
  std::string field; ///< the actual value it checks, e.g. "fraction"
  Kind kind = Kind::equal;
  Value expected;
  double tolerance = 0.0;
  bool tolerance_written = false; ///< {"value": v, "tol": t} rather than a bare value
  /// A coordinate far from zero (a position's component, a height): compared in double as
  /// written, not rounded to float first.
  bool global = false;
};

struct Case {
  std::string name;
  std::size_t index = 0; ///< position in the file's "cases" array
  double tolerance = 1e-4;
  /// Positions are computed relative to it (m): a multiple of 16 m near the scene (docs/cases.md,
  /// "Large coordinates"); zero for a scene within 8 m of the origin.
  glm::dvec3 origin{0.0};
  std::vector<Instance> world;
  Query query;
  std::vector<Expectation> expect;
};

/// A named actual result of a query, in a fixed order per query type.
struct Actual {
  std::string field;
  Value value;
};
using Actuals = std::vector<Actual>;

} // namespace glide::cases
