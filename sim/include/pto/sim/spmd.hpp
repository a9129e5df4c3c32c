//===- spmd.hpp - SPMD launches on the simulator --------------------------===//
//
// A launch of a kernel on several blocks (docs/translate.md, "SPMD
// launches"): the simulator runs the blocks one after another on the
// calling thread's core, or, when the launch starts them together
// (`sync_start`, mask bit 8), each on a thread (a core) of its own, which
// is what a cross-block barrier (`pl.system.syncall`: `syncall` here)
// needs. Each call is given the identity the kernel reads, as its trailing
// parameters: the block index (mask bit 1), the block count (bit 2) and the
// sub-block index (bit 4: 0 here, one vector core per block; a core group's
// launch, groups.hpp, gives each vector core its own).
//
//===----------------------------------------------------------------------===//
#ifndef PTO_SIM_SPMD_HPP
#define PTO_SIM_SPMD_HPP

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <tuple>
#include <vector>

namespace pto::sim {

/// The barrier across the blocks of a launch that starts them together.
struct LaunchBarrier {
  explicit LaunchBarrier(long count) : blocks(count) {}
  long blocks;
  long arrived = 0;
  unsigned long generation = 0;
  bool gone = false;
  std::mutex lock;
  std::condition_variable released;
};

/// The launch this thread runs a block of: its barrier (null when the
/// blocks run one after another) and its block count.
struct CurrentLaunch {
  LaunchBarrier *barrier = nullptr;
  long blocks = 1;
};
inline CurrentLaunch &current_launch() {
  static thread_local CurrentLaunch launch;
  return launch;
}

[[noreturn]] inline void barrier_deadlock() {
  std::fprintf(stderr, "pto sim: error: a block waits at a pl.system.syncall that never completes: another block of "
                       "the launch ended without reaching it (the launch deadlocks on the device)\n");
  std::exit(1);
}

/// `pl.system.syncall`: returns once every block of the launch has called
/// it (`used`, when not 0, must be the launch's block count).
inline void syncall(long used = 0) {
  CurrentLaunch &launch = current_launch();
  if (used != 0 && used != launch.blocks) {
    std::fprintf(stderr, "pto sim: error: a soft pl.system.syncall for %ld blocks in a launch of %ld\n", used,
                 launch.blocks);
    std::exit(1);
  }
  if (launch.blocks == 1) return;
  LaunchBarrier *barrier = launch.barrier;
  if (barrier == nullptr) {
    std::fprintf(stderr, "pto sim: error: a pl.system.syncall in a launch of %ld blocks that does not start them "
                         "together (sync_start): they run one after another, and the barrier never completes\n",
                 launch.blocks);
    std::exit(1);
  }
  std::unique_lock<std::mutex> guard(barrier->lock);
  if (barrier->gone) barrier_deadlock();
  if (++barrier->arrived == barrier->blocks) {
    barrier->arrived = 0;
    ++barrier->generation;
    barrier->released.notify_all();
    return;
  }
  unsigned long generation = barrier->generation;
  barrier->released.wait(guard, [&] { return barrier->generation != generation || barrier->gone; });
  if (barrier->generation == generation) barrier_deadlock();
}

/// Runs `block(b)` for every block of a launch of `blocks`: one after
/// another on this thread, or each on a thread (a core) of its own
/// sharing a barrier when `together`.
template <typename Block> void run_blocks(long blocks, bool together, Block block) {
  if (!together || blocks == 1) {
    CurrentLaunch saved = current_launch();
    current_launch() = CurrentLaunch{nullptr, blocks};
    for (long b = 0; b < blocks; ++b) block(b);
    current_launch() = saved;
    return;
  }
  LaunchBarrier barrier(blocks);
  std::vector<std::thread> threads;
  for (long b = 0; b < blocks; ++b) {
    threads.emplace_back([&barrier, &block, blocks, b] {
      current_launch() = CurrentLaunch{&barrier, blocks};
      block(b);
      std::lock_guard<std::mutex> guard(barrier.lock);
      barrier.gone = true;
      barrier.released.notify_all();
    });
  }
  for (std::thread &thread : threads) thread.join();
}

/// The identity a kernel taking the queries of `Mask` is given, as its
/// trailing parameters: the block index (bit 1), the block count (bit 2),
/// the sub-block (vector core) index (bit 4).
template <int Mask> auto block_identity(long block, long blocks, int subblock) {
  return std::tuple_cat(
      [&] { if constexpr ((Mask & 1) != 0) return std::make_tuple(int32_t(block)); else return std::tuple<>(); }(),
      [&] { if constexpr ((Mask & 2) != 0) return std::make_tuple(int32_t(blocks)); else return std::tuple<>(); }(),
      [&] { if constexpr ((Mask & 4) != 0) return std::make_tuple(int32_t(subblock)); else return std::tuple<>(); }());
}

template <int Mask, typename Kernel, typename... Args> void launch_blocks(long blocks, Kernel kernel, Args... args) {
  if (blocks < 1) {
    std::fprintf(stderr, "pto sim: error: a launch of %ld blocks\n", blocks);
    std::exit(1);
  }
  run_blocks(blocks, (Mask & 8) != 0, [&](long block) {
    std::apply(kernel, std::tuple_cat(std::make_tuple(args...), block_identity<Mask>(block, blocks, 0)));
  });
}
} // namespace pto::sim

#endif // PTO_SIM_SPMD_HPP
