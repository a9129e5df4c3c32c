//===- tensor.h - The runtime's tensor descriptor, on the CPU -------------===//
//
// The a2a3 runtime's `ChipTensor` as pl.md §6.6–§6.7 use it: a buffer
// address, an element offset into it, and the extents. The device build
// uses the runtime's own header; the simulator this one
// (`-I sim/include/runtime`).
//
//===----------------------------------------------------------------------===//

#ifndef PTO_SIM_RUNTIME_TENSOR_H
#define PTO_SIM_RUNTIME_TENSOR_H

#include <cstddef>
#include <cstdint>

enum class DataType : int32_t { FLOAT32, FLOAT16, BFLOAT16, INT32, INT16, INT8, INT64, UINT8, BOOL };

inline size_t data_type_bytes(DataType type) {
  switch (type) {
  case DataType::FLOAT16: case DataType::BFLOAT16: case DataType::INT16: return 2;
  case DataType::INT8: case DataType::UINT8: case DataType::BOOL: return 1;
  case DataType::INT64: return 8;
  default: return 4;
  }
}

struct ChipBuffer {
  uint64_t addr;
};

struct ChipTensor {
  ChipBuffer buffer;
  int64_t start_offset;
  int64_t shapes[5];
  int32_t ndims;
  DataType dtype;
};

#endif // PTO_SIM_RUNTIME_TENSOR_H
