#include "gltf_model.hpp"

#include "level_pieces.hpp"

#include <glide/error.hpp>

#include <cmath>
#include <cstring>

namespace glide::detail {

namespace {

// tinygltf reads buffers through these: the same bounded, regular-file-only reads as the level
// file itself, and no shell expansion of URIs (tinygltf's default runs wordexp on them).
bool file_exists(const std::string& path, void*) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error);
}

std::string expand_path(const std::string& path, void*) { return path; }

bool read_whole_file(std::vector<unsigned char>* out, std::string* err, const std::string& path, void*) {
  try {
    const std::string bytes = read_level_file(path, path, "glTF buffer");
    out->assign(bytes.begin(), bytes.end());
    return true;
  } catch (const Error& e) {
    if (err) *err += std::string(e.what()) + "\n";
    return false;
  }
}

bool write_whole_file(std::string* err, const std::string&, const std::vector<unsigned char>&, void*) {
  if (err) *err += "glide never writes glTF files\n";
  return false;
}

// Images are never decoded: a level needs geometry only.
bool skip_image(tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int, void*) {
  return true;
}

std::string component_name(int type) {
  switch (type) {
  case TINYGLTF_COMPONENT_TYPE_BYTE:
    return "BYTE";
  case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
    return "UNSIGNED_BYTE";
  case TINYGLTF_COMPONENT_TYPE_SHORT:
    return "SHORT";
  case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
    return "UNSIGNED_SHORT";
  case TINYGLTF_COMPONENT_TYPE_INT:
    return "INT";
  case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
    return "UNSIGNED_INT";
  case TINYGLTF_COMPONENT_TYPE_FLOAT:
    return "FLOAT";
  case TINYGLTF_COMPONENT_TYPE_DOUBLE:
    return "DOUBLE";
  default:
    return "component type " + std::to_string(type);
  }
}

std::string type_name(int type) {
  switch (type) {
  case TINYGLTF_TYPE_SCALAR:
    return "SCALAR";
  case TINYGLTF_TYPE_VEC2:
    return "VEC2";
  case TINYGLTF_TYPE_VEC3:
    return "VEC3";
  case TINYGLTF_TYPE_VEC4:
    return "VEC4";
  case TINYGLTF_TYPE_MAT2:
    return "MAT2";
  case TINYGLTF_TYPE_MAT3:
    return "MAT3";
  case TINYGLTF_TYPE_MAT4:
    return "MAT4";
  default:
    return "type " + std::to_string(type);
  }
}

std::string mode_name(int mode) {
  switch (mode) {
  case TINYGLTF_MODE_POINTS:
    return "POINTS";
  case TINYGLTF_MODE_LINE:
    return "LINES";
  case TINYGLTF_MODE_LINE_LOOP:
    return "LINE_LOOP";
  case TINYGLTF_MODE_LINE_STRIP:
    return "LINE_STRIP";
  default:
    return std::to_string(mode);
  }
}

} // namespace

GltfModel::GltfModel(const std::filesystem::path& path) : file_(path.string()) {
  const std::string bytes = read_level_file(path, file_, "glTF");
  tinygltf::TinyGLTF loader;
  loader.SetFsCallbacks({&file_exists, &expand_path, &read_whole_file, &write_whole_file, nullptr});
  loader.SetImageLoader(&skip_image, nullptr);
  std::string err, warn;
  const std::string base_dir = path.parent_path().string();
  const bool binary = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
  bool ok = false;
  try {
    ok = binary
             ? loader.LoadBinaryFromMemory(&model_, &err, &warn, reinterpret_cast<const unsigned char*>(bytes.data()),
                                           static_cast<unsigned int>(bytes.size()), base_dir)
             : loader.LoadASCIIFromString(&model_, &err, &warn, bytes.data(), static_cast<unsigned int>(bytes.size()),
                                          base_dir);
  } catch (const std::exception& e) {
    throw Error(file_ + ": " + e.what());
  }
  if (!ok) {
    const std::vector<std::string> errors = lines_of(err);
    throw Error(file_ + ": " + (errors.empty() ? std::string("not a glTF 2.0 file") : errors.front()));
  }
  for (const std::string& w : lines_of(warn)) warnings_.push_back(file_ + ": " + w);
}

std::vector<int> GltfModel::root_nodes() const {
  if (!model_.scenes.empty()) {
    const std::size_t scene =
        model_.defaultScene >= 0 && static_cast<std::size_t>(model_.defaultScene) < model_.scenes.size()
            ? static_cast<std::size_t>(model_.defaultScene)
            : 0;
    return model_.scenes[scene].nodes;
  }
  std::vector<bool> child(model_.nodes.size(), false);
  for (const tinygltf::Node& n : model_.nodes)
    for (int c : n.children)
      if (c >= 0 && static_cast<std::size_t>(c) < child.size()) child[static_cast<std::size_t>(c)] = true;
  std::vector<int> roots;
  for (std::size_t i = 0; i < child.size(); ++i)
    if (!child[i]) roots.push_back(static_cast<int>(i));
  return roots;
}

GltfModel::View GltfModel::accessor(int index, const std::string& where) const {
  if (index < 0 || static_cast<std::size_t>(index) >= model_.accessors.size())
    throw Error(where + ": accessor " + std::to_string(index) + " out of range (" +
                std::to_string(model_.accessors.size()) + " accessors)");
  const tinygltf::Accessor& a = model_.accessors[static_cast<std::size_t>(index)];
  const std::string at = where + ": accessor " + std::to_string(index);
  if (a.sparse.isSparse) throw Error(at + ": sparse accessors are not supported");
  if (a.bufferView < 0 || static_cast<std::size_t>(a.bufferView) >= model_.bufferViews.size())
    throw Error(at + ": bufferView " + std::to_string(a.bufferView) + " out of range (" +
                std::to_string(model_.bufferViews.size()) + " buffer views)");
  const tinygltf::BufferView& view = model_.bufferViews[static_cast<std::size_t>(a.bufferView)];
  if (view.buffer < 0 || static_cast<std::size_t>(view.buffer) >= model_.buffers.size())
    throw Error(at + ": buffer " + std::to_string(view.buffer) + " out of range (" +
                std::to_string(model_.buffers.size()) + " buffers)");
  const std::vector<unsigned char>& buffer = model_.buffers[static_cast<std::size_t>(view.buffer)].data;
  if (view.byteOffset > buffer.size() || view.byteLength > buffer.size() - view.byteOffset)
    throw Error(at + ": buffer view of " + std::to_string(view.byteLength) + " bytes at offset " +
                std::to_string(view.byteOffset) + " overruns its buffer of " + std::to_string(buffer.size()) +
                " bytes");
  const int component = tinygltf::GetComponentSizeInBytes(static_cast<std::uint32_t>(a.componentType));
  const int components = tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(a.type));
  if (component <= 0 || components <= 0)
    throw Error(at + ": unknown " + component_name(a.componentType) + " " + type_name(a.type));
  const std::size_t element = static_cast<std::size_t>(component) * static_cast<std::size_t>(components);
  const std::size_t stride = view.byteStride ? view.byteStride : element;
  if (stride < element) throw Error(at + ": byteStride " + std::to_string(stride) + " is smaller than an element");
  // count <= byteLength first, so the product below cannot overflow.
  if (a.count > 0 && (a.count > view.byteLength || a.byteOffset > view.byteLength ||
                      (a.count - 1) * stride + element > view.byteLength - a.byteOffset))
    throw Error(at + ": " + std::to_string(a.count) + " elements at offset " + std::to_string(a.byteOffset) +
                " overrun its buffer view of " + std::to_string(view.byteLength) + " bytes");
  return {buffer.data() + view.byteOffset + a.byteOffset, stride, a.count};
}

GltfPrimitive GltfModel::primitive(const tinygltf::Primitive& p, const std::string& where) const {
  const int mode = p.mode < 0 ? TINYGLTF_MODE_TRIANGLES : p.mode;
  if (mode != TINYGLTF_MODE_TRIANGLES && mode != TINYGLTF_MODE_TRIANGLE_STRIP && mode != TINYGLTF_MODE_TRIANGLE_FAN)
    throw Error(where + ": mode " + mode_name(mode) +
                " is not supported (triangles, triangle strips and triangle fans are)");
  const auto position = p.attributes.find("POSITION");
  if (position == p.attributes.end()) throw Error(where + ": no POSITION attribute");

  GltfPrimitive out;
  const View positions = accessor(position->second, where + ": POSITION");
  const tinygltf::Accessor& pa = model_.accessors[static_cast<std::size_t>(position->second)];
  if (pa.componentType != TINYGLTF_COMPONENT_TYPE_FLOAT || pa.type != TINYGLTF_TYPE_VEC3 || pa.normalized)
    throw Error(where + ": POSITION: accessor " + std::to_string(position->second) + " is " +
                component_name(pa.componentType) + " " + type_name(pa.type) + ", expected FLOAT VEC3");
  out.positions.resize(positions.count);
  for (std::size_t i = 0; i < positions.count; ++i) {
    float v[3];
    std::memcpy(v, positions.data + i * positions.stride, sizeof v);
    if (!std::isfinite(v[0]) || !std::isfinite(v[1]) || !std::isfinite(v[2]))
      throw Error(where + ": POSITION: vertex " + std::to_string(i) + " is not finite");
    out.positions[i] = {v[0], v[1], v[2]};
  }

  std::vector<std::uint32_t> indices;
  if (p.indices < 0) {
    for (std::size_t i = 0; i < positions.count; ++i) indices.push_back(static_cast<std::uint32_t>(i));
  } else {
    const View view = accessor(p.indices, where + ": indices");
    const tinygltf::Accessor& ia = model_.accessors[static_cast<std::size_t>(p.indices)];
    const int c = ia.componentType;
    if (ia.type != TINYGLTF_TYPE_SCALAR ||
        (c != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && c != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
         c != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT))
      throw Error(where + ": indices: accessor " + std::to_string(p.indices) + " is " + component_name(c) + " " +
                  type_name(ia.type) + ", expected an unsigned integer SCALAR");
    indices.resize(view.count);
    for (std::size_t i = 0; i < view.count; ++i) {
      const unsigned char* d = view.data + i * view.stride;
      std::uint32_t v = 0;
      if (c == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE) {
        v = d[0];
      } else if (c == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT) {
        std::uint16_t s = 0;
        std::memcpy(&s, d, sizeof s);
        v = s;
      } else {
        std::memcpy(&v, d, sizeof v);
      }
      if (v >= positions.count)
        throw Error(where + ": indices: index " + std::to_string(i) + " is " + std::to_string(v) + ", out of range (" +
                    std::to_string(positions.count) + " vertices)");
      indices[i] = v;
    }
  }

  const std::size_t n = indices.size();
  if (mode == TINYGLTF_MODE_TRIANGLES) {
    if (n % 3 != 0) throw Error(where + ": " + std::to_string(n) + " indices, not a multiple of 3 for triangles");
    out.triangles = std::move(indices);
  } else if (mode == TINYGLTF_MODE_TRIANGLE_STRIP) {
    for (std::size_t i = 2; i < n; ++i) { // every other triangle turned back to the strip's winding
      const bool odd = i % 2 == 1;
      out.triangles.insert(out.triangles.end(),
                           {indices[odd ? i - 1 : i - 2], indices[odd ? i - 2 : i - 1], indices[i]});
    }
  } else {
    for (std::size_t i = 2; i < n; ++i)
      out.triangles.insert(out.triangles.end(), {indices[0], indices[i - 1], indices[i]});
  }
  return out;
}

} // namespace glide::detail
