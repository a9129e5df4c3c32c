"""A stand-in for `pypto.runtime.tensor_arg.make_tensor_arg(worker, arg)`:
a host tensor as a task argument, labelled `host NAME`."""


def make_tensor_arg(worker, arg):
    if worker is None:
        raise RuntimeError("make_tensor_arg needs the dispatching worker")
    return f"host {arg}"
