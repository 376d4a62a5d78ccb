#include <glide/gjk/closest_point.hpp>

namespace glide::gjk {

SimplexClosest closest_to_origin(const glm::vec3* p, int count, bool last_is_newest) {
  detail::F4 q[4]{};
  for (int i = 0; i < count && i < 4; ++i) q[i] = detail::load(p[i]);
  const detail::Closest4 c = detail::closest_to_origin(q, count, last_is_newest);
  return {detail::to_vec3(c.point), c.distance_squared, c.weights, c.mask, c.contains_origin};
}

} // namespace glide::gjk
