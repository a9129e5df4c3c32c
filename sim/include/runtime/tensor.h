//===- tensor.h - The runtime's tensor descriptor, on the CPU -------------===//
//
// The a2a3 runtime's `ChipTensor` (docs/translate.md): a buffer handle,
// an element offset into it, the extents and the element strides. The device build
// uses the runtime's own header; the simulator this one
// (`-I sim/include/runtime`).
//
//===----------------------------------------------------------------------===//

#ifndef PTO_SIM_RUNTIME_TENSOR_H
#define PTO_SIM_RUNTIME_TENSOR_H

#include <cstddef>
#include <cstdint>

/// The runtime's element types, in its order (docs/translate.md).
enum class DataType : uint8_t { FLOAT32, FLOAT16, INT32, INT16, INT8, UINT8, BFLOAT16, INT64, UINT64, DATA_TYPE_NUM };

inline size_t data_type_bytes(DataType type) {
  switch (type) {
  case DataType::FLOAT16: case DataType::BFLOAT16: case DataType::INT16: return 2;
  case DataType::INT8: case DataType::UINT8: return 1;
  case DataType::INT64: case DataType::UINT64: return 8;
  default: return 4;
  }
}

struct PTOBufferHandle {
  uint64_t addr;
  uint64_t size;
};

/// The descriptor: element (coords) lies at element start_offset +
/// sum(coords[i] * strides[i]) of the buffer.
struct ChipTensor {
  PTOBufferHandle buffer;
  uint64_t start_offset;
  uint32_t shapes[5];
  uint32_t strides[5];
  uint32_t ndims;
  DataType dtype;
};

/// Fills in a descriptor of a dense row-major tensor of `extents`.
template <typename Extent>
inline void describe_dense(ChipTensor &tensor, uint64_t addr, const Extent *extents, size_t rank, DataType type) {
  tensor.buffer.addr = addr;
  tensor.start_offset = 0;
  tensor.ndims = uint32_t(rank < 5 ? rank : 5);
  tensor.dtype = type;
  uint64_t stride = 1;
  for (size_t i = tensor.ndims; i-- > 0;) {
    tensor.shapes[i] = uint32_t(extents[i]);
    tensor.strides[i] = uint32_t(stride);
    stride *= uint64_t(extents[i]);
  }
  tensor.buffer.size = stride * data_type_bytes(type);
}

#endif // PTO_SIM_RUNTIME_TENSOR_H
