//! Generates the Rust op table and enums from the ODS records.
//!
//! TableGen parses `td/PL.td` and `td/PLD.td` (the `tblgen` crate, the same
//! reader `melior::dialect!` uses); every op of the two dialects becomes an
//! `OpKind` variant and an `OpInfo` entry, every `I32EnumAttr` a Rust enum
//! with its codes and keywords. The layout of the generated types is in
//! `src/op_table.rs`; the generated text is `$OUT_DIR/op_table.rs` and
//! `$OUT_DIR/enums.rs`.

use std::{collections::BTreeSet, fmt::Write as _, path::Path};

use tblgen::{Record, RecordKeeper, TableGenParser, TypedInit, init::DagInit};

/// One operand, result or attribute of an op.
struct Argument {
    name: String,
    constraint: String,
    /// `One`, `Optional` or `Variadic` for values; for attributes whether
    /// the attribute may be absent.
    arity: &'static str,
}

struct Op {
    rust_name: String,
    name: String,
    dialect: String,
    summary: String,
    operands: Vec<Argument>,
    attributes: Vec<Argument>,
    results: Vec<Argument>,
    regions: Vec<String>,
    operand_segments: bool,
    result_segments: bool,
    family: String,
    compute: String,
    pipe: String,
    in_place: Vec<i64>,
    tied: i64,
    instruction: String,
    element_types: Vec<String>,
    source_types: Vec<String>,
    same_type: bool,
    tile_form: String,
    location: String,
}

struct Enum {
    name: String,
    summary: String,
    cases: Vec<(String, i64, String)>,
}

fn fail(message: String) -> ! {
    panic!("op table: {message}")
}

fn str_field(record: Record, name: &str) -> String {
    record
        .str_value(name)
        .unwrap_or_else(|error| fail(format!("{:?}: {name}: {error}", record.name())))
        .to_string()
}

fn def_name(init: TypedInit) -> Option<String> {
    match init {
        TypedInit::Def(def) => Record::from(def).name().ok().map(str::to_string),
        _ => None,
    }
}

fn def_record(init: TypedInit) -> Option<Record> {
    match init {
        TypedInit::Def(def) => Some(Record::from(def)),
        _ => None,
    }
}

/// UpperCamelCase of an op name: `pl.tile.row_sum` -> `PlTileRowSum`.
fn camel(name: &str) -> String {
    name.split(['.', '_'])
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_uppercase().chain(chars).collect()
            })
        })
        .collect()
}

/// The Rust name of an enum case: its ODS symbol, with an all-capitals
/// symbol (`DDR`, `MTE1`) written as a word (`Ddr`, `Mte1`).
fn case_name(symbol: &str) -> String {
    if symbol
        .chars()
        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
    {
        let mut chars = symbol.chars();
        let first = chars.next().unwrap_or('X');
        std::iter::once(first)
            .chain(chars.flat_map(char::to_lowercase))
            .collect()
    } else {
        symbol.to_string()
    }
}

fn arguments(dag: DagInit, what: &str, op: &str) -> (Vec<Argument>, Vec<Argument>) {
    let mut values = Vec::new();
    let mut attributes = Vec::new();
    for (index, (name, init)) in dag.args().enumerate() {
        let Some(record) = def_record(init) else {
            fail(format!("{op}: {what} #{index} is not a def"))
        };
        // An anonymous constraint (`Variadic<Index>`, `PL_TileOf<[F16]>`) is
        // known by what it says, not by its generated record name.
        let constraint = match record.name().unwrap_or_default() {
            anonymous if anonymous.starts_with("anonymous_") => {
                record.str_value("summary").unwrap_or(anonymous).to_string()
            }
            named => named.to_string(),
        };
        let name = name.unwrap_or_default().to_string();
        if record.subclass_of("Attr") {
            let optional = record.subclass_of("OptionalAttr")
                || record.subclass_of("UnitAttr")
                || record.subclass_of("DefaultValuedAttr")
                || record.subclass_of("DefaultValuedOptionalAttr");
            let arity = if optional { "Optional" } else { "One" };
            attributes.push(Argument {
                name,
                constraint,
                arity,
            });
        } else {
            let arity = if record.subclass_of("Variadic") {
                "Variadic"
            } else if record.subclass_of("Optional") {
                "Optional"
            } else {
                "One"
            };
            values.push(Argument {
                name,
                constraint,
                arity,
            });
        }
    }
    (values, attributes)
}

fn has_trait(record: Record, trait_name: &str) -> bool {
    record
        .list_init_value("traits")
        .map(|traits| {
            traits
                .iter()
                .any(|t| def_name(t).is_some_and(|name| name == trait_name))
        })
        .unwrap_or(false)
}

fn read_op(record: Record) -> Op {
    let def = record.name().unwrap_or_default().to_string();
    let dialect = record
        .def_value("opDialect")
        .and_then(|d| d.str_value("name"))
        .unwrap_or_else(|error| fail(format!("{def}: opDialect: {error}")))
        .to_string();
    let name = format!("{dialect}.{}", str_field(record, "opName"));
    let arguments_dag = record
        .dag_value("arguments")
        .unwrap_or_else(|error| fail(format!("{def}: arguments: {error}")));
    let (operands, attributes) = arguments(arguments_dag, "argument", &name);
    let results_dag = record
        .dag_value("results")
        .unwrap_or_else(|error| fail(format!("{def}: results: {error}")));
    let (results, _) = arguments(results_dag, "result", &name);
    let regions = record
        .dag_value("regions")
        .map(|dag| {
            dag.args()
                .map(|(name, _)| name.unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default();
    let in_place = record
        .list_of_ints_value("ptoInPlaceOperands")
        .unwrap_or_default();
    let element_types = record
        .list_of_strings_value("ptoA2A3ElementTypes")
        .unwrap_or_default()
        .into_iter()
        .map(str::to_string)
        .collect();
    let source_types = record
        .list_of_strings_value("ptoA2A3SourceTypes")
        .unwrap_or_default()
        .into_iter()
        .map(str::to_string)
        .collect();
    let location = format!("td/{def}");
    let op = Op {
        rust_name: camel(&name),
        summary: record.str_value("summary").unwrap_or_default().to_string(),
        operand_segments: has_trait(record, "AttrSizedOperandSegments"),
        result_segments: has_trait(record, "AttrSizedResultSegments"),
        family: str_field(record, "ptoFamily"),
        compute: str_field(record, "ptoCompute"),
        pipe: str_field(record, "ptoPipe"),
        in_place,
        tied: record.int_value("ptoTiedOperand").unwrap_or(-1),
        instruction: str_field(record, "ptoInstruction"),
        element_types,
        source_types,
        same_type: record.bit_value("ptoA2A3SameType").unwrap_or(false),
        tile_form: str_field(record, "ptoTileForm"),
        dialect,
        name,
        operands,
        attributes,
        results,
        regions,
        location,
    };
    if op.family.is_empty() {
        fail(format!("{} ({}) has no ptoFamily", op.name, op.location));
    }
    for &index in &op.in_place {
        if index < 0 || index as usize >= op.operands.len() {
            fail(format!(
                "{}: in-place operand {index} out of range",
                op.name
            ));
        }
    }
    op
}

fn read_enum(record: Record) -> Enum {
    let cases = record
        .list_of_defs_value("enumerants")
        .unwrap_or_else(|error| fail(format!("{:?}: enumerants: {error}", record.name())))
        .into_iter()
        .map(|case| {
            (
                case_name(case.str_value("symbol").unwrap_or_default()),
                case.int_value("value").unwrap_or_default(),
                case.str_value("str").unwrap_or_default().to_string(),
            )
        })
        .collect();
    Enum {
        name: str_field(record, "className"),
        summary: str_field(record, "summary"),
        cases,
    }
}

fn parse(td: &Path, includes: &[&Path]) -> RecordKeeper<'static> {
    let mut parser = TableGenParser::new().add_source_file(td.to_str().expect("UTF-8 path"));
    for dir in includes {
        parser = parser.add_include_directory(dir.to_str().expect("UTF-8 path"));
    }
    parser
        .parse()
        .unwrap_or_else(|error| fail(format!("cannot parse {}: {error}", td.display())))
}

/// Reads the ops and enums of the umbrella files `tds`.
fn read(tds: &[&Path], includes: &[&Path]) -> (Vec<Op>, Vec<Enum>) {
    let mut ops = Vec::new();
    let mut enums = Vec::new();
    let mut seen_enums = BTreeSet::new();
    for td in tds {
        let keeper = parse(td, includes);
        for record in keeper.all_derived_definitions("Op") {
            if record.subclass_of("PTO_OpInfo") {
                ops.push(read_op(record));
            }
        }
        for record in keeper.all_derived_definitions("I32EnumAttr") {
            let location = record.name().unwrap_or_default().to_string();
            if (location.starts_with("PL_") || location.starts_with("PLD_"))
                && seen_enums.insert(location)
            {
                enums.push(read_enum(record));
            }
        }
    }
    ops.sort_by(|a, b| a.name.cmp(&b.name));
    enums.sort_by(|a, b| a.name.cmp(&b.name));
    (ops, enums)
}

fn quoted(text: &str) -> String {
    format!("{text:?}")
}

fn option_kind(ops: &[Op], name: &str, of: &str) -> String {
    if name.is_empty() {
        return "None".into();
    }
    match ops.iter().find(|op| op.name == name) {
        Some(op) => format!("Some(OpKind::{})", op.rust_name),
        None => fail(format!("{of}: ptoTileForm {name} is not an op")),
    }
}

fn pipe_rule(pipe: &str, enums: &[Enum], of: &str) -> String {
    let pipe_case = |keyword: &str| {
        let pipes = enums
            .iter()
            .find(|e| e.name == "Pipe")
            .unwrap_or_else(|| fail("no Pipe enum".into()));
        match pipes.cases.iter().find(|case| case.2 == keyword) {
            Some(case) => format!("Pipe::{}", case.0),
            None => fail(format!("{of}: unknown pipe {keyword:?} in ptoPipe")),
        }
    };
    match pipe {
        "" => "PipeRule::None".into(),
        "staged" => "PipeRule::Staged".into(),
        _ => match pipe.strip_prefix("source:") {
            Some(otherwise) => format!("PipeRule::BySourceSpace({})", pipe_case(otherwise)),
            None => format!("PipeRule::Fixed({})", pipe_case(pipe)),
        },
    }
}

/// The `Dtype` variant of a `pl` element type spelling (`ui8` -> `U8`).
fn dtype(spelling: &str) -> String {
    let name = spelling
        .strip_prefix("ui")
        .map_or_else(|| spelling.to_string(), |bits| format!("u{bits}"));
    format!("Dtype::{}", camel(&name))
}

/// The op's group: the middle part of `pl.tile.add`, `pld.system.rank`.
fn group(name: &str) -> &'static str {
    match name.split('.').nth(1) {
        Some("tile") if name.matches('.').count() == 2 => "Tile",
        Some("tensor") if name.matches('.').count() == 2 => "Tensor",
        Some("system") if name.matches('.').count() == 2 => "System",
        Some("builtin") if name.matches('.').count() == 2 => "Builtin",
        Some("array") if name.matches('.').count() == 2 => "Array",
        _ => "Top",
    }
}

fn argument_list(arguments: &[Argument]) -> String {
    let mut out = String::from("&[");
    for argument in arguments {
        write!(
            out,
            "Argument {{ name: {}, constraint: {}, arity: Arity::{} }}, ",
            quoted(&argument.name),
            quoted(&argument.constraint),
            argument.arity
        )
        .unwrap();
    }
    out.push(']');
    out
}

/// Writes `op_table.rs`: `OpKind`, `Family`, `Compute` and the table.
fn op_table(ops: &[Op], enums: &[Enum]) -> String {
    let families: BTreeSet<&str> = ops.iter().map(|op| op.family.as_str()).collect();
    let computes: BTreeSet<&str> = ops
        .iter()
        .map(|op| op.compute.as_str())
        .filter(|c| !c.is_empty())
        .collect();
    let mut out = String::new();
    out.push_str("// Generated by dialects/build/op_table.rs from the ODS; do not edit.\n\n");

    out.push_str("/// Every op of `pl` and `pld`, in name order.\n");
    out.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\n");
    out.push_str("#[repr(u16)]\npub enum OpKind {\n");
    for op in ops {
        writeln!(
            out,
            "    /// `{}`: {}",
            op.name,
            op.summary.replace('\n', " ")
        )
        .unwrap();
        writeln!(out, "    {},", op.rust_name).unwrap();
    }
    out.push_str("}\n\n");

    out.push_str("/// How the layers group ops (ODS `ptoFamily`; docs/op-table.md).\n");
    out.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\n");
    out.push_str("pub enum Family {\n");
    for family in &families {
        writeln!(out, "    /// `{family}`\n    {},", camel(family)).unwrap();
    }
    out.push_str("}\n\n");
    out.push_str("impl Family {\n    /// Every family, in name order.\n    pub const ALL: &'static [Family] = &[");
    for family in &families {
        write!(out, "Family::{}, ", camel(family)).unwrap();
    }
    out.push_str("];\n\n    /// The family's name in the ODS.\n    pub fn name(self) -> &'static str {\n        match self {\n");
    for family in &families {
        writeln!(
            out,
            "            Family::{} => {},",
            camel(family),
            quoted(family)
        )
        .unwrap();
    }
    out.push_str("        }\n    }\n}\n\n");

    out.push_str("/// What an elementwise, scalar, reduction or expansion op computes\n");
    out.push_str("/// (ODS `ptoCompute`), shared by its tile and tensor forms.\n");
    out.push_str("#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\n");
    out.push_str("pub enum Compute {\n");
    for compute in &computes {
        writeln!(out, "    /// `{compute}`\n    {},", camel(compute)).unwrap();
    }
    out.push_str("}\n\n");
    out.push_str("impl Compute {\n    /// The computation's name in the ODS.\n    pub fn name(self) -> &'static str {\n        match self {\n");
    for compute in &computes {
        writeln!(
            out,
            "            Compute::{} => {},",
            camel(compute),
            quoted(compute)
        )
        .unwrap();
    }
    out.push_str("        }\n    }\n}\n\n");

    out.push_str("impl OpKind {\n    /// Every op, in name order.\n    pub const ALL: &'static [OpKind] = &[\n");
    for op in ops {
        writeln!(out, "        OpKind::{},", op.rust_name).unwrap();
    }
    out.push_str("    ];\n\n");
    out.push_str("    /// The op named `name` (`\"pl.tile.add\"`), if it is a `pl` or `pld` op.\n");
    out.push_str(
        "    pub fn from_name(name: &str) -> Option<OpKind> {\n        Some(match name {\n",
    );
    for op in ops {
        writeln!(
            out,
            "            {} => OpKind::{},",
            quoted(&op.name),
            op.rust_name
        )
        .unwrap();
    }
    out.push_str("            _ => return None,\n        })\n    }\n\n");
    out.push_str("    /// The op's table entry.\n    pub fn info(self) -> &'static OpInfo {\n        &OP_INFOS[self as usize]\n    }\n}\n\n");

    writeln!(
        out,
        "/// The table, indexed by `OpKind as usize`.\npub static OP_INFOS: [OpInfo; {}] = [",
        ops.len()
    )
    .unwrap();
    for op in ops {
        let (operands, results) = (argument_list(&op.operands), argument_list(&op.results));
        let attributes = argument_list(&op.attributes);
        let regions: Vec<String> = op.regions.iter().map(|r| quoted(r)).collect();
        let compute = if op.compute.is_empty() {
            "None".to_string()
        } else {
            format!("Some(Compute::{})", camel(&op.compute))
        };
        let instruction = if op.instruction.is_empty() {
            "None".to_string()
        } else {
            format!("Some({})", quoted(&op.instruction))
        };
        let scratch = op
            .operands
            .iter()
            .position(|o| o.name == "tmp")
            .map_or("None".to_string(), |i| format!("Some({i})"));
        let tied = if op.tied < 0 {
            "None".to_string()
        } else {
            format!("Some({})", op.tied)
        };
        let in_place: Vec<String> = op.in_place.iter().map(|i| i.to_string()).collect();
        let element_types: Vec<String> = op.element_types.iter().map(|t| dtype(t)).collect();
        let source_types: Vec<String> = op.source_types.iter().map(|t| dtype(t)).collect();
        writeln!(
            out,
            "    OpInfo {{ kind: OpKind::{rust}, name: {name}, dialect: Dialect::{dialect}, \
             family: Family::{family}, compute: {compute}, summary: {summary}, \
             operands: {operands}, results: {results}, attributes: {attributes}, \
             regions: &[{regions}], operand_segments: {operand_segments}, \
             result_segments: {result_segments}, pipe: {pipe}, in_place_operands: &[{in_place}], \
             tied_operand: {tied}, scratch_operand: {scratch}, instruction: {instruction}, \
             a2a3_element_types: &[{element_types}], a2a3_source_types: &[{source_types}], \
             a2a3_same_type: {same_type}, tile_form: {tile_form}, group: Group::{group} }},",
            rust = op.rust_name,
            name = quoted(&op.name),
            dialect = camel(&op.dialect),
            family = camel(&op.family),
            summary = quoted(&op.summary),
            regions = regions.join(", "),
            operand_segments = op.operand_segments,
            result_segments = op.result_segments,
            pipe = pipe_rule(&op.pipe, enums, &op.name),
            in_place = in_place.join(", "),
            element_types = element_types.join(", "),
            source_types = source_types.join(", "),
            same_type = op.same_type,
            tile_form = option_kind(ops, &op.tile_form, &op.name),
            group = group(&op.name),
        )
        .unwrap();
    }
    out.push_str("];\n");
    out
}

/// Writes `enums.rs`: one `code_enum!` per `I32EnumAttr`.
fn enums_rs(enums: &[Enum]) -> String {
    let mut out = String::new();
    out.push_str("// Generated by dialects/build/op_table.rs from the ODS; do not edit.\n\n");
    for e in enums {
        writeln!(
            out,
            "code_enum!(\n    /// {} (ODS `{}`).\n    {} {{",
            e.summary, e.name, e.name
        )
        .unwrap();
        for (name, value, keyword) in &e.cases {
            writeln!(
                out,
                "        /// `{keyword}`\n        {name} = {value} => {},",
                quoted(keyword)
            )
            .unwrap();
        }
        out.push_str("    }\n);\n\n");
    }
    out
}

/// Generates `op_table.rs` and `enums.rs` into `out`.
pub fn generate(tds: &[&Path], includes: &[&Path], out: &Path) {
    let (ops, enums) = read(tds, includes);
    std::fs::write(out.join("op_table.rs"), op_table(&ops, &enums))
        .unwrap_or_else(|error| fail(format!("cannot write op_table.rs: {error}")));
    std::fs::write(out.join("enums.rs"), enums_rs(&enums))
        .unwrap_or_else(|error| fail(format!("cannot write enums.rs: {error}")));
}
