#include <glide/controller/slide.hpp>

#include <glm/geometric.hpp>

namespace glide {

glm::vec3 clip_to_plane(const glm::vec3& motion, const glm::vec3& n) {
  const float into = glm::dot(motion, n);
  return into < 0.f ? motion - n * into : motion;
}

namespace {

// True when v enters no plane except those at `skip_a` and `skip_b` (already satisfied).
bool enters_none(std::span<const glm::vec3> normals, const glm::vec3& v, std::size_t skip_a, std::size_t skip_b,
                 float tolerance) {
  for (std::size_t k = 0; k < normals.size(); ++k)
    if (k != skip_a && k != skip_b && glm::dot(v, normals[k]) < -tolerance) return false;
  return true;
}

glm::vec3 solve_unchecked(std::span<const glm::vec3> normals, const glm::vec3& motion, float tolerance) {
  constexpr std::size_t none = ~std::size_t{0};
  if (enters_none(normals, motion, none, none, tolerance)) return motion;

  // One plane: the projection that respects every other plane too.
  for (std::size_t i = 0; i < normals.size(); ++i) {
    if (glm::dot(motion, normals[i]) >= 0.f) continue;
    const glm::vec3 v = clip_to_plane(motion, normals[i]);
    if (enters_none(normals, v, i, none, tolerance)) return v;
  }

  // Two planes: slide along their crease.
  for (std::size_t i = 0; i < normals.size(); ++i) {
    for (std::size_t j = i + 1; j < normals.size(); ++j) {
      const glm::vec3 crease = glm::cross(normals[i], normals[j]);
      const float len2 = glm::dot(crease, crease);
      if (len2 < 1e-12f) continue; // parallel planes have no crease; one-plane cases covered them
      const glm::vec3 v = crease * (glm::dot(motion, crease) / len2);
      if (enters_none(normals, v, i, j, tolerance)) return v;
    }
  }
  return glm::vec3(0.f); // wedged by three or more planes
}

} // namespace

glm::vec3 solve_slide(std::span<const glm::vec3> normals, const glm::vec3& motion, const glm::vec3& original,
                      float tolerance) {
  const glm::vec3 v = solve_unchecked(normals, motion, tolerance);
  // Never turn back against the frame's original motion: that is where jitter comes from.
  return glm::dot(v, original) <= 0.f ? glm::vec3(0.f) : v;
}

} // namespace glide
