//===- regions.hpp - ops defined by valid regions -------------------------===//
//
// The instruction model's TPARTADD, TPARTMAX, TPARTMIN and TPARTMUL (an
// operation where both sources hold data, a copy where one does), TCONCAT
// (two tiles side by side), TTRI (a triangular mask) and the in-place and
// expanding TFILLPAD forms, as pto-isa's CPU backend computes them
// (test/e2e/sim-vs-pto-isa.test). Included by pto/pto-inst.hpp.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_SIM_REGIONS_HPP
#define PTO_SIM_REGIONS_HPP

namespace pto {

/// Over dst's valid region: op(a, b) where both sources are valid, the
/// valid one where only one is, 0 where neither is.
template <typename D, typename A, typename B, typename Op>
void partial(const char *name, D &dst, const A &a, const B &b, Op op) {
  static_assert(std::is_same_v<typename D::DType, typename A::DType> &&
                    std::is_same_v<typename D::DType, typename B::DType>,
                "the partial ops take one element type");
  sim::hazards::step(sim::hazards::V, name, {bytes(a), bytes(b)}, {bytes(dst)});
  using T = typename D::DType;
  for (int r = 0; r < dst.validRows; ++r)
    for (int c = 0; c < dst.validCols; ++c) {
      bool inA = r < a.validRows && c < a.validCols, inB = r < b.validRows && c < b.validCols;
      dst.at(r, c) = inA && inB ? T(op(a.at(r, c), b.at(r, c))) : inA ? a.at(r, c) : inB ? b.at(r, c) : T(0);
    }
}
template <typename D, typename A, typename B> void TPARTADD(D &dst, const A &a, const B &b) {
  partial("TPARTADD", dst, a, b, [](auto x, auto y) { return x + y; });
}
template <typename D, typename A, typename B> void TPARTMUL(D &dst, const A &a, const B &b) {
  partial("TPARTMUL", dst, a, b, [](auto x, auto y) { return x * y; });
}
// pto-isa's std::max and std::min.
template <typename D, typename A, typename B> void TPARTMAX(D &dst, const A &a, const B &b) {
  partial("TPARTMAX", dst, a, b, [](auto x, auto y) { return x < y ? y : x; });
}
template <typename D, typename A, typename B> void TPARTMIN(D &dst, const A &a, const B &b) {
  partial("TPARTMIN", dst, a, b, [](auto x, auto y) { return y < x ? y : x; });
}

/// Each valid row of a, then of b.
template <typename D, typename A, typename B> void TCONCAT(D &dst, const A &a, const B &b) {
  static_assert(std::is_same_v<typename D::DType, typename A::DType> &&
                    std::is_same_v<typename D::DType, typename B::DType>,
                "TCONCAT takes one element type");
  if (dst.validRows != a.validRows || a.validRows != b.validRows || dst.validCols != a.validCols + b.validCols)
    fail("TCONCAT: the destination's valid extents are not the sources' side by side");
  sim::hazards::step(sim::hazards::V, "TCONCAT", {bytes(a), bytes(b)}, {bytes(dst)});
  for (int r = 0; r < dst.validRows; ++r) {
    for (int c = 0; c < a.validCols; ++c) dst.at(r, c) = a.at(r, c);
    for (int c = 0; c < b.validCols; ++c) dst.at(r, a.validCols + c) = b.at(r, c);
  }
}

/// 1 where c <= r + diagonal (Upper: c >= r + diagonal), else 0, over
/// dst's valid region.
template <typename TileT, int Upper> void TTRI(TileT &dst, int diagonal) {
  sim::hazards::step(sim::hazards::V, "TTRI", {}, {bytes(dst)});
  using T = typename TileT::DType;
  for (int r = 0; r < dst.validRows; ++r)
    for (int c = 0; c < dst.validCols; ++c)
      dst.at(r, c) = (Upper ? c >= r + diagonal : c <= r + diagonal) ? T(1) : T(0);
}

/// TFILLPAD with the destination the source's buffer, and into a larger
/// destination: src's valid region, dst's pad elsewhere.
template <typename D, typename S> void TFILLPAD_INPLACE(D &dst, S &src) { TFILLPAD(dst, src); }
template <typename D, typename S> void TFILLPAD_EXPAND(D &dst, S &src) {
  static_assert(D::rows >= S::rows && D::cols >= S::cols, "TFILLPAD_EXPAND grows its tile");
  TFILLPAD(dst, src);
}

} // namespace pto

#endif // PTO_SIM_REGIONS_HPP
