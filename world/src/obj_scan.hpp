#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace glide::detail {

/// An object or group of an OBJ file as tinyobjloader will split it: a new one starts at
/// every `o` and `g` statement.
struct ObjScanGroup {
  std::string name;            ///< as written after `o`/`g` (empty for faces before any)
  int line = 0;                ///< line of the `o`/`g` statement, or of the first face if unnamed
  std::vector<int> face_lines; ///< line of each `f` statement, in order
};

struct ObjScan {
  std::vector<ObjScanGroup> groups; ///< groups with at least one face, in file order
  std::vector<std::string> warnings;
};

/// Validates OBJ text line by line, which tinyobjloader does not: it reads malformed numbers
/// as 0 and drops objects without faces silently. Throws glide::Error with "<file>:<line>:"
/// and the object name for a malformed `v` or `f` statement, a non-finite coordinate, a face
/// index out of range, or an `o` object without faces.
ObjScan scan_obj(std::string_view text, const std::string& file);

} // namespace glide::detail
