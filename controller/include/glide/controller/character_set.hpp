#pragma once

#include <glide/controller/controller.hpp>
#include <glide/controller/job_threads.hpp>
#include <glide/error.hpp>
#include <glide/world/query_types.hpp>

#include <glm/vec2.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace glide {

/// Per-character data a CharacterSet keeps besides the controller's settings.
struct CharacterInfo {
  std::uint32_t layers = 1u; ///< layer bits the character belongs to: others whose
                             ///< ControllerSettings::layer_mask shares one collide with it
  float mass = 70.f;         ///< for pushing: a push moves the other by m / (m + m_other) of the walk (kg, > 0)
  bool push = false;         ///< walking into other characters moves them out of the way, along the ground
};

/// Characters that move together once a frame and collide with each other as capsules, on
/// as many threads as the game's job hook gives:
///
///     glide::CharacterSet crowd(world);
///     glide::CharacterId a = crowd.add(settings, spawn);
///     crowd.update(velocities, dt, pool.hook()); // velocities[i] for the i-th added
///
/// The rule that makes results independent of the threads: every character moves against the
/// world and the others' capsules as they stood at the start of the frame (but those standing on
/// it, which are then carried with it, the bottom of each stack first). Characters whose new
/// capsules then overlap, or whose moves went beyond where their neighbours were looked for,
/// take their moves back, with the rest of their stack, and move again one after the other (the
/// bottom of each stack first, then in the order they were added), each against the others
/// where they now stand; then the pushers, in the order they were added, move what stopped
/// them out of their way, those standing on it carried along, and a wedged pusher pressing into a
/// wedged one ahead of it steps back for it. Every move is a sweep, so no two characters
/// overlap after an update and none is pushed into walls, and the same inputs give
/// bit-identical results whatever the thread count or schedule.
///
/// A character meets another when the other's CharacterInfo::layers share a bit with its
/// ControllerSettings::layer_mask and its character_filter and listener's validate_character
/// (if any) accept the other's id; else it passes through. When only one of two meets the
/// other, that one is blocked and the other walks through: they count as overlapping for the
/// rule above. docs/controller.md, "Crowds", tells more.
class CharacterSet {
public:
  /// The world must outlive the set, and not change during update().
  explicit CharacterSet(const World& world);

  /// Adds a character (as the Controller constructor, which throws glide::Error for bad
  /// settings or position). Ids count up from 0 in the order added, but the id of a character
  /// removed before the last update is given again, the lowest first. One put on another's
  /// head stands on it from its first update, whichever was added first (its ground is looked
  /// for among the others at the next update or save_state).
  CharacterId add(const ControllerSettings& settings, const glm::vec3& position, const CharacterInfo& info = {});
  /// Takes a character out of the set (a despawn): it no longer moves nor meets anyone, those
  /// standing on it fall, and after the next update its id is free for an add. Throws
  /// glide::Error for an id that is not in the set. Not during update().
  void remove(CharacterId id);
  /// Whether `id` names a character of the set: added and not removed since.
  bool contains(CharacterId id) const { return id.value < characters_.size() && !characters_[id.value].removed; }
  /// Every id given so far, removed ones included: the count of velocities update() takes.
  std::size_t size() const { return characters_.size(); }
  /// The character's layers, mass and push, as given to add() or set_info().
  const CharacterInfo& info(CharacterId id) const { return at(id).info; }
  /// Changes them from the next update (a character turned ghost, or made a pusher). Throws
  /// glide::Error, changing nothing, for a bad id or mass. A pusher that stops pushing
  /// forgets its push pressure and stepping back.
  void set_info(CharacterId id, const CharacterInfo& info);
  /// Controller::teleport for a character of the set (its controller's teleport() is the
  /// same): one put on another's head stands on it from the next update, as one added there.
  /// Throws glide::Error as that does.
  void teleport(CharacterId id, const glm::vec3& position);

  /// The character's controller: resize, settings, state, teleport. Do not call its move() for
  /// a character of the set, and do not use it during update().
  Controller& controller(CharacterId id);
  const Controller& controller(CharacterId id) const;
  /// The last update's outcome for the character.
  const MoveResult& result(CharacterId id) const;

  /// Moves every character by velocities[i] * dt (one per id, in id order; a removed one's is
  /// not read), running the moves through `parallel_for` (empty: on the calling thread).
  /// Contact listeners are then called from the job threads. Throws glide::Error, before
  /// anything moves, for a velocity count that is not size() or a move Controller::move refuses;
  /// and, naming the character, where a listener makes a move throw (an on_adjust_velocity that
  /// returns a velocity that is not finite): the characters moved before keep their moves, and
  /// the next update goes on from where they all stand.
  void update(std::span<const glm::vec3> velocities, float dt, const ParallelFor& parallel_for = {});
  /// By default, a set of fewer characters than this moves on the calling thread, its
  /// update not calling the job hook: a call on a second thread costs a few microseconds
  /// however little it runs (three calls an update), which a few dozen characters' moves do
  /// not win back (docs/performance.md, "crowd").
  static constexpr std::size_t k_default_min_threaded = 64; // (count)
  /// The fewest characters (size()) an update hands to the job hook; 0: any number. Results
  /// are the same bits either way.
  void set_min_threaded(std::size_t characters) { min_threaded_ = characters; }
  std::size_t min_threaded() const { return min_threaded_; }

  /// Every character's state as bytes (docs/controller.md, "Crowds"): per character, its
  /// velocity for who stands on it, its push pressure, how long it still steps back for another
  /// and its Controller::save_state. As there, a snapshot drops
  /// the query caches, so the updates after a save and after restoring it are bit-identical.
  std::vector<std::byte> save_state();
  /// The same bytes into `into`, replacing what it held and reusing its capacity: a game that
  /// saves every frame into a ring of buffers allocates nothing once each has held a state.
  void save_state(std::vector<std::byte>& into);
  /// Puts back a state save_state gave for a set of the same characters (the same ids, the
  /// same of them removed; settings and layers are configuration, not saved). Throws
  /// glide::Error naming the character and field for bytes that are not such a state; then
  /// nothing changes.
  void restore_state(std::span<const std::byte> bytes);
  /// Bytes of a saved state of `count` characters.
  static constexpr std::size_t state_bytes(std::size_t count) { return 14 + count * (20 + Controller::k_state_bytes); }

  /// How many characters took their move back and moved again in the last update (count).
  std::size_t last_conflicts() const { return last_conflicts_; }
  /// How many moves the pushes made in the last update (count): at most 4 per character of the
  /// set for the pushers, and as many again for the presses (a piece, or a push out of another
  /// character, that characters stopped, which moves them aside), however packed the crowd, so
  /// an update's cost stays bounded; and for each of those, one more for every character
  /// standing on the one moved, carried along (a stack's height at most).
  std::size_t last_push_moves() const { return last_push_moves_; }

private:
  // How long a wedged pusher steps back for one ahead of it that it is wedged against, walking
  // backward: long enough to leave the one ahead room to move on (s).
  static constexpr float k_step_back_time = 0.2f;
  // Kinds of settings kept to share with characters added later (count).
  static constexpr std::size_t k_kept_settings = 8;
  // No character: an index none has.
  static constexpr std::uint32_t k_nobody = 0xffffffffu;
  // Why a first move is made again: it ended overlapping another, its queries left its reach, or
  // another of its stack is taken back.
  static constexpr std::uint8_t k_overlapped = 1, k_left_reach = 2, k_stack_taken_back = 3;

  // What the passes over the crowd read of every character, in one dense array; the results
  // and checkpoints (nearly a kilobyte each) lie apart, touched once a move.
  struct Character {
    std::unique_ptr<Controller> controller;
    CharacterInfo info;
    glm::vec3 velocity{0.f};     ///< of its last move (m/s), for who stands on it
    float pressure = 0.f;        ///< how long it has been stopped, pushing: 0 shares its walk by mass, 1 whole
    float stepping_back = 0.f;   ///< how long it still steps back for a pusher ahead of it (s)
    float shoved = 0.f;          ///< how far pushers moved it this update (m)
    std::uint32_t shoved_by = 0; ///< the last to push it this update
    /// Its controller's teleports when its ground was last looked for among the others (none
    /// yet: a character added is placed too).
    std::uint32_t teleports_seen = ~0u;
    bool piece_pressed = false; ///< its last move's push_stopper is a character: a piece pressed it on one
    bool removed = false;       ///< taken out of the set: it meets no one and does not move
  };
  // A result on cache lines of its own: a move writes its fields before the hits, three lines.
  struct alignas(64) KeptResult {
    MoveResult result;
  };
  // Other characters by index in ascending order (a character's candidates): a few held in
  // place, so a pass over the crowd reads them in order, more on the heap.
  class NearList {
  public:
    void assign(std::span<const std::uint32_t> ids) {
      count_ = static_cast<std::uint32_t>(ids.size());
      if (ids.size() <= held_.size())
        std::copy(ids.begin(), ids.end(), held_.begin());
      else
        spilled_.assign(ids.begin(), ids.end());
    }
    /// The k-th id held in place (k < 9): past the list's length, a stale id or 0.
    std::uint32_t held(std::size_t k) const { return held_[k]; }
    std::span<const std::uint32_t> ids() const {
      return count_ <= held_.size() ? std::span<const std::uint32_t>(held_.data(), count_)
                                    : std::span<const std::uint32_t>(spilled_);
    }
    /// Adds `id` in its place in the ascending list, unless it is there; `scratch` is reused.
    void insert(std::uint32_t id, std::vector<std::uint32_t>& scratch) {
      const std::span<const std::uint32_t> now = ids();
      const auto at = std::lower_bound(now.begin(), now.end(), id);
      if (at != now.end() && *at == id) return;
      scratch.assign(now.begin(), at);
      scratch.push_back(id);
      scratch.insert(scratch.end(), at, now.end());
      assign(scratch);
    }

  private:
    std::uint32_t count_ = 0;
    std::array<std::uint32_t, 9> held_{};
    std::vector<std::uint32_t> spilled_;
  };

  std::shared_ptr<const ControllerSettings> kept_like(const ControllerSettings& settings) const;
  Character& at(CharacterId id);
  const Character& at(CharacterId id) const;
  void ground_placed();
  void ground_placed_among(std::span<const CapsuleObstacle> here, std::span<const gjk::Aabb> boxes);
  void notice_placed();
  void place_noticed(std::span<const glm::vec3> velocities, float dt);
  // Run once a character in the preparing pass, inlined there; prepare_again is the same, out of
  // line, for the serial steps that prepare a character a second time.
  [[gnu::always_inline]] inline void prepare(std::size_t i, const glm::vec3& input, float dt);
  void prepare_again(std::size_t i, const glm::vec3& input, float dt);
  void build_grid();
  std::size_t candidates_among_all(std::size_t i, std::vector<std::uint32_t>& into) const;
  std::size_t grid_candidates(std::size_t i, std::vector<std::uint32_t>& into) const;
  void renew_candidates();
  void reseat(std::uint32_t i);
  void renew_candidates_of(std::size_t i);
  // select_obstacles and move_first run once a character in the moves pass, inlined there: as
  // calls, their registers saved and restored cost 30 instructions a character-update.
  [[gnu::always_inline]] inline std::size_t select_obstacles(std::size_t i, std::vector<CapsuleObstacle>& obstacles);
  /// Whether character i meets another: the other's layers share a bit with i's mask and i's
  /// filter and listener let it in.
  bool meets(std::size_t i, const CapsuleObstacle& other) const {
    if ((other.layers & masks_[i]) == 0) return false;
    return filtered_[i] == 0 || characters_[i].controller->accepts_character(other.id);
  }
  bool meets(std::size_t i, std::uint32_t j) const { return meets(i, start_[j]); }
  /// NearbyPieces::MeetsBack of a set: whether `other` meets `self`.
  static bool meets_back_of(const void* set, CharacterId self, CharacterId other);
  /// Points a move's queries at the others (`others`, every one that may meet them within
  /// `region`) and at who among them meets it back; hide_others takes them away again.
  void show_others(NearbyPieces& nearby, std::span<const CapsuleObstacle> others, const gjk::Aabb& region) const {
    nearby.set_characters(others);
    nearby.set_character_region(region);
    nearby.set_meets_back(&CharacterSet::meets_back_of, this);
  }
  static void hide_others(NearbyPieces& nearby);
  /// A move's error (a listener's, as Controller::move throws it) naming character i, its view
  /// of the others taken away.
  [[noreturn]] static void throw_move_error(std::size_t i, NearbyPieces& nearby, const Error& e);
  [[gnu::always_inline]] inline void move_first(std::size_t i, std::span<const CapsuleObstacle> others,
                                                const glm::vec3& velocity, float dt);
  void take_result(std::size_t i, const MoveResult& result, float dt);
  void note_result(std::size_t i, const MoveResult& result, float dt);
  void note_velocity(std::size_t i, const glm::vec3& displacement, float dt);
  template <class Act, class Retry>
  bool against_others_now(std::size_t i, bool past_riders, Act act, Retry retry);
  template <class Move>
  MoveResult again(std::size_t i, bool past_riders, Move move);
  MoveResult move_again(std::size_t i, const glm::vec3& velocity, float dt);
  MoveResult carry_again(std::size_t i, const glm::vec3& by, bool past_riders);
  void probe_ground_again(std::size_t i);
  void append_move(std::size_t k, const MoveResult& moved, float dt);
  std::uint64_t stack_depth(std::size_t i) const;
  bool carry_with_under(std::size_t i, MoveResult& result, bool past_riders);
  void carry_riders(float dt);
  void carry_riders_of(std::size_t k, const glm::vec3& by, float dt, std::uint64_t depth);
  void append_pushed_move(std::size_t k, const MoveResult& moved, float dt);
  void take_back_stacks();
  void move_again_taken_back(std::span<const glm::vec3> velocities, float dt);
  /// Who moves a character in push_aside: a pusher itself, a line pushed on by one that pushes
  /// or that steps back, or a line a piece lifts (pressing upward: the pushes keep their part
  /// along up).
  enum class Shove : std::uint8_t { pusher, line, line_stepping_back, lift };
  glm::vec3 slid_walk(std::size_t k) const;
  bool goes_first(std::size_t i, std::uint32_t j, const glm::vec3& along) const;
  void push_through(std::span<const glm::vec3> velocities, float dt);
  bool spend_push_move();
  bool push_aside(std::size_t i, glm::vec3 left, const MoveResult& stopped, float dt, int depth, Shove shove,
                  int& moves);

  const World* world_;
  /// Settings characters were added with, to share with the ones added later (none with filters).
  std::vector<std::shared_ptr<const ControllerSettings>> kept_settings_;
  std::vector<Character> characters_;
  std::vector<Controller::Checkpoint> checkpoints_; ///< before each one's first move, by index
  std::vector<KeptResult> results_;                 ///< by index
  std::vector<glm::vec3> effective_;                ///< each one's velocity this update: input, carry, pushes
  std::vector<glm::vec3> walk_;                     ///< each one's velocity before stepping back (input, carry)
  std::vector<CapsuleObstacle> start_;              ///< every capsule at the start of the update, by index
  std::vector<gjk::Capsule> now_;                   ///< every capsule where it stands (after the first moves)
  std::vector<std::uint32_t> masks_;                ///< every layer_mask, by index
  std::vector<std::uint8_t> filtered_;              ///< who has a character_filter or a listener (1), by index
  std::vector<std::uint8_t> refused_;               ///< whose checks failed this update (1), by index
  std::vector<gjk::Aabb> reach_;                    ///< where each one's queries may go this update
  std::vector<gjk::Aabb> start_boxes_;              ///< each one's start capsule's bounds (empty: removed)
  std::vector<std::uint8_t> redo_;                  ///< why each one's first move is made again (0: it is not)
  std::vector<std::uint32_t> redone_;               ///< whose first moves are made again, by index
  std::vector<std::uint32_t> left_;                 ///< whose moves left their reach, by index
  std::vector<CapsuleObstacle> again_;              ///< the obstacles of a second move
  std::vector<std::uint32_t> lifted_;               ///< whom a piece's press lifted, in the order moved
  std::vector<std::uint32_t> stands_on_; ///< whom each one stands on at the start of the update (k_nobody: none)
  std::vector<std::uint64_t> stacked_;   ///< those standing on another: depth in its stack << 32 | index
  std::vector<std::uint64_t> order_;     ///< the taken back: depth in their stacks << 32 | index
  std::vector<std::uint32_t> placed_;    ///< those whose ground is looked for among the others, by index
  std::vector<std::uint8_t> noticed_;    ///< added or teleported since that was last done (1), by index
  std::vector<std::uint32_t> free_;      ///< ids of removed characters to give again, highest first
  std::vector<std::uint32_t> freed_;     ///< ids removed since the last update: others' grounds may name them

  // Neighbours are looked for among candidates kept across updates (Verlet lists): each one's
  // reach grown by a pad, and the others whose grown reach meets it. While every reach stays
  // inside its grown box, the others it can meet are among its candidates. One that leaves it
  // roams: a few roamers are each given a grown box again and checked against everyone for their
  // candidates (reseat), more renew every list.
  std::vector<gjk::Aabb> padded_;    ///< each one's reach when its candidates were found, grown by the pad
  std::vector<NearList> candidates_; ///< the others whose padded reach meets its own, by index
  /// Bit k: the k-th of its candidates has a reach that meets its own this update (k_all_near:
  /// more than 32 candidates, each to be tested), by index.
  std::vector<std::uint32_t> near_;
  static constexpr std::uint32_t k_all_near = 0xffffffffu;
  std::vector<std::uint8_t> roaming_;  ///< whose reach left its padded box this update (1), by index
  std::vector<std::uint32_t> roamers_; ///< those, by index
  std::vector<std::uint32_t> found_;   ///< scratch of reseat
  float pad_ = 0.f;                    ///< what the reaches were grown by at the last renewal (m)
  bool candidates_valid_ = false;      ///< false: renewed at the next update (a character added, a restore)
  /// Cells over two world axes, origin at the crowd's low corner.
  struct Grid {
    float cell = 1.f;                  ///< width of a cell (m)
    glm::vec2 origin{0.f};             ///< low corner along the two axes (m)
    std::size_t columns = 1, rows = 1; ///< cells along each axis (count)
    int ax = 0, az = 2;                ///< the world axes of columns and rows
    /// 1 / cell: a multiply, where a division took most of finding a character's cells. Its
    /// rounding moves no reach across more than two cells: cells are 1 % wider than any reach.
    float per_metre = 1.f;
    /// columns - 1 and rows - 1 as floats: a cell is clamped in float and converted to a 32-bit
    /// int, where a float's conversion to size_t, or size_t's to float, takes a branch and three
    /// times the instructions (finding cells ran it six times a character).
    float last_column = 0.f, last_row = 0.f;
    std::size_t column(const glm::vec3& p) const {
      return clamped((p[ax] - origin.x) * per_metre, last_column, columns - 1);
    }
    std::size_t row(const glm::vec3& p) const { return clamped((p[az] - origin.y) * per_metre, last_row, rows - 1); }
    static std::size_t clamped(float v, float top, std::size_t last) {
      if (!(v > 0.f)) return 0;
      return std::min(static_cast<std::size_t>(static_cast<std::int32_t>(std::min(v, top))), last);
    }
  };
  struct InCell {
    gjk::Aabb box; ///< padded reach
    std::uint32_t index;
  };
  Grid grid_;
  std::vector<std::uint32_t> cell_of_;    ///< each one's grid cell (k_no_cell: oversized)
  std::vector<std::uint32_t> cell_start_; ///< where each cell's characters start in in_cells_
  std::vector<std::uint32_t> cell_fill_;  ///< scratch of the counting sort
  std::vector<InCell> in_cells_;          ///< padded reaches by cell, in id order within one
  std::vector<std::uint32_t> oversized_;  ///< padded reaches wider than a grid cell
  std::size_t last_conflicts_ = 0;
  float push_reach_ = 0.f;          ///< farthest a pusher moves another, or itself again, in this update (m)
  std::size_t pushers_ = 0;         ///< characters whose CharacterInfo::push is set (count)
  bool pressed_ = false;            ///< a piece pressed some character on another this update
  bool stacked_any_ = false;        ///< some character stood on another at the start of this update
  bool noticed_any_ = false;        ///< some character was added or teleported since the last update
  std::size_t push_budget_ = 0;     ///< moves the pushers may still make in this update (count)
  std::size_t moves_again_ = 0;     ///< move_again calls ever made (count)
  std::size_t last_push_moves_ = 0; ///< of those, the last update's pushes' (count)

  // Whether a pass marked any character: the serial scans after it skip the crowd when none did.
  bool refused_any_ = false; ///< some character's checks failed in the preparing pass
  bool roamed_any_ = false;  ///< some character's reach left its padded box this update
  bool redo_any_ = false;    ///< some character's first move is to be made again

  std::size_t min_threaded_ = k_default_min_threaded; ///< see set_min_threaded (count)
};

} // namespace glide
