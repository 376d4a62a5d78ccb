#include "soak.hpp"

#include <glide/controller/controller.hpp>
#include <glide/controller/player_step.hpp>
#include <glide/error.hpp>

#include <glm/geometric.hpp>
#include <glm/gtc/constants.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <random>

#include <time.h>

namespace glide::demo {
namespace {

using Clock = std::chrono::steady_clock;

// What the character is asked to do for a run of frames.
enum class Mode : std::uint8_t {
  walk,   // PlayerStep: walking and running across the ground, jumping
  charge, // PlayerStep: running at a piece (walls, corners) at up to 100 m/s
  fly,    // Controller::move alone: random velocities in any direction, no gravity
  dive,   // Controller::move alone: straight at a piece or the terrain at up to 100 m/s
  idle,   // PlayerStep: standing (gravity only)
};
const char* mode_name(Mode m) {
  static const char* const names[] = {"walk", "charge", "fly", "dive", "idle"};
  return names[static_cast<int>(m)];
}

// The calling thread's CPU time (microseconds): what a move cost, without the time the
// scheduler gave other processes.
double thread_cpu_us() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_nsec) * 1e-3;
}

bool finite(float v) { return std::isfinite(v); }
bool finite(const glm::vec3& v) { return finite(v.x) && finite(v.y) && finite(v.z); }

std::string hex(float v) {
  char s[48];
  std::snprintf(s, sizeof s, "%a (%.9g)", static_cast<double>(v), static_cast<double>(v));
  return s;
}
std::string hex(const glm::vec3& v) {
  std::string s = "[";
  for (int i = 0; i < 3; ++i) s.append(i ? ", " : "").append(hex(v[i]));
  return s.append("]");
}
std::string number(double v) {
  char s[32];
  std::snprintf(s, sizeof s, "%.6g", v);
  return s;
}

// One episode's random choices, from a generator of its own: an episode replays alone.
class Dice {
public:
  explicit Dice(std::uint64_t seed) : rng_(seed) {}
  float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng_); }
  bool chance(float p) { return uniform(0.f, 1.f) < p; }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  glm::vec3 direction() {
    for (;;) {
      const glm::vec3 v{uniform(-1.f, 1.f), uniform(-1.f, 1.f), uniform(-1.f, 1.f)}; // braces: drawn in order
      const float l = glm::length(v);
      if (l > 0.05f && l <= 1.f) return v / l;
    }
  }
  glm::vec3 in_box(const gjk::Aabb& b) {
    return {uniform(b.min.x, b.max.x), uniform(b.min.y, b.max.y), uniform(b.min.z, b.max.z)};
  }

private:
  std::mt19937_64 rng_;
};

std::uint64_t mix(std::uint64_t x) { // splitmix64
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The level as the soak sees it: where spots and targets come from.
struct Scene {
  DemoLevel* level;
  std::vector<PieceId> pieces;
  std::vector<bool> moving; // by PieceId::value
  std::vector<PieceId> moving_ids;
  gjk::Aabb area; // where the character may be; beyond it, it is brought back
  bool is_moving(PieceId id) const { return id.value < moving.size() && moving[id.value]; }
  std::string name(const Contact& c) const {
    if (c.target != HitTarget::piece) return "the terrain";
    for (const ObjLevelPiece& p : level->pieces)
      if (p.id == c.piece)
        return "piece " + std::to_string(c.piece.value) + " \"" + p.name + "\"" +
               (is_moving(c.piece) ? " (moving)" : "");
    return "piece " + std::to_string(c.piece.value);
  }
};

// Deepest overlap of the capsule with anything (m, >= 0); moving pieces apart when asked.
struct Depth {
  float any = 0.f;   // with pieces or terrain
  float still = 0.f; // with static pieces and the terrain
  Contact deepest;   // of `any`
};
Depth depth_of(const World& world, const Scene& scene, const gjk::Capsule& capsule) {
  Depth d;
  for (const Contact& c : world.overlap_capsule(capsule, 0.f)) {
    const float depth = std::max(-c.distance, 0.f);
    if (depth > d.any) d.deepest = c;
    d.any = std::max(d.any, depth);
    if (c.target != HitTarget::piece || !scene.is_moving(c.piece)) d.still = std::max(d.still, depth);
  }
  return d;
}

// The default character most of the time, else other shapes and tunings within their limits.
ControllerSettings pick_settings(Dice& dice) {
  ControllerSettings c;
  if (dice.chance(0.6f)) return c;
  c.radius = dice.uniform(0.15f, 0.6f);
  c.skin_width = dice.uniform(0.002f, std::min(0.04f, 0.5f * c.radius));
  c.step_height = dice.chance(0.1f) ? 0.f : dice.uniform(0.05f, 0.5f);
  c.height = std::max(2.f * c.radius, c.radius + c.step_height) + dice.uniform(0.05f, 1.5f);
  c.recovery_speed = dice.uniform(0.5f, 10.f);
  c.max_slope = glm::radians(dice.uniform(20.f, 75.f));
  c.floor_snap_distance = dice.chance(0.1f) ? 0.f : dice.uniform(c.step_height, c.step_height + 0.3f);
  c.max_slide_iterations = dice.integer(1, 8);
  c.toi_method = dice.chance(0.2f) ? ToiMethod::bisection : ToiMethod::conservative_advancement;
  return c;
}

// A game's contact callback that changes the rest of a move: slows it, stops it, or sends it
// back the way it came (all within the move's distance).
class JitterListener : public ContactListener {
public:
  explicit JitterListener(Dice& dice) : dice_(dice) {}
  void on_adjust_velocity(const ControllerHit&, glm::vec3& velocity) override {
    const float pick = dice_.uniform(0.f, 1.f);
    if (pick < 0.3f)
      velocity *= dice_.uniform(0.f, 1.f);
    else if (pick < 0.45f)
      velocity *= -dice_.uniform(0.f, 1.f);
    else if (pick < 0.55f)
      velocity = glm::vec3(0.f);
  }

private:
  Dice& dice_;
};

// Timings of a move over the time limit made again, on copies of the character (count).
constexpr int k_move_retimes = 3;

class Episode {
public:
  Episode(Scene& scene, const SoakSettings& settings, SoakReport& report, std::vector<float>& move_us, long long index,
          int frames)
      : scene_(scene), world_(scene.level->world), s_(settings), report_(report), move_us_(move_us), index_(index),
        frames_(frames), dice_(mix(mix(settings.seed) ^ static_cast<std::uint64_t>(index))),
        controller_(world_, pick_settings(dice_), scene.level->spawn) {}

  void run();

private:
  glm::vec3 surface_spot();
  PieceId any_piece();
  glm::vec3 clear_spot(float lift_max);
  bool clear(const glm::vec3& feet) const;
  void teleport(bool into_geometry);
  void start_recovery(float depth);
  void new_segment();
  void frame(int f);
  void violation(SoakCheck check, int f, const std::string& what);
  Depth depth() const { return depth_of(world_, scene_, controller_.capsule()); }
  float tolerance() const { return controller_.settings().skin_width + s_.penetration_tolerance; }

  Scene& scene_;
  World& world_;
  const SoakSettings& s_;
  SoakReport& report_;
  std::vector<float>& move_us_;
  long long index_;
  int frames_;
  Dice dice_;
  Controller controller_;
  PlayerStep player_;
  JitterListener listener_{dice_};
  bool listener_on_ = false;

  // The episode's kind.
  float fixed_dt_ = 0.f; // 0: a random dt every frame
  bool animated_ = false;
  float clock_ = 0.f;
  // The current segment.
  Mode mode_ = Mode::idle;
  int segment_left_ = 0;
  glm::vec3 velocity_{0.f};
  glm::vec3 target_{0.f};
  float speed_ = 0.f;
  // The recovery from a teleport into geometry.
  bool recovering_ = false;
  bool recovery_reported_ = false;
  int recovery_frames_ = 0;
  float recovery_need_ = 0.f;  // depth + skin (m)
  float recovery_allow_ = 0.f; // the pushes allowed so far: sum of recovery_speed * dt (m)
  int frames_past_bound_ = 0;
  int ideal_frames_ = 0; // when the allowance first covered the need: the fastest recovery
  // The frame, for reports.
  std::string frame_state_;
};

bool Episode::clear(const glm::vec3& feet) const {
  for (const Contact& c : world_.overlap_capsule(controller_.capsule_at(feet), 0.f))
    if (c.distance < 0.f) return false;
  return true;
}

// Any piece; with moving pieces, one of them half the time.
PieceId Episode::any_piece() {
  const std::vector<PieceId>& from = animated_ && dice_.chance(0.5f) ? scene_.moving_ids : scene_.pieces;
  return from[static_cast<std::size_t>(dice_.integer(0, static_cast<int>(from.size()) - 1))];
}

// Feet on the terrain or on top of a piece (under a random point of its box, the first surface
// a ray down meets), a little above it.
glm::vec3 Episode::surface_spot() {
  const Heightfield* terrain = world_.terrain();
  for (;;) {
    if (terrain && dice_.chance(0.35f)) {
      const float x = dice_.uniform(scene_.area.min.x, scene_.area.max.x);
      const float z = dice_.uniform(scene_.area.min.z, scene_.area.max.z);
      return {x, terrain->height_at(x, z), z};
    }
    const PieceId id = any_piece();
    const gjk::Aabb b = world_.bounds(id);
    const glm::vec3 from(dice_.uniform(b.min.x, b.max.x), b.max.y + 0.5f, dice_.uniform(b.min.z, b.max.z));
    const RayHit hit = world_.raycast(from, {0.f, -1.f, 0.f}, b.max.y - b.min.y + 1.f);
    if (hit.hit && hit.normal.y > 0.f) return hit.point;
  }
}

// A spot where the capsule overlaps nothing, up to lift_max above a surface.
glm::vec3 Episode::clear_spot(float lift_max) {
  for (;;) {
    const glm::vec3 feet = surface_spot() + glm::vec3(0.f, 0.011f + dice_.uniform(0.f, lift_max), 0.f);
    if (clear(feet)) return feet;
  }
}

// A teleport to a clear spot, or from one into the geometry nearby (up to 0.35 m in): there is
// then always room within that distance to recover into.
void Episode::teleport(bool into_geometry) {
  glm::vec3 to = clear_spot(dice_.chance(0.3f) ? 12.f : 0.3f);
  if (into_geometry) {
    for (int attempt = 0; attempt < 20; ++attempt) {
      glm::vec3 dir = dice_.direction();
      if (dice_.chance(0.5f)) dir.y = -std::abs(dir.y) - 0.5f; // mostly down into floors
      const glm::vec3 in = to + glm::normalize(dir) * dice_.uniform(0.02f, 0.35f);
      if (depth_of(world_, scene_, controller_.capsule_at(in)).any > tolerance()) {
        to = in;
        break;
      }
    }
  }
  controller_.teleport(to);
  player_.launch(0.f);
  report_.teleports += 1;
  const float d = depth().any;
  if (d > tolerance()) {
    report_.teleports_into_geometry += 1;
    start_recovery(d);
  } else {
    recovering_ = false;
  }
}

// Recovery starts over from `depth` (m): the push back to the skin at recovery_speed.
void Episode::start_recovery(float depth) {
  report_.worst_recovery_depth = std::max(report_.worst_recovery_depth, depth);
  recovering_ = true;
  recovery_reported_ = false;
  recovery_frames_ = 0;
  recovery_need_ = depth + controller_.settings().skin_width;
  recovery_allow_ = 0.f;
  frames_past_bound_ = 0;
  ideal_frames_ = 0;
}

void Episode::new_segment() {
  segment_left_ = dice_.integer(1, 120);
  const float pick = dice_.uniform(0.f, 1.f);
  mode_ = pick < 0.35f   ? Mode::walk
          : pick < 0.55f ? Mode::charge
          : pick < 0.75f ? Mode::fly
          : pick < 0.9f  ? Mode::dive
                         : Mode::idle;
  const float band = dice_.uniform(0.f, 1.f);
  speed_ = band < 0.6f ? dice_.uniform(0.f, 6.f) : band < 0.9f ? dice_.uniform(6.f, 20.f) : dice_.uniform(20.f, 100.f);
  const float heading = dice_.uniform(0.f, glm::two_pi<float>());
  velocity_ = glm::vec3(std::cos(heading), 0.f, std::sin(heading)) * speed_;
  if (mode_ == Mode::fly) velocity_ = dice_.direction() * dice_.uniform(0.f, 100.f);
  if (mode_ == Mode::charge || mode_ == Mode::dive) {
    const bool at_terrain = mode_ == Mode::dive && world_.terrain() && dice_.chance(0.2f);
    target_ = at_terrain ? surface_spot() : dice_.in_box(world_.bounds(any_piece()));
    speed_ = dice_.uniform(1.f, 100.f);
  }
}

void Episode::run() {
  const float dts[] = {1.f / 360.f, 1.f / 240.f, 1.f / 144.f, 1.f / 120.f, 1.f / 60.f, 1.f / 30.f, 1.f / 15.f};
  if (dice_.chance(0.5f)) fixed_dt_ = dts[dice_.integer(0, 6)];
  animated_ = !scene_.level->moving.empty() && dice_.chance(0.25f);
  clock_ = dice_.uniform(0.f, 16.f);
  place_pieces(world_, scene_.level->moving, clock_);
  world_.update();
  if (dice_.chance(0.2f)) {
    controller_.set_listener(&listener_);
    listener_on_ = true;
    report_.listener_episodes += 1;
  }
  teleport(dice_.chance(0.2f));
  for (int f = 0; f < frames_; ++f) frame(f);
  report_.frames += frames_;
  report_.episodes += 1;
}

void Episode::frame(int f) {
  // Events before the move: teleports, resizes, a way back into the level.
  bool teleported = false;
  const glm::vec3 at = controller_.position();
  const bool outside = at.x < scene_.area.min.x || at.x > scene_.area.max.x || at.z < scene_.area.min.z ||
                       at.z > scene_.area.max.z || at.y < scene_.area.min.y || at.y > scene_.area.max.y;
  const float event = dice_.uniform(0.f, 1.f);
  if (outside || event < 0.004f) {
    teleport(!outside && dice_.chance(0.5f));
    teleported = true;
  } else if (event < 0.01f) {
    report_.resizes += 1;
    try {
      const ControllerSettings& cs = controller_.settings();
      const float lowest = std::max(2.f * cs.radius, cs.radius + cs.step_height) + 0.01f;
      if (!controller_.resize(dice_.uniform(lowest, std::max(lowest, 2.6f)))) report_.resizes_refused += 1;
    } catch (const Error& e) {
      violation(SoakCheck::error, f, std::string("resize threw: ") + e.what());
    }
  } else if (event < 0.012f) {
    // A save and a restore of it, as a rollback to the present does: nothing changes.
    report_.restores += 1;
    const glm::vec3 at_save = controller_.position();
    const float height = controller_.settings().height;
    try {
      controller_.restore_state(controller_.save_state());
      player_.restore_state(player_.save_state());
      if (controller_.position() != at_save || controller_.settings().height != height)
        violation(SoakCheck::error, f, "restoring a state just saved moved the character from " + hex(at_save));
    } catch (const Error& e) {
      violation(SoakCheck::error, f, std::string("restoring a state just saved threw: ") + e.what());
    }
  }
  if (segment_left_-- <= 0) new_segment();
  const float dt = fixed_dt_ > 0.f ? fixed_dt_ : dice_.uniform(1.f / 360.f, 1.f / 15.f);
  if (animated_) {
    move_pieces(world_, scene_.level->moving, clock_, dt);
    world_.update(); // the hierarchy follows the pieces here, outside the timed move
    clock_ += dt;
  }

  // The frame's request.
  const glm::vec3 before = controller_.position();
  const GroundState ground_before = controller_.ground().state;
  const float vertical_before = player_.vertical_speed();
  glm::vec3 velocity = velocity_;
  bool jump = false;
  if (mode_ == Mode::walk) {
    const float turn = dice_.uniform(-0.3f, 0.3f);
    velocity = glm::vec3(velocity_.x * std::cos(turn) - velocity_.z * std::sin(turn), 0.f,
                         velocity_.x * std::sin(turn) + velocity_.z * std::cos(turn));
    jump = dice_.chance(0.03f);
  } else if (mode_ == Mode::charge || mode_ == Mode::dive) {
    glm::vec3 to = target_ - before;
    if (mode_ == Mode::charge) to.y = 0.f;
    const float l = glm::length(to);
    velocity = l > 1e-3f ? to * (speed_ / l) : glm::vec3(0.f);
  } else if (mode_ == Mode::fly) {
    if (dice_.chance(0.3f)) velocity_ = dice_.direction() * dice_.uniform(0.f, 100.f);
    velocity = velocity_;
  } else {
    velocity = glm::vec3(0.f);
  }
  const bool direct = mode_ == Mode::fly || mode_ == Mode::dive;
  frame_state_ = std::string("mode ") + mode_name(mode_) + (direct ? " (Controller::move)" : " (PlayerStep::step)") +
                 "\n    dt " + hex(dt) + "\n    velocity " + hex(velocity) + (jump ? ", jump" : "") +
                 "\n    position before " + hex(before) + "\n    height " + hex(controller_.settings().height) +
                 ", vertical speed " + hex(vertical_before) + ", ground state " +
                 std::to_string(static_cast<int>(ground_before)) + (animated_ ? ", pieces moving" : "") +
                 (recovering_ ? ", recovering" : "") + (teleported ? ", teleported before the move" : "");

  // The character as it was before the move, to time the move again if it is over the limit.
  std::optional<Controller> controller_before;
  std::optional<PlayerStep> player_before;
  const Dice dice_before = dice_;
  if (s_.max_move_ms > 0.f) {
    controller_before.emplace(controller_);
    player_before.emplace(player_);
  }
  // The frame's move, of `controller` driven by `player` (or on its own when direct).
  const auto move = [&](Controller& controller, PlayerStep& player) {
    return direct ? controller.move(velocity, dt) : player.step(controller, {.velocity = velocity, .jump = jump}, dt);
  };
  MoveResult r;
  const double cpu0 = thread_cpu_us();
  const auto t0 = Clock::now();
  try {
    r = move(controller_, player_);
  } catch (const Error& e) {
    violation(SoakCheck::error, f, std::string("move threw: ") + e.what());
    return;
  }
  const auto t1 = Clock::now();
  const double cpu_us = thread_cpu_us() - cpu0;
  const float us = std::chrono::duration<float, std::micro>(t1 - t0).count();
  move_us_.push_back(us);
  report_.jumps += !direct && player_.jumped() ? 1 : 0;
  frame_state_ += "\n    position after " + hex(r.position);

  // 5. Time.
  // Over the limit on the wall clock and in the thread's own CPU time: a move the scheduler
  // preempted (the wall clock alone over) is counted apart, as the machine's, not the move's.
  // On a virtual machine the thread's CPU time also runs while the host holds its core, so a
  // move over in both is timed again, on copies of the character from before it: it is over
  // when the fastest of those timings is too.
  double own_us = cpu_us;
  const double limit_us = 1000.0 * s_.max_move_ms;
  const bool over_on_wall_clock = s_.max_move_ms > 0.f && us > limit_us;
  if (over_on_wall_clock && cpu_us > limit_us) {
    const Dice dice_after = dice_; // the listener draws from it
    for (int again = 0; again < k_move_retimes && own_us > limit_us; ++again) {
      Controller controller = *controller_before;
      PlayerStep player = *player_before;
      dice_ = dice_before;
      const double start = thread_cpu_us();
      (void)move(controller, player);
      own_us = std::min(own_us, thread_cpu_us() - start);
    }
    dice_ = dice_after;
  }
  report_.max_move_cpu_ms = std::max(report_.max_move_cpu_ms, own_us / 1000.0);
  if (over_on_wall_clock) {
    if (own_us > limit_us)
      violation(SoakCheck::move_time, f,
                "move took " + number(us / 1000.0) + " ms (" + number(cpu_us / 1000.0) + " ms of CPU; the fastest of " +
                    std::to_string(1 + k_move_retimes) + " timings " + number(own_us / 1000.0) + " ms) > " +
                    number(s_.max_move_ms) + " ms");
    else
      report_.moves_preempted += 1;
  }

  // 1. Finite state.
  bool ok = finite(r.position) && finite(r.displacement) && finite(r.velocity) && finite(r.carried) &&
            finite(r.pushed) && finite(r.yaw_delta) && finite(r.recovered) && finite(r.ground.normal) &&
            finite(r.ground.contact_normal) && finite(r.ground.point) && finite(r.ground.distance) &&
            finite(r.ground.velocity) && finite(controller_.position()) && finite(player_.vertical_speed()) &&
            finite(player_.inherited_velocity());
  for (int i = 0; i < r.hit_count; ++i) {
    const ControllerHit& h = r.hits[static_cast<std::size_t>(i)];
    ok = ok && finite(h.point) && finite(h.normal) && finite(h.fraction);
  }
  const gjk::Capsule capsule = controller_.capsule();
  ok = ok && finite(capsule.segment.a) && finite(capsule.segment.b);
  if (!ok) {
    violation(SoakCheck::finite, f, "a value the controller returned is not finite");
    return; // the geometric checks would only repeat it
  }

  const ControllerSettings& cs = controller_.settings();
  const Depth d = depth();
  // A piece pressing the character against what does not let go overlaps it (docs/controller.md,
  // "Crushed"): then only the static geometry is held to the skin.
  const float pen = r.flags.crushed ? d.still : d.any;

  // 2. No crossing: a thinner capsule swept along the frame's motion meets nothing. The chord
  // first; when it clips a corner the move went around, the path the move took (its slide
  // iterations, joined up then across, or across then down, as steps and snaps go).
  const bool started_clear = !recovering_;
  if (started_clear && glm::length(r.position - before) > 0.f) {
    const float thin = cs.radius - cs.skin_width - s_.crossing_margin;
    QueryFilter filter;
    if (animated_) filter.accept = [this](PieceId id) { return !scene_.is_moving(id); };
    const auto crosses = [&](const glm::vec3& from, const glm::vec3& to) {
      if (to == from) return SweepHit{};
      gjk::Capsule c = controller_.capsule_at(from);
      c.radius = thin;
      return world_.sweep_capsule(c, to - from, filter);
    };
    SweepHit hit = crosses(before, r.position);
    if (hit.hit) {
      report_.crossing_chord_hits += 1;
      std::vector<glm::vec3> path{before};
      std::vector<bool> stepped{false};
      for (const MoveTrace::Iteration& it : controller_.last_trace().iterations) {
        path.push_back(it.start);
        stepped.push_back(false);
        path.push_back(it.start + it.motion * it.fraction);
        stepped.push_back(it.stepped); // from here the move stepped up, across and down
      }
      path.push_back(r.position);
      hit = SweepHit{};
      const glm::vec3 up = cs.up;
      for (std::size_t i = 1; i < path.size() && !hit.hit; ++i) {
        const glm::vec3 a = path[i - 1], b = path[i];
        if (!stepped[i - 1]) {
          hit = crosses(a, b);
          continue;
        }
        // The step's rise: as high as the controller's own sweep up let it go.
        gjk::Capsule c = controller_.capsule_at(a);
        c.radius += cs.skin_width;
        const float rise = cs.step_height * world_.sweep_capsule(c, up * cs.step_height).fraction;
        const glm::vec3 top = a + up * rise;
        const glm::vec3 over = b + up * glm::dot(top - b, up);
        hit = crosses(a, top);
        if (!hit.hit) hit = crosses(top, over);
        if (!hit.hit) hit = crosses(over, b);
      }
    }
    if (hit.hit) {
      for (const MoveTrace::Iteration& it : controller_.last_trace().iterations)
        frame_state_.append("\n    slide from ")
            .append(hex(it.start))
            .append(" along ")
            .append(hex(it.motion))
            .append(" to fraction ")
            .append(number(it.fraction))
            .append(it.stepped ? " (stepped)" : "");
      frame_state_.append("\n    recovered ").append(number(r.recovered)).append(" m");
      violation(SoakCheck::crossing, f,
                "a capsule of radius " + number(thin) + " swept along the move hits " +
                    (hit.target == HitTarget::terrain ? std::string("the terrain")
                                                      : "piece " + std::to_string(hit.piece.value)) +
                    " at fraction " + number(hit.fraction) + ", point " + hex(hit.point));
    }
  }

  // 3. Penetration, and the recovery from a teleport into geometry or from a crush: a piece
  // that pressed the character against static geometry overlaps it (docs/controller.md,
  // "Crushed"), and once the gap opens recovery takes it back to the skin.
  if (r.flags.crushed && d.any > tolerance()) {
    if (!recovering_ || recovery_frames_ > 0) report_.crushes += 1;
    start_recovery(d.any);
    report_.worst_penetration = std::max(report_.worst_penetration, pen);
    report_.worst_beyond_skin = std::max(report_.worst_beyond_skin, pen - cs.skin_width);
    if (pen > tolerance())
      violation(SoakCheck::penetration, f,
                "crushed, and " + number(pen) + " m into static geometry (skin " + number(cs.skin_width) + " + " +
                    number(s_.penetration_tolerance) + " m), deepest in " + scene_.name(d.deepest));
  } else if (recovering_) {
    recovery_frames_ += 1;
    recovery_allow_ += cs.recovery_speed * dt;
    if (recovery_allow_ >= s_.recovery_slack * recovery_need_) frames_past_bound_ += 1;
    if (ideal_frames_ == 0 && recovery_allow_ >= recovery_need_) ideal_frames_ = recovery_frames_;
    if (pen <= tolerance()) {
      recovering_ = false;
      report_.recoveries_finished += 1;
      report_.max_recovery_frames = std::max(report_.max_recovery_frames, recovery_frames_);
      if (ideal_frames_ > 0)
        report_.max_recovery_excess = std::max(report_.max_recovery_excess, recovery_frames_ - ideal_frames_);
    } else if (frames_past_bound_ > s_.recovery_extra_frames && !recovery_reported_) {
      recovery_reported_ = true;
      violation(SoakCheck::recovery, f,
                "still " + number(pen) + " m deep " + std::to_string(recovery_frames_) +
                    " frames after a teleport or crush " + number(recovery_need_ - cs.skin_width) +
                    " m into geometry (bound: " + number(s_.recovery_slack) + " x " + number(recovery_need_) +
                    " m at " + number(cs.recovery_speed) + " m/s + " + std::to_string(s_.recovery_extra_frames) +
                    " frames)");
    }
  } else {
    report_.worst_penetration = std::max(report_.worst_penetration, pen);
    report_.worst_beyond_skin = std::max(report_.worst_beyond_skin, pen - cs.skin_width);
    if (pen > tolerance())
      violation(SoakCheck::penetration, f,
                "penetration " + number(pen) + " m > skin " + number(cs.skin_width) + " + " +
                    number(s_.penetration_tolerance) + " m, deepest in " + scene_.name(d.deepest) +
                    (r.flags.crushed ? " (crushed)" : "") + (r.pushed != glm::vec3(0.f) ? " (pushed)" : "") +
                    (r.carried != glm::vec3(0.f) ? " (carried)" : ""));
  }

  // 4. Feet above the terrain under them.
  if (const Heightfield* terrain = world_.terrain(); terrain && !recovering_) {
    const TerrainSample below = terrain->sample(r.position.x, r.position.z);
    if (below.inside) {
      const float under = below.height - r.position.y;
      report_.worst_below_terrain = std::max(report_.worst_below_terrain, under);
      report_.worst_below_beyond_skin = std::max(report_.worst_below_beyond_skin, under - cs.skin_width);
      if (under > tolerance())
        violation(SoakCheck::terrain, f,
                  "feet " + number(under) + " m below the terrain height " + number(below.height) + " m");
    }
  }
}

void Episode::violation(SoakCheck check, int f, const std::string& what) {
  report_.violations[static_cast<std::size_t>(check)] += 1;
  if (static_cast<int>(report_.reports.size()) >= s_.max_reports) return;
  SoakViolation v;
  v.check = check;
  v.episode = index_;
  v.frame = f;
  v.what = what;
  const ControllerSettings& c = controller_.settings();
  v.state = frame_state_ + "\n    settings: radius " + hex(c.radius) + ", skin_width " + hex(c.skin_width) +
            ", step_height " + hex(c.step_height) + ", recovery_speed " + hex(c.recovery_speed) + ", max_slope " +
            hex(c.max_slope) + ", floor_snap_distance " + hex(c.floor_snap_distance) + ", max_slide_iterations " +
            std::to_string(c.max_slide_iterations) +
            (c.toi_method == ToiMethod::bisection ? ", toi_method bisection" : "") +
            (listener_on_ ? "; a ContactListener changes velocities after contacts" : "");
  report_.reports.push_back(std::move(v));
}

} // namespace

const char* soak_check_name(SoakCheck check) {
  static const char* const names[] = {"finite state",
                                      "no error on valid input",
                                      "no crossing",
                                      "penetration <= skin",
                                      "recovery within its bound",
                                      "feet above terrain",
                                      "move time"};
  return names[static_cast<int>(check)];
}

bool SoakReport::passed() const {
  return std::all_of(violations.begin(), violations.end(), [](long long n) { return n == 0; });
}

SoakReport run_soak(DemoLevel& level, const SoakSettings& settings) {
  if (settings.frames <= 0) throw Error("soak: frames = " + std::to_string(settings.frames) + " must be positive");
  if (settings.episode_frames <= 0)
    throw Error("soak: episode frames = " + std::to_string(settings.episode_frames) + " must be positive");
  if (level.world.piece_count() == 0) throw Error("soak: level " + level.file.string() + " has no pieces");

  Scene scene{&level, level.world.piece_ids(), {}, {}, {}};
  for (const MovingPiece& m : level.moving) {
    if (scene.moving.size() <= m.id.value) scene.moving.resize(m.id.value + 1, false);
    scene.moving[m.id.value] = true;
    scene.moving_ids.push_back(m.id);
  }
  // The area: the pieces' and the terrain's extent, the terrain's border kept at 2 m.
  gjk::Aabb area;
  for (const PieceId id : scene.pieces) area = area.merged(level.world.bounds(id));
  if (const Heightfield* t = level.world.terrain()) {
    const gjk::Aabb b = t->bounds();
    area = area.merged({b.min + glm::vec3(2.f, 0.f, 2.f), b.max - glm::vec3(2.f, 0.f, 2.f)});
  }
  area.min.y -= 20.f;
  area.max.y += 40.f;
  scene.area = area;

  SoakReport report;
  std::vector<float> move_us;
  move_us.reserve(static_cast<std::size_t>(std::min<long long>(settings.frames, 50'000'000)));
  const auto start = Clock::now();
  const long long episodes = (settings.frames + settings.episode_frames - 1) / settings.episode_frames;
  if (settings.only_episode >= episodes)
    throw Error("soak: episode " + std::to_string(settings.only_episode) + " is beyond the run's " +
                std::to_string(episodes) + " episodes (0 to " + std::to_string(episodes - 1) + ")");
  for (long long e = 0; e < episodes; ++e) {
    if (settings.only_episode >= 0 && e != settings.only_episode) continue;
    const int frames =
        static_cast<int>(std::min<long long>(settings.episode_frames, settings.frames - e * settings.episode_frames));
    Episode(scene, settings, report, move_us, e, frames).run();
  }
  report.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (!move_us.empty()) {
    const auto at = [&](double q) {
      const auto k = static_cast<std::ptrdiff_t>(q * static_cast<double>(move_us.size() - 1));
      std::nth_element(move_us.begin(), move_us.begin() + k, move_us.end());
      return static_cast<double>(move_us[static_cast<std::size_t>(k)]);
    };
    report.median_move_us = at(0.5);
    report.p999_move_ms = at(0.999) / 1000.0;
    report.max_move_ms = *std::max_element(move_us.begin(), move_us.end()) / 1000.0;
  }
  return report;
}

} // namespace glide::demo
