//! Builds pl/pld IR with the generated builders and checks that the Rust
//! verifier accepts good IR and rejects bad IR with its diagnostic.

use melior::{
    Context,
    dialect::func,
    ir::{
        Block, BlockLike, Location, Module, Region, RegionLike,
        attribute::{StringAttribute, TypeAttribute},
        operation::OperationLike,
        r#type::{FunctionType, IntegerType},
    },
};
use pto_dialects::{
    create_context, ops,
    types::{MemorySpace, TileType},
};

/// Builds `func @f(%src: <from>) -> <to> { %r = pl.tile.move %src; return %r }`.
fn build_move<'c>(context: &'c Context, from: TileType<'c>, to: TileType<'c>) -> Module<'c> {
    let location = Location::unknown(context);
    let module = Module::new(location);
    let block = Block::new(&[(from.into(), location)]);
    let moved = block.append_operation(
        ops::pl::tile_move(
            context,
            to.into(),
            block.argument(0).unwrap().into(),
            location,
        )
        .into(),
    );
    block.append_operation(func::r#return(&[moved.result(0).unwrap().into()], location));
    let region = Region::new();
    region.append_block(block);
    module.body().append_operation(func::func(
        context,
        StringAttribute::new(context, "f"),
        TypeAttribute::new(FunctionType::new(context, &[from.into()], &[to.into()]).into()),
        region,
        &[],
        location,
    ));
    module
}

#[test]
fn legal_move_verifies() {
    let context = create_context();
    let f16 = melior::ir::Type::float16(&context);
    let mat = TileType::new(&context, &[64, 64], f16, Some(MemorySpace::Mat));
    let left = TileType::new(&context, &[64, 64], f16, Some(MemorySpace::Left));
    let module = build_move(&context, mat, left);
    assert!(module.as_operation().verify());
    let text = module.as_operation().to_string();
    assert!(
        text.contains("pl.tile.move %arg0 : !pl.tile<64x64xf16, mat> -> !pl.tile<64x64xf16, left>"),
        "{text}"
    );
}

#[test]
fn illegal_move_is_rejected_with_its_diagnostic() {
    let context = create_context();
    let captured = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let sink = captured.clone();
    context.attach_diagnostic_handler(move |diagnostic| {
        sink.lock().unwrap().push(diagnostic.to_string());
        true
    });
    let i32_type = IntegerType::new(&context, 32).into();
    let left = TileType::new(&context, &[16, 16], i32_type, Some(MemorySpace::Left));
    let right = TileType::new(&context, &[16, 16], i32_type, Some(MemorySpace::Right));
    let module = build_move(&context, left, right);
    assert!(!module.as_operation().verify());
    let messages = captured.lock().unwrap().join("\n");
    assert!(
        messages.contains("'pl.tile.move' op cannot move a tile from 'left' to 'right' on a2a3"),
        "{messages}"
    );
}

#[test]
fn memory_space_codes_match_the_ods_enum() {
    let context = create_context();
    for &space in MemorySpace::ALL {
        if matches!(space, MemorySpace::Ddr | MemorySpace::ScalarLocal) {
            continue; // tiles never live there (the type verifier rejects it)
        }
        let text = format!("!pl.tile<4x4xf32, {}>", space.keyword());
        let parsed = melior::ir::Type::parse(&context, &text).expect("tile type parses");
        let tile = TileType::try_from(parsed).unwrap();
        assert_eq!(tile.memory_space(), Some(space), "{text}");
        assert_eq!(tile.to_string(), text);
    }
}

#[test]
fn tile_views_are_canonical_and_resolve_to_the_implicit_view() {
    use pto_dialects::types::{PadValue, TileLayout, TileView};
    let context = create_context();
    let f32_type = melior::ir::Type::float32(&context);

    // A column in vec: implicit blocks are col_major, so stating it changes nothing.
    let column = TileType::new(&context, &[64, 1], f32_type, Some(MemorySpace::Vec));
    let stated = TileType::with_view(
        &context,
        &[64, 1],
        f32_type,
        Some(MemorySpace::Vec),
        &TileView {
            blayout: Some(TileLayout::ColMajor),
            ..Default::default()
        },
    );
    assert_eq!(column, stated);
    assert_eq!(column.effective_view().blayout, TileLayout::ColMajor);

    // Mat is the NZ fractal layout; acc uses 1024-byte boxes.
    let mat = TileType::new(&context, &[16, 16], f32_type, Some(MemorySpace::Mat)).effective_view();
    assert_eq!(
        (mat.blayout, mat.slayout, mat.fractal),
        (TileLayout::ColMajor, TileLayout::RowMajor, 512)
    );
    let acc = TileType::new(&context, &[16, 16], f32_type, Some(MemorySpace::Acc)).effective_view();
    assert_eq!(acc.fractal, 1024);

    // A partial, padded tile prints its view and keeps a dynamic extent.
    let partial = TileType::with_view(
        &context,
        &[64, 128],
        f32_type,
        Some(MemorySpace::Vec),
        &TileView {
            valid_shape: Some(vec![None, Some(100)]),
            pad: Some(PadValue::Zero),
            ..Default::default()
        },
    );
    assert_eq!(
        partial.to_string(),
        "!pl.tile<64x128xf32, vec, valid = ?x100, pad = zero>"
    );
    assert_eq!(partial.effective_view().valid_shape, vec![None, Some(100)]);

    // Every layout and pad keyword round-trips through the parser.
    for layout in TileLayout::ALL {
        let text = format!("!pl.tile<4x4xf32, vec, slayout = {layout}>");
        let parsed = TileType::try_from(melior::ir::Type::parse(&context, &text).unwrap()).unwrap();
        assert_eq!(parsed.effective_view().slayout, *layout, "{text}");
    }
    for pad in PadValue::ALL {
        let text = format!("!pl.tile<4x4xf32, pad = {pad}>");
        let parsed = TileType::try_from(melior::ir::Type::parse(&context, &text).unwrap()).unwrap();
        assert_eq!(parsed.effective_view().pad, *pad, "{text}");
    }
}
