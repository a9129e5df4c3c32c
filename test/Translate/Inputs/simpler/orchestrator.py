"""A stand-in for simpler's L3 `Orchestrator` (python/simpler/orchestrator.py):
`allocate_domain` and `submit_next_level`, printing what they are asked."""

from .task_interface import CallConfig, TaskArgs


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
    """`keep` is the run's `_keep` list and `config` its CallConfig: a
    submitted TaskArgs must be kept alive, and a builtin collective gets a
    CallConfig of its own with the run's AICPU thread count."""

    _worker = "worker"

    def __init__(self, keep, config):
        self._keep, self._config = keep, config
        self._via_submit_chip = False

    def allocate_domain(self, *, name, workers, window_size, buffers=()):
        return _Domain(name, workers, window_size, buffers)

    def submit_next_level(self, handle, args, config=None, *, worker):
        if not isinstance(args, TaskArgs) or not any(kept is args for kept in self._keep):
            raise RuntimeError("a submitted TaskArgs must be kept alive in _keep")
        if not isinstance(config, CallConfig):
            raise TypeError(f"the config of a submit is a CallConfig, not {config!r}")
        if str(handle).startswith("builtin."):
            if config is self._config:
                raise RuntimeError("a builtin collective needs a CallConfig of its own")
            if config.aicpu_thread_num != self._config.aicpu_thread_num:
                raise RuntimeError(f"a builtin collective runs on {self._config.aicpu_thread_num} AICPU "
                                   f"threads, not {config.aicpu_thread_num}")
        elif not self._via_submit_chip:
            raise RuntimeError(f"a chip dispatch ({handle}) goes through _submit_chip")
        print(f"submit {handle} worker {worker}: " + "; ".join(args.items))
