#pragma once

#include <glide/controller/controller_settings.hpp>
#include <glide/gjk/shapes.hpp>
#include <glide/limits.hpp>
#include <glide/world/nearby_pieces.hpp>
#include <glide/world/query_types.hpp>

#include <glm/ext/vector_double3.hpp>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace glide {

class World;

/// One contact met during a move.
struct ControllerHit {
  HitTarget target = HitTarget::none;
  PieceId piece;                   ///< valid when target == HitTarget::piece
  CharacterId character;           ///< valid when target == HitTarget::character
  glm::vec3 point{0.f};            ///< contact point on the geometry (m, world)
  glm::vec3 normal{0.f, 1.f, 0.f}; ///< unit, from the geometry toward the character
  float fraction = 0.f;            ///< of that slide iteration's motion, in [0, 1]
};

/// What the character stands on.
struct GroundInfo {
  GroundState state = GroundState::in_air;
  HitTarget target = HitTarget::none;      ///< what it is; beside `state`, so a MoveResult's fields fill 3 cache lines
  glm::vec3 normal{0.f, 1.f, 0.f};         ///< walkability normal of the ground: its surface normal (unit)
  glm::vec3 contact_normal{0.f, 1.f, 0.f}; ///< from the closest points, ground toward capsule (unit)
  glm::vec3 point{0.f};                    ///< ground contact point (m, world)
  float distance = 0.f;                    ///< gap between the capsule and the ground (m)
  PieceId piece;                           ///< valid when target == HitTarget::piece
  CharacterId character;                   ///< valid when target == HitTarget::character
  glm::vec3 velocity{0.f};                 ///< of the ground's point under the character (m/s): the piece's last
                                           ///< World::move_piece, the character's velocity; zero for static
                                           ///< pieces and terrain
};

/// Which sides of the capsule touched geometry during the move.
struct CollisionFlags {
  bool sides = false;   ///< a wall or a too-steep slope
  bool above = false;   ///< a ceiling: the contact faces down onto the top of the capsule
  bool below = false;   ///< ground: the contact faces up under the bottom of the capsule
  bool crushed = false; ///< a moving piece pushed the capsule against geometry that did not let it go
};

/// The outcome of one Controller::move.
struct MoveResult {
  static constexpr int k_max_hits = 16;

  glm::vec3 position{0.f};     ///< feet after the move (m)
  glm::vec3 displacement{0.f}; ///< position change this move, recovery included (m)
  glm::vec3 velocity{0.f};     ///< the requested velocity less what contacts took; feed it back (m/s)
  glm::vec3 carried{0.f};      ///< moved by moving ground before the move's own motion (m), in displacement
  glm::vec3 pushed{0.f};       ///< moved by pieces that moved into the capsule (m), in displacement
  glm::vec3 push_stopped{0.f}; ///< the part of those pieces' pushes that something stopped (m): flags.crushed;
                               ///< or of recovery's push out of a piece or a character that a
                               ///< character stopped
  ControllerHit push_stopper;  ///< what stopped it (target HitTarget::none when nothing did)
  float yaw_delta = 0.f;       ///< turn of the moving ground about up (radians, counter-clockwise seen
                               ///< from above): turn the character's model and camera by it
  GroundInfo ground;
  CollisionFlags flags;
  float recovered = 0.f; ///< distance pushed out of overlapping geometry (m)
  int hit_count = 0;
  /// First hit_count entries: this move's contacts in order. Last, after 192 bytes of fields:
  /// a crowd keeps one result per character, line-aligned, and a move without hits writes 3 lines.
  std::array<ControllerHit, k_max_hits> hits{};
};

/// What each slide iteration of the last move did, for debug drawing.
struct MoveTrace {
  struct Iteration {
    glm::vec3 start{0.f};  ///< feet before the iteration (m)
    glm::vec3 motion{0.f}; ///< motion swept (m)
    float fraction = 1.f;  ///< time of impact along it (1 = no hit)
    bool hit = false;
    glm::vec3 normal{0.f}; ///< contact plane normal when hit
    bool stepped = false;  ///< the iteration climbed a step instead of sliding
  };
  std::vector<Iteration> iterations;
};

/// Game callbacks; every method has a no-op default.
class ContactListener {
public:
  virtual ~ContactListener() = default;
  /// Return false to let the character pass through this piece.
  virtual bool validate(PieceId) { return true; }
  /// Return false to let the character pass through this other character; asked as
  /// ControllerSettings::character_filter is (from a CharacterSet's job threads).
  virtual bool validate_character(CharacterId) { return true; }
  /// Called for every contact met during a move.
  virtual void on_contact_added(const ControllerHit&) {}
  /// May change the velocity that carries the rest of the move after this contact (m/s; finite,
  /// and at most limits::k_max_move_distance over the move's dt, or the move throws glide::Error).
  virtual void on_adjust_velocity(const ControllerHit&, glm::vec3& /*velocity*/) {}
};

/// A capsule character moved through a World, once per frame from the game's player update:
///
///     glide::Controller player(world, {.radius = 0.3f, .height = 1.8f}, spawn);
///     glide::MoveResult r = player.move(velocity, dt); // the game owns gravity and jumping
///
/// A move recovers from overlaps, slides up to max_slide_iterations times (sweep to the time of
/// impact, stop short by the skin, project the rest onto the contact planes), climbs steps,
/// snaps to the floor and probes the ground. docs/controller.md tells each step.
/// The world must outlive the controller.
class Controller {
public:
  /// Throws glide::Error for settings out of their limits or a position that is not finite or
  /// beyond limits::k_max_coordinate (<glide/limits.hpp>).
  Controller(const World& world, const ControllerSettings& settings, const glm::vec3& position);

  /// Moves by velocity * dt. Throws glide::Error, before anything changes, for a non-finite
  /// velocity, a dt that is not positive and finite, |velocity * dt| over
  /// limits::k_max_move_distance, or a move toward beyond limits::k_max_coordinate. A listener's
  /// on_adjust_velocity held to the same (finite, within one move's distance) throws mid-move.
  MoveResult move(const glm::vec3& velocity, float dt);

  /// Puts the feet at `position` without sweeping, and probes the ground there (a character
  /// of a CharacterSet looks for others under it at the set's next update or save). Throws
  /// glide::Error for a position not finite or beyond the valid range, changing nothing.
  void teleport(const glm::vec3& position);
  /// Changes the capsule height (crouch, stand up), keeping the feet. Succeeds only when the
  /// new capsule has room: it overlaps no geometry (touching, or geometry within the skin, is
  /// allowed). Returns whether it did; a refusal changes nothing. A height the other settings
  /// forbid (say below step_height plus the radii) is no lack of room but a mistake: it throws
  /// glide::Error naming the field, as set_settings does.
  bool resize(float height);
  /// Replaces the settings (a tuning panel); a shape change goes through resize's room check
  /// and is refused (false) without room. Throws glide::Error for invalid settings.
  bool set_settings(const ControllerSettings& settings);

  /// The character's state as bytes (docs/controller.md, "Saving and restoring" lists the
  /// fields): position, capsule height, ground. Settings other than the height are configuration
  /// and not saved. A snapshot is a point of the timeline: it drops the caches of the queries,
  /// as restore_state does, so the moves after a save and after restoring it give bit-identical
  /// results. Save after the frame's moves.
  std::vector<std::byte> save_state();
  /// Puts back a state from save_state, and takes the world's pieces as they are now as already
  /// seen and ridden: re-pose the moving pieces first (each with its last move, as
  /// docs/controller.md tells), then restore the characters. Throws
  /// glide::Error naming the field for bytes that are not such a state (short, wrong magic or
  /// version, non-finite, out of range, a ground piece not in the world); then nothing changes.
  void restore_state(std::span<const std::byte> bytes);
  /// Bytes of a saved state.
  static constexpr std::size_t k_state_bytes = 109;

  const ControllerSettings& settings() const { return *settings_; }
  /// The feet in the world's float coordinates (m), relative to World::origin() as it is now.
  glm::vec3 position() const {
    return origin_ == *world_origin_ ? position_ : glm::vec3(glm::dvec3(position_) + (origin_ - *world_origin_));
  }
  /// The feet as a global position (m, double): World::origin() plus position().
  glm::dvec3 global_position() const { return origin_ + glm::dvec3(position_); }
  /// After World::shift_origin: re-expresses the character's state relative to the new origin.
  /// Every call that uses the state (move, teleport, resize, set_settings, save_state,
  /// restore_state, and CharacterSet::update) does so first; position() and capsule() need
  /// not. ground() and last_trace() stay in the old coordinates until then.
  void follow_origin() {
    if (origin_ != *world_origin_) rebase();
  }
  const GroundInfo& ground() const { return ground_; }
  /// The capsule in world space at the current position.
  gjk::Capsule capsule() const { return capsule_at(position()); }
  gjk::Capsule capsule_at(const glm::vec3& feet) const { return capsule_of(*settings_, feet); }
  void set_listener(ContactListener* listener) {
    listener_ = listener;
    if (!given_characters_.empty()) pick_characters();
  }
  /// Other characters the moves meet as obstacles, held still (CharacterSet sets them each
  /// frame: the others' start-of-frame capsules). Hits and ground name them with
  /// HitTarget::character. The span must stay valid while set; empty: none. The characters
  /// settings().character_filter or the listener's validate_character refuses are left out,
  /// asked anew at each move.
  void set_characters(std::span<const CapsuleObstacle> characters) {
    given_characters_ = characters;
    pick_characters();
  }
  const MoveTrace& last_trace() const { return trace_; }

private:
  friend class CharacterSet;
  /// The settings first: a game's `Controller(world, {}, position)` must not be ambiguous.
  Controller(std::shared_ptr<const ControllerSettings> settings, const World& world, const glm::vec3& position);
  /// The capsule of a shape (radius, height, up) standing with its feet at `feet`.
  static gjk::Capsule capsule_of(const ControllerSettings& shape, const glm::vec3& feet) {
    const glm::vec3& up = shape.up;
    return gjk::Capsule{{feet + up * shape.radius, feet + up * (shape.height - shape.radius)}, shape.radius};
  }
  /// Points the queries at the characters given by set_characters that character_filter and
  /// the listener accept (a CharacterSet picks its own and gives none).
  bool accepts_character(CharacterId other) const {
    return (!settings_->character_filter || settings_->character_filter(other)) &&
           (!listener_ || listener_->validate_character(other));
  }
  void pick_characters();
  /// Asks the CPU to fetch what a move reads and writes beyond this object, all on the heap:
  /// the pieces held, the contact list and the trace (for a crowd, a character ahead).
  void prefetch_move_data() const {
    nearby_.prefetch();
    __builtin_prefetch(trace_.iterations.data(), 1);
  }
  void rebase(); // follow_origin's work
  /// Throws glide::Error, before anything changes, for a move Controller::move refuses: every
  /// check at once, inline and with no message built (a crowd checks each character's move a
  /// frame), and the one that failed named out of line.
  void check_move(const glm::vec3& velocity, float dt) const {
    const double distance = move_distance(velocity, dt); // NaN or infinite fails below
    if (dt > 0.f && std::isfinite(dt) && distance <= limits::k_max_move_distance &&
        limits::in_range(position_ + velocity * dt)) [[likely]]
      return;
    refuse_move(velocity, dt);
  }
  /// Throws glide::Error naming what check_move found wrong with the move.
  void refuse_move(const glm::vec3& velocity, float dt) const;
  /// move's work, for a velocity check_move accepted with the origin followed, into `result`,
  /// whose fields before the hits hold their defaults and hit_count 0 (the hits beyond it are
  /// not read).
  void move_checked(const glm::vec3& velocity, float dt, MoveResult& result);

  /// |velocity * dt| in double, as both checks of a move's length measure it (m).
  static double move_distance(const glm::vec3& velocity, float dt) {
    const double x = velocity.x, y = velocity.y, z = velocity.z;
    return std::sqrt(x * x + y * y + z * z) * dt;
  }
  /// Throws glide::Error, starting with `what`, unless velocity is finite and |velocity * dt|
  /// within limits::k_max_move_distance.
  static void check_motion(const glm::vec3& velocity, float dt, const char* what);
  /// The settings' layer mask, and their filter and the listener's validate (when either is
  /// set) as the accept predicate.
  [[gnu::always_inline]] QueryFilter query_filter() const {
    if (!settings_->filter && listener_ == nullptr) [[likely]]
      return {settings_->layer_mask, {}};
    return filtered_query();
  }
  QueryFilter filtered_query() const; // query_filter's accept predicate built
  /// query_filter() without one piece: the one a ride or a push moves along with.
  QueryFilter query_filter_except(PieceId piece) const;
  SweepSettings sweep_settings() const;
  SweepHit sweep(const glm::vec3& motion) const;
  /// The capsule the sweeps move: inflated by the skin, so a hit stops skin_width short.
  gjk::Capsule swept_capsule() const;
  bool walkable(const glm::vec3& normal) const { return glm::dot(normal, settings_->up) >= max_slope_cos_ - 1e-6f; }
  /// Contacts closer than this are pushed back out to the skin (m): the skin less what a sweep's
  /// tolerance may leave, so a character ends at the skin whatever the frame rate.
  float recovery_gap() const { return settings_->skin_width - settings_->toi_tolerance; }
  /// `probe`: what NearbyPieces::closest_on_face knew of the contact's face.
  glm::vec3 surface_normal(HitTarget target, PieceId piece, const glm::vec3& point, const glm::vec3& contact_normal,
                           std::uint32_t triangle = ~0u, const NearbyPieces::FaceProbe& probe = {}) const;
  glm::vec3 mesh_surface_normal(PieceId piece, std::uint32_t triangle, const glm::vec3& point,
                                const glm::vec3& contact_normal) const;
  bool room_for(const ControllerSettings& shape) const;
  /// How far around the asked box the nearby pieces are gathered (m).
  float gather_margin(const glm::vec3& motion) const;

  // The steps of a move, in order (controller_*.cpp).
  void ride(MoveResult& result);
  MoveResult carry(const glm::vec3& delta, CharacterId carrier);
  void be_pushed(MoveResult& result);
  bool squeeze_out(PieceId id, const glm::vec3& stopped, MoveResult& result);
  float recover(float dt, bool ride_stopped, MoveResult& result);
  void slide(glm::vec3 motion, const glm::vec3& velocity, float dt, bool walking, MoveResult& result);
  bool try_step(const glm::vec3& motion, const SweepHit& blocker, glm::vec3& left);
  bool step_top_continues(const glm::vec3& landing, const glm::vec3& dir) const;
  bool snap_to_floor();
  void update_ground();
  /// The ground as the move left it, into `result` (its ground, and flags.below when on some).
  void report_ground(MoveResult& result) const;
  void record_hit(const SweepHit& hit, float fraction, MoveResult& result) const;
  /// A sweep's hit as a move reports it, at `fraction` of the move's motion.
  static ControllerHit hit_of(const SweepHit& hit, float fraction) {
    return {hit.target, hit.piece, hit.character, hit.point, hit.normal, fraction};
  }

  const World* world_;
  const glm::dvec3* world_origin_; // World::origin(), read without the World's definition
  // Shared by the characters of a CharacterSet added with the same settings: among thousands,
  // each one's own copy was three more cache lines a move and a look at its state.
  std::shared_ptr<const ControllerSettings> settings_;
  float max_slope_cos_ = 0.f; // cos(settings_->max_slope): every contact's walkability asks it
  glm::vec3 position_{0.f};
  // Before the ground, with the settings and the position: CharacterSet::prepare reads these of
  // every character, and fetches the controller up to the ground alone.
  // The world's revision when the last move ended: pieces whose motion is newer moved since.
  std::uint64_t seen_revision_ = 0;
  // Teleports so far: a CharacterSet notices one made through its character's controller.
  std::uint32_t teleports_ = 0;
  ContactListener* listener_ = nullptr;
  glm::dvec3 origin_{0.0}; // the world's origin position_ and ground_ are relative to
  GroundInfo ground_;
  // What the last ground probe saw, so the next move can skip the overlap query of recovery
  // when nothing changed since (same position, same world revision, no overlap).
  struct ProbeCache {
    bool valid = false;
    bool overlapping = false;
    glm::vec3 position{0.f};
    std::uint64_t revision = 0;
  } probe_cache_;
  struct FailedStep {
    bool valid = false;
    glm::vec3 position{0.f};
    glm::vec3 direction{0.f};
    float forward = 0.f;
    std::uint64_t revision = 0;
    bool same_as(const FailedStep& o) const {
      return valid && o.valid && position == o.position && revision == o.revision &&
             glm::dot(direction, o.direction) > 0.9999f && std::abs(forward - o.forward) <= 0.01f * o.forward;
    }
  } failed_step_;
  // The ground piece's motion already ridden, so one World::move_piece carries once.
  struct Ridden {
    PieceId piece;
    std::uint64_t serial = 0;
  } ridden_;
  // What a move changes besides the query caches: a CharacterSet takes a move back with it.
  struct Checkpoint {
    glm::vec3 position{0.f};
    GroundInfo ground;
    ProbeCache probe_cache;
    FailedStep failed_step;
    Ridden ridden;
    std::uint64_t seen_revision = 0;
  };
  Checkpoint checkpoint() const {
    Checkpoint c;
    checkpoint(c);
    return c;
  }
  /// The checkpoint stored field by field into `to`: assigned from a returned one, the copy
  /// went through the stack and its reads waited on failed store forwarding.
  void checkpoint(Checkpoint& to) const {
    to.position = position_;
    to.ground = ground_;
    to.probe_cache = probe_cache_;
    to.failed_step = failed_step_;
    to.ridden = ridden_;
    to.seen_revision = seen_revision_;
  }
  void rewind(const Checkpoint& c);
  // A saved state read and checked against this controller and its world, not yet applied.
  struct SavedState {
    glm::dvec3 origin{0.0}; // what position and ground.point are relative to
    glm::vec3 position{0.f};
    float height = 0.f;
    GroundInfo ground;
    bool ridden = false;
  };
  /// Throws glide::Error, starting with `what`, naming the field of bytes that are not a state.
  SavedState read_state(std::span<const std::byte> bytes, const char* what) const;
  void apply_state(const SavedState& state);
  /// save_state's bytes over `to`, k_state_bytes long.
  void write_state(std::span<std::byte> to);
  MoveTrace trace_;
  std::span<const CapsuleObstacle> given_characters_; ///< set_characters's span
  // The pieces around the character, gathered once for many moves; a cache, so queries that
  // are logically const fill it. What a move writes of it comes first, near the fields a move
  // writes above, and what a move reads of the controller ends within it (hot_bytes): its own
  // cold part and the members after it are read only now and then.
  mutable NearbyPieces nearby_;
  std::vector<CapsuleObstacle> picked_characters_; ///< those of given_characters_ character_filter accepts
  std::vector<PieceId> pushers_;                   // scratch of be_pushed
  /// The bytes from the controller's start to `end`, an address within it: what a caller
  /// fetching its first members ahead fetches.
  std::size_t bytes_before(const void* end) const {
    return static_cast<std::size_t>(static_cast<const char*>(end) - reinterpret_cast<const char*>(this));
  }
  /// The bytes from the controller's start that a move reads: the rest is fetched when used.
  std::size_t hot_bytes() const { return bytes_before(nearby_.cold_part()); }
};

} // namespace glide
