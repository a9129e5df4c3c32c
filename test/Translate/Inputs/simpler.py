"""A stand-in for the runtime's Python API (the names pld.md §4.5 uses),
recording what a host orchestrator asks of it, for tests."""

import enum


class DataType(enum.Enum):
    FLOAT32 = "fp32"
    FLOAT16 = "fp16"
    BFLOAT16 = "bf16"
    INT32 = "i32"
    INT16 = "i16"
    INT8 = "i8"
    INT64 = "i64"
    UINT8 = "u8"


class TensorArgType(enum.Enum):
    INPUT = "in"
    OUTPUT = "out"  # the runtime allocates the tensor
    INOUT = "inout"
    OUTPUT_EXISTING = "out-existing"
    NO_DEP = "no-dep"


class CommBufferSpec:
    def __init__(self, name, dtype, count, nbytes):
        self.name, self.dtype, self.count, self.nbytes = name, dtype, count, nbytes


class TaskArgs:
    def __init__(self):
        self.items = []

    def add_tensor(self, tensor, kind):
        if any(item.startswith("scalar") for item in self.items):
            raise RuntimeError("tensors must precede scalars")
        self.items.append(f"{tensor}:{kind.value}")

    def add_scalar(self, value):
        self.items.append(f"scalar {value}")


def make_tensor_arg(worker, tensor):
    return f"host {tensor}"


class _Buffer:
    def __init__(self, domain, rank, spec):
        self.label = f"{domain}[{rank}].{spec.name}"

    def tensor(self, shapes, dtype):
        return f"{self.label}{list(shapes)} {dtype.value}"


class _Worker:
    def __init__(self, domain, rank, specs, size):
        self.buffers = {spec.name: _Buffer(domain, rank, spec) for spec in specs}
        self.device_ctx = f"ctx({domain}, {rank})"
        self.domain_size = size


class _Domain:
    def __init__(self, name, workers, window_size, buffers):
        print(f"domain {name} workers {workers} window {window_size} buffers "
              + ", ".join(f"{b.name}:{b.count}/{b.nbytes}" for b in buffers))
        self.name = name
        self.workers = {rank: _Worker(name, rank, buffers, len(workers)) for rank in workers}

    def __enter__(self):
        return self.workers

    def __exit__(self, *exc):
        print(f"end {self.name}")
        return False


class Orchestrator:
    _worker = "worker"

    def allocate_domain(self, name, workers, window_size, buffers):
        return _Domain(name, workers, window_size, buffers)

    def submit_next_level(self, callable_, ta, cfg, worker):
        print(f"submit {callable_} worker {worker}: " + "; ".join(ta.items))
