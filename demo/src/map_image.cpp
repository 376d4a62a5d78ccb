#include "map_image.hpp"

#include <glide/error.hpp>

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

// stb's writer and font are header-only; both are compiled here with static linkage so they
// never clash with another copy in the program (the viewer's screenshots).
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_easy_font.h>
#include <stb_image_write.h>

namespace glide::demo {
namespace {

struct Canvas {
  MapImage& image;
  glm::vec2 min; // world (x, z) of pixel (0, 0)'s corner (m)
  float scale;   // pixels per metre

  glm::vec2 to_pixel(float x, float z) const { return {(x - min.x) * scale, (z - min.y) * scale}; }

  void blend(int x, int y, const Rgb& c, float alpha = 1.f) {
    if (x < 0 || y < 0 || x >= image.width || y >= image.height) return;
    const std::size_t i =
        (static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) + static_cast<std::size_t>(x)) * 3u;
    for (std::size_t k = 0; k < 3; ++k) {
      const float v = static_cast<float>(image.rgb[i + k]) * (1.f - alpha) + static_cast<float>(c[k]) * alpha;
      image.rgb[i + k] = static_cast<std::uint8_t>(std::clamp(v + 0.5f, 0.f, 255.f));
    }
  }
  void rect(int x0, int y0, int x1, int y1, const Rgb& c, float alpha = 1.f) {
    for (int y = std::max(y0, 0); y < std::min(y1, image.height); ++y)
      for (int x = std::max(x0, 0); x < std::min(x1, image.width); ++x) blend(x, y, c, alpha);
  }
  void disc(glm::vec2 p, float r, const Rgb& c) {
    for (int y = static_cast<int>(std::floor(p.y - r)); y <= static_cast<int>(std::ceil(p.y + r)); ++y)
      for (int x = static_cast<int>(std::floor(p.x - r)); x <= static_cast<int>(std::ceil(p.x + r)); ++x) {
        const glm::vec2 d = glm::vec2(static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f) - p;
        if (glm::dot(d, d) <= r * r) blend(x, y, c);
      }
  }
  void line(glm::vec2 a, glm::vec2 b, float r, const Rgb& c) {
    const float length = glm::length(b - a);
    const int steps = std::max(1, static_cast<int>(std::ceil(length / std::max(r, 0.5f))));
    for (int i = 0; i <= steps; ++i) disc(a + (b - a) * (static_cast<float>(i) / static_cast<float>(steps)), r, c);
  }
  void text(int x, int y, const std::string& s, const Rgb& c, int zoom = 2) {
    // stb_easy_font gives axis-aligned quads of 4 vertices (x, y, z floats, then 4 color bytes).
    static char buffer[60000];
    std::string copy = s;
    const int quads = stb_easy_font_print(0.f, 0.f, copy.data(), nullptr, buffer, sizeof buffer);
    for (int q = 0; q < quads; ++q) {
      const auto* v = reinterpret_cast<const float*>(buffer + q * 64);
      const int qx0 = x + static_cast<int>(v[0]) * zoom, qy0 = y + static_cast<int>(v[1]) * zoom;
      const auto* v2 = reinterpret_cast<const float*>(buffer + q * 64 + 32);
      const int qx1 = x + static_cast<int>(v2[0]) * zoom, qy1 = y + static_cast<int>(v2[1]) * zoom;
      rect(qx0, qy0, qx1, qy1, c);
    }
  }
};

Rgb mix(const Rgb& a, const Rgb& b, float t) {
  t = std::clamp(t, 0.f, 1.f);
  Rgb out{};
  for (std::size_t k = 0; k < 3; ++k)
    out[k] = static_cast<std::uint8_t>(static_cast<float>(a[k]) +
                                       (static_cast<float>(b[k]) - static_cast<float>(a[k])) * t + 0.5f);
  return out;
}

Rgb scaled(const Rgb& a, float f) {
  Rgb out{};
  for (std::size_t k = 0; k < 3; ++k)
    out[k] = static_cast<std::uint8_t>(std::clamp(static_cast<float>(a[k]) * f, 0.f, 255.f));
  return out;
}

constexpr Rgb k_background{200, 200, 200};
constexpr int k_legend_width = 420;   // pixels right of the map
constexpr float k_contour_step = 1.f; // terrain contour lines every metre (m)
constexpr Rgb k_low_ground{110, 150, 85};
constexpr Rgb k_mid_ground{150, 130, 90};
constexpr Rgb k_high_ground{225, 220, 210};
constexpr Rgb k_piece_low{120, 120, 135};
constexpr Rgb k_piece_high{240, 240, 245};
constexpr Rgb k_piece_edge{45, 45, 55};

Rgb terrain_color(float height, const glm::vec3& normal) {
  const Rgb base = height < 5.f ? mix(k_low_ground, k_mid_ground, height / 5.f)
                                : mix(k_mid_ground, k_high_ground, (height - 5.f) / 6.f);
  const glm::vec3 light = glm::normalize(glm::vec3(-1.f, 2.f, -1.f)); // from the top left
  return scaled(base, 0.55f + 0.5f * std::max(0.f, glm::dot(normal, light)));
}

// Convex hull (Andrew's monotone chain) of points in the picture plane, counter-clockwise.
std::vector<glm::vec2> hull_2d(std::vector<glm::vec2> p) {
  std::sort(p.begin(), p.end(),
            [](const glm::vec2& a, const glm::vec2& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  if (p.size() < 3) return p;
  const auto cross = [](const glm::vec2& o, const glm::vec2& a, const glm::vec2& b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  };
  std::vector<glm::vec2> h(2 * p.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    while (k >= 2 && cross(h[k - 2], h[k - 1], p[i]) <= 0.f) --k;
    h[k++] = p[i];
  }
  for (std::size_t i = p.size() - 1, t = k + 1; i-- > 0;) {
    while (k >= t && cross(h[k - 2], h[k - 1], p[i]) <= 0.f) --k;
    h[k++] = p[i];
  }
  h.resize(k - 1);
  return h;
}

void fill_polygon(Canvas& canvas, const std::vector<glm::vec2>& poly, const Rgb& c, float alpha) {
  if (poly.size() < 3) return;
  glm::vec2 lo = poly[0], hi = poly[0];
  for (const auto& q : poly) lo = glm::min(lo, q), hi = glm::max(hi, q);
  for (int y = static_cast<int>(std::floor(lo.y)); y <= static_cast<int>(std::ceil(hi.y)); ++y)
    for (int x = static_cast<int>(std::floor(lo.x)); x <= static_cast<int>(std::ceil(hi.x)); ++x) {
      const glm::vec2 p(static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f);
      bool inside = true;
      for (std::size_t i = 0; i < poly.size() && inside; ++i) {
        const glm::vec2 a = poly[i], b = poly[(i + 1) % poly.size()];
        inside = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) >= 0.f;
      }
      if (inside) canvas.blend(x, y, c, alpha);
    }
  for (std::size_t i = 0; i < poly.size(); ++i) canvas.line(poly[i], poly[(i + 1) % poly.size()], 0.5f, k_piece_edge);
}

Rgb ground_color(GroundState s) {
  switch (s) {
  case GroundState::on_ground:
    return k_on_ground_color;
  case GroundState::on_steep_ground:
    return k_steep_color;
  case GroundState::in_air:
    break;
  }
  return k_in_air_color;
}

void draw_legend(Canvas& canvas, const DemoLevel& level) {
  struct Entry {
    Rgb color;
    const char* label;
  };
  const Entry entries[] = {{k_on_ground_color, "path: on ground"},
                           {k_steep_color, "path: on steep ground"},
                           {k_in_air_color, "path: in air"},
                           {k_stuck_color, "stuck frame"},
                           {k_waypoint_color, "waypoint"},
                           {k_piece_high, "piece (lighter = taller)"},
                           {k_low_ground, "terrain (shaded, lighter = higher)"}};
  // A panel right of the map, so the legend never hides a part of the level.
  const int row = 26, x0 = canvas.image.width - k_legend_width, y0 = 10;
  const int rows = static_cast<int>(std::size(entries)) + 2;
  canvas.rect(x0, 0, canvas.image.width, canvas.image.height, {255, 255, 255});
  canvas.text(x0 + 10, y0 + 8, "glide demo: " + level.name, {0, 0, 0});
  for (int i = 0; i < static_cast<int>(std::size(entries)); ++i) {
    const int y = y0 + 8 + (i + 1) * row;
    canvas.rect(x0 + 10, y, x0 + 34, y + 18, k_piece_edge);
    canvas.rect(x0 + 12, y + 2, x0 + 32, y + 16, entries[i].color);
    canvas.text(x0 + 44, y + 3, entries[i].label, {0, 0, 0});
  }
  // A 10 m scale bar.
  const int y = y0 + 8 + (rows - 1) * row + 6;
  const int bar = static_cast<int>(std::lround(10.f * canvas.scale));
  canvas.rect(x0 + 10, y, x0 + 10 + bar, y + 6, {0, 0, 0});
  canvas.text(x0 + 20 + bar, y - 4, "10 m", {0, 0, 0});
}

} // namespace

MapImage render_map(const DemoLevel& level, const std::vector<FrameRecord>& frames, const MapImageSettings& settings) {
  if (settings.max_size < 64 || settings.max_size > 8192)
    throw Error("map image size " + std::to_string(settings.max_size) + " out of range (64..8192 pixels)");
  // What to show: every piece, the path and the waypoints.
  glm::vec2 lo(1e30f), hi(-1e30f);
  const auto include = [&](float x, float z) {
    lo = glm::min(lo, glm::vec2(x, z)), hi = glm::max(hi, glm::vec2(x, z));
  };
  for (const PieceId id : level.world.piece_ids()) {
    const gjk::Aabb& b = level.world.bounds(id);
    include(b.min.x, b.min.z);
    include(b.max.x, b.max.z);
  }
  for (const FrameRecord& f : frames) include(f.position.x, f.position.z);
  for (const Waypoint& w : level.script.waypoints) include(w.target.x, w.target.z);
  include(level.spawn.x, level.spawn.z);
  lo -= glm::vec2(settings.margin);
  hi += glm::vec2(settings.margin);
  const glm::vec2 extent = glm::max(hi - lo, glm::vec2(1.f));

  MapImage image;
  const float scale = static_cast<float>(settings.max_size) / std::max(extent.x, extent.y);
  const int map_width = std::max(1, static_cast<int>(std::ceil(extent.x * scale)));
  image.width = map_width + k_legend_width;
  image.height = std::max(300, static_cast<int>(std::ceil(extent.y * scale)));
  image.metres_per_pixel = 1.f / scale;
  image.rgb.assign(static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 3u, 0);
  Canvas canvas{image, lo, scale};
  canvas.rect(0, 0, image.width, image.height, k_background);

  if (const Heightfield* terrain = level.world.terrain()) {
    // Shaded by height and slope, with a darker contour line where a metre level is crossed.
    const gjk::Aabb b = terrain->bounds();
    std::vector<float> level_of(static_cast<std::size_t>(map_width) * static_cast<std::size_t>(image.height), -1e30f);
    for (int y = 0; y < image.height; ++y)
      for (int x = 0; x < map_width; ++x) {
        const float wx = lo.x + (static_cast<float>(x) + 0.5f) / scale,
                    wz = lo.y + (static_cast<float>(y) + 0.5f) / scale;
        if (wx < b.min.x || wx > b.max.x || wz < b.min.z || wz > b.max.z) continue;
        const TerrainSample s = terrain->sample(wx, wz);
        if (!s.inside) continue;
        canvas.blend(x, y, terrain_color(s.height, s.normal));
        const std::size_t i =
            static_cast<std::size_t>(y) * static_cast<std::size_t>(map_width) + static_cast<std::size_t>(x);
        level_of[i] = std::floor(s.height / k_contour_step + 0.02f); // flat ground at a level stays unlined
        const std::size_t above = i - static_cast<std::size_t>(map_width);
        const bool left = x > 0 && level_of[i - 1] > -1e29f && level_of[i - 1] != level_of[i];
        const bool up = y > 0 && level_of[above] > -1e29f && level_of[above] != level_of[i];
        if (left || up) canvas.blend(x, y, {60, 70, 40}, 0.35f);
      }
  }

  // Pieces lowest first, translucent, so a roof leaves the rooms under it visible.
  std::vector<PieceId> ids = level.world.piece_ids();
  std::stable_sort(ids.begin(), ids.end(),
                   [&](PieceId a, PieceId b) { return level.world.bounds(a).max.y < level.world.bounds(b).max.y; });
  for (const PieceId id : ids) {
    if (level.world.is_mesh(id)) { // not convex: each triangle on its own
      const std::span<const glm::vec3> v = level.world.world_vertices(id);
      for (const auto& t : level.world.mesh(id).triangles()) {
        const glm::vec3 &a = v[t[0]], &b = v[t[1]], &c = v[t[2]];
        const float top = std::max({a.y, b.y, c.y});
        fill_polygon(canvas, hull_2d({canvas.to_pixel(a.x, a.z), canvas.to_pixel(b.x, b.z), canvas.to_pixel(c.x, c.z)}),
                     mix(k_piece_low, k_piece_high, top / 5.f), 0.7f);
      }
      continue;
    }
    std::vector<glm::vec2> points;
    for (const glm::vec3& v : level.world.world_vertices(id)) points.push_back(canvas.to_pixel(v.x, v.z));
    const float top = level.world.bounds(id).max.y;
    fill_polygon(canvas, hull_2d(std::move(points)), mix(k_piece_low, k_piece_high, top / 5.f), 0.7f);
  }

  const float width = std::max(1.f, 0.12f * scale); // path drawn 12 cm wide
  for (std::size_t i = 1; i < frames.size(); ++i)
    if (!frames[i].path_start)
      canvas.line(canvas.to_pixel(frames[i - 1].position.x, frames[i - 1].position.z),
                  canvas.to_pixel(frames[i].position.x, frames[i].position.z), width, ground_color(frames[i].ground));
  for (const FrameRecord& f : frames)
    if (f.stuck) canvas.disc(canvas.to_pixel(f.position.x, f.position.z), 3.f * width, k_stuck_color);
  for (const Waypoint& w : level.script.waypoints) {
    const glm::vec2 p = canvas.to_pixel(w.target.x, w.target.z);
    const float r = std::max(3.f, 0.25f * scale);
    canvas.line(p - glm::vec2(r), p + glm::vec2(r), 1.f, k_waypoint_color);
    canvas.line(p + glm::vec2(-r, r), p + glm::vec2(r, -r), 1.f, k_waypoint_color);
  }
  draw_legend(canvas, level);
  return image;
}

void write_png(const std::filesystem::path& file, const MapImage& image) {
  const std::string name = file.string();
  if (image.width <= 0 || image.height <= 0 ||
      image.rgb.size() != static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 3u)
    throw Error(name + ": empty or malformed picture");
  if (file.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
  }
  // Encoded in memory and written here: stb's own file writing ignores write errors (a full disk).
  std::vector<char> png;
  const auto append = [](void* context, void* data, int size) {
    auto* out = static_cast<std::vector<char>*>(context);
    out->insert(out->end(), static_cast<char*>(data), static_cast<char*>(data) + size);
  };
  if (stbi_write_png_to_func(append, &png, image.width, image.height, 3, image.rgb.data(), image.width * 3) == 0)
    throw Error(name + ": cannot encode the PNG");
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) throw Error(name + ": cannot write the PNG (missing folder or no permission?)");
  out.write(png.data(), static_cast<std::streamsize>(png.size()));
  out.close();
  if (!out) throw Error(name + ": cannot write the PNG: write failed (disk full?)");
}

} // namespace glide::demo
