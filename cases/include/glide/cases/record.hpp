#pragma once

// Turns a live situation into a regression case: a surprising sweep in a game becomes a case
// file (docs/cases.md) in one call, replayed by `glide cases` and glide::run_cases.
//
//   const glide::SweepHit hit = world.sweep_capsule(capsule, motion);
//   if (looks_wrong(hit)) glide::record_case("tests/glide_cases/recorded.json", "stuck_on_ledge", world, capsule,
//   motion);

#include <glide/gjk/shapes.hpp>
#include <glide/world/query_types.hpp>

#include <glm/vec3.hpp>

#include <filesystem>
#include <string>

namespace glide {

class World;

struct RecordOptions {
  /// Pieces and terrain whose bounds come this close to the capsule's swept box are written;
  /// the rest of the world is left out so the case stays small (m, >= 0).
  float margin = 1.f;
  std::string description; ///< written as the case's "description" when not empty
};

/// Sweeps `capsule` along `motion` in `world` with `settings` and writes the case: the nearby
/// pieces (as hulls with their exact placement), the nearby terrain samples (as an inline
/// heightfield; holes are not recorded), the capsule, the query, and the world's answer as
/// the expectation. The case is added to `file` (created when missing), replacing any case of
/// the same name. Returns the answer. Throws glide::Error when the file exists but is not a
/// case file, or cannot be written.
SweepHit record_case(const std::filesystem::path& file, const std::string& name, const World& world,
                     const gjk::Capsule& capsule, const glm::vec3& motion, const SweepSettings& settings = {},
                     const RecordOptions& options = {});

} // namespace glide
