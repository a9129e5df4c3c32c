//===- spmd.hpp - SPMD launches on the simulator --------------------------===//
//
// A launch of a kernel on several blocks (docs/translate.md, "SPMD
// launches"): the simulator runs the blocks one after another on the
// calling thread's core, each call given the identity the kernel reads, as
// its trailing parameters: the block index (mask bit 1), the block count
// (bit 2) and the sub-block index (bit 4, always 0: one vector core per
// block).
//
//===----------------------------------------------------------------------===//

#ifndef PTO_SIM_SPMD_HPP
#define PTO_SIM_SPMD_HPP

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <tuple>

namespace pto::sim {

template <int Mask, typename Kernel, typename... Args> void launch_blocks(long blocks, Kernel kernel, Args... args) {
  if (blocks < 1) {
    std::fprintf(stderr, "pto sim: error: a launch of %ld blocks\n", blocks);
    std::exit(1);
  }
  for (long block = 0; block < blocks; ++block) {
    auto identity = std::tuple_cat(
        [&] { if constexpr ((Mask & 1) != 0) return std::make_tuple(int32_t(block)); else return std::tuple<>(); }(),
        [&] { if constexpr ((Mask & 2) != 0) return std::make_tuple(int32_t(blocks)); else return std::tuple<>(); }(),
        [&] { if constexpr ((Mask & 4) != 0) return std::make_tuple(int32_t(0)); else return std::tuple<>(); }());
    std::apply(kernel, std::tuple_cat(std::make_tuple(args...), identity));
  }
}

} // namespace pto::sim

#endif // PTO_SIM_SPMD_HPP
