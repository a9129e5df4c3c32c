//===- a2a3.hpp - a2a3's on-chip memories, for the simulator ---------------===//
//
// Generated from passes/src/target/a2a3.rs (the table pl-plan-memory
// plans with) by scripts/update-docs.sh; do not edit.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_SIM_A2A3_HPP
#define PTO_SIM_A2A3_HPP

#include <cstdint>

namespace pto::sim::a2a3 {

/// UB, including the top 8192 bytes pto-isa's instructions use as
/// their own scratch (from byte 188416), which no tile is planned in.
inline constexpr uint64_t kUbBytes = 196608;
/// Core groups (one cube and 2 vector cores each) the runtime launches on.
inline constexpr int32_t kClusters = 24;
/// Vector cores.
inline constexpr int32_t kAivCores = 48;
/// The alignment of a tile's address in UB.
inline constexpr uint64_t kUbAlignment = 32;
/// Bytes of L1.
inline constexpr uint64_t kL1Bytes = 524288;
/// The alignment of a tile's address in L1.
inline constexpr uint64_t kL1Alignment = 32;
/// Bytes of L0A.
inline constexpr uint64_t kL0aBytes = 65536;
/// The alignment of a tile's address in L0A.
inline constexpr uint64_t kL0aAlignment = 512;
/// Bytes of L0B.
inline constexpr uint64_t kL0bBytes = 65536;
/// The alignment of a tile's address in L0B.
inline constexpr uint64_t kL0bAlignment = 512;
/// Bytes of L0C.
inline constexpr uint64_t kL0cBytes = 131072;
/// The alignment of a tile's address in L0C.
inline constexpr uint64_t kL0cAlignment = 512;
/// Bytes of the bias table.
inline constexpr uint64_t kBiasBytes = 65536;
/// The alignment of a tile's address in the bias table.
inline constexpr uint64_t kBiasAlignment = 64;

} // namespace pto::sim::a2a3

#endif // PTO_SIM_A2A3_HPP
