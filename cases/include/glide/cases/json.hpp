#pragma once

// Reads a JSON document while remembering where each value sits, so every error names the
// file, the case and the JSON path (RFC 6901 pointer) of the offending value. The one JSON
// reader of glide: case files, settings files and the demo's level and tour files.

#include <nlohmann/json.hpp>

#include <glm/ext/vector_double3.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace glide::cases {

using Json = nlohmann::ordered_json;

/// Where we are: the file and, once inside one, the case name and its origin.
struct Where {
  std::string file;
  std::string case_name;
  /// Positions are read relative to this point (m): a case far from the origin is computed in
  /// float coordinates near zero (docs/cases.md, "Large coordinates").
  glm::dvec3 origin{0.0};
  /// What every position of the scene is moved by as it is read (m; CaseRunOptions::shift).
  glm::dvec3 shift{0.0};
};

/// Throws glide::Error "<file>: case "<name>": <path>: <message>".
[[noreturn]] void fail_at(const Where& where, const std::string& path, const std::string& message);

/// A JSON value together with its path.
class Node {
public:
  Node(const Json& value, std::string path, const Where& where)
      : value_(&value), path_(std::move(path)), where_(&where) {}

  const Json& json() const { return *value_; }
  const std::string& path() const { return path_; }
  const Where& where() const { return *where_; }
  [[noreturn]] void fail(const std::string& message) const { fail_at(*where_, path_, message); }

  bool is_object() const { return value_->is_object(); }
  bool is_array() const { return value_->is_array(); }
  bool is_string() const { return value_->is_string(); }

  double number() const;      ///< any finite number
  float real() const;         ///< finite and representable as float
  float positive() const;     ///< > 0
  float non_negative() const; ///< >= 0
  int integer(int min, int max) const;
  std::uint32_t mask() const; ///< an integer in [0, 2^32)
  bool boolean() const;
  std::string string() const; ///< non-empty
  glm::vec3 vec3() const;     ///< [x, y, z]
  /// [x, y, z] read in double, |each| <= limits::k_max_global_coordinate (m)
  glm::dvec3 global_position() const;
  /// global_position() plus where().shift less where().origin, in float: inside the valid
  /// coordinates, |each| <= limits::k_max_coordinate (m)
  glm::vec3 position() const;
  float at_most(float max) const;                ///< >= 0 and <= max
  glm::vec2 vec2() const;                        ///< [x, y]
  std::vector<float> reals() const;              ///< array of numbers
  std::vector<glm::vec3> points() const;         ///< array of positions (see position())
  std::vector<glm::dvec3> global_points() const; ///< array of global positions (see global_position())

  std::size_t size() const; ///< array length (fails when not an array)
  Node element(std::size_t i) const;

private:
  void require_triple() const; ///< fails unless an array of 3
  const Json* value_;
  std::string path_;
  const Where* where_;
};

/// Reads an object field by field; done() rejects the fields nobody asked for.
class Fields {
public:
  explicit Fields(const Node& node);
  std::optional<Node> optional(const std::string& key);
  Node required(const std::string& key);
  bool has(const std::string& key) const { return node_.json().contains(key); }
  /// Fails on the first field that was not read, listing the ones this object accepts.
  void done(const std::vector<std::string>& accepted) const;
  const Node& node() const { return node_; }

private:
  Node node_;
  std::set<std::string> read_;
};

/// Parses JSON text; syntax errors, number overflow and duplicate keys in an object (which
/// nlohmann-json would silently resolve) throw glide::Error "<label>: ...".
Json parse_json(const std::string& text, const std::string& label);

/// Reads and parses a JSON file; throws glide::Error "<file>: cannot open <what>" or
/// "<file>: malformed JSON: ...".
Json read_json_file(const std::filesystem::path& file, const std::string& what);

/// JSON text with a 2-space indent where arrays of plain values stay on one line
/// ("[0, 1, 0]"), so vectors and hull points read as they would be typed.
std::string dump_readable(const Json& value);

/// A float as the JSON number with the shortest decimal text that reads back to it.
Json json_number(float value);

/// Writes `text` to `path` through a temporary file so a failed write never leaves half a file.
void write_text_file(const std::filesystem::path& path, const std::string& text);

std::string type_name(const Json& value);
std::string pointer_escape(const std::string& key);

} // namespace glide::cases
