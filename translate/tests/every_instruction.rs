//! Every pto-isa instruction the op table gives an op
//! (`OpInfo::instruction`, the ODS `ptoInstruction`: what convert-pl-to-emitc
//! emits for it) is emitted by test/e2e/Inputs/every_instruction.mlir, whose
//! kernels test/e2e/every-instruction.test compiles against the simulator
//! and runs against pto-run. An op given an instruction without a use there
//! fails here.

use std::collections::BTreeSet;

use pto_dialects::ops::OpKind;
use pto_translate::{Target, translate};

const INPUT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../test/e2e/Inputs/every_instruction.mlir"
);

/// Instructions of the table the input cannot emit yet, each with why.
/// Empty: every one is compiled and executed.
const KNOWN_GAPS: &[(&str, &str)] = &[];

/// Every op the table gives an instruction, with it.
fn instructions() -> Vec<(OpKind, &'static str)> {
    OpKind::ALL
        .iter()
        .filter_map(|&kind| kind.info().instruction.map(|name| (kind, name)))
        .collect()
}

/// The C++ of every kernel (not the drivers) of the input for the
/// simulator, and the input's text.
fn kernels() -> (String, String) {
    let source = std::fs::read_to_string(INPUT).expect("the input reads");
    let context = pto_dialects::create_context();
    let mut module =
        pto_translate::parse_module(&context, source.as_bytes(), INPUT).expect("the input parses");
    let files = translate(
        &context,
        &mut module,
        Target::A2a3Sim {
            runtime_entry: false,
        },
    )
    .expect("the input translates");
    let cpp: String = files
        .iter()
        .filter(|f| f.name.ends_with(".cpp") && !f.name.starts_with("run_"))
        .map(|f| f.contents.as_str())
        .collect();
    assert!(!cpp.is_empty(), "no kernel was written");
    (cpp, source)
}

/// Whether `cpp` calls `name` (`NAME(` or `NAME<`, not a longer name).
fn calls(cpp: &str, name: &str) -> bool {
    cpp.match_indices(name).any(|(at, _)| {
        let before = cpp[..at].chars().next_back();
        let after = cpp[at + name.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            && matches!(after, Some('(' | '<'))
    })
}

#[test]
fn every_instruction_of_the_table_is_emitted() {
    let (cpp, _) = kernels();
    let names: BTreeSet<&str> = instructions().into_iter().map(|(_, name)| name).collect();
    let missing: BTreeSet<&str> = names
        .iter()
        .copied()
        .filter(|name| !calls(&cpp, name))
        .collect();
    let gaps: BTreeSet<&str> = KNOWN_GAPS.iter().map(|&(name, _)| name).collect();
    assert_eq!(
        missing, gaps,
        "instructions of the op table not emitted by {INPUT} (left) differ from the known gaps (right)"
    );
    assert!(names.len() >= 82, "the table lost instructions: {names:?}");
}

#[test]
fn every_op_of_the_table_is_used() {
    let (_, source) = kernels();
    let context = pto_dialects::create_context();
    let mut unused = Vec::new();
    for (kind, _) in instructions() {
        assert!(
            context.is_registered_operation(kind.name()),
            "{kind} is in the op table but not registered"
        );
        if !source.contains(&format!("{kind} ")) {
            unused.push(kind.name());
        }
    }
    assert!(
        unused.is_empty(),
        "ops of the op table with an instruction that {INPUT} does not use: {unused:?}"
    );
}

#[test]
fn calls_matches_whole_names() {
    assert!(calls("  TROWEXPAND(v1, v2);", "TROWEXPAND"));
    assert!(!calls("  TROWEXPANDADD(v1, v2, v3);", "TROWEXPAND"));
    assert!(!calls("  TMATMUL_BIAS(c, a, b, bias);", "TMATMUL"));
    assert!(calls("  TSTORE<Tile<x>>(g, t);", "TSTORE"));
    assert!(!calls("  XTADD(a);", "TADD"));
}
