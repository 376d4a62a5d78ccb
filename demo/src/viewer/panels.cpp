#include "panels.hpp"

#include <imgui.h>

#include <cstdio>

namespace glide::viewer {
namespace {

const char* ground_name(GroundState s) {
  switch (s) {
  case GroundState::on_ground:
    return "on ground";
  case GroundState::on_steep_ground:
    return "on steep ground";
  case GroundState::in_air:
    return "in air";
  }
  return "?";
}

} // namespace

PanelActions tuning_panel(Walker& walker, DebugDrawOptions& debug, PanelState& state,
                          const std::string& settings_file) {
  PanelActions actions;
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(360, ImGui::GetIO().DisplaySize.y - 20), ImGuiCond_FirstUseEver);
  ImGui::Begin("Tuning");
  // Buttons and the status line first: always in view above the groups, which may scroll.
  ImGui::TextDisabled("%s", settings_file.c_str());
  actions.save_settings = ImGui::Button("Save settings");
  ImGui::SameLine();
  actions.load_settings = ImGui::Button("Load settings");
  actions.reload_level = ImGui::Button("Reload level (F5)");
  ImGui::SameLine();
  actions.record_case = ImGui::Button("Record case (F9)");
  if (!state.status.empty()) {
    const ImVec4 color = state.status_is_error ? ImVec4(1.f, 0.4f, 0.35f, 1.f) : ImVec4(0.6f, 1.f, 0.6f, 1.f);
    ImGui::PushTextWrapPos(0.f);
    ImGui::TextColored(color, "%s", state.status.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::Separator();
  ControllerSettings s = walker.controller().settings();
  bool changed = false;
  ImGui::PushItemWidth(170);
  if (ImGui::CollapsingHeader("Shape", ImGuiTreeNodeFlags_DefaultOpen)) {
    changed |= ImGui::SliderFloat("radius (m)", &s.radius, 0.05f, 1.5f, "%.3f");
    changed |= ImGui::SliderFloat("height (m)", &s.height, 0.1f, 4.f, "%.3f");
  }
  if (ImGui::CollapsingHeader("Movement", ImGuiTreeNodeFlags_DefaultOpen)) {
    changed |= ImGui::SliderFloat("skin width (m)", &s.skin_width, 0.0005f, 0.2f, "%.4f", ImGuiSliderFlags_Logarithmic);
    changed |=
        ImGui::SliderFloat("min move (m)", &s.min_move_distance, 0.f, 0.01f, "%.6f", ImGuiSliderFlags_Logarithmic);
    changed |= ImGui::SliderFloat("recovery (m/s)", &s.recovery_speed, 0.1f, 20.f, "%.2f");
    ImGui::SliderFloat("walk speed (m/s)", &walker.tuning.walk_speed, 0.5f, 15.f, "%.1f");
    ImGui::SliderFloat("jump speed (m/s)", &walker.tuning.player.jump_speed, 0.f, 15.f, "%.1f");
    ImGui::SliderFloat("gravity (m/s2)", &walker.tuning.player.gravity, 0.f, 40.f, "%.1f");
  }
  if (ImGui::CollapsingHeader("Slopes & steps", ImGuiTreeNodeFlags_DefaultOpen)) {
    changed |= ImGui::SliderAngle("max slope", &s.max_slope, 0.f, 89.f);
    changed |= ImGui::SliderFloat("step height (m)", &s.step_height, 0.f, 1.f, "%.3f");
    changed |= ImGui::SliderFloat("step min fwd (m)", &s.step_min_forward, 0.f, 0.5f, "%.3f");
    changed |= ImGui::SliderAngle("step wall angle", &s.step_max_wall_angle, 0.f, 90.f);
    changed |= ImGui::SliderFloat("floor snap (m)", &s.floor_snap_distance, 0.f, 1.f, "%.3f");
  }
  if (ImGui::CollapsingHeader("Solver", ImGuiTreeNodeFlags_DefaultOpen)) {
    changed |= ImGui::SliderInt("max iterations", &s.max_iterations, 1, 16);
    int method = s.toi_method == ToiMethod::bisection ? 1 : 0;
    if (ImGui::Combo("toi method", &method, "conservative advancement\0bisection\0")) {
      s.toi_method = method == 1 ? ToiMethod::bisection : ToiMethod::conservative_advancement;
      changed = true;
    }
    changed |=
        ImGui::SliderFloat("toi tolerance (m)", &s.toi_tolerance, 1e-6f, 0.01f, "%.6f", ImGuiSliderFlags_Logarithmic);
  }
  if (ImGui::CollapsingHeader("Debug draw", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::Checkbox("closest points", &debug.closest_points);
    ImGui::Checkbox("contact normals", &debug.contact_normals);
    ImGui::Checkbox("sweep hits", &debug.sweep_hits);
    ImGui::Checkbox("ground normal", &debug.ground_normal);
    ImGui::Checkbox("stair probe", &debug.stair_probe);
    ImGui::Checkbox("iterations", &debug.iterations);
    ImGui::SliderFloat("closest range (m)", &debug.closest_range, 0.f, 2.f, "%.2f");
  }
  ImGui::PopItemWidth();
  if (changed) {
    // A refused edit leaves the controller as it was: the sliders snap back next frame.
    const std::string refused = walker.apply_settings(s);
    state.report(refused, !refused.empty());
  }

  ImGui::End();
  return actions;
}

void stats_panel(const Walker& walker, const std::string& level_name, float frame_ms) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x - 290, 10), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(280, 0), ImGuiCond_Always);
  ImGui::Begin("Stats", nullptr, ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove);
  const MoveStats& st = walker.stats();
  const MoveResult& r = walker.last();
  const glm::vec3 p = walker.controller().position();
  ImGui::Text("level: %s", level_name.c_str());
  ImGui::Text("move: %.1f us (avg %.1f us)", st.last_us, st.average_us);
  ImGui::Text("iterations: %d of %d", st.iterations, walker.controller().settings().max_iterations);
  ImGui::Text("ground: %s", ground_name(r.ground.state));
  ImGui::Text("hits: %d  recovered: %.4f m", r.hit_count, r.recovered);
  ImGui::Text("sides %d above %d below %d", r.flags.sides, r.flags.above, r.flags.below);
  ImGui::Text("feet: %.2f %.2f %.2f", p.x, p.y, p.z);
  ImGui::Text("frame: %.1f ms", frame_ms);
  ImGui::TextDisabled("WASD walk, space jump, right drag look");
  ImGui::TextDisabled("F5 reload, F9 record case, Esc quit");
  ImGui::End();
}

} // namespace glide::viewer
