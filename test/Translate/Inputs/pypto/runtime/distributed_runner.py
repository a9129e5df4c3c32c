"""A stand-in for `pypto.runtime.distributed_runner._submit_chip`: the real
one namespaces per-dispatch DFX output around `orch.submit_next_level`."""


def _submit_chip(orch, callable_id, task_args, config, worker):
    orch._via_submit_chip = True
    try:
        return orch.submit_next_level(callable_id, task_args, config, worker=worker)
    finally:
        orch._via_submit_chip = False
