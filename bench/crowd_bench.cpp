// A crowd walking a flat level with scattered boxes and pillars: 1,000 and 10,000 characters,
// each heading for its own random goals, moved once a frame (60 Hz) on 1 or 2 threads through
// JobThreads. Collision on: a CharacterSet (characters block each other). Collision off: the
// same characters as plain Controllers moved over the same job hook, meeting only the world.
// Collision 2 (1 thread): a CharacterSet whose characters pass through each other, its own
// passes without the capsules met.
// Each benchmark iteration is one frame after a warm-up; only the update is timed (manual
// time), steering and gravity are outside. Counters: us per frame, us per character-update.
// `crowd` runs the frames back to back; `crowd_paced` starts one every 1/60 s, as a game does,
// so the threads sleep between them; `crowd_paced_spinning` keeps the 2 threads' worker
// spinning from one frame to the next; `crowd_saving` saves the set before every update, as a
// rollback game does (the snapshot drops the query caches); `crowd_side_by_side` moves two
// crowds in turn, a frame each, for a ratio whose two sides meet the host in the same phase.
#include <glide/controller/character_set.hpp>
#include <glide/controller/controller.hpp>
#include <glide/controller/job_threads.hpp>
#include <glide/gjk/convex_hull.hpp>
#include <glide/world/world.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <random>
#include <thread>
#include <vector>

namespace {

constexpr float k_dt = 1.f / 60.f;
constexpr float k_gravity = 9.81f;    // (m/s^2)
constexpr float k_floor_half = 150.f; // the floor is 300 m x 300 m (m)
constexpr int k_obstacles = 600;      // boxes and pillars on the floor (count)
constexpr float k_spacing = 2.f;      // between spawn spots on the grid (m)
constexpr float k_route = 15.f;       // goals lie within this of a character's spawn (m)
constexpr float k_speed = 2.5f;       // walking speed (m/s)
constexpr float k_goal_reached = 1.f; // horizontal distance at which a goal counts as reached (m)
constexpr int k_warm_up_frames = 30;  // frames moved before timing (count)

glide::World make_level() {
  glide::World world;
  world.add_piece(glide::gjk::ConvexHull::box({k_floor_half, 1.f, k_floor_half}),
                  glide::gjk::Transform{{1, 0, 0, 0}, {0, -1.f, 0}});
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> pos(-k_floor_half + 5.f, k_floor_half - 5.f), size(0.3f, 2.f), tall(0.5f, 3.f),
      angle(0.f, 6.2831853f);
  for (int i = 0; i < k_obstacles; ++i) {
    // One draw per statement: the order of a call's arguments is up to the compiler.
    const bool pillar = i % 3 == 0;
    const float height = pillar ? 4.f : tall(rng);
    const float hx = pillar ? 0.4f : size(rng);
    const float hz = pillar ? 0.4f : size(rng);
    const float turn_angle = angle(rng);
    const float x = pos(rng);
    const float z = pos(rng);
    const glm::quat turn = glm::angleAxis(turn_angle, glm::vec3(0, 1, 0));
    world.add_piece(glide::gjk::ConvexHull::box({hx, 0.5f * height, hz}),
                    glide::gjk::Transform{turn, {x, 0.5f * height, z}});
  }
  world.update();
  return world;
}

// Grid spots, centre outwards row by row, whose capsule meets no box.
std::vector<glm::vec3> spawn_spots(const glide::World& world, const glide::ControllerSettings& settings,
                                   std::size_t count) {
  std::vector<glm::vec3> spots;
  const int side = static_cast<int>(2.f * (k_floor_half - k_route) / k_spacing);
  const float lift = 2.f * settings.skin_width;
  for (int row = 0; row < side && spots.size() < count; ++row)
    for (int col = 0; col < side && spots.size() < count; ++col) {
      const glm::vec3 feet(-k_floor_half + k_route + float(col) * k_spacing, lift,
                           -k_floor_half + k_route + float(row) * k_spacing);
      const glide::gjk::Capsule capsule{
          {feet + settings.up * settings.radius, feet + settings.up * (settings.height - settings.radius)},
          settings.radius};
      if (world.overlap_capsule(capsule, settings.skin_width).empty()) spots.push_back(feet);
    }
  return spots;
}

// Every character's goal and fall speed, and the velocities they ask for this frame.
struct Steering {
  std::vector<glm::vec3> home, goal, velocity;
  std::vector<float> fall;
  std::mt19937 rng{99};
  std::uniform_real_distribution<float> unit{-1.f, 1.f};

  explicit Steering(const std::vector<glm::vec3>& spots)
      : home(spots), goal(spots.size()), velocity(spots.size()), fall(spots.size(), 0.f) {
    for (std::size_t i = 0; i < spots.size(); ++i) goal[i] = new_goal(i);
  }
  glm::vec3 new_goal(std::size_t i) {
    const float x = unit(rng);
    const float z = unit(rng);
    return home[i] + k_route * glm::vec3(x, 0.f, z);
  }
  void steer(std::size_t i, const glide::Controller& c) {
    glm::vec3 to = goal[i] - c.position();
    to.y = 0.f;
    float distance = glm::length(to);
    if (distance < k_goal_reached) {
      goal[i] = new_goal(i);
      to = goal[i] - c.position();
      to.y = 0.f;
      distance = glm::length(to);
    }
    fall[i] = c.ground().state == glide::GroundState::on_ground ? 0.f : fall[i] - k_gravity * k_dt;
    const glm::vec3 walk = distance > 1e-3f ? to * (k_speed / distance) : glm::vec3(0.f);
    velocity[i] = walk + glm::vec3(0.f, fall[i], 0.f);
  }
};

// One crowd of the benchmark on its own level, moved a frame at a time over a job hook given to
// it. Collision 1: a CharacterSet; 0: the same characters as plain Controllers, meeting only the
// world; 2: a CharacterSet whose characters are on no layer, so they pass through each other
// (the set's own passes without the capsules met).
class Crowd {
public:
  Crowd(std::size_t count, int collision, glide::ParallelFor hook)
      : count_(count), collision_(collision), world_(make_level()), spots_(spawn_spots(world_, settings_, count)),
        steering_(spots_), hook_(std::move(hook)), set_(world_) {
    if (spots_.size() < count_) return;
    const glide::CharacterInfo info{.layers = collision == 2 ? 0u : 1u};
    for (const glm::vec3& spot : spots_) {
      if (collision != 0)
        set_.add(settings_, spot, info);
      else
        alone_.push_back(std::make_unique<glide::Controller>(world_, settings_, spot));
    }
  }
  Crowd(const Crowd&) = delete; // the set keeps the address of the level
  Crowd& operator=(const Crowd&) = delete;

  /// Whether the level had room for every character; if not, `state` is skipped with an error.
  bool ready(benchmark::State& state) const {
    if (spots_.size() >= count_) return true;
    state.SkipWithError("not enough room for the crowd");
    return false;
  }
  glide::CharacterSet& set() { return set_; }
  /// From now on, one character a frame is teleported back to its spawn spot (untimed), in id
  /// order, as a game respawns them: the set then looks for its ground among the others.
  void respawn_one_a_frame() { respawning_ = true; }
  /// Steers every character, saves the set first when `saving` (untimed), and moves the crowd
  /// once; returns the update's wall time (s).
  double frame(bool saving = false) {
    if (respawning_) {
      const auto id = static_cast<std::uint32_t>(frames_++ % count_);
      set_.teleport(glide::CharacterId{id}, spots_[id]);
    }
    for (std::size_t i = 0; i < count_; ++i) steering_.steer(i, controller(i));
    if (saving) set_.save_state(snapshot_);
    const auto start = std::chrono::steady_clock::now();
    if (collision_ != 0) {
      set_.update(steering_.velocity, k_dt, hook_);
    } else {
      hook_(count_, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) alone_[i]->move(steering_.velocity[i], k_dt);
      });
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  /// First moves the last update made again (none without collision).
  std::size_t last_conflicts() const { return collision_ != 0 ? set_.last_conflicts() : 0; }

private:
  const glide::Controller& controller(std::size_t i) const {
    return collision_ != 0 ? set_.controller(glide::CharacterId{static_cast<std::uint32_t>(i)}) : *alone_[i];
  }

  std::size_t count_;
  int collision_;
  glide::ControllerSettings settings_;
  glide::World world_;
  std::vector<glm::vec3> spots_;
  Steering steering_;
  glide::ParallelFor hook_;
  glide::CharacterSet set_;
  std::vector<std::unique_ptr<glide::Controller>> alone_;
  std::vector<std::byte> snapshot_;
  bool respawning_ = false;
  std::size_t frames_ = 0; // moved while respawning
};

// Args: characters, threads, collision (as Crowd's).
// `paced`: each frame starts 1/60 s after the last one began, as in a game, so the threads
// sleep between frames unless they spin for `spin_microseconds`; else back to back.
// `saving`: a snapshot of the set (untimed) before every update, as a rollback game takes.
void crowd_frames(benchmark::State& state, bool paced, int spin_microseconds, bool saving = false) {
  const auto count = static_cast<std::size_t>(state.range(0));
  glide::JobThreads pool(static_cast<unsigned>(state.range(1)), spin_microseconds);
  Crowd crowd(count, static_cast<int>(state.range(2)), pool.hook());
  if (!crowd.ready(state)) return;
  auto next_frame = std::chrono::steady_clock::now();
  const auto frame = [&] {
    if (paced) {
      std::this_thread::sleep_until(next_frame);
      next_frame = std::chrono::steady_clock::now() + std::chrono::microseconds(16667);
    }
    return crowd.frame(saving);
  };
  for (int f = 0; f < k_warm_up_frames; ++f) frame();
  double seconds = 0.0;
  std::size_t conflicts = 0;
  for (auto _ : state) {
    const double s = frame();
    state.SetIterationTime(s);
    seconds += s;
    conflicts += crowd.last_conflicts();
  }
  const double frames = static_cast<double>(state.iterations());
  state.counters["us_per_frame"] = 1e6 * seconds / frames;
  state.counters["us_per_update"] = 1e6 * seconds / (frames * static_cast<double>(count));
  state.counters["conflicts_per_frame"] = static_cast<double>(conflicts) / frames;
}

// Two crowds of the same characters moved in turn, a frame of one then a frame of the other, so
// both meet the host in the same phase: their ratio holds where figures taken a minute apart move
// by a quarter. Args: characters, threads, then the second crowd: 0 collision off or 2 passing
// through (Crowd's collision), both on one pool of `threads` beside a first crowd with collision
// on; or the same crowd on 2 threads where the first has 1: 1 with collision on, 3 plain
// controllers (how far the machine lets any work scale); or 4, the same crowd as the first
// respawning one character a frame. Counters: each crowd's us per frame (first, second) and
// first / second.
void crowd_side_by_side(benchmark::State& state) {
  const auto count = static_cast<std::size_t>(state.range(0));
  const auto threads = static_cast<unsigned>(state.range(1));
  const int second_kind = static_cast<int>(state.range(2));
  const bool threads_differ = second_kind == 1 || second_kind == 3;
  const int first_collision = second_kind == 3 ? 0 : 1;
  const int second_collision = second_kind == 3 ? 0 : second_kind == 4 ? 1 : second_kind;
  glide::JobThreads first_pool(threads_differ ? 1 : threads);
  // Unused unless the threads differ; its worker then spins through the first crowd's frame
  // (20 ms), so that each of its own frames finds it awake, as back to back.
  glide::JobThreads second_pool(threads_differ ? 2 : 1, 20000);
  Crowd first(count, first_collision, first_pool.hook());
  Crowd second(count, second_collision, threads_differ ? second_pool.hook() : first_pool.hook());
  if (!first.ready(state) || !second.ready(state)) return;
  if (second_kind == 4) second.respawn_one_a_frame();
  for (int f = 0; f < k_warm_up_frames; ++f) {
    first.frame();
    second.frame();
  }
  double first_seconds = 0.0, second_seconds = 0.0;
  for (auto _ : state) {
    const double a = first.frame(), b = second.frame();
    state.SetIterationTime(a + b);
    first_seconds += a;
    second_seconds += b;
  }
  const double frames = static_cast<double>(state.iterations());
  state.counters["first_us_per_frame"] = 1e6 * first_seconds / frames;
  state.counters["second_us_per_frame"] = 1e6 * second_seconds / frames;
  state.counters["first_over_second"] = first_seconds / second_seconds;
}

void crowd(benchmark::State& state) { crowd_frames(state, false, glide::JobThreads::k_default_spin_microseconds); }
void crowd_paced(benchmark::State& state) { crowd_frames(state, true, glide::JobThreads::k_default_spin_microseconds); }
// Paced, with the workers spinning through the frame (20 ms).
void crowd_paced_spinning(benchmark::State& state) { crowd_frames(state, true, 20000); }
// Back to back, the set saved before every update: what the caches a snapshot drops cost.
void crowd_saving(benchmark::State& state) {
  crowd_frames(state, false, glide::JobThreads::k_default_spin_microseconds, true);
}

// What every crowd row shares: its arguments' names, 120 timed frames, manual time.
void crowd_rows(benchmark::internal::Benchmark* b) {
  b->ArgNames({"characters", "threads", "collision"})->Iterations(120)->UseManualTime()->Unit(benchmark::kMillisecond);
}

void crowd_args(benchmark::internal::Benchmark* b) {
  for (const int count : {1000, 10000})
    for (const int threads : {1, 2})
      for (const int collide : {1, 0}) b->Args({count, threads, collide});
}

// The set's passes alone (collision 2), beside the rows above: 1 thread.
void crowd_pass_through_args(benchmark::internal::Benchmark* b) {
  for (const int count : {1000, 10000}) b->Args({count, 1, 2});
}

// Args: characters, 0 save / 1 restore. A whole set's snapshot after 30 walked frames: what a
// rollback costs (save every frame into a buffer reused from the last save, restore on a
// misprediction).
void crowd_snapshot(benchmark::State& state) {
  const auto count = static_cast<std::size_t>(state.range(0));
  const bool restore = state.range(1) != 0;
  Crowd crowd(count, 1, {}); // updated on the calling thread
  if (!crowd.ready(state)) return;
  for (int f = 0; f < k_warm_up_frames; ++f) crowd.frame();
  glide::CharacterSet& set = crowd.set();
  const std::vector<std::byte> saved = set.save_state();
  std::vector<std::byte> bytes; // reused, as a game saving every frame would
  for (auto _ : state) {
    if (restore) {
      set.restore_state(saved);
    } else {
      set.save_state(bytes);
      benchmark::DoNotOptimize(bytes.data());
    }
  }
  state.counters["bytes"] = static_cast<double>(saved.size());
  state.counters["ns_per_character"] = benchmark::Counter(
      static_cast<double>(count), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// The cost of one JobThreads call on its own: `count` items whose body does almost nothing,
// calls back to back as an update's passes make them. Args: count, threads.
void job_threads_call(benchmark::State& state) {
  const auto count = static_cast<std::size_t>(state.range(0));
  glide::JobThreads pool(static_cast<unsigned>(state.range(1)));
  std::vector<std::size_t> items(count, 0);
  for (auto _ : state) {
    pool.parallel_for(count, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) ++items[i];
    });
    benchmark::DoNotOptimize(items.data());
  }
}

// One JobThreads call over 1,000 items of about 16 ns each (a chain of square roots), calls back
// to back: what a short pass of a small crowd gets from a second thread. Args: threads.
void job_threads_work(benchmark::State& state) {
  constexpr std::size_t count = 1000;
  glide::JobThreads pool(static_cast<unsigned>(state.range(0)));
  std::vector<float> items(count, 1.f);
  for (auto _ : state) {
    pool.parallel_for(count, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) {
        float x = items[i];
        for (int k = 0; k < 12; ++k) x = std::sqrt(x * 1.0001f + 1.f);
        items[i] = x;
      }
    });
    benchmark::DoNotOptimize(items.data());
  }
}

} // namespace

BENCHMARK(job_threads_call)
    ->ArgNames({"items", "threads"})
    ->ArgsProduct({{50, 1000, 10000}, {1, 2, 8}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();
BENCHMARK(job_threads_work)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(crowd_snapshot)
    ->ArgNames({"characters", "restore"})
    ->ArgsProduct({{1000, 10000}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(crowd)->Apply(crowd_rows)->Apply(crowd_args)->Apply(crowd_pass_through_args);
BENCHMARK(crowd_paced)->Apply(crowd_rows)->Apply(crowd_args);
BENCHMARK(crowd_paced_spinning)->Apply(crowd_rows)->ArgsProduct({{1000, 10000}, {2}, {1, 0}});
BENCHMARK(crowd_saving)->Apply(crowd_rows)->ArgsProduct({{1000, 10000}, {1}, {1}});
BENCHMARK(crowd_side_by_side)
    ->ArgNames({"characters", "threads", "second"})
    ->ArgsProduct({{250, 500, 1000, 2000, 10000}, {1}, {0}})
    ->ArgsProduct({{1000, 10000}, {2}, {0}})
    ->ArgsProduct({{1000, 10000}, {1}, {2, 1, 3, 4}})
    ->Iterations(240)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
