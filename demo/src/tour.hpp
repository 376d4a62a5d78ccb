#pragma once

// The scripted walker of the demo: a game-like player loop (steering toward waypoints, gravity,
// jumps) around glide::Controller, with per-frame records and the tour's figures. It prints
// nothing: `glide demo` prints the table, the viewer steps it one frame at a time.

#include "demo_level.hpp"

#include <glide/controller/controller.hpp>
#include <glide/controller/player_step.hpp>

#include <glm/vec3.hpp>

#include <span>
#include <string>
#include <vector>

namespace glide::demo {

/// The walker's game rules and what the figures count.
struct TourSettings {
  float dt = 1.f / 60.f;    ///< frame time (s, > 0)
  PlayerSettings player;    ///< the walker's gravity and jump speed
  int max_frames = 0;       ///< stop after this many frames; 0 = when the script ends (frames, >= 0)
  float stuck_ratio = 0.1f; ///< a frame moving less than this share of the requested walk is stuck (ratio)
  int flicker_frames = 5;   ///< on_ground -> other -> on_ground within this many frames is flicker (frames)
};

/// One frame of the tour.
struct FrameRecord {
  glm::vec3 position{0.f}; ///< feet after the move (m)
  glm::vec3 walk{0.f};     ///< requested horizontal velocity (m/s)
  GroundState ground = GroundState::in_air;
  CollisionFlags flags;
  int waypoint = 0;        ///< index of the leg being walked
  float move_us = 0.f;     ///< time spent in Controller::move (microseconds)
  float penetration = 0.f; ///< deepest overlap with any piece or the terrain after the move (m, >= 0)
  bool stuck = false;      ///< wanted to move toward a reachable waypoint and barely did
  bool blocked = false;    ///< wanted to move on a blocked or borderline leg and barely did
  bool jumped = false;     ///< a jump started this frame
  int riding = -1;         ///< the moving piece (index in the level's list) the walker stands on, -1 for none
  bool pushed = false;     ///< a moving piece pushed the walker this frame (MoveResult::pushed)
  bool path_start = false; ///< another walker's path begins here (a crowd's map)
};

/// How close a piece counts as touching the walker after a move: twice the skin (m).
inline constexpr float k_touch_skins = 2.f;

/// How one waypoint went.
struct WaypointReport {
  std::string name;
  Expect expect = Expect::reach;
  bool reached = false;
  int frames = 0;         ///< frames spent on the leg (wait included)
  int stuck_frames = 0;   ///< see FrameRecord::stuck
  int blocked_frames = 0; ///< see FrameRecord::blocked
  int flicker = 0;        ///< ground-state flicker events that ended on this leg
};

/// The figures of one moving piece over a tour.
struct MovingPieceStats {
  std::string name;
  int frames_on = 0;  ///< frames standing on it (on ground or on steep ground)
  int off_ground = 0; ///< frames in the air between two frames standing on it: a ride that lost its ground
  int touching = 0;   ///< frames it is within k_touch_skins skins of the capsule after the move, standing included
  int pushed = 0;     ///< frames a moving piece pushed the walker while this one touched it
};

/// The figures of a tour.
struct TourStats {
  int frames = 0;
  double distance = 0.0;            ///< path length of the feet (m)
  int stuck_frames = 0;             ///< see FrameRecord::stuck
  int blocked_frames = 0;           ///< see FrameRecord::blocked: pushing where the script expects a wall
  float max_penetration = 0.f;      ///< (m)
  int flicker = 0;                  ///< on_ground -> other -> on_ground within flicker_frames, jumps excluded (events)
  int ground_frames[3] = {0, 0, 0}; ///< frames per GroundState (on_ground, on_steep_ground, in_air)
  int jumps = 0;
  double median_us = 0.0;               ///< of Controller::move (microseconds)
  double p99_us = 0.0;                  ///< (microseconds)
  int waypoints = 0;                    ///< waypoints in the script
  int reached = 0;                      ///< waypoints reached
  int skipped = 0;                      ///< reachable waypoints given up at their timeout
  int blocked_as_expected = 0;          ///< blocked waypoints that stopped the walker
  int passed_unexpectedly = 0;          ///< blocked waypoints that were reached
  bool finished = false;                ///< the script ran to its end (not cut by max_frames)
  std::vector<MovingPieceStats> moving; ///< per moving piece of the level, in its order
  int moving_frames = 0;                ///< frames standing on any moving piece
  int moving_off_ground = 0;            ///< the sum of MovingPieceStats::off_ground
  int pushed_frames = 0;                ///< frames a moving piece pushed the walker
  int crushed_frames = 0;               ///< frames with flags.crushed: pushed against what did not let go
};

/// Walks a script through a world one frame at a time. Each frame moves the moving pieces
/// first, then the walker (the frame order of docs/controller.md).
class TourWalker {
public:
  /// The world and script must outlive the walker; the moving pieces are placed at their pose
  /// at time 0, the walker's clock. Throws glide::Error for invalid settings.
  TourWalker(World& world, std::span<const MovingPiece> moving, const TourScript& script, const glm::vec3& spawn,
             const ControllerSettings& settings, const TourSettings& tour = {});

  /// Runs one frame (does nothing once finished()).
  void step();
  /// The script has ended or max_frames was reached.
  bool finished() const;

  Controller& controller() { return controller_; }
  const Controller& controller() const { return controller_; }
  const TourSettings& settings() const { return tour_; }
  int current_waypoint() const { return leg_; }
  /// The tour's clock: the time at the start of the next frame (s).
  float time() const { return static_cast<float>(frames_.size()) * tour_.dt; }
  const std::vector<FrameRecord>& frames() const { return frames_; }
  const std::vector<WaypointReport>& waypoints() const { return reports_; }
  /// The figures so far (computed on demand: median and p99 sort the move times).
  TourStats stats() const;

private:
  void begin_leg();
  void end_leg(bool reached);
  void count_flicker(GroundState before, GroundState after);

  World* world_;
  std::vector<MovingPiece> moving_; // placed at time 0 before the controller looks at the world
  const TourScript* script_;
  TourSettings tour_;
  Controller controller_;
  std::vector<FrameRecord> frames_;
  std::vector<WaypointReport> reports_;
  int leg_ = 0;
  float leg_time_ = 0.f;    // (s)
  float leg_timeout_ = 0.f; // (s)
  float wait_left_ = -1.f;  // (s); >= 0 while idling at a reached waypoint
  PlayerStep player_;
  bool jump_pending_ = false;
  int left_ground_frame_ = -1; // frame the walker last left on_ground, -1 while on it
  int last_jump_frame_ = -1000000;
  int flicker_ = 0;
  std::vector<int> touching_, pushed_by_; // per moving piece: see MovingPieceStats
  std::vector<Contact> contacts_;         // scratch
};

/// Runs a whole tour (until the script ends or tour.max_frames). The level's moving pieces are
/// left where the tour ended; place_pieces puts them back.
TourWalker run_tour(DemoLevel& level, const ControllerSettings& settings, const TourSettings& tour = {});

} // namespace glide::demo
