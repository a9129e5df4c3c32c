//===- indexing.hpp - index sequences, sorts and gathers ------------------===//
//
// The instruction model's TCI, TSORT32, TMRGSORT, TGATHER (index and
// mask forms), TGATHERB, MGATHER and TSCATTER (index and mask forms), included by pto/pto-inst.hpp after the tiles. Written from
// pto-isa's API contract and checked against its CPU backend
// (test/e2e/sim-vs-pto-isa.test):
//
// - a sorted pair is 8 bytes, the value then the uint32 index (f32: two
//   elements; f16: value, 0, the index's halves); TSORT32 sorts each block
//   of 32 descending, ties by index; the merges take ties from the earlier
//   list;
// - TGATHER's index form reads a flat index of the source's storage
//   (out-of-range indices are a failure here, pto-isa's CPU backend reads
//   0 and the device anything); the mask form writes the kept elements as
//   one stream over the destination's storage;
// - TGATHERB copies 32-byte blocks of the source's storage at byte offsets
//   (a block leaving the source is a failure here; pto-isa's CPU backend
//   leaves it unwritten);
// - MGATHER reads rows or elements of a global table at 32-bit indices
//   (read unsigned), an index past the table clamped, wrapped, zeroed or
//   (GatherOOB::Undefined) a failure here.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_SIM_INDEXING_HPP
#define PTO_SIM_INDEXING_HPP

#include <algorithm>
#include <cstring>
#include <vector>

namespace pto {

enum class MaskPattern { P0101 = 1, P1010 = 2, P0001 = 3, P0010 = 4, P0100 = 5, P1000 = 6, P1111 = 7 };

/// Whether pattern `p` keeps element `i` of a row.
constexpr bool mask_keeps(MaskPattern p, int i) {
  switch (p) {
  case MaskPattern::P0101: return i % 2 == 0;
  case MaskPattern::P1010: return i % 2 == 1;
  case MaskPattern::P0001: return i % 4 == 0;
  case MaskPattern::P0010: return i % 4 == 1;
  case MaskPattern::P0100: return i % 4 == 2;
  case MaskPattern::P1000: return i % 4 == 3;
  case MaskPattern::P1111: return true;
  }
  return false;
}

/// The pairs a TMRGSORT took from each of its lists.
struct MrgSortExecutedNumList {
  uint16_t mrgSortList0 = 0, mrgSortList1 = 0, mrgSortList2 = 0, mrgSortList3 = 0;
};

/// dst(0, j) = start + j (start - j descending), j < dst's valid columns;
/// a loop of scalar stores.
template <typename TileT, typename T, int Descending, typename S> void TCI(TileT &dst, S start) {
  static_assert(TileT::rows == 1, "TCI fills one row");
  static_assert(std::is_same_v<T, typename TileT::DType>, "TCI's T is the tile's element type");
  sim::hazards::step(sim::hazards::S, "TCI", {}, {bytes(dst)});
  T first = T(start);
  for (int j = 0; j < dst.validCols; ++j) dst.at(0, j) = Descending == 1 ? T(first - T(j)) : T(first + T(j));
}

/// One (value, index) pair: 8 bytes.
struct SortPair {
  float value;
  uint32_t index;
};

/// Writes `pair` as the 8 bytes at `at` (value of type T, then the index).
template <typename T> void store_pair(T *at, const SortPair &pair) {
  unsigned char bytes[8] = {};
  T value = T(pair.value);
  std::memcpy(bytes, &value, sizeof(T));
  std::memcpy(bytes + 4, &pair.index, 4);
  std::memcpy(at, bytes, 8);
}
template <typename T> SortPair load_pair(const T *at) {
  T value;
  SortPair pair;
  std::memcpy(&value, at, sizeof(T));
  std::memcpy(&pair.index, reinterpret_cast<const unsigned char *>(at) + 4, 4);
  pair.value = float(value);
  return pair;
}

/// Descending by value, ties by index.
inline bool sorts_before(const SortPair &a, const SortPair &b) {
  return a.value > b.value || (a.value == b.value && a.index < b.index);
}

template <typename D, typename S, typename I> void sort32(D &dst, const S &src, const I &idx) {
  using T = typename S::DType;
  static_assert(std::is_same_v<T, typename D::DType>, "TSORT32 keeps the element type");
  static_assert(std::is_same_v<typename I::DType, uint32_t>, "TSORT32's indices are uint32");
  constexpr int width = 8 / sizeof(T);
  for (int r = 0; r < src.validRows; ++r) {
    for (int block = 0; block + 32 <= src.validCols; block += 32) {
      SortPair pairs[32];
      for (int k = 0; k < 32; ++k) pairs[k] = {float(src.at(r, block + k)), idx.at(r, block + k)};
      std::stable_sort(pairs, pairs + 32, sorts_before);
      for (int k = 0; k < 32; ++k) store_pair(&dst.at(r, (block + k) * width), pairs[k]);
    }
  }
}

template <typename D, typename S, typename I> void TSORT32(D &dst, const S &src, const I &idx) {
  sim::hazards::step(sim::hazards::V, "TSORT32", {bytes(src), bytes(idx)}, {bytes(dst)});
  sort32(dst, src, idx);
}
template <typename D, typename S, typename I, typename Tmp> void TSORT32(D &dst, const S &src, const I &idx, Tmp &tmp) {
  sim::hazards::step(sim::hazards::V, "TSORT32", {bytes(src), bytes(idx)}, {bytes(dst), bytes(tmp)});
  sort32(dst, src, idx);
}

/// Merges `lists` (pairs, in order) into dst's row: at most `limit`
/// pairs, stopping once a list runs out when `exhausted`; the pairs taken
/// from each list go to `taken`.
template <typename T>
int merge_pairs(T *out, std::vector<std::vector<SortPair>> &lists, int limit, bool exhausted, int *taken) {
  std::vector<size_t> heads(lists.size(), 0);
  int n = 0;
  while (n < limit) {
    int best = -1;
    for (size_t k = 0; k < lists.size(); ++k)
      if (heads[k] < lists[k].size() && (best < 0 || lists[k][heads[k]].value > lists[best][heads[best]].value))
        best = int(k);
    if (best < 0) break;
    store_pair(out + n * (8 / sizeof(T)), lists[best][heads[best]]);
    ++heads[best];
    ++n;
    if (exhausted && heads[best] == lists[best].size()) break;
  }
  for (size_t k = 0; k < lists.size(); ++k) taken[k] = int(heads[k]);
  return n;
}

template <typename TileT> std::vector<SortPair> pairs_of(const TileT &tile) {
  using T = typename TileT::DType;
  constexpr int width = 8 / sizeof(T);
  std::vector<SortPair> pairs;
  for (int p = 0; p < tile.validCols / width; ++p) pairs.push_back(load_pair(&tile.at(0, p * width)));
  return pairs;
}

/// Each group of four sorted runs of `blockLen` elements of src's row
/// merged into one run of dst.
template <typename D, typename S> void TMRGSORT(D &dst, const S &src, uint32_t blockLen) {
  using T = typename S::DType;
  constexpr int width = 8 / sizeof(T);
  static_assert(D::rows == 1 && S::rows == 1, "TMRGSORT merges one row");
  sim::hazards::step(sim::hazards::V, "TMRGSORT", {bytes(src)}, {bytes(dst)});
  if (blockLen == 0 || blockLen % 64 != 0) fail("TMRGSORT: blockLen must be a positive multiple of 64");
  if (src.validCols % (4 * int(blockLen)) != 0) fail("TMRGSORT: the row is not a whole number of groups of four runs");
  std::vector<SortPair> all = pairs_of(src);
  int run = int(blockLen) / width;
  std::vector<T> merged(size_t(src.validCols));
  for (int group = 0; group < int(all.size()); group += 4 * run) {
    std::vector<std::vector<SortPair>> lists;
    for (int k = 0; k < 4; ++k) lists.emplace_back(all.begin() + group + k * run, all.begin() + group + (k + 1) * run);
    int taken[4];
    merge_pairs(merged.data() + group * width, lists, 4 * run, false, taken);
  }
  std::memcpy(&dst.at(0, 0), merged.data(), merged.size() * sizeof(T));
}

template <typename D, typename Tmp, typename... Sources>
void merge_lists(D &dst, MrgSortExecutedNumList &executed, Tmp &tmp, bool exhausted, const Sources &...sources) {
  using T = typename D::DType;
  static_assert(D::rows == 1 && Tmp::rows == 1 && ((Sources::rows == 1) && ...), "TMRGSORT merges rows");
  static_assert((std::is_same_v<T, typename Sources::DType> && ...), "TMRGSORT keeps the element type");
  sim::hazards::step(sim::hazards::V, "TMRGSORT", {bytes(sources)...}, {bytes(dst), bytes(tmp)});
  std::vector<std::vector<SortPair>> lists{pairs_of(sources)...};
  int taken[4] = {0, 0, 0, 0};
  merge_pairs(&tmp.at(0, 0), lists, dst.validCols / int(8 / sizeof(T)), exhausted, taken);
  std::memcpy(&dst.at(0, 0), &tmp.at(0, 0), size_t(dst.validCols) * sizeof(T));
  executed = {uint16_t(taken[0]), uint16_t(taken[1]), uint16_t(taken[2]), uint16_t(taken[3])};
}

/// pto-isa's TMRGSORT of two to four lists: the merge goes through tmp.
template <typename D, typename Tmp, typename S0, typename S1, bool Exhausted>
void TMRGSORT(D &dst, MrgSortExecutedNumList &executed, Tmp &tmp, S0 &src0, S1 &src1) {
  merge_lists(dst, executed, tmp, Exhausted, src0, src1);
}
template <typename D, typename Tmp, typename S0, typename S1, typename S2, bool Exhausted>
void TMRGSORT(D &dst, MrgSortExecutedNumList &executed, Tmp &tmp, S0 &src0, S1 &src1, S2 &src2) {
  merge_lists(dst, executed, tmp, Exhausted, src0, src1, src2);
}
template <typename D, typename Tmp, typename S0, typename S1, typename S2, typename S3, bool Exhausted>
void TMRGSORT(D &dst, MrgSortExecutedNumList &executed, Tmp &tmp, S0 &src0, S1 &src1, S2 &src2, S3 &src3) {
  merge_lists(dst, executed, tmp, Exhausted, src0, src1, src2, src3);
}

/// dst(r, c) = src's element at flat storage index idx(r, c).
template <typename D, typename S, typename I, typename Tmp> void TGATHER(D &dst, const S &src, const I &idx, Tmp &tmp) {
  static_assert(std::is_same_v<typename D::DType, typename S::DType>, "TGATHER keeps the element type");
  static_assert(sizeof(typename I::DType) == 4, "TGATHER's indices are 32-bit");
  sim::hazards::step(sim::hazards::V, "TGATHER", {bytes(src), bytes(idx)}, {bytes(dst), bytes(tmp)});
  for (int r = 0; r < dst.validRows; ++r)
    for (int c = 0; c < dst.validCols; ++c) {
      long flat = long(idx.at(r, c));
      if (flat < 0 || flat >= long(S::rows) * S::cols) fail("TGATHER: an index outside the source");
      dst.at(r, c) = src.at(int(flat / S::cols), int(flat % S::cols));
    }
}

/// Block b of dst's valid row r (32 bytes: 32 / sizeof(element) elements)
/// is the 32 bytes of src's storage at byte offset offsets(r, b).
template <typename D, typename S, typename O> void TGATHERB(D &dst, const S &src, const O &offsets) {
  static_assert(sizeof(typename O::DType) == 4, "TGATHERB's offsets are 32-bit");
  static_assert(sizeof(typename D::DType) <= 4, "TGATHERB's destination elements are 1, 2 or 4 bytes");
  sim::hazards::step(sim::hazards::V, "TGATHERB", {bytes(src), bytes(offsets)}, {bytes(dst)});
  constexpr int per_block = 32 / int(sizeof(typename D::DType));
  const auto *in = reinterpret_cast<const unsigned char *>(&src.at(0, 0));
  const long total = long(S::rows) * S::cols * long(sizeof(typename S::DType));
  for (int r = 0; r < dst.validRows; ++r)
    for (int b = 0; b < dst.validCols / per_block; ++b) {
      const long off = long(offsets.at(r, b));
      if (off < 0 || off + 32 > total) fail("TGATHERB: a block outside the source");
      std::memcpy(&dst.at(r, b * per_block), in + off, 32);
    }
}

/// How MGATHER reads its table, and what it does past the table.
enum class Coalesce { Row = 0, Elem = 1 };
enum class GatherOOB { Undefined = 0, Clamp = 1, Wrap = 2, Zero = 3 };

/// Row: dst's valid row r is the table's row indices(0, r); Elem:
/// dst(r, c) is the table's element at flat index indices(r, c).
template <Coalesce Mode, GatherOOB Oob, typename D, typename G, typename I>
void MGATHER(D &dst, const G &table, const I &indices) {
  static_assert(sizeof(typename I::DType) == 4, "MGATHER's indices are 32-bit");
  static_assert(std::is_same_v<typename D::DType, typename G::DType>, "MGATHER keeps the table's element type");
  sim::hazards::step(sim::hazards::V, "MGATHER", {bytes(table), bytes(indices)}, {bytes(dst)});
  const long rows = table.windowRows(), cols = table.windowCols();
  const long capacity = Mode == Coalesce::Row ? rows : rows * cols;
  // The position an index reads; false for a zero.
  auto place = [&](long raw, long &at) {
    const long index = long(uint32_t(raw));
    if (index < capacity) { at = index; return true; }
    switch (Oob) {
    case GatherOOB::Clamp: at = capacity - 1; return true;
    case GatherOOB::Wrap: at = index % capacity; return true;
    case GatherOOB::Zero: return false;
    default: fail("MGATHER: an index past the table");
    }
    return false;
  };
  long at = 0;
  for (int r = 0; r < dst.validRows; ++r) {
    if (Mode == Coalesce::Row) {
      const bool read = place(long(indices.at(0, r)), at);
      for (int c = 0; c < dst.validCols; ++c) dst.at(r, c) = read ? table.at(at, c) : typename D::DType{};
      continue;
    }
    for (int c = 0; c < dst.validCols; ++c)
      dst.at(r, c) = place(long(indices.at(r, c)), at) ? table.at(at / cols, at % cols) : typename D::DType{};
  }
}

/// TSCATTER's index form: each valid position of the indexes writes the
/// source's element at that flat index of the destination's storage
/// (later positions win); the rest of the destination is left as it is,
/// as pto-isa's CPU backend leaves it (a2a3's zeroes it first).
template <typename D, typename S, typename I> void TSCATTER(D &dst, const S &src, const I &idx) {
  static_assert(std::is_same_v<typename D::DType, typename S::DType>, "TSCATTER keeps the element type");
  static_assert(std::is_integral_v<typename I::DType>, "TSCATTER's indexes are integers");
  sim::hazards::step(sim::hazards::V, "TSCATTER", {bytes(src), bytes(idx)}, {bytes(dst)});
  for (int r = 0; r < idx.validRows; ++r)
    for (int c = 0; c < idx.validCols; ++c) {
      long flat = long(idx.at(r, c));
      if (flat < 0 || flat >= long(D::rows) * D::cols) fail("TSCATTER: an index outside the destination");
      dst.at(int(flat / D::cols), int(flat % D::cols)) = src.at(r, c);
    }
}

/// TSCATTER's mask form (rows): each row of dst's valid region holds, in
/// the columns the pattern keeps, the next elements of src's storage (one
/// stream over it, as pto-isa's CPU backend reads it), and zero elsewhere.
template <MaskPattern Pattern, typename D, typename S> void TSCATTER(D &dst, const S &src) {
  static_assert(std::is_same_v<typename D::DType, typename S::DType>, "TSCATTER keeps the element type");
  static_assert(sizeof(typename D::DType) == 2 || sizeof(typename D::DType) == 4, "TSCATTER's mask form takes 16- or 32-bit elements");
  sim::hazards::step(sim::hazards::V, "TSCATTER", {bytes(src)}, {bytes(dst)});
  const typename S::DType *in = &src.at(0, 0);
  long k = 0;
  for (int r = 0; r < dst.validRows; ++r)
    for (int c = 0; c < dst.validCols; ++c) {
      if (!mask_keeps(Pattern, c)) {
        dst.at(r, c) = typename D::DType{};
        continue;
      }
      if (k >= long(S::rows) * S::cols) fail("TSCATTER: the stream leaves the source");
      dst.at(r, c) = in[k++];
    }
}

/// The elements of src's valid rows the pattern keeps, as one stream over
/// dst's storage, their bits kept.
template <typename D, typename S, MaskPattern Pattern> void TGATHER(D &dst, const S &src) {
  static_assert(sizeof(typename D::DType) == sizeof(typename S::DType), "TGATHER's mask form keeps the element width");
  sim::hazards::step(sim::hazards::V, "TGATHER", {bytes(src)}, {bytes(dst)});
  if (dst.validCols != D::cols) fail("TGATHER: the mask form's destination columns must all be valid");
  typename D::DType *out = &dst.at(0, 0);
  long k = 0;
  for (int r = 0; r < src.validRows; ++r)
    for (int c = 0; c < src.validCols; ++c)
      if (mask_keeps(Pattern, c)) {
        if (k >= long(D::rows) * D::cols) fail("TGATHER: the kept elements overflow the destination");
        std::memcpy(out + k++, &src.at(r, c), sizeof(typename D::DType));
      }
}

} // namespace pto

#endif // PTO_SIM_INDEXING_HPP
