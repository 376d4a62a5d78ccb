#include "screenshot.hpp"

#include "gl.hpp"

#include <glide/error.hpp>

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <vector>

// stb_image_write is header-only; its implementation lives here with internal linkage.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include <stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace glide::viewer {

void save_screenshot(const std::filesystem::path& file, int width, int height) {
  const std::size_t row = static_cast<std::size_t>(width) * 3;
  std::vector<unsigned char> pixels(row * static_cast<std::size_t>(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  // OpenGL's rows go bottom-up; PNG's top-down.
  std::vector<unsigned char> flipped(pixels.size());
  for (int y = 0; y < height; ++y)
    std::copy_n(pixels.begin() + static_cast<std::ptrdiff_t>(row * static_cast<std::size_t>(height - 1 - y)), row,
                flipped.begin() + static_cast<std::ptrdiff_t>(row * static_cast<std::size_t>(y)));
  // Encoded in memory and written here: stb's own file writing ignores write errors (a full disk).
  std::vector<char> png;
  const auto append = [](void* context, void* data, int size) {
    auto* out = static_cast<std::vector<char>*>(context);
    out->insert(out->end(), static_cast<char*>(data), static_cast<char*>(data) + size);
  };
  if (!stbi_write_png_to_func(append, &png, width, height, 3, flipped.data(), static_cast<int>(row)))
    throw Error("screenshot " + file.string() + ": cannot be encoded");
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(png.data(), static_cast<std::streamsize>(png.size()));
  out.close();
  if (!out) throw Error("screenshot " + file.string() + ": cannot be written");
}

} // namespace glide::viewer
