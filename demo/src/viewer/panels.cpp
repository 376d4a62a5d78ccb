#include "panels.hpp"

#include <glide/controller/settings_schema.hpp>

#include <imgui.h>

#include <cstdio>
#include <string>
#include <string_view>

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

// One row's slider (or combo, or check box) on the panel; numbers without a UI range are not shown.
template <class S>
bool field_widget(const fields::Field<S>& f, S& s) {
  using fields::Kind;
  const std::string label =
      fields::member_name(f) + (f.kind == Kind::real ? std::string(" (") + f.unit + ")" : std::string());
  const auto lo = static_cast<float>(f.ui.min), hi = static_cast<float>(f.ui.max);
  if (f.kind == Kind::enumeration) {
    int value = static_cast<int>(fields::get_number(s, f));
    std::string items;
    for (const char* name : f.names) items.append(name).push_back('\0');
    if (!ImGui::Combo(label.c_str(), &value, items.c_str())) return false;
    fields::set_number(s, f, value);
    return true;
  }
  if (bool* v = fields::member_ptr<bool>(s, f)) return ImGui::Checkbox(label.c_str(), v);
  if (f.ui.max <= f.ui.min) return false;
  if (f.kind == Kind::angle) return ImGui::SliderAngle(label.c_str(), fields::member_ptr<float>(s, f), lo, hi);
  if (int* v = fields::member_ptr<int>(s, f))
    return ImGui::SliderInt(label.c_str(), v, static_cast<int>(lo), static_cast<int>(hi));
  if (float* v = fields::member_ptr<float>(s, f))
    return ImGui::SliderFloat(label.c_str(), v, lo, hi, f.ui.log ? "%.6f" : "%.3f",
                              f.ui.log ? ImGuiSliderFlags_Logarithmic : ImGuiSliderFlags_None);
  return false;
}

template <class S>
bool group_widgets(const fields::Table<S>& table, const char* group, S& s) {
  bool changed = false;
  for (const fields::Field<S>& f : table.rows)
    if (std::string_view(f.group) == group) changed |= field_widget(f, s);
  return changed;
}

} // namespace

PanelActions tuning_panel(Walker& walker, const CrowdWalkers& crowd, DebugDrawOptions& debug, PanelState& state,
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
  // The level's lifts, doors and platforms: stopped, they stand still and carry nothing.
  ImGui::Checkbox("Pause moving pieces", &walker.pause_pieces);
  ImGui::SameLine();
  ImGui::TextDisabled("%zu moving, %.1f s", walker.moving_pieces().size(), walker.piece_time());
  ImGui::Separator();
  ControllerSettings s = walker.controller().settings();
  const fields::Table<ControllerSettings> table = controller_settings_table();
  bool changed = false;
  ImGui::PushItemWidth(170);
  for (const char* group : {"Shape", "Movement", "Slopes & steps", "Solver"}) {
    if (!ImGui::CollapsingHeader(group, ImGuiTreeNodeFlags_DefaultOpen)) continue;
    changed |= group_widgets(table, group, s);
    if (std::string_view(group) == "Movement") {
      // The game's side: applied as they change.
      ImGui::SliderFloat("walk speed (m/s)", &walker.tuning.walk_speed, 0.5f, 15.f, "%.1f");
      group_widgets(player_settings_table(), group, walker.tuning.player);
    }
  }
  if (ImGui::CollapsingHeader("Walkers", ImGuiTreeNodeFlags_DefaultOpen)) {
    // A crowd around the character: they walk to random goals near it and it bumps into them.
    ImGui::SliderInt("count", &state.walker_count, 1, 500);
    actions.spawn_walkers = ImGui::Button("Spawn walkers (F6)");
    ImGui::SameLine();
    actions.clear_walkers = ImGui::Button("Clear (F7)");
    ImGui::TextDisabled("%zu walking, update %.0f us", crowd.size(), crowd.last_update_us());
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
  ImGui::Text("iterations: %d of %d", st.iterations, walker.controller().settings().max_slide_iterations);
  ImGui::Text("ground: %s", ground_name(r.ground.state));
  ImGui::Text("hits: %d  recovered: %.4f m", r.hit_count, r.recovered);
  ImGui::Text("sides %d above %d below %d", r.flags.sides, r.flags.above, r.flags.below);
  ImGui::Text("feet: %.2f %.2f %.2f", p.x, p.y, p.z);
  ImGui::Text("frame: %.1f ms", frame_ms);
  ImGui::TextDisabled("WASD walk, space jump, right drag look");
  ImGui::TextDisabled("F5 reload, F9 record case, Esc quit");
  ImGui::TextDisabled("F6 spawn walkers, F7 clear them");
  ImGui::End();
}

} // namespace glide::viewer
