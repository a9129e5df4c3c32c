//! a2a3's element conversions (docs/a2a3-lowering.md, "Casts"): the pairs
//! pto-isa's TCVT converts in one step on a2a3, and for any other pair the
//! chain of such steps that `pl-legalize-tile-cast` emits. pto-run computes
//! a cast of a pair without a step of its own by the same chain, so a
//! program computes the same before and after the pass.

use std::collections::VecDeque;

use crate::dtype::Dtype::{self, Bf16, F16, F32, I8, I16, I32, I64, U8};

/// The (source, destination) pairs TCVT converts in one step on a2a3, in
/// pto-isa's order (its a2a3 `TCvt.hpp`; a pair outside this list compiles
/// there to no conversion at all). The 4-bit pairs are left out: a2a3
/// kernels hold no 4-bit tiles.
pub const A2A3_STEPS: &[(Dtype, Dtype)] = &[
    (F32, F16),
    (F32, Bf16),
    (F32, I16),
    (F32, I32),
    (F32, I64),
    (F16, F32),
    (F16, I32),
    (F16, I16),
    (F16, I8),
    (F16, U8),
    (Bf16, F32),
    (Bf16, I32),
    (I16, F16),
    (I16, F32),
    (I32, F32),
    (I32, I16),
    (I32, I64),
    (I32, F16),
    (I64, F32),
    (I64, I32),
    (U8, F16),
    (I8, F16),
];

/// Whether TCVT converts `from` to `to` in one step on a2a3.
pub fn is_a2a3_step(from: Dtype, to: Dtype) -> bool {
    A2A3_STEPS.contains(&(from, to))
}

/// The element types after each step of the shortest chain of a2a3 steps
/// from `from` to `to` (ending with `to`; one entry for a step of its
/// own), or `None` when no chain exists or the types are equal.
///
/// An intermediate type is admitted when it holds every value of `from`
/// exactly, or when it is no narrower than `to` (PyPTO's LegalizeTileCast
/// rule: no fewer significand or exponent bits than a float destination,
/// enough significand bits for an integer destination's values, no
/// integer on the way to a float). Among chains of one length the one
/// whose steps cost least wins: an integer to a float of its width costs
/// 0, a float to a float 1, any other step 2; then the first found in
/// [`A2A3_STEPS`]' order. Every step rounds with the cast's own mode, so a
/// chain may round twice (f32 to i8 through f16 rounds to f16 first).
pub fn a2a3_chain(from: Dtype, to: Dtype) -> Option<Vec<Dtype>> {
    if from == to {
        return None;
    }
    if is_a2a3_step(from, to) {
        return Some(vec![to]);
    }
    let admitted = |via: Dtype| via == to || holds_every_value(via, from) || !narrower(via, to);
    // Breadth first; at equal depth a strictly cheaper path replaces the
    // parent.
    let mut best: Vec<(Dtype, usize, u32, Option<Dtype>)> = vec![(from, 0, 0, None)];
    let mut queue = VecDeque::from([from]);
    while let Some(at) = queue.pop_front() {
        let (_, depth, cost, _) = *best.iter().find(|entry| entry.0 == at)?;
        for &(_, next) in A2A3_STEPS.iter().filter(|(source, _)| *source == at) {
            if !admitted(next) {
                continue;
            }
            let candidate = (next, depth + 1, cost + step_cost(at, next), Some(at));
            match best.iter_mut().find(|entry| entry.0 == next) {
                None => {
                    best.push(candidate);
                    queue.push_back(next);
                }
                Some(entry) if entry.1 == candidate.1 && candidate.2 < entry.2 => {
                    *entry = candidate
                }
                Some(_) => {}
            }
        }
    }
    let mut chain = vec![to];
    let mut at = to;
    loop {
        let parent = best.iter().find(|entry| entry.0 == at)?.3?;
        if parent == from {
            break;
        }
        chain.push(parent);
        at = parent;
    }
    chain.reverse();
    Some(chain)
}

/// Significand bits (with the implicit one) and exponent bits of a float.
fn float_bits(dtype: Dtype) -> Option<(u32, u32)> {
    match dtype {
        F32 => Some((24, 8)),
        F16 => Some((11, 5)),
        Bf16 => Some((8, 8)),
        _ => None,
    }
}

/// The bits of an integer's magnitude and whether it is signed.
fn integer_bits(dtype: Dtype) -> Option<(u32, bool)> {
    match dtype {
        I8 => Some((7, true)),
        I16 => Some((15, true)),
        I32 => Some((31, true)),
        I64 => Some((63, true)),
        U8 => Some((8, false)),
        _ => None,
    }
}

/// Whether `via` loses what `to` could hold (PyPTO's rule).
fn narrower(via: Dtype, to: Dtype) -> bool {
    match (
        float_bits(via),
        float_bits(to),
        integer_bits(via),
        integer_bits(to),
    ) {
        (None, Some(_), _, _) => true,
        (Some((sv, ev)), Some((st, et)), _, _) => sv < st || ev < et,
        (Some((sv, _)), None, _, Some((bits, _))) => sv < bits,
        (None, None, Some((bv, signed_v)), Some((bt, signed_t))) => {
            (!signed_v && signed_t) || bv < bt
        }
        _ => true,
    }
}

/// Whether every value of `from` is a value of `via`.
fn holds_every_value(via: Dtype, from: Dtype) -> bool {
    match (
        float_bits(via),
        float_bits(from),
        integer_bits(via),
        integer_bits(from),
    ) {
        (Some((sv, ev)), Some((sf, ef)), _, _) => sv >= sf && ev >= ef,
        // An integer of b magnitude bits fits a float with at least b
        // significand bits (and, for these widths, its exponent range).
        (Some((sv, _)), None, _, Some((bf, _))) => sv >= bf,
        (None, None, Some((bv, signed_v)), Some((bf, signed_f))) => {
            bv >= bf && (signed_v || !signed_f)
        }
        _ => false,
    }
}

fn step_cost(from: Dtype, to: Dtype) -> u32 {
    match (from.is_float(), to.is_float()) {
        (false, true) if from.bits_hint() == to.bits_hint() => 0,
        (true, true) => 1,
        _ => 2,
    }
}

impl Dtype {
    /// The storage width of the types of [`A2A3_STEPS`].
    fn bits_hint(self) -> u32 {
        match self {
            F32 | I32 => 32,
            F16 | Bf16 | I16 => 16,
            I8 | U8 => 8,
            I64 => 64,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_step_pairs_are_their_own_chain() {
        for &(from, to) in A2A3_STEPS {
            assert_eq!(a2a3_chain(from, to), Some(vec![to]));
        }
    }

    #[test]
    fn chains_go_through_types_that_lose_nothing_the_destination_needs() {
        assert_eq!(a2a3_chain(F32, I8), Some(vec![F16, I8]));
        assert_eq!(a2a3_chain(F32, U8), Some(vec![F16, U8]));
        assert_eq!(a2a3_chain(Bf16, F16), Some(vec![F32, F16]));
        assert_eq!(a2a3_chain(F16, Bf16), Some(vec![F32, Bf16]));
        assert_eq!(a2a3_chain(Bf16, I8), Some(vec![F32, F16, I8]));
        assert_eq!(a2a3_chain(I32, Bf16), Some(vec![F32, Bf16]));
        assert_eq!(a2a3_chain(I32, I8), Some(vec![F16, I8]));
        assert_eq!(a2a3_chain(I64, F16), Some(vec![F32, F16]));
        assert_eq!(a2a3_chain(I64, I16), Some(vec![F32, I16]));
        assert_eq!(a2a3_chain(I8, U8), Some(vec![F16, U8]));
    }

    #[test]
    fn exact_intermediates_make_widening_casts_possible() {
        // f16 holds every i8 and u8, f32 every i16: these widen exactly.
        assert_eq!(a2a3_chain(I8, F32), Some(vec![F16, F32]));
        assert_eq!(a2a3_chain(U8, I32), Some(vec![F16, I32]));
        assert_eq!(a2a3_chain(I16, I32), Some(vec![F32, I32]));
        assert_eq!(a2a3_chain(I8, I16), Some(vec![F16, I16]));
    }

    #[test]
    fn every_pair_of_the_table_types_has_a_chain() {
        let types = [F32, F16, Bf16, I8, I16, I32, I64, U8];
        for from in types {
            for to in types.into_iter().filter(|&to| to != from) {
                let chain = a2a3_chain(from, to).unwrap_or_else(|| panic!("{from:?} to {to:?}"));
                let mut at = from;
                for &next in &chain {
                    assert!(is_a2a3_step(at, next), "{from:?} to {to:?}: {chain:?}");
                    at = next;
                }
                assert_eq!(at, to);
            }
        }
        // f32 holds every f16: f16 to i64 widens through it.
        assert_eq!(a2a3_chain(F16, I64), Some(vec![F32, I64]));
        assert_eq!(a2a3_chain(I8, I64), Some(vec![F16, F32, I64]));
    }

    #[test]
    fn types_without_steps_have_no_chain() {
        assert_eq!(a2a3_chain(F32, F32), None);
        assert_eq!(a2a3_chain(Dtype::U16, F32), None);
        assert_eq!(a2a3_chain(F32, Dtype::U32), None);
    }
}
