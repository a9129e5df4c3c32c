//===- collectives.hpp - Builtin collective kernels on the pto-isa API ----===//
//
// The kernels a host program's `pld.builtin.*` dispatches run (pld.md §4.6),
// written once against the pto-isa API; pto-translate ships this file with
// programs that use them. Each runs on one AIV core of every rank of the
// domain, with the window views of its operands and the domain's
// CommContext, and leaves every signal cell it used at zero (self-clearing
// credits, pld.md §1.5).
//
//===----------------------------------------------------------------------===//

#ifndef PTO_BUILTIN_COLLECTIVES_HPP
#define PTO_BUILTIN_COLLECTIVES_HPP

#include "pto/pto-inst.hpp"

#ifndef PTO_PLD_CONTEXT_HELPERS
#define PTO_PLD_CONTEXT_HELPERS
static AICORE inline int32_t pld_rank(__gm__ int64_t* ctx) { return (int32_t)(ctx[2] & 0xffffffff); }
static AICORE inline int32_t pld_nranks(__gm__ int64_t* ctx) { return (int32_t)((uint64_t)ctx[2] >> 32); }
template <typename T>
static AICORE inline __gm__ T* pld_peer(__gm__ T* local, __gm__ int64_t* ctx, int32_t peer) {
  return (__gm__ T*)((__gm__ char*)local - ctx[4 + pld_rank(ctx)] + ctx[4 + peer]);
}
#endif

namespace pto_builtin {

using namespace pto;

/// One signal cell as a one-element global tensor.
using Cell = GlobalTensor<int32_t, pto::Shape<1, 1, 1, 1, 1>, pto::Stride<1, 1, 1, 1, 1>, pto::Layout::ND>;

/// Every rank adds one credit to cell [me] of each peer, then waits until
/// each peer's credit in its own cell [peer] reaches `generation`.
static AICORE inline void barrier(__gm__ int32_t* signal, __gm__ int64_t* ctx, int32_t generation) {
  int32_t me = pld_rank(ctx), ranks = pld_nranks(ctx);
  pipe_barrier(PIPE_ALL);
  for (int32_t peer = 0; peer < ranks; ++peer)
    if (peer != me) pto::comm::TNOTIFY(Cell(pld_peer(signal, ctx, peer) + me), 1, pto::comm::NotifyOp::AtomicAdd);
  for (int32_t peer = 0; peer < ranks; ++peer)
    if (peer != me) pto::comm::TWAIT(Cell(signal + peer), generation, pto::comm::WaitCmp::GE);
  dcci((__gm__ void*)0, ENTIRE_DATA_CACHE);
}

/// The credits of `generations` barriers returned: the cells are zero again.
static AICORE inline void release(__gm__ int32_t* signal, __gm__ int64_t* ctx, int32_t generations) {
  int32_t me = pld_rank(ctx), ranks = pld_nranks(ctx);
  for (int32_t peer = 0; peer < ranks; ++peer)
    if (peer != me) pto::comm::TNOTIFY(Cell(signal + peer), -generations, pto::comm::NotifyOp::AtomicAdd);
}

/// Mesh allreduce (sum) of `N` elements of T in place: after a ready
/// barrier every rank adds its peers' copies to its own, in rank order,
/// 256 elements at a time; a read-done barrier precedes the store of the
/// result over its own copy.
template <typename T, int N>
AICORE void allreduce_sum(__gm__ T* data, __gm__ int32_t* signal, __gm__ int64_t* ctx) {
  constexpr int kTile = N < 256 ? N : 256;
  static_assert(N % kTile == 0, "the builtin allreduce takes whole 256-element tiles");
  static_assert(N * sizeof(T) <= 0x10000, "the builtin allreduce keeps its sums in the first 64 KiB of UB");
  using Vec = Tile<TileType::Vec, T, 1, kTile, BLayout::RowMajor, 1, kTile, SLayout::NoneBox, 512, PadValue::Null>;
  using Row = GlobalTensor<T, pto::Shape<1, 1, 1, 1, kTile>, pto::Stride<kTile, kTile, kTile, kTile, 1>, pto::Layout::ND>;
  int32_t me = pld_rank(ctx), ranks = pld_nranks(ctx);
  barrier(signal, ctx, 1);
  Vec sums[N / kTile];
  Vec peer_tile;
  TASSIGN(peer_tile, 0x10000);
  for (int t = 0; t < N / kTile; ++t) {
    TASSIGN(sums[t], uint64_t(t) * kTile * sizeof(T));
    TLOAD(sums[t], Row(data + t * kTile));
    for (int32_t peer = 0; peer < ranks; ++peer) {
      if (peer == me) continue;
      TLOAD(peer_tile, Row(pld_peer(data, ctx, peer) + t * kTile));
      pipe_barrier(PIPE_ALL);
      TADD(sums[t], sums[t], peer_tile);
      pipe_barrier(PIPE_ALL);
    }
  }
  barrier(signal, ctx, 2);
  for (int t = 0; t < N / kTile; ++t) TSTORE(Row(data + t * kTile), sums[t]);
  pipe_barrier(PIPE_ALL);
  dsb(DSB_DDR);
  release(signal, ctx, 2);
}

} // namespace pto_builtin

#endif // PTO_BUILTIN_COLLECTIVES_HPP
