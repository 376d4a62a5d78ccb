// Checks a screenshot of `glide demo --view --autopilot` the way a person glancing at it would:
// the picture is not blank, sky above and level below, the magenta capsule near the centre,
// and the two ImGui panels drawn; with --walkers, the crowd walkers' yellow capsules too. Prints
// one line per check; exits 0 when all pass.
//
//   check_screenshot shot.png [--walkers]

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
#include <stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#include "colors.hpp" // the viewer's colors

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace {

struct Rgb {
  double r, g, b;
};

struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> data; // RGB, rows top down
  Rgb at(int x, int y) const {
    const unsigned char* p = data.data() + 3 * (static_cast<std::size_t>(y) * width + x);
    return {static_cast<double>(p[0]), static_cast<double>(p[1]), static_cast<double>(p[2])};
  }
  void set(int x, int y, const glm::vec3& c) {
    unsigned char* p = data.data() + 3 * (static_cast<std::size_t>(y) * width + x);
    for (int i = 0; i < 3; ++i) p[i] = static_cast<unsigned char>(c[i] * 255.f + 0.5f);
  }
};

// A lit surface of base color c shows k * c with k in [0.45, 1] (viewer's half-Lambert).
// Matches when some k in [0.35, 1.05] brings the pixel within `tolerance` (0..255 units).
bool shaded(const Rgb& p, const glm::vec3& base, double tolerance = 18.0) {
  const Rgb c{base.r * 255.0, base.g * 255.0, base.b * 255.0};
  const double k = (p.r * c.r + p.g * c.g + p.b * c.b) / (c.r * c.r + c.g * c.g + c.b * c.b);
  if (k < 0.35 || k > 1.05) return false;
  return std::hypot(p.r - k * c.r, p.g - k * c.g, p.b - k * c.b) < tolerance;
}

bool exact(const Rgb& p, const glm::vec3& base, double tolerance = 6.0) {
  return std::hypot(p.r - base.r * 255.0, p.g - base.g * 255.0, p.b - base.b * 255.0) < tolerance;
}

// Fraction of pixels in the box [x0, x1) x [y0, y1) (fractions of the image size) that match.
double fraction(const Image& img, double x0, double y0, double x1, double y1, const std::function<bool(Rgb)>& match) {
  const int ax = static_cast<int>(x0 * img.width), bx = static_cast<int>(x1 * img.width);
  const int ay = static_cast<int>(y0 * img.height), by = static_cast<int>(y1 * img.height);
  long hits = 0, total = 0;
  for (int y = ay; y < by; ++y)
    for (int x = ax; x < bx; ++x, ++total) hits += match(img.at(x, y)) ? 1 : 0;
  return total > 0 ? static_cast<double>(hits) / static_cast<double>(total) : 0.0;
}

// Runs every check; prints one line each when `verbose`. Returns the number that failed.
int run_checks(const Image& img, bool walkers, bool verbose) {
  int failures = 0;
  const auto check = [&](bool ok, const char* what, double value) {
    if (verbose) std::printf("%s %-60s %.4f\n", ok ? "ok  " : "FAIL", what, value);
    if (!ok) ++failures;
  };
  check(img.width >= 640 && img.height >= 360, "size at least 640x360 (width)", img.width);

  // Not blank: the luminance varies across the picture.
  double sum = 0.0, sum2 = 0.0;
  const long n = static_cast<long>(img.width) * img.height;
  for (int y = 0; y < img.height; ++y)
    for (int x = 0; x < img.width; ++x) {
      const Rgb p = img.at(x, y);
      const double l = 0.299 * p.r + 0.587 * p.g + 0.114 * p.b;
      sum += l;
      sum2 += l * l;
    }
  const double mean = sum / static_cast<double>(n);
  const double deviation = std::sqrt(std::max(0.0, sum2 / static_cast<double>(n) - mean * mean));
  check(deviation > 20.0, "not blank: luminance standard deviation > 20", deviation);

  using glide::viewer::k_capsule_color;
  const auto sky = [](Rgb p) { return exact(p, glide::viewer::k_sky_color); };
  const auto level = [](Rgb p) {
    return shaded(p, glide::viewer::k_walkable_color) || shaded(p, glide::viewer::k_wall_color) ||
           shaded(p, glide::viewer::k_terrain_color);
  };
  const auto capsule = [](Rgb p) { return shaded(p, k_capsule_color); };
  // The camera looks down on the character: sky in the top band, the level in the bottom one
  // (between the panels).
  const double sky_top = fraction(img, 0.3, 0.0, 0.75, 0.2, sky);
  check(sky_top > 0.2, "sky color in the top band (fraction)", sky_top);
  const double level_bottom = fraction(img, 0.3, 0.85, 0.75, 1.0, level);
  check(level_bottom > 0.5, "level colors in the bottom band (fraction)", level_bottom);
  // The third-person camera keeps the capsule in the middle of the picture.
  const double capsule_centre = fraction(img, 0.42, 0.35, 0.58, 0.75, capsule);
  check(capsule_centre > 0.05, "capsule color near the centre (fraction)", capsule_centre);
  const double capsule_edges =
      fraction(img, 0.3, 0.0, 0.75, 0.2, capsule) + fraction(img, 0.3, 0.85, 0.75, 1.0, capsule);
  check(capsule_edges < 0.01, "no capsule color in the top and bottom bands (fraction)", capsule_edges);

  // Panels: ImGui's dark window background with light text, top left (tuning) and top right
  // (stats).
  const auto dark = [](Rgb p) { return std::max({p.r, p.g, p.b}) < 50.0; };
  const auto text = [](Rgb p) { return std::min({p.r, p.g, p.b}) > 170.0; };
  const double tuning_dark = fraction(img, 0.02, 0.1, 0.26, 0.8, dark);
  check(tuning_dark > 0.3, "tuning panel background, top left (dark fraction)", tuning_dark);
  const double tuning_text = fraction(img, 0.02, 0.1, 0.26, 0.8, text);
  check(tuning_text > 0.005, "tuning panel text, top left (light fraction)", tuning_text);
  const double stats_dark = fraction(img, 0.79, 0.05, 0.99, 0.25, dark);
  check(stats_dark > 0.3, "stats panel background, top right (dark fraction)", stats_dark);

  if (walkers) {
    // The walkers around the character, in the scene between the panels.
    const auto walker = [](Rgb p) { return shaded(p, glide::viewer::k_walker_color); };
    const double around = fraction(img, 0.27, 0.0, 0.78, 1.0, walker);
    check(around > 0.002, "walker color in the scene (fraction)", around);
  }
  return failures;
}

// The checks must be able to fail: altered copies of the shot, each missing one thing a
// person would miss, must each fail at least one check.
int self_test(const Image& shot, bool walkers) {
  using namespace glide::viewer;
  int wrong = 0;
  const auto expect_rejected = [&](const char* what, const Image& altered) {
    const bool rejected = run_checks(altered, walkers, false) > 0;
    std::printf("%s self-test: a shot %s is rejected\n", rejected ? "ok  " : "FAIL", what);
    if (!rejected) ++wrong;
  };
  Image blank = shot;
  for (int y = 0; y < blank.height; ++y)
    for (int x = 0; x < blank.width; ++x) blank.set(x, y, k_sky_color);
  expect_rejected("of only sky", blank);

  Image no_capsule = shot;
  for (int y = 0; y < shot.height; ++y)
    for (int x = 0; x < shot.width; ++x)
      if (shaded(shot.at(x, y), k_capsule_color)) no_capsule.set(x, y, k_walkable_color);
  expect_rejected("without the capsule", no_capsule);

  Image no_panel = shot;
  for (int y = 0; y < shot.height * 8 / 10; ++y)
    for (int x = 0; x < shot.width * 27 / 100; ++x) no_panel.set(x, y, k_walkable_color);
  expect_rejected("without the tuning panel", no_panel);

  Image no_level = shot;
  for (int y = shot.height * 85 / 100; y < shot.height; ++y)
    for (int x = 0; x < shot.width; ++x) no_level.set(x, y, k_sky_color);
  expect_rejected("without the level below the character", no_level);

  if (walkers) {
    Image no_walkers = shot;
    for (int y = 0; y < shot.height; ++y)
      for (int x = 0; x < shot.width; ++x)
        if (shaded(shot.at(x, y), k_walker_color)) no_walkers.set(x, y, k_walkable_color);
    expect_rejected("without the walkers", no_walkers);
  }
  return wrong;
}

} // namespace

int main(int argc, char** argv) {
  const bool walkers = argc == 3 && std::string_view(argv[2]) == "--walkers";
  if (argc != 2 && !walkers) {
    std::fprintf(stderr, "usage: check_screenshot PNG [--walkers]\n");
    return 2;
  }
  Image img;
  int channels = 0;
  unsigned char* pixels = stbi_load(argv[1], &img.width, &img.height, &channels, 3);
  if (!pixels) {
    std::fprintf(stderr, "check_screenshot: cannot read %s\n", argv[1]);
    return 1;
  }
  img.data.assign(pixels, pixels + 3 * static_cast<std::size_t>(img.width) * img.height);
  stbi_image_free(pixels);
  const int failures = run_checks(img, walkers, true);
  const int wrong = self_test(img, walkers);
  std::printf("%s\n", failures == 0 && wrong == 0 ? "screenshot looks right" : "screenshot check failed");
  return failures == 0 && wrong == 0 ? 0 : 1;
}
