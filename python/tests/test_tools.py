"""pto-translate and pto-run driven from Python, and how they fail."""

from __future__ import annotations

import json

import numpy as np
import pytest

import pto_mlir
from pto_mlir import DiagnosticError, Module, ToolError
import pto_mlir.language as pl

from conftest import line_of

T = pl.Tensor[[32, 64], pl.FP32]


@pl.kernel
def relu_kernel(x: T, y: pl.Out[T]) -> T:
    return pl.store(pl.relu(pl.load(x, [0, 0], [32, 64])), [0, 0], y)


@pl.orchestration
def main(x: T) -> T:
    out = pl.create_tensor([32, 64], pl.FP32)  # CREATE
    return relu_kernel(x, out)


@pytest.fixture(scope="module")
def module(context) -> Module:
    return pl.program(main, context=context)


def test_translate_emits_the_kernel_and_the_orchestration(module):
    files = pto_mlir.translate(module, target="a2a3")
    assert set(files) == {"relu_kernel.cpp", "main_orchestration.cpp", "manifest.json"}
    kernel = files["relu_kernel.cpp"]
    assert "relu_kernel(" in kernel and "TRELU(" in kernel and "TLOAD(" in kernel and "TSTORE(" in kernel
    manifest = json.loads(files["manifest.json"])
    assert "relu_kernel" in json.dumps(manifest)


def test_translate_for_the_simulator_writes_a_directory(module, tmp_path):
    files = pto_mlir.translate(module, target="a2a3sim", output_dir=tmp_path / "cpp")
    assert "run_main.cpp" in files and (tmp_path / "cpp" / "run_main.cpp").is_file()
    assert "__global__ AICORE void relu_kernel(" in files["relu_kernel.cpp"]


def test_translate_takes_text_and_paths(repo, tmp_path):
    path = repo / "examples" / "tiles" / "elementwise_add.mlir"
    from_path = pto_mlir.translate(path)
    from_text = pto_mlir.translate(path.read_text())
    assert "add_kernel.cpp" in from_path
    assert from_path["add_kernel.cpp"] == from_text["add_kernel.cpp"]
    with pytest.raises(ValueError, match="target"):
        pto_mlir.translate(path, target="x86")


def test_run_returns_outputs_by_name(module):
    x = np.linspace(-1, 1, 32 * 64, dtype=np.float32).reshape(32, 64)
    outputs = pto_mlir.run(module, inputs={"x": x})  # the only orchestration is the entry
    assert set(outputs) == {"x", "result0"}
    np.testing.assert_array_equal(outputs["result0"], np.maximum(x, 0))
    random = pto_mlir.run(module, random_inputs=True, seed=3)
    assert random["result0"].shape == (32, 64) and random["result0"].min() >= 0
    np.testing.assert_array_equal(random["result0"], np.maximum(random["x"], 0))


def test_run_with_a_pass_pipeline_matches_the_program_as_written(module):
    x = np.linspace(-1, 1, 32 * 64, dtype=np.float32).reshape(32, 64)
    lowered = pto_mlir.run(module, inputs={"x": x}, pass_pipeline="builtin.module(pto-a2a3-pipeline)")
    np.testing.assert_array_equal(lowered["result0"], np.maximum(x, 0))


def test_a_missing_input_is_a_located_diagnostic(module):
    with pytest.raises(ToolError) as raised:
        pto_mlir.run(module)
    error = raised.value
    assert isinstance(error, DiagnosticError) and error.returncode == 1
    (diagnostic,) = error.errors
    assert diagnostic.message.startswith("no input for %x")
    # Written with its locations, the module points pto-run at the Python
    # source: the parameter %x of the entry.
    assert diagnostic.file == __file__
    assert diagnostic.line == line_of("def main(", __file__)
    assert diagnostic.column == len("def main(") + 1


def test_wrong_inputs_are_errors(module):
    with pytest.raises(ToolError, match="an input is given for %nope, which is no parameter of @main"):
        pto_mlir.run(module, inputs={"nope": np.zeros((32, 64), np.float32)})
    with pytest.raises(ToolError, match=r"input %x has shape \[4, 4\]"):
        pto_mlir.run(module, inputs={"x": np.zeros((4, 4), np.float32)})
    with pytest.raises(ToolError, match="invalid value '0' for '--ranks"):
        pto_mlir.run(module, ranks=0, random_inputs=True)
    with pytest.raises(ToolError) as raised:
        pto_mlir.run(module, entry="nothere", random_inputs=True)
    assert [d.message for d in raised.value.errors] == ["no function @nothere"]


def test_a_tool_error_from_text_is_located_in_the_file(tmp_path):
    with pytest.raises(ToolError) as raised:
        pto_mlir.translate("func.func @f( {")
    (diagnostic,) = raised.value.errors
    assert diagnostic.file.endswith("program.mlir") and diagnostic.line == 1


def test_opt_prints_what_pto_opt_prints(module):
    text = pto_mlir.opt(module, ["--pass-pipeline=builtin.module(pto-a2a3-pipeline)"])
    assert "#pl.kind<aiv>" in text and "pl.addresses" in text
    with pytest.raises(ToolError, match="no-such-pass"):
        pto_mlir.opt(module, ["--pass-pipeline=builtin.module(no-such-pass)"])
