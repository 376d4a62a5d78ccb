#pragma once

#include <filesystem>

namespace glide::viewer {

/// Writes the current back buffer (width x height pixels, RGB) as a PNG. Throws glide::Error
/// naming the file when it cannot be written.
void save_screenshot(const std::filesystem::path& file, int width, int height);

} // namespace glide::viewer
