#include <glide/controller/controller.hpp>
#include <glide/world/world.hpp>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include <cmath>

namespace glide {

namespace {

// The turn of `rotation` about the unit axis `up` (its twist), in (-pi, pi] radians.
float twist_about(const glm::quat& rotation, const glm::vec3& up) {
  glm::quat q = rotation;
  if (q.w < 0.f) q = -q;
  return 2.f * std::atan2(glm::dot(glm::vec3(q.x, q.y, q.z), up), q.w);
}

} // namespace

// Rides moving ground: when the piece the last move ended on has moved since (a
// World::move_piece not ridden yet), the feet go where that move took the point they stood on,
// before the move's own motion, so the character keeps its place on the piece with no frame of
// latency. The ride is swept through everything but the piece itself, which moves along: a wall
// or a ceiling stops it.
void Controller::ride(MoveResult& result) {
  if (ground_.state == GroundState::in_air || ground_.target != HitTarget::piece || !world_->contains(ground_.piece))
    return;
  const PieceMotion& m = world_->motion(ground_.piece);
  if (ridden_.piece == ground_.piece && ridden_.serial == m.serial) return;
  ridden_ = {ground_.piece, m.serial};
  if (m.dt <= 0.f) return; // re-placed by set_piece_transform: a teleport carries nothing

  result.yaw_delta = twist_about(m.to.rotation * glm::conjugate(m.from.rotation), settings_.up);
  const glm::vec3 delta = m.carry(position_) - position_;
  if (!(glm::dot(delta, delta) > 0.f)) return;
  QueryFilter filter = query_filter();
  const PieceId riding = ground_.piece;
  filter.accept = [riding, accept = std::move(filter.accept)](PieceId id) {
    return id != riding && (!accept || accept(id));
  };
  nearby_.reach(*world_, gjk::capsule_bounds(swept_capsule()).swept(delta), gather_margin(delta));
  const SweepHit hit = nearby_.sweep_capsule(*world_, swept_capsule(), delta, filter, sweep_settings());
  result.carried = delta * (hit.hit ? hit.fraction : 1.f);
  position_ += result.carried;
  // The ground as the ride left it: the piece may have turned or tilted under the feet.
  update_ground();
}

} // namespace glide
