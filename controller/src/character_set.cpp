// A crowd's frame: neighbours from a grid, every move against the start-of-frame capsules, then
// the moves that ended in an overlap or left their reach taken back and made again one by one
// (character_stacks.cpp carries those standing on others and orders the moves made again).
#include "horizontal.hpp"

#include <glide/controller/character_set.hpp>
#include <glide/error.hpp>
#include <glide/gjk/segment_pair.hpp>
#include <glide/limits.hpp>
#include <glide/world/world.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

namespace glide {

namespace {

// A reach wider than this many of the largest body is checked against every character instead
// of widening the grid's cells (count).
constexpr float k_oversized_bodies = 4.f;
// The grid cell of a character whose reach is checked against every character.
constexpr std::uint32_t k_no_cell = 0xffffffffu;
// The least cosine of a slope the reach allows for: steeper walks stretch a motion more, and
// a move that then leaves its reach is taken back and made again (count).
constexpr float k_min_slope_cos = 0.25f;
// Tries of a second move in ever wider regions before it meets every character (count).
constexpr int k_region_tries = 3;
// The pad a reach is grown by for the candidate lists, in the widest capsule radius: the lists
// last while the crowd's reaches stay inside their grown boxes (ratio).
constexpr float k_candidate_pad = 1.f;
// Characters roaming in one update past this many renew every candidate list; fewer are each
// checked against every character for their own (count).
constexpr std::size_t k_max_roamers = 8;
// The run that takes the calling thread when the game gives no job hook.
void run_here(std::size_t count, const std::function<void(std::size_t, std::size_t)>& body) {
  if (count > 0) body(0, count);
}

// The region of queries that meet every character set: all space.
gjk::Aabb everywhere() {
  constexpr float inf = std::numeric_limits<float>::infinity();
  return {glm::vec3(-inf), glm::vec3(inf)};
}

// A pass over 10,000 controllers finds each one out of the cache: its state is fetched a few
// characters ahead, while the ones before are worked on.
constexpr std::size_t k_prefetch_ahead = 4; // (count)
// Four lines a round: the loop's own count and test cost more than its prefetches, and a line
// past `bytes` (the controller's next) is one the move reads too.
void prefetch(const Controller& k, std::size_t bytes) {
  const auto* at = reinterpret_cast<const char*>(&k);
  for (std::size_t line = 0; line < bytes; line += 4 * 64) {
    __builtin_prefetch(at + line);
    __builtin_prefetch(at + line + 64);
    __builtin_prefetch(at + line + 2 * 64);
    __builtin_prefetch(at + line + 3 * 64);
  }
}

// What a move reads and writes beyond its controller (its pieces held, its contact and trace
// lists, all on the heap) is fetched one character later than the controller, whose pointers
// to them are then in cache: among 10,000 characters, waiting on these reads took a fifth of
// the frame.
constexpr std::size_t k_prefetch_pieces_ahead = k_prefetch_ahead - 1; // (count)

// What a move writes of its result: its fields before the hits, three whole lines of a result
// kept on lines of its own (a result with hits writes more, but most have none).
static_assert(offsetof(MoveResult, hits) == 3 * 64);
void prefetch_result(MoveResult& r) {
  auto* at = reinterpret_cast<char*>(&r);
  for (std::size_t line = 0; line < offsetof(MoveResult, hits); line += 64) __builtin_prefetch(at + line, 1);
}

// Keeps a move's result but its unused hit slots: they are 640 of its 836 bytes and lie last,
// and a crowd writes one result per character a frame.
void keep(MoveResult& to, const MoveResult& from) {
  static_assert(std::is_trivially_copyable_v<MoveResult> && std::is_standard_layout_v<MoveResult>);
  static_assert(offsetof(MoveResult, hits) + sizeof(MoveResult::hits) == sizeof(MoveResult));
  auto* out = reinterpret_cast<unsigned char*>(&to);
  const auto* in = reinterpret_cast<const unsigned char*>(&from);
  const auto used = static_cast<std::size_t>(std::clamp(from.hit_count, 0, MoveResult::k_max_hits));
  std::memcpy(out, in, offsetof(MoveResult, hits) + used * sizeof(ControllerHit));
}

} // namespace

// Candidates come from a grid over the two axes the crowd spreads most along, in cells at
// least as wide as any padded reach: each character goes into the one cell of its box's low
// corner, so the characters whose box can meet i's lie in the cells from one before i's low
// corner to its high corner. The cells' characters lie in one array cell after cell (a counting
// sort). Boxes wider than a cell (a fast fall) are checked against every character instead.
void CharacterSet::build_grid() {
  const std::size_t n = characters_.size();
  float body_size = 0.f;
  gjk::Aabb all;
  for (std::size_t i = 0; i < n; ++i) {
    if (start_boxes_[i].valid()) {
      const glm::vec3 size = start_boxes_[i].max - start_boxes_[i].min;
      body_size = std::max({body_size, size.x, size.y, size.z});
    }
    all.min = glm::min(all.min, padded_[i].min);
    all.max = glm::max(all.max, padded_[i].max);
  }
  if (n == 0) return;
  if (!all.valid()) all = {glm::vec3(0.f), glm::vec3(0.f)}; // every character removed: one cell

  // The grid's axes: the two the crowd spans most (a crowd on a floor: the floor's).
  const glm::vec3 spread = all.max - all.min;
  int skip = 0;
  for (int a = 1; a < 3; ++a)
    if (spread[a] < spread[skip]) skip = a;
  const int ax = skip == 0 ? 1 : 0, az = skip == 2 ? 1 : 2;
  // Cells as wide as the widest reach, but a reach far wider than a body (a fast one) does not
  // widen them for all: it is oversized instead. 1 % over, so rounding never loses a neighbour.
  const float widest = std::max(1.f, k_oversized_bodies * body_size);
  float cell = 0.f;
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec3 size = padded_[i].max - padded_[i].min;
    const float width = std::max(size[ax], size[az]);
    if (width <= widest) cell = std::max(cell, width);
  }
  cell = std::max(cell, 1.f) * 1.01f;
  // Wider cells are as right, and keep the grid within a few cells per character however
  // thinly the crowd is spread.
  const float span_x = all.max[ax] - all.min[ax], span_z = all.max[az] - all.min[az];
  const auto count = static_cast<float>(n);
  cell = std::max({cell, std::sqrt(span_x * span_z / (4.f * count)), std::max(span_x, span_z) / (4.f * count)});
  const auto columns = static_cast<std::size_t>(span_x / cell) + 1;
  const auto rows = static_cast<std::size_t>(span_z / cell) + 1;

  grid_ = {.cell = cell,
           .origin = {all.min[ax], all.min[az]},
           .columns = columns,
           .rows = rows,
           .ax = ax,
           .az = az,
           .per_metre = 1.f / cell,
           .last_column = static_cast<float>(columns - 1),
           .last_row = static_cast<float>(rows - 1)};
  cell_of_.resize(n);
  cell_start_.assign(columns * rows + 1, 0);
  oversized_.clear();
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec3 size = padded_[i].max - padded_[i].min;
    if (size[ax] > cell || size[az] > cell) {
      oversized_.push_back(static_cast<std::uint32_t>(i));
      cell_of_[i] = k_no_cell;
      continue;
    }
    cell_of_[i] = static_cast<std::uint32_t>(grid_.row(padded_[i].min) * columns + grid_.column(padded_[i].min));
    ++cell_start_[cell_of_[i] + 1];
  }
  for (std::size_t c = 0; c + 1 < cell_start_.size(); ++c) cell_start_[c + 1] += cell_start_[c];
  in_cells_.resize(n - oversized_.size());
  cell_fill_.assign(cell_start_.begin(), cell_start_.end() - 1);
  for (std::size_t i = 0; i < n; ++i)
    if (cell_of_[i] != k_no_cell) in_cells_[cell_fill_[cell_of_[i]]++] = {padded_[i], static_cast<std::uint32_t>(i)};
}

// Checks character i's move as Controller::move would (throwing glide::Error), and sets its
// velocity for this update, its start capsule and its reach: where its move's queries should
// stay, its capsule grown by the motion and what a move queries beyond it (steps, floor snap,
// ground probe, the skin). A move that leaves it is noticed (move_first): the reach is a cost,
// not a promise.
void CharacterSet::prepare(std::size_t i, const glm::vec3& input, float dt) {
  const Character& c = characters_[i];
  const Controller& k = *c.controller;
  if (c.removed) {
    // Left where it was: no move, an empty reach, met by no one.
    stands_on_[i] = k_nobody;
    effective_[i] = walk_[i] = glm::vec3(0.f);
    start_[i] = {k.capsule_at(k.position_), glm::vec3(0.f), 0u, CharacterId{static_cast<std::uint32_t>(i)}};
    masks_[i] = 0u;
    filtered_[i] = 0;
    start_boxes_[i] = gjk::Aabb{};
    reach_[i] = gjk::Aabb{};
    return;
  }
  k.check_move(input, dt);
  if (k.teleports_ != c.teleports_seen) {
    noticed_[i] = 1;
    std::atomic_ref<bool>(noticed_any_).store(true, std::memory_order_relaxed); // on many threads
  }
  const GroundInfo& ground = k.ground();
  const bool on_character = ground.state == GroundState::on_ground && ground.target == HitTarget::character &&
                            ground.character.value < characters_.size() && !characters_[ground.character.value].removed;
  stands_on_[i] = on_character ? ground.character.value : k_nobody;
  if (on_character) std::atomic_ref<bool>(stacked_any_).store(true, std::memory_order_relaxed); // on many threads
  effective_[i] = input;
  const ControllerSettings& s = k.settings();
  walk_[i] = effective_[i];
  if (c.info.push && c.stepping_back > 0.f) // it walks backward, falling as it would
    effective_[i] = s.up * glm::dot(effective_[i], s.up) - detail::horizontal(effective_[i], s.up);
  if (effective_[i] != input) k.check_move(effective_[i], dt); // its first move then skips the checks
  start_[i] = {k.capsule_at(k.position_), c.velocity, c.info.layers, CharacterId{static_cast<std::uint32_t>(i)}};
  masks_[i] = s.layer_mask;
  filtered_[i] = s.character_filter || k.listener_ ? 1 : 0;
  // Standing on another, it is carried by what that one moves (carry_riders), about as far as
  // its last move.
  const float carried = on_character ? glm::length(characters_[stands_on_[i]].velocity) : 0.f;
  const float motion = (glm::length(effective_[i]) + carried) * dt;
  const float vertical = s.step_height + s.floor_snap_distance;
  const gjk::Aabb body = gjk::capsule_bounds(start_[i].capsule);
  start_boxes_[i] = body;
  if (k.seen_revision_ != world_->revision()) {
    // Pieces moved since its last move: a ride or a push may carry it, by more than its motion.
    reach_[i] = body.expanded(motion + vertical + s.step_min_forward + 4.f * s.skin_width);
    return;
  }
  // Across the up axis: the motion, stretched along a walkable slope (by up to 1 / cos of the
  // steepest), the recovery's push, the step's look past its landing and the skins. Along it,
  // a step up and back down and the floor snap too.
  const float stretch = 1.f / std::max(k.max_slope_cos_, k_min_slope_cos);
  const float across = motion * stretch + s.recovery_speed * dt + s.step_min_forward + 4.f * s.skin_width;
  const glm::vec3 margin = glm::vec3(across) + glm::abs(s.up) * vertical;
  reach_[i] = {body.min - margin, body.max + margin};
}

void CharacterSet::prepare_again(std::size_t i, const glm::vec3& input, float dt) { prepare(i, input, dt); }

// Writes into `into` (room for every character) the others whose padded box meets i's, in id
// order, each tested; returns how many.
std::size_t CharacterSet::candidates_among_all(std::size_t i, std::vector<std::uint32_t>& into) const {
  const gjk::Aabb mine = padded_[i];
  std::size_t count = 0;
  for (std::uint32_t j = 0; j < characters_.size(); ++j) {
    into[count] = j;
    const bool meet = (j != i) & padded_[j].overlaps_stored(mine); // a coin toss: no branch
    count += meet ? 1 : 0;
  }
  return count;
}

// Writes into `into` the others whose padded box meets i's, in id order, from the grid; returns
// how many.
std::size_t CharacterSet::grid_candidates(std::size_t i, std::vector<std::uint32_t>& into) const {
  std::size_t count = 0;
  // Every candidate is written and kept only when it counts: whether a neighbour's box meets
  // this one's is a coin toss the branch predictor lost on most candidates.
  const auto consider = [&](std::uint32_t j, bool keep) {
    into[count] = j;
    count += keep ? 1 : 0;
  };
  const gjk::Aabb mine = padded_[i];
  if (!mine.valid()) return 0; // a removed one's empty reach: its cell range would run backward
  if (cell_of_[i] == k_no_cell) return candidates_among_all(i, into); // rare: no grid cell
  // The cells from one before the low corner's to the high corner's: up to 3 x 3, a row of which
  // is one run of in_cells_. The three runs are walked as one: a loop per run mispredicted its
  // few trips.
  const std::size_t x0 = std::max<std::size_t>(grid_.column(mine.min), 1) - 1, x1 = grid_.column(mine.max);
  const std::size_t z0 = std::max<std::size_t>(grid_.row(mine.min), 1) - 1, z1 = grid_.row(mine.max);
  std::array<std::uint32_t, 3> from{}, length{};
  for (std::size_t z = z0, r = 0; z <= z1 && r < from.size(); ++z, ++r) { // a box spans 2 cells at most
    from[r] = cell_start_[z * grid_.columns + x0];
    length[r] = cell_start_[z * grid_.columns + x1 + 1] - from[r];
  }
  const std::uint32_t first_two = length[0] + length[1], total = first_two + length[2];
  const std::uint32_t shift0 = from[0], shift1 = from[1] - length[0], shift2 = from[2] - first_two;
  for (std::uint32_t k = 0; k < total; ++k) {
    const std::uint32_t at = k + (k < length[0] ? shift0 : (k < first_two ? shift1 : shift2));
    const bool meet = in_cells_[at].box.overlaps_stored(mine), other = in_cells_[at].index != i;
    consider(in_cells_[at].index, meet & other);
  }
  for (const std::uint32_t j : oversized_) consider(j, padded_[j].overlaps_stored(mine));
  if (count > 1) std::sort(into.begin(), into.begin() + static_cast<std::ptrdiff_t>(count));
  return count;
}

// Every reach grown by the pad, and the grid over those boxes; each one's candidates are then
// found from it in parallel (renew_candidates_of).
void CharacterSet::renew_candidates() {
  float radius = 0.f;
  for (const CapsuleObstacle& o : start_) radius = std::max(radius, o.capsule.radius);
  pad_ = k_candidate_pad * radius;
  for (std::size_t i = 0; i < characters_.size(); ++i) padded_[i] = reach_[i].expanded(pad_);
  build_grid();
  candidates_valid_ = true;
}

// Roaming character i given a padded box around its reach now and the candidates that box meets,
// checked against every character; each of them gets i among its own. The lists stay a superset
// of the pairs whose padded boxes meet (others' lists may keep i where it no longer meets them:
// a test more, never a neighbour less). The grid is left as it was, used only by a renewal.
void CharacterSet::reseat(std::uint32_t i) {
  padded_[i] = reach_[i].expanded(pad_);
  found_.resize(characters_.size());
  const std::size_t count = candidates_among_all(i, found_);
  candidates_[i].assign(std::span(found_).first(count));
  std::vector<std::uint32_t> scratch;
  for (std::size_t k = 0; k < count; ++k) candidates_[found_[k]].insert(i, scratch);
}

// Character i's candidates renewed from the grid (in id order).
void CharacterSet::renew_candidates_of(std::size_t i) {
  thread_local std::vector<std::uint32_t> found; // one warm buffer per thread
  // Room for every candidate: each other character at most once.
  if (found.size() < characters_.size()) found.resize(characters_.size());
  candidates_[i].assign(std::span(found).first(grid_candidates(i, found)));
}

// Writes into `obstacles` (grown to room for every candidate) the start capsules of the
// candidates i meets that lie in its reach, in id order, but for those standing on i
// (carry_riders), and returns how many; and marks in near_[i] the candidates whose reach meets
// i's (a start capsule lies in its own character's reach, so the obstacles are among them).
// Each candidate is written and kept or dropped without a branch: a coin toss in a crowd.
std::size_t CharacterSet::select_obstacles(std::size_t i, std::vector<CapsuleObstacle>& obstacles) {
  const gjk::Aabb mine = reach_[i];
  const std::span<const std::uint32_t> ids = candidates_[i].ids();
  if (obstacles.size() < ids.size()) obstacles.resize(ids.size());
  const std::uint32_t mask = masks_[i];
  const bool filtered = filtered_[i] != 0;
  std::uint32_t near = 0;
  std::size_t count = 0;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const std::uint32_t j = ids[k];
    near |= std::uint32_t{reach_[j].overlaps_stored(mine)} << (k % 32);
    const CapsuleObstacle& o = start_[j];
    obstacles[count] = o;
    bool keep =
        (int{start_boxes_[j].overlaps_stored(mine)} & int{(o.layers & mask) != 0} & int{stands_on_[j] != i}) != 0;
    if (filtered && keep) keep = meets(i, o);
    count += keep ? 1 : 0;
  }
  near_[i] = ids.size() > 32 ? k_all_near : near;
  return count;
}

void CharacterSet::hide_others(NearbyPieces& nearby) {
  nearby.set_characters({});
  nearby.set_character_region(everywhere());
  nearby.set_meets_back(nullptr, nullptr);
}

void CharacterSet::throw_move_error(std::size_t i, NearbyPieces& nearby, const Error& e) {
  hide_others(nearby);
  throw Error("CharacterSet::update: character " + std::to_string(i) + ": " + e.what());
}

// One character's first move, against the others' start-of-frame capsules whose reach meets
// its own (`others`). A move whose queries leave its reach may have missed a character: it is
// marked to move again.
void CharacterSet::move_first(std::size_t i, std::span<const CapsuleObstacle> others, const glm::vec3& velocity,
                              float dt) {
  Character& c = characters_[i];
  NearbyPieces& nearby = c.controller->nearby_;
  show_others(nearby, others, reach_[i]);
  // The move writes its result in place: a result returned and copied in was read back before
  // its stores had landed, which stalled each copy.
  MoveResult& result = results_[i].result;
  static const MoveResult k_fresh{};
  std::memcpy(reinterpret_cast<unsigned char*>(&result), reinterpret_cast<const unsigned char*>(&k_fresh),
              offsetof(MoveResult, hits));
  try {
    c.controller->move_checked(velocity, dt, result);
  } catch (const Error& e) { // a listener's
    throw_move_error(i, nearby, e);
  }
  note_result(i, result, dt);
  redo_[i] = 0;
  if (nearby.left_character_region()) {
    redo_[i] = k_left_reach;
    std::atomic_ref<bool>(redo_any_).store(true, std::memory_order_relaxed); // moves run on many threads
  }
  hide_others(nearby);
}

bool CharacterSet::meets_back_of(const void* set, CharacterId self, CharacterId other) {
  return static_cast<const CharacterSet*>(set)->meets(other.value, self.value);
}

// A whole move's result as character i's this update, with what the later passes read of it.
void CharacterSet::take_result(std::size_t i, const MoveResult& result, float dt) {
  keep(results_[i].result, result);
  note_result(i, result, dt);
}

// What the later passes read of character i's result this update: its velocity, and whether a
// piece pressed it on a character.
void CharacterSet::note_result(std::size_t i, const MoveResult& result, float dt) {
  note_velocity(i, result.displacement, dt);
  const bool pressed = result.push_stopper.target == HitTarget::character;
  characters_[i].piece_pressed = pressed;
  if (pressed) std::atomic_ref<bool>(pressed_).store(true, std::memory_order_relaxed); // moves run on many threads
}

// Character i's velocity over this update, from all it moved. A dt far below any frame's, with a
// carry by a moving piece, makes one whose square overflows: it is held to the fastest a piece
// may go, so those standing on i, and a saved state, can still measure it.
void CharacterSet::note_velocity(std::size_t i, const glm::vec3& displacement, float dt) {
  glm::vec3 velocity = displacement / dt;
  if (!std::isfinite(glm::dot(velocity, velocity))) [[unlikely]]
    velocity = glm::vec3(glm::dvec3(displacement) * (limits::k_max_speed / glm::length(glm::dvec3(displacement))));
  characters_[i].velocity = velocity;
}

// Runs `act` for character i against the others' current capsules (but those standing on it when
// `past_riders`: it carries them after), and returns whether a try went beyond its region (then
// `act` ran again in a wider one after `retry`). Within its reach they are those of its
// candidates and of the characters whose moves left their reach (a candidate whose reach misses
// i's stands outside i's reach, where the queries do not go); a query that leaves even that
// region is made again against every character in a wider one.
template <class Act, class Retry>
bool CharacterSet::against_others_now(std::size_t i, bool past_riders, Act act, Retry retry) {
  NearbyPieces& nearby = characters_[i].controller->nearby_;
  std::vector<CapsuleObstacle>& others = again_;
  gjk::Aabb region = reach_[i];
  // Only those in the region: its candidates may hold more (kept from earlier updates), and a
  // move that leaves the region and is made again keeps what it learnt of the pieces, so the
  // others it met there must not turn on how long its list has grown.
  const auto take = [&](std::uint32_t j) {
    if (j == i || !meets(i, j) || (past_riders && stands_on_[j] == i)) return;
    if (!gjk::capsule_bounds(now_[j]).overlaps(region)) return;
    CapsuleObstacle o = start_[j];
    o.capsule = now_[j];
    others.push_back(o);
  };
  int attempt = 0;
  for (;; ++attempt) {
    others.clear();
    if (attempt == 0) {
      // Both lists ascend: merged, the obstacles stay in id order.
      std::size_t a = 0, b = 0;
      const std::span<const std::uint32_t> candidates = candidates_[i].ids();
      while (a < candidates.size() || b < left_.size()) {
        const bool from_candidates = b == left_.size() || (a < candidates.size() && candidates[a] <= left_[b]);
        const std::uint32_t j = from_candidates ? candidates[a] : left_[b];
        if (from_candidates) ++a;
        if (!from_candidates || (b < left_.size() && left_[b] == j)) ++b;
        take(j);
      }
    } else {
      const glm::vec3 size = region.max - region.min;
      region = attempt < k_region_tries ? region.expanded(std::max({size.x, size.y, size.z})) : everywhere();
      for (std::uint32_t j = 0; j < characters_.size(); ++j) take(j);
    }
    show_others(nearby, others, region);
    try {
      act();
    } catch (const Error& e) { // a listener's
      throw_move_error(i, nearby, e);
    }
    const bool left = nearby.left_character_region();
    hide_others(nearby);
    if (!left || attempt >= k_region_tries) break;
    retry();
  }
  return attempt > 0;
}

// What `move` makes of character i's controller after the first moves, against the others where
// they now stand (taken back and made again in a wider region when it went beyond its own).
template <class Move>
MoveResult CharacterSet::again(std::size_t i, bool past_riders, Move move) {
  ++moves_again_;
  Controller& k = *characters_[i].controller;
  const Controller::Checkpoint before = k.checkpoint();
  MoveResult result;
  const bool widened = against_others_now(
      i, past_riders, [&] { result = move(k); }, [&] { k.rewind(before); });
  now_[i] = k.capsule_at(k.position_);
  // Where it now stands may lie beyond its reach: the later second moves look for it too.
  if (widened) {
    const auto at = std::lower_bound(left_.begin(), left_.end(), static_cast<std::uint32_t>(i));
    if (at == left_.end() || *at != i) left_.insert(at, static_cast<std::uint32_t>(i));
  }
  return result;
}

// One character's move after the first ones, against the others where they now stand.
MoveResult CharacterSet::move_again(std::size_t i, const glm::vec3& velocity, float dt) {
  return again(i, false, [&](Controller& k) { return k.move(velocity, dt); });
}

// Character i carried by `by` with the one it stands on (Controller::carry), against the others
// where they now stand (but those standing on it when `past_riders`: they are carried next).
MoveResult CharacterSet::carry_again(std::size_t i, const glm::vec3& by, bool past_riders) {
  const CharacterId under{stands_on_[i]};
  return again(i, past_riders, [&](Controller& k) { return k.carry(by, under); });
}

// Character i's ground probed again where everyone now stands, into its result: a lift's press
// moved it up before the one it stands on followed.
void CharacterSet::probe_ground_again(std::size_t i) {
  Controller& k = *characters_[i].controller;
  against_others_now(
      i, false, [&] { k.update_ground(); }, [] {});
  k.report_ground(results_[i].result);
}

void CharacterSet::update(std::span<const glm::vec3> velocities, float dt, const ParallelFor& parallel_for) {
  const std::size_t n = characters_.size();
  if (velocities.size() != n)
    throw Error("CharacterSet::update: " + std::to_string(velocities.size()) + " velocities for " + std::to_string(n) +
                " characters");
  const ParallelFor& run = parallel_for && n >= min_threaded_ ? parallel_for : ParallelFor(run_here);
  // Each character's checks, velocity, start capsule and reach, in parallel; a refusal names
  // the first refused character, as checking them in order would.
  effective_.resize(n);
  walk_.resize(n);
  start_.resize(n);
  reach_.resize(n);
  start_boxes_.resize(n);
  masks_.resize(n);
  filtered_.resize(n);
  refused_.assign(n, 0);
  noticed_.assign(n, 0);
  noticed_any_ = false;
  refused_any_ = false;
  roamed_any_ = false;
  redo_any_ = false;
  pressed_ = false;
  stacked_any_ = false;
  padded_.resize(n);
  candidates_.resize(n);
  roaming_.resize(n);
  stands_on_.resize(n);
  run(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      if (i + k_prefetch_ahead < end) {
        // Only what prepare reads: the fields up to the ground, a quarter of the controller.
        const Controller& k = *characters_[i + k_prefetch_ahead].controller;
        prefetch(k, k.bytes_before(&k.ground_ + 1));
      }
      characters_[i].controller->follow_origin(); // after a World::shift_origin
      try {
        prepare(i, velocities[i], dt);
      } catch (const Error&) {
        refused_[i] = 1;
        std::atomic_ref<bool>(refused_any_).store(true, std::memory_order_relaxed); // on many threads
      }
      if (!padded_[i].contains(reach_[i])) {
        roaming_[i] = 1;
        std::atomic_ref<bool>(roamed_any_).store(true, std::memory_order_relaxed);
      }
    }
  });
  for (std::size_t i = 0; refused_any_ && i < n; ++i) {
    if (!refused_[i]) continue;
    try {
      prepare_again(i, velocities[i], dt);
    } catch (const Error& e) {
      throw Error("CharacterSet::update: character " + std::to_string(i) + ": " + e.what());
    }
  }
  if (noticed_any_) place_noticed(velocities, dt);
  velocities = effective_;
  world_->update(); // queries from many threads then only read the world
  roamers_.clear();
  if (roamed_any_)
    for (std::size_t i = 0; i < n; ++i)
      if (roaming_[i] != 0) {
        roamers_.push_back(static_cast<std::uint32_t>(i));
        roaming_[i] = 0;
      }
  const bool renewed = !candidates_valid_ || roamers_.size() > k_max_roamers;
  if (renewed)
    renew_candidates();
  else
    for (const std::uint32_t i : roamers_) reseat(i);
  now_.resize(n);
  redo_.resize(n);
  near_.resize(n);

  run(n, [&](std::size_t begin, std::size_t end) {
    // Each move's obstacles are picked from its candidates just before it (a candidate or two
    // in a walking crowd; the candidates first renewed from the grid when `renewed`), the
    // first two candidates' boxes fetched a few characters ahead, as the controllers are. One
    // warm buffer per thread.
    thread_local std::vector<CapsuleObstacle> obstacles;
    for (std::size_t i = begin; i < end; ++i) {
      if (i + k_prefetch_ahead < end) {
        // The dense array too: so much happens between two characters that the hardware's
        // prefetch of it falls behind.
        if (i + 2 * k_prefetch_ahead < end) __builtin_prefetch(&characters_[i + 2 * k_prefetch_ahead]);
        const Controller& ahead = *characters_[i + k_prefetch_ahead].controller;
        prefetch(ahead, ahead.hot_bytes());
        prefetch_result(results_[i + k_prefetch_ahead].result);
        // Its first two candidates' boxes, without a loop whose length a branch would guess
        // (past the list's length, an id it held before, or 0: still a character's, of no use).
        const NearList& near = candidates_[i + k_prefetch_ahead];
        for (const std::uint32_t j : {near.held(0), near.held(1)}) {
          __builtin_prefetch(&reach_[j]);
          __builtin_prefetch(&start_boxes_[j]);
        }
      }
      if (i + k_prefetch_pieces_ahead < end) characters_[i + k_prefetch_pieces_ahead].controller->prefetch_move_data();
      Controller& k = *characters_[i].controller;
      if (characters_[i].removed) {
        now_[i] = start_[i].capsule;
        redo_[i] = 0;
        near_[i] = 0;
        continue;
      }
      k.checkpoint(checkpoints_[i]);
      if (renewed) renew_candidates_of(i);
      const std::size_t count = select_obstacles(i, obstacles);
      move_first(i, std::span(obstacles).first(count), velocities[i], dt);
      now_[i] = k.capsule_at(k.position_);
    }
  });

  carry_riders(dt);

  // Which moves ended overlapping another's: each character decides for itself, symmetrically,
  // among the candidates whose reach meets its own (near_): only they can end where it does, but
  // for those whose moves left their reach, which are made again anyway.
  run(n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      if (i + k_prefetch_ahead < end) __builtin_prefetch(&candidates_[i + k_prefetch_ahead]);
      if (redo_[i] != 0 || near_[i] == 0) continue;
      const gjk::Capsule& mine = now_[i];
      const std::span<const std::uint32_t> ids = candidates_[i].ids();
      const bool all = near_[i] == k_all_near;
      // The marked candidates, one bit after another (all of a list too long for the bits).
      for (std::uint32_t bits = near_[i], k = 0; all ? k < ids.size() : bits != 0; ++k) {
        if (!all) {
          k = static_cast<std::uint32_t>(std::countr_zero(bits));
          bits &= bits - 1;
        }
        const std::uint32_t j = ids[k];
        // A long list is tested whole: only those whose reach meets its own, as the bits mark.
        if (all && !reach_[j].overlaps_stored(reach_[i])) continue;
        if (!meets(i, j) && !meets(j, static_cast<std::uint32_t>(i))) continue;
        const gjk::Capsule& theirs = now_[j];
        if (!gjk::capsule_gap_surely_exceeds(mine, theirs, 0.f) &&
            gjk::closest_points(mine.segment, theirs.segment).distance < mine.radius + theirs.radius) {
          redo_[i] = k_overlapped;
          std::atomic_ref<bool>(redo_any_).store(true, std::memory_order_relaxed);
          break;
        }
      }
    }
  });

  take_back_stacks();
  left_.clear();
  redone_.clear();
  // Stacks taken back were marked by take_back_stacks only if some other move was.
  for (std::size_t i = 0; redo_any_ && i < n; ++i) {
    if (redo_[i] == 0) continue;
    if (redo_[i] == k_left_reach) left_.push_back(static_cast<std::uint32_t>(i));
    redone_.push_back(static_cast<std::uint32_t>(i));
    characters_[i].controller->rewind(checkpoints_[i]);
    now_[i] = start_[i].capsule;
  }
  move_again_taken_back(velocities, dt);
  last_conflicts_ = redone_.size();

  const std::size_t before_pushes = moves_again_;
  push_through(velocities, dt);
  last_push_moves_ = moves_again_ - before_pushes;

  // Every move ended probing its ground among the characters in the set: the ids removed before
  // this update are named by no one's now.
  if (!freed_.empty()) {
    free_.insert(free_.end(), freed_.begin(), freed_.end());
    std::sort(free_.begin(), free_.end(), std::greater<>());
    freed_.clear();
  }
}

} // namespace glide
