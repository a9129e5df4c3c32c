//! What one a2a3 instruction costs, in cycles of the 1.85 GHz core clock:
//! the table `pl-estimate-cycles` charges each pipe with. The figures are
//! those of pto-isa's a2a3 cost model (its per-intrinsic cycle counts and
//! transfer bandwidths), restated in docs/cost-model.md with the rules
//! this table adds where the model has no figure.

use pto_dialects::dtype::Dtype;

use super::a2a3::element_bits;

/// The core clock, in Hz.
pub const CLOCK_HZ: f64 = 1.85e9;

/// Bytes one vector repeat covers (8 blocks of 32 bytes).
pub const REPEAT_BYTES: u64 = 256;

/// A vector instruction's cost: `head + per_repeat * repeats + tail`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VectorCost {
    pub head: u64,
    pub per_repeat: u64,
    pub tail: u64,
}

const fn v(head: u64, per_repeat: u64, tail: u64) -> VectorCost {
    VectorCost {
        head,
        per_repeat,
        tail,
    }
}

/// The cost of a vector instruction that the table does not name: that
/// of a binary elementwise one.
pub const DEFAULT_VECTOR: VectorCost = v(10, 2, 14);

/// The vector instructions' costs (elementwise, per repeat).
const VECTOR: &[(&str, VectorCost)] = &[
    ("TADD", v(10, 2, 14)),
    ("TSUB", v(10, 2, 14)),
    ("TMAX", v(10, 2, 14)),
    ("TMIN", v(10, 2, 14)),
    ("TMUL", v(10, 2, 15)),
    ("TDIV", v(11, 4, 19)),
    ("TAND", v(8, 2, 12)),
    ("TOR", v(8, 2, 12)),
    ("TNOT", v(8, 2, 12)),
    ("TADDS", v(13, 1, 18)),
    ("TSUBS", v(13, 1, 18)),
    ("TMULS", v(11, 1, 15)),
    ("TNEG", v(11, 1, 15)),
    ("TMAXS", v(10, 1, 13)),
    ("TMINS", v(14, 1, 16)),
    ("TDIVS", v(11, 4, 19)),
    ("TRECIP", v(11, 4, 19)),
    ("TEXP", v(13, 2, 18)),
    ("TLOG", v(13, 2, 20)),
    ("TSQRT", v(14, 2, 25)),
    ("TRSQRT", v(10, 1, 14)),
    ("TABS", v(13, 1, 16)),
    ("TRELU", v(10, 1, 13)),
    ("TLRELU", v(11, 1, 15)),
    ("TSHLS", v(6, 2, 0)),
    ("TSHRS", v(6, 2, 0)),
    ("TEXPANDS", v(11, 1, 13)),
    ("TSEL", v(13, 2, 14)),
    ("TSELS", v(13, 2, 14)),
    ("TCMP", v(14, 2, 22)),
    ("TCMPS", v(14, 2, 22)),
    ("TCVT", v(14, 2, 18)),
    ("TPARTADD", v(10, 2, 14)),
    ("TPARTMAX", v(10, 2, 14)),
    ("TPARTMIN", v(10, 2, 14)),
    ("TPARTMUL", v(10, 2, 15)),
    ("TGATHER", v(24, 2, 0)),
    ("TGATHERB", v(6, 2, 0)),
    ("TSORT32", v(6, 2, 0)),
    ("TMRGSORT", v(20, 78, 0)),
];

/// Instructions made of several vector instructions: the sum of theirs.
const COMPOSED: &[(&str, &[&str])] = &[
    ("TXOR", &["TOR", "TAND", "TNOT", "TAND"]),
    ("TANDS", &["TEXPANDS", "TAND"]),
    ("TORS", &["TEXPANDS", "TOR"]),
    ("TXORS", &["TEXPANDS", "TOR", "TAND", "TNOT", "TAND"]),
    ("TPRELU", &["TMUL", "TCMPS", "TSEL"]),
    ("TFMOD", &["TDIV", "TCVT", "TMUL", "TSUB"]),
    ("TFMODS", &["TDIVS", "TCVT", "TMULS", "TSUB"]),
    ("TREM", &["TDIV", "TCVT", "TMUL", "TSUB", "TSEL"]),
    ("TREMS", &["TDIVS", "TCVT", "TMULS", "TSUB", "TSEL"]),
];

/// The cost of vector instruction `instruction` over `repeats` repeats.
pub fn vector_cycles(instruction: &str, repeats: u64) -> u64 {
    if let Some((_, parts)) = COMPOSED.iter().find(|(name, _)| *name == instruction) {
        return parts.iter().map(|p| vector_cycles(p, repeats)).sum();
    }
    let cost = VECTOR
        .iter()
        .find(|(name, _)| *name == instruction)
        .map_or(DEFAULT_VECTOR, |(_, cost)| *cost);
    cost.head + cost.per_repeat * repeats + cost.tail
}

/// Whether the table names `instruction` (alone or composed).
pub fn names_vector(instruction: &str) -> bool {
    VECTOR.iter().any(|(name, _)| *name == instruction)
        || COMPOSED.iter().any(|(name, _)| *name == instruction)
}

/// The repeats a vector instruction takes over a tile of `rows` rows of
/// `cols` elements of `dtype`: each row a whole number of 256-byte
/// repeats (a row narrower than a repeat still takes one).
pub fn repeats(rows: u64, cols: u64, dtype: Option<Dtype>) -> u64 {
    let row_bytes = cols.saturating_mul(element_bits(dtype)).div_ceil(8);
    rows.saturating_mul(row_bytes.div_ceil(REPEAT_BYTES).max(1))
}

/// A reduction or expansion along rows or columns: a fixed cost plus one
/// per row of the tile it walks (pto-isa's fitted figures for TROWSUM,
/// TCOLSUM and TROWEXPAND, which the table applies to their families).
pub fn row_walk_cycles(instruction: &str, rows: u64) -> Option<u64> {
    let (fixed, per_row) = match instruction {
        "TROWSUM" | "TROWMAX" | "TROWMIN" | "TROWPROD" | "TROWARGMAX" | "TROWARGMIN" => (44, 7),
        "TCOLSUM" | "TCOLMAX" | "TCOLMIN" | "TCOLPROD" | "TCOLARGMAX" | "TCOLARGMIN" => (8, 19),
        "TROWEXPAND" => (35, 14),
        _ => return None,
    };
    Some(fixed + per_row * rows)
}

/// The row- and column-expanding binary ops: an expansion, then the
/// binary op (or TEXP after a subtraction) over the whole tile.
pub fn expand_then(instruction: &str) -> Option<(&'static str, &'static [&'static str])> {
    Some(match instruction {
        "TROWEXPANDADD" => ("TROWEXPAND", &["TADD"]),
        "TROWEXPANDSUB" => ("TROWEXPAND", &["TSUB"]),
        "TROWEXPANDMUL" => ("TROWEXPAND", &["TMUL"]),
        "TROWEXPANDDIV" => ("TROWEXPAND", &["TDIV"]),
        "TROWEXPANDMAX" => ("TROWEXPAND", &["TMAX"]),
        "TROWEXPANDMIN" => ("TROWEXPAND", &["TMIN"]),
        "TROWEXPANDEXPDIF" => ("TROWEXPAND", &["TSUB", "TEXP"]),
        "TCOLEXPANDADD" => ("TCOLEXPAND", &["TADD"]),
        "TCOLEXPANDSUB" => ("TCOLEXPAND", &["TSUB"]),
        "TCOLEXPANDMUL" => ("TCOLEXPAND", &["TMUL"]),
        "TCOLEXPANDDIV" => ("TCOLEXPAND", &["TDIV"]),
        "TCOLEXPANDMAX" => ("TCOLEXPAND", &["TMAX"]),
        "TCOLEXPANDMIN" => ("TCOLEXPAND", &["TMIN"]),
        "TCOLEXPANDEXPDIF" => ("TCOLEXPAND", &["TSUB", "TEXP"]),
        _ => return None,
    })
}

/// A path data moves along, with its bandwidth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Global memory into UB (MTE2).
    GmToVec,
    /// Global memory into L1 (MTE2).
    GmToMat,
    /// UB out to global memory (MTE3).
    VecToGm,
    /// L1 out to global memory (MTE3).
    MatToGm,
    /// L0C out to global memory (FIX).
    AccToGm,
    /// L0C into L1 (FIX).
    AccToMat,
    /// L1 into L0A (MTE1).
    MatToLeft,
    /// L1 into L0B (MTE1).
    MatToRight,
    /// L1 into the bias or scaling table (MTE1).
    MatToTable,
    /// Within UB (moves, extracts, inserts, column expansions; V).
    VecToVec,
}

impl Path {
    /// The bandwidth in GiB/s.
    pub fn gib_per_second(self) -> f64 {
        match self {
            Path::GmToVec => 100.9,
            Path::GmToMat => 135.0,
            Path::VecToGm => 188.46,
            Path::MatToGm => 32.0,
            Path::AccToGm => 70.0,
            Path::AccToMat => 128.0,
            Path::MatToLeft => 441.0,
            Path::MatToRight => 220.5,
            Path::MatToTable => 32.0,
            Path::VecToVec => 1024.0,
        }
    }

    /// Bytes per cycle.
    pub fn bytes_per_cycle(self) -> f64 {
        self.gib_per_second() * f64::from(1u32 << 30) / CLOCK_HZ
    }
}

/// Cycles to move `bytes` along `path` (no fixed start-up: the model has
/// none), at least one.
pub fn transfer_cycles(path: Path, bytes: u64) -> u64 {
    ((bytes as f64 / path.bytes_per_cycle()).ceil() as u64).max(1)
}

/// A cube instruction over an `m x k` left and `k x n` right tile of
/// `dtype`: 6 cycles, then one (two for f32) per 16 x (32 bytes of K) x 16
/// fractal product.
pub fn cube_cycles(m: u64, k: u64, n: u64, dtype: Option<Dtype>) -> u64 {
    let bytes = element_bits(dtype).div_ceil(8).max(1);
    let k_per_fractal = (32 / bytes).max(1);
    let per_fractal = if dtype == Some(Dtype::F32) { 2 } else { 1 };
    6 + per_fractal * m.div_ceil(16) * k.div_ceil(k_per_fractal) * n.div_ceil(16)
}

/// A scalar instruction (an element read or write, a scalar loop step).
pub const SCALAR_CYCLES: u64 = 1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_models_worked_examples() {
        // 64 x 64 x 64 f16: 6 + 4 * 4 * 4; f32 twice the fractals at 2.
        assert_eq!(cube_cycles(64, 64, 64, Some(Dtype::F16)), 70);
        assert_eq!(cube_cycles(64, 64, 64, Some(Dtype::F32)), 262);
        // A 64 x 64 f32 load: 16 KiB at 58.6 bytes per cycle.
        assert_eq!(transfer_cycles(Path::GmToVec, 16384), 280);
        // 64 f32 per repeat; a 16 x 8 f32 tile takes a repeat per row.
        assert_eq!(repeats(64, 64, Some(Dtype::F32)), 64);
        assert_eq!(repeats(16, 8, Some(Dtype::F32)), 16);
        assert_eq!(repeats(1, 128, Some(Dtype::F16)), 1);
        assert_eq!(vector_cycles("TADD", 64), 10 + 128 + 14);
        assert_eq!(
            vector_cycles("TXOR", 1),
            vector_cycles("TOR", 1) + 2 * vector_cycles("TAND", 1) + vector_cycles("TNOT", 1)
        );
    }
}
