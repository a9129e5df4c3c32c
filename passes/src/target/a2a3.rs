//! a2a3 (and a5) on-chip memories: capacities and alignments, and how a pl
//! tile is laid out in them — the storage pto-isa's `Tile<…>` declares.

use melior::ir::r#type::ShapedTypeLike;
use pto_dialects::{
    dtype::Dtype,
    enums::TileLayout,
    types::{MemorySpace, TileType},
};

/// The top of a2a3's 192 KiB UB that pto-isa's instructions use as their
/// own scratch, at a fixed address (`TMP_UB_OFFSET`, 8 KiB): a row-expand
/// with a column-major vector, some conversions and extracts write it. No
/// tile may be planned there.
pub const LIBRARY_SCRATCH_UB: (u64, u64) = (184 * 1024, 8 * 1024);

/// A memory space's capacity for planned tiles and its alignment, in bytes
/// (a2a3's UB without [`LIBRARY_SCRATCH_UB`]).
pub fn space_limits(space: MemorySpace, a5: bool) -> Option<(u64, u64)> {
    const KIB: u64 = 1024;
    Some(match space {
        MemorySpace::Vec => (if a5 { 248 * KIB } else { LIBRARY_SCRATCH_UB.0 }, 32),
        MemorySpace::Mat => (512 * KIB, 32),
        MemorySpace::Left | MemorySpace::Right => (64 * KIB, 512),
        MemorySpace::Acc => (if a5 { 256 } else { 128 } * KIB, 512),
        MemorySpace::Bias => (64 * KIB, 64),
        _ => return None,
    })
}

/// pto-isa's row alignment: a row-major tile without boxes has rows of a
/// multiple of 32 bytes (a column-major one, columns).
pub const ROW_ALIGNMENT_BYTES: i64 = 32;

/// Bits of one element of `dtype`.
pub fn element_bits(dtype: Option<Dtype>) -> u64 {
    match dtype {
        Some(
            Dtype::Bool
            | Dtype::I8
            | Dtype::U8
            | Dtype::F8E4M3FN
            | Dtype::F8E5M2
            | Dtype::F8E8M0
            | Dtype::Hf8,
        ) => 8,
        Some(Dtype::I16 | Dtype::U16 | Dtype::F16 | Dtype::Bf16) => 16,
        Some(Dtype::I32 | Dtype::U32 | Dtype::F32) => 32,
        Some(Dtype::F4 | Dtype::I4 | Dtype::U4 | Dtype::Hf4) => 4,
        _ => 64,
    }
}

/// The (block, box) layouts a tile is declared with: its view's, except
/// that the cube's left operand is row-major boxes on a2a3 (the pl view
/// is the a5 form).
pub fn declared_layouts(tile: TileType) -> (TileLayout, TileLayout) {
    match tile.memory_space() {
        Some(MemorySpace::Left) => (TileLayout::RowMajor, TileLayout::RowMajor),
        _ => {
            let view = tile.effective_view();
            (view.blayout, view.slayout)
        }
    }
}

/// The shape a 2-D tile is stored with: its own, with the rows of an
/// unboxed row-major tile (the columns of a column-major one) padded to
/// [`ROW_ALIGNMENT_BYTES`]. pto-isa rejects other unboxed tiles; the
/// padding lies outside the valid region, so no instruction reads it.
pub fn storage_shape(tile: TileType) -> Vec<i64> {
    let mut shape = tile.shape();
    let bits = element_bits(Dtype::of(tile.element())) as i64;
    if shape.len() != 2 || tile.memory_space().is_none() || bits < 8 {
        return shape;
    }
    let per_row = ROW_ALIGNMENT_BYTES * 8 / bits;
    let (blayout, slayout) = declared_layouts(tile);
    if slayout == TileLayout::NoneBox {
        let axis = if blayout == TileLayout::ColMajor {
            0
        } else {
            1
        };
        shape[axis] = shape[axis].saturating_add(per_row - 1) / per_row * per_row;
    }
    shape
}

/// Bytes a tile occupies: its storage shape (accumulator rows padded to
/// 16). Saturating: a tile that large fits no memory space, which is what
/// gets diagnosed.
pub fn tile_bytes(tile: TileType) -> u64 {
    let mut shape = storage_shape(tile);
    if tile.memory_space() == Some(MemorySpace::Acc) && shape.len() >= 2 {
        let rows = shape.len() - 2;
        shape[rows] = shape[rows].saturating_add(15) / 16 * 16;
    }
    let elements = shape
        .iter()
        .fold(1i64, |elements, &d| elements.saturating_mul(d));
    (elements.max(0) as u64)
        .saturating_mul(element_bits(Dtype::of(tile.element())))
        .div_ceil(8)
}
