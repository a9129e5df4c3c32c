//===- intrinsic.h - The runtime's SPMD context on the CPU ----------------===//
//
// What a kernel entry reads of its SPMD identity (docs/translate.md, "SPMD
// launches"), as the a2a3 runtime lays it out: slot 48 of the entry's
// arguments points at the dispatch's LocalContext (the block index and
// count), slot 49 at the core's GlobalContext (the vector lane of a
// cluster). The simulator's runtime (pto_orchestration_api.h) fills them
// for each block it runs.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_SIM_RUNTIME_INTRINSIC_H
#define PTO_SIM_RUNTIME_INTRINSIC_H

#include <cstdint>

#ifndef __gm__
#define __gm__
#endif
#ifndef __aicore__
#define __aicore__
#endif

constexpr int32_t SPMD_LOCAL_CONTEXT_INDEX = 48;
constexpr int32_t SPMD_GLOBAL_CONTEXT_INDEX = 49;

struct LocalContext {
  int32_t block_idx;
  int32_t block_num;
};

struct GlobalContext {
  int32_t sub_block_id;
};

static __aicore__ inline int32_t get_block_idx(__gm__ int64_t *args) {
  return reinterpret_cast<__gm__ LocalContext *>(static_cast<uintptr_t>(args[SPMD_LOCAL_CONTEXT_INDEX]))->block_idx;
}
static __aicore__ inline int32_t get_block_num(__gm__ int64_t *args) {
  return reinterpret_cast<__gm__ LocalContext *>(static_cast<uintptr_t>(args[SPMD_LOCAL_CONTEXT_INDEX]))->block_num;
}
static __aicore__ inline int32_t get_sub_block_id(__gm__ int64_t *args) {
  return reinterpret_cast<__gm__ GlobalContext *>(static_cast<uintptr_t>(args[SPMD_GLOBAL_CONTEXT_INDEX]))->sub_block_id;
}

#endif // PTO_SIM_RUNTIME_INTRINSIC_H
