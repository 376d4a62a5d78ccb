#include "tour.hpp"

#include <glide/error.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace glide::demo {
namespace {

void validate(const TourSettings& t) {
  const auto fail = [](const char* field, float v) {
    throw Error(std::string("tour setting ") + field + " out of range: " + std::to_string(v));
  };
  if (!(t.dt > 0.f && std::isfinite(t.dt))) fail("dt", t.dt);
  if (t.max_frames < 0) fail("max_frames", static_cast<float>(t.max_frames));
  if (!(t.stuck_ratio >= 0.f && t.stuck_ratio <= 1.f)) fail("stuck_ratio", t.stuck_ratio);
  if (t.flicker_frames < 1) fail("flicker_frames", static_cast<float>(t.flicker_frames));
}

glm::vec2 xz(const glm::vec3& v) { return {v.x, v.z}; }

std::vector<MovingPiece> placed(World& world, std::span<const MovingPiece> moving) {
  place_pieces(world, moving, 0.f);
  world.update();
  return {moving.begin(), moving.end()};
}

double percentile(std::vector<float> values, double p) {
  if (values.empty()) return 0.0;
  const auto k = static_cast<std::size_t>(
      std::min<double>(static_cast<double>(values.size()) - 1.0, std::floor(p * static_cast<double>(values.size()))));
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
  return values[k];
}

} // namespace

TourWalker::TourWalker(World& world, std::span<const MovingPiece> moving, const TourScript& script,
                       const glm::vec3& spawn, const ControllerSettings& settings, const TourSettings& tour)
    : world_(&world), moving_(placed(world, moving)), script_(&script), tour_(tour),
      controller_(world, settings, spawn), player_(tour.player) {
  validate(tour_);
  touching_.assign(moving_.size(), 0);
  pushed_by_.assign(moving_.size(), 0);
  if (script.waypoints.empty()) throw Error(script.file.string() + ": the tour has no waypoints");
  begin_leg();
}

bool TourWalker::finished() const {
  return leg_ >= static_cast<int>(script_->waypoints.size()) ||
         (tour_.max_frames > 0 && static_cast<int>(frames_.size()) >= tour_.max_frames);
}

void TourWalker::begin_leg() {
  leg_time_ = 0.f;
  wait_left_ = -1.f;
  if (leg_ >= static_cast<int>(script_->waypoints.size())) return;
  const Waypoint& w = script_->waypoints[static_cast<std::size_t>(leg_)];
  const float distance = glm::length(xz(w.target) - xz(controller_.position()));
  leg_timeout_ = w.timeout > 0.f ? w.timeout : std::min(2.f * distance / w.speed + 2.f, k_max_leg_seconds);
  jump_pending_ = w.jump;
  reports_.push_back({w.name, w.expect, false, 0, 0, 0, 0});
}

void TourWalker::end_leg(bool reached) {
  reports_.back().reached = reached;
  ++leg_;
  begin_leg();
}

void TourWalker::count_flicker(GroundState before, GroundState after) {
  const int frame = static_cast<int>(frames_.size());
  if (before == GroundState::on_ground && after != GroundState::on_ground) left_ground_frame_ = frame;
  if (before != GroundState::on_ground && after == GroundState::on_ground && left_ground_frame_ >= 0) {
    // A short leave of the ground that no jump explains: the state flickered.
    if (frame - left_ground_frame_ <= tour_.flicker_frames && last_jump_frame_ < left_ground_frame_ - 1) {
      ++flicker_;
      ++reports_.back().flicker;
    }
    left_ground_frame_ = -1;
  }
}

void TourWalker::step() {
  if (finished()) return;
  const float dt = tour_.dt;

  // Steering: finish legs whose waypoint is reached (or whose time is up), then walk.
  glm::vec3 walk(0.f);
  while (leg_ < static_cast<int>(script_->waypoints.size())) {
    const Waypoint& w = script_->waypoints[static_cast<std::size_t>(leg_)];
    const glm::vec2 to = xz(w.target) - xz(controller_.position());
    const float distance = glm::length(to);
    if (wait_left_ >= 0.f) {
      if (wait_left_ > 0.f) break;
      end_leg(true);
      continue;
    }
    if (distance <= w.radius) {
      const float idle = std::max(w.wait, w.until - time());
      if (idle > 0.f) {
        wait_left_ = idle;
        break;
      }
      end_leg(true);
      continue;
    }
    if (leg_time_ >= leg_timeout_) {
      end_leg(false);
      continue;
    }
    const float speed = std::min(w.speed, distance / dt); // do not overshoot the waypoint
    walk = glm::vec3(to.x, 0.f, to.y) * (speed / distance);
    break;
  }
  if (leg_ >= static_cast<int>(script_->waypoints.size())) return;

  // The pieces move first, then the walker: a piece's velocity is known when the walker rides it.
  move_pieces(*world_, moving_, time(), dt);
  world_->update(); // the hierarchy follows the pieces here, not inside the timed move

  // Gravity and jumps: the player loop every game writes around the controller.
  FrameRecord rec;
  const GroundState before = controller_.ground().state;
  const glm::vec3 start = controller_.position();
  const auto t0 = std::chrono::steady_clock::now();
  const MoveResult r = player_.step(controller_, {.velocity = walk, .jump = jump_pending_}, dt);
  const auto t1 = std::chrono::steady_clock::now();
  if (player_.jumped()) {
    jump_pending_ = false;
    rec.jumped = true;
    last_jump_frame_ = static_cast<int>(frames_.size());
  }

  rec.position = r.position;
  rec.walk = walk;
  rec.ground = r.ground.state;
  rec.flags = r.flags;
  rec.waypoint = leg_;
  rec.move_us = std::chrono::duration<float, std::micro>(t1 - t0).count();
  const float touch = k_touch_skins * controller_.settings().skin_width;
  contacts_ = world_->overlap_capsule(controller_.capsule(), moving_.empty() ? 0.f : touch);
  float gap = 0.f;
  for (const Contact& c : contacts_) gap = std::min(gap, c.distance);
  rec.penetration = -gap;
  rec.pushed = r.pushed != glm::vec3(0.f);
  for (std::size_t i = 0; i < moving_.size(); ++i) {
    const PieceId id = moving_[i].id;
    if (r.ground.state != GroundState::in_air && r.ground.target == HitTarget::piece && r.ground.piece == id)
      rec.riding = static_cast<int>(i);
    const bool touched = std::any_of(contacts_.begin(), contacts_.end(), [&](const Contact& c) {
      return c.target == HitTarget::piece && c.piece == id && c.distance <= touch;
    });
    touching_[i] += touched ? 1 : 0;
    pushed_by_[i] += touched && rec.pushed ? 1 : 0;
  }

  const float requested = glm::length(walk) * dt;
  if (requested > 0.f) {
    const float progress = glm::dot(xz(r.position - start), xz(walk)) / glm::length(walk);
    if (progress < tour_.stuck_ratio * requested) {
      const Expect expect = script_->waypoints[static_cast<std::size_t>(leg_)].expect;
      (expect == Expect::reach ? rec.stuck : rec.blocked) = true;
    }
  }
  count_flicker(before, rec.ground);
  frames_.push_back(rec);
  reports_.back().frames += 1;
  reports_.back().stuck_frames += rec.stuck ? 1 : 0;
  reports_.back().blocked_frames += rec.blocked ? 1 : 0;
  leg_time_ += dt;
  if (wait_left_ > 0.f) wait_left_ = std::max(0.f, wait_left_ - dt);
}

TourStats TourWalker::stats() const {
  TourStats s;
  s.frames = static_cast<int>(frames_.size());
  s.waypoints = static_cast<int>(script_->waypoints.size());
  s.finished = leg_ >= s.waypoints;
  s.flicker = flicker_;
  std::vector<float> times;
  times.reserve(frames_.size());
  glm::vec3 previous = frames_.empty() ? controller_.position() : frames_.front().position;
  for (const FrameRecord& f : frames_) {
    s.distance += static_cast<double>(glm::length(f.position - previous));
    previous = f.position;
    s.stuck_frames += f.stuck ? 1 : 0;
    s.blocked_frames += f.blocked ? 1 : 0;
    s.max_penetration = std::max(s.max_penetration, f.penetration);
    s.ground_frames[static_cast<int>(f.ground)] += 1;
    s.jumps += f.jumped ? 1 : 0;
    times.push_back(f.move_us);
  }
  s.median_us = percentile(times, 0.5);
  // Moving pieces: frames on each, and air frames between two frames on the same one.
  for (std::size_t i = 0; i < moving_.size(); ++i)
    s.moving.push_back({moving_[i].name, 0, 0, touching_[i], pushed_by_[i]});
  int last_ridden = -1, air = 0;
  for (const FrameRecord& f : frames_) {
    s.pushed_frames += f.pushed ? 1 : 0;
    s.crushed_frames += f.flags.crushed ? 1 : 0;
    if (f.riding >= 0) {
      MovingPieceStats& m = s.moving[static_cast<std::size_t>(f.riding)];
      m.frames_on += 1;
      if (f.riding == last_ridden) m.off_ground += air;
      last_ridden = f.riding;
      air = 0;
    } else if (f.ground == GroundState::in_air) {
      air += last_ridden >= 0 ? 1 : 0;
    } else {
      last_ridden = -1; // landed on something that does not move
      air = 0;
    }
  }
  for (const MovingPieceStats& m : s.moving) {
    s.moving_frames += m.frames_on;
    s.moving_off_ground += m.off_ground;
  }
  s.p99_us = percentile(std::move(times), 0.99);
  // The leg in progress (cut by max_frames) is neither reached nor skipped.
  const std::size_t done = std::min(reports_.size(), static_cast<std::size_t>(leg_));
  for (std::size_t i = 0; i < done; ++i) {
    const WaypointReport& w = reports_[i];
    s.reached += w.reached ? 1 : 0;
    if (w.expect == Expect::reach && !w.reached) ++s.skipped;
    if (w.expect == Expect::blocked) (w.reached ? s.passed_unexpectedly : s.blocked_as_expected) += 1;
  }
  return s;
}

TourWalker run_tour(DemoLevel& level, const ControllerSettings& settings, const TourSettings& tour) {
  TourWalker walker(level.world, level.moving, level.script, level.spawn, settings, tour);
  while (!walker.finished()) walker.step();
  return walker;
}

} // namespace glide::demo
