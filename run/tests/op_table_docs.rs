//! docs/op-table.md: every op of the op table against every layer that must
//! handle it (the verifier, pl-convert-tensor-to-tile, the EmitC lowering,
//! the pto-isa instruction, pto-run), generated from what each layer says
//! it handles. The test prints the table and fails when the page is stale;
//! PTO_BLESS=1 rewrites it (scripts/update-docs.sh does). Each layer's own
//! test pins its exceptions to a documented list, so an op a layer forgets
//! fails there; this page is where the whole picture shows.

use std::{fmt::Write as _, fs, path::PathBuf};

use pto_dialects::op_table::{Family, OpKind};

/// One cell: handled (with a detail), not applicable, or not handled (why).
enum Cell {
    Yes(String),
    NotApplicable,
    No(&'static str),
}

impl Cell {
    fn text(&self) -> String {
        match self {
            Cell::Yes(detail) if detail.is_empty() => "yes".into(),
            Cell::Yes(detail) => detail.clone(),
            Cell::NotApplicable => "—".into(),
            Cell::No(reason) => format!("**no**: {reason}"),
        }
    }
}

fn verifier(kind: OpKind) -> Cell {
    match pto_dialects::verify::rule_of(kind) {
        Some(module) => Cell::Yes(format!("`verify/{module}.rs`")),
        None => Cell::Yes("ODS alone".into()),
    }
}

fn tensor_to_tile(kind: OpKind) -> Cell {
    match pto_passes::pl::convert_tensor_to_tile::converts(kind) {
        None => Cell::NotApplicable,
        Some(Ok(())) => Cell::Yes(match (kind, kind.info().tile_form) {
            (_, Some(tile)) => format!("`{tile}`"),
            (OpKind::PlTensorFull, None) => {
                "`pl.tile.full` (`pl.tile.expands` of a runtime value)".into()
            }
            (OpKind::PlTensorConcat, None) => {
                "`pl.tile.assemble` of each input into a `pl.tile.create`".into()
            }
            (OpKind::PlTensorGather, None) => "a loop of one-row `pl.tile.gather`s".into(),
            (OpKind::PlTensorScatter | OpKind::PlTensorScatterMask, None) => {
                "`pl.tile.write`s into a copy of the target's tile".into()
            }
            (OpKind::PlTensorPagedGather, None) => "a loop of `pl.tile.gather_row`s".into(),
            (_, None) => "a window copy".into(),
        }),
        Some(Err(reason)) => Cell::No(reason),
    }
}

fn emitc(kind: OpKind) -> Cell {
    match pto_passes::emitc::convert_pl_to_emitc::lowers(kind) {
        Ok(()) => Cell::Yes(String::new()),
        Err(reason) => Cell::No(reason),
    }
}

fn instruction(kind: OpKind) -> Cell {
    match kind.info().instruction {
        Some(instruction) => Cell::Yes(format!("`{instruction}`")),
        None => Cell::NotApplicable,
    }
}

fn run(kind: OpKind) -> Cell {
    match pto_run::supports(kind) {
        Ok(()) => Cell::Yes(String::new()),
        Err(reason) => Cell::No(reason),
    }
}

/// What one layer does with an op.
type Layer = fn(OpKind) -> Cell;

const LAYERS: &[(&str, Layer)] = &[
    ("verifier", verifier),
    ("tensor → tile", tensor_to_tile),
    ("EmitC", emitc),
    ("pto-isa instruction", instruction),
    ("pto-run", run),
];

const PROSE: &str = r#"# The op table

Every op of `pl` and `pld` has one entry in the op table,
`pto_dialects::op_table`, generated at build time from the ODS
(`dialects/build/op_table.rs` reads `dialects/td/*.td` with TableGen). Every
layer matches on the entry instead of the op's name: the verifier, the
passes, pto-run and the EmitC lowering decode an op once
(`OpKind::of(&op)`) and read what they need from `kind.info()`.

What an entry holds:

| field | from | read by |
|---|---|---|
| `kind`, `name`, `dialect`, `group` | the op's ODS name | everyone |
| `operands`, `results`, `attributes`, `regions` (names, arity), `operand_segments` | the op's ODS `arguments`, `results`, `regions`, traits | pl-infer-memory-space (cube operand roles), the pipe model (staged transfers), the a2a3 form checks |
| `family` | `ptoFamily` | the verifier's dispatch, pto-run, the passes |
| `compute` | `ptoCompute` | pto-run (the arithmetic), the verifier (element-type sets), pl-convert-tensor-to-tile (broadcasts) |
| `pipe` | `ptoPipe` | the pipe model of pl-insert-sync and pl-verify-sync |
| `in_place_operands`, `tied_operand` | `ptoInPlaceOperands`, `ptoTiedOperand` | pl-plan-memory |
| `scratch_operand` | the operand named `tmp` | the pipe model, the a2a3 form checks |
| `instruction` | `ptoInstruction` | the EmitC lowering, the a2a3 form checks' messages |
| `a2a3_element_types`, `a2a3_source_types`, `a2a3_same_type` | `ptoA2A3ElementTypes`, `ptoA2A3SourceTypes`, `ptoA2A3SameType` | the a2a3 form checks of convert-pl-to-emitc |
| `tile_form` | `ptoTileForm` | pl-convert-tensor-to-tile |

The `pto*` fields are declared with their meaning in
`dialects/td/PTOOpInfo.td`; op classes set them once for a whole family (a
new `PL_TileBinaryOp` gets its family, computation, pipe, in-place operands
and instruction from the class). Every `I32EnumAttr` of the ODS becomes a
Rust enum too (`pto_dialects::enums`), read with
`op.enum_attr::<RoundMode>("mode")`.

## Adding an op

An op in an existing family (a new elementwise tile op, say) is its ODS
definition plus the places where its meaning is new: its arithmetic in
pto-run (`Binary`/`Unary` for a new computation), its element-type rule in
the verifier if it has one, and its element types in the ODS. An op the
layers do not know fails a test: each layer's dispatch is an exhaustive
match on `Family`, and each layer's coverage test (`verifier_coverage`,
`coverage` in run/, the EmitC lowering's) holds its exceptions to a
documented list. Then `scripts/update-docs.sh` regenerates this page.

## Coverage

Generated by `run/tests/op_table_docs.rs` from what each layer reports.
"—" means the layer has nothing to do with the op (a tensor→tile column for a
tile op; no instruction for a view or a control op); **no** is an op the
layer refuses with a located diagnostic, for the reason given. The EmitC
column is convert-pl-to-emitc on kernels; orchestrations and host programs
have passes of their own (convert-pl-orchestration-to-emitc and
convert-pl-program-to-emitc, docs/passes/), so the distributed and
orchestration ops show **no** there with that reason.

"#;

fn page() -> String {
    let mut page = String::from(PROSE);
    let mut header = String::from("| op | family |");
    let mut rule = String::from("|---|---|");
    for (name, _) in LAYERS {
        write!(header, " {name} |").unwrap();
        rule.push_str("---|");
    }
    let mut rows = String::new();
    let mut handled = vec![0usize; LAYERS.len()];
    let mut refused = vec![0usize; LAYERS.len()];
    for &kind in OpKind::ALL {
        write!(rows, "| `{}` | {} |", kind.name(), kind.family().name()).unwrap();
        for (index, (_, layer)) in LAYERS.iter().enumerate() {
            let cell = layer(kind);
            match cell {
                Cell::Yes(_) => handled[index] += 1,
                Cell::No(_) => refused[index] += 1,
                Cell::NotApplicable => {}
            }
            write!(rows, " {} |", cell.text()).unwrap();
        }
        rows.push('\n');
    }
    writeln!(
        page,
        "{} ops in {} families.\n",
        OpKind::ALL.len(),
        Family::ALL.len()
    )
    .unwrap();
    page.push_str("| layer | handles | refuses | not applicable |\n|---|---|---|---|\n");
    for (index, (name, _)) in LAYERS.iter().enumerate() {
        writeln!(
            page,
            "| {name} | {} | {} | {} |",
            handled[index],
            refused[index],
            OpKind::ALL.len() - handled[index] - refused[index]
        )
        .unwrap();
    }
    page.push('\n');
    page.push_str(&header);
    page.push('\n');
    page.push_str(&rule);
    page.push('\n');
    page.push_str(&rows);
    page
}

#[test]
fn op_table_page_is_up_to_date() {
    let expected = page();
    println!("{expected}");
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/op-table.md");
    if std::env::var_os("PTO_BLESS").is_some() {
        fs::write(&path, &expected).unwrap();
        return;
    }
    assert!(
        fs::read_to_string(&path).ok().as_deref() == Some(expected.as_str()),
        "docs/op-table.md is stale (run scripts/update-docs.sh)"
    );
}

#[test]
fn every_tensor_computation_has_a_tile_form_or_a_reason() {
    // A tensor op that computes either converts or says why not: the pass
    // must never skip one silently.
    for &kind in OpKind::ALL {
        if kind.info().computes_on_tensors() {
            assert!(
                pto_passes::pl::convert_tensor_to_tile::converts(kind).is_some(),
                "{kind} computes on tensors but pl-convert-tensor-to-tile does not say what it does with it"
            );
        }
    }
}
