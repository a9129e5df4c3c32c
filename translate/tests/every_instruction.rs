//! Every instruction convert-pl-to-emitc maps a tile op to
//! (`pto_passes::INSTRUCTIONS`) is emitted by test/e2e/Inputs/every_instruction.mlir,
//! whose kernels test/e2e/every-instruction.test compiles against the
//! simulator and runs against pto-run. A row added to the table without a
//! use there fails here.

use std::collections::BTreeSet;

use pto_passes::INSTRUCTIONS;
use pto_translate::{Target, translate};

const INPUT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../test/e2e/Inputs/every_instruction.mlir"
);

/// Instructions of the table the input cannot emit yet, each with why.
/// Empty: every one is compiled and executed.
const KNOWN_GAPS: &[(&str, &str)] = &[];

/// Mnemonics of the table that name no pl op (aliases the lowering
/// accepts; the op is the other spelling), each with the op that is.
const NOT_OPS: &[(&str, &str)] = &[
    ("max", "maximum"),
    ("min", "minimum"),
    ("maxs", "maximums"),
    ("mins", "minimums"),
];

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
        Some(&source),
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
    let names: BTreeSet<&str> = INSTRUCTIONS.iter().map(|&(_, name)| name).collect();
    let missing: BTreeSet<&str> = names
        .iter()
        .copied()
        .filter(|name| !calls(&cpp, name))
        .collect();
    let gaps: BTreeSet<&str> = KNOWN_GAPS.iter().map(|&(name, _)| name).collect();
    assert_eq!(
        missing, gaps,
        "instructions of pto_passes::INSTRUCTIONS not emitted by {INPUT} (left) differ from the known gaps (right)"
    );
    assert!(names.len() >= 76, "the table lost rows: {names:?}");
}

#[test]
fn every_op_of_the_table_is_used() {
    let (_, source) = kernels();
    let context = pto_dialects::create_context();
    let mut unused = Vec::new();
    let mut not_ops = Vec::new();
    for &(mnemonic, _) in INSTRUCTIONS {
        let op = format!("pl.tile.{mnemonic}");
        if !context.is_registered_operation(&op) {
            not_ops.push(mnemonic);
        } else if !source.contains(&format!("{op} ")) {
            unused.push(mnemonic);
        }
    }
    assert!(
        unused.is_empty(),
        "ops of pto_passes::INSTRUCTIONS that {INPUT} does not use: {unused:?}"
    );
    let expected: Vec<&str> = NOT_OPS.iter().map(|&(mnemonic, _)| mnemonic).collect();
    assert_eq!(not_ops, expected, "mnemonics of the table that name no op");
    for &(alias, op) in NOT_OPS {
        assert_eq!(
            INSTRUCTIONS.iter().find(|r| r.0 == alias).map(|r| r.1),
            INSTRUCTIONS.iter().find(|r| r.0 == op).map(|r| r.1),
            "{alias} is an alias of {op}"
        );
    }
}

#[test]
fn calls_matches_whole_names() {
    assert!(calls("  TROWEXPAND(v1, v2);", "TROWEXPAND"));
    assert!(!calls("  TROWEXPANDADD(v1, v2, v3);", "TROWEXPAND"));
    assert!(!calls("  TMATMUL_BIAS(c, a, b, bias);", "TMATMUL"));
    assert!(calls("  TSTORE<Tile<x>>(g, t);", "TSTORE"));
    assert!(!calls("  XTADD(a);", "TADD"));
}
