//! The host orchestrator of a distributed program for the a2a3 runtime: a
//! Python module (`host_orch.py`; docs/translate.md, "What the runtime
//! gets") driving the "simpler" runtime, in the frame PyPTO's generated
//! `host_orch.py` has. MLIR has no Python emitter, so this is a small
//! printer over the lowered host function (after `pld-lower-distributed`):
//!
//! - each `pld.comm_domain` is a `with (_domain_provider or
//!   orch.allocate_domain)(name=…, workers=…, window_size=…, buffers=[
//!   CommBufferSpec(…), …]) as __<name>:` block, sizes as Python
//!   expressions (32-byte rounded), and its ordering tokens
//!   `tensors["__<name>_ord"]` (one shared int32 per rank) are made by
//!   `_alloc_intermediates(tensors, world_size=1)`, which the runner calls
//!   before the runtime forks its workers;
//! - window buffers and views print nothing; a dispatch builds a `TaskArgs`
//!   `_ta_N` (windows as `__<d>[r].buffers["buf"].tensor(shapes=…,
//!   dtype=…)`, host tensors as `make_tensor_arg(orch._worker,
//!   tensors["x"])`, with their directions, outputs `OUTPUT_EXISTING`; one
//!   ordering token `make_tensor_arg(orch._worker, tensors["__<d>_ord"][r])`
//!   per domain; then scalars, CommContexts as `__<d>[r].device_ctx`), keeps
//!   it alive in `_keep` and calls `_submit_chip(orch, callables["chip"],
//!   _ta_N, config, r)`;
//! - a builtin collective adds its windows, the token, the domain size, the
//!   CommContext (and a mesh allreduce its core count) and submits
//!   `callables["builtin.tensor.<variant>"]` with a fresh `CallConfig()`
//!   whose `aicpu_thread_num` is `config.aicpu_thread_num`;
//! - index arithmetic, loops and branches are Python.
//!
//! The module defines `host_orch(orch, _args, config, *, tensors, callables,
//! sub_ids, _keep, world_size, _domain_provider=None)`, marked as the entry
//! with `host_orch._pypto_distributed_entry = True`.

use pto_dialects::ops::Checked;
use std::collections::HashMap;

use melior::ir::{
    BlockLike, OperationRef, RegionLike, Value, ValueLike,
    attribute::{
        ArrayAttribute, AttributeLike, DenseI64ArrayAttribute, FloatAttribute, IntegerAttribute,
    },
    operation::OperationLike,
};
use pto_dialects::{
    dtype::Dtype,
    enums::ParamDirection,
    ir::ValueKey,
    op_table::{Family, OpKind},
    ops::{op_name, operand_at, result_at},
    types::{TensorLike, TensorType},
};

/// Why the host module cannot be printed (reported at the host program).
type Failure = String;

/// A window view: its buffer, its domain's Python name, its shape.
#[derive(Clone, Debug)]
struct WindowView {
    buffer: String,
    domain: String,
    shape: String,
    dtype: &'static str,
}

struct Printer<'f> {
    out: String,
    depth: usize,
    /// The Python expression of each value.
    values: HashMap<ValueKey, String>,
    windows: HashMap<ValueKey, WindowView>,
    /// The domain of each comm context value.
    contexts: HashMap<ValueKey, String>,
    /// Byte-size expression of each window buffer (by value).
    buffer_bytes: HashMap<ValueKey, (String, String)>,
    next: usize,
    /// The chip orchestrations' parameter directions (`None`: a scalar).
    chips: &'f HashMap<String, Vec<Option<ParamDirection>>>,
    /// The Python names of the comm domains, in order (their ordering
    /// tokens are allocated up front).
    domains: Vec<String>,
    /// How many `TaskArgs` were built (`_ta_N`).
    tasks: usize,
}

fn key(value: Value) -> ValueKey {
    ValueKey::of(value)
}

fn data_type(element: melior::ir::Type) -> Result<&'static str, String> {
    Ok(match Dtype::of(element) {
        Some(Dtype::F32) => "DataType.FLOAT32",
        Some(Dtype::F16) => "DataType.FLOAT16",
        Some(Dtype::Bf16) => "DataType.BFLOAT16",
        Some(Dtype::I32) => "DataType.INT32",
        Some(Dtype::I16) => "DataType.INT16",
        Some(Dtype::I8) => "DataType.INT8",
        Some(Dtype::I64) => "DataType.INT64",
        Some(Dtype::U8) => "DataType.UINT8",
        _ => return Err(format!("no runtime data type for {element}")),
    })
}

/// The Python operator of a binary arith op.
fn python_operator(name: &str) -> Option<&'static str> {
    Some(match name {
        "arith.addi" | "arith.addf" => "+",
        "arith.subi" | "arith.subf" => "-",
        "arith.muli" | "arith.mulf" => "*",
        "arith.divsi" | "arith.divui" | "arith.floordivsi" => "//",
        "arith.remsi" | "arith.remui" => "%",
        "arith.divf" => "/",
        _ => return None,
    })
}

fn direction_name(direction: ParamDirection) -> &'static str {
    match direction {
        ParamDirection::In => "TensorArgType.INPUT",
        // Every tensor the host passes exists already (a host tensor or a
        // window); `OUTPUT` would ask the runtime to allocate one.
        ParamDirection::Out => "TensorArgType.OUTPUT_EXISTING",
        ParamDirection::InOut => "TensorArgType.INOUT",
    }
}

impl<'f> Printer<'f> {
    fn line(&mut self, text: &str) {
        for _ in 0..self.depth {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// A fresh `TaskArgs` name.
    fn task_args(&mut self) -> String {
        self.tasks += 1;
        format!("_ta_{}", self.tasks - 1)
    }

    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("v{}", self.next - 1)
    }

    fn expr(&self, value: Value) -> Result<String, Failure> {
        self.values
            .get(&key(value))
            .cloned()
            .ok_or_else(|| format!("a value the host module does not know ({})", value.r#type(),))
    }

    fn operand(&self, op: OperationRef, index: usize) -> Result<String, Failure> {
        let value = operand_at(op, index).ok_or_else(|| format!("operand #{index}"))?;
        self.expr(value)
    }

    fn binary(&self, op: OperationRef, symbol: &str) -> Result<String, Failure> {
        Ok(format!(
            "({} {symbol} {})",
            self.operand(op, 0)?,
            self.operand(op, 1)?
        ))
    }

    fn assign(&mut self, op: OperationRef, text: String) {
        let name = self.fresh();
        self.line(&format!("{name} = {text}"));
        if let Some(result) = result_at(op, 0) {
            self.values.insert(key(result), name);
        }
    }

    fn block(&mut self, block: melior::ir::BlockRef) -> Result<(), Failure> {
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            self.op(op)?;
        }
        Ok(())
    }

    fn op(&mut self, op: OperationRef) -> Result<(), Failure> {
        if let Some(kind) = OpKind::of(&op) {
            return self.pto_op(op, kind);
        }
        let name = op_name(op);
        if let Some(symbol) = python_operator(name) {
            let text = self.binary(op, symbol)?;
            self.assign(op, text);
            return Ok(());
        }
        match name {
            "arith.constant" => {
                let value = op.attribute("value").map_err(|e| e.to_string())?;
                let text = if let Ok(integer) = IntegerAttribute::try_from(value) {
                    if integer.r#type().to_string() == "i1" {
                        if integer.value() != 0 {
                            "True".into()
                        } else {
                            "False".into()
                        }
                    } else {
                        integer.value().to_string()
                    }
                } else if let Ok(float) = FloatAttribute::try_from(value) {
                    format!("{:?}", float.value())
                } else {
                    return Err(format!("a constant of {value}"));
                };
                self.values.insert(key(result_at(op, 0).unwrap()), text);
            }
            "arith.index_cast" | "arith.index_castui" | "arith.extsi" | "arith.extui"
            | "arith.trunci" => {
                let text = self.operand(op, 0)?;
                self.values.insert(key(result_at(op, 0).unwrap()), text);
            }
            "arith.maxsi" | "arith.maxui" | "arith.minsi" | "arith.minui" => {
                let function = if name.contains("max") { "max" } else { "min" };
                let text = format!(
                    "{function}({}, {})",
                    self.operand(op, 0)?,
                    self.operand(op, 1)?
                );
                self.assign(op, text)
            }
            "arith.cmpi" => {
                let predicate = op
                    .attribute("predicate")
                    .ok()
                    .and_then(|a| IntegerAttribute::try_from(a).ok())
                    .map_or(0, |a| a.value());
                let symbol = ["==", "!=", "<", "<=", ">", ">=", "<", "<=", ">", ">="]
                    .get(predicate as usize)
                    .ok_or_else(|| "a comparison".to_string())?;
                let text = self.binary(op, symbol)?;
                self.assign(op, text)
            }
            "arith.select" => {
                let text = format!(
                    "({} if {} else {})",
                    self.operand(op, 1)?,
                    self.operand(op, 0)?,
                    self.operand(op, 2)?
                );
                self.assign(op, text)
            }
            "scf.for" => {
                if op.result_count() > 0 {
                    return Err(
                        "loops carrying values are not emitted for the host yet".to_string()
                    );
                }
                let body = op
                    .region_opt(0)
                    .and_then(|r| r.first_block())
                    .ok_or_else(|| "a loop without a body".to_string())?;
                let variable = self.fresh();
                self.values
                    .insert(key(body.argument(0).unwrap().into()), variable.clone());
                let (lower, upper, step) = (
                    self.operand(op, 0)?,
                    self.operand(op, 1)?,
                    self.operand(op, 2)?,
                );
                self.line(&format!(
                    "for {variable} in range({lower}, {upper}, {step}):"
                ));
                self.depth += 1;
                let before = self.out.len();
                self.block(body)?;
                if self.out.len() == before {
                    self.line("pass");
                }
                self.depth -= 1;
            }
            "scf.if" => {
                if op.result_count() > 0 {
                    return Err(
                        "branches yielding values are not emitted for the host yet".to_string()
                    );
                }
                let condition = self.operand(op, 0)?;
                self.line(&format!("if {condition}:"));
                for (index, keyword) in [(0, None), (1, Some("else:"))] {
                    let Some(block) = op.region_opt(index).and_then(|r| r.first_block()) else {
                        continue;
                    };
                    if let Some(keyword) = keyword {
                        if block
                            .first_operation()
                            .is_some_and(|first| op_name(first) == "scf.yield")
                        {
                            continue;
                        }
                        self.line(keyword);
                    }
                    self.depth += 1;
                    let before = self.out.len();
                    self.block(block)?;
                    if self.out.len() == before {
                        self.line("pass");
                    }
                    self.depth -= 1;
                }
            }
            "scf.yield" | "func.return" => {
                if op.operand_count() > 0 && name == "func.return" {
                    return Err("host programs returning values are not emitted yet".to_string());
                }
            }
            other => {
                return Err(format!("'{other}' is not emitted for the host yet"));
            }
        }
        Ok(())
    }

    /// A pl/pld op of the host program.
    fn pto_op(&mut self, op: OperationRef, kind: OpKind) -> Result<(), Failure> {
        match kind {
            OpKind::PldSystemWorldSize => {
                self.values
                    .insert(key(result_at(op, 0).unwrap()), "world_size".into());
            }
            OpKind::PldCommDomain => self.domain(op)?,
            // Printed by their domain.
            OpKind::PldTensorAllocWindowBuffer | OpKind::PldTensorWindow => {}
            OpKind::PldSystemGetCommCtx => {
                let window = self
                    .windows
                    .get(&key(operand_at(op, 0).unwrap()))
                    .cloned()
                    .ok_or_else(|| {
                        "the comm context of a value that is not a window view".to_string()
                    })?;
                self.contexts
                    .insert(key(result_at(op, 0).unwrap()), window.domain);
            }
            OpKind::PldYield => {}
            OpKind::PldDispatch => self.dispatch(op)?,
            OpKind::PlTensorSlice => {
                let text = self.slice(op)?;
                self.assign(op, text);
            }
            OpKind::PlTensorView | OpKind::PlTensorReshape => {
                let text = self.reshape(op)?;
                self.assign(op, text);
            }
            _ if kind.info().family == Family::BuiltinCollective => self.builtin(op)?,
            _ => {
                let name = kind.info().name;
                return Err(format!("'{name}' is not emitted for the host yet"));
            }
        }
        Ok(())
    }

    /// `pl.tensor.slice` of a host tensor: the torch view
    /// `t[o0:o0 + s0, ...]` (a view shares the tensor's storage).
    fn slice(&self, op: OperationRef) -> Result<String, Failure> {
        let segment = |index: usize| pto_passes::emitc::orchestration::calls::segment(op, index);
        if op.attribute("clamp").is_ok() {
            return Err("a clamped slice of a host tensor is not emitted for the host yet".into());
        }
        let source = self.operand(op, 0)?;
        let result = TensorLike::try_from(result_at(op, 0).unwrap().r#type())
            .map_err(|_| "a slice that is not a tensor".to_string())?;
        let mut sizes = segment(2).into_iter();
        let mut ranges = Vec::new();
        for (offset, extent) in segment(1).into_iter().zip(result.shape()) {
            let offset = self.expr(offset)?;
            let size = match extent {
                Some(fixed) => fixed.to_string(),
                None => {
                    let size = sizes.next().ok_or("a dynamic extent without its size")?;
                    self.expr(size)?
                }
            };
            ranges.push(format!("{offset}:({offset}) + ({size})"));
        }
        Ok(format!("{source}[{}]", ranges.join(", ")))
    }

    /// `pl.tensor.view` / `pl.tensor.reshape` of a host tensor: the torch
    /// view with the result's shape (one dynamic extent is inferred).
    fn reshape(&self, op: OperationRef) -> Result<String, Failure> {
        let source = self.operand(op, 0)?;
        let result_type = result_at(op, 0).unwrap().r#type();
        if let Ok(tensor) = TensorType::try_from(result_type) {
            let view = tensor.view();
            if view.layout.is_some() || view.has_strides || view.has_valid_shape {
                return Err(
                    "a host tensor viewed with a layout, strides or a valid shape is not emitted for the host (only its shape may change)"
                        .into(),
                );
            }
        }
        let shape = TensorLike::try_from(result_type)
            .map_err(|_| "a view that is not a tensor".to_string())?
            .shape();
        if shape.iter().filter(|d| d.is_none()).count() > 1 {
            return Err("a view of a host tensor to more than one dynamic extent is not emitted for the host yet".into());
        }
        let dims: Vec<String> = shape
            .iter()
            .map(|d| d.map_or("-1".to_string(), |d| d.to_string()))
            .collect();
        Ok(format!("{source}.reshape({})", dims.join(", ")))
    }

    /// The Python expression of a window view's runtime tensor on rank `r`.
    fn window_tensor(&self, window: &WindowView, rank: &str) -> String {
        format!(
            "{}[{rank}].buffers[\"{}\"].tensor(shapes={}, dtype={})",
            window.domain, window.buffer, window.shape, window.dtype
        )
    }

    fn domain(&mut self, op: OperationRef) -> Result<(), Failure> {
        let name = pto_dialects::attrs::text_of(op, "sym_name")
            .ok_or_else(|| "a comm domain without a name".to_string())?;
        let python = format!("__{name}");
        if !self.domains.contains(&python) {
            self.domains.push(python.clone());
        }
        let devices: Vec<i64> = op
            .attribute("devices")
            .ok()
            .and_then(|a| DenseI64ArrayAttribute::try_from(a).ok())
            .map(|d| (0..d.len()).filter_map(|i| d.element(i).ok()).collect())
            .unwrap_or_default();
        let body = op
            .region_opt(0)
            .and_then(|r| r.first_block())
            .ok_or_else(|| "an empty comm domain".to_string())?;
        // Sizes first: the domain's plain arithmetic, then its buffers.
        let mut rest = Vec::new();
        let mut next = body.first_operation();
        while let Some(inner) = next {
            next = inner.next_in_block();
            let is_size = OpKind::of(&inner).map_or_else(
                || op_name(inner).starts_with("arith."),
                |kind| kind == OpKind::PldSystemWorldSize,
            );
            if is_size {
                self.op(inner)?;
            } else {
                rest.push(inner);
            }
        }
        let mut buffers = Vec::new();
        for inner in &rest {
            match OpKind::of(inner) {
                Some(OpKind::PldTensorAllocWindowBuffer) => {
                    let buffer = pto_dialects::attrs::text_of(*inner, "name").unwrap_or_default();
                    let bytes = self.expr(operand_at(*inner, 0).unwrap())?;
                    self.buffer_bytes.insert(
                        key(result_at(*inner, 0).unwrap()),
                        (buffer.clone(), bytes.clone()),
                    );
                    buffers.push((buffer, bytes));
                }
                Some(OpKind::PldTensorWindow) => {
                    let (buffer, bytes) = self
                        .buffer_bytes
                        .get(&key(operand_at(*inner, 0).unwrap()))
                        .cloned()
                        .ok_or_else(|| "a window of something not a window buffer".to_string())?;
                    let result = result_at(*inner, 0).unwrap();
                    let tensor = TensorLike::try_from(result.r#type())
                        .map_err(|_| "a window that is not a tensor".to_string())?;
                    let dtype = data_type(tensor.element())?;
                    let element_bytes = pto_dialects::dtype::ScalarKind::of(tensor.element())
                        .map_or(4, |k| i64::from(k.bits().div_ceil(8)));
                    let fixed = crate::driver::checked_product(
                        tensor
                            .shape()
                            .iter()
                            .flatten()
                            .copied()
                            .chain([element_bytes]),
                    )
                    .ok_or_else(|| {
                        format!("the size in bytes of the window {tensor} overflows 64 bits")
                    })?;
                    // One dynamic extent: what of the buffer the others leave.
                    let dims: Vec<String> = tensor
                        .shape()
                        .iter()
                        .map(|d| d.map_or(format!("({bytes}) // {fixed}"), |d| d.to_string()))
                        .collect();
                    let shape = if dims.len() == 1 {
                        format!("({},)", dims[0])
                    } else {
                        format!("({})", dims.join(", "))
                    };
                    self.windows.insert(
                        key(result),
                        WindowView {
                            buffer,
                            domain: python.clone(),
                            shape,
                            dtype,
                        },
                    );
                }
                _ => {}
            }
        }
        let rounded = |bytes: &str| format!("((({bytes}) + 31) // 32) * 32");
        let window_size = if buffers.is_empty() {
            "0".to_string()
        } else {
            buffers
                .iter()
                .map(|(_, b)| rounded(b))
                .collect::<Vec<_>>()
                .join(" + ")
        };
        let workers = if devices.is_empty() {
            "[*range(world_size)]".to_string()
        } else {
            format!("{devices:?}")
        };
        self.line("with (_domain_provider or orch.allocate_domain)(");
        self.depth += 1;
        self.line(&format!("name=\"{name}\","));
        self.line(&format!("workers={workers},"));
        self.line(&format!("window_size={window_size},"));
        self.line("buffers=[");
        self.depth += 1;
        for (buffer, bytes) in &buffers {
            let nbytes = rounded(bytes);
            self.line(&format!("CommBufferSpec(name=\"{buffer}\", dtype=\"opaque\", count={bytes}, nbytes={nbytes}),"));
        }
        self.depth -= 1;
        self.line("],");
        self.depth -= 1;
        self.line(&format!(") as {python}:"));
        self.depth += 1;
        let before = self.out.len();
        for inner in rest {
            self.op(inner)?;
        }
        if self.out.len() == before {
            self.line("pass");
        }
        self.depth -= 1;
        Ok(())
    }

    /// The ordering tokens of the domains `windows` belong to.
    fn tokens(&mut self, ta: &str, windows: &[WindowView], rank: &str) {
        let mut domains: Vec<&str> = Vec::new();
        for window in windows {
            if !domains.contains(&window.domain.as_str()) {
                domains.push(&window.domain);
            }
        }
        for domain in domains {
            self.line(&format!(
                "{ta}.add_tensor(make_tensor_arg(orch._worker, tensors[\"{domain}_ord\"][{rank}]), TensorArgType.INOUT)"
            ));
        }
    }

    fn dispatch(&mut self, op: OperationRef) -> Result<(), Failure> {
        let callee = pto_dialects::attrs::text_of(op, "callee").unwrap_or_default();
        let directions = self
            .chips
            .get(&callee)
            .cloned()
            .ok_or_else(|| format!("@{callee} is not a chip orchestration"))?;
        let n = op.operand_count();
        let rank = self.expr(operand_at(op, n - 1).unwrap())?;
        let ta = self.task_args();
        self.line(&format!("{ta} = TaskArgs()"));
        let mut windows = Vec::new();
        let mut scalars = Vec::new();
        for i in 0..n - 1 {
            let argument = operand_at(op, i).unwrap();
            let direction = directions.get(i).copied().flatten();
            if let Some(window) = self.windows.get(&key(argument)).cloned() {
                let direction = direction_name(direction.unwrap_or(ParamDirection::InOut));
                self.line(&format!(
                    "{ta}.add_tensor({}, {direction})",
                    self.window_tensor(&window, &rank)
                ));
                windows.push(window);
            } else if let Some(domain) = self.contexts.get(&key(argument)) {
                scalars.push(format!("{domain}[{rank}].device_ctx"));
            } else if TensorLike::try_from(argument.r#type()).is_ok() {
                let tensor = self.expr(argument)?;
                let direction = direction_name(direction.unwrap_or(ParamDirection::In));
                self.line(&format!(
                    "{ta}.add_tensor(make_tensor_arg(orch._worker, {tensor}), {direction})"
                ));
            } else {
                scalars.push(self.expr(argument)?);
            }
        }
        self.tokens(&ta, &windows, &rank);
        for scalar in scalars {
            self.line(&format!("{ta}.add_scalar({scalar})"));
        }
        self.line(&format!("_keep.append({ta})"));
        self.line(&format!(
            "_submit_chip(orch, callables[\"{callee}\"], {ta}, config, {rank})"
        ));
        Ok(())
    }

    fn builtin(&mut self, op: OperationRef) -> Result<(), Failure> {
        let variant = pto_dialects::builtins::variant(op)
            .ok_or_else(|| "a builtin collective without a library variant".to_string())?;
        let n = op.operand_count();
        let rank = self.expr(operand_at(op, n - 1).unwrap())?;
        let directions: Vec<ParamDirection> = op
            .attribute("directions")
            .ok()
            .and_then(|a| ArrayAttribute::try_from(a).ok())
            .map(|a| {
                (0..a.len())
                    .filter_map(|i| a.element(i).ok())
                    .map(|d| match pto_dialects::attrs::read(d) {
                        Some(pto_dialects::attrs::FunctionAttr::Direction(direction)) => direction,
                        _ => ParamDirection::InOut,
                    })
                    .collect()
            })
            .unwrap_or_default();
        let ta = self.task_args();
        self.line(&format!("{ta} = TaskArgs()"));
        let mut windows = Vec::new();
        for i in 0..n - 1 {
            let window = self
                .windows
                .get(&key(operand_at(op, i).unwrap()))
                .cloned()
                .ok_or_else(|| {
                    "a builtin collective of a value that is not a window view".to_string()
                })?;
            let direction =
                direction_name(directions.get(i).copied().unwrap_or(ParamDirection::InOut));
            self.line(&format!(
                "{ta}.add_tensor({}, {direction})",
                self.window_tensor(&window, &rank)
            ));
            windows.push(window);
        }
        self.tokens(&ta, &windows, &rank);
        let domain = windows
            .first()
            .map(|w| w.domain.clone())
            .ok_or_else(|| "a builtin collective without windows".to_string())?;
        self.line(&format!("{ta}.add_scalar({domain}[{rank}].domain_size)"));
        self.line(&format!("{ta}.add_scalar({domain}[{rank}].device_ctx)"));
        if OpKind::of(&op) == Some(OpKind::PldBuiltinAllreduce) {
            let cores = op
                .attribute("cores")
                .ok()
                .and_then(|a| IntegerAttribute::try_from(a).ok())
                .map_or(1, |a| a.value());
            self.line(&format!("{ta}.add_scalar({cores})"));
        }
        self.line(&format!("{ta}_config = CallConfig()"));
        self.line(&format!(
            "{ta}_config.aicpu_thread_num = config.aicpu_thread_num"
        ));
        self.line(&format!("_keep.append({ta})"));
        self.line(&format!(
            "orch.submit_next_level(callables[\"{variant}\"], {ta}, {ta}_config, worker={rank})"
        ));
        Ok(())
    }
}

/// The Python module of host program `function`; `chips` gives each chip
/// orchestration's parameter directions.
pub fn build(
    function: OperationRef,
    chips: &HashMap<String, Vec<Option<ParamDirection>>>,
) -> Result<String, Failure> {
    let name = pto_dialects::attrs::text_of(function, "sym_name").unwrap_or_default();
    let entry = function
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or_else(|| "an empty host program".to_string())?;
    let mut printer = Printer {
        out: String::new(),
        depth: 0,
        values: HashMap::new(),
        windows: HashMap::new(),
        contexts: HashMap::new(),
        buffer_bytes: HashMap::new(),
        next: 0,
        chips,
        domains: Vec::new(),
        tasks: 0,
    };
    for i in 0..entry.argument_count() {
        let argument: Value = entry.argument(i).unwrap().into();
        if TensorLike::try_from(argument.r#type()).is_ok_and(|t| t.is_distributed()) {
            return Err("host programs given windows from outside are not emitted yet".into());
        }
        let parameter = pto_dialects::ir::parameter_name(argument, i);
        printer
            .values
            .insert(key(argument), format!("tensors[\"{parameter}\"]"));
    }
    printer.depth = 1;
    printer.block(entry)?;
    if printer.out.is_empty() {
        printer.line("pass");
    }
    let body = std::mem::take(&mut printer.out);
    printer.depth = 0;
    printer.line(&format!(
        "\"\"\"The host orchestrator @{name} for the a2a3 runtime, from pto-translate.\"\"\""
    ));
    printer.line("");
    if !printer.domains.is_empty() {
        printer.line("import torch");
    }
    printer.line(
        "from simpler.task_interface import CallConfig, CommBufferSpec, DataType, TaskArgs, TensorArgType",
    );
    printer.line("from pypto.runtime.tensor_arg import make_tensor_arg");
    printer.line("from pypto.runtime.distributed_runner import _submit_chip");
    if !printer.domains.is_empty() {
        // The ordering tokens: shared memory, made before the runtime forks
        // its workers (the runner calls this first).
        printer.line("");
        printer.line("");
        printer.line("def _alloc_intermediates(tensors, world_size=1):");
        printer.depth = 1;
        for domain in printer.domains.clone() {
            printer.line(&format!(
                "tensors[\"{domain}_ord\"] = [torch.zeros((1,), dtype=torch.int32).share_memory_() for _ in range(max(world_size, 1))]"
            ));
        }
        printer.depth = 0;
    }
    printer.line("");
    printer.line("");
    printer.line(
        "def host_orch(orch, _args, config, *, tensors, callables, sub_ids, _keep, world_size, _domain_provider=None):",
    );
    printer.out.push_str(&body);
    printer.line("");
    printer.line("");
    printer.line("host_orch._pypto_distributed_entry = True");
    Ok(printer.out)
}
