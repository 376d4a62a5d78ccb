// The flags test's queries compiled as a game might compile them: -O3 -mfma -mavx2
// -ffp-contract=fast (tests/gjk/CMakeLists.txt), which fuses a * b + c into one rounding.
#include "fp_flags_queries.hpp"

namespace glide::test::fp_flags {

std::vector<Word> run_all_fast(const Inputs& in, bool user_shape) { return run_all(in, user_shape); }

} // namespace glide::test::fp_flags

namespace glide::test::fp_flags {

/// a * b + c as this file's flags compile it: one rounding when they contract.
float multiply_add_probe(float a, float b, float c) { return a * b + c; }

} // namespace glide::test::fp_flags
