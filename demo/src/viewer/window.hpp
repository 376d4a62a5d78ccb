#pragma once

#include <glm/vec2.hpp>

#include <stdexcept>
#include <string>

struct GLFWwindow;

namespace glide::viewer {

/// No display, or no OpenGL 3.3 core context on it: the viewer cannot run here.
class DisplayUnavailable : public std::runtime_error {
public:
  explicit DisplayUnavailable(const std::string& message) : std::runtime_error(message) {}
};

/// A GLFW window with an OpenGL 3.3 core context and Dear ImGui on it. One per process.
class Window {
public:
  /// Throws DisplayUnavailable naming the reason (no DISPLAY, GLFW or context failure).
  /// `samples`: multisampling (0 = off; software renderers draw much faster without).
  /// `vsync`: wait for the display between frames (off for scripted runs).
  Window(int width, int height, const std::string& title, int samples = 4, bool vsync = true);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  GLFWwindow* handle() const { return window_; }
  bool should_close() const;
  void request_close();
  void set_title(const std::string& title);
  /// Framebuffer size (pixels).
  glm::ivec2 framebuffer_size() const;

  /// Polls events and starts an ImGui frame.
  void begin_frame();
  /// Draws ImGui over the scene. Call before screenshots and end_frame.
  void render_ui();
  /// Presents the frame.
  void end_frame();

private:
  GLFWwindow* window_ = nullptr;
};

} // namespace glide::viewer
