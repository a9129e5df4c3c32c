//===- hazards.hpp - Unsynchronised pipe accesses, found while running ---===//
//
// The simulator runs a core's pipes in program order, so a missing
// set_flag/wait_flag pair computes the right numbers here and races on the
// device. With the checker on (`--hazards` on a driver, or
// PTO_SIM_HAZARDS=1), each instruction is a step on its pipe (TLOAD on
// MTE2, TSTORE on MTE3 or FIX, vector ops on V, TMATMUL on M, TMOV/TEXTRACT
// out of L1 on MTE1 and out of L0C on FIX, scalar tile access on S) that
// reads and writes byte ranges (tiles in the on-chip arenas, windows of
// global memory). Pipes carry vector clocks: set_flag snapshots the source
// pipe's clock, wait_flag merges it into the destination's, pipe_barrier
// (PIPE_ALL) merges every pipe's. Two accesses to overlapping bytes from
// different pipes, one a write, are a hazard unless the later pipe's clock
// has seen the earlier step: each is reported once per pair of
// instructions, and the driver exits 1.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_SIM_HAZARDS_HPP
#define PTO_SIM_HAZARDS_HPP

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace pto::sim::hazards {

/// Pipe numbers as the CCE `pipe_t` numbers them.
enum Pipe : int { S = 0, V = 1, M = 2, MTE1 = 3, MTE2 = 4, MTE3 = 5, FIX = 6, ALL = 7 };
constexpr int kPipes = 7;

inline const char *pipe_name(int pipe) {
  static const char *names[] = {"PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3", "PIPE_FIX"};
  return pipe >= 0 && pipe < kPipes ? names[pipe] : "PIPE_ALL";
}

inline std::atomic<bool> &enabled() {
  static std::atomic<bool> on{[] {
    const char *value = std::getenv("PTO_SIM_HAZARDS");
    return value && *value && std::strcmp(value, "0") != 0;
  }()};
  return on;
}

/// Hazards found so far (every core).
inline std::atomic<long> &found() {
  static std::atomic<long> count{0};
  return count;
}

/// Bytes [lo, hi) an instruction touches.
struct Range {
  const void *lo = nullptr;
  const void *hi = nullptr;
};

struct Access {
  uintptr_t lo, hi;
  int pipe;
  uint64_t time;
  bool write;
  const char *what;
};

/// One core's clocks and recent accesses (a thread is a core).
struct Core {
  uint64_t clock[kPipes][kPipes] = {};
  uint64_t flags[kPipes][kPipes][8][kPipes] = {};
  std::vector<Access> log;
  std::set<std::tuple<std::string, std::string, int, int>> reported;
};

inline Core &core() {
  static thread_local Core state;
  return state;
}

/// Forgets accesses every pipe has seen: nothing can race with them.
inline void prune(Core &c) {
  std::vector<Access> kept;
  for (const Access &a : c.log) {
    bool seen = true;
    for (int q = 0; q < kPipes; ++q) seen = seen && c.clock[q][a.pipe] >= a.time;
    if (!seen) kept.push_back(a);
  }
  c.log.swap(kept);
}

inline void check(Core &c, const Access &now) {
  for (const Access &before : c.log) {
    if (before.pipe == now.pipe || !(before.write || now.write) || before.hi <= now.lo || now.hi <= before.lo) continue;
    if (c.clock[now.pipe][before.pipe] >= before.time) continue;
    auto key = std::make_tuple(std::string(before.what), std::string(now.what), before.pipe, now.pipe);
    found() += 1;
    if (!c.reported.insert(key).second) continue;
    std::fprintf(stderr,
                 "pto sim: hazard: %s on %s %s bytes that %s on %s %s, with no flag or barrier between them "
                 "(%zu bytes overlap)\n",
                 now.what, pipe_name(now.pipe), now.write ? "writes" : "reads", before.what, pipe_name(before.pipe),
                 before.write ? "wrote" : "read",
                 size_t((now.hi < before.hi ? now.hi : before.hi) - (now.lo > before.lo ? now.lo : before.lo)));
  }
}

/// One instruction on `pipe`: reads `reads`, writes `writes`.
inline void step(int pipe, const char *what, std::initializer_list<Range> reads, std::initializer_list<Range> writes) {
  if (!enabled()) return;
  Core &c = core();
  uint64_t time = ++c.clock[pipe][pipe];
  std::vector<Access> accesses;
  for (const Range &r : reads) accesses.push_back({uintptr_t(r.lo), uintptr_t(r.hi), pipe, time, false, what});
  for (const Range &r : writes) accesses.push_back({uintptr_t(r.lo), uintptr_t(r.hi), pipe, time, true, what});
  for (const Access &a : accesses) check(c, a);
  // A later access of the same bytes, kind and pipe supersedes the older.
  for (const Access &a : accesses) {
    bool replaced = false;
    for (Access &old : c.log)
      if (old.lo == a.lo && old.hi == a.hi && old.pipe == a.pipe && old.write == a.write) {
        old = a;
        replaced = true;
      }
    if (!replaced) c.log.push_back(a);
  }
  if (c.log.size() > 4096) prune(c);
}

inline void set_flag(int from, int to, int event) {
  if (!enabled() || from >= kPipes || to >= kPipes) return;
  Core &c = core();
  std::memcpy(c.flags[from][to][event], c.clock[from], sizeof c.clock[from]);
}

inline void wait_flag(int from, int to, int event) {
  if (!enabled() || from >= kPipes || to >= kPipes) return;
  Core &c = core();
  for (int p = 0; p < kPipes; ++p)
    if (c.flags[from][to][event][p] > c.clock[to][p]) c.clock[to][p] = c.flags[from][to][event][p];
}

/// PIPE_ALL: every pipe has seen every step so far. A single pipe's
/// barrier orders only that pipe, which runs in order anyway.
inline void barrier(int pipe) {
  if (!enabled() || pipe != ALL) return;
  Core &c = core();
  uint64_t joined[kPipes] = {};
  for (int q = 0; q < kPipes; ++q)
    for (int p = 0; p < kPipes; ++p) joined[p] = c.clock[q][p] > joined[p] ? c.clock[q][p] : joined[p];
  for (int q = 0; q < kPipes; ++q) std::memcpy(c.clock[q], joined, sizeof joined);
  prune(c);
}

} // namespace pto::sim::hazards

#endif // PTO_SIM_HAZARDS_HPP
