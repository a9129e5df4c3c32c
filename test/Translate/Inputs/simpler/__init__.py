"""A stand-in for the runtime's Python package `simpler`, for tests. As in
the real package (python/simpler/__init__.py), the names a host
orchestrator uses are not here but in `simpler.task_interface`."""
