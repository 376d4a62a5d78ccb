#include <glide/controller/controller.hpp>
#include <glide/world/world.hpp>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

namespace glide {

namespace {

// How far from the capsule a piece that moved is looked for: a piece moving faster than this
// per move relative to the character may pass it unseen (m).
constexpr float k_push_reach = 1.f;
// Directions across `up` a crushed character may be squeezed out along (count).
constexpr int k_squeeze_directions = 16;
// How far a character is squeezed out at most in one move (m).
constexpr float k_squeeze_reach = 2.f;
// A stopped push whose part along `up` is at least this share of it is squeezed out (ratio).
constexpr float k_squeeze_vertical = 0.7f;

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
// or a ceiling stops it, and a character stopping its rise is reported as stopping a push.
void Controller::ride(MoveResult& result) {
  if (ground_.state == GroundState::in_air || ground_.target != HitTarget::piece || !world_->contains(ground_.piece))
    return;
  const PieceMotion& m = world_->motion(ground_.piece);
  if (ridden_.piece == ground_.piece && ridden_.serial == m.serial) return;
  ridden_ = {ground_.piece, m.serial};
  if (m.dt <= 0.f) return; // re-placed by set_piece_transform: a teleport carries nothing

  result.yaw_delta = twist_about(m.to.rotation * glm::conjugate(m.from.rotation), settings_->up);
  const glm::vec3 delta = m.carry(position_) - position_;
  if (!(glm::dot(delta, delta) > 0.f)) return;
  nearby_.reach(*world_, gjk::capsule_bounds(swept_capsule()).swept(delta), gather_margin(delta));
  const SweepHit hit =
      nearby_.sweep_capsule(*world_, swept_capsule(), delta, query_filter_except(ground_.piece), sweep_settings());
  result.carried = delta * (hit.hit ? hit.fraction : 1.f);
  position_ += result.carried;
  const float rise = glm::dot(delta * (1.f - (hit.hit ? hit.fraction : 1.f)), settings_->up);
  if (hit.hit && hit.target == HitTarget::character && rise > 0.f) {
    // A character standing on this one stops it (a lift rising under two), which leaves it in
    // the piece: the rest of the rise is reported as a piece's push a character stopped, so a
    // CharacterSet lifts that one out of the way. Across up the piece only slides under it.
    result.push_stopped += settings_->up * rise;
    result.push_stopper = hit_of(hit, hit.fraction);
  }
  // The ground as the ride left it: the piece may have turned or tilted under the feet.
  update_ground();
}

// Carries the character by `delta` with `carrier`, the character it stands on, which moved as
// far (through it, when it rose): a sweep through that one, stopped by everything else (one
// leaving what it starts inside of passes it), then its ground as the carry left it. A
// CharacterSet's work; no recovery, which would push it out of the one under it on top of the
// carry.
MoveResult Controller::carry(const glm::vec3& delta, CharacterId carrier) {
  MoveResult result;
  const SweepHit hit = [&] {
    struct Passing { // taken back also when a filter or listener throws
      NearbyPieces& nearby;
      ~Passing() { nearby.set_passing({}); }
    } passing{nearby_};
    nearby_.set_passing(carrier);
    return sweep(delta);
  }();
  result.carried = delta * (hit.hit ? hit.fraction : 1.f);
  position_ += result.carried;
  if (hit.hit) record_hit(hit, hit.fraction, result);
  update_ground();
  report_ground(result);
  result.position = position_;
  result.displacement = result.carried;
  return result;
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
  world_->pieces_in_box(gjk::capsule_bounds(capsule_at(position_)).expanded(k_push_reach), pushers_, query_filter());
  const bool riding = ground_.state != GroundState::in_air && ground_.target == HitTarget::piece;
  for (const PieceId id : pushers_) {
    const PieceMotion& m = world_->motion(id);
    if (m.serial <= seen_revision_ || m.dt <= 0.f || (riding && id == ground_.piece)) continue;
    const glm::vec3 carried = m.carry(position_);
    const glm::vec3 back = position_ - carried; // the capsule's motion relative to the piece
    if (!(glm::dot(back, back) > 0.f)) continue;
    gjk::Capsule from = capsule_at(carried);
    from.radius += settings_->skin_width;
    const QueryFilter pusher{settings_->layer_mask, [id](PieceId other) { return other == id; }};
    const SweepHit meet = world_->sweep_capsule(from, back, pusher, sweep_settings());
    if (!meet.hit) continue;
    const glm::vec3 push = carried + back * meet.fraction - position_;
    nearby_.reach(*world_, gjk::capsule_bounds(swept_capsule()).swept(push), gather_margin(push));
    const SweepHit block =
        nearby_.sweep_capsule(*world_, swept_capsule(), push, query_filter_except(id), sweep_settings());
    const float fraction = block.hit ? block.fraction : 1.f;
    result.pushed += push * fraction;
    position_ += push * fraction;
    if (!block.hit) continue;
    const glm::vec3 stopped = push * (1.f - fraction);
    if (squeeze_out(id, stopped, result)) continue;
    result.flags.crushed = true;
    result.push_stopped += stopped;
    result.push_stopper = hit_of(block, fraction);
  }
}

// A piece coming down (or up) on a character that cannot give way along it (a lift lowering
// onto it) squeezes it out sideways when a way is free: of k_squeeze_directions across `up`,
// the shortest move that takes the capsule clear of the piece (by its support along that
// direction, so clear for sure), swept through everything else. Pushes mostly across `up` (two
// walls closing) are left to recovery's balance.
bool Controller::squeeze_out(PieceId id, const glm::vec3& stopped, MoveResult& result) {
  const glm::vec3& up = settings_->up;
  const float length = glm::length(stopped);
  if (!(length > 0.f) || std::abs(glm::dot(stopped, up)) < k_squeeze_vertical * length) return false;
  const glm::vec3 side = std::abs(up.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
  const glm::vec3 e1 = glm::normalize(glm::cross(up, side)), e2 = glm::cross(up, e1);
  const gjk::Capsule body = capsule_at(position_);
  const std::span<const glm::vec3> vertices = world_->world_vertices(id);
  std::array<std::pair<float, glm::vec3>, k_squeeze_directions> ways;
  for (int k = 0; k < k_squeeze_directions; ++k) {
    const float angle = 6.2831853f * static_cast<float>(k) / static_cast<float>(k_squeeze_directions);
    const glm::vec3 u = std::cos(angle) * e1 + std::sin(angle) * e2;
    float piece_far = -std::numeric_limits<float>::infinity();
    for (const glm::vec3& v : vertices) piece_far = std::max(piece_far, glm::dot(v, u));
    const float body_near = std::min(glm::dot(body.segment.a, u), glm::dot(body.segment.b, u)) - body.radius;
    ways[static_cast<std::size_t>(k)] = {std::max(0.f, piece_far - body_near) + 2.f * settings_->skin_width, u};
  }
  std::stable_sort(ways.begin(), ways.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [distance, u] : ways) {
    if (distance > k_squeeze_reach) break;
    const glm::vec3 move = u * distance;
    nearby_.reach(*world_, gjk::capsule_bounds(swept_capsule()).swept(move), gather_margin(move));
    if (nearby_.sweep_capsule(*world_, swept_capsule(), move, query_filter_except(id), sweep_settings()).hit) continue;
    result.pushed += move;
    position_ += move;
    return true;
  }
  return false;
}

} // namespace glide
