#include "obj_scan.hpp"

#include <glide/error.hpp>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace glide::detail {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

std::vector<std::string_view> split(std::string_view s) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    const std::size_t begin = i;
    while (i < s.size() && !is_space(s[i])) ++i;
    if (i > begin) tokens.push_back(s.substr(begin, i - begin));
  }
  return tokens;
}

std::string join(const std::vector<std::string_view>& tokens, std::size_t from) {
  std::string out;
  for (std::size_t i = from; i < tokens.size(); ++i) {
    if (!out.empty()) out += ' ';
    out += tokens[i];
  }
  return out;
}

class Scanner {
public:
  explicit Scanner(const std::string& file) : file_(file) {}

  [[noreturn]] void fail(int line, const std::string& what) const {
    std::string where = file_ + ":" + std::to_string(line) + ": ";
    if (!groups_.empty() && !groups_.back().name.empty()) where += "object '" + groups_.back().name + "': ";
    throw Error(where + what);
  }

  void vertex(int line, const std::vector<std::string_view>& t) {
    if (t.size() < 4 || t.size() > 8) fail(line, "vertex needs 3 coordinates, got " + std::to_string(t.size() - 1));
    for (std::size_t i = 1; i < t.size(); ++i) {
      const std::string token(t[i]);
      char* end = nullptr;
      errno = 0;
      const double value = std::strtod(token.c_str(), &end);
      if (end == token.c_str() || *end != '\0') fail(line, "malformed number '" + token + "' in vertex");
      if (i <= 3 && (!std::isfinite(value) || std::abs(value) > 3.0e38))
        fail(line, "non-finite vertex coordinate '" + token + "'");
    }
    ++vertices_;
  }

  // One reference "v", "v/vt", "v//vn" or "v/vt/vn"; returns false when malformed.
  bool reference(std::string_view ref, int line) const {
    const long counts[3] = {vertices_, texcoords_, normals_};
    const char* names[3] = {"vertex", "texture coordinate", "normal"};
    for (int k = 0; k < 3; ++k) {
      const std::size_t slash = ref.find('/');
      const std::string part(ref.substr(0, slash));
      if (k == 0 && part.empty()) return false;
      if (!part.empty()) {
        char* end = nullptr;
        const long index = std::strtol(part.c_str(), &end, 10);
        if (end == part.c_str() || *end != '\0') return false;
        const long resolved = index < 0 ? counts[k] + index + 1 : index;
        if (index == 0 || resolved < 1 || resolved > counts[k])
          fail(line, std::string(names[k]) + " index " + part + " out of range (" + std::to_string(counts[k]) +
                         " defined so far)");
      }
      if (slash == std::string_view::npos) return true;
      ref.remove_prefix(slash + 1);
    }
    return ref.empty();
  }

  void face(int line, const std::vector<std::string_view>& t) {
    if (t.size() < 4) fail(line, "face needs at least 3 vertices, got " + std::to_string(t.size() - 1));
    for (std::size_t i = 1; i < t.size(); ++i)
      if (!reference(t[i], line)) fail(line, "malformed face vertex '" + std::string(t[i]) + "'");
    if (groups_.empty()) groups_.push_back({"", line, {}});
    groups_.back().face_lines.push_back(line);
    ++object_faces_;
  }

  void start_group(int line, std::string name, bool object) {
    if (object) {
      check_object_not_empty();
      object_name_ = name;
      object_line_ = line;
      object_faces_ = 0;
    }
    groups_.push_back({std::move(name), line, {}});
  }

  void check_object_not_empty() const {
    if (object_line_ > 0 && object_faces_ == 0)
      throw Error(file_ + ":" + std::to_string(object_line_) + ": object '" + object_name_ + "' has no faces");
  }

  ObjScan finish() {
    check_object_not_empty();
    ObjScan scan;
    for (ObjScanGroup& g : groups_)
      if (!g.face_lines.empty()) scan.groups.push_back(std::move(g));
    scan.warnings = std::move(warnings_);
    return scan;
  }

  void warn(int line, const std::string& what) {
    warnings_.push_back(file_ + ":" + std::to_string(line) + ": " + what);
  }

  void count_texcoord() { ++texcoords_; }
  void count_normal() { ++normals_; }

private:
  const std::string& file_;
  std::vector<ObjScanGroup> groups_;
  std::vector<std::string> warnings_;
  long vertices_ = 0, texcoords_ = 0, normals_ = 0;
  std::string object_name_;
  int object_line_ = 0;
  int object_faces_ = 0;
};

} // namespace

ObjScan scan_obj(std::string_view text, const std::string& file) {
  Scanner scanner(file);
  int line = 0;
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    std::string_view row = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    ++line;
    if (const std::size_t hash = row.find('#'); hash != std::string_view::npos) row = row.substr(0, hash);
    const std::vector<std::string_view> t = split(row);
    if (t.empty()) continue;
    const std::string_view key = t[0];
    if (key == "v") {
      scanner.vertex(line, t);
    } else if (key == "vt") {
      scanner.count_texcoord();
    } else if (key == "vn") {
      scanner.count_normal();
    } else if (key == "f") {
      scanner.face(line, t);
    } else if (key == "o" || key == "g") {
      if (t.size() < 2) scanner.warn(line, std::string(key) + " statement without a name");
      scanner.start_group(line, join(t, 1), key == "o");
    } else if (key != "s" && key != "usemtl" && key != "mtllib" && key != "l" && key != "p" && key != "vp") {
      scanner.warn(line, "unknown statement '" + std::string(key) + "' ignored");
    }
  }
  return scanner.finish();
}

} // namespace glide::detail
