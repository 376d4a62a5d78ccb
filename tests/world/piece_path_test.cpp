// PiecePath: keyed offsets and turns about a pivot, against hand-computed poses.
#include <doctest/doctest.h>
#include <glide/error.hpp>
#include <glide/world/piece_path.hpp>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/quaternion.hpp>

#include <limits>

using namespace glide;

namespace {

void check_near(const glm::vec3& a, const glm::vec3& b) { CHECK(glm::length(a - b) <= 1e-5f); }

PiecePath lift() {
  PiecePath p;
  p.keys = {{0.f, {0.f, 0.f, 0.f}, 0.f}, {1.f, {0.f, 6.f, 0.f}, 0.f}, {1.5f, {0.f, 6.f, 0.f}, 0.f}, {2.5f, {}, 0.f}};
  return p;
}

} // namespace

TEST_CASE("piece path: offsets interpolate linearly between keys and hold outside them") {
  const gjk::Transform rest{.translation = {1.f, 2.f, 3.f}};
  const PiecePath p = lift();
  validate(p);
  check_near(p.pose_at(rest, -1.f).translation, {1.f, 2.f, 3.f});
  check_near(p.pose_at(rest, 0.25f).translation, {1.f, 3.5f, 3.f});
  check_near(p.pose_at(rest, 1.25f).translation, {1.f, 8.f, 3.f});
  check_near(p.pose_at(rest, 2.f).translation, {1.f, 5.f, 3.f});
  check_near(p.pose_at(rest, 9.f).translation, {1.f, 2.f, 3.f});
  CHECK(p.duration() == 2.5f);
}

TEST_CASE("piece path: loop starts over, ping-pong runs back") {
  const gjk::Transform rest{};
  PiecePath p = lift();
  p.repeat = PiecePath::Repeat::loop;
  check_near(p.pose_at(rest, 2.5f + 0.25f).translation, {0.f, 1.5f, 0.f});
  PiecePath q;
  q.repeat = PiecePath::Repeat::ping_pong;
  q.keys = {{0.f, {}, 0.f}, {2.f, {4.f, 0.f, 0.f}, 0.f}};
  check_near(q.pose_at(rest, 3.f).translation, {2.f, 0.f, 0.f});
  check_near(q.pose_at(rest, 4.5f).translation, {1.f, 0.f, 0.f});
}

TEST_CASE("piece path: the turn is about the vertical axis through the pivot") {
  // A door resting along +x from a hinge at the origin, its centre at (0.5, 1, 0): a quarter
  // turn (yaw -90 degrees) takes the centre to (0, 1, 0.5).
  PiecePath door;
  door.keys = {{0.f, {}, 0.f}, {0.5f, {}, -glm::half_pi<float>()}};
  const gjk::Transform rest{.translation = {0.5f, 1.f, 0.f}};
  const gjk::Transform open = door.pose_at(rest, 0.5f);
  check_near(open.translation, {0.f, 1.f, 0.5f});
  check_near(open.rotation * glm::vec3(1.f, 0.f, 0.f), {0.f, 0.f, 1.f});
  const gjk::Transform half = door.pose_at(rest, 0.25f);
  check_near(half.rotation * glm::vec3(1.f, 0.f, 0.f), glm::normalize(glm::vec3(1.f, 0.f, 1.f)));
  // Around a pivot elsewhere: the pivot itself stays.
  door.pivot = {2.f, 0.f, 0.f};
  const gjk::Transform at_pivot{.translation = {2.f, 1.f, 0.f}};
  check_near(door.pose_at(at_pivot, 0.5f).translation, {2.f, 1.f, 0.f});
}

TEST_CASE("piece path: validate names the key at fault") {
  PiecePath p;
  CHECK_THROWS_AS(validate(p), Error);
  p.keys = {{0.f, {}, 0.f}, {1.f, {}, 0.f}, {0.5f, {}, 0.f}};
  CHECK_THROWS_WITH_AS(validate(p), doctest::Contains("key 2"), Error);
  p.keys = {{0.f, {std::numeric_limits<float>::quiet_NaN(), 0.f, 0.f}, 0.f}};
  CHECK_THROWS_WITH_AS(validate(p), doctest::Contains("key 0"), Error);
  p.keys = {{-1.f, {}, 0.f}};
  CHECK_THROWS_AS(validate(p), Error);
}
