"""A stand-in for `pypto.runtime.tensor_arg.make_tensor_arg(worker, arg)`:
a host tensor as a task argument, labelled `host NAME`."""


def make_tensor_arg(worker, arg):
    if worker is None:
        raise RuntimeError("make_tensor_arg needs the dispatching worker")
    if getattr(arg, "shared", True) is False:
        raise RuntimeError(f"{arg} is not in shared memory (share_memory_() before the fork)")
    return f"host {arg}"
