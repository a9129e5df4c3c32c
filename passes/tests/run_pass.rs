//! Runs the Rust passes from Rust through a melior pass manager, the way an
//! embedding compiler would.

use melior::{
    ir::{Module, operation::OperationLike},
    pass::PassManager,
};

const PROGRAM: &str = r#"
func.func @f(%signal: !pld.dtensor<?x1xi32>) -> i32 {
  %ctx = pld.system.get_comm_ctx %signal : !pld.dtensor<?x1xi32>
  %n = pld.system.nranks %ctx : i32
  %m = pld.system.nranks %ctx : i32
  %sum = arith.addi %n, %m : i32
  return %sum : i32
}
"#;

#[test]
fn specialize_nranks_replaces_every_query() {
    let context = pto_dialects::create_context();
    let mut module = Module::parse(&context, PROGRAM).expect("program parses");
    let manager = PassManager::new(&context);
    manager.add_pass(pto_passes::create_pass("pld-specialize-nranks", "nranks=3").unwrap());
    manager.run(&mut module).expect("pass runs");
    assert!(module.as_operation().verify());
    let text = module.as_operation().to_string();
    assert!(!text.contains("pld.system.nranks"), "{text}");
    assert_eq!(text.matches("arith.constant 3 : i32").count(), 2, "{text}");
}

#[test]
fn bad_options_are_errors_not_crashes() {
    let _context = pto_dialects::create_context();
    let error = pto_passes::create_pass("pld-specialize-nranks", "nranks=0")
        .err()
        .unwrap();
    assert_eq!(
        error,
        "pld-specialize-nranks: option 'nranks' must be at least 1, got 0"
    );
    let error = pto_passes::create_pass("pld-specialize-nranks", "nranks=x")
        .err()
        .unwrap();
    assert_eq!(
        error,
        "pld-specialize-nranks: option 'nranks' must be a 64-bit integer, got 'x'"
    );
    let error = pto_passes::create_pass("pld-specialize-nranks", "nranks=2 bogus=1")
        .err()
        .unwrap();
    assert_eq!(
        error,
        "pld-specialize-nranks: no option named 'bogus' (its options are nranks)"
    );
    let error = pto_passes::create_pass("pld-specialize-nranks", "")
        .err()
        .unwrap();
    assert_eq!(
        error,
        "pld-specialize-nranks: option 'nranks' is required (nranks=N with N >= 1)"
    );
    let error = pto_passes::create_pass("no-such-pass", "").err().unwrap();
    assert_eq!(error, "no pass named 'no-such-pass'");
}

#[test]
fn the_function_form_reports_what_it_replaced() {
    let context = pto_dialects::create_context();
    let module = Module::parse(&context, PROGRAM).expect("program parses");
    let replaced = pto_passes::pld::specialize_nranks::specialize_nranks(module.as_operation(), 5);
    assert_eq!(replaced, 2);
}
