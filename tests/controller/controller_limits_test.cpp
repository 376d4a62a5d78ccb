// The controller's share of the valid range (<glide/limits.hpp>): moves, positions and a
// listener's velocities outside it are errors that leave the character finite where it was.
#include "approx.hpp"
#include "controller_scene.hpp"

#include <glide/limits.hpp>

#include <cmath>
#include <limits>

using namespace glide;
using namespace glide::test;

namespace {

using glide::limits::finite;

// Turns the rest of every move after a contact into NaN.
struct PoisonListener : ContactListener {
  void on_adjust_velocity(const ControllerHit&, glm::vec3& velocity) override {
    velocity = glm::vec3(std::numeric_limits<float>::quiet_NaN());
  }
};

} // namespace

TEST_CASE("a move whose velocity * dt overflows or exceeds one move's distance throws and changes nothing") {
  World world;
  add_floor(world);
  Controller c(world, {}, {0.f, 0.01f, 0.f});
  const glm::vec3 before = c.position();
  // Each factor is finite; their product is not.
  CHECK_THROWS_WITH_AS(c.move({3e38f, 0.f, 0.f}, 10.f),
                       doctest::Contains("moves 3e+39 m, more than the 10000 m of one move"), glide::Error);
  CHECK_THROWS_WITH_AS(c.move({2e4f, 0.f, 0.f}, 1.f), doctest::Contains("moves 20000"), glide::Error);
  CHECK(c.position() == before);
  // The character still moves normally afterwards.
  c.move({1.f, 0.f, 0.f}, k_dt);
  CHECK(finite(c.position()));
  CHECK(c.position().x == doctest::Approx(1.f / 60.f).epsilon(1e-3));
}

TEST_CASE("positions beyond the valid coordinates are refused by the constructor, teleport and move") {
  World world;
  add_floor(world);
  const float edge = limits::k_max_coordinate;
  CHECK_THROWS_WITH_AS(Controller(world, {}, {2e6f, 0.f, 0.f}), doctest::Contains("beyond the valid coordinates"),
                       glide::Error);
  Controller c(world, {}, {0.f, 0.01f, 0.f});
  CHECK_THROWS_WITH_AS(c.teleport({0.f, -3e38f, 0.f}), doctest::Contains("Controller::teleport: position"),
                       glide::Error);
  c.teleport({edge - 1.f, 100.f, 0.f});
  CHECK_THROWS_WITH_AS(c.move({100.f, 0.f, 0.f}, 0.1f), doctest::Contains("would take the character from"),
                       glide::Error);
  CHECK(c.position() == glm::vec3(edge - 1.f, 100.f, 0.f));
}

TEST_CASE("a listener's non-finite velocity is an error, never a NaN position") {
  World world;
  add_floor(world);
  add_box(world, {1.f, 0.f, -5.f}, {2.f, 3.f, 5.f}); // a wall at x = 1
  Controller c(world, {}, {0.f, 0.01f, 0.f});
  PoisonListener poison;
  c.set_listener(&poison);
  CHECK_THROWS_WITH_AS(c.move({60.f, 0.f, 0.f}, k_dt),
                       doctest::Contains("ContactListener::on_adjust_velocity returned velocity (nan"), glide::Error);
  CHECK(finite(c.position()));
  c.set_listener(nullptr);
  c.move({1.f, 0.f, 0.f}, k_dt);
  CHECK(finite(c.position()));
}

TEST_CASE("resize to a height the other settings forbid throws naming the field, not a refusal") {
  World world;
  add_floor(world);
  Controller c(world, {}, {0.f, 0.01f, 0.f});
  CHECK_THROWS_WITH_AS(c.resize(0.6f), doctest::Contains("Controller::resize(0.6)"), glide::Error);
  CHECK_THROWS_WITH_AS(c.resize(0.6f), doctest::Contains("step_height"), glide::Error);
  CHECK(c.settings().height == ControllerSettings{}.height);
}
