// A CharacterSet looks for neighbours among candidates kept from one update to the next. Which
// neighbours a character has must never depend on them: a crowd whose candidates are renewed
// every update moves bit-identically to one that keeps them, through teleports, sprints and
// falls that leave the candidates behind.
#include "controller_scene.hpp"

#include <glide/controller/character_set.hpp>
#include <glide/gjk/segment_pair.hpp>

#include <cstring>
#include <random>
#include <vector>

namespace glide::test {

namespace {

// Whether character `who` standing at `feet` would be at least 0.05 m clear of every other.
bool clear_of_others(const CharacterSet& set, std::uint32_t who, const glm::vec3& feet) {
  const gjk::Capsule mine = set.controller(CharacterId{who}).capsule_at(feet);
  for (std::uint32_t j = 0; j < set.size(); ++j) {
    if (j == who) continue;
    const gjk::Capsule theirs = set.controller(CharacterId{j}).capsule();
    if (gjk::closest_points(mine.segment, theirs.segment).distance - mine.radius - theirs.radius < 0.05f) return false;
  }
  return true;
}

// 160 characters on a floor with boxes: most walk at 1 to 3 m/s, every fortieth sprints at up to
// 12 m/s, and every 20 frames three of them jump to a free spot next to another character. With
// `renew_every_update`, each update follows a restore of the state just saved, which renews every
// candidate list. With `respawning`, one character a frame also goes back to its spawn spot when
// that is clear. Returns the positions of every frame; `worst_gap` the deepest overlap seen (m).
std::vector<glm::vec3> run_crowd(bool renew_every_update, bool respawning, float& worst_gap) {
  World world;
  add_floor(world, 40.f);
  for (int i = 0; i < 8; ++i) add_box(world, {-14.f + 4.f * i, 0, -1}, {-13.f + 4.f * i, 1.5f, 1});
  CharacterSet set(world);
  constexpr int count = 160;
  std::vector<glm::vec3> spawns;
  for (int i = 0; i < count; ++i)
    spawns.push_back({-10.f + 1.25f * float(i % 16), 0.f, (i / 16 % 2 ? 1.f : -1.f) * (3.f + 1.2f * float(i / 32))});
  for (const glm::vec3& spawn : spawns) set.add({}, spawn);
  std::mt19937 rng(4242);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<glm::vec3> velocities(count), trail;
  worst_gap = 1e9f;
  for (int frame = 0; frame < 150; ++frame) {
    for (std::size_t i = 0; i < velocities.size(); ++i) {
      const float x = u(rng), z = u(rng);
      const float speed = i % 40 == 0 ? 12.f : 2.f + x;
      velocities[i] = glm::vec3(speed * x, -3.f, speed * z);
    }
    if (frame % 20 == 10)
      for (std::uint32_t k = 0; k < 3; ++k) {
        // Beside another character, 0.75 m off along x: the two capsules (radius 0.3) do not
        // overlap, but their reaches do, far from where the jumper's candidates were found.
        const auto jumper = static_cast<std::uint32_t>((frame * 7 + 13 * k) % count);
        const auto next_to = static_cast<std::uint32_t>((frame * 11 + 29 * k + 5) % count);
        if (jumper == next_to) continue;
        const glm::vec3 there = set.controller(CharacterId{next_to}).position() + glm::vec3(0.75f, 0.f, 0.f);
        if (clear_of_others(set, jumper, there)) set.teleport(CharacterId{jumper}, there);
      }
    if (respawning) {
      const auto who = static_cast<std::uint32_t>(frame * 37 % count);
      if (clear_of_others(set, who, spawns[who])) set.teleport(CharacterId{who}, spawns[who]);
    }
    const std::vector<std::byte> saved = set.save_state(); // both runs drop the query caches alike
    if (renew_every_update) set.restore_state(saved);
    set.update(velocities, 1.f / 60.f);
    for (std::uint32_t i = 0; i < set.size(); ++i) {
      trail.push_back(set.controller(CharacterId{i}).position());
      const gjk::Capsule a = set.controller(CharacterId{i}).capsule();
      for (std::uint32_t j = i + 1; j < set.size(); ++j) {
        const gjk::Capsule b = set.controller(CharacterId{j}).capsule();
        worst_gap = std::min(worst_gap, gjk::closest_points(a.segment, b.segment).distance - a.radius - b.radius);
      }
    }
  }
  return trail;
}

} // namespace

TEST_CASE("a crowd that keeps its neighbour candidates moves bit-identically to one renewing them every update") {
  // Respawning: a character a frame (144 of the 150 frames) leaves its candidates far behind,
  // and is given new ones.
  for (const bool respawning : {false, true}) {
    CAPTURE(respawning);
    float kept_gap = 0.f, renewed_gap = 0.f;
    const std::vector<glm::vec3> kept = run_crowd(false, respawning, kept_gap);
    const std::vector<glm::vec3> renewed = run_crowd(true, respawning, renewed_gap);
    REQUIRE(kept.size() == renewed.size());
    CHECK(std::memcmp(kept.data(), renewed.data(), kept.size() * sizeof(glm::vec3)) == 0);
    // Jumpers landed beside others, sprinters ran into them: none went inside another.
    CHECK(kept_gap >= -k_penetration_tolerance);
  }
}

} // namespace glide::test
