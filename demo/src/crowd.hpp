#pragma once

// `glide demo --crowd N`: N characters walking their own routes over the demo level at once, as
// one glide::CharacterSet, with the figures a crowd is judged by and a state hash.

#include "demo_level.hpp"
#include "tour.hpp"

#include <glide/controller/controller_settings.hpp>

#include <cstdint>
#include <vector>

namespace glide::demo {

struct CrowdSettings {
  int count = 100;           ///< characters (count, >= 1)
  int frames = 1000;         ///< frames to run (count, >= 1)
  float dt = 1.f / 60.f;     ///< time step (s)
  unsigned threads = 1;      ///< threads of the update (count; 0: every core)
  float speed = 3.f;         ///< walking speed (m/s)
  float route_radius = 24.f; ///< goals are drawn within this distance of the spawn (m)
  std::uint32_t seed = 1;    ///< of the spawn order and the goals
  int path_every = 4;        ///< frames between the points kept for the map (count)
};

struct CrowdStats {
  int characters = 0;
  int frames = 0;
  std::uint64_t hash = 0;        ///< of every position and ground state after every frame
  float closest_pair = 1e9f;     ///< smallest gap between two characters seen (m; < 0 overlapping)
  int pair_overlaps = 0;         ///< pairs and frames overlapping by more than the skin (count)
  float max_penetration = 0.f;   ///< deepest overlap with geometry after a frame, crushes aside (m)
  int crushed = 0;               ///< character-frames crushed by a moving piece (count)
  float max_crushed_depth = 0.f; ///< deepest overlap with the moving piece crushing a character (m)
  int stuck = 0;                 ///< character-frames that barely moved toward a goal (count)
  int goals_reached = 0;
  double median_frame_us = 0.0; ///< wall time of one update of the whole set (us)
  double max_frame_us = 0.0;
  std::size_t conflicts = 0;      ///< moves taken back and made again (count, all frames)
  std::vector<FrameRecord> paths; ///< every character's path; path_start marks each one's first point
};

/// Runs the crowd on the level (moving pieces move as in the tour).
CrowdStats run_crowd(DemoLevel& level, const ControllerSettings& settings, const CrowdSettings& crowd);

} // namespace glide::demo
