#include "approx.hpp"

#include <glide/controller/slide.hpp>

#include <glm/geometric.hpp>

#include <random>
#include <vector>

using glide::solve_slide;

namespace {
glm::vec3 slide(std::vector<glm::vec3> normals, glm::vec3 motion) { return solve_slide(normals, motion, motion); }
} // namespace

TEST_CASE("no plane, or a plane not entered, leaves the motion alone") {
  CHECK_APPROX(slide({}, {1, 2, 3}), glm::vec3(1, 2, 3), 0);
  CHECK_APPROX(slide({{0, 1, 0}}, {1, 0, 0}), glm::vec3(1, 0, 0), 0);
  CHECK_APPROX(slide({{0, 1, 0}}, {1, 0.5f, 0}), glm::vec3(1, 0.5f, 0), 0);
}

TEST_CASE("one plane: the motion is projected onto it and keeps its tangential part exactly") {
  const glm::vec3 wall = glm::normalize(glm::vec3(-1, 0, -1)); // 45 degrees to the motion
  const glm::vec3 v = slide({wall}, {2, 0, 0});
  CHECK_APPROX(v, glm::vec3(1, 0, -1), 1e-6f);
  CHECK(glm::dot(v, wall) == doctest::Approx(0).epsilon(1e-6));
}

TEST_CASE("two planes: the motion runs along their crease") {
  // A 90 degree corner of two walls; pushing diagonally into it with some upward motion
  // keeps only the vertical part, along the crease.
  const glm::vec3 v = slide({{-1, 0, 0}, {0, 0, -1}}, {1, 0.25f, 1});
  CHECK_APPROX(v, glm::vec3(0, 0.25f, 0), 1e-6f);
  // A floor and a wall: slide along the wall's foot.
  CHECK_APPROX(slide({{0, 1, 0}, {-1, 0, 0}}, {1, -1, 1}), glm::vec3(0, 0, 1), 1e-6f);
}

TEST_CASE("two planes in a V: the crease is the only way, or none") {
  // Two 70 degree slopes meeting in a valley along z.
  const float s = std::sin(glm::radians(70.f)), c = std::cos(glm::radians(70.f));
  const std::vector<glm::vec3> valley{{s, c, 0}, {-s, c, 0}};
  CHECK_APPROX(solve_slide(valley, {0, -1, 0}, {0, -1, 0}), glm::vec3(0, 0, 0), 1e-6f);
  CHECK_APPROX(solve_slide(valley, {0, -1, 2}, {0, -1, 2}), glm::vec3(0, 0, 2), 1e-6f);
}

TEST_CASE("three blocking planes stop the motion") {
  CHECK_APPROX(slide({{-1, 0, 0}, {0, 0, -1}, {0, 1, 0}}, {1, -1, 1}), glm::vec3(0, 0, 0), 0);
}

TEST_CASE("the result never turns against the original motion") {
  // Already deflected motion that would now run backwards is cancelled instead.
  const glm::vec3 original{1, 0, 0};
  const glm::vec3 v =
      solve_slide(std::vector<glm::vec3>{glm::normalize(glm::vec3(-1, 0, 1))}, {-0.1f, 0, -1}, original);
  CHECK_APPROX(v, glm::vec3(0, 0, 0), 0);
}

TEST_CASE("random plane sets: the result enters no plane and never opposes the motion") {
  std::mt19937 rng(12345);
  std::normal_distribution<float> g;
  auto unit = [&] {
    glm::vec3 v{g(rng), g(rng), g(rng)};
    return glm::normalize(v);
  };
  for (int iteration = 0; iteration < 10000; ++iteration) {
    std::vector<glm::vec3> normals(static_cast<std::size_t>(iteration % 5));
    for (auto& n : normals) n = unit();
    const glm::vec3 motion = unit() * 2.f;
    const glm::vec3 v = solve_slide(normals, motion, motion);
    for (const glm::vec3& n : normals) REQUIRE(glm::dot(v, n) >= -1e-5f);
    REQUIRE(glm::dot(v, motion) >= 0.f);
    REQUIRE(glm::length(v) <= glm::length(motion) + 1e-5f); // sliding never speeds up
  }
}
