"""The package's lower layers in one script: parse and print, verify,
build ops by name, run passes, run and translate, and what errors look
like. docs/python.md quotes it; run it from the repository root with

    PYTHONPATH=python /usr/bin/python3 python/examples/api_tour.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import pto_mlir
from pto_mlir import Argument, Attribute, Builder, Module, types

REPO = Path(__file__).resolve().parents[2]


def parse_and_transform(context: pto_mlir.Context) -> Module:
    # Parse a file (parsing verifies), print it, run a pass in process.
    module = Module.parse_file(REPO / "examples/tiles/elementwise_add.mlir", context)
    print(sorted(module.functions))  # ['add_kernel', 'add_tensors', 'main']
    pto_mlir.run_pipeline(module, "builtin.module(pl-outline-incore-scopes)")
    print(module.functions["add"].attribute("pl.kind"))  # #pl.kind<incore>
    return module


def build_by_name(context: pto_mlir.Context) -> Module:
    # Any registered op by name: operands, result types, attributes (text
    # is parsed), regions. Each op is located at the Python line that built it.
    module = Module.create(context)
    b = Builder.for_module(module)
    tensor = types.tensor([16, 64], "f32", context)
    tile = types.tile([16, 64], "f32", "vec", context)
    kernel = b.function(
        "scale",
        [("x", tensor), Argument("y", tensor, {"pl.direction": "#pl.direction<out>"})],
        [tensor],
        {"pl.kind": "#pl.kind<aiv>"},
    )
    x, y = kernel.arguments
    with b.at(kernel.entry):
        zero = b.constant(0)
        loaded = b.create("pl.tile.load", [x, zero, zero], [tile],
                          {"operandSegmentSizes": "array<i32: 1, 2, 0>"}).result
        half = b.constant(0.5, "f32")
        scaled = b.create("pl.tile.muls", [loaded, half], results=None).result  # inferred type
        stored = b.create("pl.tile.store", [scaled, y, zero, zero], results=None).result
        b.return_([stored])
    main = b.function("main", [("x", tensor)], [tensor], {"pl.kind": "#pl.kind<orchestration>"})
    with b.at(main.entry):
        out = b.create("pl.tensor.create", results=[tensor]).result
        call = b.create("pl.call", [main.arguments[0], out], [tensor],
                        {"callee": Attribute.symbol("scale", context)})
        b.return_(call.results)
    module.verify()
    return module


def run_and_translate(module: Module) -> None:
    x = np.arange(16 * 64, dtype=np.float32).reshape(16, 64)
    outputs = pto_mlir.run(module, inputs={"x": x})  # pto-run, outputs by name
    assert np.array_equal(outputs["result0"], x * 0.5)
    files = pto_mlir.translate(module, target="a2a3")  # pto-translate, files by name
    print(sorted(files))  # ['main_orchestration.cpp', 'manifest.json', 'scale.cpp']


def errors(context: pto_mlir.Context) -> None:
    # Diagnostics become exceptions that carry them, located.
    try:
        Module.parse("func.func @f() {\n  %x = pl.tile.create : !pl.tile<16x16xf32, nowhere>\n}\n", context)
    except pto_mlir.DiagnosticError as error:
        print(error.errors[0].where, error.errors[0].message)
        # -:2:45 unknown memory space or tile view field 'nowhere'
    try:
        pto_mlir.PassManager("builtin.module(no-such-pass)", context)
    except pto_mlir.PassPipelineError as error:
        print(error.errors[0].message)
    try:
        pto_mlir.run(REPO / "examples/tiles/elementwise_add.mlir")  # no inputs given
    except pto_mlir.ToolError as error:
        print(error.errors[0])  # .../elementwise_add.mlir:36:17: error: no input for %a ...


if __name__ == "__main__":
    context = pto_mlir.Context()
    parse_and_transform(context)
    module = build_by_name(context)
    print(module)
    run_and_translate(module)
    errors(context)
