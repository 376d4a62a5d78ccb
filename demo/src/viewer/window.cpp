#include "window.hpp"

#include "gl.hpp"

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <cstdlib>

namespace glide::viewer {
namespace {

std::string last_glfw_error;

void record_glfw_error(int code, const char* description) {
  last_glfw_error = "GLFW error " + std::to_string(code) + ": " + (description ? description : "?");
}

bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0';
}

} // namespace

Window::Window(int width, int height, const std::string& title, int samples, bool vsync) {
  // Checked first so the message says what is missing rather than GLFW's generic failure.
  if (!env_set("DISPLAY") && !env_set("WAYLAND_DISPLAY"))
    throw DisplayUnavailable("no display: neither DISPLAY nor WAYLAND_DISPLAY is set");
  glfwSetErrorCallback(record_glfw_error);
  if (!glfwInit()) throw DisplayUnavailable("cannot open the display (" + last_glfw_error + ")");
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, samples);
  window_ = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
  if (!window_) {
    const std::string reason = last_glfw_error;
    glfwTerminate();
    throw DisplayUnavailable("no OpenGL 3.3 core context (" + reason + ")");
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(vsync ? 1 : 0);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr; // panel layout is fixed; no imgui.ini next to the user's files
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");
}

Window::~Window() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window_);
  glfwTerminate();
}

bool Window::should_close() const { return glfwWindowShouldClose(window_) != 0; }
void Window::request_close() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }
void Window::set_title(const std::string& title) { glfwSetWindowTitle(window_, title.c_str()); }

glm::ivec2 Window::framebuffer_size() const {
  glm::ivec2 size{0};
  glfwGetFramebufferSize(window_, &size.x, &size.y);
  return size;
}

void Window::begin_frame() {
  glfwPollEvents();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

void Window::render_ui() {
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Window::end_frame() { glfwSwapBuffers(window_); }

} // namespace glide::viewer
