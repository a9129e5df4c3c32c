//! How large the scratch (`tmp`) tiles of the instructions that take one
//! must be: a2a3's implementations of them in pto-isa write their scratch
//! (its CPU backend ignores it, so only these rules keep a kernel from
//! overwriting memory past a too-small tmp on the device). The verifier
//! requires them and the passes that create scratch tiles size them so
//! (docs/a2a3-lowering.md, "Scratch tiles").

/// `n` rounded up to a multiple of `to`.
fn round_up(n: i64, to: i64) -> i64 {
    n.saturating_add(to - 1) / to * to
}

/// Columns of a remainder's scratch (one row suffices): TREM keeps one row
/// of quotients and, after the destination's row length `C` (`cols`
/// rounded up to 32 bytes), a comparison mask written a 256-byte repeat at
/// a time: `C + max(64, C)` elements.
pub fn remainder_scratch_cols(cols: i64, element_bytes: i64) -> i64 {
    let stored = round_up(cols, (32 / element_bytes.max(1)).max(1));
    stored.saturating_add(stored.max(64))
}

/// Elements of a column arg-reduction's scratch: TCOLARGMAX/TCOLARGMIN keep
/// an index counter, the running extreme and (2-byte types) the index as a
/// half, contiguously, for `valid_cols` columns.
pub fn column_arg_scratch_elements(valid_cols: i64, element_bytes: i64) -> i64 {
    match (element_bytes, valid_cols) {
        (4, c) if c >= 64 => 128,
        (4, c) => round_up(c, 8) + c,
        (_, c) if c >= 128 => 384,
        (_, c) => 2 * round_up(c, 16) + c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scratch_sizes_follow_the_a2a3_implementations() {
        // 32 i32 columns: a 32-element row, a 64-element mask repeat.
        assert_eq!(remainder_scratch_cols(32, 4), 96);
        assert_eq!(remainder_scratch_cols(64, 4), 128);
        assert_eq!(remainder_scratch_cols(200, 4), 400);
        // 2 columns are stored as 8.
        assert_eq!(remainder_scratch_cols(2, 4), 72);
        assert_eq!(column_arg_scratch_elements(64, 4), 128);
        assert_eq!(column_arg_scratch_elements(32, 4), 64);
        assert_eq!(column_arg_scratch_elements(20, 2), 84);
        assert_eq!(column_arg_scratch_elements(256, 2), 384);
    }
}
