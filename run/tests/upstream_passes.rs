//! Upstream passes keep every stage of the a2a3 lowering valid and
//! computing the same: each example (and the corpus programs that reach
//! passes the examples do not) is lowered one stage of
//! `pto-a2a3-pipeline` at a time; after every stage each of canonicalize,
//! cse, loop-invariant-code-motion, sccp, inline, symbol-dce and
//! remove-dead-values runs on the stage's output, which must still verify
//! and, in pto-run on the same seeded inputs, give the same outputs bit for
//! bit as the stage itself. remove-dead-values may instead fail, loudly
//! ([`MAY_FAIL`]); it never may compute something else.

mod support;

use melior::{
    Context,
    ir::{Module, operation::OperationLike},
    pass::PassManager,
    utility::parse_pass_pipeline,
};
use pto_run::{Array, Outcome, Program, Session, types::Elem};
use support::{array, example, sample};

/// The stages of `pto-a2a3-pipeline`, in order, read from its
/// definition: each top-level pass, and each pass of a `func.func(...)`
/// nest on its own (`func.func(p)`).
fn stages() -> Vec<String> {
    let pipeline = pto_passes::pl::a2a3_pipeline::PIPELINE.pipeline;
    let mut stages = Vec::new();
    let (mut depth, mut start) = (0, 0);
    let mut top_level = Vec::new();
    for (i, c) in pipeline.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                top_level.push(&pipeline[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    top_level.push(&pipeline[start..]);
    for item in top_level {
        match item
            .strip_prefix("func.func(")
            .and_then(|rest| rest.strip_suffix(')'))
        {
            Some(nested) => stages.extend(nested.split(',').map(|p| format!("func.func({p})"))),
            None => stages.push(item.to_string()),
        }
    }
    stages
}

const UPSTREAM: &[&str] = &[
    "canonicalize",
    "cse",
    "func.func(loop-invariant-code-motion)",
    "sccp",
    "inline",
    "symbol-dce",
    "remove-dead-values",
];

/// Passes that may fail on a stage (the pass manager reports the invalid
/// IR they leave), as long as they never succeed with other results.
/// MLIR 22's remove-dead-values erases the values a call passes to a
/// public function that does not use them and leaves the call with null
/// operands (llvm/llvm-project#82788; `func.call` alike). `pl.call` and
/// `pld.dispatch` are calls (CallOpInterface), and chip orchestrations and
/// kernels are public, so it does the same to them.
const MAY_FAIL: &[&str] = &["remove-dead-values"];

/// An example, its entry, the rank count and inputs for its parameters of
/// dynamic shape, by position (the rest are generated from a seed).
struct Case {
    path: &'static str,
    entry: &'static str,
    ranks: usize,
    inputs: Vec<(&'static str, Array)>,
}

fn zeros(shape: &[usize]) -> Array {
    Array::new(shape.to_vec(), Elem::F32, vec![0.0; shape.iter().product()])
}

fn scalar_i32(value: i32) -> Array {
    Array::new(vec![], Elem::I32, vec![f64::from(value)])
}

fn scalar_f32(value: f32) -> Array {
    Array::new(vec![], Elem::F32, vec![f64::from(value)])
}

fn cases() -> Vec<Case> {
    let p = 2;
    let case = |path, entry, inputs| Case {
        path,
        entry,
        ranks: p,
        inputs,
    };
    vec![
        Case {
            path: "tiles/elementwise_add.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![],
        },
        Case {
            path: "tiles/row_softmax.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![(
                "arg0",
                array(&[40, 256], Elem::F32, |i| sample(2, i) / 16.0),
            )],
        },
        Case {
            path: "tiles/tiled_matmul.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![],
        },
        case("distributed/01_hello_rank.mlir", "main", vec![]),
        case("distributed/02_window_buffer.mlir", "main", vec![]),
        case("distributed/05_remote_load_store.mlir", "main", vec![]),
        case(
            "distributed/06_put_get.mlir",
            "main",
            vec![("arg1", zeros(&[p, 256]))],
        ),
        case("distributed/07_dynamic_rank_count.mlir", "main", vec![]),
        case("distributed/08_allreduce.mlir", "main", vec![]),
        case(
            "distributed/11_host_allreduce.mlir",
            "main",
            vec![("arg1", zeros(&[p, 256]))],
        ),
        case("distributed/12_broadcast.mlir", "main", vec![]),
        case("distributed/13_allgather.mlir", "main", vec![]),
        case("distributed/14_reduce_scatter.mlir", "main", vec![]),
        case(
            "distributed/15_all_to_all.mlir",
            "main",
            vec![("arg0", array(&[p * p, 256], Elem::F32, |i| sample(7, i)))],
        ),
        case("distributed/16_putting_it_together.mlir", "main", vec![]),
        // Corpus programs of the passes and ops the examples do not reach:
        // inline functions with sines and cosines, chains of casts,
        // unrolled loops, sorts.
        Case {
            path: "../corpus/40_inline_sin_cos.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![],
        },
        Case {
            path: "../corpus/41_cast_chains.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![],
        },
        Case {
            path: "../corpus/42_unroll_blocks.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![],
        },
        // Index sequences, block sorts, merges and masked gathers.
        Case {
            path: "../corpus/43_topk.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![],
        },
        // Masks, joins, partial sums, growing fills, carries.
        Case {
            path: "../corpus/44_tile_regions.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![],
        },
        // An SPMD scope outlined into a launch on 4 blocks.
        Case {
            path: "../corpus/46_spmd_scope.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![],
        },
        // Rows gathered from global memory through a block table.
        Case {
            path: "../corpus/55_paged_gather.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![
                ("arg3", scalar_i32(40)),
                ("arg4", scalar_i32(3)),
                ("arg5", Array::new(vec![], Elem::F16, vec![0.5])),
            ],
        },
        // Valid regions set at run time, padded and computed on.
        Case {
            path: "../corpus/56_valid_pad.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![
                ("arg1", scalar_i32(37)),
                ("arg3", scalar_i32(5)),
                ("arg4", scalar_i32(20)),
            ],
        },
        // Runtime scopes, a manual one's dependencies derived.
        Case {
            path: "../corpus/57_runtime_scopes.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![("arg2", scalar_f32(0.5))],
        },
        // Rank-3 broadcasts into targets.
        Case {
            path: "../corpus/58_expand_clone.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![],
        },
        // Vectors as one-row tiles.
        Case {
            path: "../corpus/59_vectors.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![("arg2", scalar_f32(0.25))],
        },
        // Compare gathers: scalar loops after pl-lower-math-ops.
        Case {
            path: "../corpus/60_gather_compare.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![
                ("arg1", scalar_f32(0.5)),
                ("arg4", Array::new(vec![], Elem::I32, vec![1.0])),
                ("arg5", Array::new(vec![], Elem::F16, vec![-0.5])),
            ],
        },
        // Rows and elements scattered into tables in place.
        Case {
            path: "../corpus/61_mscatter.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![],
        },
        // Prefetches: cache hints kept in place.
        Case {
            path: "../corpus/63_prefetch.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![],
        },
        // Transposed products: views of L1 tiles, split into L0 steps.
        Case {
            path: "../corpus/64_transposed_matmul.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![],
        },
        // A loop rebinding a tensor and accumulating another in place.
        Case {
            path: "../corpus/65_layer_loop.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![],
        },
        // Valid regions the orchestration sets, as index parameters.
        Case {
            path: "../corpus/66_valid_params.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![
                ("arg1", scalar_i32(45)),
                ("arg3", scalar_i32(7)),
                ("arg4", scalar_i32(13)),
            ],
        },
        // A barrier across the blocks of a launch that starts them together.
        Case {
            path: "../corpus/67_block_barrier.mlir",
            entry: "main",
            ranks: 1,
            inputs: vec![],
        },
        // Random bits: scalar arithmetic after pl-lower-math-ops.
        Case {
            path: "../corpus/62_random.mlir",
            entry: "main",
            ranks: 1,
            inputs: (0..4)
                .map(|i| {
                    (
                        ["arg0", "arg1", "arg2", "arg3"][i],
                        scalar_i32(0x1234 * i as i32 - 7),
                    )
                })
                .collect(),
        },
    ]
}

fn run_passes<'c>(
    context: &'c Context,
    module: &mut Module<'c>,
    pipeline: &str,
) -> Result<(), String> {
    let manager = PassManager::new(context);
    parse_pass_pipeline(
        manager.as_operation_pass_manager(),
        &format!("builtin.module({pipeline})"),
    )
    .map_err(|_| format!("pipeline {pipeline} does not parse"))?;
    manager
        .run(module)
        .map_err(|_| format!("{pipeline} failed"))?;
    if !module.as_operation().verify() {
        return Err(format!("the output of {pipeline} does not verify"));
    }
    Ok(())
}

fn execute(module: &Module, case: &Case) -> Result<Outcome, String> {
    let program = Program::compile(module).map_err(|e| e.to_string())?;
    let mut session = Session::new(&program).ranks(case.ranks).seed(7);
    for (name, input) in &case.inputs {
        session = session.input(name, input.clone());
    }
    session.run(case.entry).map_err(|e| e.to_string())
}

/// Bit-exact equality of every output (NaN equal to NaN).
fn same(a: &Outcome, b: &Outcome) -> Result<(), String> {
    let names = |o: &Outcome| o.outputs().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    if names(a) != names(b) {
        return Err(format!("outputs {:?} vs {:?}", names(a), names(b)));
    }
    for (name, array) in a.outputs() {
        let other = b.get(name).unwrap();
        let differ = array
            .data
            .iter()
            .zip(&other.data)
            .position(|(x, y)| x.to_bits() != y.to_bits() && !(x.is_nan() && y.is_nan()));
        if array.shape != other.shape || differ.is_some() {
            return Err(format!("output {name} differs (first at {differ:?})"));
        }
    }
    Ok(())
}

#[test]
fn upstream_passes_keep_every_stage_valid_and_equal() {
    pto_passes::register_passes();
    melior::utility::register_all_passes();
    let mut failures = Vec::new();
    let (mut checked, mut refused) = (0, 0);
    for case in cases() {
        let text = std::fs::read_to_string(example(case.path)).unwrap();
        let context = pto_dialects::create_context();
        // One thread: the comparison is of what the passes compute, and
        // an intermittent fault in a worker thread was seen once under load
        // (not reproduced; to be investigated on its own).
        context.enable_multi_threading(false);
        let stages = stages();
        assert!(stages.len() >= 10, "the pipeline's stages: {stages:?}");
        for depth in 0..=stages.len() {
            let mut stage = Module::parse(&context, &text).unwrap();
            let prefix = stages[..depth].join(",");
            if depth > 0 {
                run_passes(&context, &mut stage, &prefix)
                    .unwrap_or_else(|e| panic!("{}: {e}", case.path));
            }
            let stage_text = stage.as_operation().to_string();
            let expected = execute(&stage, &case)
                .unwrap_or_else(|e| panic!("{} after [{prefix}]: {e}", case.path));
            for pass in UPSTREAM {
                let mut module = Module::parse(&context, &stage_text).unwrap();
                checked += 1;
                if let Err(e) = run_passes(&context, &mut module, pass) {
                    if MAY_FAIL.contains(pass) {
                        refused += 1;
                    } else {
                        failures.push(format!("{} after [{prefix}] then {pass}: {e}", case.path));
                    }
                    continue;
                }
                let outcome = execute(&module, &case).and_then(|o| same(&expected, &o));
                if let Err(e) = outcome {
                    failures.push(format!("{} after [{prefix}] then {pass}: {e}", case.path));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} checks failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The figure the docs give (docs/canonicalization.md).
    println!("{checked} checks; {refused} failed loudly in {MAY_FAIL:?}");
}
