// Penetration recovery, floor snapping and the ground probe of Controller::move.
#include "field_copy.hpp"

#include <glide/controller/controller.hpp>
#include <glide/controller/slide.hpp>
#include <glide/world/world.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <vector>

namespace glide {

namespace {

// The terrain's own way out: up (+y, as a heightfield's, which leaves each of its faces) by what
// clears every terrain contact closer than `gap` to the skin, from the pieces' push or without
// it (walls round it too close to clear), straight or slid along what leans over it (a spike's
// tip above it). None when each leads into a contact it is inside of, or nearer one than it is
// over a step of `step_limit` (m).
std::optional<glm::vec3> rise_out_of_terrain(std::span<const Contact> contacts, const glm::vec3& out_of_pieces,
                                             float skin, float gap, float step_limit) {
  const auto blocked = [&](const glm::vec3& up) {
    const float length = glm::length(up), step = std::min(length, step_limit);
    return !(length > 0.f) || std::any_of(contacts.begin(), contacts.end(), [&](const Contact& c) {
      if (c.target == HitTarget::character || c.distance >= gap) return false;
      const float along = glm::dot(up, c.normal) / length;
      return c.distance < 0.f ? !(along > 0.f) : -along * step > c.distance;
    });
  };
  for (const glm::vec3& from : {out_of_pieces, glm::vec3(0.f)}) {
    float rise = 0.f;
    for (const Contact& c : contacts)
      if (c.target == HitTarget::terrain && c.distance < gap && c.normal.y > 1e-3f)
        rise = std::max(rise, (skin - c.distance - glm::dot(from, c.normal)) / c.normal.y);
    glm::vec3 up = from + glm::vec3(0.f, rise, 0.f);
    if (!blocked(up)) return up;
    for (const Contact& c : contacts)
      if (c.target != HitTarget::character && c.distance >= 0.f && c.distance < gap)
        up -= c.normal * std::min(glm::dot(up, c.normal), 0.f);
    if (!blocked(up)) return up;
  }
  return std::nullopt;
}

} // namespace

// Pushes the capsule out of every piece closer than the skin (recovery_gap: overlapping,
// spawned touching, or left short of the skin by an earlier push), to the skin distance, at
// most recovery_speed * dt per move so a character spawned inside geometry eases out instead
// of exploding out. The push is swept through the pieces it leads out of, and stops the skin
// short of anything else: recovery never pushes the capsule into other geometry (a lift
// pressing it against a ceiling leaves it in the lift, the moving piece, not in the ceiling),
// nor into a piece or the terrain it recovers from on another side (walls all round, too close
// to clear; two spikes of a jagged terrain). In the terrain, where that leaves no way out, or
// the way is stopped, it rises: up is the way out of a heightfield.
// Crushed (no place clears every contact, as between two closing walls), it balances the
// overlaps of the moving pieces instead: each pushes out along its normal by its depth, and the
// capsule goes to where those pushes cancel (midway between two walls), static geometry still
// blocking it. Sets `crushed` then. A push out of a piece the capsule is inside of that another
// character stops is reported as a piece's push is (push_stopped, push_stopper): a character
// put into a wall beside another must not stay there, and a CharacterSet moves the other aside.
// When the ride was stopped by a character (`ride_stopped`), that report holds the whole push.
// Out of another character, the push may pass into a neighbour by up to half the overlap it
// leaves, which that one then recovers from: a pile comes apart from inside.
float Controller::recover(float dt, bool ride_stopped, MoveResult& result) {
  bool& crushed = result.flags.crushed;
  // The last probe saw every piece and found none closer than the recovery gap; since, only
  // characters can have come closer.
  if (probe_cache_.valid && !probe_cache_.overlapping && probe_cache_.position == position_ &&
      probe_cache_.revision == world_->revision() &&
      !nearby_.character_closer(capsule_at(position_), recovery_gap(), settings_->skin_width, query_filter()))
    return 0.f;
  const float budget = settings_->recovery_speed * dt;
  const float skin = settings_->skin_width;
  // A residual this small counts as cleared (m): the sweeps' own tolerance.
  const float cleared = 2.f * settings_->toi_tolerance;
  float moved = 0.f;
  bool rising = false; // out of the terrain by its own way out, up
  // What stopped a push out of another character or a piece: the next pass slides along it (a
  // character put into another beside a wall gets out along the wall, one put into a wall that
  // leans over its floor gets out along the floor).
  std::array<glm::vec3, 4> stops{};
  std::size_t stop_count = 0;
  bool descend = false; // out of a pile by the sum of its overlaps' pushes
  for (int pass = 0; pass < 4 && moved < budget; ++pass) {
    const std::span<const Contact> contacts =
        nearby_.overlap_capsule(*world_, capsule_at(position_), skin, query_filter());
    std::array<PieceId, 16> passing{}; // what the push's sweep goes through
    std::size_t passing_count = 0;
    // ... and the terrain, when the push is to clear it.
    bool passing_terrain = false;
    const auto pass_through = [&](const Contact& c) {
      if (c.target == HitTarget::piece && passing_count < passing.size()) passing[passing_count++] = c.piece;
      passing_terrain = passing_terrain || c.target == HitTarget::terrain;
    };
    bool pushes_out_of_moving = false;
    for (const Contact& c : contacts)
      pushes_out_of_moving = pushes_out_of_moving ||
                             (c.target == HitTarget::piece && c.distance < 0.f && world_->motion(c.piece).dt > 0.f);
    // Each contact closer than the recovery gap that `counts` pushes out, from `sum`, only what
    // the others' push has not already covered: no double push in corners.
    const auto push_from = [&](auto counts, glm::vec3 sum) {
      for (const Contact& c : contacts) {
        if (c.distance >= recovery_gap() || !counts(c)) continue;
        const float need = skin - c.distance - glm::dot(sum, c.normal);
        if (need > 0.f) sum += c.normal * need;
      }
      return sum;
    };
    // Whether push `p` leads into the piece (or terrain) of contact `c`, one closer than the
    // recovery gap: deeper, or not out of it when inside. Along a contact not inside, as the
    // sweep's slack for sliding along a face, is not into it.
    const auto leads_into = [&](const glm::vec3& p, const Contact& c) {
      if (c.target == HitTarget::character || c.distance >= recovery_gap()) return false;
      const float along = glm::dot(p, c.normal);
      return c.distance < 0.f ? !(along > 0.f) : along < -1e-4f * glm::length(p);
    };
    const auto leads_into_any = [&](const glm::vec3& p) {
      return std::any_of(contacts.begin(), contacts.end(), [&](const Contact& c) { return leads_into(p, c); });
    };
    // Characters give way to pieces and the terrain: a push that other characters' overlaps turn
    // into either is made without them (they then stop it, and a CharacterSet moves them aside,
    // below).
    // And characters it is only near give way to those it is inside: in a pile, the skin to
    // those round it may add up to a push that does not clear the one it overlaps, which holds
    // it there.
    const auto inside_character = [](const Contact& c) { return c.target == HitTarget::character && c.distance < 0.f; };
    const auto stays_inside_character = [&](const glm::vec3& p) {
      return std::any_of(contacts.begin(), contacts.end(), [&](const Contact& c) {
        return inside_character(c) && !(glm::dot(p, c.normal) + c.distance >= 0.f);
      });
    };
    // Whether push `p` leads out of something of `target` the capsule is inside of.
    const auto leads_out_of = [&](HitTarget target, const glm::vec3& p) {
      return std::any_of(contacts.begin(), contacts.end(), [&](const Contact& c) {
        return c.target == target && c.distance < 0.f && glm::dot(p, c.normal) > 0.f;
      });
    };
    const auto is_piece = [](const Contact& c) { return c.target != HitTarget::character; };
    // Along what stopped the earlier passes: along the crease where two meet (a wall and the
    // ground rising toward it; slid along one and then the other, the push zigzagged into
    // each in turn), none in a corner.
    const auto slide_along_stops = [&](glm::vec3& p) {
      p = solve_slide(std::span<const glm::vec3>(stops.data(), stop_count), p, p);
    };
    // The same, with the pieces closer than the recovery gap too.
    const auto slide_along_pieces = [&](glm::vec3& p) {
      std::array<glm::vec3, 16 + 4> planes;
      std::size_t count = 0;
      for (const Contact& c : contacts)
        if (is_piece(c) && c.distance < recovery_gap() && count < 16) planes[count++] = c.normal;
      for (std::size_t k = 0; k < stop_count; ++k) planes[count++] = stops[k];
      p = solve_slide(std::span<const glm::vec3>(planes.data(), count), p, p);
    };
    // Out of the characters it is inside, slid along the pieces and what stopped an earlier
    // pass, then out of the pieces' skin: a pile packed against a wall leaves along it. None
    // when that still leads into a piece, or out of no character.
    const auto along_pieces = [&]() -> std::optional<glm::vec3> {
      glm::vec3 along = push_from(inside_character, {});
      slide_along_pieces(along);
      const glm::vec3 p = push_from(is_piece, along);
      if (leads_into_any(p) || !leads_out_of(HitTarget::character, p)) return std::nullopt;
      return p;
    };
    glm::vec3 push = push_from([](const Contact&) { return true; }, glm::vec3(0.f));
    if (!leads_into_any(push) && stays_inside_character(push))
      push = push_from([](const Contact& c) { return c.target != HitTarget::character || c.distance < 0.f; }, {});
    if (leads_into_any(push)) push = along_pieces().value_or(push_from(is_piece, {}));
    // Among spikes of the terrain all round, their pushes add up to one into another spike, or
    // one that another spike stops: the terrain's own way out is up, with the pieces' push or
    // without it (walls round it too close to clear).
    bool rose = false;
    // Whether a terrain contact is closer than `gap` (m).
    const auto terrain_within = [&](float gap) {
      return std::any_of(contacts.begin(), contacts.end(),
                         [&](const Contact& c) { return c.target == HitTarget::terrain && c.distance < gap; });
    };
    if (terrain_within(recovery_gap()) && (rising || leads_into_any(push))) {
      const glm::vec3 out_of_pieces = push_from([](const Contact& c) { return c.target == HitTarget::piece; }, {});
      if (const auto up = rise_out_of_terrain(contacts, out_of_pieces, skin, recovery_gap(), budget - moved)) {
        push = *up;
        rose = true;
      }
    }
    slide_along_stops(push);
    // What stopped the last pass may leave the push inside a character it was to leave.
    if (stop_count > 0 && !rose && stays_inside_character(push))
      if (std::optional<glm::vec3> along = along_pieces()) {
        push = *along;
        slide_along_stops(push);
      }
    if (descend && !rose) {
      // Deep in a pile, every way out of one it is inside leads deeper into another: each
      // overlap pushes by half its depth (the other takes the other half), summed, so the
      // overlaps shrink as a whole and the pile spreads; along the pieces, as above.
      glm::vec3 spread(0.f);
      for (const Contact& c : contacts)
        if (inside_character(c)) spread -= c.normal * (0.5f * c.distance);
      slide_along_pieces(spread);
      push = push_from(is_piece, spread);
      if (leads_into_any(push)) break;
    }
    // The push goes through the pieces (and the terrain) it leads out of. One it leads into, by
    // any of its contacts (walls all round, too close to clear them all; the far side of a
    // trench in one mesh; another spike of the terrain), stops it instead: recovery never ends
    // deeper in what it recovers from. A piece passed is not swept at all, so one the push only
    // runs along is not passed (a corner of it may lie ahead); the terrain passed still stops it
    // but where it starts inside and leaves.
    for (const Contact& c : contacts) {
      // Characters are never passed: the sweep meets them all. (In a pile of a hundred, looking
      // through every contact for each of them took most of a move.)
      if (c.distance >= recovery_gap() || c.target == HitTarget::character) continue;
      const bool into = std::any_of(contacts.begin(), contacts.end(), [&](const Contact& o) {
        if (o.target != c.target || (c.target == HitTarget::piece && o.piece != c.piece)) return false;
        return c.target == HitTarget::piece ? o.distance < recovery_gap() && !(glm::dot(push, o.normal) > 0.f)
                                            : leads_into(push, o);
      });
      if (!into) pass_through(c);
    }
    const bool out_of_piece = leads_out_of(HitTarget::piece, push);
    const bool clears = std::all_of(contacts.begin(), contacts.end(), [&](const Contact& c) {
      return skin - c.distance - glm::dot(push, c.normal) <= cleared;
    });
    if (!clears) {
      glm::vec3 balance(0.f);
      std::array<PieceId, 16> movers{};
      std::size_t mover_count = 0;
      int moving = 0;
      for (const Contact& c : contacts) {
        if (c.target != HitTarget::piece || world_->motion(c.piece).dt <= 0.f) continue;
        balance += c.normal * std::max(skin - c.distance, 0.f);
        ++moving;
        if (mover_count < movers.size()) movers[mover_count++] = c.piece;
      }
      if (moving > 0) {
        crushed = true;
        push = balance / static_cast<float>(moving);
        // The balance clears only the moving pieces: it goes through them alone, and the
        // static geometry and terrain it would press further into stop it.
        passing = movers;
        passing_count = mover_count;
        passing_terrain = false;
      }
    }
    const float length = glm::length(push);
    if (length < 1e-7f) break;
    const float step = std::min(length, budget - moved);
    glm::vec3 motion = push * (step / length);
    QueryFilter filter = query_filter();
    filter.accept = [&passing, passing_count, accept = std::move(filter.accept)](PieceId id) {
      const auto end = passing.begin() + static_cast<std::ptrdiff_t>(passing_count);
      return std::find(passing.begin(), end, id) == end && (!accept || accept(id));
    };
    // Rising, without the skin: up, it comes no nearer to a spike's tip it is the skin beside.
    const gjk::Capsule swept = rose ? capsule_at(position_) : swept_capsule();
    // Out of a character, the others are met without the skin: in a pile, those round it at
    // the skin otherwise stop every way out, and the pile never comes apart.
    const bool out_of_character = !rose && leads_out_of(HitTarget::character, push);
    const SweepHit hit = [&] {
      struct Inset { // taken back also when a filter or listener throws
        NearbyPieces& nearby;
        ~Inset() { nearby.set_character_inset(0.f); }
      } inset{nearby_};
      if (out_of_character) {
        // Out of a deep overlap, it may go into a neighbour by up to half of it: the deepest
        // overlap of the pile shrinks, and one wedged deep in it is no longer held there by
        // those round it. Not out of one that does not meet it back: that one never gives way,
        // and the neighbour would be left inside.
        float deepest = 0.f;
        for (const Contact& c : contacts)
          if (inside_character(c) && glm::dot(push, c.normal) > 0.f && nearby_.meets_back(c.character))
            deepest = std::max(deepest, -c.distance);
        // Spreading a pile, by all of it.
        nearby_.set_character_inset(skin + (descend ? 1.f : 0.5f) * deepest);
      }
      return nearby_.sweep_capsule(*world_, swept, motion, filter, sweep_settings());
    }();
    // Terrain it starts inside of and pushes out of does not stop it; terrain it starts
    // touching and pushes into (a spike no nearer than the gap) does.
    const bool leaving_terrain = hit.started_overlapped && hit.target == HitTarget::terrain && passing_terrain &&
                                 glm::dot(hit.normal, motion) > 0.f;
    const bool blocked = hit.hit && !leaving_terrain;
    const float fraction = blocked ? hit.fraction : 1.f;
    position_ += motion * fraction;
    moved += step * fraction;
    if (blocked) {
      // Held where a moving piece overlaps it by what does not let it out (a lift coming
      // down past a character beside a wall): that piece crushes it.
      if (step * fraction <= cleared && pushes_out_of_moving) crushed = true;
      if ((out_of_piece || out_of_character) && hit.target == HitTarget::character && !ride_stopped) {
        result.push_stopped += motion * (1.f - fraction);
        result.push_stopper = hit_of(hit, fraction);
      }
      if (!rising && hit.target != HitTarget::character && terrain_within(0.f)) {
        rising = true;
      } else if ((leads_out_of(HitTarget::character, push) || out_of_piece) && hit.target != HitTarget::character &&
                 stop_count < stops.size()) {
        stops[stop_count++] = hit.normal;
      } else if (!descend && out_of_character && hit.target == HitTarget::character && step * fraction <= cleared) {
        descend = true; // held at once by a character: the next pass spreads the pile
      } else {
        break;
      }
    }
  }
  return moved;
}

// While walking (grounded last move, not moving up), follows walkable ground down to
// floor_snap_distance below, so stairs and slopes downward stay grounded. Moves only when
// the ground is farther than the skin by more than the sweep tolerance: idling never drifts.
bool Controller::snap_to_floor() {
  if (settings_->floor_snap_distance <= 0.f) return false;
  const glm::vec3& up = settings_->up;
  const float reach = settings_->floor_snap_distance;
  const SweepHit hit = sweep(-up * reach);
  if (!hit.hit || !walkable(surface_normal(hit.target, hit.piece, hit.point, hit.normal, hit.triangle))) return false;
  const float drop = hit.fraction * reach;
  if (drop <= 2.f * settings_->toi_tolerance) return false;
  position_ -= up * drop;
  return true;
}

namespace {

// Whether the contact of inner segment `mine` with another character's, `theirs`, can face `up`
// (by more than the 1e-3 a ground needs). Not when both lie exactly along `up`, a coordinate
// axis, and `mine` is not wholly above: upright characters side by side. Their closest points
// then lie level to within rounding (~1e-16 of the coordinates), and so does the normal; on one
// line and crossing, they meet across it (NearbyPieces' crossing normal), as in a pile put at
// one spot.
bool may_be_ground(const gjk::Segment& mine, const gjk::Segment& theirs, const glm::vec3& up) {
  int axis = -1; // up's one non-zero coordinate
  for (int k = 0; k < 3; ++k) {
    if (up[k] == 0.f) continue;
    if (axis >= 0) return true;
    axis = k;
  }
  if (axis < 0) return true;
  const int u = (axis + 1) % 3, v = (axis + 2) % 3;
  if (mine.a[u] != mine.b[u] || mine.a[v] != mine.b[v] || theirs.a[u] != theirs.b[u] || theirs.a[v] != theirs.b[v])
    return true;
  const float sign = up[axis] > 0.f ? 1.f : -1.f;
  const float my_low = std::min(sign * mine.a[axis], sign * mine.b[axis]);
  const float their_high = std::max(sign * theirs.a[axis], sign * theirs.b[axis]);
  return my_low > their_high;
}

} // namespace

// Ground is a contact within two skins whose normal faces up under the capsule; walkable
// ground wins over steep ground, then the most upward surface. Every contact is looked at:
// walls nearer than the floor (a character in a narrow shaft, against a finely cut mesh) must
// not crowd the floor out.
void Controller::update_ground() {
  GroundInfo ground;
  const glm::vec3& up = settings_->up;
  float best = -2.f;
  const gjk::Capsule capsule = capsule_at(position_);
  // The probe looks only at the characters that can be ground: in a crowd, most of those near
  // stand beside this one, and their contacts were found, sorted and passed over.
  const std::span<const CapsuleObstacle> characters = nearby_.characters();
  if (!characters.empty()) {
    thread_local std::vector<CapsuleObstacle> grounds; // the probe calls out to nothing while it holds them
    grounds.clear();
    for (const CapsuleObstacle& o : characters)
      if (may_be_ground(capsule.segment, o.capsule.segment, up)) grounds.push_back(o);
    if (grounds.size() < characters.size()) nearby_.set_characters(grounds);
  }
  // Standing on a face with nothing else near, the probe is told from that face alone.
  const float probe_distance = 2.f * settings_->skin_width;
  const QueryFilter filter = query_filter();
  std::span<const Contact> contacts;
  NearbyPieces::FaceProbe face;
  if (ground_.target != HitTarget::piece ||
      !nearby_.closest_on_face(*world_, capsule, probe_distance, filter, ground_.piece, contacts, face))
    contacts = nearby_.closest(*world_, capsule, probe_distance, filter, ~std::size_t{0});
  nearby_.set_characters(characters);
  // Other characters move without a world revision: recover trusts the probe for the pieces
  // and looks at the characters anew (NearbyPieces::character_closer), so a character close now
  // does not make it look again at the pieces.
  probe_cache_ = {true, false, position_, world_->revision()};
  for (const Contact& c : contacts) {
    if (c.distance < recovery_gap() && c.target != HitTarget::character) probe_cache_.overlapping = true;
    if (glm::dot(c.normal, up) <= 1e-3f) continue;
    const glm::vec3 surface = surface_normal(c.target, c.piece, c.point_on_piece, c.normal, c.triangle, face);
    const bool walk = walkable(surface);
    const float score = glm::dot(surface, up) + (walk ? 2.f : 0.f);
    if (score <= best) continue;
    best = score;
    ground.state = walk ? GroundState::on_ground : GroundState::on_steep_ground;
    ground.normal = surface;
    ground.contact_normal = c.normal;
    ground.point = c.point_on_piece;
    ground.target = c.target;
    ground.piece = c.piece;
    ground.character = c.character;
    ground.distance = c.distance;
  }
  if (ground.target == HitTarget::character) {
    for (const CapsuleObstacle& o : nearby_.characters())
      if (o.id == ground.character) ground.velocity = o.velocity;
  }
  if (ground.target == HitTarget::piece) {
    // Its motion so far is accounted for: the next move rides only a move_piece after this.
    const PieceMotion& m = world_->motion(ground.piece);
    ground.velocity = m.velocity_at(ground.point);
    ridden_ = {ground.piece, m.serial};
  }
  detail::copy_fields(ground_, ground);
}

} // namespace glide
