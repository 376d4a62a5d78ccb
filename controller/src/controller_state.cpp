// Saving and restoring a character's state: Controller and PlayerStep to bytes and back.
#include "state_bytes.hpp"

#include <glide/controller/character_set.hpp>
#include <glide/controller/controller.hpp>
#include <glide/controller/player_step.hpp>
#include <glide/limits.hpp>
#include <glide/world/world.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <utility>

namespace glide {

namespace {

constexpr std::array<char, 4> k_controller_magic{'G', 'L', 'C', 'S'};
constexpr std::array<char, 4> k_player_magic{'G', 'L', 'P', 'S'};
constexpr std::uint16_t k_state_version = 2;
constexpr std::uint16_t k_player_state_version = 1;

} // namespace

std::vector<std::byte> Controller::save_state() {
  std::vector<std::byte> bytes(k_state_bytes);
  write_state(bytes);
  return bytes;
}

void Controller::write_state(std::span<std::byte> to) {
  follow_origin();
  // Whether the ground piece's motion so far has been ridden: a serial means nothing in a world
  // rolled back, whose serials differ from the saved timeline's.
  const bool ridden = ground_.target == HitTarget::piece && world_->contains(ground_.piece) &&
                      ridden_.piece == ground_.piece && ridden_.serial == world_->motion(ground_.piece).serial;
  detail::StateWriter out(to, k_controller_magic, k_state_version);
  out.dvec3(origin_);
  out.vec3(position_);
  out.f32(settings_->height);
  out.u8(static_cast<std::uint8_t>(ground_.state));
  out.u8(static_cast<std::uint8_t>(ground_.target));
  out.u8(ridden ? 1 : 0);
  out.u32(ground_.target == HitTarget::character ? ground_.character.value : ground_.piece.value);
  out.vec3(ground_.normal);
  out.vec3(ground_.contact_normal);
  out.vec3(ground_.point);
  out.f32(ground_.distance);
  out.vec3(ground_.velocity);
  // The caches' contents steer the queries' warm starts and shortcuts, so results depend on
  // them in the last bits: drop them here, as a restore does, so both runs go on alike.
  nearby_.clear();
  probe_cache_ = {};
  failed_step_ = {};
}

Controller::SavedState Controller::read_state(std::span<const std::byte> bytes, const char* what) const {
  detail::StateReader in(bytes, what, k_controller_magic, k_state_version, k_state_bytes);
  const glm::dvec3 origin = in.dvec3("origin");
  if (!limits::in_global_range(origin.x) || !limits::in_global_range(origin.y) || !limits::in_global_range(origin.z))
    in.fail("origin",
            limits::vec_text(origin) + " is beyond " + limits::number_text(limits::k_max_global_coordinate) + " m");
  const glm::vec3 position = in.vec3("position");
  ControllerSettings shape = *settings_;
  shape.height = in.f32("height");
  GroundInfo ground;
  ground.state = in.enumeration<GroundState>("ground state", 3);
  ground.target = in.enumeration<HitTarget>("ground target", 4);
  const bool ridden = in.flag("ridden");
  const std::uint32_t ground_id = in.u32("ground piece");
  (ground.target == HitTarget::character ? ground.character.value : ground.piece.value) = ground_id;
  ground.normal = in.unit_vec3("ground normal");
  ground.contact_normal = in.unit_vec3("ground contact normal");
  ground.point = in.vec3("ground point");
  ground.distance = in.f32("ground distance");
  if (!limits::in_range(ground.distance))
    in.fail("ground distance", limits::number_text(ground.distance) + " m is beyond the valid coordinates");
  ground.velocity = in.velocity("ground velocity");

  if (shape.height != settings_->height) { // a crouch: the other settings are checked already
    try {
      validate(shape);
    } catch (const Error& e) {
      in.fail("height", e.what());
    }
  }
  if ((ground.state == GroundState::in_air) != (ground.target == HitTarget::none))
    in.fail("ground state", "in the air exactly when the ground target is none");
  if (ground.target == HitTarget::piece && !world_->contains(ground.piece))
    in.fail("ground piece", std::to_string(ground.piece.value) + " is not in the world");
  if (ground.target != HitTarget::piece && ground.piece.valid())
    in.fail("ground piece", std::to_string(ground.piece.value) + " is set but the ground is not a piece");
  if (ridden && ground.target != HitTarget::piece) in.fail("ridden", "set but the ground is not a piece");

  // A state saved with the world's origin elsewhere is re-expressed relative to it now.
  const glm::dvec3 by = origin - world_->origin();
  SavedState state{world_->origin(), glm::vec3(glm::dvec3(position) + by), shape.height, ground, ridden};
  state.ground.point = glm::vec3(glm::dvec3(ground.point) + by);
  for (const auto& [field, at] : {std::pair{"position", state.position}, std::pair{"ground point", state.ground.point}})
    if (!limits::in_range(at))
      in.fail(field, limits::vec_text(at) + " from the world's origin " + limits::vec_text(world_->origin()) +
                         " is beyond the valid coordinates");
  return state;
}

void Controller::restore_state(std::span<const std::byte> bytes) {
  apply_state(read_state(bytes, "Controller::restore_state"));
}

void Controller::apply_state(const SavedState& state) {
  origin_ = state.origin;
  position_ = state.position;
  if (state.height != settings_->height) { // its own settings from now: others may share these
    auto crouched = std::make_shared<ControllerSettings>(*settings_);
    crouched->height = state.height;
    settings_ = std::move(crouched);
  }
  ground_ = state.ground;
  ridden_ = state.ridden ? Ridden{state.ground.piece, world_->motion(state.ground.piece).serial} : Ridden{};
  // Everything the world did up to now counts as seen: the game has re-posed its pieces.
  seen_revision_ = world_->revision();
  nearby_.clear();
  probe_cache_ = {};
  failed_step_ = {};
  trace_.iterations.clear();
}

std::vector<std::byte> PlayerStep::save_state() const {
  std::vector<std::byte> bytes(k_state_bytes);
  detail::StateWriter out(bytes, k_player_magic, k_player_state_version);
  out.f32(vertical_);
  out.vec3(inherited_);
  out.u8(launched_ ? 1 : 0);
  out.u8(jumped_ ? 1 : 0);
  return bytes;
}

void PlayerStep::restore_state(std::span<const std::byte> bytes) {
  detail::StateReader in(bytes, "PlayerStep::restore_state", k_player_magic, k_player_state_version, k_state_bytes);
  const float vertical = in.f32("vertical speed");
  const glm::vec3 inherited = in.velocity("inherited velocity");
  const bool launched = in.flag("launched");
  const bool jumped = in.flag("jumped");
  vertical_ = vertical;
  inherited_ = inherited;
  launched_ = launched;
  jumped_ = jumped;
}

} // namespace glide

namespace glide {

namespace {
constexpr std::array<char, 4> k_set_magic{'G', 'L', 'C', 'R'};
constexpr std::uint16_t k_set_version = 4;
} // namespace

std::vector<std::byte> CharacterSet::save_state() {
  std::vector<std::byte> bytes;
  save_state(bytes);
  return bytes;
}

void CharacterSet::save_state(std::vector<std::byte>& into) {
  notice_placed(); // what the next update would start from
  ground_placed();
  into.resize(state_bytes(size()));
  detail::StateWriter out(into, k_set_magic, k_set_version);
  out.u32(static_cast<std::uint32_t>(size()));
  for (Character& c : characters_) {
    out.vec3(c.velocity);
    out.f32(c.pressure);
    out.f32(c.stepping_back);
    const std::span<std::byte> state = out.region(Controller::k_state_bytes);
    if (c.removed)
      std::fill(state.begin(), state.end(), std::byte{0}); // a removed one's: zeros, where a state has its magic
    else
      c.controller->write_state(state); // in place, no vector of its own
  }
}

void CharacterSet::restore_state(std::span<const std::byte> bytes) {
  detail::StateReader in(bytes, "CharacterSet::restore_state", k_set_magic, k_set_version, state_bytes(size()));
  if (const std::uint32_t count = in.u32("character count"); count != size())
    in.fail("character count", std::to_string(count) + " is not the set's " + std::to_string(size()));
  // All or nothing: every character's bytes are read and checked before any is applied.
  std::vector<Controller::SavedState> states;
  struct Motion {
    glm::vec3 velocity;
    float pressure, stepping_back;
  };
  std::vector<Motion> motions;
  states.reserve(size());
  motions.reserve(size());
  for (std::size_t i = 0; i < characters_.size(); ++i) {
    in.within("character", i);
    const glm::vec3 velocity = in.velocity("velocity");
    const float pressure = in.f32("pressure");
    if (!(pressure >= 0.f && pressure <= 1.f)) in.fail("pressure", std::to_string(pressure) + " is not in [0, 1]");
    const float stepping_back = in.f32("stepping back");
    if (!(stepping_back >= 0.f && stepping_back <= k_step_back_time))
      in.fail("stepping back",
              std::to_string(stepping_back) + " is not in [0, " + std::to_string(k_step_back_time) + "] s");
    const std::span<const std::byte> state = in.bytes(Controller::k_state_bytes);
    const bool saved_removed = std::all_of(state.begin(), state.end(), [](std::byte b) { return b == std::byte{0}; });
    if (saved_removed != characters_[i].removed)
      in.fail("state", saved_removed ? "removed when saved, but in the set" : "removed from the set, but saved");
    if (saved_removed) {
      states.emplace_back();
      motions.push_back({});
      continue;
    }
    try {
      states.push_back(characters_[i].controller->read_state(state, "Controller::restore_state"));
    } catch (const Error& e) { // the controller's own reader: named after the character
      throw Error("CharacterSet::restore_state: character " + std::to_string(i) + ": " + e.what());
    }
    motions.push_back({velocity, pressure, stepping_back});
  }
  for (std::size_t i = 0; i < characters_.size(); ++i) {
    if (characters_[i].removed) continue;
    characters_[i].controller->apply_state(states[i]);
    characters_[i].velocity = motions[i].velocity;
    characters_[i].pressure = motions[i].pressure;
    characters_[i].stepping_back = motions[i].stepping_back;
    characters_[i].teleports_seen = characters_[i].controller->teleports_; // its ground is the state's
  }
  candidates_valid_ = false; // the characters jumped: renew the neighbour candidates at once
}

} // namespace glide
