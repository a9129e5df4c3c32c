"""The generic builder: ops by name, functions, locations, verification."""

from __future__ import annotations

import numpy as np
import pytest

import pto_mlir
from pto_mlir import Argument, Attribute, Builder, BuildError, DiagnosticError, Module, types

from conftest import line_of

SHAPE = [64, 128]


def _elementwise_add(context, rows_per_tile: int = 32) -> Module:
    """examples/tiles/elementwise_add.mlir's @add_kernel and @main, built
    op by op (the tile loop unrolled in Python)."""
    module = Module.create(context)
    b = Builder.for_module(module)
    tensor = types.tensor(SHAPE, "f32", context)
    tile = types.tile([rows_per_tile, SHAPE[1]], "f32", "vec", context)
    kernel = b.function(
        "add_kernel",
        [("a", tensor), ("b", tensor), Argument("out", tensor, {"pl.direction": "#pl.direction<out>"})],
        [tensor],
        {"pl.kind": "#pl.kind<aiv>"},
    )
    a, b_in, out = kernel.arguments
    segments = Attribute.dense_i32_array([1, 2, 0], context)
    with b.at(kernel.entry):
        zero = b.constant(0)
        for row in range(0, SHAPE[0], rows_per_tile):
            offset = b.constant(row)
            ta = b.create("pl.tile.load", [a, offset, zero], [tile], {"operandSegmentSizes": segments}).result
            tb = b.create("pl.tile.load", [b_in, offset, zero], [tile], {"operandSegmentSizes": segments}).result
            total = b.create("pl.tile.add", [ta, tb], [tile]).result
            # pl.tile.store infers its result type (the destination's).
            out = b.create("pl.tile.store", [total, out, offset, zero], results=None).result
        b.return_([out])
    main = b.function("main", [("a", tensor), ("b", tensor)], [tensor], {"pl.kind": "#pl.kind<orchestration>"})
    with b.at(main.entry):
        created = b.create("pl.tensor.create", results=[tensor]).result
        called = b.create("pl.call", [*main.arguments, created], [tensor],
                          {"callee": Attribute.symbol("add_kernel", context)})
        b.return_(called.results)
    return module


def test_a_built_module_verifies_prints_and_runs(context):
    module = _elementwise_add(context)
    module.verify()
    text = str(module)
    assert "func.func @add_kernel(%a: !pl.tensor<64x128xf32>, %b: !pl.tensor<64x128xf32>, %out:" in text
    assert text.count("pl.tile.add") == 2
    rng = np.random.default_rng(1)
    a = rng.standard_normal(SHAPE).astype(np.float32)
    b = rng.standard_normal(SHAPE).astype(np.float32)
    outputs = pto_mlir.run(module, inputs={"a": a, "b": b})
    np.testing.assert_array_equal(outputs["result0"], a + b)  # f32 adds are exact IEEE


def test_verifier_errors_point_at_the_python_line(context):
    module = Module.create(context)
    b = Builder.for_module(module)
    tensor = types.tensor([16, 16], "f32", context)
    kernel = b.function("k", [("x", tensor), Argument("y", tensor, {"pl.direction": "#pl.direction<out>"})],
                        [tensor], {"pl.kind": "#pl.kind<aiv>"})
    with b.at(kernel.entry):
        zero = b.constant(0)
        segments = Attribute.dense_i32_array([1, 2, 0], context)
        wide = b.create("pl.tile.load", [kernel.arguments[0], zero, zero],
                        [types.tile([16, 16], "f32", "vec", context)], {"operandSegmentSizes": segments})
        narrow = b.create("pl.tile.load", [kernel.arguments[0], zero, zero],
                          [types.tile([8, 16], "f32", "vec", context)], {"operandSegmentSizes": segments})
        bad = b.create("pl.tile.add", [wide.result, narrow.result],  # MISMATCH
                       [types.tile([16, 16], "f32", "vec", context)])
        stored = b.create("pl.tile.store", [bad.result, kernel.arguments[1], zero, zero], results=None)
        b.return_(stored.results)
    with pytest.raises(DiagnosticError) as raised:
        module.verify()
    error = raised.value.errors[0]
    assert error.file == __file__
    assert error.line == line_of("# MISMATCH", __file__)
    assert error.message == "'pl.tile.add' op requires compatible shapes, got [16, 16] and [8, 16]"


def test_unknown_ops_and_wrong_operands_are_refused(context):
    module = Module.create(context)
    b = Builder.for_module(module)
    with pytest.raises(BuildError, match="not an operation of a registered dialect"):
        b.create("pl.tile.frobnicate")
    f = b.function("f", [], [])
    with b.at(f.entry):
        with pytest.raises(BuildError, match="operand #0"):
            b.create("func.return", [42])
    with pytest.raises(BuildError, match="no insertion point"):
        Builder(context).create("func.return")


def test_type_inference_failure_is_a_diagnostic(context):
    module = Module.create(context)
    b = Builder.for_module(module)
    f = b.function("f", [("t", types.tile([4, 4], "f32", "vec", context))], [])
    with b.at(f.entry):
        with pytest.raises(DiagnosticError) as raised:
            # pl.tile.exp's result is its operand's type; with none, no type.
            b.create("pl.tile.exp", [], results=None)  # NO-OPERAND
    (error,) = raised.value.errors
    assert error.message == "cannot infer the result types of 'pl.tile.exp'"
    assert (error.file, error.line) == (__file__, line_of("# NO-OPERAND", __file__))
