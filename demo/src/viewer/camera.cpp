#include "camera.hpp"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace glide::viewer {

void Camera::look(float dx, float dy, float sensitivity) {
  yaw += dx * sensitivity;
  pitch = std::clamp(pitch + dy * sensitivity, -0.2f, 1.4f);
}

glm::vec3 Camera::forward() const { return {std::sin(yaw), 0.f, -std::cos(yaw)}; }
glm::vec3 Camera::right() const { return {std::cos(yaw), 0.f, std::sin(yaw)}; }

glm::vec3 Camera::eye(const glm::vec3& feet) const {
  const glm::vec3 target = feet + glm::vec3(0.f, target_height, 0.f);
  const glm::vec3 back = -forward() * std::cos(pitch) + glm::vec3(0.f, std::sin(pitch), 0.f);
  return target + distance * back;
}

glm::mat4 Camera::view_projection(const glm::vec3& feet, float aspect) const {
  const glm::vec3 target = feet + glm::vec3(0.f, target_height, 0.f);
  const glm::mat4 view = glm::lookAt(eye(feet), target, glm::vec3(0.f, 1.f, 0.f));
  const glm::mat4 projection = glm::perspective(glm::radians(60.f), aspect, 0.05f, 500.f);
  return projection * view;
}

} // namespace glide::viewer
