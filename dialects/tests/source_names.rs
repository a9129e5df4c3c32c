//! Function arguments carry their source names in the IR: a tool names
//! them once after parsing, and everything after reads them from there,
//! through any pass that keeps the arguments.

use melior::{
    ir::{BlockLike, Module, RegionLike, Value, ValueLike, operation::OperationLike},
    pass::PassManager,
    utility::parse_pass_pipeline,
};
use pto_dialects::{ir, source};

const TEXT: &str = "func.func @f(%lhs: i32, %rhs_2: i32, %3: i32) -> i32 {\n  \
                    %s = arith.addi %lhs, %rhs_2 : i32\n  \
                    return %s : i32\n}\n";

/// `TEXT` parsed from a file, so that its locations are file locations.
fn parse<'c>(context: &'c melior::Context, test: &str) -> Module<'c> {
    let path = std::env::temp_dir().join(format!("{test}-{}.mlir", std::process::id()));
    std::fs::write(&path, TEXT).unwrap();
    let module = ir::parse_file(context, path.to_str().unwrap()).expect("parses");
    std::fs::remove_file(&path).ok();
    module
}

fn arguments<'c, 'a>(module: &'a Module<'c>) -> Vec<Value<'c, 'a>> {
    let function = module.body().first_operation().expect("a function");
    let block = function.region(0).unwrap().first_block().unwrap();
    (0..block.argument_count())
        .map(|i| block.argument(i).unwrap().into())
        .collect()
}

#[test]
fn arguments_are_named_as_in_the_source_and_keep_their_file_location() {
    let context = pto_dialects::create_context();
    let module = parse(&context, "named");
    assert_eq!(
        arguments(&module)
            .iter()
            .map(|&a| ir::value_name(a))
            .collect::<Vec<_>>(),
        [None, None, None]
    );
    source::name_arguments(&module, TEXT);
    let names: Vec<_> = arguments(&module)
        .iter()
        .map(|&a| ir::value_name(a))
        .collect();
    assert_eq!(
        names,
        [Some("lhs"), Some("rhs_2"), Some("3")].map(|n| n.map(String::from))
    );
    // Diagnostics still point at the file.
    let first = arguments(&module)[0];
    let text = source::location_text(first.location());
    assert!(text.ends_with(".mlir:1:14"), "{text}");
    // Naming twice changes nothing.
    source::name_arguments(&module, TEXT);
    assert_eq!(
        ir::value_name(arguments(&module)[0]).as_deref(),
        Some("lhs")
    );
}

#[test]
fn the_names_survive_upstream_passes() {
    let context = pto_dialects::create_context();
    let mut module = parse(&context, "kept");
    source::name_arguments(&module, TEXT);
    melior::utility::register_all_passes();
    let manager = PassManager::new(&context);
    parse_pass_pipeline(
        manager.as_operation_pass_manager(),
        "builtin.module(canonicalize,cse)",
    )
    .unwrap();
    manager.run(&mut module).expect("runs");
    assert!(module.as_operation().verify());
    assert_eq!(
        ir::value_name(arguments(&module)[1]).as_deref(),
        Some("rhs_2")
    );
}
