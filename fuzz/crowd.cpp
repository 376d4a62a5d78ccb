// A crowd driven by fuzzed operations among up to 4 fuzzed boxes: characters added (of three
// sizes, some pushing) and removed, their info changed, teleported (by the set or through their
// controllers), the set saved and restored from fuzzed bytes, and updates with velocities to
// 20 m/s (now and then not finite) and dt from 1/240 to 1/20 s. Two sets get the same
// operations, one updated on the calling thread and one on three threads. Checks: both give
// bit-identical positions and throw alike; every position is finite; a refused update or
// restore moves no one; and while every character was placed clear of the others and the
// boxes, no two overlap after an update, and none is inside the floor or a box.
#include "fuzz_support.hpp"

#include <glide/controller/character_set.hpp>
#include <glide/controller/job_threads.hpp>
#include <glide/error.hpp>
#include <glide/gjk/segment_pair.hpp>
#include <glide/limits.hpp>
#include <glide/world/world.hpp>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <vector>

namespace {

using glide::CharacterId;
using glide::CharacterSet;

constexpr std::size_t k_most_characters = 24;
// Deepest two characters may overlap after an update (m): the sweeps' tolerance.
constexpr float k_overlap_tolerance = 2e-4f;

// The closest gap between `capsule` and a character of the set other than `self` (m).
float closest_gap(const CharacterSet& set, const glide::gjk::Capsule& capsule, std::uint32_t self) {
  float gap = std::numeric_limits<float>::infinity();
  for (std::uint32_t j = 0; j < set.size(); ++j) {
    if (j == self || !set.contains(CharacterId{j})) continue;
    const glide::gjk::Capsule other = set.controller(CharacterId{j}).capsule();
    gap = std::min(gap,
                   glide::gjk::closest_points(capsule.segment, other.segment).distance - capsule.radius - other.radius);
  }
  return gap;
}

// Where every character of the set stands, removed ones at the origin.
std::vector<glm::vec3> positions(const CharacterSet& set) {
  std::vector<glm::vec3> at(set.size(), glm::vec3(0.f));
  for (std::uint32_t i = 0; i < set.size(); ++i)
    if (set.contains(CharacterId{i})) at[i] = set.controller(CharacterId{i}).position();
  return at;
}

// Whether `capsule` is clear of the world's pieces, but for overlaps up to `tolerance` (m) (a
// restore may have put its top beyond the coordinates the world's queries take: not clear then).
bool clear_of_pieces(const glide::World& world, const glide::gjk::Capsule& capsule, float tolerance = 0.f) {
  try {
    return world.overlap_capsule(capsule, -tolerance).empty();
  } catch (const glide::Error&) {
    return false;
  }
}

// Runs `op` on both sets: both must throw glide::Error or neither; returns whether it threw.
template <class Op>
bool on_both(std::array<CharacterSet*, 2> sets, Op op) {
  int threw = 0;
  for (CharacterSet* set : sets) {
    try {
      op(*set);
    } catch (const glide::Error&) {
      ++threw;
    }
  }
  if (threw == 1) std::abort();
  return threw == 2;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  glide::fuzz::Reader in(data, size);
  glide::World world;
  world.add_piece(glide::gjk::ConvexHull::box({30.f, 1.f, 30.f}), {{1.f, 0.f, 0.f, 0.f}, {0.f, -1.f, 0.f}});
  const int boxes = in.byte() % 5;
  for (int i = 0; i < boxes; ++i) {
    const glm::vec3 half = in.vec(0.1f, 3.f);
    const glm::vec3 at = in.vec(-8.f, 8.f) * glm::vec3(1.f, 0.f, 1.f) + glm::vec3(0.f, half.y, 0.f);
    world.add_piece(glide::gjk::ConvexHull::box(half), {{1.f, 0.f, 0.f, 0.f}, at});
  }
  world.update();
  CharacterSet alone(world), threaded(world);
  const std::array<CharacterSet*, 2> sets{&alone, &threaded};
  glide::JobThreads pool(3, 0);
  threaded.set_min_threaded(0); // threaded however few: its results are checked
  std::array<glide::ControllerSettings, 3> kinds;
  kinds[1].radius = 0.2f;
  kinds[1].height = 1.f;
  kinds[2].radius = 0.5f;
  kinds[2].height = 2.4f;
  bool placed_clear = true;
  std::vector<std::byte> saved;
  const auto any_character = [&]() { return CharacterId{in.byte() % std::max<std::uint32_t>(1, alone.size())}; };
  // Feet on the floor's middle, up to 3 m above it.
  const auto any_spot = [&]() {
    return in.vec(-8.f, 8.f) * glm::vec3(1.f, 0.f, 1.f) + glm::vec3(0.f, in.range(0.f, 3.f), 0.f);
  };

  for (int step = 0; step < 48 && !in.done(); ++step) {
    const std::uint8_t op = in.byte() % 10;
    bool updated = false;
    if (op == 0 && alone.size() < k_most_characters) {
      const glide::ControllerSettings& kind = kinds[in.byte() % kinds.size()];
      const glm::vec3 feet = any_spot();
      const glide::CharacterInfo info{.mass = in.range(1.f, 200.f), .push = in.byte() % 2 == 0};
      on_both(sets, [&](CharacterSet& set) { set.add(kind, feet, info); });
      placed_clear = false; // looked at below, over every character
    } else if (op == 1) {
      const CharacterId id = any_character();
      on_both(sets, [&](CharacterSet& set) { set.remove(id); });
    } else if (op == 2) {
      const CharacterId id = any_character();
      const glide::CharacterInfo info{.mass = in.range(-1.f, 200.f), .push = in.byte() % 2 == 0};
      on_both(sets, [&](CharacterSet& set) { set.set_info(id, info); });
    } else if (op == 3) {
      const CharacterId id = any_character();
      const glm::vec3 feet = any_spot();
      on_both(sets, [&](CharacterSet& set) { // by the set, or (odd ids) by the controller: the same
        if (id.value % 2 == 0)
          set.teleport(id, feet);
        else
          set.controller(id).teleport(feet);
      });
      placed_clear = false;
    } else if (op == 4) {
      saved = alone.save_state();
      if (threaded.save_state() != saved) std::abort();
    } else if (op == 5 && !saved.empty()) {
      std::vector<std::byte> bytes = saved;
      if (in.byte() % 2 == 0) bytes[in.byte() * 7u % bytes.size()] ^= static_cast<std::byte>(in.byte() | 1u);
      const std::vector<glm::vec3> before = positions(alone);
      if (on_both(sets, [&](CharacterSet& set) { set.restore_state(bytes); }) && positions(alone) != before)
        std::abort(); // a refused restore changed the set
      placed_clear = false;
    } else {
      std::vector<glm::vec3> velocities(alone.size());
      for (glm::vec3& v : velocities) v = in.vec(-20.f, 20.f) * glm::vec3(1.f, 0.5f, 1.f);
      if (!velocities.empty() && in.byte() == 255) velocities[in.byte() % velocities.size()].x = std::nanf("");
      const float dt = in.range(1.f / 240.f, 1.f / 20.f);
      const std::vector<glm::vec3> before = positions(alone);
      const bool refused = on_both(sets, [&](CharacterSet& set) {
        set.update(velocities, dt, &set == &threaded ? pool.hook() : glide::ParallelFor{});
      });
      if (refused && positions(alone) != before) std::abort(); // a refused update moved someone
      updated = !refused;
    }
    // After each operation: the same characters in the same places, finite.
    if (alone.size() != threaded.size()) std::abort();
    bool all_clear = true, out_of_pieces = true;
    float deepest_gap = std::numeric_limits<float>::infinity();
    for (std::uint32_t i = 0; i < alone.size(); ++i) {
      const CharacterId id{i};
      if (alone.contains(id) != threaded.contains(id)) std::abort();
      if (!alone.contains(id)) continue;
      const glm::vec3 p = alone.controller(id).position();
      if (!glide::limits::finite(p) || p != threaded.controller(id).position()) std::abort();
      const glide::gjk::Capsule capsule = alone.controller(id).capsule();
      const float gap = closest_gap(alone, capsule, i);
      deepest_gap = std::min(deepest_gap, gap);
      all_clear = all_clear && gap >= 0.f && clear_of_pieces(world, capsule);
      out_of_pieces = out_of_pieces && clear_of_pieces(world, capsule, k_overlap_tolerance);
    }
    // Placed clear, nothing may overlap after an update from then on; placed into another or a
    // box, the sets recover (not checked) until all stand clear again.
    if (updated && placed_clear && (deepest_gap < -k_overlap_tolerance || !out_of_pieces)) std::abort();
    if (all_clear) placed_clear = true;
  }
  return 0;
}
