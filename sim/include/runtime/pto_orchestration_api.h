//===- pto_orchestration_api.h - The PTO2 orchestration API, declared ----===//
//
// The calls pto-translate's runtime orchestrations make (pl.md §6.7), as
// declarations only: enough for g++ to check the emitted C++ against the
// API's shape (`-fsyntax-only -I sim/include/runtime`). Executing runtime
// orchestrations is not simulated; `run_*.cpp` programs of the a2a3sim
// target run orchestrations instead.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_SIM_RUNTIME_ORCHESTRATION_API_H
#define PTO_SIM_RUNTIME_ORCHESTRATION_API_H

#include "tensor.h"

struct ChipTensorArg {
  const ChipTensor &ref() const;
};

struct ChipTaskArgs {
  ChipTensorArg tensor(int index) const;
  uint64_t scalar(int index) const;
};

struct CoreTaskArgs {
  void add_input(const ChipTensor &tensor);
  void add_output(const ChipTensor &tensor);
  void add_inout(const ChipTensor &tensor);
  void add_scalar(uint64_t payload);
};

struct TensorCreateInfo {
  TensorCreateInfo(const uint32_t *shapes, uint32_t rank, DataType dtype);
};

struct TaskOutputTensors {
  const ChipTensor &get_ref(int index) const;
};

struct PTO2OrchestrationConfig {
  int expected_arg_count;
};

TaskOutputTensors alloc_tensors(const TensorCreateInfo &info);
void rt_submit_aiv_task(int func_id, CoreTaskArgs &params);
void rt_submit_aic_task(int func_id, CoreTaskArgs &params);

/// A scope of the task ring: a block here.
#define PTO2_SCOPE() if (true)

#endif // PTO_SIM_RUNTIME_ORCHESTRATION_API_H
