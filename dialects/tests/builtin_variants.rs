//! Every host builtin maps to its library variant name
//! (docs/passes/pld-lower-host-collectives.md).

use melior::ir::{BlockLike, Module, RegionLike, operation::OperationLike};
use pto_dialects::{builtins::variant, create_context};

#[test]
fn every_builtin_names_its_variant() {
    let context = create_context();
    let source = r#"
func.func @host(%d: !pld.dtensor<4x256xf32>, %h: !pld.dtensor<4x256xf16>, %i: !pld.dtensor<1x256xf32>,
                %s: !pld.dtensor<8xi32>, %s2: !pld.dtensor<8x2xi32>, %r: !pld.dtensor<7x4xi32>,
                %c: !pld.dtensor<4xi32>, %dev: index) attributes {pl.level = #pl.level<host>, pl.role = #pl.role<orchestrator>} {
  pld.builtin.allreduce %d, %s sum f32 cores 1 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x256xf32>, !pld.dtensor<8xi32>, index
  pld.builtin.allreduce %h, %s2 max f16 cores 2 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x256xf16>, !pld.dtensor<8x2xi32>, index
  pld.builtin.allreduce %d, %s prod f32 cores 1 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x256xf32>, !pld.dtensor<8xi32>, index
  pld.builtin.allreduce_ring %d, %r sum f32 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x256xf32>, !pld.dtensor<7x4xi32>, index
  pld.builtin.barrier %s on %dev directions [#pl.direction<inout>] : !pld.dtensor<8xi32>, index
  pld.builtin.broadcast %d, %s root 3 f32 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x256xf32>, !pld.dtensor<8xi32>, index
  pld.builtin.reduce_scatter %d, %s sum f32 on %dev directions [#pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<4x256xf32>, !pld.dtensor<8xi32>, index
  pld.builtin.allgather %i, %d, %s f32 on %dev directions [#pl.direction<in>, #pl.direction<inout>, #pl.direction<inout>] : !pld.dtensor<1x256xf32>, !pld.dtensor<4x256xf32>, !pld.dtensor<8xi32>, index
  return
}
"#;
    let module = Module::parse(&context, source).expect("parses");
    assert!(module.as_operation().verify());
    let function = module.body().first_operation().unwrap();
    let body = function.region(0).unwrap().first_block().unwrap();
    let mut names = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        names.push(variant(op));
        next = op.next_in_block();
    }
    let expected = [
        "builtin.tensor.allreduce__sum__fp32",
        "builtin.tensor.allreduce__max__fp16",
        "builtin.tensor.allreduce__prod__fp32",
        "builtin.tensor.allreduce_ring__sum__fp32",
        "builtin.tensor.barrier__fp32",
        "builtin.tensor.broadcast__root3__fp32",
        "builtin.tensor.reduce_scatter__sum__fp32",
        "builtin.tensor.allgather__fp32",
    ];
    let mut expected: Vec<Option<String>> = expected.iter().map(|s| Some(s.to_string())).collect();
    expected.push(None); // func.return
    assert_eq!(names, expected);
}
