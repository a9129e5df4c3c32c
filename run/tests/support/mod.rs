//! Shared by the pto-run tests: loading programs (optionally through a pass
//! pipeline) and inputs with known contents.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use melior::{ir::operation::OperationLike, pass::PassManager, utility::parse_pass_pipeline};
use pto_run::{Array, Program, session::parse_file, types::Elem};

/// `examples/<path>` from the repository root.
pub fn example(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("examples")
        .join(path)
}

/// Compiles a file, after `pipeline` when given.
pub fn load(path: &Path, pipeline: Option<&str>) -> Program {
    let context = pto_dialects::create_context();
    let mut module =
        parse_file(&context, path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if let Some(pipeline) = pipeline {
        run_pipeline(&context, &mut module, pipeline);
    }
    Program::compile(&module).expect("compiles")
}

/// Compiles MLIR text, after `pipeline` when given.
pub fn load_text(text: &str, pipeline: Option<&str>) -> Program {
    let context = pto_dialects::create_context();
    let mut module =
        melior::ir::Module::parse(&context, text).unwrap_or_else(|| panic!("parses:\n{text}"));
    assert!(module.as_operation().verify(), "verifies:\n{text}");
    pto_dialects::source::name_arguments(&module, text);
    if let Some(pipeline) = pipeline {
        run_pipeline(&context, &mut module, pipeline);
    }
    Program::compile(&module).expect("compiles")
}

fn run_pipeline<'c>(
    context: &'c melior::Context,
    module: &mut melior::ir::Module<'c>,
    pipeline: &str,
) {
    pto_passes::register_passes();
    let manager = PassManager::new(context);
    parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline).expect("pipeline parses");
    manager.run(module).expect("pipeline runs");
    assert!(module.as_operation().verify(), "lowered IR verifies");
}

/// Small integers distinct per rank and element: exact in f16 and f32 sums
/// of up to 8 terms.
pub fn sample(rank: usize, index: usize) -> f64 {
    ((rank * 131 + index * 17) % 61) as f64 - 30.0
}

/// An f32 array of `shape` filled by `f(flat index)`.
pub fn array(shape: &[usize], elem: Elem, f: impl Fn(usize) -> f64) -> Array {
    let n: usize = shape.iter().product();
    Array::new(
        shape.to_vec(),
        elem,
        (0..n).map(|i| elem.round(f(i))).collect(),
    )
}

/// Rows `[start, start + count)` of a row-major `[.., cols]` buffer.
pub fn rows(data: &[f64], cols: usize, start: usize, count: usize) -> &[f64] {
    &data[start * cols..(start + count) * cols]
}
