#pragma once

#include <glide/gjk/shapes.hpp>

#include <cstdint>
#include <vector>

namespace glide {

/// A scripted motion for a kinematic piece (a lift, a turntable, a door, a walkway): keys of an
/// offset and a turn about the vertical axis through `pivot`, at times, applied on top of the
/// piece's resting pose. Between keys the offset and the angle are interpolated linearly, so a
/// lift moves at constant speed between stops and reverses at once; before the first key and
/// after the last the piece holds, unless the path repeats. A game moves the piece each frame
/// with World::move_piece(id, path.pose_at(rest, t + dt), dt).
struct PiecePath {
  struct Key {
    float time = 0.f;      ///< (s, >= 0, increasing along the path)
    glm::vec3 offset{0.f}; ///< translation from the resting pose (m)
    float yaw = 0.f;       ///< turn about +Y through the pivot (radians, counter-clockwise from above)
  };
  enum class Repeat : std::uint8_t {
    none,      ///< hold the last key
    loop,      ///< start over after the last key (its pose should equal the first's)
    ping_pong, ///< run the keys backwards, then forwards again
  };

  glm::vec3 pivot{0.f}; ///< a point of the turn's vertical axis (m, world)
  Repeat repeat = Repeat::none;
  std::vector<Key> keys;

  /// The pose at time `t` (s) of a piece resting at `rest`.
  gjk::Transform pose_at(const gjk::Transform& rest, float t) const;
  /// The path's length in time (s): the last key's time, 0 without keys.
  float duration() const { return keys.empty() ? 0.f : keys.back().time; }
};

/// Throws glide::Error naming the key for no keys, times not finite, negative or decreasing, or
/// a non-finite offset, yaw or pivot.
void validate(const PiecePath& path);

} // namespace glide
