//! Windows of row-major tensors that are dense: what the kernels take (a
//! kernel reads its tensors row-major and dense), so a slice a host or an
//! orchestration hands a kernel must be one (docs/translate.md).

/// The first axis at which a window of `result`'s shape in `source`'s is
/// not contiguous, where the static extents show it: after an outer axis of
/// more than one element, every inner axis must be whole.
pub fn non_contiguous_axis(source: &[Option<i64>], result: &[Option<i64>]) -> Option<usize> {
    let mut wide = false;
    for (axis, (whole, part)) in source.iter().zip(result).enumerate() {
        if let (Some(whole), Some(part)) = (whole, part)
            && wide
            && whole != part
        {
            return Some(axis);
        }
        wide = wide || part.is_some_and(|p| p != 1);
    }
    None
}

/// Whether a window of `result`'s shape in `source`'s is dense whatever
/// its dynamic extents are: after the first axis that may hold more than
/// one element, every axis is statically whole. `Err(axis)` names the
/// first axis that breaks it or cannot be shown to keep it.
pub fn provably_dense(source: &[Option<i64>], result: &[Option<i64>]) -> Result<(), usize> {
    let mut wide = false;
    for (axis, (whole, part)) in source.iter().zip(result).enumerate() {
        if wide && !matches!((whole, part), (Some(w), Some(p)) if w == p) {
            return Err(axis);
        }
        wide = wide || *part != Some(1);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{non_contiguous_axis, provably_dense};

    #[test]
    fn dense_whatever_the_dynamic_extents() {
        // Rows of a dynamic stack; one dynamic row of a stack of rows.
        assert_eq!(
            provably_dense(&[None, Some(64)], &[Some(16), Some(64)]),
            Ok(())
        );
        assert_eq!(
            provably_dense(&[Some(4), None, Some(64)], &[Some(1), None, Some(64)]),
            Ok(())
        );
        // A column block; rows of a fully dynamic tensor, unknowable.
        assert_eq!(
            provably_dense(&[Some(64), Some(32)], &[Some(64), Some(16)]),
            Err(1)
        );
        assert_eq!(provably_dense(&[None, None], &[Some(16), None]), Err(1));
    }

    #[test]
    fn contiguous_windows() {
        // A row of a stack, a block of rows, a whole tensor.
        assert_eq!(
            non_contiguous_axis(
                &[Some(4), Some(16), Some(64)],
                &[Some(1), Some(16), Some(64)]
            ),
            None
        );
        assert_eq!(
            non_contiguous_axis(&[Some(64), Some(32)], &[Some(16), Some(32)]),
            None
        );
        assert_eq!(
            non_contiguous_axis(&[None, Some(32)], &[Some(8), Some(32)]),
            None
        );
        assert_eq!(
            non_contiguous_axis(&[Some(4), Some(8), Some(2)], &[Some(1), Some(1), Some(2)]),
            None
        );
    }

    #[test]
    fn windows_that_are_not_contiguous() {
        // A column block; rows of a column block.
        assert_eq!(
            non_contiguous_axis(&[Some(64), Some(32)], &[Some(64), Some(16)]),
            Some(1)
        );
        assert_eq!(
            non_contiguous_axis(
                &[Some(4), Some(64), Some(32)],
                &[Some(2), Some(64), Some(16)]
            ),
            Some(2)
        );
    }
}
