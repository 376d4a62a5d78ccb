#include <glide/controller/controller.hpp>
#include <glide/world/world.hpp>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include <cmath>

namespace glide {

namespace {

// How far from the capsule a piece that moved is looked for: a piece moving faster than this
// per move relative to the character may pass it unseen (m).
constexpr float k_push_reach = 1.f;

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
  nearby_.reach(*world_, gjk::capsule_bounds(swept_capsule()).swept(delta), gather_margin(delta));
  const SweepHit hit =
      nearby_.sweep_capsule(*world_, swept_capsule(), delta, query_filter_except(ground_.piece), sweep_settings());
  result.carried = delta * (hit.hit ? hit.fraction : 1.f);
  position_ += result.carried;
  // The ground as the ride left it: the piece may have turned or tilted under the feet.
  update_ground();
}

// Pushes: a piece that moved into the capsule since the last move (a door, a sliding wall, a
// lift from below) moves the character out along its motion. The capsule carried with the
// piece (where it stood relative to the piece before the piece moved) is swept back to where
// it stands, against that piece alone: where the piece's surface meets it, skin away, is where
// the piece pushed it, even if a thin piece passed it whole. That push is then swept through
// everything else; what blocks it crushes the character against the piece.
void Controller::be_pushed(MoveResult& result) {
  if (world_->revision() == seen_revision_) return; // nothing moved
  pushers_.clear();
  world_->pieces_in_box(gjk::capsule_bounds(capsule()).expanded(k_push_reach), pushers_, query_filter());
  const bool riding = ground_.state != GroundState::in_air && ground_.target == HitTarget::piece;
  for (const PieceId id : pushers_) {
    const PieceMotion& m = world_->motion(id);
    if (m.serial <= seen_revision_ || m.dt <= 0.f || (riding && id == ground_.piece)) continue;
    const glm::vec3 carried = m.carry(position_);
    const glm::vec3 back = position_ - carried; // the capsule's motion relative to the piece
    if (!(glm::dot(back, back) > 0.f)) continue;
    gjk::Capsule from = capsule_at(carried);
    from.radius += settings_.skin_width;
    const QueryFilter pusher{settings_.layer_mask, [id](PieceId other) { return other == id; }};
    const SweepHit meet = world_->sweep_capsule(from, back, pusher, sweep_settings());
    if (!meet.hit) continue;
    const glm::vec3 push = carried + back * meet.fraction - position_;
    nearby_.reach(*world_, gjk::capsule_bounds(swept_capsule()).swept(push), gather_margin(push));
    const SweepHit block =
        nearby_.sweep_capsule(*world_, swept_capsule(), push, query_filter_except(id), sweep_settings());
    const float fraction = block.hit ? block.fraction : 1.f;
    result.flags.crushed = result.flags.crushed || block.hit;
    result.pushed += push * fraction;
    position_ += push * fraction;
  }
}

} // namespace glide
