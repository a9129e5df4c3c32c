//===- prefetch.hpp - asynchronous L2 prefetches --------------------------===//
//
// The instruction model's TPREFETCH_ASYNC and its context, event and
// session, as pto-isa declares them: the model has no L2 cache, so a
// prefetch changes nothing and its event is complete (as pto-isa's CPU
// backend, and its a2a3 form without an SDMA workspace).
//
//===----------------------------------------------------------------------===//

#ifndef PTO_SIM_PREFETCH_HPP
#define PTO_SIM_PREFETCH_HPP

#include <cstdint>

namespace pto {
namespace comm {
/// A DMA session (no engine here).
struct AsyncSession {
  bool valid = false;
};

/// A prefetch's completion: always complete here.
struct AsyncEvent {
  bool Wait(const AsyncSession &) const { return true; }
  bool Test(const AsyncSession &) const { return true; }
};
} // namespace comm

/// A vector core's prefetch state: an SDMA workspace and its session.
struct PrefetchAsyncContext {
  uint8_t *workspace = nullptr;
  comm::AsyncSession session;
  PrefetchAsyncContext() = default;
  explicit PrefetchAsyncContext(uint8_t *workspace_) : workspace(workspace_) {}
};

/// Stages the whole of `src` into the L2 cache: nothing to do here.
template <typename G> comm::AsyncEvent TPREFETCH_ASYNC(G &, PrefetchAsyncContext &) { return {}; }
} // namespace pto

#endif // PTO_SIM_PREFETCH_HPP
