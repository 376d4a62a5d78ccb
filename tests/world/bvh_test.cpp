#include "approx.hpp"
#include "bvh.hpp"
#include "bvh_oracle.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <span>
#include <vector>

using glide::detail::Bvh;
using glide::detail::LeafItem;
using glide::detail::SweptBox;
using glide::gjk::Aabb;

namespace {

// Checks the wide subtree at `node` and returns the exact union of its items' boxes.
Aabb check_wide_subtree(const Bvh& bvh, std::uint32_t node, std::vector<int>& covered, std::size_t& visited) {
  const glide::detail::WideNode& w = bvh.wide_nodes()[node];
  ++visited;
  const glide::detail::SlotBoxes decoded = w.boxes();
  Aabb all;
  for (int k = 0; k < 4; ++k) {
    const bool used = (w.used >> k & 1u) != 0;
    CHECK(used == (w.child[k] != glide::detail::WideNode::k_empty));
    if (!used || w.count[k] > 0) CHECK(w.subtree(k) == 0u); // only inner slots have subtrees
    if (!used) continue;
    Aabb exact;
    if (w.count[k] > 0) {
      CHECK(w.count[k] == 1); // one item per leaf
      const LeafItem item = bvh.leaf_item(w.child[k]);
      covered[(item.item - 1000) / 3]++; // iota_ids
      exact = item.box;
    } else {
      REQUIRE(w.child[k] > node); // depth-first order: children after their parent
      const std::size_t before = visited;
      exact = check_wide_subtree(bvh, w.child[k], covered, visited);
      // The subtree is stored contiguously from the child, and small ones record their size.
      const std::size_t size = visited - before;
      CHECK(w.subtree(k) == (size <= glide::detail::WideNode::k_max_subtree ? size : 0u));
    }
    const Aabb slot = decoded.slot(k);
    CHECK(slot.contains(exact));
    for (int a = 0; a < 3; ++a) {
      // One step, plus the rounding of the decoded value to float.
      const double slack = w.step(a) + std::ldexp(std::abs(static_cast<double>(slot.min[a])), -23);
      CHECK(static_cast<double>(slot.min[a]) >= exact.min[a] - slack);
      CHECK(static_cast<double>(slot.max[a]) <= exact.max[a] + slack + std::ldexp(std::abs(slot.max[a]), -23));
    }
    all = all.merged(exact);
  }
  for (int a = 0; a < 3; ++a) {
    // The grid covers the node's exact box, with at most half its spare codes below it.
    const double extent = static_cast<double>(all.max[a]) - all.min[a];
    CHECK(w.origin[a] <= all.min[a]);
    CHECK(glide::detail::WideNode::decode(w.origin[a], 255, w.step(a)) >= all.max[a]);
    CHECK(static_cast<double>(all.min[a]) - w.origin[a] <=
          0.5 * (255.0 * w.step(a) - extent) + std::ldexp(std::max(std::abs(static_cast<double>(all.min[a])),
                                                                   std::abs(static_cast<double>(w.origin[a]))),
                                                          -23));
  }
  return all;
}

// Every item appears once; each node's box contains its children's (or its items') boxes.
void check_structure(const Bvh& bvh, const std::vector<Aabb>& boxes, const std::vector<std::uint32_t>& ids) {
  const auto nodes = bvh.nodes();
  const auto items = bvh.items();
  REQUIRE(items.size() == ids.size());
  std::vector<std::uint32_t> sorted(items.begin(), items.end());
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == ids);
  std::vector<int> depth(nodes.size(), 0);
  int max_depth = 0;
  std::size_t leaf_items = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (i == Bvh::k_padding_node) continue;
    const auto& node = nodes[i];
    if (node.count > 0) {
      CHECK(node.count == 1); // one item per leaf: a reached leaf slot is a candidate
      leaf_items += node.count;
      for (std::uint32_t k = node.first; k < node.first + node.count; ++k)
        CHECK(node.bounds.contains(boxes[(items[k] - 1000) / 3]));
    } else {
      REQUIRE(node.first + 1 < nodes.size());
      CHECK(node.first > i);
      CHECK(node.first % 2 == 0); // sibling pairs share a cache line
      CHECK(node.bounds.contains(nodes[node.first].bounds));
      CHECK(node.bounds.contains(nodes[node.first + 1].bounds));
      depth[node.first] = depth[node.first + 1] = depth[i] + 1;
      max_depth = std::max(max_depth, depth[i] + 1);
    }
  }
  CHECK(leaf_items == ids.size());
  CHECK(max_depth < glide::detail::k_bvh_stack_size - 1);

  // The 4-wide tree covers every item once, and each slot's decoded (8-bit, outward-rounded)
  // box contains the exact boxes of all items below it, while staying within one grid step of
  // their union on every side.
  const auto wide = bvh.wide_nodes();
  REQUIRE(!wide.empty());
  std::vector<int> covered(items.size(), 0);
  std::size_t visited = 0;
  check_wide_subtree(bvh, 0, covered, visited);
  CHECK(visited == wide.size());
  CHECK(std::all_of(covered.begin(), covered.end(), [](int c) { return c == 1; }));
}

} // namespace

TEST_CASE("Bvh of random boxes holds every item once under nested bounds") {
  for (std::size_t n : {1u, 2u, 3u, 5u, 17u, 1000u, 5000u}) {
    const auto boxes = random_boxes(n, 50.f, 7u + static_cast<std::uint32_t>(n));
    const auto ids = iota_ids(n);
    Bvh bvh;
    bvh.build(boxes, ids);
    check_structure(bvh, boxes, ids);
  }
}

TEST_CASE("Bvh of identical boxes (no SAH split possible) stays shallow") {
  std::vector<Aabb> boxes(3000, Aabb{{0, 0, 0}, {1, 1, 1}});
  const auto ids = iota_ids(boxes.size());
  Bvh bvh;
  bvh.build(boxes, ids);
  check_structure(bvh, boxes, ids);
}

TEST_CASE("Bvh of exponentially spaced boxes stays within the traversal stack") {
  std::vector<Aabb> boxes;
  for (int i = 0; i < 2000; ++i) {
    const float x = std::ldexp(1.f, i % 120 - 60);
    boxes.push_back({{x, 0, 0}, {x, 0, 0}});
  }
  const auto ids = iota_ids(boxes.size());
  Bvh bvh;
  bvh.build(boxes, ids);
  check_structure(bvh, boxes, ids);
}

TEST_CASE("Bvh box query returns exactly the overlapping items (brute force)") {
  const auto boxes = random_boxes(2000, 40.f, 11u);
  const auto ids = iota_ids(boxes.size());
  Bvh bvh;
  bvh.build(boxes, ids);
  const auto queries = random_boxes(1000, 45.f, 12u);
  for (const Aabb& q : queries) {
    check_box_query(bvh, boxes, ids, q);
  }
}

TEST_CASE("Bvh stores each item's payload and word with it, whatever the leaf order") {
  const auto boxes = random_boxes(3000, 40.f, 13u);
  const auto ids = iota_ids(boxes.size());
  // Item i carries i % 13 points (some none), each (i, k, -i), and the word i * 7.
  std::vector<std::vector<glm::vec3>> points(boxes.size());
  std::vector<glide::detail::ItemPayload> payloads(boxes.size());
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    for (std::size_t k = 0; k < i % 13; ++k)
      points[i].push_back({static_cast<float>(i), static_cast<float>(k), -static_cast<float>(i)});
    payloads[i] = {static_cast<std::uint32_t>(i * 7), points[i]};
  }
  Bvh bvh;
  bvh.build(boxes, ids, payloads);
  check_structure(bvh, boxes, ids);
  std::size_t seen = 0;
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    bvh.query_box(boxes[i], [&](const LeafItem& item) {
      const std::size_t j = (item.item - 1000) / 3;
      CHECK(item.word == j * 7);
      CHECK(item.box.min == boxes[j].min);
      CHECK(item.box.max == boxes[j].max);
      REQUIRE(item.payload.size() == points[j].size());
      CHECK(std::equal(item.payload.begin(), item.payload.end(), points[j].begin()));
      ++seen;
    });
  }
  CHECK(seen > boxes.size()); // every item finds itself, and some their neighbours
}

TEST_CASE("SweptBox entry time matches an analytic head-on and a parallel case") {
  const Aabb box{{2, -1, -1}, {3, 1, 1}};
  const SweptBox head_on({0, 0, 0}, {0.5f, 0.5f, 0.5f}, {4, 0, 0});
  CHECK_APPROX(head_on.enter(box), 1.5f / 4.f, 1e-6f);
  const SweptBox parallel_miss({0, 2, 0}, {0.5f, 0.5f, 0.5f}, {4, 0, 0});
  CHECK(parallel_miss.enter(box) > 1.f);
  const SweptBox inside({2.5f, 0, 0}, {0.1f, 0.1f, 0.1f}, {0, 0, 0});
  CHECK(inside.enter(box) == 0.f);
  const SweptBox short_motion({0, 0, 0}, {0.5f, 0.5f, 0.5f}, {1, 0, 0});
  CHECK(short_motion.enter(box) > 1.f);
}

TEST_CASE("Bvh sweep query visits every item the swept box reaches, nearest first (brute force)") {
  const auto boxes = random_boxes(2000, 40.f, 21u);
  const auto ids = iota_ids(boxes.size());
  Bvh bvh;
  bvh.build(boxes, ids);
  std::mt19937 rng(22);
  std::uniform_real_distribution<float> pos(-45.f, 45.f), mot(-20.f, 20.f), ext(0.f, 1.f);
  for (int q = 0; q < 1000; ++q) {
    const glm::vec3 c{pos(rng), pos(rng), pos(rng)}, e{ext(rng), ext(rng), ext(rng)};
    glm::vec3 m{mot(rng), mot(rng), mot(rng)};
    if (q % 10 == 0) m.y = 0.f; // parallel slabs
    check_sweep_query(bvh, boxes, c, e, m, q % 7 == 0 ? 3.f : 1.f);
  }
}

// Boxes from micrometres to kilometres placed anywhere within a megametre: quantisation steps
// from 2^-126 to 2^12 m in one tree.
std::vector<Aabb> mixed_scale_boxes(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> exponent(-20.f, 20.f), sign(-1.f, 1.f);
  std::vector<Aabb> boxes(n);
  for (Aabb& b : boxes) {
    const glm::vec3 c{sign(rng) * std::exp2(exponent(rng)), sign(rng) * std::exp2(exponent(rng)),
                      sign(rng) * std::exp2(exponent(rng))};
    const glm::vec3 h{std::exp2(exponent(rng) - 10.f), std::exp2(exponent(rng) - 10.f),
                      std::exp2(exponent(rng) - 10.f)};
    b = {c - h, c + h};
  }
  return boxes;
}

TEST_CASE("Bvh over boxes of mixed scales keeps exact containment and answers as brute force") {
  const auto boxes = mixed_scale_boxes(3000, 31u);
  const auto ids = iota_ids(boxes.size());
  Bvh bvh;
  bvh.build(boxes, ids);
  check_structure(bvh, boxes, ids);
  // Each item's own box (and a point at its corner) must find it: touching counts.
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    bool found = false, corner = false;
    bvh.query_box(boxes[i], [&](const LeafItem& item) { found |= item.item == ids[i]; });
    bvh.query_box(Aabb::of_point(boxes[i].max), [&](const LeafItem& item) { corner |= item.item == ids[i]; });
    REQUIRE(found);
    REQUIRE(corner);
  }
  const auto queries = mixed_scale_boxes(500, 32u);
  std::mt19937 rng(33);
  std::uniform_real_distribution<float> exponent(-20.f, 20.f), sign(-1.f, 1.f);
  for (const Aabb& q : queries) {
    check_box_query(bvh, boxes, ids, q);

    const glm::vec3 motion{sign(rng) * std::exp2(exponent(rng)), sign(rng) * std::exp2(exponent(rng)), 0.f};
    check_sweep_query(bvh, boxes, q.center(), 0.5f * q.extents(), motion, 1.f);
  }
}

TEST_CASE("Wide node four-slot tests equal the one-box tests on the decoded boxes") {
  const auto boxes = random_boxes(1500, 30.f, 41u);
  const auto ids = iota_ids(boxes.size());
  Bvh bvh;
  bvh.build(boxes, ids);
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> pos(-35.f, 35.f), mot(-10.f, 10.f), ext(0.f, 2.f), lim(0.f, 1.f);
  std::size_t reached = 0;
  for (int q = 0; q < 200; ++q) {
    const glm::vec3 c{pos(rng), pos(rng), pos(rng)}, e{ext(rng), ext(rng), ext(rng)};
    glm::vec3 m{mot(rng), mot(rng), mot(rng)};
    if (q % 4 == 0) m.z = 0.f;
    const SweptBox swept(c, e, m);
    const Aabb box{c - e, c + e};
    // Limits above 1 too: a slot the box never reaches (t = 2) must stay out even then.
    const float limit = q % 5 == 0 ? 3.f : lim(rng);
    for (const glide::detail::WideNode& w : bvh.wide_nodes()) {
      const glide::detail::SlotBoxes decoded = w.boxes();
      float t[4];
      const unsigned mask = swept.enter4(w, limit, t);
      const unsigned hit = w.overlaps(box);
      for (int k = 0; k < 4; ++k) {
        if (!(w.used >> k & 1u)) {
          CHECK(!(mask >> k & 1u));
          CHECK(!(hit >> k & 1u));
          continue;
        }
        const float exact = swept.enter(decoded.slot(k));
        CHECK(t[k] == exact); // bit for bit: the same operations in the same order
        CHECK(((mask >> k & 1u) != 0) == (exact <= 1.f && exact <= limit)); // SweptBox::in_time
        CHECK(((hit >> k & 1u) != 0) == decoded.slot(k).overlaps(box));
        reached += (mask >> k) & 1u;
      }
    }
  }
  CHECK(reached > 100); // the comparison saw reached slots, not only misses
}

TEST_CASE("Query storage is line-aligned, and huge-page-aligned from 2 MB up") {
  for (std::size_t bytes : {std::size_t{64}, std::size_t{100'000}, std::size_t{2} << 20, std::size_t{5'000'000}}) {
    auto* p = static_cast<unsigned char*>(glide::detail::allocate_query_storage(bytes));
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    CHECK(address % 64 == 0);
    if (bytes >= (std::size_t{2} << 20)) CHECK(address % (std::size_t{2} << 20) == 0);
    std::fill(p, p + bytes, static_cast<unsigned char>(7)); // every byte is usable
    CHECK(p[bytes - 1] == 7);
    glide::detail::free_query_storage(p, bytes);
  }
}

namespace {

template <class T>
bool same_bytes(std::span<const T> a, std::span<const T> b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
}

// Every array a query reads, compared byte for byte: binary and wide nodes, cells, and the
// leaf blocks each wide leaf slot points at.
void check_identical(const Bvh& a, const Bvh& b) {
  CHECK(same_bytes(a.nodes(), b.nodes()));
  REQUIRE(same_bytes(a.wide_nodes(), b.wide_nodes()));
  CHECK(a.items() == b.items());
  REQUIRE(a.cells().cell_count() == b.cells().cell_count());
  for (std::uint32_t i = 0; i < a.cells().cell_count(); ++i)
    CHECK(std::memcmp(&a.cells().cell(i), &b.cells().cell(i), sizeof(glide::detail::SubtreeEntry)) == 0);
  CHECK(std::memcmp(&a.cells().large(), &b.cells().large(), sizeof(glide::detail::SubtreeEntry)) == 0);
  for (const glide::detail::WideNode& w : a.wide_nodes())
    for (int k = 0; k < 4; ++k) {
      if (w.count[k] == 0) continue;
      const LeafItem x = a.leaf_item(w.child[k]), y = b.leaf_item(w.child[k]);
      CHECK(std::memcmp(&x.box, &y.box, sizeof x.box) == 0);
      CHECK(x.item == y.item);
      CHECK(x.word == y.word);
      CHECK(same_bytes(x.payload, y.payload));
    }
}

} // namespace

TEST_CASE("Bvh builds of the same input are byte for byte the same, fresh or rebuilt in place") {
  // Small boxes in cells and a few large ones beside them: every phase of the build runs.
  auto boxes = random_boxes(3000, 40.f, 31u);
  const auto large = random_boxes(40, 40.f, 32u);
  for (const Aabb& b : large) boxes.push_back({b.min - glm::vec3(15.f), b.max + glm::vec3(15.f)});
  const auto ids = iota_ids(boxes.size());
  std::vector<std::vector<glm::vec3>> points(boxes.size());
  std::vector<glide::detail::ItemPayload> payloads(boxes.size());
  for (std::size_t i = 0; i < boxes.size(); ++i) {
    for (std::size_t k = 0; k < 1 + i % 7; ++k) points[i].push_back(boxes[i].min + static_cast<float>(k));
    payloads[i] = {static_cast<std::uint32_t>(i), points[i]};
  }
  Bvh a, b;
  a.build(boxes, ids, payloads);
  REQUIRE(a.cells().active());
  REQUIRE(a.cells().large().used());
  b.build(random_boxes(500, 10.f, 33u), iota_ids(500)); // something else first
  b.build(boxes, ids, payloads);
  check_identical(a, b);
  Bvh c;
  c.build(boxes, ids, payloads);
  check_identical(a, c);
}
