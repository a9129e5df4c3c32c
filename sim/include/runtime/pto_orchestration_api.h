//===- pto_orchestration_api.h - The PTO2 orchestration API on the CPU ---===//
//
// The calls pto-translate's runtime orchestrations make (docs/translate.md,
// "What the runtime gets"), implemented for the simulator: an orchestration
// runs on the host thread, `alloc_tensors` allocates zeroed host memory that
// lives until the program ends, and `rt_submit_aiv_task`/
// `rt_submit_aic_task` run the kernel's packed-argument `kernel_entry`
// (registered by func_id, see pto/sim/runtime.hpp) at once, in submission
// order, each block of an SPMD launch in turn (or, for a launch that
// starts them together, each on a thread of its own: pto/sim/spmd.hpp) —
// so task dependencies hold trivially, and scopes (`PTO2_SCOPE`) are plain
// blocks. The device build
// uses the runtime's own header.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_SIM_RUNTIME_ORCHESTRATION_API_H
#define PTO_SIM_RUNTIME_ORCHESTRATION_API_H

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <vector>

#include "intrinsic.h"
#include "pto/sim/a2a3.hpp"
#include "pto/sim/groups.hpp"
#include "pto/sim/spmd.hpp"
#include "tensor.h"

struct ChipTensorArg {
  const ChipTensor *tensor;
  const ChipTensor &ref() const { return *tensor; }
};

/// What the runtime hands an orchestration: tensor descriptors, then
/// 64-bit scalar payloads.
struct ChipTaskArgs {
  std::vector<const ChipTensor *> tensors;
  std::vector<uint64_t> scalars;
  ChipTensorArg tensor(int index) const {
    if (index < 0 || size_t(index) >= tensors.size()) {
      std::fprintf(stderr, "pto sim: error: orchestration tensor argument %d of %zu\n", index, tensors.size());
      std::abort();
    }
    return {tensors[size_t(index)]};
  }
  uint64_t scalar(int index) const {
    if (index < 0 || size_t(index) >= scalars.size()) {
      std::fprintf(stderr, "pto sim: error: orchestration scalar argument %d of %zu\n", index, scalars.size());
      std::abort();
    }
    return scalars[size_t(index)];
  }
};

/// A submitted task's id.
struct PTO2TaskId {
  uint64_t raw = ~uint64_t(0);
  static constexpr PTO2TaskId invalid() { return {}; }
  bool is_valid() const { return raw != ~uint64_t(0); }
};

/// How a task is launched: the SPMD block count (the simulator runs the
/// blocks one after another, as pto-run does, unless they start together)
/// and whether its blocks start together.
struct LaunchSpec {
  int block_num = 1;
  bool require_sync_start = false;
  void set_block_num(int blocks) { block_num = blocks; }
  void set_require_sync_start(bool together) { require_sync_start = together; }
};

/// One task's arguments: tensors (by direction) first, then scalars.
struct CoreTaskArgs {
  std::vector<ChipTensor> tensors;
  std::vector<uint64_t> scalars;
  /// The runtime keeps the caller's array, not a copy: it must live
  /// through the submit.
  const PTO2TaskId *dependencies = nullptr;
  uint32_t dependency_count = 0;
  LaunchSpec launch_spec;
  void set_dependencies(const PTO2TaskId *ids, uint32_t count) {
    if (dependencies) {
      std::fprintf(stderr, "pto sim: error: set_dependencies is called at most once per task\n");
      std::abort();
    }
    dependencies = ids;
    dependency_count = count;
  }
  void add_input(const ChipTensor &tensor) { add_tensor(tensor); }
  void add_output(const ChipTensor &tensor) { add_tensor(tensor); }
  void add_inout(const ChipTensor &tensor) { add_tensor(tensor); }
  void add_scalar(uint64_t payload) { scalars.push_back(payload); }

private:
  void add_tensor(const ChipTensor &tensor) {
    if (!scalars.empty()) {
      std::fprintf(stderr, "pto sim: error: a task's tensors must precede its scalars\n");
      std::abort();
    }
    tensors.push_back(tensor);
  }
};

struct TensorCreateInfo {
  std::vector<int64_t> shapes;
  DataType dtype;
  TensorCreateInfo(const uint32_t *extents, uint32_t rank, DataType type) : shapes(extents, extents + rank), dtype(type) {}
};

/// What a submit or an allocation returns: the tensors it made and the
/// task's id.
struct TaskOutputTensors {
  std::vector<ChipTensor> tensors;
  PTO2TaskId id;
  const ChipTensor &get_ref(int index) const { return tensors.at(size_t(index)); }
  PTO2TaskId task_id() const { return id; }
};

struct PTO2OrchestrationConfig {
  int expected_arg_count;
};

namespace pto::sim::runtime {

/// Memory of every `alloc_tensors`, alive until the program ends (devices
/// allocate from their own threads).
inline std::deque<std::vector<unsigned char>> &allocations() {
  static std::deque<std::vector<unsigned char>> memory;
  return memory;
}
inline std::mutex &allocation_lock() {
  static std::mutex lock;
  return lock;
}

/// The registered `kernel_entry` of each func_id.
using KernelEntry = void (*)(int64_t *);
inline std::vector<KernelEntry> &kernels() {
  static std::vector<KernelEntry> entries;
  return entries;
}

/// Tasks submitted so far (ids are 0, 1, …).
inline std::atomic<uint64_t> &submitted() {
  static std::atomic<uint64_t> count{0};
  return count;
}

/// Tasks run at once, in order: a dependency must name an earlier task.
inline void check_dependencies(const CoreTaskArgs &params) {
  for (uint32_t i = 0; i < params.dependency_count; ++i) {
    PTO2TaskId dependency = params.dependencies[i];
    if (!dependency.is_valid() || dependency.raw >= submitted()) {
      std::fprintf(stderr, "pto sim: error: a task depends on task %llu, which was not submitted before it\n",
                   (unsigned long long)dependency.raw);
      std::abort();
    }
  }
}

inline PTO2TaskId submit(int func_id, const CoreTaskArgs &params) {
  check_dependencies(params);
  if (func_id < 0 || size_t(func_id) >= kernels().size() || !kernels()[size_t(func_id)]) {
    std::fprintf(stderr, "pto sim: error: a task for func_id %d, which no kernel has\n", func_id);
    std::abort();
  }
  // Descriptors by address, then payloads; slots up to 50 exist (the
  // runtime keeps the SPMD context at 48 and 49: intrinsic.h).
  std::vector<int64_t> args(params.tensors.size() + params.scalars.size() + 50, 0);
  size_t slot = 0;
  for (const ChipTensor &tensor : params.tensors) args[slot++] = int64_t(reinterpret_cast<uintptr_t>(&tensor));
  for (uint64_t payload : params.scalars) args[slot++] = int64_t(payload);
  // The launch's blocks run one after another on this thread's core.
  if (params.launch_spec.block_num < 1) {
    std::fprintf(stderr, "pto sim: error: a task of %d blocks\n", params.launch_spec.block_num);
    std::abort();
  }
  GlobalContext lane{0};
  args[SPMD_GLOBAL_CONTEXT_INDEX] = int64_t(reinterpret_cast<uintptr_t>(&lane));
  // Blocks started together run on threads of their own (a barrier in
  // the kernel needs them at once), each with its own copy of the slots.
  const int32_t blocks = params.launch_spec.block_num;
  pto::sim::run_blocks(blocks, params.launch_spec.require_sync_start, [&](long block) {
    std::vector<int64_t> own = args;
    LocalContext context{int32_t(block), blocks};
    own[SPMD_LOCAL_CONTEXT_INDEX] = int64_t(reinterpret_cast<uintptr_t>(&context));
    kernels()[size_t(func_id)](own.data());
  });
  return PTO2TaskId{submitted()++};
}

} // namespace pto::sim::runtime

inline TaskOutputTensors alloc_tensors(const TensorCreateInfo &info) {
  int64_t elements = 1;
  for (int64_t extent : info.shapes) elements *= extent;
  unsigned char *data;
  {
    std::lock_guard<std::mutex> guard(pto::sim::runtime::allocation_lock());
    auto &memory = pto::sim::runtime::allocations();
    memory.emplace_back(size_t(elements) * data_type_bytes(info.dtype), 0);
    data = memory.back().data();
  }
  ChipTensor tensor{};
  describe_dense(tensor, uint64_t(reinterpret_cast<uintptr_t>(data)), info.shapes.data(), info.shapes.size(), info.dtype);
  return TaskOutputTensors{{tensor}, PTO2TaskId::invalid()};
}

/// A mixed task's kernels: the cube's and each vector core's (the runtime's
/// pto_submit_types.h); a vector core without a kernel does not run.
constexpr int32_t INVALID_KERNEL_ID = -1;
struct MixedKernels {
  int32_t aic_kernel_id = INVALID_KERNEL_ID;
  int32_t aiv0_kernel_id = INVALID_KERNEL_ID;
  int32_t aiv1_kernel_id = INVALID_KERNEL_ID;
};

namespace pto::sim::runtime {

/// A mixed task: its kernels on a core group's cores at once
/// (pto/sim/groups.hpp), one block, each core with its own copy of the
/// packed arguments.
inline PTO2TaskId submit_mixed(const MixedKernels &mixed, const CoreTaskArgs &params) {
  check_dependencies(params);
  int32_t ids[3] = {mixed.aic_kernel_id, mixed.aiv0_kernel_id, mixed.aiv1_kernel_id};
  for (int32_t id : ids) {
    if (id != INVALID_KERNEL_ID && (id < 0 || size_t(id) >= kernels().size() || !kernels()[size_t(id)])) {
      std::fprintf(stderr, "pto sim: error: a mixed task for func_id %d, which no kernel has\n", id);
      std::abort();
    }
  }
  if (params.launch_spec.block_num != 1) {
    std::fprintf(stderr, "pto sim: error: a mixed task of %d blocks is not simulated yet (one is)\n",
                 params.launch_spec.block_num);
    std::abort();
  }
  std::vector<int64_t> args(params.tensors.size() + params.scalars.size() + 50, 0);
  size_t slot = 0;
  for (const ChipTensor &tensor : params.tensors) args[slot++] = int64_t(reinterpret_cast<uintptr_t>(&tensor));
  for (uint64_t payload : params.scalars) args[slot++] = int64_t(payload);
  int lanes = mixed.aiv1_kernel_id == INVALID_KERNEL_ID ? 1 : 2;
  pto::sim::run_group("mixed task", lanes, [&](int seat) {
    int32_t id = ids[seat + 1];
    if (id == INVALID_KERNEL_ID) return;
    std::vector<int64_t> own = args;
    GlobalContext lane{seat < 0 ? 0 : seat};
    LocalContext context{0, 1};
    own[SPMD_GLOBAL_CONTEXT_INDEX] = int64_t(reinterpret_cast<uintptr_t>(&lane));
    own[SPMD_LOCAL_CONTEXT_INDEX] = int64_t(reinterpret_cast<uintptr_t>(&context));
    kernels()[size_t(id)](own.data());
  });
  return PTO2TaskId{submitted()++};
}

} // namespace pto::sim::runtime

inline TaskOutputTensors rt_submit_task(const MixedKernels &mixed, const CoreTaskArgs &params) {
  return TaskOutputTensors{{}, pto::sim::runtime::submit_mixed(mixed, params)};
}

inline TaskOutputTensors rt_submit_aiv_task(int func_id, const CoreTaskArgs &params) {
  return TaskOutputTensors{{}, pto::sim::runtime::submit(func_id, params)};
}
inline TaskOutputTensors rt_submit_aic_task(int func_id, const CoreTaskArgs &params) {
  return TaskOutputTensors{{}, pto::sim::runtime::submit(func_id, params)};
}
/// A task without a kernel: done once its dependencies are, which here
/// they already are.
inline TaskOutputTensors rt_submit_dummy_task(const CoreTaskArgs &params) {
  pto::sim::runtime::check_dependencies(params);
  return TaskOutputTensors{{}, PTO2TaskId{pto::sim::runtime::submitted()++}};
}

/// The device's core groups and vector cores (pto/sim/a2a3.hpp, the
/// planner's table).
inline int32_t rt_available_cluster_count() { return pto::sim::a2a3::kClusters; }
inline int32_t rt_available_aiv_count() { return pto::sim::a2a3::kAivCores; }

/// Scopes of the task ring (automatic dependencies, or manual ones through
/// set_dependencies): plain blocks here.
enum class PTO2ScopeMode { AUTO, MANUAL };
#define PTO2_SCOPE(...) if (true)

#endif // PTO_SIM_RUNTIME_ORCHESTRATION_API_H
