"""A stand-in for `simpler.task_interface` (the names PyPTO's generated
host_orch.py imports), recording what a host orchestrator asks of it, for
tests."""

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
    UINT64 = "u64"


class TensorArgType(enum.Enum):
    INPUT = "in"
    OUTPUT = "out"  # the runtime allocates the tensor
    INOUT = "inout"
    OUTPUT_EXISTING = "out-existing"
    NO_DEP = "no-dep"


class CommBufferSpec:
    def __init__(self, name, dtype, count, nbytes, load_from_host=False, store_to_host=False):
        self.name, self.dtype, self.count, self.nbytes = name, dtype, count, nbytes


class CallConfig:
    def __init__(self):
        self.aicpu_thread_num = None


class TaskArgs:
    def __init__(self):
        self.items = []

    def add_tensor(self, tensor, kind):
        if any(item.startswith("scalar") for item in self.items):
            raise RuntimeError("tensors must precede scalars")
        if not isinstance(kind, TensorArgType):
            raise TypeError(f"a tensor's direction is a TensorArgType, not {kind!r}")
        self.items.append(f"{tensor}:{kind.value}")

    def add_scalar(self, value):
        self.items.append(f"scalar {value}")
