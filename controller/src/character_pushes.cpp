// A crowd's pushes, after its other moves: pushers in id order move the characters that stopped
// them out of their way, down a line, within a budget of moves per update.
#include "append_result.hpp"
#include "horizontal.hpp"

#include <glide/controller/character_set.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <utility>

namespace glide {

namespace {

// How many characters down a line a push goes on to (count).
constexpr int k_push_depth = 8;
// How many characters one pusher may move out of its way in an update, down every line (count).
constexpr int k_push_moves = 16;
// Moves the pushes of one update may make in all, per character of the set: a crowd packed at a
// doorway made up to 9.5 a character in one update without it (count).
constexpr std::size_t k_push_budget = 4;
// Moves the presses of one update (pieces, and pushes out of other characters, that characters
// stopped) may make in all, per character of the set: in a pile of a hundred put at one spot,
// they made up to 1,800 moves a frame without it, each against all the others (count).
constexpr std::size_t k_press_budget = 4;
// A pusher whose move gets less than this share of its walk is stopped (ratio).
constexpr float k_stopped = 0.1f;
// How long a pusher stays stopped before it pushes with its whole walk, and how long it then
// takes to go back to sharing it by mass once it moves (s).
constexpr float k_pressure_time = 0.1f;
// A piece's press whose part along up is more than this share of it lifts the characters in
// its way instead of pushing them along the ground (ratio).
constexpr float k_lifting_press = 0.7f;

// `v` slid along the walls of a move's hits: less its part into each (across the unit `up`).
glm::vec3 slid_along_walls(glm::vec3 v, const MoveResult& r, const glm::vec3& up) {
  for (int h = 0; h < r.hit_count; ++h) {
    const ControllerHit& hit = r.hits[static_cast<std::size_t>(h)];
    if (hit.target == HitTarget::character) continue;
    glm::vec3 n = detail::horizontal(hit.normal, up);
    if (glm::dot(n, n) < 1e-6f) continue;
    n = glm::normalize(n);
    if (const float against = glm::dot(v, n); against < 0.f) v -= n * against;
  }
  return v;
}

} // namespace

// Character k's walk this update along the ground, slid along the walls its moves met: where it
// presses.
glm::vec3 CharacterSet::slid_walk(std::size_t k) const {
  const Character& c = characters_[k];
  const glm::vec3& up = c.controller->settings().up;
  return slid_along_walls(detail::horizontal(walk_[k], up), results_[k].result, up);
}

// Whether pusher j goes before pusher i, which it stopped (`along`: from i into j, unit, along
// the ground): i presses into j (its walk, slid along its walls, points into it), j presses
// back into i or is wedged itself, and j is ahead along the sum of their walks' directions (the
// first added when neither is). Walking for one doorway, the one nearer it goes first; walking
// behind a wedged one, that one.
bool CharacterSet::goes_first(std::size_t i, std::uint32_t j, const glm::vec3& along) const {
  if (j >= characters_.size() || !characters_[j].info.push) return false;
  const glm::vec3& up = characters_[i].controller->settings().up;
  const glm::vec3 mine = detail::horizontal(walk_[i], up), theirs = detail::horizontal(walk_[j], up);
  const float mine_length = glm::length(mine), theirs_length = glm::length(theirs);
  if (mine_length < 1e-6f || theirs_length < 1e-6f) return false;
  if (glm::dot(slid_walk(i), along) <= 0.f) return false;
  if (glm::dot(slid_walk(j), along) >= 0.f && characters_[j].pressure < 1.f) return false;
  const float ahead = glm::dot(along, mine / mine_length + theirs / theirs_length);
  return ahead > 0.f || (ahead == 0.f && j < i);
}

// Character i, stopped by characters with `left` of its motion still to go, moves them out of
// its way: `left`, slid along the geometry that stopped i, goes into each one hit by the part
// pointing into it (times m / (m + m_other) for the pusher itself, whole for the characters it
// moves on down the line), each taking it as a sweep and passing on what stops it in turn, up to
// `depth` characters deep; then i moves on by `left`. A pusher does not push a pusher that goes
// first (goes_first): it slides along it, and when both are wedged it steps back from it, by its
// walk, pushing on what stops it, and keeps walking backward for k_step_back_time. Every move is
// a sweep against the world and the others where they now stand, so nothing ends inside anything;
// a pusher's come out of the update's budget (spend_push_move). Pushes go along the ground, but
// for a line a piece lifts (Shove::lift). Returns whether i moved on, and that move ended clear
// (not crushed).
bool CharacterSet::push_aside(std::size_t i, glm::vec3 left, const MoveResult& stopped, float dt, int depth,
                              Shove shove, int& moves) {
  Character& c = characters_[i];
  const glm::vec3& up = c.controller->settings().up;
  const bool lifting = shove == Shove::lift; // a piece's press keeps its part along up
  left = slid_along_walls(lifting ? left : detail::horizontal(left, up), stopped, up);
  std::array<std::uint32_t, MoveResult::k_max_hits> first{}; // the pushers that go before i
  int first_count = 0;
  bool step_back = false;
  for (int h = 0; h < stopped.hit_count && shove == Shove::pusher; ++h) {
    const ControllerHit& hit = stopped.hits[static_cast<std::size_t>(h)];
    if (hit.target != HitTarget::character) continue;
    glm::vec3 along = -detail::horizontal(hit.normal, up);
    const float length = glm::length(along);
    if (length < 1e-3f || !goes_first(i, hit.character.value, along / length)) continue;
    along /= length;
    first[static_cast<std::size_t>(first_count++)] = hit.character.value;
    if (const float into = glm::dot(left, along); into > 0.f) left -= along * into;
    // Both wedged: pressing on would only hold the one ahead where it is.
    if (c.pressure >= 1.f && characters_[hit.character.value].pressure > 0.f) step_back = true;
  }
  if (step_back) {
    if (!spend_push_move()) return false;
    glm::vec3 back = -detail::horizontal(walk_[i], up) * dt;
    if (const float length = glm::length(back); length > push_reach_) back *= push_reach_ / length;
    const MoveResult moved = move_again(i, back / dt, dt);
    append_pushed_move(i, moved, dt);
    c.stepping_back = k_step_back_time;
    push_aside(i, back - moved.displacement, moved, dt, depth, Shove::line_stepping_back, moves);
    return false;
  }
  bool pushed = false;
  for (int h = 0; h < stopped.hit_count; ++h) {
    const ControllerHit& hit = stopped.hits[static_cast<std::size_t>(h)];
    if (hit.target != HitTarget::character || hit.character.value >= characters_.size()) continue;
    bool seen = false; // a character met again in a later slide iteration is pushed once
    for (int e = 0; e < h && !seen; ++e)
      seen = stopped.hits[static_cast<std::size_t>(e)].target == HitTarget::character &&
             stopped.hits[static_cast<std::size_t>(e)].character == hit.character;
    if (seen || c.shoved_by == hit.character.value) continue; // no pushing back who pushed it
    if (std::find(first.begin(), first.begin() + first_count, hit.character.value) != first.begin() + first_count)
      continue;
    glm::vec3 along = lifting ? -hit.normal : -detail::horizontal(hit.normal, up); // from i into the other
    const float length = glm::length(along);
    if (length < 1e-3f) continue;
    along /= length;
    Character& other = characters_[hit.character.value];
    const float by_mass = c.info.mass / (c.info.mass + other.info.mass);
    const float ratio = shove == Shove::pusher ? by_mass + (1.f - by_mass) * c.pressure : 1.f;
    // A line stepping back takes up to a whole walk each, whatever pushers moved it before:
    // else the pushes of the ones it makes room for would use up what it may move them.
    const float room = shove == Shove::line_stepping_back ? push_reach_ : push_reach_ - other.shoved;
    const float share = std::min(glm::dot(left, along) * ratio, room);
    if (share <= 1e-5f || moves <= 0 || !spend_push_move()) continue;
    --moves;
    other.shoved += share;
    other.shoved_by = static_cast<std::uint32_t>(i);
    pushed = true;
    const MoveResult moved = move_again(hit.character.value, along * (share / dt), dt);
    if (lifting) lifted_.push_back(hit.character.value);
    append_pushed_move(hit.character.value, moved, dt);
    if (depth > 1)
      push_aside(hit.character.value, along * share - moved.displacement, moved, dt, depth - 1,
                 shove == Shove::pusher ? Shove::line : shove, moves);
  }
  if (!pushed || !spend_push_move()) return false;
  const MoveResult on = move_again(i, left / dt, dt);
  append_pushed_move(i, on, dt);
  return !on.flags.crushed;
}

// Another move of character k this update, after those of its result.
void CharacterSet::append_move(std::size_t k, const MoveResult& moved, float dt) {
  detail::append(results_[k].result, moved);
  note_velocity(k, results_[k].result.displacement, dt);
}

// Takes one move from the update's budget; false when it is spent.
bool CharacterSet::spend_push_move() {
  if (push_budget_ == 0) return false;
  --push_budget_;
  return true;
}

// Pushers in id order, each where everyone now stands, move the characters that stopped them
// out of their way (push_aside). Going one after the other is what lets a crowd jammed at a
// door flow: the first pusher moves its neighbours aside and takes the room before their turn.
void CharacterSet::push_through(std::span<const glm::vec3> velocities, float dt) {
  // What one character is moved by pushers in an update, and moves on by itself after, is at
  // most the fastest pusher's walk or the longest piece push a character stopped.
  push_reach_ = 0.f;
  if (pushers_ == 0 && !pressed_) return; // a pass over every character for nothing
  for (std::size_t i = 0; i < characters_.size(); ++i) {
    const Character& c = characters_[i];
    if (c.info.push) push_reach_ = std::max(push_reach_, glm::length(velocities[i]) * dt);
    if (c.piece_pressed) push_reach_ = std::max(push_reach_, glm::length(results_[i].result.push_stopped));
  }
  if (push_reach_ <= 0.f) return;
  push_budget_ = k_push_budget * characters_.size();
  std::size_t press_budget = k_press_budget * characters_.size();
  for (Character& c : characters_) {
    c.shoved = 0.f;
    c.shoved_by = k_nobody;
  }
  for (std::size_t i = 0; i < characters_.size(); ++i) {
    Character& c = characters_[i];
    if (c.piece_pressed) {
      // A moving piece pressed it against another character. A piece gives way to nothing, so
      // what it could not push goes whole into that one and on down the line; then this one
      // moves on by it, out of the piece.
      MoveResult stopped;
      stopped.hits[0] = results_[i].result.push_stopper;
      stopped.hit_count = 1;
      int moves = k_push_moves;
      // Outside the pushers' budget, in one of their own: what a piece presses must give way,
      // or stay inside the piece.
      const std::size_t pushers_left = std::exchange(push_budget_, press_budget);
      const glm::vec3& press = results_[i].result.push_stopped;
      const glm::vec3& up = c.controller->settings().up;
      const bool lifts = glm::dot(press, up) > k_lifting_press * glm::length(press);
      // Moved on clear of the piece, it was not crushed after all.
      if (push_aside(i, press, stopped, dt, k_push_depth, lifts ? Shove::lift : Shove::line, moves))
        results_[i].result.flags.crushed = false;
      press_budget = std::exchange(push_budget_, pushers_left);
      // Those it lifted stand where their probes, made before the ones below followed, saw
      // nothing under them.
      for (const std::uint32_t k : lifted_) probe_ground_again(k);
      lifted_.clear();
    }
    if (!c.info.push || results_[i].result.hit_count == 0) continue;
    glm::vec3 left = velocities[i] * dt - results_[i].result.displacement;
    if (const float length = glm::length(left); length > push_reach_) left *= push_reach_ / length;
    const MoveResult stopped = results_[i].result;
    int moves = k_push_moves;
    push_aside(i, left, stopped, dt, k_push_depth, Shove::pusher, moves);
  }
  // Pressure: up while a pusher gets less than a tenth of its walk (stepping back, it does),
  // down while it gets more.
  for (std::size_t i = 0; i < characters_.size(); ++i) {
    Character& c = characters_[i];
    if (!c.info.push) continue;
    c.stepping_back = std::max(c.stepping_back - dt, 0.f);
    const glm::vec3& up = c.controller->settings().up;
    const glm::vec3 wanted = detail::horizontal(walk_[i] * dt, up);
    const float wanted2 = glm::dot(wanted, wanted);
    const bool stopped = wanted2 > 0.f && glm::dot(results_[i].result.displacement, wanted) < k_stopped * wanted2;
    c.pressure = std::clamp(c.pressure + (stopped ? dt : -dt) / k_pressure_time, 0.f, 1.f);
  }
}

} // namespace glide
