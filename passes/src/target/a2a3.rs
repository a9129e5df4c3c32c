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

/// The a2a3 device's cores as the runtime launches on them (the 910B-class
/// part: 24 core groups of one cube core and two vector cores):
/// `pl.system.available_cluster_count` and `available_aiv_count`, in
/// pto-run and the simulator.
pub const CLUSTERS: u64 = 24;
/// Vector cores per core group.
pub const AIV_PER_CLUSTER: u64 = 2;

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
/// [`ROW_ALIGNMENT_BYTES`], and a boxed (fractal) tile's extents padded to
/// whole inner boxes (16 rows by 32 bytes for a row-major box, 32 bytes by
/// 16 columns for a column-major one, 16 by 16 for the accumulator's;
/// pto-isa rejects other boxed tiles). The padding lies outside the valid
/// region, so no instruction reads it.
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
    } else {
        let (rows, cols) = if tile.effective_view().fractal == 1024 {
            (16, 16)
        } else if slayout == TileLayout::RowMajor {
            (16, per_row)
        } else {
            (per_row, 16)
        };
        let round = |extent: i64, unit: i64| extent.saturating_add(unit - 1) / unit * unit;
        // pto-isa leaves a vector tile's and a single row's rows as they
        // are.
        if tile.memory_space() != Some(MemorySpace::Vec) && shape[0] != 1 {
            shape[0] = round(shape[0], rows);
        }
        shape[1] = round(shape[1], cols);
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

/// The C++ header of these limits for the simulator's model of the cores
/// (sim/include/pto/sim/a2a3.hpp), so that the model's arenas and the
/// planner read one table. `cargo test -p pto-passes --test sim_limits`
/// checks the header is this text (PTO_BLESS=1 rewrites it).
pub fn sim_header() -> String {
    let space = |space: MemorySpace| space_limits(space, false).expect("an on-chip space");
    let (scratch_at, scratch_bytes) = LIBRARY_SCRATCH_UB;
    let mut text = String::from(
        "//===- a2a3.hpp - a2a3's on-chip memories, for the simulator ---------------===//\n\
         //\n\
         // Generated from passes/src/target/a2a3.rs (the table pl-plan-memory\n\
         // plans with) by scripts/update-docs.sh; do not edit.\n\
         //\n\
         //===----------------------------------------------------------------------===//\n\
         \n\
         #ifndef PTO_SIM_A2A3_HPP\n\
         #define PTO_SIM_A2A3_HPP\n\
         \n\
         #include <cstdint>\n\
         \n\
         namespace pto::sim::a2a3 {\n\n",
    );
    text += &format!(
        "/// UB, including the top {scratch_bytes} bytes pto-isa's instructions use as\n\
         /// their own scratch (from byte {scratch_at}), which no tile is planned in.\n\
         inline constexpr uint64_t kUbBytes = {};\n",
        scratch_at + scratch_bytes
    );
    text += &format!(
        "/// Core groups (one cube and {AIV_PER_CLUSTER} vector cores each) the runtime launches on.\n\
         inline constexpr int32_t kClusters = {CLUSTERS};\n\
         /// Vector cores.\n\
         inline constexpr int32_t kAivCores = {};\n",
        CLUSTERS * AIV_PER_CLUSTER
    );
    for (name, what, memory) in [
        ("Ub", "UB", MemorySpace::Vec),
        ("L1", "L1", MemorySpace::Mat),
        ("L0a", "L0A", MemorySpace::Left),
        ("L0b", "L0B", MemorySpace::Right),
        ("L0c", "L0C", MemorySpace::Acc),
        ("Bias", "the bias table", MemorySpace::Bias),
    ] {
        let (bytes, alignment) = space(memory);
        if memory != MemorySpace::Vec {
            text += &format!(
                "/// Bytes of {what}.\ninline constexpr uint64_t k{name}Bytes = {bytes};\n"
            );
        }
        text += &format!(
            "/// The alignment of a tile's address in {what}.\n\
             inline constexpr uint64_t k{name}Alignment = {alignment};\n"
        );
    }
    text += "\n} // namespace pto::sim::a2a3\n\n#endif // PTO_SIM_A2A3_HPP\n";
    text
}
