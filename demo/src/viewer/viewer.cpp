#include "viewer.hpp"
#include "view_options.hpp"

#include "camera.hpp"
#include "crowd_walkers.hpp"
#include "debug_draw.hpp"
#include "input.hpp"
#include "mesh.hpp"
#include "panels.hpp"
#include "renderer.hpp"
#include "screenshot.hpp"
#include "walker.hpp"
#include "window.hpp"

#include <glide/cases/record.hpp>
#include <glide/cases/settings_json.hpp>
#include <glide/error.hpp>

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <memory>
#include <ostream>

namespace glide::viewer {
namespace {

constexpr float k_autopilot_dt = 1.f / 60.f; // fixed step: scripted runs draw the same frames

// Case names unique across runs of the viewer, so a new recording never replaces an older one.
std::string case_name(int count) {
  const std::time_t now = std::time(nullptr);
  char stamp[32] = {};
  std::strftime(stamp, sizeof stamp, "%Y%m%d_%H%M%S", std::localtime(&now));
  return std::string("viewer_") + stamp + "_" + std::to_string(count);
}

class ViewerApp {
public:
  ViewerApp(const ViewerOptions& options, const LevelLoader& load_level, std::unique_ptr<ViewerLevel> level,
            const ControllerSettings& settings, Window& window, std::ostream& out)
      : options_(options), load_level_(load_level), level_(std::move(level)), window_(window), out_(out),
        settings_file_(options.settings_file.empty() ? "glide_viewer_settings.json" : options.settings_file) {
    walker_ = std::make_unique<Walker>(level_->world, level_->moving, settings, level_->spawn);
    walker_->tuning.player = options.player;
    crowd_ = std::make_unique<CrowdWalkers>(level_->world);
    renderer_.set_walker_capsule(ControllerSettings{}.radius, ControllerSettings{}.height);
    rebuild_meshes();
    if (options.walkers > 0) {
      panel_.walker_count = options.walkers;
      spawn_walkers();
    }
    window_.set_title("glide viewer: " + level_->name);
  }

  int run() {
    auto last = std::chrono::steady_clock::now();
    int frame = 0;
    while (!window_.should_close()) {
      window_.begin_frame();
      const auto now = std::chrono::steady_clock::now();
      const float real_dt = std::chrono::duration<float>(now - last).count();
      last = now;
      const float dt = options_.autopilot ? k_autopilot_dt : std::clamp(real_dt, 1e-3f, 0.05f);

      const ImGuiIO& io = ImGui::GetIO();
      FrameInput in = input_.poll(window_.handle(), io.WantCaptureKeyboard, io.WantCaptureMouse);
      if (options_.autopilot) {
        const bool quit = in.quit; // Esc still works
        in = autopilot_input(frame);
        in.quit = quit;
      }
      if (in.quit) window_.request_close();
      camera_.look(in.look.x, in.look.y);
      camera_.turn_with_ground(walker_->step(in, camera_.forward(), camera_.right(), dt).yaw_delta);
      // The walkers move after the character, which met them where they stood at the frame's start.
      crowd_->step(walker_->controller().position(), dt);
      walker_->controller().set_characters(crowd_->obstacles());

      const PanelActions actions = tuning_panel(*walker_, *crowd_, debug_, panel_, settings_file_);
      stats_panel(*walker_, level_->name, real_dt * 1000.f);
      if (in.reload || actions.reload_level) reload();
      if (in.record || actions.record_case) record();
      if (actions.save_settings) save();
      if (actions.load_settings) load();
      if (in.spawn_walkers || actions.spawn_walkers) spawn_walkers();
      if (in.clear_walkers || actions.clear_walkers) clear_walkers();
      if (shape_changed()) rebuild_meshes();

      draw();
      ++frame;
      if (options_.frames > 0 && frame >= options_.frames) window_.request_close();
      // The screenshot is the last frame, however the run ends (--frames, Esc, the close button).
      if (window_.should_close() && !options_.screenshot.empty()) {
        const glm::ivec2 size = window_.framebuffer_size();
        save_screenshot(options_.screenshot, size.x, size.y);
        out_ << "screenshot: " << options_.screenshot << " (" << size.x << "x" << size.y << ")\n";
      }
      window_.end_frame();
    }
    return 0;
  }

private:
  void draw() {
    const glm::ivec2 size = window_.framebuffer_size();
    if (size.x <= 0 || size.y <= 0) return; // minimised
    const glm::vec3 feet = walker_->controller().position();
    renderer_.begin(size.x, size.y,
                    camera_.view_projection(feet, static_cast<float>(size.x) / static_cast<float>(size.y)));
    renderer_.draw_level();
    const auto& moving = walker_->moving_pieces();
    for (std::size_t i = 0; i < moving.size(); ++i) renderer_.draw_piece(i, level_->world.transform(moving[i].id));
    renderer_.draw_capsule(feet);
    for (const CapsuleObstacle& o : crowd_->obstacles())
      renderer_.draw_walker(o.capsule.segment.a - o.capsule.radius * glm::vec3(0.f, 1.f, 0.f));
    const DebugScene scene = debug_scene(level_->world, walker_->controller(), walker_->last(), debug_);
    for (const DebugSphere& s : scene.spheres) renderer_.draw_sphere(s.centre, debug_.sphere_radius, s.color);
    renderer_.draw_lines(scene.lines);
    window_.render_ui();
  }

  bool shape_changed() const {
    const ControllerSettings& s = walker_->controller().settings();
    return s.radius != drawn_.radius || s.height != drawn_.height || s.max_slope != drawn_.max_slope;
  }

  void rebuild_meshes() {
    drawn_ = walker_->controller().settings();
    std::vector<PieceId> moving_ids;
    std::vector<TriangleMesh> piece_meshes;
    for (const demo::MovingPiece& m : walker_->moving_pieces()) {
      moving_ids.push_back(m.id);
      piece_meshes.push_back(piece_mesh(level_->world, m.id, drawn_.max_slope));
    }
    renderer_.set_level(level_mesh(level_->world, drawn_.max_slope, moving_ids));
    renderer_.set_pieces(piece_meshes);
    renderer_.set_capsule(drawn_.radius, drawn_.height);
  }

  void reload() {
    try {
      auto fresh = std::make_unique<ViewerLevel>(load_level_());
      const WalkerTuning tuning = walker_->tuning;
      const bool paused = walker_->pause_pieces;
      // The new walker refers to the new world, so it is made before the old level goes.
      walker_ = std::make_unique<Walker>(fresh->world, fresh->moving, walker_->controller().settings(), fresh->spawn);
      walker_->tuning = tuning;
      walker_->pause_pieces = paused;
      // So are the walkers, as many as there were, around the character where it starts again.
      const std::size_t walkers = crowd_->size();
      crowd_ = std::make_unique<CrowdWalkers>(fresh->world);
      level_ = std::move(fresh);
      if (walkers > 0) spawn_walkers(static_cast<int>(walkers));
      rebuild_meshes();
      panel_.report("level reloaded: " + level_->name, false);
    } catch (const Error& e) {
      panel_.report(std::string("reload failed: ") + e.what(), true);
    }
    out_ << panel_.status << "\n";
  }

  // Replaces the walkers with `count` (the panel's count when negative) around the character.
  void spawn_walkers(int count = -1) {
    const int wanted = count < 0 ? panel_.walker_count : count;
    walker_->controller().set_characters({});
    const std::size_t placed = crowd_->spawn(walker_->controller(), wanted);
    walker_->controller().set_characters(crowd_->obstacles());
    panel_.report("spawned " + std::to_string(placed) + " walkers" +
                      (placed < static_cast<std::size_t>(wanted) ? " (no room for more around the character)" : ""),
                  placed < static_cast<std::size_t>(wanted));
    out_ << panel_.status << "\n";
  }

  void clear_walkers() {
    walker_->controller().set_characters({});
    crowd_->clear();
    panel_.report("walkers cleared", false);
  }

  void record() {
    const Controller& c = walker_->controller();
    const ControllerSettings& s = c.settings();
    const std::string name = case_name(++records_);
    try {
      const SweepSettings sweep{.method = s.toi_method, .tolerance = s.toi_tolerance};
      RecordOptions record_options;
      record_options.description = "recorded by glide demo --view on " + level_->name;
      record_case(options_.record_file, name, level_->world, c.capsule(), walker_->stats().motion, sweep,
                  record_options);
      panel_.report("recorded case " + name + " in " + options_.record_file, false);
    } catch (const Error& e) {
      panel_.report(std::string("recording failed: ") + e.what(), true);
    }
    out_ << panel_.status << "\n";
  }

  void save() {
    try {
      cases::save_controller_settings(settings_file_, walker_->controller().settings());
      panel_.report("settings saved to " + settings_file_, false);
    } catch (const Error& e) {
      panel_.report(e.what(), true);
    }
  }

  void load() {
    try {
      const ControllerSettings loaded =
          cases::load_controller_settings(settings_file_, walker_->controller().settings());
      const std::string refused = walker_->apply_settings(loaded);
      if (refused.empty()) {
        panel_.report("settings loaded from " + settings_file_, false);
      } else {
        panel_.report("settings from " + settings_file_ + " refused: " + refused, true);
      }
    } catch (const Error& e) {
      panel_.report(e.what(), true);
    }
  }

  const ViewerOptions& options_;
  const LevelLoader& load_level_;
  std::unique_ptr<ViewerLevel> level_;
  Window& window_;
  std::ostream& out_;
  std::string settings_file_;
  Renderer renderer_;
  std::unique_ptr<Walker> walker_;
  std::unique_ptr<CrowdWalkers> crowd_;
  Camera camera_;
  Input input_;
  DebugDrawOptions debug_;
  PanelState panel_;
  ControllerSettings drawn_; // the settings the meshes were built for
  int records_ = 0;
};

} // namespace

bool viewer_available() { return true; }

int run_viewer(const ViewerOptions& options, const LevelLoader& load_level, std::ostream& out, std::ostream& err) {
  std::unique_ptr<ViewerLevel> level;
  ControllerSettings settings = options.controller;
  try {
    level = std::make_unique<ViewerLevel>(load_level());
    if (!options.settings_file.empty() && std::filesystem::exists(options.settings_file))
      settings = cases::load_controller_settings(options.settings_file, settings);
    validate(settings);
  } catch (const Error& e) {
    err << "glide demo --view: " << e.what() << "\n";
    return 1;
  }
  try {
    // Scripted runs (tests under a software renderer) skip multisampling and vsync: several times faster.
    Window window(options.width, options.height, "glide viewer", options.autopilot ? 0 : 4, !options.autopilot);
    ViewerApp app(options, load_level, std::move(level), settings, window, out);
    return app.run();
  } catch (const DisplayUnavailable& e) {
    err << "glide demo --view: cannot open a window: " << e.what()
        << ".\nThe viewer needs a display (a desktop, or xvfb-run); `glide demo` without --view runs "
           "headless.\n";
    return 2;
  } catch (const Error& e) {
    err << "glide demo --view: " << e.what() << "\n";
    return 1;
  }
}

} // namespace glide::viewer
