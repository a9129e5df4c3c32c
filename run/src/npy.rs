//! `.npy` files in and out, and comparison against goldens.

use std::{fs::File, io::BufWriter, path::Path};

use npyz::{DType, WriterBuilder};

use crate::{
    error::{Result, RunError},
    session::Array,
    types::Elem,
};

fn elem_of(dtype: &DType) -> Option<Elem> {
    let DType::Plain(type_str) = dtype else {
        return None;
    };
    let text = type_str.to_string();
    let code = text.trim_start_matches(['<', '>', '|', '=']);
    Some(match code {
        "f2" => Elem::F16,
        "f4" => Elem::F32,
        "f8" => Elem::F64,
        "i1" => Elem::I8,
        "i2" => Elem::I16,
        "i4" => Elem::I32,
        "i8" => Elem::I64,
        "u1" => Elem::U8,
        "u2" => Elem::U16,
        "u4" => Elem::U32,
        "u8" => Elem::U64,
        "b1" => Elem::Bool,
        _ => return None,
    })
}

/// Reads a C-order `.npy` file.
pub fn read(path: &Path) -> Result<Array> {
    let fail = |e: std::io::Error| RunError::new(format!("{}: {e}", path.display()));
    let bytes = std::fs::read(path).map_err(fail)?;
    let file = npyz::NpyFile::new(&bytes[..]).map_err(fail)?;
    if file.order() != npyz::Order::C {
        return Err(RunError::new(format!(
            "{}: only C-order arrays are read",
            path.display()
        )));
    }
    let shape: Vec<usize> = file.shape().iter().map(|&d| d as usize).collect();
    let elem = elem_of(&file.dtype()).ok_or_else(|| {
        RunError::new(format!(
            "{}: unsupported dtype {:?}",
            path.display(),
            file.dtype()
        ))
    })?;
    let data: Vec<f64> = match elem {
        Elem::F16 => file
            .into_vec::<half::f16>()
            .map_err(fail)?
            .into_iter()
            .map(|x| x.to_f64())
            .collect(),
        Elem::F32 => file
            .into_vec::<f32>()
            .map_err(fail)?
            .into_iter()
            .map(f64::from)
            .collect(),
        Elem::F64 => file.into_vec::<f64>().map_err(fail)?,
        Elem::I8 => file
            .into_vec::<i8>()
            .map_err(fail)?
            .into_iter()
            .map(f64::from)
            .collect(),
        Elem::I16 => file
            .into_vec::<i16>()
            .map_err(fail)?
            .into_iter()
            .map(f64::from)
            .collect(),
        Elem::I32 => file
            .into_vec::<i32>()
            .map_err(fail)?
            .into_iter()
            .map(f64::from)
            .collect(),
        Elem::I64 => file
            .into_vec::<i64>()
            .map_err(fail)?
            .into_iter()
            .map(|x| x as f64)
            .collect(),
        Elem::U8 | Elem::Bool => file
            .into_vec::<u8>()
            .map_err(fail)?
            .into_iter()
            .map(f64::from)
            .collect(),
        Elem::U16 => file
            .into_vec::<u16>()
            .map_err(fail)?
            .into_iter()
            .map(f64::from)
            .collect(),
        Elem::U32 => file
            .into_vec::<u32>()
            .map_err(fail)?
            .into_iter()
            .map(f64::from)
            .collect(),
        Elem::U64 => file
            .into_vec::<u64>()
            .map_err(fail)?
            .into_iter()
            .map(|x| x as f64)
            .collect(),
        _ => unreachable!("elem_of covers these"),
    };
    Ok(Array::new(shape, elem, data))
}

fn write_typed<T: npyz::Serialize + npyz::AutoSerialize>(
    path: &Path,
    shape: &[u64],
    values: impl Iterator<Item = T>,
) -> std::io::Result<()> {
    let file = BufWriter::new(File::create(path)?);
    let mut writer = npyz::WriteOptions::new()
        .default_dtype()
        .shape(shape)
        .writer(file)
        .begin_nd()?;
    writer.extend(values)?;
    writer.finish()
}

/// Writes `array` as `.npy` in its element type (bf16 as f32, index as i64).
pub fn write(path: &Path, array: &Array) -> Result<()> {
    let shape: Vec<u64> = array.shape.iter().map(|&d| d as u64).collect();
    let data = array.data.iter().copied();
    let outcome = match array.elem {
        Elem::F16 => write_typed(path, &shape, data.map(half::f16::from_f64)),
        Elem::F32 | Elem::Bf16 => write_typed(path, &shape, data.map(|x| x as f32)),
        Elem::F64 => write_typed(path, &shape, data),
        Elem::I8 => write_typed(path, &shape, data.map(|x| x as i8)),
        Elem::I16 => write_typed(path, &shape, data.map(|x| x as i16)),
        Elem::I32 => write_typed(path, &shape, data.map(|x| x as i32)),
        Elem::I64 | Elem::Index => write_typed(path, &shape, data.map(|x| x as i64)),
        Elem::U8 | Elem::Bool => write_typed(path, &shape, data.map(|x| x as u8)),
        Elem::U16 => write_typed(path, &shape, data.map(|x| x as u16)),
        Elem::U32 => write_typed(path, &shape, data.map(|x| x as u32)),
        Elem::U64 => write_typed(path, &shape, data.map(|x| x as u64)),
    };
    outcome.map_err(|e| RunError::new(format!("{}: {e}", path.display())))
}

/// How an output compares with its golden.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub elements: usize,
    pub mismatches: usize,
    pub max_abs: f64,
    pub max_rel: f64,
    /// The first mismatch: (flat index, value, golden).
    pub first: Option<(usize, f64, f64)>,
}

/// Compares elementwise: `|x - g| <= atol + rtol·|g|` (NaN matches NaN,
/// an infinity the same infinity). With `rtol` and `atol` both 0 the
/// comparison is bit for bit: -0.0 does not match 0.0.
pub fn compare(output: &Array, golden: &Array, rtol: f64, atol: f64) -> Result<Comparison> {
    if output.shape != golden.shape {
        return Err(RunError::new(format!(
            "shape {:?} differs from the golden's {:?}",
            output.shape, golden.shape
        )));
    }
    let mut comparison = Comparison {
        elements: output.data.len(),
        mismatches: 0,
        max_abs: 0.0,
        max_rel: 0.0,
        first: None,
    };
    let exact = rtol == 0.0 && atol == 0.0;
    for (i, (&x, &g)) in output.data.iter().zip(&golden.data).enumerate() {
        if (x.is_nan() && g.is_nan()) || (x == g && (!exact || x.to_bits() == g.to_bits())) {
            continue;
        }
        if exact && x == g {
            // Zeros of opposite signs.
            comparison.mismatches += 1;
            comparison.first.get_or_insert((i, x, g));
            continue;
        }
        let abs = (x - g).abs();
        let rel = if g != 0.0 {
            abs / g.abs()
        } else if abs == 0.0 {
            0.0
        } else {
            f64::INFINITY
        };
        // Past the equal ones above, an infinity or a NaN never matches
        // (a tolerance relative to an infinity would take anything).
        if !x.is_finite() || !g.is_finite() || abs > atol + rtol * g.abs() {
            comparison.mismatches += 1;
            comparison.first.get_or_insert((i, x, g));
        }
        if !abs.is_nan() {
            comparison.max_abs = comparison.max_abs.max(abs);
            comparison.max_rel = comparison.max_rel.max(rel);
        }
    }
    Ok(comparison)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn array(data: &[f64]) -> Array {
        Array {
            shape: vec![data.len()],
            elem: Elem::F32,
            data: data.to_vec(),
        }
    }

    #[test]
    fn equal_infinities_and_nans_match_and_nothing_else_does() {
        let inf = f64::INFINITY;
        let same = compare(
            &array(&[inf, -inf, f64::NAN, 1.0]),
            &array(&[inf, -inf, f64::NAN, 1.0]),
            0.0,
            0.0,
        )
        .unwrap();
        assert_eq!(same.mismatches, 0);
        assert_eq!(same.max_abs, 0.0);
        let differ = compare(
            &array(&[inf, -inf, 0.0, 1.0]),
            &array(&[-inf, 1.0, f64::NAN, inf]),
            1e-5,
            0.0,
        )
        .unwrap();
        assert_eq!(differ.mismatches, 4);
    }

    #[test]
    fn exact_comparison_tells_the_signs_of_zero_apart() {
        let exact = compare(
            &array(&[-0.0, 0.0, 2.0]),
            &array(&[0.0, 0.0, 2.0]),
            0.0,
            0.0,
        )
        .unwrap();
        assert_eq!(exact.mismatches, 1);
        assert_eq!(exact.first, Some((0, -0.0, 0.0)));
        let tolerant = compare(&array(&[-0.0]), &array(&[0.0]), 0.0, 1e-9).unwrap();
        assert_eq!(tolerant.mismatches, 0);
    }
}
