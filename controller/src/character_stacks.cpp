// Characters standing on others: carried with the one under them after the first moves, and
// taken back and moved again with it.
#include "append_result.hpp"

#include <glide/controller/character_set.hpp>

#include <algorithm>
#include <cstdint>

namespace glide {

namespace {

// How deep in a stack a character's place is counted, at most (count): deeper ones are carried
// in id order among themselves, after the rest.
constexpr std::uint64_t k_stack_depth = 8;
// The least motion of the one under it that carries a character (m).
constexpr float k_least_carry = 1e-5f;

} // namespace

// How many stand under character i, one on another (0: it stands on none), counted up to
// k_stack_depth (characters standing on each other in a loop end there).
std::uint64_t CharacterSet::stack_depth(std::size_t i) const {
  std::uint64_t depth = 0;
  for (std::uint32_t k = stands_on_[i]; k != k_nobody && depth < k_stack_depth; k = stands_on_[k]) ++depth;
  return depth;
}

// Character i carried by what the one it stands on moved in this update, through that one (and
// those standing on i when `past_riders`), into `result`; false when it stands on none or that
// one stayed.
bool CharacterSet::carry_with_under(std::size_t i, MoveResult& result, bool past_riders) {
  const std::uint32_t under = stands_on_[i];
  if (under == k_nobody) return false;
  const glm::vec3 by = now_[under].segment.a - start_[under].capsule.segment.a;
  if (!(glm::dot(by, by) > k_least_carry * k_least_carry)) return false;
  result = carry_again(i, by, past_riders);
  return true;
}

// Those standing on another move with it, as with a moving piece they ride: their moves met it
// where it stood at the start of the frame, and its own moves passed through them (a walk, a
// climb up a slope or a step, a lift's ride), so each is swept along by what the one under it
// moved, through that one, from the bottom of the stacks up (stacked_, then id order). One a
// ceiling or a wall stops overlaps the one under it: the whole stack moves again
// (take_back_stacks).
void CharacterSet::carry_riders(float dt) {
  stacked_.clear();
  if (!stacked_any_) return; // a pass over every character for nothing
  for (std::size_t i = 0; i < characters_.size(); ++i)
    if (stands_on_[i] != k_nobody) stacked_.push_back(stack_depth(i) << 32 | i);
  std::sort(stacked_.begin(), stacked_.end());
  for (const std::uint64_t entry : stacked_) {
    const auto r = static_cast<std::uint32_t>(entry & 0xffffffffu);
    MoveResult carried;
    if (carry_with_under(r, carried, true)) append_move(r, carried, dt);
  }
}

// Those standing on character k carried by `by`, what a push moved k after the carry pass,
// through it, and those standing on them in turn by what they moved (`depth`: how many below).
// Each is stopped by those standing on it, carried after it: no overlap check follows.
void CharacterSet::carry_riders_of(std::size_t k, const glm::vec3& by, float dt, std::uint64_t depth) {
  if (depth >= k_stack_depth || !(glm::dot(by, by) > k_least_carry * k_least_carry)) return;
  for (const std::uint64_t entry : stacked_) {
    const auto r = static_cast<std::uint32_t>(entry & 0xffffffffu);
    if (stands_on_[r] != k) continue;
    const MoveResult carried = carry_again(r, by, false);
    append_move(r, carried, dt);
    carry_riders_of(r, carried.displacement, dt, depth + 1);
  }
}

// A push's move of character k (append_move), those standing on it carried along.
void CharacterSet::append_pushed_move(std::size_t k, const MoveResult& moved, float dt) {
  append_move(k, moved, dt);
  carry_riders_of(k, moved.displacement, dt, 0);
}

// A stack is taken back as a whole: one whose move is taken back takes back those standing on
// it, which its move carried, and the one it stands on, which carried it (so its own riders
// stand where they stood when it moves again, and stop it: a lift rising under a stack whose
// top is pressed into a ceiling is stopped by the stack, not taken into it).
void CharacterSet::take_back_stacks() {
  for (bool grew = true; grew;) {
    grew = false;
    for (const std::uint64_t entry : stacked_) {
      const auto r = static_cast<std::uint32_t>(entry & 0xffffffffu);
      std::uint8_t& under = redo_[stands_on_[r]];
      if ((redo_[r] == 0) == (under == 0)) continue; // both or neither taken back
      if (redo_[r] == 0)
        redo_[r] = k_stack_taken_back;
      else
        under = k_stack_taken_back;
      grew = true;
    }
  }
}

// The moves taken back made again, one after the other: the bottom of the stacks first, then in
// id order. Each one standing on another is carried by what that one moved again, then moves
// itself. Those standing on one are where they stood at the start of the frame when it moves
// again, and stop it as any character does.
void CharacterSet::move_again_taken_back(std::span<const glm::vec3> velocities, float dt) {
  if (!stacked_.empty()) {
    order_.clear();
    for (const std::uint32_t i : redone_) order_.push_back(stack_depth(i) << 32 | i);
    std::sort(order_.begin(), order_.end());
    for (std::size_t k = 0; k < order_.size(); ++k) redone_[k] = static_cast<std::uint32_t>(order_[k] & 0xffffffffu);
  }
  for (const std::uint32_t i : redone_) {
    MoveResult result;
    const bool carried = carry_with_under(i, result, false);
    MoveResult moved = move_again(i, velocities[i], dt);
    if (carried) {
      // What append leaves: a carry reports no velocity and no push.
      detail::append(result, moved);
      result.velocity = moved.velocity;
      result.push_stopped = moved.push_stopped;
      result.push_stopper = moved.push_stopper;
      moved = result;
    }
    take_result(i, moved, dt);
  }
}

} // namespace glide
