#include "input.hpp"

#include "gl.hpp"

namespace glide::viewer {

bool Input::pressed(GLFWwindow* window, int key, bool& was_down) {
  const bool down = glfwGetKey(window, key) == GLFW_PRESS;
  const bool edge = down && !was_down;
  was_down = down;
  return edge;
}

FrameInput Input::poll(GLFWwindow* window, bool ui_keyboard, bool ui_mouse) {
  FrameInput in;
  const auto held = [&](int key) { return !ui_keyboard && glfwGetKey(window, key) == GLFW_PRESS; };
  in.walk.y = (held(GLFW_KEY_W) ? 1.f : 0.f) - (held(GLFW_KEY_S) ? 1.f : 0.f);
  in.walk.x = (held(GLFW_KEY_D) ? 1.f : 0.f) - (held(GLFW_KEY_A) ? 1.f : 0.f);
  in.jump = held(GLFW_KEY_SPACE);
  in.reload = pressed(window, GLFW_KEY_F5, reload_down_);
  in.record = pressed(window, GLFW_KEY_F9, record_down_);
  in.spawn_walkers = pressed(window, GLFW_KEY_F6, spawn_down_);
  in.clear_walkers = pressed(window, GLFW_KEY_F7, clear_down_);
  in.quit = glfwGetKey(window, GLFW_KEY_ESCAPE) == GLFW_PRESS;

  double x = 0.0, y = 0.0;
  glfwGetCursorPos(window, &x, &y);
  const bool button = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS;
  // A drag that starts over a panel belongs to the panel.
  if (button && (looking_ || !ui_mouse)) {
    if (looking_) in.look = {static_cast<float>(x - last_x_), static_cast<float>(y - last_y_)};
    looking_ = true;
  } else {
    looking_ = false;
  }
  last_x_ = x;
  last_y_ = y;
  return in;
}

FrameInput autopilot_input(int frame) {
  FrameInput in;
  const int t = frame % 480;
  if (t < 120) {
    in.walk = {0.f, 1.f}; // forward
  } else if (t < 200) {
    in.walk = {0.f, 1.f};
    in.look = {4.f, 0.f}; // walk while turning right
  } else if (t < 260) {
    in.walk = {1.f, 0.f}; // strafe
    in.jump = t == 210;
  } else if (t < 380) {
    in.walk = {0.f, -1.f}; // back
    in.jump = t == 300;
  } else {
    in.look = {-3.f, 0.5f};
  }
  // The keys a person would press once: reload the level, then record a case.
  in.reload = t == 90;
  in.record = t == 200;
  return in;
}

} // namespace glide::viewer
