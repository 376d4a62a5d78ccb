// Case files parsed and run: every outcome is a pass, a fail or an error, never a crash.
#include "fuzz_support.hpp"

#include <glide/cases/cases.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = glide::fuzz::write_input("case.json", data, size);
  (void)glide::run_case_file(path);
  return 0;
}
