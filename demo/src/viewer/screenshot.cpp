#include "screenshot.hpp"

#include "gl.hpp"

#include <glide/error.hpp>

#include <algorithm>
#include <cstddef>
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
  if (!stbi_write_png(file.string().c_str(), width, height, 3, flipped.data(), static_cast<int>(row)))
    throw Error("screenshot " + file.string() + ": cannot be written");
}

} // namespace glide::viewer
