//! What a program reads of the module besides its entry: the kernels it
//! calls (their files, parameters and `func_id`s) and the chip
//! orchestrations it dispatches (docs/passes/convert-pl-program-to-emitc.md).

use std::collections::BTreeMap;

use melior::ir::{
    BlockLike, OperationRef, RegionLike, Value, ValueLike, attribute::IntegerAttribute,
    operation::OperationLike, r#type::TypeLike,
};
use pto_dialects::ops::Checked;
use pto_dialects::{
    enums::{FunctionKind, ParamDirection},
    types::{CommCtxType, TensorLike},
};

use crate::emitc::orchestration::{
    ORDERING_TOKENS,
    kernels::{FUNC_ID, direction, kind, returned_parameters, shareable_outputs, symbol},
};

/// A kernel parameter as the host sees it.
#[derive(Clone, Debug)]
pub struct Parameter {
    pub name: String,
    pub element: String,
    /// -1 for the dynamic leading dimension.
    pub shape: Vec<i64>,
    pub direction: ParamDirection,
    /// A window view (`!pld.dtensor`) or comm context: passed by a chip
    /// orchestration, not driven from the command line.
    pub distributed: bool,
    /// A scalar (an integer, float or index; `element` is its C++ type,
    /// `size_t` for an index): passed by value.
    pub scalar: bool,
}

/// The C++ element type of a tensor or scalar of element `type` that the
/// simulator's host program holds (reads, writes or makes): pto-translate's
/// spelling of it, except for bf16 and bool data, which are not simulated
/// there (docs/translate.md, "What is not translated yet").
pub fn io_element(r#type: melior::ir::Type) -> Result<&'static str, String> {
    match pto_dialects::dtype::Dtype::of(r#type) {
        Some(pto_dialects::dtype::Dtype::Bf16) => Err(format!(
            "{type} data on the simulator's host is not simulated: numpy has no bf16 type for its .npy files, and pto-isa's CPU backend computes bfloat16_t as _Float16 without C++23 <stdfloat> (cast to f32 in a kernel)"
        )),
        Some(pto_dialects::dtype::Dtype::Bool) => Err(format!(
            "{type} (bool) data on the simulator's host is not simulated yet: its buffer would be a std::vector<bool>, which has no contiguous data"
        )),
        _ => crate::emitc::cpp_types::element(r#type),
    }
}

/// The C++ type a host passes a scalar parameter of `type` as (`size_t`
/// for an index, as the kernel takes it), if it is a scalar.
pub fn scalar_element(r#type: melior::ir::Type) -> Option<&'static str> {
    if r#type.is_index() {
        return Some("size_t");
    }
    if TensorLike::try_from(r#type).is_ok() || CommCtxType::try_from(r#type).is_ok() {
        return None;
    }
    // A bool scalar is one value, not a std::vector<bool>.
    match pto_dialects::dtype::Dtype::of(r#type) {
        Some(pto_dialects::dtype::Dtype::Bool) => crate::emitc::cpp_types::element(r#type).ok(),
        _ => io_element(r#type).ok(),
    }
}

/// The host view of `kernel`'s parameters (names from the IR when its
/// locations name them, else `arg<i>`); why not, when a parameter cannot
/// be driven.
pub fn parameters(kernel: OperationRef) -> Result<Vec<Parameter>, String> {
    let body = kernel
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or("an empty kernel")?;
    let mut parameters = Vec::new();
    for i in 0..body.argument_count() {
        let argument: Value = body.argument(i).unwrap().into();
        if CommCtxType::try_from(argument.r#type()).is_ok() {
            parameters.push(Parameter {
                name: format!("arg{i}"),
                element: "int64_t".into(),
                shape: vec![],
                direction: ParamDirection::In,
                distributed: true,
                scalar: false,
            });
            continue;
        }
        if let Some(element) = scalar_element(argument.r#type()) {
            parameters.push(Parameter {
                name: pto_dialects::ir::parameter_name(argument, i),
                element: element.into(),
                shape: vec![],
                direction: ParamDirection::In,
                distributed: false,
                scalar: true,
            });
            continue;
        }
        let tensor = TensorLike::try_from(argument.r#type()).map_err(|_| {
            match io_element(argument.r#type()) {
                Err(reason) if crate::emitc::cpp_types::element(argument.r#type()).is_ok() => {
                    format!("parameter #{i}: {reason}")
                }
                _ => format!(
                    "parameter #{i} ({}) is neither a tensor nor a scalar a host can pass",
                    argument.r#type()
                ),
            }
        })?;
        let dims = tensor.shape();
        let shape: Vec<i64> = dims.iter().map(|d| d.unwrap_or(-1)).collect();
        let element = io_element(tensor.element()).map_err(|m| format!("parameter #{i}: {m}"))?;
        let name = pto_dialects::ir::parameter_name(argument, i);
        parameters.push(Parameter {
            name,
            element: element.to_string(),
            shape,
            direction: direction(kernel, i),
            distributed: tensor.is_distributed(),
            scalar: false,
        });
    }
    Ok(parameters)
}

/// A kernel a host program calls: its parameters and, per result, the
/// parameter it returns.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub parameters: Vec<Parameter>,
    pub returns: Vec<Option<usize>>,
    /// The (input, output) parameters whose output may share the input's
    /// buffer.
    pub shares: Vec<(usize, usize)>,
    /// The SPMD identity the kernel reads (its trailing parameters).
    pub queries: crate::emitc::spmd::Queries,
    /// The vector cores its pipes need in a core group
    /// (`pto_dialects::verify::group_lanes`).
    pub lanes: u32,
    /// Whether it runs on the cube core (an aic kernel).
    pub cube: bool,
}

/// The file a kernel's C++ is in.
pub fn kernel_file(name: &str) -> String {
    format!("{name}.cpp")
}

/// The file a chip orchestration's PTO2 C++ is in.
pub fn orchestration_file(name: &str) -> String {
    format!("{name}_orchestration.cpp")
}

/// What a program reads of its module.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    /// The kernels whose parameters a host can drive, by name.
    pub kernels: BTreeMap<String, Kernel>,
    /// Every aic/aiv kernel as (func_id, file), by func_id.
    pub kernel_files: Vec<(usize, String)>,
    /// The chip orchestrations (every orchestration but the entry), each
    /// with its ordering tokens.
    pub chips: BTreeMap<String, usize>,
}

fn integer(op: OperationRef, name: &str) -> Option<i64> {
    op.attribute(name)
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map(|a| a.value())
}

/// The facts of `functions` for a program of `entry`.
pub fn facts(functions: &[OperationRef], entry: OperationRef) -> Facts {
    let mut facts = Facts::default();
    let kernels = functions
        .iter()
        .copied()
        .filter(|f| matches!(kind(*f), Some(FunctionKind::Aic | FunctionKind::Aiv)));
    for (position, kernel) in kernels.enumerate() {
        let name = symbol(kernel);
        let func_id = integer(kernel, FUNC_ID).map_or(position, |id| id as usize);
        facts.kernel_files.push((func_id, kernel_file(&name)));
        if let Ok(parameters) = parameters(kernel) {
            let returns = returned_parameters(kernel);
            facts.kernels.insert(
                name,
                Kernel {
                    parameters,
                    returns,
                    shares: shareable_outputs(kernel),
                    queries: crate::emitc::spmd::Queries::of(kernel),
                    lanes: pto_dialects::verify::group_lanes(&[kernel]).unwrap_or(2),
                    cube: kind(kernel) == Some(FunctionKind::Aic),
                },
            );
        }
    }
    facts.kernel_files.sort();
    for chip in functions
        .iter()
        .copied()
        .filter(|f| kind(*f) == Some(FunctionKind::Orchestration) && *f != entry)
    {
        let tokens = integer(chip, ORDERING_TOKENS).map_or(0, |t| t.max(0) as usize);
        facts.chips.insert(symbol(chip), tokens);
    }
    facts
}
