// Controller::move on a level of about 100k triangles (a rolling ground of 88,200 triangles and
// 1,000 boxes of 12 on it), built three ways: one mesh piece (World::add_mesh), every triangle
// a flat piece of its own, and the ground's triangles as flat pieces with the boxes as box
// pieces. Walkers steer round square loops as in controller_bench; per-move times are taken
// with steady_clock around the move only and reported as counters (ns), with the time to build
// the level (ms). A fast move across the one-mesh level: hundreds of triangles gathered at once.
#include <glide/controller/controller.hpp>
#include <glide/controller/player_step.hpp>
#include <glide/gjk/convex_hull.hpp>
#include <glide/world/triangle_mesh.hpp>
#include <glide/world/world.hpp>

#include "walker.hpp"

#include <benchmark/benchmark.h>

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <random>
#include <vector>

namespace {

constexpr int k_cells = 210;   // ground cells a side
constexpr float k_cell = 0.5f; // (m)
constexpr int k_boxes = 1000;  // on the ground
constexpr float k_side = k_cells * k_cell;

float ground_height(float x, float z) { return 0.4f * std::sin(0.21f * x) * std::cos(0.17f * z); }

enum class Build { mesh, triangles, triangles_and_boxes };

struct Level {
  glide::World world;
  std::size_t triangles = 0;
};

Level make_level(Build build) {
  std::vector<glm::vec3> vertices;
  std::vector<glide::TriangleMesh::Indices> triangles;
  const float origin = -0.5f * k_side;
  for (int k = 0; k <= k_cells; ++k)
    for (int i = 0; i <= k_cells; ++i) {
      const float x = origin + k_cell * static_cast<float>(i), z = origin + k_cell * static_cast<float>(k);
      vertices.push_back({x, ground_height(x, z), z});
    }
  const auto at = [](int i, int k) { return static_cast<std::uint32_t>(k * (k_cells + 1) + i); };
  for (int k = 0; k < k_cells; ++k)
    for (int i = 0; i < k_cells; ++i) {
      const std::uint32_t p00 = at(i, k), p10 = at(i + 1, k), p01 = at(i, k + 1), p11 = at(i + 1, k + 1);
      if ((i + k) % 2 == 0) {
        triangles.push_back({p00, p01, p11});
        triangles.push_back({p00, p11, p10});
      } else {
        triangles.push_back({p00, p01, p10});
        triangles.push_back({p10, p01, p11});
      }
    }

  Level level;
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> pos(-0.45f * k_side, 0.45f * k_side), size(0.3f, 2.f), low(0.1f, 0.3f),
      tall(0.5f, 3.f), angle(0.f, 6.2831853f);
  for (int b = 0; b < k_boxes; ++b) {
    const float height = (b % 4 == 0) ? low(rng) : tall(rng);
    const float x = pos(rng), z = pos(rng);
    const glm::vec3 half{size(rng), 0.5f * height + 0.25f, size(rng)}; // 0.5 m sunk into the ground
    const glm::vec3 center{x, ground_height(x, z) + 0.5f * height - 0.25f, z};
    const glm::quat turn = glm::angleAxis(angle(rng), glm::vec3(0, 1, 0));
    if (build == Build::triangles_and_boxes) {
      level.world.add_piece(glide::gjk::ConvexHull::box(half), glide::gjk::Transform{turn, center});
      level.triangles += 12;
      continue;
    }
    const auto base = static_cast<std::uint32_t>(vertices.size());
    for (int c = 0; c < 8; ++c) {
      const glm::vec3 corner{(c == 1 || c == 2 || c == 5 || c == 6) ? half.x : -half.x,
                             (c == 2 || c == 3 || c == 6 || c == 7) ? half.y : -half.y, c >= 4 ? half.z : -half.z};
      vertices.push_back(center + turn * corner);
    }
    const std::uint32_t faces[12][3] = {{0, 3, 2}, {0, 2, 1}, {4, 5, 6}, {4, 6, 7}, {0, 4, 7}, {0, 7, 3},
                                        {1, 2, 6}, {1, 6, 5}, {0, 1, 5}, {0, 5, 4}, {3, 7, 6}, {3, 6, 2}};
    for (const auto& f : faces) triangles.push_back({base + f[0], base + f[1], base + f[2]});
  }
  level.triangles += triangles.size();
  if (build == Build::mesh) {
    level.world.add_mesh(glide::TriangleMesh(std::move(vertices), std::move(triangles)));
  } else {
    for (const auto& t : triangles) {
      const std::array<glm::vec3, 3> corners{vertices[t[0]], vertices[t[1]], vertices[t[2]]};
      level.world.add_piece(glide::gjk::ConvexHull(corners));
    }
  }
  level.world.update();
  return level;
}

using glide::bench::report;
using glide::bench::Walker;

// 50 walkers one after another, 2,000 frames each, on the same loops for every build.
void walk(benchmark::State& state) {
  const auto built = std::chrono::steady_clock::now();
  const Level level = make_level(static_cast<Build>(state.range(0)));
  const double build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - built).count();
  std::vector<double> ns;
  for (auto _ : state) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> pos(-0.4f * k_side, 0.4f * k_side), size(3.f, 10.f);
    ns.clear();
    for (int w = 0; w < 50; ++w) {
      const float x = pos(rng), z = pos(rng);
      Walker walker(level.world, {x, ground_height(x, z), z}, size(rng), 1.f);
      for (int frame = 0; frame < 2000; ++frame) ns.push_back(1000.0 * walker.step()); // us to ns
    }
  }
  report(state, ns, "ns");
  state.counters["pieces"] = static_cast<double>(level.world.piece_count());
  state.counters["triangles"] = static_cast<double>(level.triangles);
  state.counters["build_ms"] = build_ms; // the level: its triangles listed, then added and the hierarchy built
}

// glide::bench::fast_moves on the one-mesh level: a 6 m move gathers hundreds of the mesh's
// triangles. Arg 0: a new controller at each spot; 1: one controller teleported between them.
void fast_move_across_mesh(benchmark::State& state) {
  const Level level = make_level(Build::mesh);
  std::vector<double> us;
  for (auto _ : state) us = glide::bench::fast_moves(level.world, 0.4f * k_side, ground_height, state.range(0) == 1);
  report(state, us, "us");
}

} // namespace

// 0: one mesh piece; 1: every triangle a flat piece; 2: ground triangles as flat pieces, boxes as box pieces.
BENCHMARK(walk)->Arg(0)->Arg(1)->Arg(2)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(fast_move_across_mesh)->ArgName("reused")->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
