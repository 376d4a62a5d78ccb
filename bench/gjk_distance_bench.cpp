// Distance between a segment (a capsule's core) and convex hulls of 8, 16, 64 and 256
// vertices: glide against FCL (libccd and its own GJK) and Bullet (btGjkPairDetector and
// btGjkEpaSolver2::Distance), all on the same streams of 4096 distinct queries per size and
// kind (separated, near-touching at 1e-4 m, overlapping). Plus warm-started glide on a
// frame-coherent sequence (a segment moving 1 cm per query), glide on one mixed stream of
// 16,384 queries at random poses (all three kinds, some 1e4 m out), and capsule cores over a
// box's top face.
#include <glide/gjk/convex_hull.hpp>
#include <glide/gjk/distance.hpp>
#include <glide/gjk/intersect.hpp>

#include <benchmark/benchmark.h>
#include <glm/gtc/quaternion.hpp>

#include <cmath>
#include <memory>
#include <random>
#include <utility>
#include <vector>

#ifdef GLIDE_BENCH_HAVE_FCL
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/narrowphase/distance.h>
#endif
#ifdef GLIDE_BENCH_HAVE_BULLET
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#endif

namespace {

using namespace glide::gjk;

constexpr std::size_t k_stream = 4096;
constexpr int k_hulls = 64;

enum Kind { separated = 0, near_touching = 1, overlapping = 2 };

struct Query {
  Segment segment;
  int hull = 0;
};

struct CaseSet {
  std::vector<ConvexHull> hulls;
  std::vector<Query> queries;
};

glm::vec3 random_unit(std::mt19937& rng) {
  std::normal_distribution<float> g;
  for (;;) {
    const glm::vec3 d{g(rng), g(rng), g(rng)};
    if (glm::length(d) > 1e-3f) return glm::normalize(d);
  }
}

// 64 hulls of `vertices` points on ellipsoids with semi-axes 0.5-1.5 m (every point a
// vertex); segments 0.5-1.5 m long. Separated: 0.05-1 m apart; near-touching: 1e-4 m apart;
// overlapping: through the hull's centre.
CaseSet make_cases(int vertices, Kind kind) {
  std::mt19937 rng(1000u * static_cast<unsigned>(vertices) + static_cast<unsigned>(kind));
  std::uniform_real_distribution<float> u(0.f, 1.f);
  CaseSet set;
  for (int h = 0; h < k_hulls; ++h) {
    const glm::vec3 axes{0.5f + u(rng), 0.5f + u(rng), 0.5f + u(rng)};
    std::vector<glm::vec3> points(static_cast<std::size_t>(vertices));
    for (glm::vec3& p : points) p = random_unit(rng) * axes;
    set.hulls.emplace_back(points);
  }
  while (set.queries.size() < k_stream) {
    Query q;
    q.hull = static_cast<int>(rng() % k_hulls);
    const glm::vec3 half = random_unit(rng) * (0.25f + 0.5f * u(rng));
    const glm::vec3 center = kind == overlapping ? glm::vec3(0.f) : random_unit(rng) * 3.f;
    q.segment = {center - half, center + half};
    if (kind != overlapping) {
      const DistanceResult r = distance(q.segment, set.hulls[static_cast<std::size_t>(q.hull)]);
      const float target = kind == separated ? 0.05f + 0.95f * u(rng) : 1e-4f;
      const glm::vec3 shift = r.normal * (target - r.distance);
      q.segment.a += shift;
      q.segment.b += shift;
    }
    set.queries.push_back(q);
  }
  return set;
}

// A query set (or a peer's copy of one) is made once per key and kept: the vertex count, and
// with a kind, the kind too.
std::size_t key_of(int vertices, Kind kind) { return static_cast<std::size_t>(kind * 257 + vertices); }
template <class Set, class Make>
const Set& made_once(std::vector<std::unique_ptr<Set>>& cache, std::size_t key, Make make) {
  std::unique_ptr<Set>& slot = cache[key];
  if (!slot) slot = make();
  return *slot;
}

const CaseSet& cases(int vertices, Kind kind) {
  static std::vector<std::unique_ptr<CaseSet>> cache(3 * 257);
  return made_once(cache, key_of(vertices, kind),
                   [&] { return std::make_unique<CaseSet>(make_cases(vertices, kind)); });
}

void glide_distance(benchmark::State& state) {
  const CaseSet& set = cases(static_cast<int>(state.range(0)), static_cast<Kind>(state.range(1)));
  std::size_t i = 0;
  for (auto _ : state) {
    const Query& q = set.queries[i];
    benchmark::DoNotOptimize(distance(q.segment, set.hulls[static_cast<std::size_t>(q.hull)]));
    i = (i + 1) % k_stream;
  }
}

// The mixed stream: 16,384 queries over 64 hulls, a third each separated (0.05-1 m),
// near-touching (1e-4 m) and overlapping (through the centre), in random order, each with
// its own random pose of the hull; a quarter of the poses are 1e4 m from the origin. As a
// game does, each segment is taken into its hull's frame (re-centred on the hull) before
// the query, so the far ones carry the rounding of their world coordinates.
constexpr std::size_t k_mixed = 16384;

const CaseSet& mixed_cases(int vertices) {
  static std::vector<std::unique_ptr<CaseSet>> cache(257);
  std::unique_ptr<CaseSet>& slot = cache[static_cast<std::size_t>(vertices)];
  if (slot) return *slot;
  slot = std::make_unique<CaseSet>();
  CaseSet& set = *slot;
  std::mt19937 rng(77u * static_cast<unsigned>(vertices));
  std::uniform_real_distribution<float> u(0.f, 1.f);
  for (int h = 0; h < k_hulls; ++h) {
    const glm::vec3 axes{0.5f + u(rng), 0.5f + u(rng), 0.5f + u(rng)};
    std::vector<glm::vec3> points(static_cast<std::size_t>(vertices));
    for (glm::vec3& p : points) p = random_unit(rng) * axes;
    set.hulls.emplace_back(points);
  }
  while (set.queries.size() < k_mixed) {
    Query q;
    q.hull = static_cast<int>(rng() % k_hulls);
    const Kind kind = static_cast<Kind>(rng() % 3);
    const glm::vec3 half = random_unit(rng) * (0.25f + 0.5f * u(rng));
    const glm::vec3 center = kind == overlapping ? glm::vec3(0.f) : random_unit(rng) * 3.f;
    q.segment = {center - half, center + half};
    if (kind != overlapping) {
      const DistanceResult r = distance(q.segment, set.hulls[static_cast<std::size_t>(q.hull)]);
      const float target = kind == separated ? 0.05f + 0.95f * u(rng) : 1e-4f;
      const glm::vec3 shift = r.normal * (target - r.distance);
      q.segment.a += shift;
      q.segment.b += shift;
    }
    // Out to the world at a random pose, and back into the hull's frame in float.
    const Transform pose{glm::angleAxis(6.2831853f * u(rng), random_unit(rng)),
                         random_unit(rng) * (rng() % 4 == 0 ? 1e4f : 10.f * u(rng))};
    q.segment = {pose.apply_inverse(pose.apply(q.segment.a)), pose.apply_inverse(pose.apply(q.segment.b))};
    set.queries.push_back(q);
  }
  return set;
}

void glide_distance_mixed(benchmark::State& state) {
  const CaseSet& set = mixed_cases(static_cast<int>(state.range(0)));
  std::size_t i = 0;
  for (auto _ : state) {
    const Query& q = set.queries[i];
    benchmark::DoNotOptimize(distance(q.segment, set.hulls[static_cast<std::size_t>(q.hull)]));
    i = (i + 1) % k_mixed;
  }
}

// Boolean GJK on the same streams, for reference (no peer: FCL and Bullet answer the same
// question only through their distance or collision pipelines).
void glide_intersect(benchmark::State& state) {
  const CaseSet& set = cases(static_cast<int>(state.range(0)), static_cast<Kind>(state.range(1)));
  std::size_t i = 0;
  for (auto _ : state) {
    const Query& q = set.queries[i];
    benchmark::DoNotOptimize(intersect(q.segment, set.hulls[static_cast<std::size_t>(q.hull)]));
    i = (i + 1) % k_stream;
  }
}

// A segment circling a hull at 1 cm per query, 1e-3 to 0.5 m from its surface.
std::vector<Segment> coherent_path(const ConvexHull& hull) {
  std::vector<Segment> path;
  for (std::size_t k = 0; k < k_stream; ++k) {
    const float angle = 0.01f / 2.f * static_cast<float>(k); // 1 cm of arc at radius 2 m
    const glm::vec3 c{2.f * std::cos(angle), 0.5f * std::sin(0.37f * angle), 2.f * std::sin(angle)};
    const glm::vec3 half{0.1f * std::sin(0.1f * angle), 0.5f, 0.f};
    path.push_back({c - half, c + half});
  }
  (void)hull;
  return path;
}

template <bool warm>
void glide_coherent(benchmark::State& state) {
  const CaseSet& set = cases(static_cast<int>(state.range(0)), separated);
  const ConvexHull& hull = set.hulls[0];
  const std::vector<Segment> path = coherent_path(hull);
  SimplexCache cache;
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(distance(path[i], hull, {}, warm ? &cache : nullptr));
    i = (i + 1) % k_stream;
  }
}

// Capsule cores standing on a floor: 4096 nearly upright segments whose lower end is 0.01 to
// 0.3 m above the top face of an 8 x 1 x 8 m box, anywhere over it but its last 0.5 m. With
// no cache the box's planes answer (the pair over the face); with an empty cache per query,
// cold GJK (`gjk:1`), for the comparison in one run.
template <bool gjk>
void glide_floor(benchmark::State& state) {
  const ConvexHull box = ConvexHull::box({4.f, 0.5f, 4.f});
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> across(-3.5f, 3.5f), height(0.01f, 0.3f), lean(-0.01f, 0.01f);
  std::vector<Segment> cores;
  for (std::size_t i = 0; i < k_stream; ++i) {
    const glm::vec3 foot{across(rng), 0.5f + height(rng), across(rng)};
    cores.push_back({foot, foot + glm::vec3(lean(rng), 1.f, lean(rng))});
  }
  std::size_t i = 0;
  for (auto _ : state) {
    SimplexCache none;
    benchmark::DoNotOptimize(distance(cores[i], box, {}, gjk ? &none : nullptr));
    i = (i + 1) % k_stream;
  }
}

#ifdef GLIDE_BENCH_HAVE_FCL
struct FclSet {
  std::vector<std::shared_ptr<fcl::Convexd>> hulls;
  std::vector<fcl::Capsuled> segments; // radius 0
  std::vector<fcl::Transform3d> poses;
};

std::unique_ptr<FclSet> fcl_set(const CaseSet& set) {
  auto slot = std::make_unique<FclSet>();
  for (const ConvexHull& hull : set.hulls) {
    auto points = std::make_shared<std::vector<fcl::Vector3d>>();
    for (const glm::vec3& p : hull.vertices()) points->emplace_back(p.x, p.y, p.z);
    auto faces = std::make_shared<std::vector<int>>();
    for (const HullFace& f : hull.faces()) {
      faces->push_back(3);
      for (std::uint32_t v : f.vertices) faces->push_back(static_cast<int>(v));
    }
    slot->hulls.push_back(std::make_shared<fcl::Convexd>(points, static_cast<int>(hull.faces().size()), faces));
  }
  for (const Query& q : set.queries) {
    // FCL's capsule lies along its local z axis, centred on the origin.
    const glm::vec3 axis = q.segment.b - q.segment.a;
    const float length = glm::length(axis);
    slot->segments.emplace_back(0.0, static_cast<double>(length));
    fcl::Transform3d pose = fcl::Transform3d::Identity();
    const fcl::Vector3d z(0, 0, 1), d = fcl::Vector3d(axis.x, axis.y, axis.z) / length;
    pose.linear() = fcl::Quaterniond::FromTwoVectors(z, d).toRotationMatrix();
    const glm::vec3 mid = 0.5f * (q.segment.a + q.segment.b);
    pose.translation() = fcl::Vector3d(mid.x, mid.y, mid.z);
    slot->poses.push_back(pose);
  }
  return slot;
}

const FclSet& fcl_cases(int vertices, Kind kind) {
  static std::vector<std::unique_ptr<FclSet>> cache(3 * 257);
  return made_once(cache, key_of(vertices, kind), [&] { return fcl_set(cases(vertices, kind)); });
}

const FclSet& fcl_mixed_cases(int vertices) {
  static std::vector<std::unique_ptr<FclSet>> cache(257);
  return made_once(cache, static_cast<std::size_t>(vertices), [&] { return fcl_set(mixed_cases(vertices)); });
}

void fcl_run(benchmark::State& state, fcl::GJKSolverType solver, const CaseSet& set, const FclSet& f) {
  const std::size_t n = set.queries.size();
  fcl::DistanceRequestd request;
  request.gjk_solver_type = solver;
  request.enable_nearest_points = true;
  const fcl::Transform3d identity = fcl::Transform3d::Identity();
  std::size_t i = 0;
  for (auto _ : state) {
    fcl::DistanceResultd result;
    fcl::distance(&f.segments[i], f.poses[i], f.hulls[static_cast<std::size_t>(set.queries[i].hull)].get(), identity,
                  request, result);
    benchmark::DoNotOptimize(result.min_distance);
    i = (i + 1) % n;
  }
}

void fcl_distance(benchmark::State& state, fcl::GJKSolverType solver) {
  const int vertices = static_cast<int>(state.range(0));
  const Kind kind = static_cast<Kind>(state.range(1));
  fcl_run(state, solver, cases(vertices, kind), fcl_cases(vertices, kind));
}

void fcl_distance_mixed(benchmark::State& state, fcl::GJKSolverType solver) {
  const int vertices = static_cast<int>(state.range(0));
  fcl_run(state, solver, mixed_cases(vertices), fcl_mixed_cases(vertices));
}
#endif

#ifdef GLIDE_BENCH_HAVE_BULLET
struct BulletSet {
  std::vector<std::unique_ptr<btConvexHullShape>> hulls, segments;
};

std::unique_ptr<btConvexHullShape> bullet_hull(std::span<const glm::vec3> points) {
  auto shape = std::make_unique<btConvexHullShape>();
  for (const glm::vec3& p : points) shape->addPoint(btVector3(p.x, p.y, p.z), false);
  shape->recalcLocalAabb();
  shape->setMargin(0.f);
  return shape;
}

std::unique_ptr<BulletSet> bullet_set(const CaseSet& set) {
  auto slot = std::make_unique<BulletSet>();
  for (const ConvexHull& hull : set.hulls) slot->hulls.push_back(bullet_hull(hull.vertices()));
  for (const Query& q : set.queries) {
    const glm::vec3 ends[2] = {q.segment.a, q.segment.b};
    slot->segments.push_back(bullet_hull(ends));
  }
  return slot;
}

const BulletSet& bullet_cases(int vertices, Kind kind) {
  static std::vector<std::unique_ptr<BulletSet>> cache(3 * 257);
  return made_once(cache, key_of(vertices, kind), [&] { return bullet_set(cases(vertices, kind)); });
}

const BulletSet& bullet_mixed_cases(int vertices) {
  static std::vector<std::unique_ptr<BulletSet>> cache(257);
  return made_once(cache, static_cast<std::size_t>(vertices), [&] { return bullet_set(mixed_cases(vertices)); });
}

/// The set and its Bullet shapes for a row: (vertices, kind), or the mixed stream (kind -1).
std::pair<const CaseSet*, const BulletSet*> bullet_row(benchmark::State& state, bool mixed) {
  const int vertices = static_cast<int>(state.range(0));
  if (mixed) return {&mixed_cases(vertices), &bullet_mixed_cases(vertices)};
  const Kind kind = static_cast<Kind>(state.range(1));
  return {&cases(vertices, kind), &bullet_cases(vertices, kind)};
}

void bullet_pair_detector(benchmark::State& state, bool mixed) {
  const auto [set_ptr, b_ptr] = bullet_row(state, mixed);
  const CaseSet& set = *set_ptr;
  const BulletSet& b = *b_ptr;
  const std::size_t n = set.queries.size();
  btGjkPairDetector::ClosestPointInput input;
  input.m_transformA.setIdentity();
  input.m_transformB.setIdentity();
  std::size_t i = 0;
  for (auto _ : state) {
    btVoronoiSimplexSolver simplex;
    btGjkPairDetector gjk(b.segments[i].get(), b.hulls[static_cast<std::size_t>(set.queries[i].hull)].get(), &simplex,
                          nullptr);
    btPointCollector out;
    gjk.getClosestPoints(input, out, nullptr);
    benchmark::DoNotOptimize(out.m_distance);
    i = (i + 1) % n;
  }
}

void bullet_gjk_epa2(benchmark::State& state, bool mixed) {
  const auto [set_ptr, b_ptr] = bullet_row(state, mixed);
  const CaseSet& set = *set_ptr;
  const BulletSet& b = *b_ptr;
  const std::size_t n = set.queries.size();
  btTransform identity;
  identity.setIdentity();
  std::size_t i = 0;
  for (auto _ : state) {
    btGjkEpaSolver2::sResults results;
    benchmark::DoNotOptimize(btGjkEpaSolver2::Distance(b.segments[i].get(), identity,
                                                       b.hulls[static_cast<std::size_t>(set.queries[i].hull)].get(),
                                                       identity, btVector3(1, 0, 0), results));
    benchmark::DoNotOptimize(results.distance);
    i = (i + 1) % n;
  }
}
#endif

void sizes_and_kinds(benchmark::internal::Benchmark* b) {
  b->ArgNames({"vertices", "kind"});
  for (int kind : {separated, near_touching, overlapping})
    for (int v : {8, 16, 64, 256}) b->Args({v, kind});
}

} // namespace

BENCHMARK(glide_distance)->Apply(sizes_and_kinds);
BENCHMARK(glide_intersect)->Apply(sizes_and_kinds);
BENCHMARK(glide_distance_mixed)->ArgName("vertices")->Arg(8)->Arg(16)->Arg(64)->Arg(256);
#ifdef GLIDE_BENCH_HAVE_FCL
BENCHMARK_CAPTURE(fcl_distance, libccd, fcl::GST_LIBCCD)->Apply(sizes_and_kinds);
BENCHMARK_CAPTURE(fcl_distance, indep, fcl::GST_INDEP)->Apply(sizes_and_kinds);
#endif
#ifdef GLIDE_BENCH_HAVE_BULLET
BENCHMARK_CAPTURE(bullet_pair_detector, streams, false)->Apply(sizes_and_kinds);
BENCHMARK_CAPTURE(bullet_gjk_epa2, streams, false)->Apply(sizes_and_kinds);
#endif
// The mixed stream, glide and the peers in one place.
#ifdef GLIDE_BENCH_HAVE_FCL
BENCHMARK_CAPTURE(fcl_distance_mixed, libccd, fcl::GST_LIBCCD)->ArgName("vertices")->Arg(8)->Arg(16)->Arg(64)->Arg(256);
BENCHMARK_CAPTURE(fcl_distance_mixed, indep, fcl::GST_INDEP)->ArgName("vertices")->Arg(8)->Arg(16)->Arg(64)->Arg(256);
#endif
#ifdef GLIDE_BENCH_HAVE_BULLET
BENCHMARK_CAPTURE(bullet_pair_detector, mixed, true)->ArgName("vertices")->Arg(8)->Arg(16)->Arg(64)->Arg(256);
BENCHMARK_CAPTURE(bullet_gjk_epa2, mixed, true)->ArgName("vertices")->Arg(8)->Arg(16)->Arg(64)->Arg(256);
#endif
BENCHMARK(glide_coherent<false>)->ArgName("vertices")->Arg(8)->Arg(16)->Arg(64)->Arg(256);
BENCHMARK(glide_coherent<true>)->ArgName("vertices")->Arg(8)->Arg(16)->Arg(64)->Arg(256);
BENCHMARK(glide_floor<false>)->Name("glide_floor/gjk:0");
BENCHMARK(glide_floor<true>)->Name("glide_floor/gjk:1");

BENCHMARK_MAIN();
