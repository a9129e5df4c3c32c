//! Builds a vector kernel with the Rust API (typed types, attributes and
//! the op builders generated from the ODS), verifies it, and checks that
//! the verifier catches a kernel that breaks a rule.

use melior::{
    Context,
    dialect::{arith, func},
    ir::{
        Attribute, Block, BlockLike, Identifier, Location, Module, Region, RegionLike, Type, Value,
        attribute::{IntegerAttribute, StringAttribute, TypeAttribute},
        operation::OperationLike,
        r#type::FunctionType,
    },
};
use pto_dialects::{
    attrs, create_context,
    enums::{FunctionKind, ParamDirection},
    ops::{self, pl},
    types::{MemorySpace, TensorType, TileType},
};

/// `func @exp_kernel(%x, %y {out}) -> tensor attributes {pl.kind = ...}`:
/// load a tile, exponentiate, store.
fn build_exp_kernel<'c>(
    context: &'c Context,
    kind: FunctionKind,
    space: MemorySpace,
) -> Module<'c> {
    let location = Location::unknown(context);
    let f32_type = Type::float32(context);
    let tensor: Type = TensorType::new(context, &[Some(64), Some(128)], f32_type).into();
    let tile: Type = TileType::new(context, &[64, 128], f32_type, Some(space)).into();
    let index = Type::index(context);

    let block = Block::new(&[(tensor, location), (tensor, location)]);
    let (x, y): (Value, Value) = (
        block.argument(0).unwrap().into(),
        block.argument(1).unwrap().into(),
    );
    let zero = block.append_operation(arith::constant(
        context,
        IntegerAttribute::new(index, 0).into(),
        location,
    ));
    let c0: Value = zero.result(0).unwrap().into();
    let load = pl::TileLoadOperation::builder(context, location)
        .source(x)
        .offsets(&[c0, c0])
        .valid_sizes(&[])
        .result(tile)
        .build();
    // Groups: source, offsets, valid sizes.
    let loaded =
        block.append_operation(ops::with_operand_segments(context, load.into(), &[1, 2, 0]));
    let exp = block
        .append_operation(pl::tile_exp(context, loaded.result(0).unwrap().into(), location).into());
    let stored = block.append_operation(
        pl::TileStoreOperation::builder(context, location)
            .tile(exp.result(0).unwrap().into())
            .destination(y)
            .offsets(&[c0, c0])
            .result(tensor)
            .build()
            .into(),
    );
    block.append_operation(func::r#return(
        &[stored.result(0).unwrap().into()],
        location,
    ));

    let region = Region::new();
    region.append_block(block);
    let no_attrs = Attribute::parse(context, "{}").unwrap();
    let out = Attribute::parse(
        context,
        &format!(
            "{{pl.direction = {}}}",
            attrs::direction(context, ParamDirection::Out)
        ),
    )
    .unwrap();
    let module = Module::new(location);
    module.body().append_operation(func::func(
        context,
        StringAttribute::new(context, "exp_kernel"),
        TypeAttribute::new(FunctionType::new(context, &[tensor, tensor], &[tensor]).into()),
        region,
        &[
            (
                Identifier::new(context, "pl.kind"),
                attrs::function_kind(context, kind),
            ),
            (
                Identifier::new(context, "arg_attrs"),
                Attribute::parse(context, &format!("[{no_attrs}, {out}]")).unwrap(),
            ),
        ],
        location,
    ));
    module
}

#[test]
fn a_vector_kernel_built_in_rust_verifies() {
    let context = create_context();
    let module = build_exp_kernel(&context, FunctionKind::Aiv, MemorySpace::Vec);
    assert!(module.as_operation().verify());
    let text = module.as_operation().to_string();
    for expected in [
        "attributes {pl.kind = #pl.kind<aiv>}",
        "{pl.direction = #pl.direction<out>}",
        "pl.tile.load %arg0[%c0, %c0] : !pl.tensor<64x128xf32> -> !pl.tile<64x128xf32, vec>",
        "pl.tile.exp %0 : !pl.tile<64x128xf32, vec>",
        "pl.tile.store %1, %arg1[%c0, %c0] : !pl.tile<64x128xf32, vec>, !pl.tensor<64x128xf32>",
    ] {
        assert!(text.contains(expected), "missing `{expected}` in\n{text}");
    }
    let kind = module
        .body()
        .first_operation()
        .unwrap()
        .attribute("pl.kind")
        .unwrap();
    assert_eq!(
        attrs::read(kind),
        Some(attrs::FunctionAttr::Kind(FunctionKind::Aiv))
    );
}

#[test]
fn the_verifier_rejects_the_same_kernel_on_the_cube_core() {
    let context = create_context();
    let messages = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let sink = messages.clone();
    context.attach_diagnostic_handler(move |diagnostic| {
        sink.lock().unwrap().push_str(&diagnostic.to_string());
        true
    });
    // A vector-space tile in a cube (aic) kernel.
    let module = build_exp_kernel(&context, FunctionKind::Aic, MemorySpace::Vec);
    assert!(!module.as_operation().verify());
    let messages = messages.lock().unwrap();
    assert!(
        messages.contains("an aic (cube) kernel holds no vec tiles"),
        "{messages}"
    );
}

#[test]
fn every_enum_keyword_round_trips_through_its_attribute() {
    use pto_dialects::enums::{Level, Role};
    let context = create_context();
    for &kind in FunctionKind::ALL {
        assert_eq!(
            attrs::read(attrs::function_kind(&context, kind)),
            Some(attrs::FunctionAttr::Kind(kind))
        );
    }
    for &level in Level::ALL {
        assert_eq!(
            attrs::read(attrs::level(&context, level)),
            Some(attrs::FunctionAttr::Level(level))
        );
    }
    for &role in Role::ALL {
        assert_eq!(
            attrs::read(attrs::role(&context, role)),
            Some(attrs::FunctionAttr::Role(role))
        );
    }
    for &direction in ParamDirection::ALL {
        assert_eq!(
            attrs::read(attrs::direction(&context, direction)),
            Some(attrs::FunctionAttr::Direction(direction))
        );
    }
}
