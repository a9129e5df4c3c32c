//===- comm.hpp - Simulated devices: windows, comm contexts, rank threads -===//
//
// A host program's comm domains on the CPU: every rank gets a zeroed window
// (slots carved consecutively, 32-byte rounded) and a CommContext laid out
// as the runtime's (docs/translate.md, "How the C++ is made": slot 2 holds
// rankId and rankNum, slots 4 + k the window base of rank k). Each
// dispatch runs on its own thread (a core: the instructions' per-core
// state, the model's arenas or pto-isa's NPUMemoryModel, is thread-local);
// notify and wait are atomic on the window memory; a wait that is not satisfied within the
// timeout reports the deadlock (on pto-isa, devices that have not all
// finished within the timeout, see join).
//
//===----------------------------------------------------------------------===//

#ifndef PTO_SIM_COMM_HPP
#define PTO_SIM_COMM_HPP

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "pto/sim/host.hpp"

namespace pto::sim {

/// The largest window a simulated rank has.
constexpr size_t kWindowBytes = size_t(64) << 20;

struct CommDomain {
  std::string name;
  int ranks = 1;
  std::vector<unsigned char *> windows;
  std::vector<std::vector<int64_t>> contexts;
  size_t used = 0;
  /// Each device's dispatches, run in program order at the scope's end.
  std::vector<std::vector<std::function<void()>>> queues;
  /// Window slots by name, for the outputs: (name, offset, bytes).
  std::vector<std::tuple<std::string, size_t, size_t>> slots;
  /// The member devices in rank order (a fixed device list); empty: every
  /// device, rank = device.
  std::vector<int64_t> devices;
};

/// A domain over `devices` (every device when empty), each rank with a
/// zeroed window when `windows`.
inline CommDomain *make_domain(Args &args, const char *name, std::vector<int64_t> devices, bool windows) {
  auto *d = new CommDomain();
  d->name = name;
  for (int64_t device : devices)
    if (device < 0 || device >= args.ranks) pto::sim::fail("a comm domain names a device past the program's devices");
  d->devices = std::move(devices);
  d->ranks = d->devices.empty() ? args.ranks : int(d->devices.size());
  d->queues.resize(size_t(d->ranks));
  for (int r = 0; r < d->ranks; ++r) {
    unsigned char *window = nullptr;
    if (windows) {
      window = static_cast<unsigned char *>(std::calloc(kWindowBytes, 1));
      if (!window) pto::sim::fail("cannot allocate a window");
    }
    d->windows.push_back(window);
  }
  for (int r = 0; r < d->ranks; ++r) {
    std::vector<int64_t> context(132, 0);
    context[2] = int64_t(uint32_t(r)) | (int64_t(uint32_t(d->ranks)) << 32);
    for (int k = 0; k < d->ranks; ++k) context[4 + k] = int64_t(reinterpret_cast<intptr_t>(d->windows[k]));
    d->contexts.push_back(context);
  }
  return d;
}

/// pld.comm_domain: over every device, or over the `devices` listed.
template <typename... Devices> CommDomain *domain(Args &args, const char *name, Devices... devices) {
  return make_domain(args, name, {int64_t(devices)...}, true);
}

/// Where the dispatches outside every comm domain run: every device, no
/// windows (they share none).
inline CommDomain *lone_domain(Args &args) { return make_domain(args, "(no comm domain)", {}, false); }

/// The rank of `device` in domain `d`.
inline int rank_of(CommDomain *d, int64_t device) {
  if (d->devices.empty()) {
    if (device < 0 || device >= d->ranks) pto::sim::fail("a dispatch names a device outside the domain");
    return int(device);
  }
  for (size_t r = 0; r < d->devices.size(); ++r)
    if (d->devices[r] == device) return int(r);
  pto::sim::fail("a dispatch names a device outside the domain");
  return -1;
}

/// A slot of every rank's window (pld.tensor.alloc_window_buffer).
struct Slot {
  CommDomain *domain;
  size_t offset;
  size_t bytes;
};

inline Slot window_buffer(CommDomain *d, int64_t bytes, const char *name) {
  size_t rounded = (size_t(bytes) + 31) / 32 * 32;
  if (d->used + rounded > kWindowBytes) pto::sim::fail("the windows exceed the simulator's 64 MiB per rank");
  Slot slot{d, d->used, size_t(bytes)};
  d->slots.emplace_back(name, d->used, size_t(bytes));
  d->used += rounded;
  return slot;
}

/// A typed view of a slot on every rank (pld.tensor.window), with its
/// extents.
template <typename T> struct Window {
  Slot slot;
  std::vector<long> dims;
};

/// A view of `slot` with the given extents; one of them may be -1 (the
/// slot's size decides it).
template <typename T, typename... Dims> Window<T> window(Slot slot, Dims... extents) {
  Window<T> view{slot, {long(extents)...}};
  long known = 1, unknown = -1;
  for (size_t d = 0; d < view.dims.size(); ++d) {
    if (view.dims[d] < 0) unknown = long(d);
    else known *= view.dims[d];
  }
  if (unknown >= 0) view.dims[size_t(unknown)] = known ? long(slot.bytes / sizeof(T)) / known : 0;
  return view;
}

/// Extent `axis` of a window view.
template <typename T> size_t dim(const Window<T> &view, long axis) { return size_t(view.dims[size_t(axis)]); }

/// The comm context handle of a window's domain (pld.system.get_comm_ctx).
template <typename T> CommDomain *comm_ctx(Window<T> window) { return window.slot.domain; }

inline int64_t world_size(Args &args) { return args.ranks; }

/// The element count of a window view (its extents known at run time).
template <typename T> int32_t elements(const Window<T> &view) {
  long count = 1;
  for (long extent : view.dims) count *= extent;
  return int32_t(count);
}

/// What a dispatched function receives on `rank` for each host value.
template <typename T> T *for_rank(Window<T> w, int rank) {
  return reinterpret_cast<T *>(w.slot.domain->windows[size_t(rank)] + w.slot.offset);
}
inline int64_t *for_rank(CommDomain *d, int rank) { return d->contexts[size_t(rank)].data(); }

/// A host tensor handed to a dispatch by reference (dispatches run on
/// threads; the tensor outlives them).
template <typename T> Buffer<T> *ref(Buffer<T> &buffer) { return &buffer; }
template <typename T> Buffer<T> *ref(Buffer<T> *view) { return view; }
template <typename T> T for_rank(T value, int) { return value; }

/// pld.dispatch: queues `function` on `device` (its rank's queue). A device runs its
/// dispatches in program order (as the runtime's per-domain ordering token
/// keeps them), devices run concurrently: one thread each, at the end of
/// the comm domain scope.
template <typename F, typename... A> void launch(CommDomain *d, int64_t device, F function, A... args) {
  int rank = rank_of(d, device);
  d->queues[size_t(rank)].push_back([=]() { function(for_rank(args, rank)...); });
}

/// How long the devices of a scope may run on pto-isa's CPU backend before
/// the program reports a deadlock: PTO_SIM_DEADLOCK_SECONDS (0: no limit),
/// else 60 s. Its TWAIT waits for ever (backend.hpp); the model's reports a
/// wait that lasts 10 s itself.
inline long deadlock_seconds() {
  const char *value = std::getenv("PTO_SIM_DEADLOCK_SECONDS");
  return value && *value ? std::atol(value) : 60;
}

/// The end of a comm domain scope: every device runs its dispatches.
inline void join(CommDomain *d) {
  std::vector<std::thread> threads;
  std::mutex lock;
  std::condition_variable done;
  size_t running = d->queues.size();
  for (auto &queue : d->queues)
    threads.emplace_back([&queue, &lock, &done, &running]() {
      for (auto &task : queue) task();
      std::lock_guard<std::mutex> guard(lock);
      running -= 1;
      done.notify_all();
    });
  if (PTO_SIM_ON_PTO_ISA && deadlock_seconds() > 0) {
    std::unique_lock<std::mutex> guard(lock);
    if (!done.wait_for(guard, std::chrono::seconds(deadlock_seconds()), [&running]() { return running == 0; })) {
      std::fprintf(stderr,
                   "pto sim: error: deadlock: %zu of %d devices of comm domain '%s' still run after %ld s (a wait "
                   "that never completes; PTO_SIM_DEADLOCK_SECONDS sets the limit, 0 removes it)\n",
                   running, d->ranks, d->name.c_str(), deadlock_seconds());
      std::fflush(stdout);
      std::abort();
    }
  }
  for (auto &thread : threads) thread.join();
  for (auto &queue : d->queues) queue.clear();
}

/// Writes and compares a window view as `[ranks, dims...]`: each rank's
/// view elements from the start of its slot.
template <typename T> void finish_window(Args &args, const Window<T> &view, const char *name) {
  CommDomain *d = view.slot.domain;
  long elements = 1;
  for (long extent : view.dims) elements *= extent;
  if (size_t(elements) * sizeof(T) > view.slot.bytes) pto::sim::fail("a window view is larger than its slot");
  Buffer<T> buffer{name, {long(d->ranks)}, {}};
  buffer.shape.insert(buffer.shape.end(), view.dims.begin(), view.dims.end());
  for (int r = 0; r < d->ranks; ++r) {
    const T *data = reinterpret_cast<const T *>(d->windows[size_t(r)] + view.slot.offset);
    buffer.data.insert(buffer.data.end(), data, data + elements);
  }
  finish(args, buffer);
}

/// A window the compiler synthesized (a signal no program output names):
/// every cell must be back at zero once the program ends (self-clearing
/// credits: docs/pld-guide.md, "Signals"), on every rank.
template <typename T> void expect_released(Args &args, const Window<T> &view, const char *name) {
  CommDomain *d = view.slot.domain;
  long elements = 1;
  for (long extent : view.dims) elements *= extent;
  for (int r = 0; r < d->ranks; ++r) {
    const T *data = reinterpret_cast<const T *>(d->windows[size_t(r)] + view.slot.offset);
    for (long i = 0; i < elements; ++i)
      if (data[i] != T(0)) {
        std::printf("%s: NOT RELEASED, rank %d cell %ld holds %g\n", name, r, i, double(data[i]));
        args.mismatched += 1;
        return;
      }
  }
  if (!args.goldenDir.empty()) std::printf("%s: every cell released\n", name);
}

/// Fills every rank's copy of slot `name` from `--input NAME=FILE.npy`
/// (`[ranks, dims...]`, rank by rank), else with seeded values: a window
/// given to a host program from outside.
template <typename T, typename... Dims> void fill_slot(Args &args, CommDomain *d, const char *name, Dims... dims) {
  std::vector<long> shape{long(d->ranks), long(dims)...};
  Buffer<T> values = input<T>(args, name, shape);
  long elements = 1;
  for (long extent : {long(dims)...}) elements *= extent;
  for (auto &[slot, offset, bytes] : d->slots) {
    if (slot != name) continue;
    if (size_t(elements) * sizeof(T) > bytes) pto::sim::fail("a window input is larger than its slot");
    for (int r = 0; r < d->ranks; ++r)
      std::memcpy(d->windows[size_t(r)] + offset, values.data.data() + long(r) * elements, size_t(elements) * sizeof(T));
  }
}

} // namespace pto::sim

#endif // PTO_SIM_COMM_HPP
