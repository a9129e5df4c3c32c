//! Rules of the cross-core pipes and the boundaries of mixed kernels
//! (docs/pl-guide.md, "Mixed kernels"):
//! - each op runs on one side of a core group: pushes to and pops from the
//!   vector cores, frees to them and the cube set-up in aic kernels, the
//!   mirror ops in aiv kernels, reservations and imports in either;
//! - a cube pushes an `acc` tile and pops into `mat`, a vector core pushes
//!   and pops `vec` tiles; pushed and popped tiles are 2-D, and a split
//!   halves an even extent;
//! - a push or pop uses a pipe its kernel sets up, whose slots hold its
//!   tile;
//! - a free names the result of the pop it gives back;
//! - a pipe's set-up names the ways it carries tiles and takes exactly
//!   their rings, reserved on the consuming side and imported on the
//!   producing one, slots of a whole number of 32-byte lines, a depth in
//!   range; a reservation's name is unique in its kernel and an import
//!   names a reservation of the peer kernel (checked with the symbol uses);
//! - a boundary (`aiv_shard`, `aic_gather`) keeps the element type and
//!   halves or doubles the split extent.

use melior::ir::{
    BlockLike, RegionLike, Type, ValueLike,
    attribute::StringAttribute,
    operation::{OperationLike, OperationRef, OperationResult, WalkOrder, WalkResult},
    r#type::ShapedTypeLike,
};

use super::{
    VerifyResult,
    common::{Check, attribute_text, fail, mnemonic, operand_tile, result_tile, run_rule},
    functions::function_kind,
    system::int_attr,
};
use crate::{
    enums::{CoreSplit, EnumAttr, FunctionKind, PipeDirections},
    op_table::OpKind,
    ops::{Checked, enclosing_function, op_name},
    types::{MemorySpace, TensorType, TileType},
};

/// The most slots a pipe's ring has (pto-isa's rings are a few deep; more
/// is no pipe a core group could hold).
pub const MAX_SLOTS: i64 = 64;

/// The largest slot: the largest on-chip memory (a2a3's 512 KiB L1).
pub const MAX_SLOT_BYTES: i64 = 512 * 1024;

/// The pipe ids pto-isa's cross-core events leave room for.
pub const MAX_PIPE_ID: i64 = 7;

fn rule(kind: OpKind) -> Option<Check> {
    Some(match kind {
        OpKind::PlTileTpushToAiv | OpKind::PlTileTpushToAic => verify_push,
        OpKind::PlTileTpopFromAic | OpKind::PlTileTpopFromAiv => verify_pop,
        OpKind::PlSystemTfreeToAic | OpKind::PlSystemTfreeToAiv => verify_free,
        OpKind::PlSystemAicInitializePipe | OpKind::PlSystemAivInitializePipe => verify_initialize,
        OpKind::PlSystemReserveBuffer => verify_reserve,
        OpKind::PlSystemImportPeerBuffer => verify_side,
        OpKind::PlTileAivShard
        | OpKind::PlTileAicGather
        | OpKind::PlTensorAivShard
        | OpKind::PlTensorAicGather => verify_boundary,
        _ => return None,
    })
}

/// Whether the cross-core rules cover `kind`.
pub fn handles(kind: OpKind) -> bool {
    rule(kind).is_some()
}

/// Runs the rules of a cross-core op.
pub fn verify<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    run_rule(op, kind, rule(kind), "cross_core")
}

/// The core an op runs on: `Some(Aic)` or `Some(Aiv)`, `None` for either.
fn side(kind: OpKind) -> Option<FunctionKind> {
    match kind {
        OpKind::PlTileTpushToAiv
        | OpKind::PlTileTpopFromAiv
        | OpKind::PlSystemTfreeToAiv
        | OpKind::PlSystemAicInitializePipe => Some(FunctionKind::Aic),
        OpKind::PlTileTpushToAic
        | OpKind::PlTileTpopFromAic
        | OpKind::PlSystemTfreeToAic
        | OpKind::PlSystemAivInitializePipe => Some(FunctionKind::Aiv),
        _ => None,
    }
}

/// The op sits in a kernel of its side (the reservations in either).
fn verify_side<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let Some(function) = enclosing_function(op) else {
        return Ok(());
    };
    let have = function_kind(function);
    let fits = match side(kind) {
        Some(want) => have == Some(want),
        None => matches!(have, Some(FunctionKind::Aic | FunctionKind::Aiv)),
    };
    if fits {
        return Ok(());
    }
    let want = match side(kind) {
        Some(FunctionKind::Aic) => "runs on the cube core: it belongs in an aic kernel",
        Some(_) => "runs on a vector core: it belongs in an aiv kernel",
        None => "sets up a pipe of a core group: it belongs in an aic or aiv kernel",
    };
    fail(format!(
        "{} {want}, not in {}",
        mnemonic(kind),
        have.map_or("a function without pl.kind".to_string(), |k| format!(
            "a function of kind {k}"
        ))
    ))
}

/// A pushed or popped tile: 2-D, in `space` once placed, its split extent
/// even.
fn require_pipe_tile<'c>(
    what: &str,
    tile: TileType,
    space: MemorySpace,
    split: Option<CoreSplit>,
) -> VerifyResult<'c> {
    if tile.rank() != 2 {
        return fail(format!(
            "{what} must be a 2-D tile, got rank {}",
            tile.rank()
        ));
    }
    if let Some(have) = tile.memory_space()
        && have != space
    {
        return fail(format!("{what} must be in '{space}', got '{have}'"));
    }
    let shape = tile.shape();
    let axis = match split {
        Some(CoreSplit::UpDown) => Some(0),
        Some(CoreSplit::LeftRight) => Some(1),
        _ => None,
    };
    if let Some(axis) = axis
        && shape[axis] % 2 != 0
    {
        return fail(format!(
            "{what} is split {}, but its {} ({}) are odd: the two vector cores take equal halves",
            split.map_or(String::new(), |s| s.to_string()),
            if axis == 0 { "rows" } else { "columns" },
            shape[axis]
        ));
    }
    Ok(())
}

/// The kernel sets pipe `id` up, with slots that hold `tile`.
fn require_pipe<'c>(op: OperationRef<'c, '_>, tile: TileType, what: &str) -> VerifyResult<'c> {
    let Some(function) = enclosing_function(op) else {
        return Ok(());
    };
    let id = int_attr(op, "id").unwrap_or(0);
    let Some(setup) = pipe_setups(function)
        .into_iter()
        .map(|(s, _)| s)
        .find(|s| s.id == id)
    else {
        return fail(format!(
            "pipe {id} is not set up in this kernel (pl.system.aic_initialize_pipe / aiv_initialize_pipe)"
        ));
    };
    let bytes =
        tile.shape().iter().product::<i64>() * super::common::element_bytes(tile).unwrap_or(1);
    let slot = setup.slot_size.unwrap_or(0);
    if bytes > slot {
        return fail(format!(
            "{what} takes {bytes} bytes, more than pipe {id}'s {slot}-byte slot"
        ));
    }
    Ok(())
}

/// A push: a cube pushes `acc` (f32 or i32, what a matmul makes), a vector
/// core `vec`.
fn verify_push<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    verify_side(op, kind)?;
    let tile = operand_tile(op, 0)?;
    let split = op.enum_attr::<CoreSplit>("split");
    verify_id(op)?;
    if kind == OpKind::PlTileTpushToAiv {
        require_pipe_tile("the pushed tile", tile, MemorySpace::Acc, split)?;
        let element = tile.element().to_string();
        if element != "f32" && element != "i32" {
            return fail(format!(
                "the pushed tile is an accumulator: its element type must be f32 or i32, got {element}"
            ));
        }
    } else {
        require_pipe_tile("the pushed tile", tile, MemorySpace::Vec, None)?;
    }
    require_pipe(op, tile, "the pushed tile")
}

/// A pop: a vector core pops into `vec`, the cube into `mat`.
fn verify_pop<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    verify_side(op, kind)?;
    verify_id(op)?;
    let tile = result_tile(op, 0)?;
    if kind == OpKind::PlTileTpopFromAic {
        require_pipe_tile("the popped tile", tile, MemorySpace::Vec, None)?;
    } else {
        let split = op.enum_attr::<CoreSplit>("split");
        require_pipe_tile("the popped tile", tile, MemorySpace::Mat, split)?;
    }
    require_pipe(op, tile, "the popped tile")
}

fn verify_id<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    let id = int_attr(op, "id").unwrap_or(0);
    if !(0..=MAX_PIPE_ID).contains(&id) {
        return fail(format!("pipe id must be in [0, {MAX_PIPE_ID}], got {id}"));
    }
    Ok(())
}

/// A free gives back what its side's pop returned.
fn verify_free<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    verify_side(op, kind)?;
    let pop = if kind == OpKind::PlSystemTfreeToAic {
        OpKind::PlTileTpopFromAic
    } else {
        OpKind::PlTileTpopFromAiv
    };
    let popped = op
        .operand_opt(0)
        .and_then(|v| OperationResult::try_from(v).ok())
        .map(|r| r.owner());
    if popped.and_then(|p| crate::op_table::kind(&p)) != Some(pop) {
        return fail(format!(
            "{} gives back a slot: its operand must be the result of a {}",
            mnemonic(kind),
            pop.name()
        ));
    }
    Ok(())
}

/// What defines `value`, if an op does.
fn defining_kind(value: Option<melior::ir::Value>) -> Option<OpKind> {
    let result = OperationResult::try_from(value?).ok()?;
    crate::op_table::kind(&result.owner())
}

/// A pipe's set-up: its rings by its directions, where they come from, its
/// slots.
fn verify_initialize<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    verify_side(op, kind)?;
    verify_id(op)?;
    let directions = op.enum_attr::<PipeDirections>("directions");
    let segments = super::common::operand_segments(op);
    let operand = |segment: usize| {
        segments
            .get(segment)
            .filter(|(_, len)| *len == 1)
            .and_then(|(start, _)| op.operand_opt(*start))
    };
    let (c2v, v2c) = (operand(0), operand(1));
    let carries_c2v = matches!(directions, Some(PipeDirections::C2v | PipeDirections::Both));
    let carries_v2c = matches!(directions, Some(PipeDirections::V2c | PipeDirections::Both));
    let on_cube = kind == OpKind::PlSystemAicInitializePipe;
    for (way, carries, ring, consumer_is_here) in [
        ("c2v", carries_c2v, c2v, !on_cube),
        ("v2c", carries_v2c, v2c, on_cube),
    ] {
        match (carries, ring) {
            (true, None) => {
                return fail(format!(
                    "a pipe that carries {way} takes the {way} ring's address"
                ));
            }
            (false, Some(_)) => {
                return fail(format!(
                    "a pipe that does not carry {way} takes no {way} ring"
                ));
            }
            (true, Some(ring)) => {
                let (want, how) = if consumer_is_here {
                    (OpKind::PlSystemReserveBuffer, "reserves")
                } else {
                    (OpKind::PlSystemImportPeerBuffer, "imports")
                };
                if defining_kind(Some(ring)) != Some(want) {
                    return fail(format!(
                        "the {way} ring is the one this kernel {how}: it must be the result of a {}",
                        want.name()
                    ));
                }
            }
            (false, None) => {}
        }
    }
    let slot_size = int_attr(op, "slot_size").unwrap_or(0);
    if slot_size <= 0 || slot_size % 32 != 0 || slot_size > MAX_SLOT_BYTES {
        return fail(format!(
            "slot_size must be a positive multiple of 32 bytes of at most {MAX_SLOT_BYTES}, got {slot_size}"
        ));
    }
    let slots = int_attr(op, "slot_num").unwrap_or(0);
    if !(1..=MAX_SLOTS).contains(&slots) {
        return fail(format!("slots must be in [1, {MAX_SLOTS}], got {slots}"));
    }
    if let Some(gm) = operand(2) {
        verify_gm_buffer(op, gm, slot_size * slots)?;
    }
    if let Some(local) = int_attr(op, "local_slot_num")
        && !(1..=slots).contains(&local)
    {
        return fail(format!(
            "local slots must be in [1, {slots}] (the ring's slots), got {local}"
        ));
    }
    Ok(())
}

/// A pipe's global-memory slot buffer: a parameter of the kernel (the
/// group hands the same buffer to both halves), a tensor of static shape
/// holding every slot.
fn verify_gm_buffer<'c>(
    op: OperationRef<'c, '_>,
    gm: melior::ir::Value<'c, '_>,
    needed: i64,
) -> VerifyResult<'c> {
    let is_parameter = crate::ir::block_argument(gm).is_some_and(|argument| {
        let function = enclosing_function(op);
        argument
            .owner()
            .parent_operation()
            .is_some_and(|o| Some(o) == function)
    });
    if !is_parameter {
        return fail(
            "the gm slot buffer must be a parameter of the kernel: the group passes the same buffer to both halves",
        );
    }
    let tensor = TensorType::try_from(gm.r#type()).ok();
    let bytes = tensor.and_then(|t| {
        let elements = t
            .shape()
            .into_iter()
            .try_fold(1i64, |n, e| n.checked_mul(e?))?;
        let bits = crate::dtype::ScalarKind::of(t.element())?.bits();
        elements.checked_mul(i64::from(bits.div_ceil(8)))
    });
    match bytes {
        None => fail("the gm slot buffer must be a tensor of static shape"),
        Some(bytes) if bytes < needed => fail(format!(
            "the gm slot buffer holds {bytes} bytes, but the pipe's slots take {needed} (slot_size × slots)"
        )),
        Some(_) => Ok(()),
    }
}

/// A reservation: a positive size of whole 32-byte lines, an aligned base,
/// a name of its own in the kernel.
fn verify_reserve<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    verify_side(op, kind)?;
    let size = int_attr(op, "size").unwrap_or(0);
    if size <= 0 || size % 32 != 0 || size > MAX_SLOTS * MAX_SLOT_BYTES {
        return fail(format!(
            "the reserved size must be a positive multiple of 32 bytes, got {size}"
        ));
    }
    if let Some(base) = int_attr(op, "base")
        && (base < 0 || base % 32 != 0)
    {
        return fail(format!(
            "the reserved base must be a non-negative multiple of 32, got {base}"
        ));
    }
    let name = buffer_name(op);
    if let Some(function) = enclosing_function(op) {
        let mut same = 0;
        function.walk(WalkOrder::PreOrder, |other| {
            if crate::op_table::kind(&other) == Some(OpKind::PlSystemReserveBuffer)
                && buffer_name(other) == name
            {
                same += 1;
            }
            WalkResult::Advance
        });
        if same > 1 {
            return fail(format!(
                "the kernel reserves '{}' {same} times: a ring's name is its own",
                name.unwrap_or_default()
            ));
        }
    }
    Ok(())
}

/// The `name` of a reservation or import.
pub fn buffer_name(op: OperationRef) -> Option<String> {
    let attribute = op.attribute("name").ok()?;
    StringAttribute::try_from(attribute)
        .ok()
        .map(|s| s.value().to_string())
}

/// `pl.system.import_peer_buffer`'s symbol use: `peer` is the other core's
/// kernel, and reserves the buffer.
pub fn verify_peer<'c>(op: OperationRef<'c, '_>) -> VerifyResult<'c> {
    let peer = op
        .attribute("peer")
        .ok()
        .and_then(attribute_text)
        .unwrap_or_default();
    let here = enclosing_function(op).and_then(function_kind);
    let Some(function) = super::functions::named_function(op, &peer) else {
        // A resolved import (its base recorded) stands alone: its kernel
        // is translated apart from its peer.
        if int_attr(op, "base").is_some() {
            return Ok(());
        }
        return fail(format!("'@{peer}' does not name a function"));
    };
    let want = match here {
        Some(FunctionKind::Aic) => FunctionKind::Aiv,
        _ => FunctionKind::Aic,
    };
    if function_kind(function) != Some(want) {
        return fail(format!(
            "imports from the other core of the group, an {want} kernel, but '@{peer}' is {}",
            function_kind(function)
                .map_or("a function without pl.kind".to_string(), |k| format!("{k}"))
        ));
    }
    let name = buffer_name(op);
    let mut found = None;
    function.walk(WalkOrder::PreOrder, |other| {
        if crate::op_table::kind(&other) == Some(OpKind::PlSystemReserveBuffer)
            && buffer_name(other) == name
        {
            found = Some(int_attr(other, "base"));
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    let Some(reserved_base) = found else {
        return fail(format!(
            "'@{peer}' reserves no buffer '{}'",
            name.unwrap_or_default()
        ));
    };
    if let (Some(base), Some(reserved)) = (int_attr(op, "base"), reserved_base)
        && base != reserved
    {
        return fail(format!(
            "records base {base}, but '@{peer}' reserves '{}' at {reserved}",
            name.unwrap_or_default()
        ));
    }
    Ok(())
}

/// The extents of a boundary's operand or result and its element type.
fn extents(value: Type) -> Option<(Vec<Option<i64>>, Type)> {
    if let Ok(tile) = TileType::try_from(value) {
        return Some((tile.shape().into_iter().map(Some).collect(), tile.element()));
    }
    let tensor = TensorType::try_from(value).ok()?;
    Some((tensor.shape(), tensor.element()))
}

/// A boundary halves (`aiv_shard`) or doubles (`aic_gather`) the split
/// extent of a 2-D value and keeps its element type; a tile's spaces are
/// the sides' (`acc` to `vec`, `vec` to `mat`).
fn verify_boundary<'c>(op: OperationRef<'c, '_>, kind: OpKind) -> VerifyResult<'c> {
    let (Some(input), Some(output)) = (
        op.operand_opt(0).map(|v| v.r#type()),
        op.result_opt(0).map(|r| r.r#type()),
    ) else {
        return Ok(());
    };
    let (Some((from, from_element)), Some((to, to_element))) = (extents(input), extents(output))
    else {
        return fail("a boundary carries a tile or a (non-distributed) tensor");
    };
    if from_element != to_element {
        return fail(format!(
            "the result's element type must be the operand's, {from_element}, got {to_element}"
        ));
    }
    let shard = matches!(kind, OpKind::PlTileAivShard | OpKind::PlTensorAivShard);
    if let (Ok(a), Ok(b)) = (TileType::try_from(input), TileType::try_from(output)) {
        let (want_in, want_out) = if shard {
            (MemorySpace::Acc, MemorySpace::Vec)
        } else {
            (MemorySpace::Vec, MemorySpace::Mat)
        };
        for (what, tile, want) in [("operand", a, want_in), ("result", b, want_out)] {
            if let Some(have) = tile.memory_space()
                && have != want
            {
                return fail(format!("the {what} must be in '{want}', got '{have}'"));
            }
        }
    }
    let split = op.enum_attr::<CoreSplit>("split");
    let axis = match split {
        Some(CoreSplit::UpDown) => 0,
        Some(CoreSplit::LeftRight) => 1,
        _ => {
            if from != to {
                return fail(format!(
                    "with split none the result has the operand's shape, {}",
                    super::common::render_dims(&from)
                ));
            }
            return Ok(());
        }
    };
    if from.len() != 2 || to.len() != 2 {
        return fail(format!(
            "a split boundary carries a 2-D value, got rank {}",
            from.len()
        ));
    }
    let mut want = from.clone();
    want[axis] = match (from[axis], shard) {
        (Some(n), true) if n % 2 != 0 => {
            return fail(format!(
                "the operand's {} ({n}) are odd: the two vector cores take equal halves",
                if axis == 0 { "rows" } else { "columns" }
            ));
        }
        (Some(n), true) => Some(n / 2),
        (Some(n), false) => n.checked_mul(2),
        (None, _) => None,
    };
    if to != want {
        return fail(format!(
            "split {} {} the {}: the result must be {}, got {}",
            split.map_or(String::new(), |s| s.to_string()),
            if shard { "halves" } else { "doubles" },
            if axis == 0 { "rows" } else { "columns" },
            super::common::render_dims(&want),
            super::common::render_dims(&to)
        ));
    }
    Ok(())
}

/// A group's body (its own ops only, as function verification runs
/// beside passes rewriting other functions): constants, one or two calls,
/// its return. [`verify_group_call`] checks what the calls name.
pub fn verify_group<'c>(function: OperationRef<'c, '_>) -> VerifyResult<'c> {
    let Some(body) = function.region_opt(0).and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let mut calls = 0;
    let mut op = body.first_operation();
    while let Some(current) = op {
        let name = op_name(current);
        match name {
            "arith.constant" | "func.return" | "pl.tensor.create" => {}
            "pl.call" => calls += 1,
            _ => {
                return fail(format!(
                    "a group only launches its aic and aiv kernels (pl.call) and makes their pipes' gm slot buffers (pl.tensor.create), found {name}"
                ));
            }
        }
        op = current.next_in_block();
    }
    if !(1..=2).contains(&calls) {
        return fail(format!(
            "a group launches an aic kernel, an aiv kernel or both, but makes {calls} calls"
        ));
    }
    Ok(())
}

/// A call in a group (checked with the symbol uses, once every function
/// is still): it names an aic or an aiv kernel, the group's other call the
/// other core's, and both halves set their shared pipes up alike.
pub fn verify_group_call<'c>(call: OperationRef<'c, '_>) -> VerifyResult<'c> {
    let Some(group) = enclosing_function(call) else {
        return Ok(());
    };
    let callee_of = |op: OperationRef| {
        op.attribute("callee")
            .ok()
            .and_then(attribute_text)
            .unwrap_or_default()
    };
    let callee = callee_of(call);
    let kind = super::functions::named_function(call, &callee).and_then(function_kind);
    let Some(kind @ (FunctionKind::Aic | FunctionKind::Aiv)) = kind else {
        return fail(format!(
            "a group launches an aic and an aiv kernel, but '@{callee}' is {}",
            kind.map_or("a function without pl.kind".to_string(), |k| format!("{k}"))
        ));
    };
    let mut members: Vec<(FunctionKind, String, OperationRef)> = Vec::new();
    for op in crate::ir::collect(group, WalkOrder::PreOrder, |op| {
        crate::op_table::kind(&op) == Some(OpKind::PlCall)
    }) {
        let name = callee_of(op);
        if let Some(k) = super::functions::named_function(op, &name).and_then(function_kind) {
            members.push((k, name, op));
        }
    }
    if members.iter().filter(|(k, _, _)| *k == kind).count() > 1 {
        return fail(format!(
            "a group launches one aic and one aiv kernel, but calls two {kind} kernels"
        ));
    }
    members.sort_by_key(|(k, _, _)| *k != FunctionKind::Aic);
    let [
        (FunctionKind::Aic, aic_name, aic_call),
        (FunctionKind::Aiv, aiv_name, aiv_call),
    ] = members.as_slice()
    else {
        // The launches pair the two calls into one mixed task: a lone
        // kernel would not be launched at all.
        return fail(format!(
            "a group launches one aic and one aiv kernel together, but calls only '@{callee}'"
        ));
    };
    // Checked once, from the aic half's call.
    if kind != FunctionKind::Aic {
        return Ok(());
    }
    let setups = |name: &str| {
        super::functions::named_function(call, name)
            .map(pipe_setups)
            .unwrap_or_default()
    };
    let (aic, aiv) = (setups(aic_name), setups(aiv_name));
    for (these, those, here, there) in [
        (&aic, &aiv, aic_name, aiv_name),
        (&aiv, &aic, aiv_name, aic_name),
    ] {
        for (setup, _) in these {
            match those.iter().find(|(o, _)| o.id == setup.id) {
                None => {
                    return fail(format!(
                        "pipe {} is set up by @{here} but not by @{there}",
                        setup.id
                    ));
                }
                Some((other, _)) if other != setup => {
                    return fail(format!(
                        "pipe {} is set up differently by @{here} ({setup}) and @{there} ({other})",
                        setup.id
                    ));
                }
                Some(_) => {}
            }
        }
    }
    for (setup, aic_gm) in &aic {
        let Some((_, aiv_gm)) = aiv.iter().find(|(o, _)| o.id == setup.id) else {
            continue;
        };
        let aic_passed = aic_gm.and_then(|i| aic_call.operand_opt(i));
        let aiv_passed = aiv_gm.and_then(|i| aiv_call.operand_opt(i));
        match (aic_passed, aiv_passed) {
            (None, None) => {}
            (Some(a), Some(b)) if a == b => {}
            (Some(_), Some(_)) => {
                return fail(format!(
                    "the group passes different gm slot buffers to @{aic_name} and @{aiv_name} for pipe {}",
                    setup.id
                ));
            }
            _ => {
                return fail(format!(
                    "pipe {} has a gm slot buffer in one half of the group only",
                    setup.id
                ));
            }
        }
    }
    let halves: Vec<OperationRef> = [aic_name, aiv_name]
        .iter()
        .filter_map(|name| super::functions::named_function(call, name))
        .collect();
    if let Err(why) = group_lanes(&halves) {
        return fail(format!("the group of @{aic_name} and @{aiv_name}: {why}"));
    }
    Ok(())
}

/// Why a core group whose pipes mix `none` and split transfers is refused.
pub const MIXED_SPLITS: &str = "its pipes mix `none` and split transfers: a split runs the aiv kernel on both vector cores, and pto-isa gives vector core 1 no tile through a `none` pipe (split every transfer, or none)";

/// How many vector cores run a core group of `kernels` (its aic and aiv
/// kernels): two when a push or pop splits its tile between them, one
/// (vector core 0, pto-isa's one-to-one `TILE_NO_SPLIT`) when every
/// transfer is `none`; [`MIXED_SPLITS`] when they mix. The one answer the
/// verifier, pto-run and the launches of every target read.
pub fn group_lanes(kernels: &[OperationRef]) -> Result<u32, &'static str> {
    let (mut split, mut whole) = (false, false);
    for kernel in kernels {
        kernel.walk(WalkOrder::PreOrder, |op| {
            if matches!(
                crate::op_table::kind(&op),
                Some(
                    OpKind::PlTileTpushToAiv
                        | OpKind::PlTileTpushToAic
                        | OpKind::PlTileTpopFromAic
                        | OpKind::PlTileTpopFromAiv
                )
            ) {
                if op.enum_attr::<CoreSplit>("split") == Some(CoreSplit::None) {
                    whole = true;
                } else {
                    split = true;
                }
            }
            WalkResult::Advance
        });
    }
    match (split, whole) {
        (true, true) => Err(MIXED_SPLITS),
        (true, false) => Ok(2),
        _ => Ok(1),
    }
}

/// What the two halves of a group must agree on about a pipe.
#[derive(Debug, PartialEq, Eq)]
struct PipeSetup {
    id: i64,
    directions: Option<PipeDirections>,
    slot_size: Option<i64>,
    slots: Option<i64>,
}

impl std::fmt::Display for PipeSetup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} slot_size {} slots {}",
            self.directions.map_or("?".to_string(), |d| d.to_string()),
            self.slot_size.unwrap_or(0),
            self.slots.unwrap_or(0)
        )
    }
}

/// The set-ups of `function`'s pipes, each with the parameter that is its
/// gm slot buffer, if it has one.
fn pipe_setups(function: OperationRef) -> Vec<(PipeSetup, Option<usize>)> {
    let mut setups = Vec::new();
    function.walk(WalkOrder::PreOrder, |op| {
        if matches!(
            crate::op_table::kind(&op),
            Some(OpKind::PlSystemAicInitializePipe | OpKind::PlSystemAivInitializePipe)
        ) {
            let segments = super::common::operand_segments(op);
            let gm = segments
                .get(2)
                .filter(|(_, len)| *len == 1)
                .and_then(|(start, _)| op.operand_opt(*start))
                .and_then(crate::ir::block_argument)
                .map(|a| a.argument_number());
            let setup = PipeSetup {
                id: int_attr(op, "id").unwrap_or(0),
                directions: op.enum_attr::<PipeDirections>("directions"),
                slot_size: int_attr(op, "slot_size"),
                slots: int_attr(op, "slot_num"),
            };
            setups.push((setup, gm));
        }
        WalkResult::Advance
    });
    setups
}
