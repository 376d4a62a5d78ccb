#include "field_copy.hpp"

#include <glide/controller/controller.hpp>
#include <glide/error.hpp>
#include <glide/limits.hpp>
#include <glide/world/world.hpp>

#include <glm/geometric.hpp>
#include <glm/gtc/constants.hpp>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

namespace glide {

namespace {

using limits::finite;

std::string to_string(const glm::vec3& v) {
  return "(" + std::to_string(v.x) + ", " + std::to_string(v.y) + ", " + std::to_string(v.z) + ")";
}

void check_position(const glm::vec3& p, const char* what) {
  if (!finite(p)) throw Error(std::string(what) + " " + to_string(p) + " is not finite");
  if (!limits::in_range(p))
    throw Error(std::string(what) + " " + limits::vec_text(p) +
                " is beyond the valid coordinates (|v| <= " + limits::number_text(limits::k_max_coordinate) + " m)");
}

} // namespace

// velocity * dt in double: its float product may overflow where the inputs do not.
void Controller::check_motion(const glm::vec3& velocity, float dt, const char* what) {
  if (!finite(velocity)) throw Error(std::string(what) + " " + to_string(velocity) + " is not finite");
  const double distance = move_distance(velocity, dt);
  if (distance > limits::k_max_move_distance)
    throw Error(std::string(what) + " " + limits::vec_text(velocity) + " times dt " + limits::number_text(dt) +
                " s moves " +
                [&] {
                  char text[32];
                  std::snprintf(text, sizeof text, "%.6g", distance);
                  return std::string(text);
                }() +
                " m, more than the " + limits::number_text(limits::k_max_move_distance) + " m of one move");
}

Controller::Controller(const World& world, const ControllerSettings& settings, const glm::vec3& position)
    : Controller(std::make_shared<const ControllerSettings>(settings), world, position) {}

Controller::Controller(std::shared_ptr<const ControllerSettings> settings, const World& world,
                       const glm::vec3& position)
    : world_(&world), world_origin_(&world.origin()), settings_(std::move(settings)),
      max_slope_cos_(std::cos(settings_->max_slope)), position_(position), origin_(world.origin()) {
  validate(*settings_);
  check_position(position, "Controller: start position");
  trace_.iterations.reserve(static_cast<std::size_t>(2 * settings_->max_slide_iterations + 4));
  update_ground();
  seen_revision_ = world_->revision();
}

QueryFilter Controller::filtered_query() const {
  return {settings_->layer_mask, [this](PieceId id) {
            return (!settings_->filter || settings_->filter(id)) && (!listener_ || listener_->validate(id));
          }};
}

QueryFilter Controller::query_filter_except(PieceId piece) const {
  QueryFilter filter = query_filter();
  filter.accept = [piece, accept = std::move(filter.accept)](PieceId id) {
    return id != piece && (!accept || accept(id));
  };
  return filter;
}

SweepSettings Controller::sweep_settings() const {
  SweepSettings s;
  s.method = settings_->toi_method;
  s.tolerance = settings_->toi_tolerance;
  return s;
}

// Sweeps a capsule inflated by the skin, so a hit stops the real capsule skin_width short of
// the contact along its normal, at any angle of approach.
SweepHit Controller::sweep(const glm::vec3& motion) const {
  return nearby_.sweep_capsule(*world_, swept_capsule(), motion, query_filter(), sweep_settings());
}

gjk::Capsule Controller::swept_capsule() const {
  gjk::Capsule inflated = capsule_at(position_);
  inflated.radius += settings_->skin_width;
  return inflated;
}

// Room for everything one move may query beyond its motion (a step up and over, the floor
// snap, the ground probe), so a walking character gathers anew only every few decimetres. The
// motion's share stops at k_gather_motion_cap: a 6 m move (100 m/s at 15 Hz) otherwise gathered
// a box 20 m wide, thousands of terrain triangles that every sweep of the move then culled.
float Controller::gather_margin(const glm::vec3& motion) const {
  constexpr float k_gather_motion_cap = 1.f; // (m)
  return std::min(glm::length(motion), k_gather_motion_cap) + settings_->step_height + settings_->step_min_forward +
         settings_->floor_snap_distance + 4.f * settings_->skin_width;
}

// The normal that decides walkability. The closest-points normal of a capsule resting on an
// edge (a step's nose, a ledge) tilts toward the capsule, so it would call a flat step top
// steep; the most upward face of the piece through the contact point tells what the character
// really stands on. Only edges low enough to step over count, so walls stay walls.
glm::vec3 Controller::surface_normal(HitTarget target, PieceId piece, const glm::vec3& point,
                                     const glm::vec3& contact_normal, std::uint32_t triangle,
                                     const NearbyPieces::FaceProbe& probe) const {
  const glm::vec3& up = settings_->up;
  if (target != HitTarget::piece || glm::dot(contact_normal, up) <= 0.f) return contact_normal;
  if (glm::dot(point - position_, up) > settings_->step_height + settings_->skin_width) return contact_normal;
  if (triangle != ~0u) return mesh_surface_normal(piece, triangle, point, contact_normal);
  glm::vec3 best = contact_normal;
  // Inside a face the character already touches, that face is the only one through the point.
  const float margin = 1e-4f + 1e-6f * glm::length(point);
  if (const glm::vec3* face =
          probe.face != nullptr ? probe.face_normal(point, margin) : nearby_.face_normal(piece, point, margin)) {
    if (glm::dot(*face, contact_normal) > 0.f && glm::dot(*face, up) > glm::dot(best, up)) best = *face;
    return best;
  }
  const gjk::Transform& transform = world_->transform(piece);
  const glm::vec3 local = transform.apply_inverse(point);
  const float tolerance = 1e-4f + 1e-6f * glm::length(local);
  for (const gjk::HullFace& face : world_->hull(piece).faces()) {
    if (std::abs(glm::dot(face.normal, local) - face.offset) > tolerance) continue;
    const glm::vec3 n = transform.rotation * face.normal;
    if (glm::dot(n, contact_normal) > 0.f && glm::dot(n, up) > glm::dot(best, up)) best = n;
  }
  return best;
}

// surface_normal on a mesh piece: the faces through the point are the triangle's and, on an
// edge, its neighbour's across it; each is taken from the side the capsule is on.
glm::vec3 Controller::mesh_surface_normal(PieceId piece, std::uint32_t triangle, const glm::vec3& point,
                                          const glm::vec3& contact_normal) const {
  const glm::vec3& up = settings_->up;
  const TriangleMesh& mesh = world_->mesh(piece);
  const gjk::Transform& transform = world_->transform(piece);
  const glm::vec3 local = transform.apply_inverse(point);
  const float tolerance = 1e-4f + 1e-6f * glm::length(local);
  glm::vec3 best = contact_normal;
  const auto consider = [&](std::uint32_t t) {
    glm::vec3 n = transform.rotation * mesh.face_normal(t);
    if (glm::dot(n, contact_normal) < 0.f) n = -n;
    if (glm::dot(n, contact_normal) > 0.f && glm::dot(n, up) > glm::dot(best, up)) best = n;
  };
  consider(triangle);
  const TriangleMesh::Indices& corners = mesh.triangles()[triangle];
  for (int e = 0; e < 3; ++e) {
    const std::uint32_t other = mesh.neighbour(triangle, e);
    if (other == TriangleMesh::k_none) continue;
    const glm::vec3 p = mesh.vertices()[corners[static_cast<std::size_t>(e)]];
    const glm::vec3 d = mesh.vertices()[corners[static_cast<std::size_t>((e + 1) % 3)]] - p;
    const float u = std::clamp(glm::dot(local - p, d) / glm::dot(d, d), 0.f, 1.f);
    if (glm::length(local - (p + u * d)) <= tolerance) consider(other);
  }
  return best;
}

void Controller::refuse_move(const glm::vec3& velocity, float dt) const {
  if (!finite(velocity)) throw Error("Controller::move: velocity " + to_string(velocity) + " is not finite");
  if (!std::isfinite(dt) || !(dt > 0.f))
    throw Error("Controller::move: dt = " + std::to_string(dt) + " must be positive and finite (s)");
  check_motion(velocity, dt, "Controller::move: velocity");
  // Checked before anything changes: the world's pieces lie in the range, so the character
  // leaves it only by its own motion.
  if (!limits::in_range(position_ + velocity * dt))
    throw Error("Controller::move: the move would take the character from " + limits::vec_text(position_) + " to " +
                limits::vec_text(position_ + velocity * dt) +
                ", beyond the valid coordinates (|v| <= " + limits::number_text(limits::k_max_coordinate) + " m)");
}

void Controller::rewind(const Checkpoint& c) {
  position_ = c.position;
  ground_ = c.ground;
  probe_cache_ = c.probe_cache;
  failed_step_ = c.failed_step;
  ridden_ = c.ridden;
  seen_revision_ = c.seen_revision;
}

void Controller::pick_characters() {
  if (!settings_->character_filter && !listener_) {
    nearby_.set_characters(given_characters_);
    return;
  }
  picked_characters_.clear();
  for (const CapsuleObstacle& o : given_characters_)
    if (accepts_character(o.id)) picked_characters_.push_back(o);
  nearby_.set_characters(picked_characters_);
}

void Controller::rebase() {
  const glm::dvec3 by = origin_ - world_->origin();
  position_ = glm::vec3(glm::dvec3(position_) + by);
  ground_.point = glm::vec3(glm::dvec3(ground_.point) + by);
  origin_ = world_->origin();
  trace_.iterations.clear();
  nearby_.clear();
  probe_cache_ = {};
  failed_step_ = {};
}

MoveResult Controller::move(const glm::vec3& velocity, float dt) {
  follow_origin();
  check_move(velocity, dt);
  MoveResult result;
  move_checked(velocity, dt, result);
  return result;
}

void Controller::move_checked(const glm::vec3& velocity, float dt, MoveResult& result) {
  // Every move on this thread fills one contact list, which stays in cache; this character's
  // own, touched once a frame, came from memory among thousands (NearbyPieces::lend_contact_list).
  thread_local std::vector<Contact> contacts;
  nearby_.lend_contact_list(&contacts);
  struct GiveBack {
    NearbyPieces& nearby;
    ~GiveBack() { nearby.lend_contact_list(nullptr); } // also when a listener's velocity throws
  } give_back{nearby_};
  if (!given_characters_.empty()) pick_characters();
  trace_.iterations.clear();
  const glm::vec3 start = position_;
  const glm::vec3& up = settings_->up;
  ride(result);
  // A ride a character stopped reported the ground's whole push: recovery out of it is the same push.
  const bool ride_stopped = result.push_stopper.target == HitTarget::character;
  be_pushed(result);
  // Walking: on walkable ground and not jumping off it. Walking uphill the velocity may point
  // up, walking downhill away from the ground's plane; only both together leave the ground.
  const bool leaving = glm::dot(velocity, up) > 1e-3f && glm::dot(velocity, ground_.normal) > 1e-3f;
  const bool walking = ground_.state == GroundState::on_ground && !leaving;

  const glm::vec3 reach = velocity * dt;
  nearby_.reach(*world_, gjk::capsule_bounds(swept_capsule()).swept(reach), gather_margin(reach));
  result.recovered = recover(dt, ride_stopped, result);

  glm::vec3 motion = velocity * dt, kept_velocity = velocity;
  if (walking) {
    // Walk in the ground plane instead of pushing into it: gravity on a walkable slope then
    // cancels exactly, so an idle character neither slides down nor reports a velocity. The
    // motion follows the contact (on an edge, over its rounded path) unless that is too steep;
    // the velocity follows the surface, so stepping over an edge does not read as a jump.
    const auto along = [&](const glm::vec3& v, const glm::vec3& n) {
      const float along_up = glm::dot(n, up);
      return along_up > 1e-3f ? v - up * (glm::dot(v, n) / along_up) : v;
    };
    motion = along(motion, walkable(ground_.contact_normal) ? ground_.contact_normal : ground_.normal);
    kept_velocity = along(velocity, ground_.normal);
  }
  slide(motion, kept_velocity, dt, walking, result);
  update_ground();
  // Walking off a step or down a slope leaves the ground for a moment: stick back to it, at
  // the skin distance, so where a walk ends does not depend on the frame rate.
  const bool off_ground = ground_.state != GroundState::on_ground ||
                          ground_.distance > settings_->skin_width + 2.f * settings_->toi_tolerance;
  if (walking && off_ground && snap_to_floor()) update_ground();
  report_ground(result);
  result.position = position_;
  result.displacement = position_ - start;
  seen_revision_ = world_->revision();
}

void Controller::report_ground(MoveResult& result) const {
  detail::copy_fields(result.ground, ground_);
  result.flags.below = result.flags.below || ground_.state != GroundState::in_air;
}

void Controller::record_hit(const SweepHit& hit, float fraction, MoveResult& result) const {
  const ControllerHit h = hit_of(hit, fraction);
  const glm::vec3& up = settings_->up;
  const float facing = glm::dot(hit.normal, up);
  const float height = glm::dot(hit.point - position_, up);
  if (facing > 1e-3f && height <= settings_->radius)
    result.flags.below = true;
  else if (facing < -1e-3f && height >= settings_->height - settings_->radius)
    result.flags.above = true;
  else
    result.flags.sides = true;
  if (result.hit_count < MoveResult::k_max_hits) result.hits[static_cast<std::size_t>(result.hit_count++)] = h;
  if (listener_) listener_->on_contact_added(h);
}

void Controller::teleport(const glm::vec3& position) {
  check_position(position, "Controller::teleport: position");
  follow_origin();
  position_ = position;
  trace_.iterations.clear();
  if (!given_characters_.empty()) pick_characters();
  update_ground();
  seen_revision_ = world_->revision();
  ++teleports_;
}

// Room: the new capsule overlaps nothing (gap < 0). Touching, or geometry within the skin, is
// allowed: feet placed exactly on the floor (a spawn, a teleport) must not block a crouch.
bool Controller::room_for(const ControllerSettings& shape) const {
  for (const Contact& c : world_->overlap_capsule(capsule_of(shape, position_), 0.f, query_filter()))
    if (c.distance < 0.f) return false;
  return true;
}

bool Controller::resize(float height) {
  ControllerSettings changed = *settings_;
  changed.height = height;
  // A height the other settings do not allow (a crouch below step_height plus the radii) is
  // the game's mistake, not a lack of room: it throws, naming what to change with set_settings.
  try {
    validate(changed);
  } catch (const Error& e) {
    throw Error("Controller::resize(" + limits::number_text(height) + "): " + e.what() +
                "; change the settings that depend on the height with set_settings");
  }
  return set_settings(changed);
}

bool Controller::set_settings(const ControllerSettings& settings) {
  validate(settings);
  follow_origin();
  const bool shape_changes =
      settings.radius != settings_->radius || settings.height != settings_->height || settings.up != settings_->up;
  if (shape_changes && !room_for(settings)) return false;
  settings_ = std::make_shared<const ControllerSettings>(settings);
  max_slope_cos_ = std::cos(settings_->max_slope);
  failed_step_ = {};
  if (!given_characters_.empty()) pick_characters();
  update_ground();
  return true;
}

} // namespace glide
