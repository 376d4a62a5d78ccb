#pragma once

#include <glm/vec2.hpp>

struct GLFWwindow;

namespace glide::viewer {

/// One frame's intent, from the keyboard and mouse or from the autopilot script.
struct FrameInput {
  glm::vec2 walk{0.f};        ///< x right, y forward, each in [-1, 1]
  bool jump = false;          ///< space
  glm::vec2 look{0.f};        ///< mouse motion while the right button is held (pixels)
  bool reload = false;        ///< F5, pressed this frame
  bool record = false;        ///< F9, pressed this frame
  bool spawn_walkers = false; ///< F6, pressed this frame
  bool clear_walkers = false; ///< F7, pressed this frame
  bool quit = false;          ///< Esc
};

/// Polls the keyboard and mouse; key presses are reported on the frame they go down.
class Input {
public:
  /// `ui_keyboard` / `ui_mouse`: the panels want them (typing in a field, dragging a slider).
  FrameInput poll(GLFWwindow* window, bool ui_keyboard, bool ui_mouse);

private:
  bool pressed(GLFWwindow* window, int key, bool& was_down);
  bool reload_down_ = false, record_down_ = false, spawn_down_ = false, clear_down_ = false;
  bool looking_ = false;
  double last_x_ = 0.0, last_y_ = 0.0;
};

/// The fixed input script of --autopilot: walk, turn, jump, strafe, walk back, with a level
/// reload (F5) at frame 90 and a case recording (F9) at frame 200. Frame 0 is the first frame;
/// the script repeats every 480 frames.
FrameInput autopilot_input(int frame);

} // namespace glide::viewer
