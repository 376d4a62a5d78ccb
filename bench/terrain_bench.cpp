// Heightfield queries on a 1025 x 1025 terrain of 1 m cells, over streams of 4096 distinct
// inputs. Peers on the same data: a plain bilinear read of four samples (the classic
// "four texture reads") for height_at, and Bullet's btHeightfieldTerrainShape (with its
// 16 x 16 chunk accelerator) for ray casts and box queries. Loading a 4097 x 4097 terrain
// is timed per file format.
#include <glide/terrain/heightfield.hpp>
#include <glide/terrain/heightfield_loader.hpp>

#include <benchmark/benchmark.h>

#ifdef GLIDE_BENCH_HAVE_BULLET
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btTriangleCallback.h>
#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>
#endif

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr int k_side = 1025;           // samples per side
constexpr std::size_t k_stream = 4096; // distinct inputs per benchmark
constexpr std::size_t k_stream_mask = k_stream - 1;

float hills(float x, float z) {
  return 20.f * std::sin(x * 0.02f) * std::cos(z * 0.03f) + 3.f * std::sin(x * 0.2f + z * 0.1f) +
         0.5f * std::sin(x * 1.3f) * std::sin(z * 1.7f);
}

const std::vector<float>& terrain_heights() {
  static const std::vector<float> heights = [] {
    std::vector<float> h(static_cast<std::size_t>(k_side) * k_side);
    for (int r = 0; r < k_side; ++r)
      for (int c = 0; c < k_side; ++c)
        h[static_cast<std::size_t>(r) * k_side + c] = hills(static_cast<float>(c), static_cast<float>(r));
    return h;
  }();
  return heights;
}

const glide::Heightfield& terrain() {
  static const glide::Heightfield field({.rows = k_side, .columns = k_side, .heights = terrain_heights()});
  return field;
}

std::vector<glm::vec2> random_points() {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> u(0.f, static_cast<float>(k_side - 1));
  std::vector<glm::vec2> p(k_stream);
  for (auto& v : p) v = {u(rng), u(rng)};
  return p;
}

struct Ray {
  glm::vec3 origin, dir; // dir unit length
};
/// 10 m rays from 0.2 to 3 m above the ground, mostly sloping down: about half hit.
std::vector<Ray> random_rays() {
  std::mt19937 rng(777);
  std::uniform_real_distribution<float> u(20.f, static_cast<float>(k_side - 21)), above(0.2f, 3.f), s(-1.f, 1.f);
  std::uniform_real_distribution<float> down(-0.6f, 0.15f);
  std::vector<Ray> rays(k_stream);
  for (Ray& r : rays) {
    const float x = u(rng), z = u(rng);
    r.origin = {x, terrain().height_at(x, z) + above(rng), z};
    r.dir = glm::normalize(glm::vec3(s(rng), down(rng), s(rng)));
  }
  return rays;
}

/// Capsule-sized boxes (0.8 x 1.8 x 0.8 m swept by up to 0.3 m) resting on the ground.
std::vector<glide::gjk::Aabb> capsule_boxes() {
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> u(2.f, static_cast<float>(k_side - 3)), m(-0.3f, 0.3f);
  std::vector<glide::gjk::Aabb> boxes(k_stream);
  for (auto& b : boxes) {
    const float x = u(rng), z = u(rng), y = terrain().height_at(x, z);
    b = glide::gjk::Aabb{{x - 0.4f, y - 0.1f, z - 0.4f}, {x + 0.4f, y + 1.7f, z + 0.4f}}.swept(
        {m(rng), m(rng), m(rng)});
  }
  return boxes;
}

void bm_height_at(benchmark::State& state) {
  const glide::Heightfield& field = terrain();
  const std::vector<glm::vec2> p = random_points();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(field.height_at(p[i].x, p[i].y));
    i = (i + 1) & k_stream_mask;
  }
}

/// The classic bilinear "four texture reads" on the same float grid (no clamping
/// beyond the grid, no NaN handling): the floor for a height lookup.
void bm_height_bilinear_four_reads(benchmark::State& state) {
  const std::vector<float>& h = terrain_heights();
  const std::vector<glm::vec2> p = random_points();
  std::size_t i = 0;
  for (auto _ : state) {
    const float u = p[i].x, v = p[i].y;
    const int c = std::min(static_cast<int>(u), k_side - 2), r = std::min(static_cast<int>(v), k_side - 2);
    const float fu = u - static_cast<float>(c), fv = v - static_cast<float>(r);
    const float* row0 = &h[static_cast<std::size_t>(r) * k_side + c];
    const float* row1 = row0 + k_side;
    const float h0 = row0[0] + (row0[1] - row0[0]) * fu, h1 = row1[0] + (row1[1] - row1[0]) * fu;
    benchmark::DoNotOptimize(h0 + (h1 - h0) * fv);
    i = (i + 1) & k_stream_mask;
  }
}

void bm_normal_at(benchmark::State& state) {
  const glide::Heightfield& field = terrain();
  const std::vector<glm::vec2> p = random_points();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(field.normal_at(p[i].x, p[i].y));
    i = (i + 1) & k_stream_mask;
  }
}

void bm_sample(benchmark::State& state) {
  const glide::Heightfield& field = terrain();
  const std::vector<glm::vec2> p = random_points();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(field.sample(p[i].x, p[i].y));
    i = (i + 1) & k_stream_mask;
  }
}

void bm_raycast_10m(benchmark::State& state) {
  const glide::Heightfield& field = terrain();
  const std::vector<Ray> rays = random_rays();
  std::size_t i = 0, hits = 0, casts = 0;
  for (auto _ : state) {
    const glide::TerrainRayHit h = field.raycast(rays[i].origin, rays[i].dir, 10.f);
    benchmark::DoNotOptimize(h);
    hits += h.hit;
    ++casts;
    i = (i + 1) & k_stream_mask;
  }
  state.counters["hit_fraction"] = static_cast<double>(hits) / static_cast<double>(casts);
}

/// Ground probe: 2 m straight down from 1 m above the ground (always hits).
void bm_raycast_ground_probe(benchmark::State& state) {
  const glide::Heightfield& field = terrain();
  const std::vector<glm::vec2> p = random_points();
  std::vector<glm::vec3> origins(k_stream);
  for (std::size_t k = 0; k < k_stream; ++k) origins[k] = {p[k].x, field.height_at(p[k].x, p[k].y) + 1.f, p[k].y};
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(field.raycast(origins[i], {0.f, -1.f, 0.f}, 2.f));
    i = (i + 1) & k_stream_mask;
  }
}

void bm_triangles_in_capsule_box(benchmark::State& state) {
  const glide::Heightfield& field = terrain();
  const std::vector<glide::gjk::Aabb> boxes = capsule_boxes();
  std::size_t i = 0, triangles = 0, queries = 0;
  for (auto _ : state) {
    float sum = 0.f; // touch every triangle so the walk cannot be skipped
    triangles += static_cast<std::size_t>(
        field.triangles_in(boxes[i], [&](const glide::gjk::Triangle& t) { sum += t.a.y + t.b.y + t.c.y; }));
    benchmark::DoNotOptimize(sum);
    ++queries;
    i = (i + 1) & k_stream_mask;
  }
  state.counters["triangles_per_query"] = static_cast<double>(triangles) / static_cast<double>(queries);
}

#ifdef GLIDE_BENCH_HAVE_BULLET
/// Bullet centres its heightfield on its bounds: local = world - centre.
struct BulletTerrain {
  std::unique_ptr<btHeightfieldTerrainShape> shape;
  btVector3 centre;
  BulletTerrain() {
    const glide::gjk::Aabb b = terrain().bounds();
    shape = std::make_unique<btHeightfieldTerrainShape>(k_side, k_side, terrain_heights().data(), b.min.y, b.max.y, 1,
                                                        false);
    shape->buildAccelerator(16);
    centre = btVector3(0.5f * (k_side - 1), 0.5f * (b.min.y + b.max.y), 0.5f * (k_side - 1));
  }
  btVector3 local(const glm::vec3& p) const { return btVector3(p.x, p.y, p.z) - centre; }
};
const BulletTerrain& bullet_terrain() {
  static const BulletTerrain t;
  return t;
}

struct ClosestRay : btTriangleRaycastCallback {
  using btTriangleRaycastCallback::btTriangleRaycastCallback;
  bool hit = false;
  btScalar reportHit(const btVector3&, btScalar fraction, int, int) override {
    hit = true;
    return fraction; // later triangles must be closer
  }
};

void bm_raycast_10m_bullet(benchmark::State& state) {
  const BulletTerrain& bt = bullet_terrain();
  const std::vector<Ray> rays = random_rays();
  std::size_t i = 0, hits = 0, casts = 0;
  for (auto _ : state) {
    const btVector3 from = bt.local(rays[i].origin), to = bt.local(rays[i].origin + 10.f * rays[i].dir);
    ClosestRay cb(from, to, btTriangleRaycastCallback::kF_FilterBackfaces);
    bt.shape->performRaycast(&cb, from, to);
    benchmark::DoNotOptimize(cb.m_hitFraction);
    hits += cb.hit;
    ++casts;
    i = (i + 1) & k_stream_mask;
  }
  state.counters["hit_fraction"] = static_cast<double>(hits) / static_cast<double>(casts);
}

struct CountTriangles : btTriangleCallback {
  std::size_t count = 0;
  float sum = 0.f;
  void processTriangle(btVector3* t, int, int) override {
    ++count;
    sum += t[0].y() + t[1].y() + t[2].y();
  }
};

void bm_triangles_in_capsule_box_bullet(benchmark::State& state) {
  const BulletTerrain& bt = bullet_terrain();
  const std::vector<glide::gjk::Aabb> boxes = capsule_boxes();
  std::size_t i = 0, triangles = 0, queries = 0;
  for (auto _ : state) {
    CountTriangles cb;
    bt.shape->processAllTriangles(&cb, bt.local(boxes[i].min), bt.local(boxes[i].max));
    benchmark::DoNotOptimize(cb.sum);
    triangles += cb.count;
    ++queries;
    i = (i + 1) & k_stream_mask;
  }
  state.counters["triangles_per_query"] = static_cast<double>(triangles) / static_cast<double>(queries);
}
#endif

// ---- loading a 4097 x 4097 terrain ----------------------------------------------------------

constexpr int k_big_side = 4097;

std::filesystem::path big_file(const std::string& format) {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / "glide_terrain_bench";
    std::filesystem::create_directories(d);
    return d;
  }();
  const std::filesystem::path path = dir / ("terrain_4097." + format);
  if (std::filesystem::exists(path)) return path;
  std::vector<float> h(static_cast<std::size_t>(k_big_side) * k_big_side);
  for (int r = 0; r < k_big_side; ++r)
    for (int c = 0; c < k_big_side; ++c)
      h[static_cast<std::size_t>(r) * k_big_side + c] = 0.5f + 0.5f * std::sin(c * 0.01f) * std::cos(r * 0.013f);
  std::ofstream out(path, std::ios::binary);
  if (format == "raw") {
    out.write(reinterpret_cast<const char*>(h.data()), static_cast<std::streamsize>(h.size() * sizeof(float)));
  } else if (format == "pgm") { // P5, 16 bit k_big_side-endian
    out << "P5\n" << k_big_side << " " << k_big_side << "\n65535\n";
    std::vector<unsigned char> bytes;
    bytes.reserve(h.size() * 2);
    for (float v : h) {
      const auto s = static_cast<unsigned>(v * 65535.f);
      bytes.push_back(static_cast<unsigned char>(s >> 8));
      bytes.push_back(static_cast<unsigned char>(s & 0xffu));
    }
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  } else { // 8-bit PNG, zlib-compressed by stb_image_write
    out.close();
    std::vector<unsigned char> pixels(h.size());
    for (std::size_t k = 0; k < h.size(); ++k) pixels[k] = static_cast<unsigned char>(h[k] * 255.f);
    stbi_write_png(path.string().c_str(), k_big_side, k_big_side, 1, pixels.data(), k_big_side);
  }
  return path;
}

void bm_load_4097(benchmark::State& state, const std::string& format) {
  const std::filesystem::path path = big_file(format);
  const glide::HeightfieldLoadSettings settings{
      .height_scale = 100.f, .raw_rows = k_big_side, .raw_columns = k_big_side};
  for (auto _ : state) {
    const glide::Heightfield field = glide::load_heightfield(path, settings);
    benchmark::DoNotOptimize(field.height_at(100.f, 100.f));
    state.counters["MB"] = static_cast<double>(field.memory_bytes()) / 1e6;
  }
}

} // namespace

BENCHMARK(bm_height_at);
BENCHMARK(bm_height_bilinear_four_reads);
BENCHMARK(bm_normal_at);
BENCHMARK(bm_sample);
BENCHMARK(bm_raycast_10m);
BENCHMARK(bm_raycast_ground_probe);
BENCHMARK(bm_triangles_in_capsule_box);
#ifdef GLIDE_BENCH_HAVE_BULLET
BENCHMARK(bm_raycast_10m_bullet);
BENCHMARK(bm_triangles_in_capsule_box_bullet);
#endif
BENCHMARK_CAPTURE(bm_load_4097, raw_float32, std::string("raw"))->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(bm_load_4097, pgm_p5_16bit, std::string("pgm"))->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(bm_load_4097, png_8bit, std::string("png"))->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_MAIN();
