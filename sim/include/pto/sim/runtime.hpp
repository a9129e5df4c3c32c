//===- runtime.hpp - Running runtime-entry programs on the simulator -----===//
//
// What pto-translate's `--target=a2a3sim --entry=runtime` programs call
// around the device's own files: host buffers described as `ChipTensor`s,
// the orchestration's `ChipTaskArgs`, each kernel's `kernel_entry`
// registered under its func_id, and a check of the orchestration's config.
// The PTO2 API itself is sim/include/runtime/pto_orchestration_api.h.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_SIM_RUNTIME_HPP
#define PTO_SIM_RUNTIME_HPP

#include <deque>
#include <type_traits>

#include "pto/sim/comm.hpp"
#include "pto/sim/host.hpp"
#include "pto_orchestration_api.h"

// Every kernel_entry is `always_inline` for the device; here their
// addresses are registered, which g++ warns about.
#pragma GCC diagnostic ignored "-Wattributes"

namespace pto::sim::runtime {

template <typename T> constexpr DataType data_type();
template <> constexpr DataType data_type<float>() { return DataType::FLOAT32; }
template <> constexpr DataType data_type<half>() { return DataType::FLOAT16; }
template <> constexpr DataType data_type<int32_t>() { return DataType::INT32; }
template <> constexpr DataType data_type<int16_t>() { return DataType::INT16; }
template <> constexpr DataType data_type<int8_t>() { return DataType::INT8; }
template <> constexpr DataType data_type<uint8_t>() { return DataType::UINT8; }
template <> constexpr DataType data_type<int64_t>() { return DataType::INT64; }
template <> constexpr DataType data_type<uint64_t>() { return DataType::UINT64; }
// The runtime has no unsigned 16- or 32-bit type: it sizes and copies
// buffers by their type, so those are the signed type of their width.
template <> constexpr DataType data_type<uint32_t>() { return DataType::INT32; }
template <> constexpr DataType data_type<uint16_t>() { return DataType::INT16; }
// The runtime has no boolean type: a bool is one byte.
template <> constexpr DataType data_type<bool>() { return DataType::UINT8; }

/// The descriptor of a host buffer (its data stays where it is).
template <typename T> ChipTensor describe(Buffer<T> &buffer) {
  ChipTensor tensor{};
  describe_dense(tensor, uint64_t(reinterpret_cast<uintptr_t>(data(buffer))), buffer.shape.data(),
                 buffer.shape.size(), data_type<T>());
  return tensor;
}

/// The orchestration's arguments: these descriptors, in order.
template <typename... Tensors> ChipTaskArgs task_args(Tensors &...tensors) {
  ChipTaskArgs args;
  args.tensors = {&tensors...};
  return args;
}

/// A scalar's 64-bit payload, packed as the orchestration's
/// `pto_orch_scalar<T>` unpacks it.
template <typename S> uint64_t payload_of(S value) {
  union {
    uint64_t u64;
    S value;
  } payload;
  payload.u64 = 0;
  payload.value = value;
  return payload.u64;
}

/// A scalar argument after the tensors.
template <typename T> void add_scalar(ChipTaskArgs &args, T value) { args.scalars.push_back(payload_of(value)); }

inline void register_kernel(int func_id, KernelEntry entry) {
  if (kernels().size() <= size_t(func_id)) kernels().resize(size_t(func_id) + 1, nullptr);
  kernels()[size_t(func_id)] = entry;
}

/// The runtime refuses an orchestration whose config wants another
/// argument count.
inline void check_config(const PTO2OrchestrationConfig &config, const ChipTaskArgs &args) {
  size_t given = args.tensors.size() + args.scalars.size();
  if (size_t(config.expected_arg_count) != given) {
    std::fprintf(stderr, "pto sim: error: the orchestration expects %d arguments, the program gives %zu\n",
                 config.expected_arg_count, given);
    std::exit(1);
  }
}

/// What a dispatched chip orchestration receives on `rank`, argument by
/// argument: window views and host tensors as descriptors, CommContexts and
/// numbers as 64-bit payloads (docs/translate.md, "What the runtime gets").
struct ChipCall {
  std::deque<ChipTensor> descriptors;
  ChipTaskArgs args;
  std::vector<uint64_t> scalars;
};

template <typename T> void add_chip_arg(ChipCall &call, const Window<T> &view, int rank) {
  ChipTensor tensor{};
  describe_dense(tensor, uint64_t(reinterpret_cast<uintptr_t>(for_rank(view, rank))), view.dims.data(), view.dims.size(),
                 data_type<T>());
  call.descriptors.push_back(tensor);
  call.args.tensors.push_back(&call.descriptors.back());
}
template <typename T> void add_chip_arg(ChipCall &call, Buffer<T> *buffer, int) {
  call.descriptors.push_back(describe(*buffer));
  call.args.tensors.push_back(&call.descriptors.back());
}
inline void add_chip_arg(ChipCall &call, CommDomain *domain, int rank) {
  call.scalars.push_back(uint64_t(reinterpret_cast<uintptr_t>(for_rank(domain, rank))));
}
template <typename S, typename = std::enable_if_t<std::is_arithmetic<S>::value>> void add_chip_arg(ChipCall &call, S value, int) {
  call.scalars.push_back(payload_of(value));
}

/// pld.dispatch of a chip orchestration's PTO2 entry: queued on `device`
/// like any dispatch; there its arguments become ChipTaskArgs (the
/// windows, `tokens` ordering tokens, then the scalars), the config is
/// checked, and the entry runs.
template <typename... A>
void launch_chip(CommDomain *domain, int64_t device, void (*entry)(const ChipTaskArgs &),
                 PTO2OrchestrationConfig (*config)(const ChipTaskArgs &), int tokens, A... arguments) {
  int rank = rank_of(domain, device);
  domain->queues[size_t(rank)].push_back([=]() {
    ChipCall call;
    (add_chip_arg(call, arguments, rank), ...);
    static const ChipTensor token{};
    for (int i = 0; i < tokens; ++i) call.args.tensors.push_back(&token);
    call.args.scalars = call.scalars;
    check_config(config(call.args), call.args);
    entry(call.args);
  });
}

} // namespace pto::sim::runtime

#endif // PTO_SIM_RUNTIME_HPP
