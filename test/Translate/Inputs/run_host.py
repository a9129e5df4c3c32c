"""Runs a generated host orchestrator against the stand-in runtime:
python3 run_host.py MODULE_DIR MODULE WORLD_SIZE."""

import importlib
import sys
import types

directory, module, world_size = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, directory)
host = importlib.import_module(module)


class Tensors(dict):
    def __missing__(self, name):
        if name.endswith("_ord"):
            return [f"{name}[{r}]" for r in range(world_size)]
        return name


class Callables(dict):
    def __missing__(self, name):
        return name


host.host_orch(__import__("simpler").Orchestrator(), Tensors(), Callables(),
               types.SimpleNamespace(aicpu_thread_num=None), types.SimpleNamespace(aicpu_thread_num=4), world_size)
