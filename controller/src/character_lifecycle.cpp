// A set's characters coming and going: added (sharing their settings), removed and their ids
// given again, their info changed, teleported; and the ground of those placed, looked for among
// the others before they first move.
#include <glide/controller/character_set.hpp>
#include <glide/controller/settings_schema.hpp>
#include <glide/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace glide {

namespace {

// Whether settings may be shared among characters: those holding code (filters), which cannot
// be compared, never are.
bool shareable(const ControllerSettings& settings) { return !settings.filter && !settings.character_filter; }

void check_info(const CharacterInfo& info, const char* what) {
  if (!std::isfinite(info.mass) || !(info.mass > 0.f))
    throw Error(std::string(what) + ": CharacterInfo::mass = " + std::to_string(info.mass) +
                " must be positive and finite (kg)");
}

// How far around a placed character others are looked at for its ground, in its skin widths:
// beyond the ground probe's two.
constexpr float k_ground_look_skins = 4.f;
// Up to this many placed at once look at every other character's box; more sort the boxes first.
constexpr std::size_t k_few_placed = 8;

} // namespace

CharacterSet::CharacterSet(const World& world) : world_(&world) {}

CharacterId CharacterSet::add(const ControllerSettings& settings, const glm::vec3& position,
                              const CharacterInfo& info) {
  check_info(info, "CharacterSet::add");
  Character c;
  std::shared_ptr<const ControllerSettings> shared = kept_like(settings);
  const bool fresh = !shared;
  if (fresh) shared = std::make_shared<const ControllerSettings>(settings);
  c.controller = std::unique_ptr<Controller>(new Controller(shared, *world_, position));
  // Kept for the characters added later (the oldest kind let go), unless they hold code.
  if (fresh && shareable(settings)) {
    if (kept_settings_.size() == k_kept_settings) kept_settings_.erase(kept_settings_.begin());
    kept_settings_.push_back(std::move(shared));
  }
  const auto id = free_.empty() ? static_cast<std::uint32_t>(characters_.size()) : free_.back();
  c.controller->nearby_.set_self(CharacterId{id});
  c.info = info;
  if (info.push) ++pushers_;
  MoveResult result;
  result.position = position;
  result.ground = c.controller->ground();
  if (id == characters_.size()) {
    checkpoints_.push_back(c.controller->checkpoint());
    results_.push_back({result});
    characters_.push_back(std::move(c));
  } else {
    checkpoints_[id] = c.controller->checkpoint();
    results_[id] = {result};
    characters_[id] = std::move(c);
    free_.pop_back();
  }
  candidates_valid_ = false; // placed by the next update: its teleports_seen is none yet
  return CharacterId{id};
}

void CharacterSet::remove(CharacterId id) {
  Character& c = at(id);
  if (c.info.push) --pushers_;
  c.info = {.layers = 0u, .mass = c.info.mass, .push = false};
  c.velocity = glm::vec3(0.f);
  c.pressure = c.stepping_back = 0.f;
  c.removed = true;
  // Its controller stays, unmoved, until the id is given again: the passes read every slot. The
  // id is given again only after an update, when no one's ground names it any more.
  freed_.push_back(id.value);
}

void CharacterSet::set_info(CharacterId id, const CharacterInfo& info) {
  Character& c = at(id);
  check_info(info, "CharacterSet::set_info");
  if (c.info.push && !info.push) c.pressure = c.stepping_back = 0.f; // pushing again starts afresh
  pushers_ = pushers_ + (info.push ? 1 : 0) - (c.info.push ? 1 : 0);
  c.info = info;
}

void CharacterSet::teleport(CharacterId id, const glm::vec3& position) { at(id).controller->teleport(position); }

// The characters added or teleported since their ground was last looked for, as placed_.
void CharacterSet::notice_placed() {
  for (std::size_t i = 0; i < characters_.size(); ++i) {
    const Character& c = characters_[i];
    if (!c.removed && c.controller->teleports_ != c.teleports_seen) placed_.push_back(static_cast<std::uint32_t>(i));
  }
}

// Those the preparing pass noticed (noticed_) placed, then prepared again from their new ground.
void CharacterSet::place_noticed(std::span<const glm::vec3> velocities, float dt) {
  for (std::size_t i = 0; i < characters_.size(); ++i)
    if (noticed_[i] != 0) placed_.push_back(static_cast<std::uint32_t>(i));
  ground_placed_among(start_, start_boxes_);
  for (std::size_t i = 0; i < characters_.size(); ++i) {
    if (noticed_[i] == 0) continue;
    prepare_again(i, velocities[i], dt);
    if (!padded_[i].contains(reach_[i])) {
      roaming_[i] = 1;
      roamed_any_ = true;
    }
  }
}

CharacterSet::Character& CharacterSet::at(CharacterId id) {
  if (id.value >= characters_.size())
    throw Error("CharacterSet: character id " + std::to_string(id.value) + " is not in the set (" +
                std::to_string(characters_.size()) + " ids given)");
  if (characters_[id.value].removed)
    throw Error("CharacterSet: character id " + std::to_string(id.value) + " was removed");
  return characters_[id.value];
}
const CharacterSet::Character& CharacterSet::at(CharacterId id) const {
  return const_cast<CharacterSet*>(this)->at(id);
}

// Settings of an earlier character that hold the same bits as `settings`, or null: a crowd of a
// few kinds of characters then holds a few copies, and a move reads no settings of each
// character's own.
std::shared_ptr<const ControllerSettings> CharacterSet::kept_like(const ControllerSettings& settings) const {
  static const fields::Table<ControllerSettings> table = controller_settings_table();
  if (!shareable(settings)) return nullptr;
  for (const std::shared_ptr<const ControllerSettings>& kept : kept_settings_)
    if (fields::same_bits(table, *kept, settings)) return kept;
  return nullptr;
}

Controller& CharacterSet::controller(CharacterId id) { return *at(id).controller; }
const Controller& CharacterSet::controller(CharacterId id) const { return *at(id).controller; }
const MoveResult& CharacterSet::result(CharacterId id) const {
  at(id); // checks the id
  return results_[id.value].result;
}

// The characters of placed_ (added, or teleported) look for their ground among the others
// where they stand, as a move's last probe does: one put on another's head stands on it, and is
// carried with it, from its first update, whichever was added first.
void CharacterSet::ground_placed() {
  if (placed_.empty()) return;
  const std::size_t n = characters_.size();
  std::vector<CapsuleObstacle> here(n);
  std::vector<gjk::Aabb> bounds(n);
  for (std::size_t j = 0; j < n; ++j) {
    Controller& k = *characters_[j].controller;
    k.follow_origin(); // after a World::shift_origin
    const auto id = static_cast<std::uint32_t>(j);
    here[j] = {k.capsule(), characters_[j].velocity, characters_[j].info.layers, CharacterId{id}};
    bounds[j] = gjk::capsule_bounds(here[j].capsule);
  }
  ground_placed_among(here, bounds);
}

// ground_placed's work, with every character's capsule where it stands (`here`, by index) and
// its bounds (`boxes`). The others near each placed one are those whose box meets its own, tested
// one by one for a few placed (a teleport), and found by a sweep over the boxes along the axis
// the crowd spreads most along for many (a crowd added).
void CharacterSet::ground_placed_among(std::span<const CapsuleObstacle> here, std::span<const gjk::Aabb> boxes) {
  const std::size_t n = characters_.size();
  std::vector<std::pair<float, std::uint32_t>> sorted; // low end of the boxes along the axis, index
  int axis = 0;
  float widest = 0.f;
  if (placed_.size() > k_few_placed) {
    gjk::Aabb all;
    for (const gjk::Aabb& box : boxes)
      if (box.valid()) all = all.merged(box);
    const glm::vec3 spread = all.max - all.min;
    axis = spread.x >= spread.y && spread.x >= spread.z ? 0 : spread.y >= spread.z ? 1 : 2;
    sorted.reserve(n);
    for (std::size_t j = 0; j < n; ++j) {
      if (!boxes[j].valid()) continue; // a removed one's empty box
      sorted.push_back({boxes[j].min[axis], static_cast<std::uint32_t>(j)});
      widest = std::max(widest, boxes[j].max[axis] - boxes[j].min[axis]);
    }
    std::sort(sorted.begin(), sorted.end());
  }
  std::vector<CapsuleObstacle> others;
  for (const std::uint32_t i : placed_) {
    if (characters_[i].removed) continue;
    Controller& k = *characters_[i].controller;
    characters_[i].teleports_seen = k.teleports_;
    const gjk::Aabb look = boxes[i].expanded(k_ground_look_skins * k.settings().skin_width);
    others.clear();
    const auto consider = [&](std::uint32_t j) {
      const CapsuleObstacle& o = here[j];
      if (j != i && (o.layers & k.settings().layer_mask) != 0 && k.accepts_character(o.id)) others.push_back(o);
    };
    if (sorted.empty()) {
      for (std::uint32_t j = 0; j < n; ++j)
        if (boxes[j].overlaps(look)) consider(j);
    } else {
      for (auto at = std::lower_bound(sorted.begin(), sorted.end(), std::pair{look.min[axis] - widest, 0u});
           at != sorted.end() && at->first <= look.max[axis]; ++at)
        if (boxes[at->second].overlaps(look)) consider(at->second);
      std::sort(others.begin(), others.end(), [](const CapsuleObstacle& a, const CapsuleObstacle& b) {
        return a.id.value < b.id.value; // id order, as a move meets them
      });
    }
    // Only a character found as its ground is taken: probed again on a piece, it would take the
    // piece's motion so far as ridden.
    const Controller::Checkpoint before = k.checkpoint();
    k.nearby_.set_characters(others);
    k.update_ground();
    k.nearby_.set_characters({});
    if (k.ground().target == HitTarget::character)
      k.report_ground(results_[i].result);
    else
      k.rewind(before);
  }
  placed_.clear();
}

} // namespace glide
