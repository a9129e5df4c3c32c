//===- pto-inst.hpp - CPU simulation of the pto-isa tile API --------------===//
//
// The part of the pto-isa C++ API that pto-translate's output calls, for the
// host CPU with g++ (C++17). Written from the API's documented contract
// (docs/translate.md): tiles live at their planned byte addresses in
// per-core arenas (UB, L1, L0A, L0B, L0C, bias), so a wrong address or an
// overlap corrupts data exactly as it would on the device; global tensors
// are five-dimensional views of host memory.
//
// Elements lie where a2a3's tile layouts put them (Tile::offset), so views of
// one address in different layouts see each other's data as on the device.
// What differs from hardware: pipes run in program order, so set_flag/wait_flag and
// pipe_barrier only check their arguments (and, with the hazard checker on,
// order the pipes' clocks: pto/sim/hazards.hpp); f16 arithmetic is GCC's
// _Float16 (computed in f32, rounded to f16).
//
// The arithmetic is that of pto-isa's CPU backend, bit for bit
// (test/e2e/sim-vs-pto-isa.test), except where pl defines a result that
// backend does not compute (pto-run and the model agree there): the sign
// of a prelu of ±0 by a negative slope and of |-0|, the -0 that a sum of
// nothing but -0 is, TCMPS's exact EQ and NE, the int32 minimum's
// remainder by -1 (a failure here, a trap there); and reductions add in
// their order (docs/a2a3-lowering.md), which clang's vectorised build of
// pto-isa does not keep for f32 row sums.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_SIM_PTO_INST_HPP
#define PTO_SIM_PTO_INST_HPP

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <chrono>
#include <mutex>
#include <thread>
#include <type_traits>

#include "pto/sim/a2a3.hpp"
#include "pto/sim/hazards.hpp"

#define __gm__
#define __global__
#define AICORE
#define __aicore__

using half = _Float16;

/// bfloat16: the upper half of an f32, rounded to nearest even.
struct bfloat16_t {
  uint16_t bits = 0;
  bfloat16_t() = default;
  bfloat16_t(float value) {
    uint32_t u;
    std::memcpy(&u, &value, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
      bits = uint16_t((u >> 16) | 0x40);
    } else {
      u += 0x7fffu + ((u >> 16) & 1u);
      bits = uint16_t(u >> 16);
    }
  }
  operator float() const {
    uint32_t u = uint32_t(bits) << 16;
    float value;
    std::memcpy(&value, &u, 4);
    return value;
  }
};

using std::ptrdiff_t;
using std::size_t;

namespace pto {

[[noreturn]] inline void fail(const char *what) {
  std::fprintf(stderr, "pto sim: error: %s\n", what);
  std::abort();
}

enum class TileType { Vec, Mat, Left, Right, Acc, Bias };
enum class BLayout { RowMajor, ColMajor };
enum class SLayout { NoneBox, RowMajor, ColMajor };
enum class PadValue : uint64_t { Null, Zero, Max, Min };
enum class RoundMode { CAST_NONE, CAST_RINT, CAST_ROUND, CAST_FLOOR, CAST_CEIL, CAST_TRUNC, CAST_ODD };
enum class Layout { ND, DN, NZ };

/// The per-core on-chip memories, one set per thread (a rank's core),
/// sized as pl-plan-memory plans them (pto/sim/a2a3.hpp).
struct Arenas {
  alignas(64) unsigned char ub[pto::sim::a2a3::kUbBytes];
  alignas(64) unsigned char l1[pto::sim::a2a3::kL1Bytes];
  alignas(64) unsigned char l0a[pto::sim::a2a3::kL0aBytes];
  alignas(64) unsigned char l0b[pto::sim::a2a3::kL0bBytes];
  alignas(64) unsigned char l0c[pto::sim::a2a3::kL0cBytes];
  alignas(64) unsigned char bias[pto::sim::a2a3::kBiasBytes];
};

inline Arenas &arenas() {
  static thread_local Arenas *core = new Arenas();
  return *core;
}

inline unsigned char *arena(TileType type, uint64_t &capacity, uint64_t &alignment) {
  namespace limits = pto::sim::a2a3;
  Arenas &a = arenas();
  switch (type) {
  case TileType::Vec: capacity = sizeof a.ub; alignment = limits::kUbAlignment; return a.ub;
  case TileType::Mat: capacity = sizeof a.l1; alignment = limits::kL1Alignment; return a.l1;
  case TileType::Left: capacity = sizeof a.l0a; alignment = limits::kL0aAlignment; return a.l0a;
  case TileType::Right: capacity = sizeof a.l0b; alignment = limits::kL0bAlignment; return a.l0b;
  case TileType::Acc: capacity = sizeof a.l0c; alignment = limits::kL0cAlignment; return a.l0c;
  case TileType::Bias: capacity = sizeof a.bias; alignment = limits::kBiasAlignment; return a.bias;
  }
  fail("unknown tile type");
}

template <TileType Loc, typename T, int Rows, int Cols, BLayout B = BLayout::RowMajor, int ValidRows = Rows,
          int ValidCols = Cols, SLayout S = SLayout::NoneBox, int Fractal = 512, PadValue Pad = PadValue::Null>
struct Tile {
  // pto-isa's rule for unboxed tiles: rows (row-major) or columns
  // (column-major) of a multiple of 32 bytes.
  static_assert(S != SLayout::NoneBox || (B == BLayout::RowMajor ? Cols : Rows) * sizeof(T) % 32 == 0,
                "an unboxed tile's rows (row-major) or columns (column-major) must be 32-byte aligned");
  using DType = T;
  static constexpr TileType loc = Loc;
  static constexpr int rows = Rows, cols = Cols;
  static constexpr PadValue pad = Pad;
  /// The valid extents: the template's, or (for -1) the constructor's.
  int validRows = ValidRows < 0 ? 0 : ValidRows, validCols = ValidCols < 0 ? 0 : ValidCols;
  T *base = nullptr;

  Tile() = default;
  /// pto-isa's constructors take the dynamic valid extents only: both,
  /// Tile(rows, cols), or the one that is dynamic, Tile(extent).
  template <int R = ValidRows, int C = ValidCols, std::enable_if_t<(R < 0 && C < 0), int> = 0>
  Tile(long rows, long cols) : validRows(int(rows)), validCols(int(cols)) {
    check_extents();
  }
  template <int R = ValidRows, int C = ValidCols, std::enable_if_t<((R < 0) != (C < 0)), int> = 0>
  explicit Tile(long extent) {
    (ValidRows < 0 ? validRows : validCols) = int(extent);
    check_extents();
  }
  void check_extents() const {
    if (validRows > Rows || validCols > Cols || validRows < 0 || validCols < 0) fail("a tile's valid extents exceed its shape");
  }
  int GetValidRow() const { return validRows; }
  int GetValidCol() const { return validCols; }
  /// Scalar access by row-major element index (the S pipe).
  template <typename V> void SetValue(long index, V value) const {
    T &cell = at(int(index / Cols), int(index % Cols));
    sim::hazards::step(sim::hazards::S, "SetValue", {}, {{&cell, &cell + 1}});
    cell = T(value);
  }
  T GetValue(long index) const {
    T &cell = at(int(index / Cols), int(index % Cols));
    sim::hazards::step(sim::hazards::S, "GetValue", {{&cell, &cell + 1}}, {});
    return cell;
  }

  /// Where element (r, c) lies in the tile's storage: a2a3's layouts, so
  /// that two tiles at one address see each other's elements where the
  /// device would (a Mat tile read through a view of the transposed layout
  /// is its transpose). Unboxed: row- or column-major. Boxed: boxes of
  /// 16 rows × 32 bytes (z inner, SLayout::RowMajor) or 32 bytes × 16
  /// columns (n inner, SLayout::ColMajor), 16 × 16 for accumulators'
  /// 1024-byte fractals, the boxes laid row-major (Z outer,
  /// BLayout::RowMajor) or column-major (N outer, BLayout::ColMajor).
  /// A boxed layout of a single row is row-major.
  static constexpr int box_rows_of =
      S == SLayout::NoneBox ? 1 : (Fractal == 1024 || S == SLayout::RowMajor ? 16 : int(32 / sizeof(T)));
  static constexpr int box_cols_of =
      S == SLayout::NoneBox ? 1 : (Fractal == 1024 || S == SLayout::ColMajor ? 16 : int(32 / sizeof(T)));
  // A tile of whole boxes (pto-isa requires them but of a single row, as a
  // matrix-vector product's left operand is: kept row-major).
  static constexpr bool boxed = S != SLayout::NoneBox && Rows % box_rows_of == 0 && Cols % box_cols_of == 0;
  static constexpr int box_rows =
      !boxed ? 1 : (Fractal == 1024 || S == SLayout::RowMajor ? 16 : int(32 / sizeof(T)));
  static constexpr int box_cols =
      !boxed ? 1 : (Fractal == 1024 || S == SLayout::ColMajor ? 16 : int(32 / sizeof(T)));
  static long offset(int r, int c) {
    if constexpr (!boxed) {
      return B == BLayout::RowMajor ? long(r) * Cols + c : long(c) * Rows + r;
    } else {
      constexpr long box = long(box_rows) * box_cols;
      long inner = S == SLayout::RowMajor ? long(r % box_rows) * box_cols + c % box_cols
                                          : long(c % box_cols) * box_rows + r % box_rows;
      long outer = B == BLayout::RowMajor ? long(r / box_rows) * (Cols / box_cols) + c / box_cols
                                          : long(c / box_cols) * (Rows / box_rows) + r / box_rows;
      return outer * box + inner;
    }
  }

  T &at(int r, int c) const {
    if (!base) fail("a tile is used before TASSIGN binds it to an address");
    return base[offset(r, c)];
  }
};

template <typename TileT> void TASSIGN(TileT &tile, uint64_t address) {
  uint64_t capacity = 0, alignment = 1;
  unsigned char *memory = arena(TileT::loc, capacity, alignment);
  uint64_t bytes = uint64_t(TileT::rows) * TileT::cols * sizeof(typename TileT::DType);
  if (address % alignment != 0) fail("TASSIGN: misaligned tile address");
  if (address + bytes > capacity) fail("TASSIGN: the tile does not fit its memory");
  tile.base = reinterpret_cast<typename TileT::DType *>(memory + address);
}

/// Sets each of the five `values` the type leaves dynamic (-1 in
/// `statics`) to the one `given`, which must not be negative.
inline void take_dynamic(const int (&statics)[5], long (&values)[5], std::initializer_list<long> given,
                         const char* negative) {
  int d = 0;
  for (long v : given) {
    if (statics[d] < 0) {
      if (v < 0) fail(negative);
      values[d] = v;
    }
    ++d;
  }
}
/// pto-isa's five-dimensional window shape: static extents in the type,
/// -1 for the dynamic ones, whose values the constructor takes (all five
/// are passed; the static ones are ignored).
template <int... Dims> struct Shape {
  static_assert(sizeof...(Dims) == 5, "global tensor shapes are five-dimensional");
  static constexpr int dims[5] = {Dims...};
  long extent[5] = {Dims < 0 ? 1 : Dims...};
  Shape() = default;
  Shape(long n0, long n1, long n2, long n3, long n4) {
    take_dynamic(dims, extent, {n0, n1, n2, n3, n4}, "a global tensor's dynamic extent is negative");
  }
};
/// pto-isa's five-dimensional strides: static ones in the type, -1 for the
/// dynamic ones, whose values the five-argument constructor takes (the
/// static ones are ignored). Without it a dynamic stride is 0 here: it then
/// only occurs on extent-1 dimensions.
template <int... Steps> struct Stride {
  static constexpr int steps[5] = {Steps...};
  static_assert(sizeof...(Steps) == 5, "global tensor strides are five-dimensional");
  long step[5] = {Steps < 0 ? 0 : Steps...};
  Stride() = default;
  Stride(long s0, long s1, long s2, long s3, long s4) {
    take_dynamic(steps, step, {s0, s1, s2, s3, s4}, "a global tensor's dynamic stride is negative");
  }
};

template <typename T, typename ShapeT, typename StrideT, Layout L = Layout::ND> struct GlobalTensor {
  using DType = T;
  T *data;
  ShapeT shape;
  StrideT stride;
  explicit GlobalTensor(T *pointer) : data(pointer) {}
  GlobalTensor(T *pointer, ShapeT extents) : data(pointer), shape(extents) {}
  GlobalTensor(T *pointer, ShapeT extents, StrideT steps) : data(pointer), shape(extents), stride(steps) {}
  long GetShape(int d) const { return shape.extent[d]; }
  /// The rows of a window are its leading four dimensions, row-major
  /// (pto-isa's ND rule: their product is the tile's valid rows).
  long windowRows() const { return shape.extent[0] * shape.extent[1] * shape.extent[2] * shape.extent[3]; }
  long windowCols() const { return shape.extent[4]; }
  T &at(long r, long c) const {
    long index[4];
    for (int d = 3; d >= 0; --d) {
      index[d] = r % shape.extent[d];
      r /= shape.extent[d];
    }
    long offset = c * stride.step[4];
    for (int d = 0; d < 4; ++d) offset += index[d] * stride.step[d];
    return data[offset];
  }
};

/// The bytes a tile occupies (its whole shape).
template <typename TileT> sim::hazards::Range bytes(const TileT &tile) {
  const typename TileT::DType *first = &tile.at(0, 0);
  return {first, first + TileT::rows * TileT::cols};
}
/// The bytes a window of global memory spans, first element to last.
template <typename T, typename ShapeT, typename StrideT, Layout L>
sim::hazards::Range bytes(const GlobalTensor<T, ShapeT, StrideT, L> &global) {
  if (global.windowRows() == 0 || global.windowCols() == 0) return {&global.at(0, 0), &global.at(0, 0)};
  return {&global.at(0, 0), &global.at(global.windowRows() - 1, global.windowCols() - 1) + 1};
}
/// pto-isa's rule for ND windows: the window's extents are the tile's
/// valid ones (its CPU backend asserts it; on the device the DMA moves
/// the window's, not the tile's, extents).
template <typename TileT, typename GlobalT> void check_window(const char *instruction, const TileT &tile, const GlobalT &global) {
  if (global.windowRows() != tile.validRows || global.windowCols() != tile.validCols) {
    std::fprintf(stderr, "pto sim: %s: a %ldx%ld window for a tile with %dx%d valid elements\n", instruction,
                 global.windowRows(), global.windowCols(), tile.validRows, tile.validCols);
    fail("window and valid tile extents differ");
  }
}
/// The pipe that moves data out of a tile of this kind.
template <typename TileT> constexpr int move_pipe() {
  return TileT::loc == TileType::Acc ? sim::hazards::FIX : TileT::loc == TileType::Mat ? sim::hazards::MTE1 : sim::hazards::V;
}

/// f32, f64 and f16 (GCC's _Float16, which std::is_floating_point does
/// not count): types that convert to each other with one rounding.
template <typename T> constexpr bool is_real = std::is_floating_point_v<T> || std::is_same_v<T, half>;

/// An element converted to another type: directly where that is exact or
/// rounds once (the same type; an integer to an integer, which wraps as
/// pto-isa's static_cast does; one real type to another), else through
/// f32 (bfloat16 converts from f32 only).
template <typename To, typename From> To convert(From value) {
  if constexpr (std::is_same_v<To, From>) return value;
  else if constexpr (std::is_integral_v<To> && std::is_integral_v<From>) return To(value);
  else if constexpr (is_real<To> && is_real<From>) return To(value);
  else return To(float(value));
}

template <typename TileT, typename GlobalT> void TLOAD(TileT &tile, const GlobalT &global) {
  check_window("TLOAD", tile, global);
  sim::hazards::step(sim::hazards::MTE2, "TLOAD", {bytes(global)}, {bytes(tile)});
  for (int r = 0; r < tile.validRows; ++r)
    for (int c = 0; c < tile.validCols; ++c) tile.at(r, c) = convert<typename TileT::DType>(global.at(r, c));
}

/// How a store meets what global memory holds: overwrite, or add to it.
enum class AtomicType { AtomicNone, AtomicAdd };

/// Atomic adds of concurrent ranks to one place are serialised.
inline std::mutex &atomic_store_lock() {
  static std::mutex lock;
  return lock;
}

/// pto-isa's order: an atomic store names both types,
/// TSTORE<decltype(tile), decltype(gm), AtomicType::AtomicAdd>(gm, tile).
template <typename TileT, typename GlobalT, AtomicType Atomic = AtomicType::AtomicNone>
void TSTORE(const GlobalT &global, const TileT &tile) {
  check_window("TSTORE", tile, global);
  int pipe = TileT::loc == TileType::Acc ? sim::hazards::FIX : sim::hazards::MTE3;
  if (Atomic == AtomicType::AtomicAdd) {
    sim::hazards::step(pipe, "TSTORE (atomic add)", {bytes(tile), bytes(global)}, {bytes(global)});
    std::lock_guard<std::mutex> guard(atomic_store_lock());
    // pto-isa's: the tile's element converted to the global's type, then
    // added in that type (integers wrap).
    using T = typename GlobalT::DType;
    for (int r = 0; r < tile.validRows; ++r)
      for (int c = 0; c < tile.validCols; ++c) global.at(r, c) = T(global.at(r, c) + convert<T>(tile.at(r, c)));
    return;
  }
  sim::hazards::step(pipe, "TSTORE", {bytes(tile)}, {bytes(global)});
  for (int r = 0; r < tile.validRows; ++r)
    for (int c = 0; c < tile.validCols; ++c) global.at(r, c) = convert<typename GlobalT::DType>(tile.at(r, c));
}

/// dst = f(a(r, c), ...) over dst's valid region.
template <typename Dst, typename F> void each(Dst &dst, F f) {
  for (int r = 0; r < dst.validRows; ++r)
    for (int c = 0; c < dst.validCols; ++c) dst.at(r, c) = convert<typename Dst::DType>(f(r, c));
}

/// dst = f(r, c) over dst's valid region, converted by a plain cast (no
/// detour through f32: integer and bitwise results stay exact).
template <typename Dst, typename F> void each_exact(Dst &dst, F f) {
  for (int r = 0; r < dst.validRows; ++r)
    for (int c = 0; c < dst.validCols; ++c) dst.at(r, c) = typename Dst::DType(f(r, c));
}

#define PTO_SIM_BINARY(NAME, EXPR)                                                                      \
  template <typename D, typename A, typename B> void NAME(D &dst, const A &a, const B &b) {            \
    sim::hazards::step(sim::hazards::V, #NAME, {bytes(a), bytes(b)}, {bytes(dst)});                   \
    each(dst, [&](int r, int c) {                                                                      \
      auto x = a.at(r, c);                                                                             \
      auto y = b.at(r, c);                                                                             \
      return EXPR;                                                                                     \
    });                                                                                                \
  }
PTO_SIM_BINARY(TADD, x + y)
PTO_SIM_BINARY(TSUB, x - y)
PTO_SIM_BINARY(TMUL, x * y)
PTO_SIM_BINARY(TDIV, x / y)
// pto-isa's std::max and std::min: the first operand unless the second
// is strictly greater (smaller): max(+0, -0) is +0, max(-0, +0) is -0.
PTO_SIM_BINARY(TMAX, x < y ? y : x)
PTO_SIM_BINARY(TMIN, y < x ? y : x)
#undef PTO_SIM_BINARY

#define PTO_SIM_SCALAR(NAME, EXPR)                                                                      \
  template <typename D, typename A, typename S> void NAME(D &dst, const A &a, S s) {                   \
    sim::hazards::step(sim::hazards::V, #NAME, {bytes(a)}, {bytes(dst)});                              \
    each(dst, [&](int r, int c) {                                                                      \
      auto x = a.at(r, c);                                                                             \
      auto y = convert<typename A::DType>(s);                                                          \
      return EXPR;                                                                                     \
    });                                                                                                \
  }
PTO_SIM_SCALAR(TADDS, x + y)
PTO_SIM_SCALAR(TSUBS, x - y)
PTO_SIM_SCALAR(TMULS, x * y)
PTO_SIM_SCALAR(TDIVS, x / y)
PTO_SIM_SCALAR(TMAXS, x < y ? y : x)
PTO_SIM_SCALAR(TMINS, y < x ? y : x)
#undef PTO_SIM_SCALAR

#define PTO_SIM_UNARY(NAME, EXPR)                                                                       \
  template <typename D, typename A> void NAME(D &dst, const A &a) {                                    \
    sim::hazards::step(sim::hazards::V, #NAME, {bytes(a)}, {bytes(dst)});                              \
    each(dst, [&](int r, int c) {                                                                      \
      float x = float(a.at(r, c));                                                                     \
      return EXPR;                                                                                     \
    });                                                                                                \
  }
// pto-isa's: exp, log, sqrt and 1 / sqrt in f64, rounded once to the
// result (not f32's expf, logf: they round differently now and then).
PTO_SIM_UNARY(TEXP, std::exp(double(x)))
PTO_SIM_UNARY(TLOG, std::log(double(x)))
PTO_SIM_UNARY(TSQRT, std::sqrt(double(x)))
PTO_SIM_UNARY(TRSQRT, 1.0 / std::sqrt(double(x)))
PTO_SIM_UNARY(TRECIP, 1.0f / x)
// pl's |x|, +0 for -0 (pto-run's too); pto-isa's CPU backend computes
// x < 0 ? -x : x, which keeps -0.
PTO_SIM_UNARY(TABS, std::fabs(x))
PTO_SIM_UNARY(TNEG, -x)
// pto-isa's std::max(x, 0): -0 stays -0 (pto-run's too).
PTO_SIM_UNARY(TRELU, x < 0.0f ? 0.0f : x)
#undef PTO_SIM_UNARY

template <typename D, typename A> void TMOV(D &dst, const A &src) {
  sim::hazards::step(move_pipe<A>(), "TMOV", {bytes(src)}, {bytes(dst)});
  each(dst, [&](int r, int c) { return src.at(r, c); });
}

/// The value a pad fills the invalid region with.
template <typename T> T pad_value(PadValue pad) {
  switch (pad) {
  case PadValue::Max: return std::is_floating_point<T>::value || std::is_same<T, half>::value ? T(INFINITY) : T(INT32_MAX);
  case PadValue::Min: return std::is_floating_point<T>::value || std::is_same<T, half>::value ? T(-INFINITY) : T(INT32_MIN);
  default: return T(0.0f);
  }
}

/// dst = src over src's valid region, the pad of dst's type elsewhere
/// (dst's whole shape).
template <typename D, typename A> void TFILLPAD(D &dst, const A &src) {
  sim::hazards::step(sim::hazards::V, "TFILLPAD", {bytes(src)}, {bytes(dst)});
  for (int r = 0; r < D::rows; ++r)
    for (int c = 0; c < D::cols; ++c)
      dst.at(r, c) = r < src.validRows && c < src.validCols ? convert<typename D::DType>(src.at(r, c)) : pad_value<typename D::DType>(D::pad);
}

// pto-isa takes the scalar as the tile's element type (so `{}` is its zero).
template <typename D> void TEXPANDS(D &dst, typename D::DType scalar) {
  sim::hazards::step(sim::hazards::V, "TEXPANDS", {}, {bytes(dst)});
  each(dst, [&](int, int) { return convert<typename D::DType>(scalar); });
}

template <typename D, typename A> void TEXTRACT(D &dst, const A &src, long row, long col) {
  if (row + D::rows > A::rows || col + D::cols > A::cols) fail("TEXTRACT: the window leaves the source tile");
  sim::hazards::step(move_pipe<A>(), "TEXTRACT", {bytes(src)}, {bytes(dst)});
  each(dst, [&](int r, int c) { return src.at(int(row) + r, int(col) + c); });
}

/// dst(row + r, col + c) = src(r, c) over src's valid region (the rest of
/// dst stays).
template <typename D, typename A> void TINSERT(D &dst, const A &src, long row, long col) {
  if (row + A::rows > D::rows || col + A::cols > D::cols) fail("TINSERT: the source leaves the destination tile");
  sim::hazards::step(sim::hazards::V, "TINSERT", {bytes(src)}, {bytes(dst)});
  for (int r = 0; r < src.validRows; ++r)
    for (int c = 0; c < src.validCols; ++c) dst.at(int(row) + r, int(col) + c) = convert<typename D::DType>(src.at(r, c));
}

/// Row reductions: dst(r, 0) = fold over the valid columns of src.
/// One step of a reduction accumulated in `Acc`: integers exactly, floats
/// in float and rounded to `Acc` (docs/a2a3-lowering.md, "Reduction order").
template <typename Acc, typename X> inline Acc as_acc(X x) {
  if constexpr (std::is_integral_v<Acc> && std::is_integral_v<X>) return Acc(x);
  else return convert<Acc>(x);
}
template <typename Acc, typename X, typename Op> inline Acc reduce_step(Acc acc, X x, Op op) {
  if constexpr (std::is_integral_v<Acc>) return Acc(op(acc, as_acc<Acc>(x)));
  else return convert<Acc>(op(float(acc), float(x)));
}
/// Row reductions: dst(r, 0) = fold over the valid columns of src. A float
/// row sum accumulates in f32 and rounds once; products in the result type.
/// Sums start from the first element, as pto-run's: pto-isa's from +0,
/// so its sum of nothing but -0 is +0.
#define PTO_SIM_ROW(NAME, ACC, INIT, OP)                                                                \
  template <typename D, typename A, typename Tmp> void NAME(D &dst, const A &src, Tmp &tmp) {           \
    sim::hazards::step(sim::hazards::V, #NAME, {bytes(src)}, {bytes(dst), bytes(tmp)});                \
    using Acc = ACC;                                                                                   \
    for (int r = 0; r < src.validRows; ++r) {                                                          \
      Acc acc{};                                                                                       \
      if constexpr (!std::is_integral_v<Acc>) acc = convert<Acc>(float(INIT));                         \
      for (int c = 0; c < src.validCols; ++c)                                                          \
        acc = c == 0 ? as_acc<Acc>(src.at(r, c)) : reduce_step<Acc>(acc, src.at(r, c), OP); \
      dst.at(r, 0) = convert<typename D::DType>(acc);                                                  \
    }                                                                                                  \
  }
#define PTO_SIM_SUM_ACC std::conditional_t<std::is_integral_v<typename D::DType>, typename D::DType, float>
PTO_SIM_ROW(TROWSUM, PTO_SIM_SUM_ACC, 0.0f, [](auto a, auto b) { return a + b; })
PTO_SIM_ROW(TROWMAX, typename D::DType, -INFINITY, [](auto a, auto b) { return b > a ? b : a; })
PTO_SIM_ROW(TROWMIN, typename D::DType, INFINITY, [](auto a, auto b) { return b < a ? b : a; })
PTO_SIM_ROW(TROWPROD, typename D::DType, 1.0f, [](auto a, auto b) { return a * b; })
#undef PTO_SIM_ROW

/// Column reductions: dst(0, c) = fold over the valid rows of src, rows in
/// order; sums and products accumulate in the result type. pto-isa's take
/// no scratch (TCOLSUM's form with one is below).
#define PTO_SIM_COL(NAME, ACC, OP)                                                                      \
  template <typename D, typename A> void NAME(D &dst, const A &src) {                                  \
    sim::hazards::step(sim::hazards::V, #NAME, {bytes(src)}, {bytes(dst)});                            \
    using Acc = ACC;                                                                                   \
    for (int c = 0; c < src.validCols; ++c) {                                                          \
      Acc acc{};                                                                                       \
      for (int r = 0; r < src.validRows; ++r)                                                          \
        acc = r == 0 ? as_acc<Acc>(src.at(r, c)) : reduce_step<Acc>(acc, src.at(r, c), OP); \
      dst.at(0, c) = convert<typename D::DType>(acc);                                                  \
    }                                                                                                  \
  }
PTO_SIM_COL(TCOLSUM, typename D::DType, [](auto a, auto b) { return a + b; })
PTO_SIM_COL(TCOLMAX, typename D::DType, [](auto a, auto b) { return b > a ? b : a; })
PTO_SIM_COL(TCOLMIN, typename D::DType, [](auto a, auto b) { return b < a ? b : a; })
PTO_SIM_COL(TCOLPROD, typename D::DType, [](auto a, auto b) { return a * b; })
#undef PTO_SIM_COL
/// TCOLSUM through a scratch tile: with isBinary false the rows are added
/// in order as above (the device's sequential form); the binary-tree form
/// is not simulated.
template <typename D, typename A, typename Tmp> void TCOLSUM(D &dst, const A &src, Tmp &tmp, bool isBinary) {
  if (isBinary) fail("TCOLSUM: the binary-tree form (isBinary = true) is not simulated");
  // The scratch is written too (a step of its own on V, then the sum's).
  sim::hazards::step(sim::hazards::V, "TCOLSUM", {bytes(src)}, {bytes(tmp)});
  TCOLSUM(dst, src);
}
#undef PTO_SIM_SUM_ACC

/// Broadcasts of a column (one value per row) or a row (one per column).
#define PTO_SIM_EXPAND(NAME, AT, EXPR)                                                                  \
  template <typename D, typename A, typename B> void NAME(D &dst, const A &a, const B &b) {            \
    sim::hazards::step(sim::hazards::V, #NAME, {bytes(a), bytes(b)}, {bytes(dst)});                   \
    each(dst, [&](int r, int c) {                                                                      \
      auto x = a.at(r, c);                                                                             \
      auto y = b.AT;                                                                                   \
      (void)r;                                                                                         \
      return EXPR;                                                                                     \
    });                                                                                                \
  }
PTO_SIM_EXPAND(TROWEXPANDADD, at(r, 0), x + y)
PTO_SIM_EXPAND(TROWEXPANDSUB, at(r, 0), x - y)
PTO_SIM_EXPAND(TROWEXPANDMUL, at(r, 0), x * y)
PTO_SIM_EXPAND(TROWEXPANDDIV, at(r, 0), x / y)
PTO_SIM_EXPAND(TROWEXPANDMAX, at(r, 0), x < y ? y : x)
PTO_SIM_EXPAND(TROWEXPANDMIN, at(r, 0), y < x ? y : x)
// exp(x - y): the difference in the element type, its exp in f64 (pto-isa's).
PTO_SIM_EXPAND(TROWEXPANDEXPDIF, at(r, 0), std::exp(double(typename D::DType(x - y))))
PTO_SIM_EXPAND(TCOLEXPANDADD, at(0, c), x + y)
PTO_SIM_EXPAND(TCOLEXPANDSUB, at(0, c), x - y)
PTO_SIM_EXPAND(TCOLEXPANDMUL, at(0, c), x * y)
PTO_SIM_EXPAND(TCOLEXPANDDIV, at(0, c), x / y)
PTO_SIM_EXPAND(TCOLEXPANDMAX, at(0, c), x < y ? y : x)
PTO_SIM_EXPAND(TCOLEXPANDMIN, at(0, c), y < x ? y : x)
PTO_SIM_EXPAND(TCOLEXPANDEXPDIF, at(0, c), std::exp(double(typename D::DType(x - y))))
#undef PTO_SIM_EXPAND

template <typename D, typename A> void TROWEXPAND(D &dst, const A &src) {
  sim::hazards::step(sim::hazards::V, "TROWEXPAND", {bytes(src)}, {bytes(dst)});
  each(dst, [&](int r, int) { return src.at(r, 0); });
}
template <typename D, typename A> void TCOLEXPAND(D &dst, const A &src) {
  sim::hazards::step(sim::hazards::V, "TCOLEXPAND", {bytes(src)}, {bytes(dst)});
  each(dst, [&](int, int c) { return src.at(0, c); });
}

inline float round_as(float x, RoundMode mode) {
  switch (mode) {
  case RoundMode::CAST_ROUND: return std::round(x);
  case RoundMode::CAST_FLOOR: return std::floor(x);
  case RoundMode::CAST_CEIL: return std::ceil(x);
  case RoundMode::CAST_TRUNC: return std::trunc(x);
  case RoundMode::CAST_RINT: return std::nearbyint(x);
  default: return x;
  }
}

/// pto-isa's conversions: an integer to an integer wraps (the mode does
/// not apply); a float to an integer rounds by the mode, then converts
/// (inside the integer's range: beyond it C++ does not define the
/// conversion); an integer to a float rounds once, from its exact f64
/// value; a float to a float rounds to nearest even.
template <typename D, typename A> void TCVT(D &dst, const A &src, RoundMode mode) {
  sim::hazards::step(sim::hazards::V, "TCVT", {bytes(src)}, {bytes(dst)});
  using To = typename D::DType;
  using From = typename A::DType;
  each_exact(dst, [&](int r, int c) -> To {
    From x = src.at(r, c);
    if constexpr (std::is_integral_v<To> && std::is_integral_v<From>) return To(x);
    else if constexpr (std::is_integral_v<To>) return To(round_as(float(x), mode));
    else if constexpr (std::is_integral_v<From>) return convert<To>(double(x));
    else return convert<To>(x);
  });
}

/// c = a b over the valid extents, accumulated in f32.
/// One matmul step's dot product (docs/a2a3-lowering.md, "Matmul order"):
/// k ascending from zero, each product fused into the f32 sum (fma); exact
/// for integer accumulators.
template <typename C, typename A, typename B> typename C::DType dot(const A &a, const B &b, int i, int j) {
  using T = typename C::DType;
  T sum = T(0);
  for (int k = 0; k < a.validCols; ++k) {
    if constexpr (std::is_same<T, float>::value) sum = std::fma(float(a.at(i, k)), float(b.at(k, j)), sum);
    else sum += T(a.at(i, k)) * T(b.at(k, j));
  }
  return sum;
}

template <typename C, typename A, typename B> void TMATMUL(C &c, const A &a, const B &b) {
  if (A::cols != B::rows) fail("TMATMUL: inner dimensions differ");
  sim::hazards::step(sim::hazards::M, "TMATMUL", {bytes(a), bytes(b)}, {bytes(c)});
  for (int i = 0; i < c.validRows; ++i)
    for (int j = 0; j < c.validCols; ++j) c.at(i, j) = dot<C>(a, b, i, j);
}

/// c = c_in + a b.
template <typename C, typename CIn, typename A, typename B> void TMATMUL_ACC(C &c, const CIn &cIn, const A &a, const B &b) {
  sim::hazards::step(sim::hazards::M, "TMATMUL_ACC", {bytes(cIn), bytes(a), bytes(b)}, {bytes(c)});
  // The step's dot product, then added to the accumulator once.
  for (int i = 0; i < c.validRows; ++i)
    for (int j = 0; j < c.validCols; ++j) c.at(i, j) = typename C::DType(cIn.at(i, j) + dot<C>(a, b, i, j));
}

/// TFMOD's truncating remainder (the dividend's sign): C's `%`, fmod.
/// The int32 (int64) minimum's remainder by -1 traps on x86, as it does
/// on pto-isa's CPU backend (SIGFPE), though pl defines it (0, pto-run's):
/// reported here instead.
template <typename T> T truncated_remainder_of(T a, T b) {
  if constexpr (std::is_integral<T>::value) {
    if (b == 0) fail("TFMOD/TREM: integer remainder by zero");
    if constexpr (std::is_signed_v<T> && sizeof(T) >= sizeof(int))
      if (a == std::numeric_limits<T>::min() && b == T(-1))
        fail("TFMOD/TREM: the integer minimum's remainder by -1 (pl defines 0; pto-isa's CPU backend traps)");
    return T(a % b);
  } else {
    return T(std::fmod(float(a), float(b)));
  }
}
/// TREM's floor remainder (the divisor's sign, Python's `%`): where the
/// operands' signs differ and the truncated remainder is not zero, the
/// divisor is added to it, in the element type.
template <typename T> T remainder_of(T a, T b) {
  if constexpr (std::is_integral<T>::value) {
    if (b == 0) fail("TREM: integer remainder by zero");
  }
  T r = truncated_remainder_of(a, b);
  if (((a >= T(0)) != (b >= T(0))) && r != T(0)) r = T(r + b);
  return r;
}

/// Bitwise, shift, remainder and ReLU instructions, tile-tile and
/// tile-scalar, with pto-isa's operands: TXOR/TXORS, TREM/TREMS and TPRELU
/// take a scratch tile last (written on the device, unused here).
#define PTO_SIM_EXACT_TILE(NAME, EXPR)                                                                  \
  template <typename D, typename A, typename B> void NAME(D &dst, const A &a, const B &b) {            \
    sim::hazards::step(sim::hazards::V, #NAME, {bytes(a), bytes(b)}, {bytes(dst)});                   \
    each_exact(dst, [&](int r, int c) {                                                                \
      using T = typename D::DType;                                                                     \
      T x = T(a.at(r, c)), y = T(b.at(r, c));                                                          \
      return EXPR;                                                                                     \
    });                                                                                                \
  }
#define PTO_SIM_EXACT_TILE_TMP(NAME, EXPR)                                                              \
  template <typename D, typename A, typename B, typename Tmp> void NAME(D &dst, const A &a, const B &b, Tmp &tmp) { \
    sim::hazards::step(sim::hazards::V, #NAME, {bytes(a), bytes(b)}, {bytes(dst), bytes(tmp)});       \
    each_exact(dst, [&](int r, int c) {                                                                \
      using T = typename D::DType;                                                                     \
      T x = T(a.at(r, c)), y = T(b.at(r, c));                                                          \
      return EXPR;                                                                                     \
    });                                                                                                \
  }
#define PTO_SIM_EXACT_SCALAR(NAME, EXPR)                                                                \
  template <typename D, typename A, typename S> void NAME(D &dst, const A &a, S s) {                   \
    sim::hazards::step(sim::hazards::V, #NAME, {bytes(a)}, {bytes(dst)});                              \
    each_exact(dst, [&](int r, int c) {                                                                \
      using T = typename D::DType;                                                                     \
      T x = T(a.at(r, c)), y = T(s);                                                                   \
      return EXPR;                                                                                     \
    });                                                                                                \
  }
#define PTO_SIM_EXACT_SCALAR_TMP(NAME, EXPR)                                                            \
  template <typename D, typename A, typename S, typename Tmp> void NAME(D &dst, const A &a, S s, Tmp &tmp) { \
    sim::hazards::step(sim::hazards::V, #NAME, {bytes(a)}, {bytes(dst), bytes(tmp)});                  \
    each_exact(dst, [&](int r, int c) {                                                                \
      using T = typename D::DType;                                                                     \
      T x = T(a.at(r, c)), y = T(s);                                                                   \
      return EXPR;                                                                                     \
    });                                                                                                \
  }
PTO_SIM_EXACT_TILE(TAND, x & y)
PTO_SIM_EXACT_SCALAR(TANDS, x & y)
PTO_SIM_EXACT_TILE(TOR, x | y)
PTO_SIM_EXACT_SCALAR(TORS, x | y)
PTO_SIM_EXACT_TILE_TMP(TXOR, x ^ y)
PTO_SIM_EXACT_SCALAR_TMP(TXORS, x ^ y)
// Left shifts of the unsigned bits: negative operands wrap as C++20's
// shifts (pto-isa's) do, without C++17's undefined behaviour.
PTO_SIM_EXACT_TILE(TSHL, T(std::make_unsigned_t<T>(x) << y))
PTO_SIM_EXACT_SCALAR(TSHLS, T(std::make_unsigned_t<T>(x) << y))
PTO_SIM_EXACT_TILE(TSHR, T(x >> y))
PTO_SIM_EXACT_SCALAR(TSHRS, T(x >> y))
PTO_SIM_EXACT_TILE_TMP(TREM, remainder_of<T>(x, y))
PTO_SIM_EXACT_SCALAR_TMP(TREMS, remainder_of<T>(x, y))
PTO_SIM_EXACT_TILE(TFMOD, truncated_remainder_of<T>(x, y))
PTO_SIM_EXACT_SCALAR(TFMODS, truncated_remainder_of<T>(x, y))
// pl's x >= 0 ? x : x * slope (pto-run's): pto-isa's CPU backend tests
// x > 0, so a ±0 gets the sign of ±0 * slope.
PTO_SIM_EXACT_TILE_TMP(TPRELU, (x >= T(0) ? x : T(x * y)))
PTO_SIM_EXACT_SCALAR(TLRELU, (x >= T(0) ? x : T(x * y)))
#undef PTO_SIM_EXACT_TILE
#undef PTO_SIM_EXACT_TILE_TMP
#undef PTO_SIM_EXACT_SCALAR
#undef PTO_SIM_EXACT_SCALAR_TMP

template <typename D, typename A> void TNOT(D &dst, const A &a) {
  sim::hazards::step(sim::hazards::V, "TNOT", {bytes(a)}, {bytes(dst)});
  each_exact(dst, [&](int r, int c) { return ~a.at(r, c); });
}

/// Index of the first largest (smallest) valid element of each row
/// (column), as int32, through a scratch tile; compared in the element
/// type.
#define PTO_SIM_ARG(NAME, ROWWISE, BETTER)                                                              \
  template <typename D, typename A, typename Tmp> void NAME(D &dst, const A &src, Tmp &tmp) {           \
    sim::hazards::step(sim::hazards::V, #NAME, {bytes(src)}, {bytes(dst), bytes(tmp)});                \
    int lines = ROWWISE ? src.validRows : src.validCols, length = ROWWISE ? src.validCols : src.validRows; \
    for (int l = 0; l < lines; ++l) {                                                                  \
      int best = 0;                                                                                    \
      for (int i = 1; i < length; ++i) {                                                               \
        auto x = ROWWISE ? src.at(l, i) : src.at(i, l);                                                \
        auto b = ROWWISE ? src.at(l, best) : src.at(best, l);                                          \
        if (BETTER) best = i;                                                                          \
      }                                                                                                \
      (ROWWISE ? dst.at(l, 0) : dst.at(0, l)) = typename D::DType(best);                               \
    }                                                                                                  \
  }
PTO_SIM_ARG(TROWARGMAX, true, x > b)
PTO_SIM_ARG(TROWARGMIN, true, x < b)
PTO_SIM_ARG(TCOLARGMAX, false, x > b)
PTO_SIM_ARG(TCOLARGMIN, false, x < b)
#undef PTO_SIM_ARG

enum class CmpMode { EQ, NE, LT, LE, GT, GE };

template <typename T> bool compares(T a, T b, CmpMode mode) {
  switch (mode) {
  case CmpMode::EQ: return a == b;
  case CmpMode::NE: return a != b;
  case CmpMode::LT: return a < b;
  case CmpMode::LE: return a <= b;
  case CmpMode::GT: return a > b;
  case CmpMode::GE: return a >= b;
  }
  return false;
}

/// The packed predicate mask (docs/dialects/pl.md, pl.tile.cmp): bit c % 8 of byte (r, c / 8)
/// holds `holds(r, c)`, the comparison of element (r, c); the rest of the
/// mask is zero.
template <typename M, typename A, typename Holds> void compare_into(M &mask, const A &a, Holds holds) {
  for (int r = 0; r < M::rows; ++r)
    for (int c = 0; c < M::cols; ++c) mask.at(r, c) = typename M::DType(0);
  for (int r = 0; r < a.validRows; ++r)
    for (int c = 0; c < a.validCols; ++c)
      if (holds(r, c)) mask.at(r, c / 8) = typename M::DType(mask.at(r, c / 8) | (1 << (c % 8)));
}
/// Compared in the tiles' element type.
template <typename M, typename A, typename B> void TCMP(M &mask, const A &a, const B &b, CmpMode mode) {
  sim::hazards::step(sim::hazards::V, "TCMP", {bytes(a), bytes(b)}, {bytes(mask)});
  using T = typename A::DType;
  compare_into(mask, a, [&](int r, int c) { return compares<T>(a.at(r, c), T(b.at(r, c)), mode); });
}
/// Compared in the scalar's type, to which pto-isa converts the elements.
/// EQ and NE are exact, as pl's (pto-run's) are: pto-isa's CPU backend
/// takes |a - b| < 1e-9 (in f64) for equal.
template <typename M, typename A, typename S> void TCMPS(M &mask, const A &a, S s, CmpMode mode) {
  sim::hazards::step(sim::hazards::V, "TCMPS", {bytes(a)}, {bytes(mask)});
  compare_into(mask, a, [&](int r, int c) { return compares<S>(S(a.at(r, c)), s, mode); });
}

/// dst = mask ? a : b (a tile or a scalar), bit by bit of the packed mask,
/// through a scratch tile; pto-isa's TSELS takes the scratch before the
/// scalar.
template <typename D, typename M, typename A, typename B, typename Tmp> void TSEL(D &dst, const M &mask, const A &a, const B &b, Tmp &tmp) {
  sim::hazards::step(sim::hazards::V, "TSEL", {bytes(mask), bytes(a), bytes(b)}, {bytes(dst), bytes(tmp)});
  each_exact(dst, [&](int r, int c) { return (uint8_t(mask.at(r, c / 8)) >> (c % 8)) & 1 ? a.at(r, c) : b.at(r, c); });
}
template <typename D, typename M, typename A, typename Tmp, typename S> void TSELS(D &dst, const M &mask, const A &a, Tmp &tmp, S s) {
  sim::hazards::step(sim::hazards::V, "TSELS", {bytes(mask), bytes(a)}, {bytes(dst), bytes(tmp)});
  each_exact(dst, [&](int r, int c) { return (uint8_t(mask.at(r, c / 8)) >> (c % 8)) & 1 ? a.at(r, c) : typename D::DType(s); });
}

/// dst(c, r) = src(r, c) over src's valid region, through a scratch tile.
template <typename D, typename A, typename Tmp> void TTRANS(D &dst, const A &src, Tmp &tmp) {
  sim::hazards::step(sim::hazards::V, "TTRANS", {bytes(src)}, {bytes(dst), bytes(tmp)});
  for (int r = 0; r < src.validRows; ++r)
    for (int c = 0; c < src.validCols; ++c) dst.at(c, r) = src.at(r, c);
}

/// c = a b + bias (one bias row, broadcast over the rows).
template <typename C, typename A, typename B, typename Bias> void TMATMUL_BIAS(C &c, const A &a, const B &b, const Bias &bias) {
  if (A::cols != B::rows) fail("TMATMUL_BIAS: inner dimensions differ");
  sim::hazards::step(sim::hazards::M, "TMATMUL_BIAS", {bytes(a), bytes(b), bytes(bias)}, {bytes(c)});
  for (int i = 0; i < c.validRows; ++i)
    for (int j = 0; j < c.validCols; ++j) c.at(i, j) = typename C::DType(dot<C>(a, b, i, j) + bias.at(0, j));
}
/// Matrix-vector forms: a is one row (or a few).
template <typename C, typename A, typename B> void TGEMV(C &c, const A &a, const B &b) { TMATMUL(c, a, b); }
template <typename C, typename CIn, typename A, typename B> void TGEMV_ACC(C &c, const CIn &cIn, const A &a, const B &b) {
  TMATMUL_ACC(c, cIn, a, b);
}
template <typename C, typename A, typename B, typename Bias> void TGEMV_BIAS(C &c, const A &a, const B &b, const Bias &bias) {
  TMATMUL_BIAS(c, a, b, bias);
}

namespace comm {
enum class NotifyOp { AtomicAdd, Set };
enum class WaitCmp { EQ, NE, GT, GE, LT, LE };

/// Publishes `value` into a signal cell (an int32 global window, possibly
/// a peer's): atomically added or set.
template <typename GlobalT> void TNOTIFY(GlobalT &signal, int32_t value, NotifyOp op) {
  int32_t *cell = &signal.at(0, 0);
  if (op == NotifyOp::AtomicAdd) __atomic_fetch_add(cell, value, __ATOMIC_SEQ_CST);
  else __atomic_store_n(cell, value, __ATOMIC_SEQ_CST);
}

inline bool satisfied(int32_t seen, int32_t value, WaitCmp cmp) {
  switch (cmp) {
  case WaitCmp::EQ: return seen == value;
  case WaitCmp::NE: return seen != value;
  case WaitCmp::GT: return seen > value;
  case WaitCmp::GE: return seen >= value;
  case WaitCmp::LT: return seen < value;
  case WaitCmp::LE: return seen <= value;
  }
  return false;
}

/// Spins until the local signal cell compares true with `value`; after 10 s
/// reports the deadlock (no rank will ever publish what this one waits for).
template <typename GlobalT> void TWAIT(GlobalT &signal, int32_t value, WaitCmp cmp) {
  int32_t *cell = &signal.at(0, 0);
  auto start = std::chrono::steady_clock::now();
  while (!satisfied(__atomic_load_n(cell, __ATOMIC_SEQ_CST), value, cmp)) {
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(10)) {
      std::fprintf(stderr, "pto sim: error: deadlock: a wait for %d on a signal that holds %d never completes\n", value,
                   __atomic_load_n(cell, __ATOMIC_SEQ_CST));
      std::abort();
    }
    std::this_thread::yield();
  }
}
/// Copies a window of global memory into another (a peer's, for TPUT; from
/// a peer's, for TGET) through the staging tile(s) in UB: element for
/// element here, the DMA moves it tile by tile on the device. pto-isa takes
/// one staging tile, or two (ping-pong).
template <AtomicType Atomic = AtomicType::AtomicNone, typename DstT, typename SrcT, typename StageT, typename... More>
void TPUT(DstT &dst, SrcT &src, StageT &stage, More &...more) {
  static_assert(sizeof...(More) <= 1, "TPUT/TGET take one staging tile or two (ping-pong)");
  static_assert(StageT::loc == TileType::Vec, "the staging tile of TPUT/TGET is in UB (TileType::Vec)");
  if (dst.windowRows() != src.windowRows() || dst.windowCols() != src.windowCols()) pto::fail("TPUT: windows differ");
  sim::hazards::step(sim::hazards::MTE2, "TPUT/TGET (in)", {bytes(src)}, {bytes(stage), bytes(more)...});
  // The library orders its own two halves with event 0 (docs/a2a3-lowering.md,
  // "How synchronisation is placed").
  sim::hazards::set_flag(sim::hazards::MTE2, sim::hazards::MTE3, 0);
  sim::hazards::wait_flag(sim::hazards::MTE2, sim::hazards::MTE3, 0);
  sim::hazards::step(sim::hazards::MTE3, "TPUT/TGET (out)", {bytes(stage), bytes(more)...}, {bytes(dst)});
  if (Atomic == AtomicType::AtomicAdd) {
    // Adds into the destination (a peer's window: other ranks may add too).
    std::lock_guard<std::mutex> guard(atomic_store_lock());
    using T = typename DstT::DType;
    for (long r = 0; r < src.windowRows(); ++r)
      for (long c = 0; c < src.windowCols(); ++c) dst.at(r, c) = T(dst.at(r, c) + convert<T>(src.at(r, c)));
    return;
  }
  for (long r = 0; r < src.windowRows(); ++r)
    for (long c = 0; c < src.windowCols(); ++c) dst.at(r, c) = convert<typename DstT::DType>(src.at(r, c));
}
template <typename DstT, typename SrcT, typename StageT, typename... More>
void TGET(DstT &dst, SrcT &src, StageT &stage, More &...more) {
  TPUT<AtomicType::AtomicNone>(dst, src, stage, more...);
}
} // namespace comm

} // namespace pto

#include "pto/sim/indexing.hpp"
#include "pto/sim/regions.hpp"
#include "pto/sim/prefetch.hpp"

// Global-memory ordering: one host, one coherent memory.
enum dsb_t { DSB_DDR };
enum cache_line_t { SINGLE_CACHE_LINE, ENTIRE_DATA_CACHE };
inline void dsb(dsb_t) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void dcci(const void *, cache_line_t) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
/// Stores are plain unless an atomic mode is set; the simulator has no
/// atomic store modes, so there is nothing to reset.
inline void set_atomic_none() {}

// The CCE synchronisation builtins: pipes run in program order here.
enum pipe_t { PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_FIX, PIPE_ALL };
enum event_t { EVENT_ID0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

namespace pto::sim {
/// Outstanding set_flag counts per (source, destination, event), per core.
inline int (&flags())[8][8][8] {
  static thread_local int counts[8][8][8] = {};
  return counts;
}
} // namespace pto::sim

inline void set_flag(pipe_t from, pipe_t to, event_t event) {
  pto::sim::flags()[from][to][event] += 1;
  pto::sim::hazards::set_flag(from, to, event);
}
inline void wait_flag(pipe_t from, pipe_t to, event_t event) {
  int &count = pto::sim::flags()[from][to][event];
  if (count == 0) pto::fail("wait_flag without a matching set_flag (the device would hang)");
  count -= 1;
  pto::sim::hazards::wait_flag(from, to, event);
}
inline void pipe_barrier(pipe_t pipe) { pto::sim::hazards::barrier(pipe); }

#include "pto/sim/pipes.hpp"

#endif // PTO_SIM_PTO_INST_HPP
