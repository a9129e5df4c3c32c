//===- pipes.hpp - Cross-core pipes of the instruction model --------------===//
//
// pto-isa's TPipe, TPUSH, TPOP and TFREE for the model (pto/pto-inst.hpp
// includes this): the cube core and the vector cores of a core group run on
// threads of their own (pto::sim::launch_group), and a pipe is a ring of
// `SlotNum` slots of `SlotSize` bytes in its global-memory slot buffer.
// A push waits for a free slot and writes the tile's valid region there,
// row-major (a vector core's half at its offset when the split halves it);
// a pop waits for a full slot and reads this core's part into the tile,
// bound first (by the emitted code) to its local slot of the consumer's
// ring; a free gives the slot back once every core that pops it has freed
// it. Split `none` is one vector core (pto-isa's TILE_NO_SPLIT: "1:1
// mode, using AIV0"): a launch of such a group runs vector core 0 alone.
// A launch whose cores still wait after PTO_SIM_DEADLOCK_SECONDS (60; 0:
// no limit) is reported as a deadlock by the launch (groups.hpp), the same
// on pto-isa's backend and the model.
//
//===----------------------------------------------------------------------===//
#ifndef PTO_SIM_PIPES_HPP
#define PTO_SIM_PIPES_HPP

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace pto {

enum class TileSplitAxis { TILE_NO_SPLIT = 0, TILE_UP_DOWN = 1, TILE_LEFT_RIGHT = 2 };

enum Direction : uint8_t { DIR_C2V = 1, DIR_V2C = 2, DIR_BOTH = 3 };

namespace sim {

/// This thread's place in its core group: whether it is the cube, the
/// vector core's index, and how many vector cores the launch runs.
struct CoreSeat {
  bool cube = false;
  uint32_t subblock = 0;
  uint32_t vector_lanes = 1;
};
inline CoreSeat &core_seat() {
  static thread_local CoreSeat seat;
  return seat;
}

/// The count of core-group launches so far: a pipe's shared state belongs
/// to one launch and starts afresh in the next.
inline std::atomic<uint64_t> &group_launches() {
  static std::atomic<uint64_t> count{0};
  return count;
}

} // namespace sim

inline uint32_t get_subblockid() { return sim::core_seat().subblock; }
inline uint32_t get_subblockdim() { return sim::core_seat().vector_lanes; }

template <uint8_t FlagID, uint8_t DirType, uint32_t SlotSize, uint32_t SlotNum, uint32_t LocalSlotNum = 2,
          bool IsNoSplit = false, bool EN_UNIT_FLAG = false>
struct TPipe {
  struct RingFiFo {
    static constexpr uint32_t SLOT_SIZE = SlotSize;
    static constexpr uint32_t SLOT_NUM = SlotNum;
    static constexpr uint32_t LOCAL_SLOT_NUM = LocalSlotNum;
  };
  /// The ring's state, shared by the group's cores. Each way has its own
  /// cursors over the one ring of slots (a `both` pipe's ways alternate).
  /// The ring's state, shared by the group's cores. Both ways of a `both`
  /// pipe share the ring, as on pto-isa: a producer claims the next slot
  /// that is not busy; a slot holds one way's tile number `seq` once all
  /// its writers have written it, and stays busy until every core that
  /// pops it has freed it.
  struct Shared {
    std::mutex lock;
    std::condition_variable changed;
    bool busy[SlotNum] = {};
    bool full[SlotNum] = {};
    uint8_t way[SlotNum] = {};
    uint32_t seq[SlotNum] = {};
    uint32_t written[SlotNum] = {};
    uint32_t unfreed[SlotNum] = {};
    /// The slot claimed for each way's tile n (n % 64), while it is written.
    int claimed[3][64] = {};
    uint32_t next_push = 0;
    uint64_t launch = ~uint64_t(0);
  };
  /// The state, locked by `guard`, reset at the first use in a launch.
  static Shared &shared(std::unique_lock<std::mutex> &guard) {
    static Shared state;
    guard = std::unique_lock<std::mutex>(state.lock);
    uint64_t launch = sim::group_launches().load();
    if (state.launch != launch) {
      std::memset(state.busy, 0, sizeof state.busy);
      std::memset(state.full, 0, sizeof state.full);
      std::memset(state.written, 0, sizeof state.written);
      std::memset(state.unfreed, 0, sizeof state.unfreed);
      for (auto &way : state.claimed)
        for (int &slot : way) slot = -1;
      state.next_push = 0;
      state.launch = launch;
    }
    return state;
  }

  __gm__ void *gm;
  uint32_t pushes = 0;
  uint32_t pops = 0;
  /// The slots this core popped and has not freed, oldest first.
  uint32_t popped[SlotNum] = {};
  uint32_t frees = 0;

  TPipe(__gm__ void *gmSlotBuffer, uint32_t, uint32_t) : gm(gmSlotBuffer) {
    if (gm == nullptr) fail("a pipe without its slot buffer in global memory");
  }

  unsigned char *slot(uint32_t index) const { return static_cast<unsigned char *>(gm) + size_t(index) * SlotSize; }

  /// Blocks until `ready`; a launch whose cores all wait here for good is
  /// reported by the launch's watchdog (groups.hpp, run_group).
  template <typename Wait>
  static void wait(Shared &shared, std::unique_lock<std::mutex> &guard, const char *, Wait ready) {
    shared.changed.wait(guard, ready);
  }
};

namespace sim {

/// The lanes that write a slot: both vector cores when a split halves the
/// tile and the vector cores push, else one.
template <TileSplitAxis Split> constexpr uint32_t lanes() { return Split == TileSplitAxis::TILE_NO_SPLIT ? 1u : 2u; }

/// Row and column offsets of this vector core's part of a split tile of
/// `rows` × `cols` (the whole tile's extents).
template <TileSplitAxis Split> void part_offset(int rows, int cols, int &row, int &col) {
  uint32_t lane = get_subblockid();
  row = Split == TileSplitAxis::TILE_UP_DOWN ? int(lane) * rows : 0;
  col = Split == TileSplitAxis::TILE_LEFT_RIGHT ? int(lane) * cols : 0;
}

} // namespace sim

/// A push: the tile's valid region into a free slot, row-major over the
/// whole tile's columns; from the vector cores with a split each writes its
/// half of the same slot, and the slot is full once both have.
template <typename Pipe, typename TileT, TileSplitAxis Split> void TPUSH(Pipe &pipe, TileT &tile) {
  using T = typename TileT::DType;
  constexpr bool fromVector = TileT::loc == TileType::Vec;
  constexpr uint32_t writers = fromVector ? sim::lanes<Split>() : 1u;
  constexpr int way = fromVector ? 2 : 1;
  if (uint64_t(tile.validRows) * tile.validCols * sizeof(T) * writers > Pipe::RingFiFo::SLOT_SIZE)
    fail("TPUSH: the tile does not fit a slot of its pipe");
  std::unique_lock<std::mutex> guard;
  auto &shared = Pipe::shared(guard);
  uint32_t n = pipe.pushes++;
  int &claim = shared.claimed[way][n % 64];
  if (claim < 0) {
    Pipe::wait(shared, guard, "push", [&] { return !shared.busy[shared.next_push]; });
    claim = int(shared.next_push);
    shared.busy[claim] = true;
    shared.written[claim] = 0;
    shared.next_push = (shared.next_push + 1) % Pipe::RingFiFo::SLOT_NUM;
  }
  uint32_t index = uint32_t(claim);
  uint32_t lane = fromVector ? get_subblockid() : 0;
  int rows = tile.validRows, cols = tile.validCols;
  int wholeCols = fromVector && Split == TileSplitAxis::TILE_LEFT_RIGHT ? 2 * cols : cols;
  int row = 0, col = 0;
  if (fromVector) sim::part_offset<Split>(rows, cols, row, col);
  T *slot = reinterpret_cast<T *>(pipe.slot(index));
  sim::hazards::step(TileT::loc == TileType::Acc ? sim::hazards::FIX : sim::hazards::MTE3, "TPUSH", {bytes(tile)}, {});
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) slot[(row + r) * wholeCols + col + c] = tile.at(r, c);
  shared.written[index] |= 1u << lane;
  if (shared.written[index] == (1u << writers) - 1u) {
    claim = -1;
    shared.full[index] = true;
    shared.way[index] = uint8_t(way);
    shared.seq[index] = n;
    // Who pops it: the cube, or every vector core the launch runs.
    shared.unfreed[index] = fromVector ? 1u : get_subblockdim();
    shared.changed.notify_all();
  }
}

/// A pop: waits for this way's next tile and reads this core's part of it.
template <typename Pipe, typename TileT, TileSplitAxis Split> void TPOP(Pipe &pipe, TileT &tile) {
  using T = typename TileT::DType;
  constexpr bool toVector = TileT::loc == TileType::Vec;
  constexpr int way = toVector ? 1 : 2;
  std::unique_lock<std::mutex> guard;
  auto &shared = Pipe::shared(guard);
  uint32_t n = pipe.pops;
  uint32_t index = 0;
  Pipe::wait(shared, guard, "pop", [&] {
    for (uint32_t i = 0; i < Pipe::RingFiFo::SLOT_NUM; ++i)
      if (shared.full[i] && shared.way[i] == way && shared.seq[i] == n) {
        index = i;
        return true;
      }
    return false;
  });
  int rows = tile.validRows, cols = tile.validCols;
  int wholeCols = toVector && Split == TileSplitAxis::TILE_LEFT_RIGHT ? 2 * cols : cols;
  int row = 0, col = 0;
  if (toVector) sim::part_offset<Split>(rows, cols, row, col);
  const T *slot = reinterpret_cast<const T *>(pipe.slot(index));
  sim::hazards::step(sim::hazards::MTE2, "TPOP", {}, {bytes(tile)});
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) tile.at(r, c) = slot[(row + r) * wholeCols + col + c];
  if (pipe.pops - pipe.frees >= Pipe::RingFiFo::SLOT_NUM) fail("TPOP: more tiles held than the ring has slots");
  pipe.popped[pipe.pops % Pipe::RingFiFo::SLOT_NUM] = index;
  ++pipe.pops;
}

/// A free: this core is done with its oldest popped tile; the slot is free
/// once every core that pops it is.
template <typename Pipe, TileSplitAxis Split> void TFREE(Pipe &pipe) {
  std::unique_lock<std::mutex> guard;
  auto &shared = Pipe::shared(guard);
  if (pipe.frees >= pipe.pops) fail("TFREE: nothing popped to free");
  uint32_t index = pipe.popped[pipe.frees % Pipe::RingFiFo::SLOT_NUM];
  ++pipe.frees;
  if (shared.unfreed[index] > 0 && --shared.unfreed[index] == 0) {
    shared.full[index] = false;
    shared.busy[index] = false;
    shared.changed.notify_all();
  }
}

} // namespace pto

#endif // PTO_SIM_PIPES_HPP
