//===- groups.hpp - Core-group launches on the simulator ------------------===//
//
// A core group (docs/pl-guide.md, "Mixed kernels") launched by a simulated
// program: its aic kernel on a cube thread and its aiv kernel on one
// thread per vector core, all at once, as the device runs them; their
// cross-core pipes (pto-isa's TPipe on its CPU backend, pto/sim/pipes.hpp
// on the model) block until the peer has pushed or freed. Each thread
// carries its core's identity: pto-isa's execution context
// (cpu_sim::ScopedExecutionContext: block 0, the vector core's index and
// count) or the model's seat. A group whose pipes are all split `none`
// runs vector core 0 alone (pto-isa's TILE_NO_SPLIT); with a split, both.
// A launch whose cores have not all finished after
// PTO_SIM_DEADLOCK_SECONDS (60; 0: no limit) is reported as a deadlock.
//
//===----------------------------------------------------------------------===//
#ifndef PTO_SIM_GROUPS_HPP
#define PTO_SIM_GROUPS_HPP

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <tuple>
#include <utility>
#include <vector>

#include "pto/sim/backend.hpp"
#include "pto/sim/spmd.hpp"

namespace pto::sim {

/// Runs `kernel` with the elements [Offset, Offset + sizeof...(I)) of
/// `args`, then `identity`'s.
template <std::size_t Offset, typename Kernel, typename Tuple, typename Identity, std::size_t... I>
void apply_range(Kernel kernel, Tuple &args, Identity identity, std::index_sequence<I...>) {
  std::apply([&](auto... trailing) { kernel(std::get<Offset + I>(args)..., trailing...); }, identity);
}

/// This thread is core `vector` of a group of `lanes` vector cores (the
/// cube when `vector` is negative).
inline void take_seat(int vector, int lanes) {
#if PTO_SIM_ON_PTO_ISA
  (void)vector;
  (void)lanes;
#else
  core_seat() = CoreSeat{vector < 0, uint32_t(vector < 0 ? 0 : vector), uint32_t(lanes)};
#endif
}

/// Runs a core group's cores at once, each on a thread with its identity:
/// `core(-1)` on the cube, `core(lane)` on each of `lanes` vector cores.
/// A launch whose cores have not all finished after
/// PTO_SIM_DEADLOCK_SECONDS (60; 0: no limit) is a deadlock: reported, and
/// the program stops.
template <typename Core> void run_group(const char *name, int lanes, Core core) {
  if (lanes != 1 && lanes != 2) {
    std::fprintf(stderr, "pto sim: error: core group @%s: %d vector cores (a group has one or two)\n", name, lanes);
    std::exit(1);
  }
#if !PTO_SIM_ON_PTO_ISA
  ++group_launches();
#endif
  std::vector<std::future<void>> cores;
  for (int seat = -1; seat < lanes; ++seat) {
    cores.push_back(std::async(std::launch::async, [&core, seat, lanes] {
#if PTO_SIM_ON_PTO_ISA
      pto::cpu_sim::ScopedExecutionContext context(0, uint32_t(seat < 0 ? 0 : seat), uint32_t(seat < 0 ? 1 : lanes));
#endif
      take_seat(seat, lanes);
      core(seat);
    }));
  }
  const char *limit = std::getenv("PTO_SIM_DEADLOCK_SECONDS");
  long seconds = limit && *limit ? std::atol(limit) : 60;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  for (std::size_t i = 0; i < cores.size(); ++i) {
    if (seconds <= 0) {
      cores[i].wait();
      continue;
    }
    if (cores[i].wait_until(deadline) != std::future_status::ready) {
      std::fprintf(stderr,
                   "pto sim: error: deadlock: core group @%s: the %s still runs after %ld s (its pipes wait for "
                   "a push or a free that never comes)\n",
                   name, i == 0 ? "cube core" : (i == 1 ? "vector core 0" : "vector core 1"), seconds);
      std::_Exit(1);
    }
  }
}

/// Launches a core group: `aic` with the first `AicArgs` of `args`, `aiv`
/// on `Lanes` vector cores with the rest; each kernel also takes the block
/// queries of its mask (spmd.hpp's block_identity: block 0 of 1, the
/// cube's sub-block 0, each vector core's its own index).
template <int Lanes, std::size_t AicArgs, int AicMask = 0, int AivMask = 0, typename Aic, typename Aiv, typename... Args>
void launch_group(const char *name, Aic aic, Aiv aiv, Args... args) {
  static_assert(Lanes == 1 || Lanes == 2, "a core group has one or two vector cores");
  auto all = std::make_tuple(args...);
  constexpr std::size_t AivArgs = sizeof...(Args) - AicArgs;
  run_group(name, Lanes, [&](int seat) {
    if (seat < 0)
      apply_range<0>(aic, all, block_identity<AicMask>(0, 1, 0), std::make_index_sequence<AicArgs>{});
    else
      apply_range<AicArgs>(aiv, all, block_identity<AivMask>(0, 1, seat), std::make_index_sequence<AivArgs>{});
  });
}

} // namespace pto::sim

#endif // PTO_SIM_GROUPS_HPP
