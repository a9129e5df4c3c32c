"""Pass pipelines run in process: upstream and pto passes, and their errors."""

from __future__ import annotations

import pytest

from pto_mlir import DiagnosticError, Module, PassManager, PassPipelineError, run_pipeline
import pto_mlir.language as pl


def _names(module: Module) -> list[str]:
    return [op.name for op in module.walk()]


def test_outlining_turns_the_scope_into_a_kernel_and_a_call(context, repo):
    module = Module.parse_file(repo / "examples" / "tiles" / "elementwise_add.mlir", context)
    assert "pl.incore_scope" in _names(module)
    run_pipeline(module, "builtin.module(pl-outline-incore-scopes)")
    assert "pl.incore_scope" not in _names(module)
    kernel = module.functions["add"]  # named after the scope
    assert str(kernel.attribute("pl.kind")) == "#pl.kind<incore>"
    caller = module.functions["add_tensors"]
    calls = [op for op in caller.walk() if op.name == "pl.call"]
    assert [str(op.attribute("callee")) for op in calls] == ["@add"]
    module.verify()


def test_upstream_passes_nest_under_functions(context):
    module = Module.parse(
        "func.func @f() -> index {\n"
        "  %a = arith.constant 2 : index\n"
        "  %b = arith.constant 3 : index\n"
        "  %c = arith.addi %a, %b : index\n"
        "  return %c : index\n"
        "}\n",
        context,
    )
    manager = PassManager("func.func(canonicalize)", context)
    assert "canonicalize" in manager.pipeline
    manager.run(module)
    assert _names(module).count("arith.addi") == 0
    assert "arith.constant 5 : index" in str(module)


def test_the_a2a3_pipeline_plans_a_front_end_kernel(context):
    T = pl.Tensor[[32, 64], pl.FP32]

    @pl.kernel
    def scale(x: T, y: pl.Out[T]) -> T:
        return pl.store(pl.load(x, [0, 0], [32, 64]) * 2.0, [0, 0], y)

    module = pl.program(scale, context=context)
    run_pipeline(module, "builtin.module(pto-a2a3-pipeline)")
    kernel = module.functions["scale"]
    assert str(kernel.attribute("pl.kind")) == "#pl.kind<aiv>"  # memory-space inference split it
    muls = [op for op in kernel.walk() if op.name == "pl.tile.muls"]
    assert len(muls) == 1 and muls[0].attribute("pl.addresses") is not None  # planned
    assert "pl.system.sync_src" in _names(module)  # synchronised


@pytest.mark.parametrize("pipeline, message", [
    ("builtin.module(no-such-pass)", "'no-such-pass' does not refer to a registered pass or pass pipeline"),
    ("no-such-pass", "'no-such-pass' does not refer to a registered pass or pass pipeline"),
    ("builtin.module(canonicalize{max-iterations=banana})", "failed to add `canonicalize`"),
    ("func.func(", "unbalanced parentheses"),
])
def test_bad_pipelines_raise(context, pipeline, message):
    with pytest.raises(PassPipelineError) as raised:
        PassManager(pipeline, context)
    assert message in raised.value.errors[0].message


def test_pto_pass_options_are_checked_when_the_pass_runs(context, repo):
    # The project's passes parse their options when they run (as in pto-opt).
    module = Module.parse_file(repo / "examples" / "distributed" / "07_dynamic_rank_count.mlir", context)
    manager = PassManager("builtin.module(func.func(pld-specialize-nranks{nranks=banana}))", context)
    with pytest.raises(DiagnosticError) as raised:
        manager.run(module)
    assert "option 'nranks' must be a 64-bit integer, got 'banana'" in raised.value.errors[0].message
    assert "pld.system.nranks" in str(module)
    run_pipeline(module, "builtin.module(func.func(pld-specialize-nranks{nranks=4}))")
    assert "pld.system.nranks" not in str(module)


def test_a_failing_pass_reports_where(context):
    Big = pl.Tensor[[512, 512], pl.FP32]

    @pl.kernel
    def too_big(a: Big, out: pl.Out[Big]) -> Big:
        whole = pl.load(a, [0, 0], [512, 512])  # TOO-BIG
        return pl.store(pl.exp(whole), [0, 0], out)

    module = pl.program(too_big, context=context)
    with pytest.raises(DiagnosticError) as raised:
        run_pipeline(module, "builtin.module(pto-a2a3-pipeline)")
    error = raised.value.errors[0]
    assert error.file == __file__
    from conftest import line_of

    assert error.line == line_of("# TOO-BIG", __file__)
    assert "vec overflows" in error.message
