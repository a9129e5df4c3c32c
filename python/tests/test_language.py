"""The PyPTO-style front end: traced kernels and orchestrations, run in
pto-run against numpy."""

from __future__ import annotations

import numpy as np
import pytest

import pto_mlir
from pto_mlir import BuildError, DiagnosticError
import pto_mlir.language as pl

from conftest import line_of

ROWS, COLS, TILE_ROWS = 64, 128, 16
T = pl.Tensor[[ROWS, COLS], pl.FP32]


@pl.kernel
def fused(a: T, b: T, out: pl.Out[T]) -> T:
    for r, (o,) in pl.range(0, ROWS, TILE_ROWS, init_values=(out,)):
        ta = pl.load(a, [r, 0], [TILE_ROWS, COLS])
        tb = pl.load(b, [r, 0], [TILE_ROWS, COLS])
        y = pl.exp((ta + tb) * tb) - 1.0
        result = pl.yield_(pl.store(y, [r, 0], o))
    return result


@pl.orchestration
def fused_main(a: T, b: T) -> T:
    return fused(a, b, pl.create_tensor([ROWS, COLS], pl.FP32))


@pl.kernel
def softmax(x: T, y: pl.Out[T]) -> T:
    for r, (o,) in pl.range(0, ROWS, TILE_ROWS, init_values=(y,)):
        t = pl.load(x, [r, 0], [TILE_ROWS, COLS])
        shifted = pl.exp(pl.row_expand_sub(t, pl.row_max(t)))
        probabilities = pl.row_expand_div(shifted, pl.row_sum(shifted))
        done = pl.yield_(pl.store(probabilities, [r, 0], o))
    return done


@pl.orchestration
def softmax_main(x: T) -> T:
    return softmax(x, pl.create_tensor([ROWS, COLS], pl.FP32))


def _inputs(count: int) -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    return [rng.uniform(-1, 1, (ROWS, COLS)).astype(np.float32) for _ in range(count)]


def test_an_elementwise_chain_matches_numpy(context):
    module = pl.program(fused_main, context=context)
    text = str(module)
    for op in ("scf.for", "pl.tile.load", "pl.tile.add", "pl.tile.mul", "pl.tile.exp", "pl.tile.subs",
               "pl.tile.store", "pl.tensor.create", "pl.call @fused"):
        assert op in text, op
    a, b = _inputs(2)
    outputs = pto_mlir.run(module, inputs={"a": a, "b": b})
    expected = (np.exp(((a + b) * b).astype(np.float64)).astype(np.float32) - np.float32(1.0))
    np.testing.assert_allclose(outputs["result0"], expected, rtol=1e-6, atol=1e-6)
    # The inputs are not written: pto-run returns them unchanged.
    np.testing.assert_array_equal(outputs["a"], a)


def test_a_row_softmax_matches_numpy(context):
    module = pl.program(softmax_main, context=context)
    (x,) = _inputs(1)
    outputs = pto_mlir.run(module, inputs={"x": x})
    shifted = np.exp(x - x.max(axis=1, keepdims=True))
    expected = shifted / shifted.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(outputs["result0"], expected, rtol=1e-5, atol=1e-6)
    assert np.allclose(outputs["result0"].sum(axis=1), 1.0, atol=1e-5)


@pytest.mark.parametrize("name, reference", [
    ("abs", np.abs), ("neg", np.negative), ("relu", lambda v: np.maximum(v, 0)), ("exp", np.exp),
])
def test_elementwise_ops_are_generic_by_name(context, name, reference):
    S = pl.Tensor[[16, 32], pl.FP32]

    @pl.kernel(name=f"apply_{name}")
    def apply(x: S, y: pl.Out[S]) -> S:
        return pl.store(pl.unary(name, pl.load(x, [0, 0], [16, 32])), [0, 0], y)

    @pl.orchestration(name=f"main_{name}")
    def main(x: S) -> S:
        return apply(x, pl.create_tensor([16, 32], pl.FP32))

    module = pl.program(main, context=context)
    assert f"pl.tile.{name}" in str(module)
    x = np.linspace(-2, 2, 16 * 32, dtype=np.float32).reshape(16, 32)
    outputs = pto_mlir.run(module, entry=f"main_{name}", inputs={"x": x})
    np.testing.assert_allclose(outputs["result0"], reference(x.astype(np.float64)).astype(np.float32),
                               rtol=1e-6)


def test_a_program_class_calls_through_self(context):
    S = pl.Tensor[[16, 32], pl.FP32]

    class Program:
        @pl.kernel
        def double(self, x: S, y: pl.Out[S]) -> S:
            return pl.store(pl.add(pl.load(x, [0, 0], [16, 32]), pl.load(x, [0, 0], [16, 32])), [0, 0], y)

        @pl.orchestration
        def entry(self, x: S) -> S:
            return self.double(x, pl.create_tensor([16, 32], pl.FP32))

    module = pl.program(Program, context=context)
    assert list(module.functions) == ["double", "entry"]
    x = np.arange(16 * 32, dtype=np.float32).reshape(16, 32)
    np.testing.assert_array_equal(pto_mlir.run(module, entry="entry", inputs={"x": x})["result0"], 2 * x)


def test_verifier_errors_point_at_the_kernel_line(context):
    S = pl.Tensor[[16, 32], pl.FP32]

    @pl.kernel
    def wrong(x: S, y: pl.Out[S]) -> S:
        t = pl.load(x, [0, 0], [16, 32], target_memory=pl.Mat)
        return pl.store(t, [0, 0], y)  # STORE-FROM-MAT

    with pytest.raises(DiagnosticError) as raised:
        pl.program(wrong, context=context)
    error = raised.value.errors[0]
    assert (error.file, error.line) == (__file__, line_of("# STORE-FROM-MAT", __file__))
    assert error.column == 16  # the pl.store( call
    assert "stores take a tile in 'vec' or 'acc', got 'mat'" in error.message
    # Without verification the module is built, and verify() says the same.
    module = pl.program(wrong, context=context, verify=False)
    with pytest.raises(DiagnosticError, match="stores take a tile"):
        module.verify()


def test_misuse_is_a_build_error(context):
    S = pl.Tensor[[16, 32], pl.FP32]
    with pytest.raises(BuildError, match="while a program is built"):
        pl.exp(1.0)

    @pl.kernel
    def branchy(x: S, y: pl.Out[S]) -> S:
        t = pl.load(x, [0, 0], [16, 32])
        if t:  # a traced value has no truth value
            pass
        return pl.store(t, [0, 0], y)

    with pytest.raises(BuildError, match="no truth value"):
        pl.program(branchy, context=context)

    with pytest.raises(BuildError, match="needs an annotation"):
        @pl.kernel
        def untyped(x, y):  # noqa: ANN001
            return x

    @pl.kernel
    def unfinished(x: S, y: pl.Out[S]) -> S:
        for _i, (acc,) in pl.range(4, init_values=(y,)):
            pass
        return y

    with pytest.raises(BuildError, match="pl.yield_"):
        pl.program(unfinished, context=context)


def test_casts_reductions_and_two_results(context):
    X = pl.Tensor[[16, 32], pl.FP32]
    H = pl.Tensor[[16, 32], pl.FP16]
    R = pl.Tensor[[1, 32], pl.FP32]

    @pl.kernel
    def clamp_and_sum(x: X, h: pl.Out[H], s: pl.Out[R]) -> tuple[H, R]:
        t = pl.load(x, [0, 0], [16, 32])
        floor = pl.full([16, 32], pl.FP32, 2.0) * 0.25
        h2 = pl.store(pl.cast(pl.maximum(t, floor), pl.FP16), [0, 0], h)
        s2 = pl.store(pl.col_sum(t), [0, 0], s)
        return h2, s2

    @pl.orchestration
    def entry(x: X) -> tuple[H, R]:
        return clamp_and_sum(x, pl.create_tensor([16, 32], pl.FP16), pl.create_tensor([1, 32], pl.FP32))

    module = pl.program(entry, context=context)
    x = np.random.default_rng(3).uniform(0, 1, (16, 32)).astype(np.float32)
    outputs = pto_mlir.run(module, inputs={"x": x})
    assert outputs["result0"].dtype == np.float16
    np.testing.assert_array_equal(outputs["result0"], np.maximum(x, np.float32(0.5)).astype(np.float16))
    np.testing.assert_allclose(outputs["result1"], x.sum(axis=0, keepdims=True), rtol=1e-6)


def test_unrolled_loops_unroll(context):
    S = pl.Tensor[[32, 64], pl.FP32]

    @pl.kernel
    def root(x: S, y: pl.Out[S]) -> S:
        for i, (o,) in pl.range(0, 32, 16, init_values=(y,), unroll=True):
            done = pl.yield_(pl.store(pl.sqrt(pl.abs(pl.load(x, [i, 0], [16, 64]))), [i, 0], o))
        return done

    module = pl.program(root, context=context)
    assert "{pl.unroll}" in str(module)
    pto_mlir.run_pipeline(module, "builtin.module(func.func(pl-unroll-loops))")
    text = str(module)
    assert "scf.for" not in text and text.count("pl.tile.sqrt") == 2


def test_scalar_parameters_and_index_arithmetic(context):
    S = pl.Tensor[[32, 64], pl.FP32]

    @pl.kernel
    def axpy(x: S, y: S, alpha: pl.Scalar[pl.FP32], out: pl.Out[S]) -> S:
        for i, (o,) in pl.range(2, init_values=(out,)):
            row = i * 16  # arith.muli on index
            t = pl.load(x, [row, 0], [16, 64]) * alpha + pl.load(y, [row, 0], [16, 64])
            done = pl.yield_(pl.store(t, [row, 0], o))
        return done

    @pl.orchestration
    def entry(x: S, y: S) -> S:
        return axpy(x, y, 0.5, pl.create_tensor([32, 64], pl.FP32))

    module = pl.program(entry, context=context)
    text = str(module)
    assert "arith.muli" in text and "pl.tile.muls" in text
    assert "%alpha: f32" in text and "arith.constant 5.000000e-01 : f32" in text
    x, y = (v[:32, :64].copy() for v in _inputs(2))
    outputs = pto_mlir.run(module, inputs={"x": x, "y": y})
    np.testing.assert_array_equal(outputs["result0"], x * np.float32(0.5) + y)
