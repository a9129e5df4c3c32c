//! The pto-isa C++ spellings of pl types (docs/translate.md, "How the C++
//! is made"): element types, `Tile<...>` for on-chip tiles and
//! `GlobalTensor<...>` for windows of tensors in global memory.

use crate::target::a2a3;
use melior::ir::{Type, r#type::ShapedTypeLike};
use pto_dialects::{
    dtype::Dtype,
    enums::{PadValue, TileLayout},
    types::{MemorySpace, TileType},
};

/// The C++ type of a scalar element.
pub fn element(r#type: Type) -> Result<&'static str, String> {
    Ok(match Dtype::of(r#type) {
        Some(Dtype::F32) => "float",
        Some(Dtype::F16) => "half",
        Some(Dtype::Bf16) => "bfloat16_t",
        Some(Dtype::I32) => "int32_t",
        Some(Dtype::I16) => "int16_t",
        Some(Dtype::I8) => "int8_t",
        Some(Dtype::I64) => "int64_t",
        Some(Dtype::U32) => "uint32_t",
        Some(Dtype::U16) => "uint16_t",
        Some(Dtype::U8) => "uint8_t",
        Some(Dtype::Bool) => "bool",
        _ => return Err(format!("no C++ element type for {type}")),
    })
}

fn layout(layout: TileLayout) -> &'static str {
    match layout {
        TileLayout::RowMajor => "RowMajor",
        TileLayout::ColMajor => "ColMajor",
        TileLayout::NoneBox => "NoneBox",
    }
}

fn pad(pad: PadValue) -> &'static str {
    match pad {
        PadValue::Zero => "PadValue::Zero",
        PadValue::Max => "PadValue::Max",
        PadValue::Min => "PadValue::Min",
        _ => "PadValue::Null",
    }
}

/// The `TileType::` of a memory space.
pub fn tile_kind(space: MemorySpace) -> Result<&'static str, String> {
    Ok(match space {
        MemorySpace::Vec => "Vec",
        MemorySpace::Mat => "Mat",
        MemorySpace::Left => "Left",
        MemorySpace::Right => "Right",
        MemorySpace::Acc => "Acc",
        MemorySpace::Bias => "Bias",
        other => return Err(format!("tiles in '{other}' are not translated")),
    })
}

/// `Tile<TileType::Vec, float, 64, 128, BLayout::RowMajor, 64, 128,
/// SLayout::NoneBox, 512, PadValue::Null>`. Valid extents that are dynamic
/// are -1 (the tile is then constructed with its runtime extents). The
/// declared shape and layouts are the a2a3 storage ([`a2a3::storage_shape`]:
/// rows padded to 32 bytes; the left operand row-major outside).
pub fn tile(tile: TileType) -> Result<String, String> {
    let shape = tile.shape();
    if shape.len() != 2 {
        return Err(format!(
            "{} is not 2-D (run pl-flatten-tile-nd-to-2d first)",
            Type::from(tile)
        ));
    }
    let space = tile.memory_space().ok_or_else(|| {
        format!(
            "{} has no memory space (run pl-infer-memory-space first)",
            Type::from(tile)
        )
    })?;
    let view = tile.effective_view();
    let (blayout, slayout) = a2a3::declared_layouts(tile);
    let storage = a2a3::storage_shape(tile);
    let valid = |i: usize| view.valid_shape[i].unwrap_or(-1);
    Ok(format!(
        "Tile<TileType::{}, {}, {}, {}, BLayout::{}, {}, {}, SLayout::{}, {}, {}>",
        tile_kind(space)?,
        element(tile.element())?,
        storage[0],
        storage[1],
        layout(blayout),
        valid(0),
        valid(1),
        layout(slayout),
        view.fractal,
        pad(view.pad)
    ))
}

/// `GlobalTensor<float, pto::Shape<1, 1, 1, 64, 128>, pto::Stride<..., 128,
/// 1>, pto::Layout::ND>` for a window of `window` extents in a row-major
/// tensor of `shape` (both left-padded to five dimensions).
pub fn global_tensor(element_type: &str, window: &[i64], shape: &[i64]) -> String {
    if dynamic_strides(shape) {
        return format!(
            "GlobalTensor<{element_type}, {}, pto::Stride<-1, -1, -1, -1, -1>, pto::Layout::ND>",
            window_shape(window)
        );
    }
    let strides = strides(shape);
    // The padding dimensions have extent 1: their stride is the whole
    // tensor's (or the outermost stride when the leading extent is dynamic).
    let total = strides.first().map_or(1, |&s| s * shape[0].max(1));
    // A column (last extent 1) loads into a column-major tile, whose rows
    // pto-isa counts in the fourth dimension alone: the leading extents go
    // there when they are one run of rows.
    let (window, strides) = if window.last() == Some(&1) {
        merge_leading(window, &strides)
    } else {
        (window.to_vec(), strides)
    };
    let window = &window[..];
    let pad = 5usize.saturating_sub(window.len());
    let steps: Vec<String> = std::iter::repeat_n(total.to_string(), pad)
        .chain(strides.iter().map(i64::to_string))
        .collect();
    format!(
        "GlobalTensor<{element_type}, {}, pto::Stride<{}>, pto::Layout::ND>",
        window_shape(window),
        steps.join(", ")
    )
}

/// `pto::Shape<1, 1, 1, -1, 256>`: a window's extents left-padded to five
/// dimensions (-1 for a dynamic one).
pub fn window_shape(window: &[i64]) -> String {
    let pad = 5usize.saturating_sub(window.len());
    let dims: Vec<String> = std::iter::repeat_n("1".to_string(), pad)
        .chain(window.iter().map(i64::to_string))
        .collect();
    format!("pto::Shape<{}>", dims.join(", "))
}

/// Whether a row-major tensor of `shape` has strides known only at run
/// time: an extent after the leading one is dynamic (-1).
pub fn dynamic_strides(shape: &[i64]) -> bool {
    shape.iter().skip(1).any(|&e| e < 0)
}

/// `window` (static extents, with the tensor's `strides`) with each
/// leading extent merged into the next where the two are one run (the
/// inner one whole, or the outer one 1); the last stays.
fn merge_leading(window: &[i64], strides: &[i64]) -> (Vec<i64>, Vec<i64>) {
    let n = window.len();
    if n < 3 || window.iter().any(|&w| w < 0) {
        return (window.to_vec(), strides.to_vec());
    }
    let (mut extents, mut steps) = (vec![window[n - 2]], vec![strides[n - 2]]);
    for d in (0..n - 2).rev() {
        let (inner, step) = (extents[0], steps[0]);
        if window[d] == 1 || strides[d] == inner * step {
            extents[0] = window[d] * inner;
        } else {
            extents.insert(0, window[d]);
            steps.insert(0, strides[d]);
        }
    }
    extents.push(window[n - 1]);
    steps.push(strides[n - 1]);
    (extents, steps)
}

/// The row-major strides of `shape`.
pub fn strides(shape: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1];
    }
    strides
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn global_tensors_are_five_dimensional() {
        assert_eq!(
            global_tensor("float", &[64, 128], &[128, 128]),
            "GlobalTensor<float, pto::Shape<1, 1, 1, 64, 128>, pto::Stride<16384, 16384, 16384, 128, 1>, pto::Layout::ND>"
        );
        assert_eq!(
            global_tensor("half", &[2, 8, 64], &[4, 8, 64]),
            "GlobalTensor<half, pto::Shape<1, 1, 2, 8, 64>, pto::Stride<2048, 2048, 512, 64, 1>, pto::Layout::ND>"
        );
        assert_eq!(strides(&[4, 8, 64]), vec![512, 64, 1]);
    }

    #[test]
    fn columns_fold_their_rows_into_one_dimension() {
        // The rows of a whole [4, 8, 1] column are one run.
        assert_eq!(
            global_tensor("float", &[4, 8, 1], &[4, 8, 1]),
            "GlobalTensor<float, pto::Shape<1, 1, 1, 32, 1>, pto::Stride<32, 32, 32, 1, 1>, pto::Layout::ND>"
        );
        // Two rows of each of 4 batches are not.
        assert_eq!(
            global_tensor("float", &[4, 2, 1], &[4, 8, 1]),
            "GlobalTensor<float, pto::Shape<1, 1, 4, 2, 1>, pto::Stride<32, 32, 8, 1, 1>, pto::Layout::ND>"
        );
    }
}
