//===- host.hpp - Host side of simulated kernels: buffers, .npy, goldens --===//
//
// What pto-translate's a2a3sim drivers call: command-line inputs and outputs
// as .npy files (`--input NAME=FILE.npy`, `--output-dir DIR`), seeded random
// inputs otherwise, and a comparison of each output with `--golden DIR`
// (`--rtol`, `--atol`) that prints max abs/rel error and mismatch counts;
// `--hazards` turns on the checker of unsynchronised pipes (hazards.hpp),
// which only the project's instruction model has (backend.hpp: on pto-isa's
// CPU backend it is an error).
//
//===----------------------------------------------------------------------===//

#ifndef PTO_SIM_HOST_HPP
#define PTO_SIM_HOST_HPP

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "pto/sim/a2a3.hpp"
#include "pto/sim/backend.hpp"
#include "pto/sim/spmd.hpp"
#include "pto/sim/groups.hpp"

namespace pto::sim {

/// The simulated device's core groups and vector cores
/// (`pl.system.available_cluster_count`, `available_aiv_count`).
inline int32_t available_cluster_count() { return a2a3::kClusters; }
inline int32_t available_aiv_count() { return a2a3::kAivCores; }

/// The command line of a simulated program.
struct Args {
  std::map<std::string, std::string> inputs;
  std::string outputDir, goldenDir;
  double rtol = 1e-5, atol = 1e-6;
  unsigned seed = 0;
  int ranks = 1;
  int mismatched = 0;
  int compared = 0;
};

inline Args parse_args(int argc, char **argv) {
  configure_backend();
  note_unchecked_hazards();
  Args args;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "error: %s needs a value\n", flag.c_str());
        std::exit(1);
      }
      return argv[++i];
    };
    if (flag == "--input") {
      std::string spec = value();
      size_t eq = spec.find('=');
      if (eq == std::string::npos) {
        std::fprintf(stderr, "error: --input wants NAME=FILE.npy, got '%s'\n", spec.c_str());
        std::exit(1);
      }
      args.inputs[spec.substr(0, eq)] = spec.substr(eq + 1);
    } else if (flag == "--output-dir") {
      args.outputDir = value();
    } else if (flag == "--golden") {
      args.goldenDir = value();
    } else if (flag == "--rtol") {
      args.rtol = std::atof(value().c_str());
    } else if (flag == "--atol") {
      args.atol = std::atof(value().c_str());
    } else if (flag == "--ranks") {
      args.ranks = std::atoi(value().c_str());
      if (args.ranks < 1 || args.ranks > 64) {
        std::fprintf(stderr, "error: --ranks must be in 1..64\n");
        std::exit(1);
      }
    } else if (flag == "--seed") {
      args.seed = unsigned(std::atoi(value().c_str()));
    } else if (flag == "--hazards") {
      // Report accesses racing an unsynchronised pipe (pto/sim/hazards.hpp).
      request_hazards();
    } else {
      std::fprintf(stderr, "error: unknown argument '%s'\n", flag.c_str());
      std::exit(1);
    }
  }
  return args;
}

template <typename T> const char *npy_descr();
template <> inline const char *npy_descr<float>() { return "<f4"; }
template <> inline const char *npy_descr<half>() { return "<f2"; }
template <> inline const char *npy_descr<int32_t>() { return "<i4"; }
template <> inline const char *npy_descr<int16_t>() { return "<i2"; }
template <> inline const char *npy_descr<int8_t>() { return "|i1"; }
template <> inline const char *npy_descr<int64_t>() { return "<i8"; }
template <> inline const char *npy_descr<uint32_t>() { return "<u4"; }
template <> inline const char *npy_descr<uint16_t>() { return "<u2"; }
template <> inline const char *npy_descr<uint8_t>() { return "|u1"; }
template <> inline const char *npy_descr<bool>() { return "|b1"; }

/// A host tensor: contiguous row-major elements and a shape. A view
/// (`pl.tensor.slice`, `pl.tensor.view` of a host tensor) owns no elements:
/// `view` points into another buffer's.
template <typename T> struct Buffer {
  std::string name;
  std::vector<long> shape;
  std::vector<T> data;
  T *view = nullptr;
};

/// Reads a little-endian, C-ordered .npy of `T` whose shape matches
/// `shape` (-1 matches any extent; `shape` gets the file's).
template <typename T> bool read_npy(const std::string &path, std::vector<long> &shape, std::vector<T> &data) {
  FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) return false;
  char magic[8];
  bool ok = std::fread(magic, 1, 8, file) == 8 && std::memcmp(magic, "\x93NUMPY", 6) == 0;
  uint32_t header = 0;
  if (ok && magic[6] == 1) {
    uint16_t h = 0;
    ok = std::fread(&h, 2, 1, file) == 1;
    header = h;
  } else if (ok) {
    ok = std::fread(&header, 4, 1, file) == 1;
  }
  std::string text(header, ' ');
  ok = ok && std::fread(&text[0], 1, header, file) == header;
  // The shape tuple, however it is spaced ("(128, 128)", "(128, 128, )").
  std::vector<long> found;
  size_t at = text.find("'shape': (");
  if (at != std::string::npos) {
    size_t end = text.find(')', at);
    std::string tuple = text.substr(at + 10, end == std::string::npos ? 0 : end - at - 10);
    size_t start = 0;
    while (start < tuple.size()) {
      size_t comma = tuple.find(',', start);
      std::string item = tuple.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (item.find_first_of("0123456789") != std::string::npos) found.push_back(std::atol(item.c_str()));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  bool matches = found.size() == shape.size();
  for (size_t d = 0; matches && d < shape.size(); ++d) matches = shape[d] < 0 || shape[d] == found[d];
  ok = ok && text.find(npy_descr<T>()) != std::string::npos && text.find("'fortran_order': False") != std::string::npos && matches;
  if (!ok) {
    // A file of another type or shape leaves `shape` as it was (with its
    // -1 extents): nothing is read.
    std::fclose(file);
    return false;
  }
  shape = found;
  long count = 1;
  for (long d : shape) count *= d;
  data.resize(size_t(count));
  ok = ok && std::fread(data.data(), sizeof(T), size_t(count), file) == size_t(count);
  std::fclose(file);
  return ok;
}

template <typename T> bool write_npy(const std::string &path, const Buffer<T> &buffer) {
  std::string header = std::string("{'descr': '") + npy_descr<T>() + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < buffer.shape.size(); ++i) header += std::to_string(buffer.shape[i]) + (buffer.shape.size() == 1 || i + 1 < buffer.shape.size() ? ", " : "");
  header += "), }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  FILE *file = std::fopen(path.c_str(), "wb");
  if (!file) return false;
  uint16_t length = uint16_t(header.size());
  bool ok = std::fwrite("\x93NUMPY\x01\x00", 1, 8, file) == 8 && std::fwrite(&length, 2, 1, file) == 1 &&
            std::fwrite(header.data(), 1, header.size(), file) == header.size() &&
            std::fwrite(buffer.data.data(), sizeof(T), buffer.data.size(), file) == buffer.data.size();
  return std::fclose(file) == 0 && ok;
}

/// An input: from its --input file, else uniform in [-1, 1) from the seed.
template <typename T> Buffer<T> input(Args &args, const char *name, std::vector<long> shape) {
  Buffer<T> buffer{name, shape, {}};
  auto found = args.inputs.find(name);
  if (found != args.inputs.end()) {
    if (!read_npy(found->second, buffer.shape, buffer.data)) {
      std::fprintf(stderr, "error: %s: cannot read a %s .npy of the parameter's shape\n", found->second.c_str(), npy_descr<T>());
      std::exit(1);
    }
    return buffer;
  }
  for (long d : shape)
    if (d < 0) {
      std::fprintf(stderr, "error: %s has a dynamic shape: give it with --input %s=FILE.npy\n", name, name);
      std::exit(1);
    }
  long count = 1;
  for (long d : shape) count *= d;
  uint64_t state = 0x9e3779b97f4a7c15ull ^ (uint64_t(args.seed) << 32) ^ std::hash<std::string>()(name);
  for (long i = 0; i < count; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    buffer.data.push_back(T(float(double(state >> 11) / double(1ull << 53) * 2.0 - 1.0)));
  }
  return buffer;
}

/// A scalar parameter: the one element of its --input file (shape () or
/// (1,), of T's .npy type; an index parameter, size_t, is read as int64).
template <typename T> T scalar(Args &args, const char *name) {
  using Stored = typename std::conditional<std::is_same<T, size_t>::value, int64_t, T>::type;
  auto found = args.inputs.find(name);
  if (found == args.inputs.end()) {
    std::fprintf(stderr, "error: no input for the scalar parameter %s: give it with --input %s=FILE.npy\n", name, name);
    std::exit(1);
  }
  for (std::vector<long> shape : {std::vector<long>{}, std::vector<long>{1}}) {
    std::vector<Stored> data;
    if (read_npy(found->second, shape, data) && data.size() == 1) return T(data[0]);
  }
  std::fprintf(stderr, "error: %s: cannot read a %s .npy of one element for the scalar parameter %s\n",
               found->second.c_str(), npy_descr<Stored>(), name);
  std::exit(1);
}

/// An output: zero-initialised.
template <typename T> Buffer<T> output(Args &, const char *name, std::vector<long> shape) {
  long count = 1;
  for (long d : shape) count *= d;
  return Buffer<T>{name, shape, std::vector<T>(size_t(count), T(0.0f))};
}

template <typename T> T *data(Buffer<T> &buffer) { return buffer.view ? buffer.view : buffer.data.data(); }
template <typename T> T *data(Buffer<T> *buffer) { return data(*buffer); }

inline long elements(const std::vector<long> &shape) {
  long count = 1;
  for (long d : shape) count *= d;
  return count;
}

/// Keeps a view for the rest of the program: a dispatch queued on a
/// device's thread may use it after the host's loop iteration that made it.
template <typename T> Buffer<T> *keep_view(Buffer<T> view) {
  static std::mutex lock;
  static std::deque<Buffer<T>> views;
  std::lock_guard<std::mutex> guard(lock);
  views.push_back(std::move(view));
  return &views.back();
}

/// A loop's rebinding carry (`x = layer(x)`, each iteration yielding
/// another tensor) points at the tensor it stands for: `carry_at` one that
/// outlives the loop, `carry_kept` one the iteration made, moved into
/// storage kept for the rest of the program (a dispatch queued on a
/// device's thread may still use it; its elements do not move).
template <typename T> Buffer<T> *carry_at(Buffer<T> &buffer) { return &buffer; }
template <typename T> Buffer<T> *carry_at(Buffer<T> *buffer) { return buffer; }
template <typename T> Buffer<T> *carry_kept(Buffer<T> &buffer) { return keep_view(std::move(buffer)); }
template <typename T> Buffer<T> *carry_kept(Buffer<T> *buffer) { return buffer; }

/// `pl.tensor.slice`: the window at `bounds` (the offsets, then the sizes,
/// one per dimension) of `parent`, which must be contiguous in it (leading
/// extents of one, then one partial extent, then whole ones).
template <typename T, typename... Bounds> Buffer<T> *slice(Buffer<T> *parent, Bounds... bounds) {
  std::vector<long> given{long(bounds)...};
  size_t rank = parent->shape.size();
  if (given.size() != 2 * rank) std::fprintf(stderr, "pto sim: error: a slice of rank %zu with %zu bounds\n", rank, given.size()), std::exit(1);
  long offset = 0, stride = 1;
  bool partial = false;
  for (size_t d = rank; d-- > 0;) {
    long at = given[d], size = given[rank + d], extent = parent->shape[d];
    if (at < 0 || size < 0 || at + size > extent) {
      std::fprintf(stderr, "pto sim: error: a slice of %s at %ld, %ld elements, is outside its extent %ld (axis %zu)\n",
                   parent->name.c_str(), at, size, extent, d);
      std::exit(1);
    }
    // Inner to outer: whole extents, then at most one partial, then ones.
    if (partial && size != 1) {
      std::fprintf(stderr, "pto sim: error: a slice of %s that is not contiguous in it is not simulated (axis %zu)\n",
                   parent->name.c_str(), d);
      std::exit(1);
    }
    if (size != extent) partial = true;
    offset += at * stride;
    stride *= extent;
  }
  Buffer<T> view{parent->name, std::vector<long>(given.begin() + long(rank), given.end()), {}, data(parent) + offset};
  return keep_view(std::move(view));
}
template <typename T, typename... Bounds> Buffer<T> *slice(Buffer<T> &parent, Bounds... bounds) {
  return slice(&parent, bounds...);
}

/// The row-major element offset of `indices` in `buffer`, checked.
template <typename T> long element_at(const Buffer<T> &buffer, const std::vector<long> &indices) {
  if (indices.size() != buffer.shape.size()) {
    std::fprintf(stderr, "pto sim: error: %zu indices into %s of rank %zu\n", indices.size(), buffer.name.c_str(),
                 buffer.shape.size());
    std::exit(1);
  }
  long offset = 0;
  for (size_t d = 0; d < indices.size(); ++d) {
    if (indices[d] < 0 || indices[d] >= buffer.shape[d]) {
      std::fprintf(stderr, "pto sim: error: index %ld of %s is outside its extent %ld (axis %zu)\n", indices[d],
                   buffer.name.c_str(), buffer.shape[d], d);
      std::exit(1);
    }
    offset = offset * buffer.shape[d] + indices[d];
  }
  return offset;
}

/// `pl.tensor.read`: one element of a host tensor.
template <typename T, typename... I> T read(Buffer<T> &buffer, I... indices) {
  return data(buffer)[element_at(buffer, {long(indices)...})];
}
template <typename T, typename... I> T read(Buffer<T> *buffer, I... indices) { return read(*buffer, indices...); }

/// `pl.tensor.write`: one element of a host tensor, in place.
template <typename T, typename V, typename... I> void write(Buffer<T> &buffer, V value, I... indices) {
  data(buffer)[element_at(buffer, {long(indices)...})] = T(value);
}
template <typename T, typename V, typename... I> void write(Buffer<T> *buffer, V value, I... indices) {
  write(*buffer, value, indices...);
}

/// `pl.tensor.assemble`: `source` written (added, with `Add`) into the
/// window of `target` at `offsets`, element by element (any window).
template <typename T, bool Add, typename... Offsets>
void assemble(Buffer<T> &target, Buffer<T> &source, Offsets... offsets) {
  std::vector<long> at{long(offsets)...};
  size_t rank = target.shape.size();
  if (at.size() != rank || source.shape.size() != rank) {
    std::fprintf(stderr, "pto sim: error: an assemble of rank %zu into %s of rank %zu\n", source.shape.size(),
                 target.name.c_str(), rank);
    std::exit(1);
  }
  for (size_t d = 0; d < rank; ++d)
    if (at[d] < 0 || at[d] + source.shape[d] > target.shape[d]) {
      std::fprintf(stderr, "pto sim: error: an assemble into %s at %ld, %ld elements, is outside its extent %ld (axis %zu)\n",
                   target.name.c_str(), at[d], source.shape[d], target.shape[d], d);
      std::exit(1);
    }
  long count = elements(source.shape);
  std::vector<long> index(rank, 0);
  T *from = data(source), *to = data(target);
  for (long i = 0; i < count; ++i) {
    long offset = 0;
    for (size_t d = 0; d < rank; ++d) offset = offset * target.shape[d] + at[d] + index[d];
    to[offset] = Add ? T(to[offset] + from[i]) : from[i];
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < source.shape[d]) break;
      index[d] = 0;
    }
  }
}
template <typename T, bool Add, typename... Offsets> void assemble(Buffer<T> *target, Buffer<T> &source, Offsets... o) {
  assemble<T, Add>(*target, source, o...);
}
template <typename T, bool Add, typename... Offsets> void assemble(Buffer<T> &target, Buffer<T> *source, Offsets... o) {
  assemble<T, Add>(target, *source, o...);
}
template <typename T, bool Add, typename... Offsets> void assemble(Buffer<T> *target, Buffer<T> *source, Offsets... o) {
  assemble<T, Add>(*target, *source, o...);
}

/// `pl.tensor.full`: a fresh tensor of the given extents, every element
/// `value`.
template <typename T, typename V, typename... Dims> Buffer<T> full(const char *name, V value, Dims... dims) {
  std::vector<long> shape{long(dims)...};
  return Buffer<T>{name, shape, std::vector<T>(size_t(elements(shape)), T(value))};
}

/// `pl.tensor.view` / `pl.tensor.reshape` of a host tensor: its elements
/// with another shape.
template <typename T, typename... Dims> Buffer<T> *reshape(Buffer<T> *parent, Dims... dims) {
  std::vector<long> shape{long(dims)...};
  if (elements(shape) != elements(parent->shape)) {
    std::fprintf(stderr, "pto sim: error: a view of %s with %ld elements, not %ld\n", parent->name.c_str(),
                 elements(shape), elements(parent->shape));
    std::exit(1);
  }
  return keep_view(Buffer<T>{parent->name, shape, {}, data(parent)});
}
template <typename T, typename... Dims> Buffer<T> *reshape(Buffer<T> &parent, Dims... dims) {
  return reshape(&parent, dims...);
}

/// A fresh zero-filled tensor of the given extents (pl.tensor.create).
template <typename T, typename... Dims> Buffer<T> make(const char *name, Dims... dims) {
  std::vector<long> shape{long(dims)...};
  long count = 1;
  for (long d : shape) count *= d;
  return Buffer<T>{name, shape, std::vector<T>(size_t(count), T(0.0f))};
}

/// Extent `axis` of a tensor (pl.tensor.dim).
template <typename T> size_t dim(const Buffer<T> &buffer, long axis) { return size_t(buffer.shape[size_t(axis)]); }
template <typename T> size_t dim(const Buffer<T> *buffer, long axis) { return size_t(buffer->shape[size_t(axis)]); }

/// Writes and compares `buffer` as the output `name` (a program result).
template <typename T> void finish(Args &args, Buffer<T> buffer, const char *name);

/// Writes `buffer` to the output directory and compares it with its golden.
template <typename T> void finish(Args &args, Buffer<T> &buffer) {
  if (buffer.view) {
    Buffer<T> owned{buffer.name, buffer.shape, std::vector<T>(buffer.view, buffer.view + elements(buffer.shape))};
    finish(args, owned);
    return;
  }
  if (!args.outputDir.empty() && !write_npy(args.outputDir + "/" + buffer.name + ".npy", buffer)) {
    std::fprintf(stderr, "error: cannot write %s/%s.npy\n", args.outputDir.c_str(), buffer.name.c_str());
    std::exit(1);
  }
  if (args.goldenDir.empty()) return;
  std::vector<T> golden;
  std::string path = args.goldenDir + "/" + buffer.name + ".npy";
  // As pto-run does: an output is compared when the golden has it.
  if (FILE *exists = std::fopen(path.c_str(), "rb")) std::fclose(exists);
  else return;
  std::vector<long> shape = buffer.shape;
  if (!read_npy(path, shape, golden) || shape != buffer.shape) {
    std::fprintf(stderr, "error: %s: no golden of the output's shape and type\n", path.c_str());
    std::exit(1);
  }
  double maxAbs = 0, maxRel = 0;
  long bad = 0;
  for (size_t i = 0; i < golden.size(); ++i) {
    // Integers compare exactly (through f32 they would lose their low bits
    // beyond 2^24); floats within the tolerances.
    constexpr bool exact = std::is_integral<T>::value;
    double x, g;
    if constexpr (exact) {
      x = double(int64_t(buffer.data[i]));
      g = double(int64_t(golden[i]));
    } else {
      x = double(float(buffer.data[i]));
      g = double(float(golden[i]));
    }
    // As pto-run compares: NaN matches NaN, an infinity the same one.
    if (x == g || (std::isnan(x) && std::isnan(g))) continue;
    double abs = std::fabs(x - g), rel = g != 0 ? abs / std::fabs(g) : abs;
    maxAbs = abs > maxAbs ? abs : maxAbs;
    maxRel = rel > maxRel ? rel : maxRel;
    // Past the equal ones above, an infinity or a NaN never matches.
    bool equal = exact ? buffer.data[i] == golden[i]
                       : std::isfinite(x) && std::isfinite(g) && abs <= args.atol + args.rtol * std::fabs(g);
    if (!equal) ++bad;
  }
  std::printf("%s: %s, max abs error %.3g, max rel error %.3g, %ld of %zu elements mismatch\n", buffer.name.c_str(),
              bad ? "MISMATCH" : "matches the golden", maxAbs, maxRel, bad, golden.size());
  if (bad) args.mismatched += 1;
  args.compared += 1;
}

template <typename T> void finish(Args &args, Buffer<T> buffer, const char *name) {
  buffer.name = name;
  finish(args, buffer);
}
template <typename T> void finish(Args &args, Buffer<T> *view, const char *name) { finish(args, *view, name); }
/// Writes and compares a scalar program result as a 0-d .npy (an index,
/// a size_t here, as the int64 pto-run writes).
template <typename T, typename std::enable_if<std::is_arithmetic<T>::value, int>::type = 0>
void finish(Args &args, T value, const char *name) {
  using Stored = typename std::conditional<std::is_same<T, size_t>::value, int64_t, T>::type;
  Buffer<Stored> buffer{name, {}, {Stored(value)}};
  finish(args, buffer);
}

/// 1 when an output mismatched its golden, a golden was given but matched
/// no output, or the hazard checker found an unsynchronised access.
inline int exit_code(Args &args) {
  if (!args.goldenDir.empty() && !args.compared) {
    std::fprintf(stderr, "error: no golden in %s matches an output\n", args.goldenDir.c_str());
    args.mismatched += 1;
  }
  long hazards = hazards_found();
  if (hazards) std::fprintf(stderr, "pto sim: %ld hazardous accesses\n", hazards);
  return args.mismatched || hazards ? 1 : 0;
}

} // namespace pto::sim

#endif // PTO_SIM_HOST_HPP
