#include "case_queries.hpp"

#include "case_world.hpp"

#include <glide/error.hpp>
#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/intersect.hpp>
#include <glide/gjk/penetration.hpp>

#include <variant>

namespace glide::cases {
namespace {

// Every convex shape a case can name, placed in the world. Points and segments are spheres
// and capsules of radius 0 (the queries treat them identically), which keeps the pairs the
// queries are instantiated for to 5 x 5.
using PlacedShape = std::variant<gjk::Sphere, gjk::Capsule, gjk::Triangle, gjk::Transformed<gjk::Box>,
                                 gjk::Transformed<gjk::ConvexHull>>;

PlacedShape place(const Instance& inst) {
  const ShapeDef& s = inst.shape;
  const gjk::Transform& t = inst.transform;
  switch (s.kind) {
  case ShapeDef::Kind::point:
    return gjk::Sphere{t.apply(s.points[0]), 0.f};
  case ShapeDef::Kind::sphere:
    return gjk::Sphere{t.translation, s.radius};
  case ShapeDef::Kind::segment:
    return gjk::Capsule{{t.apply(s.points[0]), t.apply(s.points[1])}, 0.f};
  case ShapeDef::Kind::capsule:
    return gjk::Capsule{{t.apply(s.points[0]), t.apply(s.points[1])}, s.radius};
  case ShapeDef::Kind::triangle:
    return gjk::Triangle{t.apply(s.points[0]), t.apply(s.points[1]), t.apply(s.points[2])};
  case ShapeDef::Kind::box:
    return gjk::Transformed<gjk::Box>{gjk::Box{s.half_extents}, t};
  case ShapeDef::Kind::hull:
    return gjk::Transformed<gjk::ConvexHull>{gjk::ConvexHull(s.points), t};
  case ShapeDef::Kind::obj:
  case ShapeDef::Kind::heightfield:
  case ShapeDef::Kind::mesh:
    break;
  }
  throw Error(s.json_path + ": not a convex shape");
}

const Instance& find_instance(const Case& c, const std::string& name) {
  for (const auto& inst : c.world)
    if (inst.name == name) return inst;
  throw Error("no world instance named \"" + name + "\""); // the parser checked already
}

Value vec(const glm::vec3& v) { return v; }
Value num(float v) { return static_cast<double>(v); }

Actuals pair_query(const Case& c) {
  const PlacedShape a = place(find_instance(c, c.query.a));
  const PlacedShape b = place(find_instance(c, c.query.b));
  return std::visit(
      [&](const auto& sa, const auto& sb) -> Actuals {
        switch (c.query.type) {
        case QueryType::distance: {
          const gjk::DistanceResult r = gjk::distance(sa, sb);
          return {{"distance", num(r.distance)},
                  {"point_a", Point{c.origin, r.point_a}},
                  {"point_b", Point{c.origin, r.point_b}},
                  {"normal", vec(r.normal)}};
        }
        case QueryType::intersect:
          return {{"overlapping", gjk::intersect(sa, sb)}};
        case QueryType::penetration: {
          const gjk::PenetrationResult r = gjk::penetration(sa, sb);
          if (!r.overlapping) return {{"overlapping", false}, {"depth", num(0.f)}};
          return {{"overlapping", true},
                  {"depth", num(r.depth)},
                  {"normal", vec(r.normal)},
                  {"point_a", Point{c.origin, r.point_a}},
                  {"point_b", Point{c.origin, r.point_b}}};
        }
        default:
          return {};
        }
      },
      a, b);
}

} // namespace

Actuals evaluate(const Case& c) {
  switch (c.query.type) {
  case QueryType::distance:
  case QueryType::intersect:
  case QueryType::penetration:
    return pair_query(c);
  case QueryType::sweep:
    return sweep_query(c);
  case QueryType::raycast:
    return raycast_query(c);
  case QueryType::move:
    return move_query(c);
  }
  return {};
}

} // namespace glide::cases
