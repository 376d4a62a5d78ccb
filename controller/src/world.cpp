#include <glide/controller/world.hpp>

namespace glide {

PieceId World::add_piece(gjk::ConvexHull hull, gjk::Transform transform, PieceInfo info) {
  pieces_.push_back(Piece{std::move(hull), transform, info});
  return PieceId{static_cast<std::uint32_t>(pieces_.size() - 1)};
}

} // namespace glide
