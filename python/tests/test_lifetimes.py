"""Lifetimes: an IR object keeps what owns its IR alive, and an object
whose C objects are gone raises instead of crashing.

Each scenario runs in a child interpreter: a use after free is a crash
(a signal), which would otherwise end pytest itself. The child runs with
glibc's MALLOC_PERTURB_, which fills freed memory, so that reading it
crashes rather than finding the old bytes still there.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from conftest import PYTHON_DIR

PRELUDE = '''
import gc
import pto_mlir
from pto_mlir import (
    Attribute, Block, Builder, BuildError, ClosedContextError, Context, Location, Module, Operation,
    PassManager, PtoMlirError, StaleObjectError, Type, Value, run_pipeline, types,
)

TEXT = (
    "func.func @f(%a: index, %b: index) -> index {\\n"
    "  %c = arith.addi %a, %b : index\\n"
    "  return %c : index\\n"
    "}\\n"
    "func.func @g() {\\n"
    "  return\\n"
    "}\\n"
)

context = Context()


def churn():
    """Collects garbage, then makes and drops modules, so that freed memory
    is handed out again."""
    gc.collect()
    for i in range(20):
        Module.parse(f"func.func @churn{i}(%x: f32) -> f32 {{ return %x : f32 }}", context)
    gc.collect()


def raises(error, action):
    try:
        action()
    except error as raised:
        assert isinstance(raised, PtoMlirError), type(raised)
        return str(raised)
    raise AssertionError(f"{action} did not raise {error.__name__}")
'''


def run_child(code: str) -> str:
    """Runs ``code`` after PRELUDE in a child interpreter; its stdout."""
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(PYTHON_DIR), *filter(None, [environment.get("PYTHONPATH")])])
    environment["MALLOC_PERTURB_"] = "165"
    completed = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", PRELUDE + textwrap.dedent(code)],
        env=environment, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, (
        f"the child exited with {completed.returncode} (negative: killed by that signal, -11 is a "
        f"segmentation fault)\n{completed.stderr}")
    return completed.stdout


def test_an_op_keeps_the_module_it_was_looked_up_in_alive():
    out = run_child('''
        op = Module.parse(TEXT, context).functions["f"]
        churn()
        print(op)
        entry = op.regions[0].blocks[0]
        del op
        churn()
        a, b = entry.arguments
        print(a.type, b.owner == entry, entry.parent.symbol_name)
        add = entry.first_operation
        print(add.name, [str(v.type) for v in add.operands], add.result.owner.name, add.block == entry)
        print(add.parent.parent.name)  # the module op, through parents

        value = Module.parse(TEXT, context).functions["f"].regions[0].blocks[0].arguments[1]
        ops = list(Module.parse(TEXT, context).walk())
        body = Module.parse(TEXT, context).body
        root = Module.parse(TEXT, context).operation
        churn()
        print(value.type, value.owner.parent.symbol_name)
        print([o.name for o in ops])
        print([o.symbol_name for o in body.operations], root.name)
    ''')
    lines = out.splitlines()
    assert lines[0] == "func.func @f(%a: index, %b: index) -> index {"
    assert "index True f" in lines
    assert "arith.addi ['index', 'index'] arith.addi True" in lines
    assert "builtin.module" in lines
    assert "index f" in lines
    assert "['builtin.module', 'func.func', 'arith.addi', 'func.return', 'func.func', 'func.return']" in lines
    assert lines[-1] == "['f', 'g'] builtin.module"


def test_a_built_function_keeps_its_module_alive():
    out = run_child('''
        function = Builder.for_module(Module.create(context)).function("k", [("x", "index")], ["index"])
        churn()
        builder = Builder(context, function.entry)
        builder.return_([builder.create("arith.addi", [function.arguments[0]] * 2, ["index"]).result])
        churn()
        print(function.op.parent)
    ''')
    assert "func.func @k(%x: index) -> index {" in out
    assert "arith.addi %x, %x : index" in out


def test_a_detached_op_lives_while_any_view_of_its_ir_does():
    out = run_child('''
        builder = Builder(context)
        constant = builder.create("arith.constant", results=["index"], attributes={"value": "7 : index"},
                                  insert=False).result
        scope = builder.create("scf.execute_region", results=["index"], regions=1, insert=False)
        block = scope.regions[0].append_block()
        del scope
        churn()
        print(constant.owner.to_text().strip(), constant.type)
        with builder.at(block):
            builder.create("scf.yield", [builder.constant(1)])
        churn()
        print(block.parent.to_text().replace("\\n", " "))
        print(block.parent.is_detached, block.first_operation.is_detached)
    ''')
    lines = out.splitlines()
    assert lines[0] == "%c7 = arith.constant 7 : index index"
    assert "scf.execute_region -> index {" in lines[1] and "scf.yield %c1 : index" in lines[1]
    assert lines[2] == "True False"


def test_a_detached_op_keeps_the_module_whose_values_it_uses_alive():
    out = run_child('''
        module = Module.parse(TEXT, context)
        a = module.functions["f"].regions[0].blocks[0].arguments[0]
        add = Builder(context).create("arith.addi", [a, a], ["index"], insert=False)
        del module, a
        churn()
        print(add.to_text(generic=True).strip())
        print(add.operands[0].owner.parent.symbol_name, add.operands[1].type)
        del add
        churn()

        # A module and a detached op using its values, dropped together in
        # a reference cycle: the collector finalizes them in any order.
        for _ in range(10):
            module = Module.parse(TEXT, context)
            a = module.functions["f"].regions[0].blocks[0].arguments[0]
            add = Builder(context).create("arith.addi", [a, a], ["index"], insert=False)
            cycle = [module, add, a]
            cycle.append(cycle)
            del module, add, a, cycle
            churn()
        print("survived")
    ''')
    lines = out.splitlines()
    assert lines[0].startswith('%0 = "arith.addi"(') and lines[0].endswith(": (index, index) -> index")
    assert lines[1] == "f index"
    assert out.endswith("survived\n")


def test_everything_raises_once_its_context_is_closed():
    out = run_child('''
        closing = Context()
        module = Module.parse(TEXT, closing)
        function = module.functions["f"]
        entry = function.regions[0].blocks[0]
        region = function.regions[0]
        value = entry.arguments[0]
        kind = Type.parse("!pl.tensor<4x4xf32>", closing)
        attribute = Attribute.parse("#pl.kind<aiv>", closing)
        location = function.location
        manager = PassManager("func.func(canonicalize)", closing)
        builder = Builder.for_module(module)
        detached = builder.create("arith.constant", results=["index"], attributes={"value": "1 : index"},
                                  insert=False)
        closing.close()
        closing.close()  # twice is fine
        for action in [
            module.to_text, lambda: str(module), module.verify, lambda: module.functions, module.clone,
            lambda: str(function), lambda: function.name, lambda: function.operands, function.verify,
            lambda: function.attribute("sym_name"), lambda: function.set_attribute("x", "unit"),
            lambda: list(function.walk()), lambda: entry.arguments, lambda: list(entry.operations),
            lambda: entry.append(detached), lambda: region.blocks, lambda: region.append_block(),
            lambda: str(value), lambda: value.type, lambda: value.owner,
            lambda: str(kind), lambda: kind.shape, lambda: str(attribute), lambda: str(location),
            lambda: location.file_line_col, lambda: manager.run(module), lambda: manager.pipeline,
            lambda: builder.constant(1), lambda: str(detached), lambda: closing.handle,
            lambda: Module.parse(TEXT, closing), lambda: types.tile([4, 4], "f32", "vec", closing),
        ]:
            message = raises(ClosedContextError, action)
        print(message)
        print(repr(module), repr(function), repr(value), repr(kind), repr(attribute), repr(location))
        print(function.valid, kind == kind, value == value)
        del module, function, entry, region, value, detached, manager, builder
        churn()

        default = Context.default()
        default.close()
        again = Context.default()
        print(again is not default and again.alive, Module.parse(TEXT).functions["g"].name)
    ''')
    lines = out.splitlines()
    assert lines[0].startswith("the context was closed")
    assert lines[1] == ("Module(<closed context>) Operation(<closed context>) Value(<closed context>) "
                        "Type(<closed context>) Attribute(<closed context>) Location(<closed context>)")
    assert lines[2] == "False True True"
    assert lines[3] == "True func.func"


def test_ops_looked_up_before_a_pipeline_ran_are_stale():
    out = run_child('''
        module = Module.parse(
            "func.func @f() -> index {\\n"
            "  %a = arith.constant 2 : index\\n"
            "  %b = arith.constant 3 : index\\n"
            "  %c = arith.addi %a, %b : index\\n"
            "  return %c : index\\n"
            "}\\n", context)
        root, body = module.operation, module.body
        function = module.functions["f"]
        (add,) = [op for op in module.walk() if op.name == "arith.addi"]
        result = add.result
        run_pipeline(module, "func.func(canonicalize)")  # folds and erases the addi
        churn()
        for action in [lambda: add.name, lambda: str(add), lambda: result.type, lambda: function.regions,
                       lambda: add.set_attribute("x", "unit"), lambda: Builder(context, add.block)]:
            message = raises(StaleObjectError, action)
        print(message)
        print(add.valid, repr(add), repr(result))
        # The module, its op and its body stay valid; lookups are fresh.
        print(root.name, [op.symbol_name for op in body.operations], function == module.functions["f"])
        print([op.name for op in module.functions["f"].walk()])
        Builder.for_module(module).function("h", [], [])
        print(sorted(module.functions))
    ''')
    lines = out.splitlines()
    assert "looked up before a pass pipeline ran on its module" in lines[0]
    assert lines[1] == "False Operation(<stale>) Value(<stale>)"
    assert lines[2] == "builtin.module ['f'] True"
    assert lines[3] == "['func.func', 'arith.constant', 'func.return']"
    assert lines[4] == "['f', 'h']"


def test_a_failed_pipeline_makes_the_lookups_stale_too():
    out = run_child('''
        module = Module.parse(TEXT, context)
        functions = list(module.functions.values())
        failed = False
        try:
            run_pipeline(module, "builtin.module(func.func(pld-specialize-nranks{nranks=banana}))")
        except pto_mlir.DiagnosticError:
            failed = True
        print(failed, raises(StaleObjectError, lambda: functions[0].name).startswith("this operation"),
              len(module.functions) == len(functions))
    ''')
    assert out == "True True True\n"


def test_insertion_refuses_what_would_corrupt_the_ir():
    out = run_child('''
        module = Module.create(context)
        builder = Builder.for_module(module)
        function = builder.function("k", [("x", "index")], [])
        with builder.at(function.entry):
            placed = builder.create("arith.addi", [function.arguments[0]] * 2, ["index"])
        # In a block already.
        print(raises(BuildError, lambda: function.entry.append(placed)))
        print(raises(BuildError, lambda: module.body.append(function.op)))
        # Into itself.
        scope = builder.create("scf.execute_region", regions=1, insert=False)
        inner = scope.regions[0].append_block()
        print(raises(BuildError, lambda: inner.append(scope)))
        # Before an op of another block.
        other = builder.create("arith.constant", results=["index"], attributes={"value": "0 : index"},
                               insert=False)
        print(raises(BuildError, lambda: module.body.insert_before(placed, other)))
        # From another context.
        elsewhere = Context()
        print(raises(BuildError, lambda: Builder(elsewhere).create("func.return", [function.arguments[0]])))
        print(raises(BuildError, lambda: builder.create("arith.constant", results=[Type.parse("index", elsewhere)],
                                                        attributes={"value": "0 : index"})))
        foreign = Builder(elsewhere).create("func.return", insert=False)
        print(raises(BuildError, lambda: function.entry.append(foreign)))
        # The refused ops are still usable, and the module verifies.
        with builder.at(function.entry):
            builder.return_()
        function.entry.insert_before(placed, other)
        module.verify()
        print(str(module).count("arith."))
    ''')
    lines = out.splitlines()
    assert lines[0] == "'arith.addi' already belongs to a block"
    assert lines[1] == "'func.func' already belongs to a block"
    assert lines[2] == "'scf.execute_region' cannot be appended to a block nested in itself"
    assert lines[3] == "'arith.addi' is not in this block"
    assert lines[4] == "operand #0 of 'func.return' belongs to another context"
    assert lines[5] == "the type belongs to another context"
    assert lines[6] == "'func.return' belongs to another context than the block"
    assert lines[7] == "2"


@pytest.mark.parametrize("name", ["ClosedContextError", "StaleObjectError"])
def test_the_new_errors_are_package_errors(name):
    import pto_mlir

    error = getattr(pto_mlir, name)
    assert issubclass(error, pto_mlir.PtoMlirError)
    assert name in pto_mlir.__all__
