// World queries: sweep_capsule of 1 m on random levels of 1k, 10k and 100k pieces at the same
// density and on a 1025 x 1025 terrain; the broadphase alone; the hierarchy's rebuild (World::update
// after an edit); pieces moving every frame (move_piece, the refit) and the sweeps after
// such motion; the narrowphase on baked world-space vertices against Transformed<ConvexHull>.
// Public API only. Peer: Bullet's btCollisionWorld::convexSweepTest
// (btDbvtBroadphase, btConvexHullShape pieces, btCapsuleShape) on the same levels and queries.
#include <glide/gjk/shapes.hpp>
#include <glide/gjk/toi.hpp>
#include <glide/world/world.hpp>

#include <benchmark/benchmark.h>
#include <glm/gtc/quaternion.hpp>

#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <vector>

#ifdef GLIDE_BENCH_HAVE_BULLET
#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/CollisionDispatch/btCollisionConfiguration.h>
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>
#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletCollision/CollisionDispatch/btDefaultCollisionConfiguration.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#endif

namespace {

using namespace glide;

constexpr std::size_t k_stream = 4096;     // distinct queries per benchmark
constexpr float k_volume_per_piece = 64.f; // m^3: the same density at every level size
constexpr float k_radius = 0.4f;           // character capsule: radius 0.4 m, height 1.8 m
constexpr float k_segment = 1.f;
// Sweeps start this far inside the level's faces, beyond the reach of capsule (1.4 m), motion
// (1 m) and the largest piece (1.8 m): every sweep sees the same density of pieces around it.
// Without it, sweeps near the faces meet fewer pieces, and more of them do on small levels
// (1k: 39 % of the cube lies within 3 m of a face, 100k: 9 %), so 1k sweeps were cheaper for a
// reason that has nothing to do with the broadphase (12 % fewer candidates than at 100k).
constexpr float k_query_margin = 5.f; // m
// The side of the cube the local stream is confined to: about 420 pieces at this density,
// whose part of the tree stays in cache at every level size.
constexpr float k_local_span = 30.f; // m

struct Query {
  gjk::Capsule capsule;
  glm::vec3 motion;
};

struct Level {
  World world;
  std::vector<std::vector<glm::vec3>> local_points; // per piece, for the peers
  std::vector<gjk::Transform> transforms;
  std::vector<Query> queries;
  std::vector<Query> path;  // consecutive 1 m sweeps along one wandering path
  std::vector<Query> local; // the random sweeps moved into one k_local_span cube at the centre
};

gjk::Capsule upright(const glm::vec3& base) { return {{base, base + glm::vec3(0, k_segment, 0)}, k_radius}; }

// Random pieces (rotated boxes and 4 to 12 point clouds of 0.3 to 2 m) in a cube holding
// one piece per 64 m^3 (plus `extra` more, for the moving ones), and 1 m sweeps of an upright
// capsule in random directions, starting k_query_margin inside the cube.
std::unique_ptr<Level> make_level(int n, int extra = 0, bool extra_kinematic = false) {
  auto slot = std::make_unique<Level>();
  const float side = std::cbrt(static_cast<float>(n) * k_volume_per_piece);
  std::mt19937 rng(static_cast<std::uint32_t>(n));
  std::uniform_real_distribution<float> pos(-0.5f * side, 0.5f * side), size(0.15f, 1.f), unit(-1.f, 1.f);
  std::normal_distribution<float> gauss;
  for (int i = 0; i < n + extra; ++i) {
    std::vector<glm::vec3> points;
    gjk::ConvexHull hull;
    if (i % 3 == 0) {
      const float s = size(rng);
      const int count = 4 + static_cast<int>(rng() % 9);
      for (int k = 0; k < count; ++k) points.push_back(s * glm::vec3{unit(rng), unit(rng), unit(rng)});
      hull = gjk::ConvexHull(points);
    } else {
      hull = gjk::ConvexHull::box({size(rng), size(rng), size(rng)});
      points.assign(hull.vertices().begin(), hull.vertices().end());
    }
    gjk::Transform t;
    t.rotation = glm::normalize(glm::quat(gauss(rng), gauss(rng), gauss(rng), gauss(rng)));
    t.translation = {pos(rng), pos(rng), pos(rng)};
    slot->world.add_piece(std::move(hull), t, PieceInfo{.kinematic = extra_kinematic && i >= n});
    slot->local_points.push_back(points);
    slot->transforms.push_back(t);
  }
  slot->world.update();
  std::uniform_real_distribution<float> start(-0.5f * side + k_query_margin, 0.5f * side - k_query_margin);
  for (std::size_t i = 0; i < k_stream; ++i) {
    const glm::vec3 dir = glm::normalize(glm::vec3{gauss(rng), gauss(rng), gauss(rng)});
    slot->queries.push_back({upright({start(rng), start(rng), start(rng)}), dir});
  }
  for (const Query& q : slot->queries) {
    const glm::vec3 base = q.capsule.segment.a;
    slot->local.push_back({upright(glm::mod(base, glm::vec3(k_local_span)) - 0.5f * k_local_span), q.motion});
  }
  // A character's stream: each sweep starts where the previous one ended, turning a little
  // each time and turning back at the same faces as the random stream.
  const float reach = 0.5f * side - k_query_margin;
  glm::vec3 at{start(rng), start(rng), start(rng)};
  glm::vec3 dir = glm::normalize(glm::vec3{gauss(rng), gauss(rng), gauss(rng)});
  for (std::size_t i = 0; i < k_stream; ++i) {
    dir = glm::normalize(dir + 0.3f * glm::vec3{gauss(rng), gauss(rng), gauss(rng)});
    for (int a = 0; a < 3; ++a)
      if (std::abs(at[a] + dir[a]) > reach) dir[a] = -dir[a];
    slot->path.push_back({upright(at), dir});
    at += dir;
  }
  return slot;
}

Level& level(int n) {
  static std::map<int, std::unique_ptr<Level>> cache;
  auto& slot = cache[n];
  if (!slot) slot = make_level(n);
  return *slot;
}

// Sweeps the stream of queries round-robin; reports the hit rate so peers can be compared.
template <class Queries>
void sweep_stream(benchmark::State& state, const World& world, const Queries& queries, ToiMethod method) {
  const SweepSettings settings{.method = method};
  std::size_t i = 0, hits = 0;
  for (auto _ : state) {
    const Query& q = queries[i];
    const SweepHit hit = world.sweep_capsule(q.capsule, q.motion, {}, settings);
    benchmark::DoNotOptimize(hit);
    hits += hit.hit;
    i = (i + 1) % k_stream;
  }
  state.counters["hit_rate"] = static_cast<double>(hits) / static_cast<double>(state.iterations());
}

void sweep_glide(benchmark::State& state) {
  const Level& l = level(static_cast<int>(state.range(0)));
  sweep_stream(state, l.world, l.queries, static_cast<ToiMethod>(state.range(1)));
}

// The same sweeps in the order a moving character makes them: on large levels the data of
// one sweep is mostly still in cache for the next, where the random stream fetches most of it
// from memory.
void sweep_path(benchmark::State& state) {
  const Level& l = level(static_cast<int>(state.range(0)));
  sweep_stream(state, l.world, l.path, ToiMethod::conservative_advancement);
}

// The random sweeps moved into one k_local_span cube at the level's centre: their data stays
// in cache at every level size, so what the 100k row costs over the 1k row here is the work of
// the deeper tree, and the rest of sweep_glide's growth is memory.
void sweep_local(benchmark::State& state) {
  const Level& l = level(static_cast<int>(state.range(0)));
  sweep_stream(state, l.world, l.local, ToiMethod::conservative_advancement);
}

// Rays of the given length (m) from the random stream's starts in its directions: short ones
// start from grid cells like the sweeps, long ones walk down from the root.
void raycast_glide(benchmark::State& state) {
  const Level& l = level(static_cast<int>(state.range(0)));
  const auto length = static_cast<float>(state.range(1));
  std::size_t i = 0, hits = 0;
  for (auto _ : state) {
    const Query& q = l.queries[i];
    const RayHit hit = l.world.raycast(q.capsule.segment.a, q.motion, length);
    benchmark::DoNotOptimize(hit);
    hits += hit.hit;
    i = (i + 1) % k_stream;
  }
  state.counters["hit_rate"] = static_cast<double>(hits) / static_cast<double>(state.iterations());
}

// The broadphase alone (World::pieces_along): the sweeps' boxes through the BVH without
// pruning, listing the pieces whose boxes the moving box reaches (the narrowphase candidates
// of a sweep that hits nothing). Shows how much of sweep_glide's growth with n is the tree
// walk itself.
void broadphase_stream(benchmark::State& state, const World& world, const std::vector<Query>& queries) {
  std::size_t i = 0, candidates = 0;
  std::vector<PieceId> reached;
  for (auto _ : state) {
    const Query& q = queries[i];
    reached.clear();
    world.pieces_along(gjk::capsule_bounds(q.capsule), q.motion, reached);
    benchmark::DoNotOptimize(reached.data());
    candidates += reached.size();
    i = (i + 1) % k_stream;
  }
  state.counters["candidates"] = static_cast<double>(candidates) / static_cast<double>(state.iterations());
}

void sweep_broadphase(benchmark::State& state) {
  const Level& l = level(static_cast<int>(state.range(0)));
  broadphase_stream(state, l.world, l.queries);
}

// The broadphase of sweep_local.
void sweep_broadphase_local(benchmark::State& state) {
  const Level& l = level(static_cast<int>(state.range(0)));
  broadphase_stream(state, l.world, l.local);
}

// The same sweeps through brute force over every piece: the broadphase's gain.
void sweep_brute_force(benchmark::State& state) {
  const Level& l = level(static_cast<int>(state.range(0)));
  const std::vector<PieceId> ids = l.world.piece_ids();
  const gjk::ToiSettings toi;
  std::size_t i = 0;
  for (auto _ : state) {
    const Query& q = l.queries[i];
    float best = 2.f;
    for (PieceId id : ids) {
      const gjk::PointCloud cloud(l.world.world_vertices(id));
      const gjk::ToiResult r =
          gjk::toi_conservative_advancement(q.capsule.segment, q.capsule.radius, q.motion, cloud, toi);
      if (r.hit && r.t < best) best = r.t;
    }
    benchmark::DoNotOptimize(static_cast<double>(best));
    i = (i + 1) % k_stream;
  }
}

// A rebuild of the hierarchy: a piece added and removed again (edits that change the set of
// pieces, so the hierarchy must be rebuilt; a moved piece would only refit it), then
// World::update(), which gathers the pieces' boxes, layers and world vertices and builds the
// tree over them.
void world_update(benchmark::State& state) {
  Level& l = level(static_cast<int>(state.range(0)));
  const PieceId first = l.world.piece_ids().front();
  for (auto _ : state) {
    l.world.remove_piece(l.world.add_piece(l.world.hull(first), l.world.transform(first)));
    l.world.update();
  }
  // The size of the tree the queries walk decides whether it stays in cache (its leaves are
  // the pieces, one each).
  const WorldStats stats = l.world.stats();
  state.counters["wide_nodes"] = static_cast<double>(stats.nodes);
  state.counters["depth"] = static_cast<double>(stats.depth);
}

// World::shift_origin by 1 km and back, and the update that rebuilds the hierarchy after it:
// what keeping a large world's origin near the player costs each time it moves.
void shift_origin(benchmark::State& state) {
  Level& l = level(static_cast<int>(state.range(0)));
  bool away = false;
  for (auto _ : state) {
    away = !away;
    l.world.shift_origin(away ? glm::dvec3(1000.0, 0.0, -1000.0) : glm::dvec3(0.0));
    l.world.update();
  }
  if (away) l.world.shift_origin(glm::dvec3(0.0));
}

// ---- moving pieces --------------------------------------------------------------------

constexpr int k_static_pieces = 100000;
constexpr int k_moving_pieces = 1000;
constexpr int k_motion_frames = 10000; // frames of motion before sweep_after_motion's sweeps

// A level of k_static_pieces with k_moving_pieces more, the moving ones, and their motion: each
// frame each takes a random step of up to `step` per axis (m) and turns by up to 2 * step rad
// about a random axis, as a platform, lift or door does (a random walk, so they wander).
struct MovingLevel {
  std::unique_ptr<Level> level;
  std::vector<PieceId> moving;
  std::vector<gjk::Transform> poses;
  std::mt19937 rng{5};
  float step;

  // `kinematic`: the moving pieces are declared so (PieceInfo::kinematic) when added.
  MovingLevel(float step_m, bool kinematic)
      : level(make_level(k_static_pieces, k_moving_pieces, kinematic)), step(step_m) {
    const std::vector<PieceId> ids = level->world.piece_ids();
    moving.assign(ids.end() - k_moving_pieces, ids.end());
    for (PieceId id : moving) poses.push_back(level->world.transform(id));
  }
  // The poses of the next frame (outside the timing: the game's work, not the world's).
  void next_poses() {
    std::uniform_real_distribution<float> unit(-1.f, 1.f);
    for (gjk::Transform& t : poses) {
      t.translation += step * glm::vec3{unit(rng), unit(rng), unit(rng)};
      const glm::vec3 axis{unit(rng), unit(rng), unit(rng)};
      if (glm::length(axis) > 1e-3f)
        t.rotation = glm::normalize(glm::angleAxis(2.f * step * unit(rng), glm::normalize(axis)) * t.rotation);
    }
  }
  // The world's part of a frame: every moving piece moved, then the hierarchy brought up to
  // date; returns when the moves ended.
  std::chrono::steady_clock::time_point move() {
    for (std::size_t i = 0; i < moving.size(); ++i) level->world.move_piece(moving[i], poses[i], 1.f / 60.f);
    const auto moved = std::chrono::steady_clock::now();
    level->world.update();
    return moved;
  }
};

MovingLevel& moving_level(float step, bool kinematic) {
  static std::map<std::pair<float, bool>, std::unique_ptr<MovingLevel>> cache;
  auto& slot = cache[{step, kinematic}];
  if (!slot) slot = std::make_unique<MovingLevel>(step, kinematic);
  return *slot;
}

// A frame of a game with moving platforms: move_piece for k_moving_pieces among
// k_static_pieces, World::update() (a refit), and one capsule sweep. The time reported is the
// world's part (move_piece and update), measured by hand; the sweep runs untimed, so its
// lazy update would show if update() had left anything to do.
void moving_pieces(benchmark::State& state) {
  MovingLevel& m = moving_level(static_cast<float>(state.range(0)) * 1e-3f, state.range(1) == 1);
  const WorldStats before = m.level->world.stats();
  std::size_t i = 0;
  double updating = 0.0; // of which World::update (s)
  for (auto _ : state) {
    m.next_poses();
    const auto start = std::chrono::steady_clock::now();
    const auto moved = m.move();
    const auto end = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
    updating += std::chrono::duration<double>(end - moved).count();
    const Query& q = m.level->queries[i];
    benchmark::DoNotOptimize(m.level->world.sweep_capsule(q.capsule, q.motion));
    i = (i + 1) % k_stream;
  }
  const WorldStats after = m.level->world.stats();
  state.counters["rebuilds"] = static_cast<double>(after.rebuilds - before.rebuilds);
  state.counters["refits"] = static_cast<double>(after.refits - before.refits);
  state.counters["area_ratio"] = after.refit_area_ratio;
  state.counters["reach_growth"] = after.refit_reach_growth;
  state.counters["update_us"] = 1e6 * updating / static_cast<double>(state.iterations());
}

// The same pieces at the same poses, added to a new world: a fresh build; with `as_static`
// every piece goes to the static hierarchy, as in a world where nothing ever moved.
World fresh_copy(const World& world, bool as_static) {
  World copy;
  for (PieceId id : world.piece_ids()) {
    PieceInfo info = world.info(id);
    info.kinematic = info.kinematic && !as_static;
    copy.add_piece(world.hull(id), world.transform(id), info);
  }
  copy.update();
  return copy;
}

// sweep_glide's sweeps after k_motion_frames frames of motion (refitted: 1), in a fresh
// build of the same final poses (refitted: 0), and in a fresh build with every piece static
// (refitted: 2, one hierarchy as if nothing moved): what refits, and the moving pieces' own
// hierarchy, cost the queries.
void sweep_after_motion(benchmark::State& state) {
  const float step = static_cast<float>(state.range(0)) * 1e-3f;
  struct Moved {
    std::unique_ptr<MovingLevel> level;
    World fresh, fresh_static;
    std::uint64_t rebuilds;
  };
  static std::map<float, std::unique_ptr<Moved>> cache;
  auto& slot = cache[step];
  if (!slot) {
    // Its own level: moving_pieces' frames must not add to these.
    auto m = std::make_unique<MovingLevel>(step, true);
    for (int frame = 0; frame < k_motion_frames; ++frame) {
      m->next_poses();
      m->move();
    }
    const std::uint64_t rebuilds = m->level->world.stats().rebuilds - 1; // after the first build
    World fresh = fresh_copy(m->level->world, false);
    World fresh_static = fresh_copy(m->level->world, true);
    slot = std::make_unique<Moved>(Moved{std::move(m), std::move(fresh), std::move(fresh_static), rebuilds});
  }
  const World& world = state.range(1) == 1   ? slot->level->level->world
                       : state.range(1) == 0 ? slot->fresh
                                             : slot->fresh_static;
  sweep_stream(state, world, slot->level->level->queries, ToiMethod::conservative_advancement);
  state.counters["rebuilds"] = static_cast<double>(slot->rebuilds);
  state.counters["area_ratio"] = world.stats().refit_area_ratio;
  state.counters["reach_growth"] = world.stats().refit_reach_growth;
}

// Narrowphase representation: one piece swept against, as baked world-space vertices or as
// its local hull behind a Transformed (two quaternion rotations per support call).
void toi_representation(benchmark::State& state) {
  const Level& l = level(1000);
  const bool baked = state.range(0) == 1;
  // Placed once, outside the timing: a Transformed holds its hull by value, so building one
  // per query would time the hull's copy, not its support calls.
  std::vector<gjk::Transformed<gjk::ConvexHull>> placed;
  for (std::size_t p = 0; p < l.local_points.size(); ++p)
    placed.push_back({gjk::ConvexHull(l.local_points[p]), l.transforms[p]});
  const std::vector<PieceId> ids = l.world.piece_ids();
  // Capsules placed 0.5 to 1.5 m from a piece, sweeping 1 m toward its centre.
  std::mt19937 rng(9);
  std::normal_distribution<float> gauss;
  struct Case {
    std::size_t piece;
    Query q;
  };
  std::vector<Case> cases;
  for (std::size_t i = 0; i < k_stream; ++i) {
    const std::size_t p = rng() % ids.size();
    const glm::vec3 centre = l.transforms[p].translation;
    const glm::vec3 dir = glm::normalize(glm::vec3{gauss(rng), gauss(rng), gauss(rng)});
    const glm::vec3 base = centre + dir * 2.5f - glm::vec3(0, 0.5f * k_segment, 0);
    cases.push_back({p, {upright(base), -dir}});
  }
  std::size_t i = 0, hits = 0;
  for (auto _ : state) {
    const Case& c = cases[i];
    gjk::ToiResult r;
    if (baked) {
      r = gjk::toi_conservative_advancement(c.q.capsule.segment, k_radius, c.q.motion,
                                            gjk::PointCloud(l.world.world_vertices(ids[c.piece])));
    } else {
      r = gjk::toi_conservative_advancement(c.q.capsule.segment, k_radius, c.q.motion, placed[c.piece]);
    }
    benchmark::DoNotOptimize(r);
    hits += r.hit;
    i = (i + 1) % k_stream;
  }
  state.counters["hit_rate"] = static_cast<double>(hits) / static_cast<double>(state.iterations());
}

struct TerrainLevel {
  World world;
  std::vector<Query> queries;
};

// 1025 x 1025 samples, 1 m apart: rolling hills with a 2 m ripple. Capsules start 5 cm to
// 1 m above the ground and sweep 1 m, level or downhill.
TerrainLevel& terrain_level() {
  static std::unique_ptr<TerrainLevel> slot;
  if (slot) return *slot;
  slot = std::make_unique<TerrainLevel>();
  const int n = 1025;
  std::vector<float> h(static_cast<std::size_t>(n) * n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      h[static_cast<std::size_t>(r) * n + c] =
          20.f * std::sin(0.01f * static_cast<float>(c)) * std::cos(0.013f * static_cast<float>(r)) +
          0.5f * std::sin(3.f * static_cast<float>(c + r));
  slot->world.set_terrain(Heightfield({.rows = n, .columns = n, .heights = h, .origin = {-512, 0, -512}}));
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> pos(-500.f, 500.f), lift(0.05f, 1.f), angle(0.f, 6.2831853f), drop(-0.7f, 0.f);
  const Heightfield& t = *slot->world.terrain();
  for (std::size_t i = 0; i < k_stream; ++i) {
    const float x = pos(rng), z = pos(rng);
    const glm::vec3 base{x, t.height_at(x, z) + k_radius + lift(rng), z};
    const float a = angle(rng);
    slot->queries.push_back({upright(base), glm::normalize(glm::vec3{std::cos(a), drop(rng), std::sin(a)})});
  }
  return *slot;
}

void sweep_terrain(benchmark::State& state) {
  const TerrainLevel& l = terrain_level();
  sweep_stream(state, l.world, l.queries, static_cast<ToiMethod>(state.range(0)));
}

#ifdef GLIDE_BENCH_HAVE_BULLET
struct BulletLevel {
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher{&config};
  btDbvtBroadphase broadphase;
  btCollisionWorld world{&dispatcher, &broadphase, &config};
  std::vector<std::unique_ptr<btConvexHullShape>> shapes;
  std::vector<std::unique_ptr<btCollisionObject>> objects;
  btCapsuleShape capsule{k_radius, k_segment}; // along Y, like the upright glide capsule
};

BulletLevel& bullet_level(int n) {
  static std::map<int, std::unique_ptr<BulletLevel>> cache;
  auto& slot = cache[n];
  if (slot) return *slot;
  const Level& l = level(n);
  slot = std::make_unique<BulletLevel>();
  for (std::size_t i = 0; i < l.local_points.size(); ++i) {
    auto shape = std::make_unique<btConvexHullShape>();
    for (const glm::vec3& p : l.local_points[i]) shape->addPoint(btVector3(p.x, p.y, p.z), false);
    shape->recalcLocalAabb();
    shape->setMargin(0.f);
    auto object = std::make_unique<btCollisionObject>();
    const gjk::Transform& t = l.transforms[i];
    btTransform bt;
    bt.setRotation(btQuaternion(t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w));
    bt.setOrigin(btVector3(t.translation.x, t.translation.y, t.translation.z));
    object->setWorldTransform(bt);
    object->setCollisionShape(shape.get());
    slot->world.addCollisionObject(object.get());
    slot->shapes.push_back(std::move(shape));
    slot->objects.push_back(std::move(object));
  }
  slot->world.updateAabbs();
  slot->world.computeOverlappingPairs();
  return *slot;
}

void sweep_bullet(benchmark::State& state) {
  const Level& l = level(static_cast<int>(state.range(0)));
  BulletLevel& b = bullet_level(static_cast<int>(state.range(0)));
  std::size_t i = 0, hits = 0;
  for (auto _ : state) {
    const Query& q = l.queries[i];
    const glm::vec3 c = 0.5f * (q.capsule.segment.a + q.capsule.segment.b);
    btTransform from, to;
    from.setIdentity();
    to.setIdentity();
    from.setOrigin(btVector3(c.x, c.y, c.z));
    to.setOrigin(btVector3(c.x + q.motion.x, c.y + q.motion.y, c.z + q.motion.z));
    btCollisionWorld::ClosestConvexResultCallback result(from.getOrigin(), to.getOrigin());
    b.world.convexSweepTest(&b.capsule, from, to, result);
    // A float lvalue through DoNotOptimize's "+r" constraint came back corrupted with this
    // compiler; the copy keeps the result intact.
    benchmark::DoNotOptimize(static_cast<double>(result.m_closestHitFraction));
    hits += result.hasHit();
    i = (i + 1) % k_stream;
  }
  state.counters["hit_rate"] = static_cast<double>(hits) / static_cast<double>(state.iterations());
}
#endif

} // namespace

BENCHMARK(sweep_glide)
    ->ArgNames({"pieces", "bisection"})
    ->Args({1000, 0})
    ->Args({10000, 0})
    ->Args({100000, 0})
    ->Args({1000, 1})
    ->Args({100000, 1});
BENCHMARK(raycast_glide)->ArgNames({"pieces", "length"})->ArgsProduct({{1000, 100000}, {2, 50}});
BENCHMARK(sweep_path)->ArgName("pieces")->Arg(1000)->Arg(10000)->Arg(100000);
BENCHMARK(sweep_local)->ArgName("pieces")->Arg(1000)->Arg(10000)->Arg(100000);
BENCHMARK(sweep_broadphase)->ArgName("pieces")->Arg(1000)->Arg(10000)->Arg(100000);
BENCHMARK(sweep_broadphase_local)->ArgName("pieces")->Arg(1000)->Arg(10000)->Arg(100000);
BENCHMARK(sweep_brute_force)->ArgName("pieces")->Arg(1000);
#ifdef GLIDE_BENCH_HAVE_BULLET
BENCHMARK(sweep_bullet)->ArgName("pieces")->Arg(1000)->Arg(10000)->Arg(100000);
#endif
BENCHMARK(sweep_terrain)->ArgName("bisection")->Arg(0)->Arg(1);
BENCHMARK(world_update)->ArgName("pieces")->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(shift_origin)->ArgName("pieces")->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
// Steps of 10 mm per axis per frame (a platform at up to 1 m/s), and 100 mm (a fast one).
BENCHMARK(moving_pieces)->ArgNames({"step_mm", "kinematic"})->ArgsProduct({{10, 100}, {1, 0}})->UseManualTime();
BENCHMARK(sweep_after_motion)->ArgNames({"step_mm", "refitted"})->ArgsProduct({{10, 100}, {1, 0, 2}});
BENCHMARK(toi_representation)->ArgName("baked")->Arg(1)->Arg(0);
BENCHMARK_MAIN();
