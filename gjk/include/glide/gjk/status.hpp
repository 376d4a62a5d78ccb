#pragma once

namespace glide::gjk {

/// How a GJK-family query ended. Every status comes with finite output.
enum class Status {
  converged,      ///< the tolerances were met (or the simplex holds the origin): result within the stated accuracy
  max_iterations, ///< the iteration cap was hit first: the result is the best found so far (an upper bound)
  degenerate,     ///< rounding stopped progress before the tolerances were met: best found, an upper bound
  invalid_input,  ///< NaN/Inf (or coordinates beyond ~1e19 m) in a support point, a radius or the settings: zeros
                  ///< returned
};

} // namespace glide::gjk
