//! Allreduce of 1M f32 elements at P = 8 through pto-run, as written (the
//! gathered reference) and after pld-lower-composite-ops (notify/wait and
//! 16 KiB remote-load chunks): elements per second and the interpreter's
//! cost per executed op. Run with `cargo bench -p pto-run`.

use std::time::Instant;

use melior::{ir::operation::OperationLike, pass::PassManager, utility::parse_pass_pipeline};
use pto_run::{Array, Program, Session, types::Elem};

const P: usize = 8;
const ROWS: usize = 1024;
const COLS: usize = 1024;

fn program(lowered: bool) -> Program {
    let text = format!(
        r#"func.func @main(%d: !pld.dtensor<{ROWS}x{COLS}xf32>, %s: !pld.dtensor<?x1xi32>) attributes {{pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %world = pld.system.world_size : i64
  %n = arith.index_cast %world : i64 to index
  scf.for %dev = %c0 to %n step %c1 {{
    pld.dispatch @chip(%d, %s) on %dev : (!pld.dtensor<{ROWS}x{COLS}xf32>, !pld.dtensor<?x1xi32>) -> ()
  }}
  return
}}
func.func @chip(%d: !pld.dtensor<{ROWS}x{COLS}xf32>, %s: !pld.dtensor<?x1xi32>) attributes {{pl.kind = #pl.kind<orchestration>}} {{
  pl.call @kernel(%d, %s) : (!pld.dtensor<{ROWS}x{COLS}xf32>, !pld.dtensor<?x1xi32>) -> ()
  return
}}
func.func @kernel(%d: !pld.dtensor<{ROWS}x{COLS}xf32>, %s: !pld.dtensor<?x1xi32>) attributes {{pl.kind = #pl.kind<aiv>}} {{
  %r = pld.tensor.allreduce %d, %s sum mesh cores 1 : !pld.dtensor<{ROWS}x{COLS}xf32>, !pld.dtensor<?x1xi32>
  return
}}
"#
    );
    let context = pto_dialects::create_context();
    let mut module = melior::ir::Module::parse(&context, &text).expect("parses");
    pto_dialects::source::name_arguments(&module, &text);
    if lowered {
        pto_passes::register_passes();
        let manager = PassManager::new(&context);
        parse_pass_pipeline(
            manager.as_operation_pass_manager(),
            "builtin.module(pld-lower-composite-ops)",
        )
        .expect("pipeline");
        manager.run(&mut module).expect("lowers");
        assert!(module.as_operation().verify());
    }
    Program::compile(&module).expect("compiles")
}

fn main() {
    let elements = ROWS * COLS;
    let data = Array::new(
        vec![P, ROWS, COLS],
        Elem::F32,
        (0..P * elements).map(|i| ((i * 7) % 13) as f64).collect(),
    );
    let signal = Array::new(vec![P, P, 1], Elem::I32, vec![0.0; P * P]);
    for (label, lowered) in [
        ("as written (gathered reference)", false),
        ("after pld-lower-composite-ops", true),
    ] {
        let program = program(lowered);
        let session = Session::new(&program)
            .ranks(P)
            .input("d", data.clone())
            .input("s", signal.clone());
        let start = Instant::now();
        let outcome = session.run("main").expect("runs");
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "allreduce 1M f32, P = {P}, {label}: {seconds:.3} s, {:.3e} elements/s, {} ops, {:.2} µs/op",
            elements as f64 / seconds,
            outcome.ops,
            seconds * 1e6 / outcome.ops.max(1) as f64
        );
    }
}
