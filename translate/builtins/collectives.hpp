//===- collectives.hpp - Builtin collective kernels on the pto-isa API ----===//
//
// The kernels a host program's `pld.builtin.*` calls run,
// written once against the pto-isa API; pto-translate ships this file with
// programs that use them. Each runs on one AIV core of every rank of the
// domain, with the window views of its operands and the domain's
// CommContext, and leaves every signal cell it used at zero (self-clearing
// credits: each rank takes back from its own cells what its peers added).
//
//===----------------------------------------------------------------------===//

#ifndef PTO_BUILTIN_COLLECTIVES_HPP
#define PTO_BUILTIN_COLLECTIVES_HPP

#include <cstdint>

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

/// The reduction of a collective (pl ReduceOp codes).
enum Reduce { Sum = 0, Max = 1, Min = 2, Prod = 3 };

template <int Op, typename D, typename A, typename B> AICORE inline void combine(D &dst, A &a, B &b) {
  if constexpr (Op == Max) TMAX(dst, a, b);
  else if constexpr (Op == Min) TMIN(dst, a, b);
  else if constexpr (Op == Prod) TMUL(dst, a, b);
  else TADD(dst, a, b);
}

/// Every rank adds one credit to its cell in row `row` of each peer's
/// signal, then waits until each peer's credit in its own row `row`
/// reaches `generation`. A row has one cell per rank, `stride` cells apart.
static AICORE inline void barrier(__gm__ int32_t* signal, __gm__ int64_t* ctx, int32_t row, int32_t stride, int32_t generation) {
  int32_t me = pld_rank(ctx), ranks = pld_nranks(ctx);
  __gm__ int32_t* cells = signal + row * ranks * stride;
  pipe_barrier(PIPE_ALL);
  dsb(DSB_DDR);
  for (int32_t peer = 0; peer < ranks; ++peer)
    if (peer != me) {
      Cell theirs(pld_peer(cells, ctx, peer) + me * stride);
      pto::comm::TNOTIFY(theirs, 1, pto::comm::NotifyOp::AtomicAdd);
    }
  for (int32_t peer = 0; peer < ranks; ++peer)
    if (peer != me) {
      Cell mine(cells + peer * stride);
      pto::comm::TWAIT(mine, generation, pto::comm::WaitCmp::GE);
    }
  dcci((__gm__ void*)0, cache_line_t::ENTIRE_DATA_CACHE);
}

/// The credits of `generations` barriers on row `row` returned: its cells
/// are zero again.
static AICORE inline void release(__gm__ int32_t* signal, __gm__ int64_t* ctx, int32_t row, int32_t stride, int32_t generations) {
  int32_t me = pld_rank(ctx), ranks = pld_nranks(ctx);
  __gm__ int32_t* cells = signal + row * ranks * stride;
  for (int32_t peer = 0; peer < ranks; ++peer)
    if (peer != me) {
      Cell mine(cells + peer * stride);
      pto::comm::TNOTIFY(mine, -generations, pto::comm::NotifyOp::AtomicAdd);
    }
}

/// A piece of at most 256 elements of a flat window and a UB tile for it
/// (its valid columns: the piece's length). The window of global memory a
/// piece moves is exactly its length (pto-isa's rule: a window's extents
/// are the tile's valid ones).
template <typename T> struct Piece {
  static constexpr int kCols = 256;
  using Vec = Tile<TileType::Vec, T, 1, kCols, BLayout::RowMajor, 1, -1, SLayout::NoneBox, 512, PadValue::Null>;
  using Extent = pto::Shape<1, 1, 1, 1, -1>;
  using Window = GlobalTensor<T, Extent, pto::Stride<kCols, kCols, kCols, kCols, 1>, pto::Layout::ND>;
  static AICORE inline int length(int at, int n) { return n - at < kCols ? n - at : kCols; }
  static AICORE inline Window window(__gm__ T* at, int length) { return Window(at, Extent(1, 1, 1, 1, length)); }
};

/// `n` elements copied from `from` to `to` (either may be a peer's) a
/// piece at a time through UB.
template <typename T> AICORE inline void copy_span(__gm__ T* to, __gm__ T* from, int32_t n) {
  using P = Piece<T>;
  for (int at = 0; at < n; at += P::kCols) {
    typename P::Vec piece(P::length(at, n));
    TASSIGN(piece, 0);
    typename P::Window source = P::window(from + at, P::length(at, n));
    TLOAD(piece, source);
    pipe_barrier(PIPE_ALL);
    typename P::Window target = P::window(to + at, P::length(at, n));
    TSTORE(target, piece);
    pipe_barrier(PIPE_ALL);
  }
}

/// The mesh fold of `n` elements at `span` (a place in this rank's window):
/// after a ready barrier every rank folds its peers' copies of the span
/// into its own, in rank order, a piece at a time. The folded pieces wait
/// in the first 64 KiB of UB, so a longer span goes in chunks of that size:
/// after each chunk's fold a read-done barrier (every peer has read this
/// chunk of every copy) precedes the store over this rank's copy. The
/// barriers count up one generation each on row 0; the cells are released
/// together at the end. Every rank runs the same number of chunks.
template <typename T, int Op>
AICORE void mesh_fold(__gm__ T* span, int32_t n, __gm__ int32_t* signal, __gm__ int64_t* ctx, int32_t stride) {
  using P = Piece<T>;
  constexpr int kMost = 0x10000 / (P::kCols * int(sizeof(T)));
  int32_t me = pld_rank(ctx), ranks = pld_nranks(ctx);
  int pieces = (n + P::kCols - 1) / P::kCols;
  int32_t generation = 1;
  barrier(signal, ctx, 0, stride, generation);
  typename P::Vec sums[kMost];
  for (int first = 0; first < pieces; first += kMost) {
    int count = pieces - first < kMost ? pieces - first : kMost;
    for (int t = 0; t < count; ++t) {
      int at = (first + t) * P::kCols, length = P::length(at, n);
      sums[t] = typename P::Vec(length);
      typename P::Vec theirs(length);
      TASSIGN(sums[t], uint64_t(t) * P::kCols * sizeof(T));
      TASSIGN(theirs, 0x10000);
      typename P::Window own = P::window(span + at, length);
      TLOAD(sums[t], own);
      for (int32_t peer = 0; peer < ranks; ++peer) {
        if (peer == me) continue;
        typename P::Window peers = P::window(pld_peer(span, ctx, peer) + at, length);
        TLOAD(theirs, peers);
        pipe_barrier(PIPE_ALL);
        combine<Op>(sums[t], sums[t], theirs);
        pipe_barrier(PIPE_ALL);
      }
    }
    barrier(signal, ctx, 0, stride, ++generation);
    for (int t = 0; t < count; ++t) {
      int at = (first + t) * P::kCols;
      typename P::Window own = P::window(span + at, P::length(at, n));
      TSTORE(own, sums[t]);
    }
    pipe_barrier(PIPE_ALL);
  }
  dsb(DSB_DDR);
  release(signal, ctx, 0, stride, generation);
}

/// Mesh allreduce of `n` elements in place.
template <typename T, int Op>
AICORE void allreduce(__gm__ T* data, __gm__ int32_t* signal, __gm__ int64_t* ctx, int32_t n, int32_t stride) {
  mesh_fold<T, Op>(data, n, signal, ctx, stride);
}

/// Ring segment boundary b(i), as pld-lower-composite-ops cuts a ring: f32
/// i*N/P; f16 rounded up to 16 elements.
template <typename T> AICORE inline int segment_boundary(int i, int total, int ranks) {
  if (sizeof(T) == 2) {
    int b = (i * total + 16 * ranks - 1) / (16 * ranks) * 16;
    return b < total ? b : total;
  }
  return i * total / ranks;
}

/// Ring allreduce of `N` elements in place, over a signal of 2(P-1)+1 rows
/// of P cells. Reduce-scatter steps k = 1..P-1: rank me folds its own copy
/// of segment (me-1-k) mod P onto its left neighbour's, which holds the
/// fold so far — segment s is folded starting at rank s+1 and ends, whole,
/// at rank s. Allgather steps k = 1..P-1: rank me copies segment (me-k)
/// mod P from its left neighbour. Each step starts with a barrier on a row
/// of its own; a last one ends the collective.
template <typename T, int Op>
AICORE void allreduce_ring(__gm__ T* data, __gm__ int32_t* signal, __gm__ int64_t* ctx, int32_t N, int32_t stride) {
  using P = pto_builtin::Piece<T>;
  using Piece = typename P::Vec;
  using Window = typename P::Window;
  int32_t me = pld_rank(ctx), ranks = pld_nranks(ctx), left = (me + ranks - 1) % ranks;
  __gm__ T* theirs = pld_peer(data, ctx, left);
  int32_t row = 0;
  for (int32_t k = 1; k < ranks; ++k, ++row) {
    barrier(signal, ctx, row, stride, 1);
    int32_t s = ((me - 1 - k) % ranks + 2 * ranks) % ranks;
    int begin = segment_boundary<T>(s, N, ranks), end = segment_boundary<T>(s + 1, N, ranks);
    for (int at = begin; at < end; at += 256) {
      int n = end - at < 256 ? end - at : 256;
      Piece mine(n), fold(n);
      TASSIGN(mine, 0);
      TASSIGN(fold, 0x400);
      Window own = P::window(data + at, n), left = P::window(theirs + at, n);
      TLOAD(mine, own);
      TLOAD(fold, left);
      pipe_barrier(PIPE_ALL);
      combine<Op>(mine, mine, fold);
      pipe_barrier(PIPE_ALL);
      TSTORE(own, mine);
      pipe_barrier(PIPE_ALL);
    }
  }
  for (int32_t k = 1; k < ranks; ++k, ++row) {
    barrier(signal, ctx, row, stride, 1);
    int32_t s = ((me - k) % ranks + ranks) % ranks;
    int begin = segment_boundary<T>(s, N, ranks), end = segment_boundary<T>(s + 1, N, ranks);
    for (int at = begin; at < end; at += 256) {
      int n = end - at < 256 ? end - at : 256;
      Piece piece(n);
      TASSIGN(piece, 0);
      Window own = P::window(data + at, n), left = P::window(theirs + at, n);
      TLOAD(piece, left);
      pipe_barrier(PIPE_ALL);
      TSTORE(own, piece);
      pipe_barrier(PIPE_ALL);
    }
  }
  barrier(signal, ctx, row, stride, 1);
  for (int32_t r = 0; r <= row; ++r) release(signal, ctx, r, stride, 1);
}

/// A barrier across the domain.
AICORE inline void barrier_only(__gm__ int32_t* signal, __gm__ int64_t* ctx, int32_t stride) {
  barrier(signal, ctx, 0, stride, 1);
  release(signal, ctx, 0, stride, 1);
}

/// Broadcast of `n` elements from rank `Root`: a ready barrier, every other
/// rank copies the root's, a done barrier (the root's copy may change after).
template <typename T, int Root>
AICORE void broadcast(__gm__ T* data, __gm__ int32_t* signal, __gm__ int64_t* ctx, int32_t n, int32_t stride) {
  int32_t me = pld_rank(ctx);
  barrier(signal, ctx, 0, stride, 1);
  if (me != Root) copy_span(data, pld_peer(data, ctx, Root), n);
  barrier(signal, ctx, 0, stride, 2);
  release(signal, ctx, 0, stride, 2);
}

/// Reduce-scatter of a [P, Row] window: rank me folds every rank's row me
/// into its own, in rank order; the other rows stay.
template <typename T, int Row, int Op>
AICORE void reduce_scatter(__gm__ T* data, __gm__ int32_t* signal, __gm__ int64_t* ctx, int32_t stride) {
  mesh_fold<T, Op>(data + pld_rank(ctx) * Row, Row, signal, ctx, stride);
}

/// Allgather (`Pick` = false: every rank sends row 0 of its input) or
/// all-to-all (`Pick` = true: row `dest` to rank dest): the row lands in
/// row me of every destination's target; a barrier ends it.
template <typename T, int Row, bool Pick>
AICORE void exchange(__gm__ T* input, __gm__ T* target, __gm__ int32_t* signal, __gm__ int64_t* ctx, int32_t stride) {
  int32_t me = pld_rank(ctx), ranks = pld_nranks(ctx);
  for (int32_t dest = 0; dest < ranks; ++dest) copy_span(pld_peer(target, ctx, dest) + me * Row, input + (Pick ? dest * Row : 0), Row);
  dsb(DSB_DDR);
  barrier(signal, ctx, 0, stride, 1);
  release(signal, ctx, 0, stride, 1);
}

/// All-to-all-v over [Rows, Row] windows: rank me sends rows
/// dest·R .. dest·R + R - 1 of its input (R = Rows / P) to rows me·R .. of
/// rank dest's target, whole, and sets rank dest's receive count me to
/// min(send_counts[dest], R) (a Set notify); a barrier ends it.
template <typename T, int Row, int Rows, int SendLen, int CountRow>
AICORE void exchange_v(__gm__ T* input, __gm__ T* target, __gm__ int32_t* send, __gm__ int32_t* recv, __gm__ int32_t* signal,
                       __gm__ int64_t* ctx, int32_t stride) {
  int32_t me = pld_rank(ctx), ranks = pld_nranks(ctx);
  int32_t most = Rows / ranks;
  for (int32_t dest = 0; dest < ranks; ++dest) {
    int32_t count = send[dest * (SendLen / ranks)];
    Cell theirs(pld_peer(recv, ctx, dest) + me * CountRow);
    pto::comm::TNOTIFY(theirs, count < most ? count : most, pto::comm::NotifyOp::Set);
    copy_span(pld_peer(target, ctx, dest) + me * most * Row, input + dest * most * Row, most * Row);
  }
  dsb(DSB_DDR);
  barrier(signal, ctx, 0, stride, 1);
  release(signal, ctx, 0, stride, 1);
}

} // namespace pto_builtin

#endif // PTO_BUILTIN_COLLECTIVES_HPP
