"""Runs a generated host orchestrator against the stand-in runtime, as
PyPTO's distributed runner does: the entry is the function marked
`_pypto_distributed_entry`; `_alloc_intermediates(tensors, world_size=…)`,
if there is one, runs first.
python3 run_host.py MODULE_DIR MODULE WORLD_SIZE."""

import importlib
import sys
import types

import torch
from simpler.orchestrator import Orchestrator
from simpler.task_interface import CallConfig

directory, module, world_size = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, directory)
host = importlib.import_module(module)


class Tensors(dict):
    """Host tensors by name (the name stands for the tensor); what the
    module allocates is printed and labelled `NAME[i]`."""

    def __missing__(self, name):
        if name.endswith("_ord"):
            raise KeyError(f"{name}: ordering tokens come from _alloc_intermediates")
        return name

    def __setitem__(self, name, value):
        if isinstance(value, list) and all(isinstance(t, torch.Tensor) for t in value):
            first = value[0]
            print(f"alloc {name}: {len(value)} x zeros{first.shape} {first.dtype}"
                  + (", shared" if all(t.shared for t in value) else ""))
            for i, t in enumerate(value):
                t.label = f"{name}[{i}]"
        super().__setitem__(name, value)


class Callables(dict):
    def __missing__(self, name):
        return name


class RunConfig(CallConfig):
    """The run's config: shared by every dispatch, so read-only here."""

    def __init__(self, aicpu_thread_num):
        object.__setattr__(self, "aicpu_thread_num", aicpu_thread_num)

    def __setattr__(self, name, value):
        raise RuntimeError(f"the run's CallConfig is shared: {name} must not be set on it")


entries = [f for f in vars(host).values()
           if isinstance(f, types.FunctionType) and getattr(f, "_pypto_distributed_entry", False)]
if len(entries) != 1:
    sys.exit(f"{module}: {len(entries)} functions marked _pypto_distributed_entry")
tensors, keep, config = Tensors(), [], RunConfig(aicpu_thread_num=4)
if hasattr(host, "_alloc_intermediates"):
    host._alloc_intermediates(tensors, world_size=world_size)
entries[0](Orchestrator(keep, config), None, config, tensors=tensors, callables=Callables(),
           sub_ids={}, _keep=keep, world_size=world_size)
