#pragma once

#include <glide/terrain/heightfield.hpp>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <filesystem>

namespace glide {

/// Placement of a loaded heightmap and the dimensions of raw files.
struct HeightfieldLoadSettings {
  glm::vec2 cell_size{1.f};  ///< sample spacing along x (.x) and z (.y) (m, > 0)
  glm::vec3 origin{0.f};     ///< world position of sample (row 0, column 0) at height 0 (m)
  float height_scale = 1.f;  ///< world height of the image's full-scale value, or per raw unit (m)
  float height_offset = 0.f; ///< added to every scaled height (m)
  int raw_rows = 0;          ///< rows of a raw float32 file (samples, 2..16385; unused for images)
  int raw_columns = 0;       ///< columns of a raw float32 file (samples, 2..16385; unused for images)
};

/// Loads a heightmap; the format comes from the file's content, or its extension for raw:
/// - PNG, 8- or 16-bit grayscale (color type 0): sample / 255 or / 65535;
/// - PGM, P2 (ASCII) or P5 (binary, 1 byte per sample for maxval < 256, else 2, big-endian):
///   sample / maxval;
/// - `.raw`, `.r32` or `.f32`: little-endian float32, raw_rows x raw_columns, used as is.
/// Image row i (top to bottom) becomes grid row i (z = origin.z + i * cell_size.y) and pixel
/// column j becomes grid column j. World height = origin.y + height_offset + height_scale * value.
///
/// Throws glide::Error naming the file and the problem: "cannot open", "unsupported format",
/// "unsupported bit depth", "dimensions" (zero, below 2 or above 16385 per side),
/// "truncated data", "size mismatch" (raw file longer than its dimensions), "malformed"
/// (unreadable PGM header or sample), "non-finite height", or any Heightfield constructor error.
Heightfield load_heightfield(const std::filesystem::path& path, const HeightfieldLoadSettings& settings = {});

/// Whether load_heightfield reads `path` as raw float32 (by its extension: .raw, .r32, .f32,
/// any case), which needs HeightfieldLoadSettings::raw_rows and raw_columns.
bool is_raw_heightmap(const std::filesystem::path& path);

} // namespace glide
