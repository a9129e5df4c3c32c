//! `pl.tensor.matmul` of batched operands (rank 3 or more): each batch
//! index of the broadcast batch shape gets the product of the operands'
//! matrices at that index; a batch extent of 1 and a rank-2 operand repeat,
//! and `a_trans`/`b_trans` transpose each matrix. The goldens are plain
//! loops over the definition, on integer-valued inputs whose products f32
//! holds exactly.

mod support;

use pto_run::{Array, Session, types::Elem};
use support::load_text;

/// `c[b] = op(a[b']) · op(b[b''])` for row-major `a` of `[batch_a..., m, k]`
/// and `b` of `[batch_b..., k, n]` (before transposition), broadcast batch
/// shape `batch`.
fn golden(
    a: &[f64],
    a_shape: &[usize],
    b: &[f64],
    b_shape: &[usize],
    batch: &[usize],
    (a_trans, b_trans): (bool, bool),
) -> Vec<f64> {
    let (ar, ac) = (a_shape[a_shape.len() - 2], a_shape[a_shape.len() - 1]);
    let (br, bc) = (b_shape[b_shape.len() - 2], b_shape[b_shape.len() - 1]);
    let (m, k) = if a_trans { (ac, ar) } else { (ar, ac) };
    let n = if b_trans { br } else { bc };
    let a_batch = &a_shape[..a_shape.len() - 2];
    let b_batch = &b_shape[..b_shape.len() - 2];
    // The flat index in an operand's batch shape of the batch coordinates.
    let own = |shape: &[usize], coordinates: &[usize]| -> usize {
        let skip = coordinates.len() - shape.len();
        shape.iter().enumerate().fold(0, |flat, (d, &extent)| {
            flat * extent
                + if extent == 1 {
                    0
                } else {
                    coordinates[skip + d]
                }
        })
    };
    let count: usize = batch.iter().product();
    let mut out = Vec::new();
    for index in 0..count {
        let mut coordinates = vec![0; batch.len()];
        let mut rest = index;
        for d in (0..batch.len()).rev() {
            coordinates[d] = rest % batch[d];
            rest /= batch[d];
        }
        let (ai, bi) = (own(a_batch, &coordinates), own(b_batch, &coordinates));
        let at = |r: usize, c: usize| {
            let (r, c) = if a_trans { (c, r) } else { (r, c) };
            a[ai * ar * ac + r * ac + c]
        };
        let bt = |r: usize, c: usize| {
            let (r, c) = if b_trans { (c, r) } else { (r, c) };
            b[bi * br * bc + r * bc + c]
        };
        for r in 0..m {
            for c in 0..n {
                out.push((0..k).map(|i| at(r, i) * bt(i, c)).sum());
            }
        }
    }
    out
}

fn values(count: usize, seed: usize) -> Vec<f64> {
    (0..count)
        .map(|i| ((i * 7 + seed * 13) % 11) as f64 - 5.0)
        .collect()
}

fn run(text: &str, a_shape: &[usize], b_shape: &[usize]) -> Vec<f64> {
    let program = load_text(text, None);
    let a = values(a_shape.iter().product(), 1);
    let b = values(b_shape.iter().product(), 2);
    let outcome = Session::new(&program)
        .input("a", Array::new(a_shape.to_vec(), Elem::F32, a))
        .input("b", Array::new(b_shape.to_vec(), Elem::F32, b))
        .run("f")
        .unwrap();
    outcome.get("result0").unwrap().data.clone()
}

fn program(a: &str, b: &str, c: &str, attributes: &str) -> String {
    format!(
        "func.func @f(%a: !pl.tensor<{a}xf32>, %b: !pl.tensor<{b}xf32>) -> !pl.tensor<{c}xf32> {{
  %c = pl.tensor.matmul %a, %b {attributes}: !pl.tensor<{a}xf32>, !pl.tensor<{b}xf32> -> !pl.tensor<{c}xf32>
  return %c : !pl.tensor<{c}xf32>
}}"
    )
}

#[test]
fn each_batch_multiplies_its_own_matrices() {
    let text = program("3x2x4", "3x4x5", "3x2x5", "");
    let (a_shape, b_shape) = ([3, 2, 4], [3, 4, 5]);
    let expected = golden(
        &values(24, 1),
        &a_shape,
        &values(60, 2),
        &b_shape,
        &[3],
        (false, false),
    );
    assert_eq!(run(&text, &a_shape, &b_shape), expected);
}

#[test]
fn batch_extents_of_one_and_matrices_broadcast() {
    // [2, 1] batches against [3]: six products; then a batched lhs against
    // one rhs matrix.
    let text = program("2x1x2x4", "3x4x5", "2x3x2x5", "");
    let (a_shape, b_shape) = ([2, 1, 2, 4], [3, 4, 5]);
    let expected = golden(
        &values(16, 1),
        &a_shape,
        &values(60, 2),
        &b_shape,
        &[2, 3],
        (false, false),
    );
    assert_eq!(run(&text, &a_shape, &b_shape), expected);
    let text = program("3x2x4", "4x5", "3x2x5", "");
    let expected = golden(
        &values(24, 1),
        &[3, 2, 4],
        &values(20, 2),
        &[4, 5],
        &[3],
        (false, false),
    );
    assert_eq!(run(&text, &[3, 2, 4], &[4, 5]), expected);
}

#[test]
fn transposes_apply_to_each_matrix() {
    let text = program("2x4x3", "2x5x4", "2x3x5", "{a_trans, b_trans} ");
    let (a_shape, b_shape) = ([2, 4, 3], [2, 5, 4]);
    let expected = golden(
        &values(24, 1),
        &a_shape,
        &values(40, 2),
        &b_shape,
        &[2],
        (true, true),
    );
    assert_eq!(run(&text, &a_shape, &b_shape), expected);
}
