"""Parsing, printing and the IR objects of a parsed module."""

from __future__ import annotations

import pytest

import pto_mlir
from pto_mlir import Module, Type, Attribute, DiagnosticError, types


def test_example_round_trips(context, repo):
    path = repo / "examples" / "tiles" / "elementwise_add.mlir"
    module = Module.parse_file(path, context)
    text = str(module)
    # Names come from the source, as the tools keep them.
    assert "func.func @add_kernel(%a: !pl.tensor<128x128xf32>, %b:" in text
    assert "pl.tile.load %a[" in text
    again = Module.parse(text, context)
    assert str(again) == text
    assert sorted(module.functions) == ["add_kernel", "add_tensors", "main"]


def test_parsed_ops_keep_their_file_locations(context, repo):
    path = repo / "examples" / "tiles" / "tiled_matmul.mlir"
    module = Module.parse_file(path, context)
    (matmul,) = [op for op in module.walk() if op.name == "pl.tile.matmul_acc"]
    file, line, _column = matmul.location.file_line_col
    assert file == str(path)
    assert "pl.tile.matmul_acc" in path.read_text().splitlines()[line - 1]


def test_a_parse_error_is_located_in_the_text(context):
    text = (
        "func.func @f(%a: !pl.tile<16x16xf32, vec>) {\n"
        "  %b = pl.tile.exp %a : !pl.tile<16x16xf32, nowhere>\n"
        "  return\n"
        "}\n"
    )
    with pytest.raises(DiagnosticError) as raised:
        Module.parse(text, context)
    (error,) = raised.value.errors
    assert error.where == "-:2:45"  # mlirModuleCreateParse names its buffer "-"
    assert error.message == "unknown memory space or tile view field 'nowhere'"


def test_a_file_that_does_not_verify_names_the_file(context, tmp_path):
    path = tmp_path / "bad.mlir"
    path.write_text(
        "func.func @f(%a: !pl.tile<16x16xf32, vec>, %b: !pl.tile<8x16xf32, vec>) -> !pl.tile<16x16xf32, vec> {\n"
        "  %c = pl.tile.add %a, %b : !pl.tile<16x16xf32, vec>, !pl.tile<8x16xf32, vec> -> !pl.tile<16x16xf32, vec>\n"
        "  return %c : !pl.tile<16x16xf32, vec>\n"
        "}\n"
    )
    with pytest.raises(DiagnosticError) as raised:
        Module.parse_file(path, context)
    error = raised.value.errors[0]
    assert error.where == f"{path}:2:8"
    assert "compatible shapes" in error.message
    assert f"{path}:2:8: error: 'pl.tile.add' op" in str(raised.value)


def test_types_and_attributes(context):
    tile = types.tile([64, 128], "f16", "mat", context)
    assert str(tile) == "!pl.tile<64x128xf16, mat>"
    assert tile.is_tile and not tile.is_tensor
    assert tile.shape == [64, 128] and tile.memory_space == "mat"
    assert str(tile.element_type) == "f16"
    # The C constructor makes canonical types: equal to the parsed form.
    assert tile == Type.parse("!pl.tile<64x128xf16, mat, blayout = col_major>", context)
    tensor = types.tensor([None, 128], "f32", context)
    assert str(tensor) == "!pl.tensor<?x128xf32>" and tensor.shape == [None, 128]
    assert str(types.dtensor([4, 8], "f32", context)) == "!pld.dtensor<4x8xf32>"
    assert str(types.comm_ctx(context)) == "!pld.comm_ctx"
    assert str(Attribute.parse("#pl.kind<aiv>", context)) == "#pl.kind<aiv>"
    assert str(Attribute.dense_i32_array([1, 2, 0], context)) == "array<i32: 1, 2, 0>"
    with pytest.raises(DiagnosticError):
        Type.parse("!pl.tile<64x128xf16, nowhere>", context)
    with pytest.raises(ValueError):
        types.tile([4, 4], "f32", "nowhere", context)


def test_default_context_is_shared():
    first = Module.parse("func.func @f() { return }")
    second = Module.parse("func.func @g() { return }")
    assert first.context is second.context is pto_mlir.Context.default()
