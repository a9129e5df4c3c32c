//! A module compiled out of MLIR into plain Rust data: functions of ops
//! whose operands are register numbers. The interpreter runs on this form,
//! which (unlike MLIR handles) rank threads can share.

use pto_dialects::ops::Checked;
use std::collections::HashMap;

use melior::ir::{
    Attribute, AttributeLike, BlockLike, BlockRef, Module, OperationRef, RegionLike, Value,
    ValueLike,
    attribute::{
        ArrayAttribute, BoolAttribute, DenseI32ArrayAttribute, DenseI64ArrayAttribute,
        FloatAttribute, IntegerAttribute, TypeAttribute,
    },
    operation::OperationLike,
};
use pto_dialects::{
    attrs::{self, FunctionAttr},
    enums::{FunctionKind, Level, ParamDirection, Role},
    ops::{op_name, operand_segments},
};

use crate::{error::RunError, types::Ty};

/// A register in a function's frame.
pub type Slot = usize;

/// An attribute value.
#[derive(Clone, Debug, PartialEq)]
pub enum Attr {
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(String),
    Type(Ty),
    Unit,
    Ints(Vec<i64>),
    Array(Vec<Attr>),
    Function(FunctionAttr),
    Other(String),
}

/// A single-block region: its arguments and ops.
#[derive(Clone, Debug, Default)]
pub struct Region {
    pub args: Vec<Slot>,
    pub ops: Vec<Op>,
}

/// One operation.
#[derive(Clone, Debug)]
pub struct Op {
    pub name: String,
    pub code: Code,
    pub operands: Vec<Slot>,
    pub operand_types: Vec<Ty>,
    pub results: Vec<Slot>,
    pub result_types: Vec<Ty>,
    pub regions: Vec<Region>,
    pub attrs: Vec<(String, Attr)>,
    /// `AttrSizedOperandSegments` groups: (start, length) in ODS order.
    pub segments: Vec<(usize, usize)>,
    /// `file:line:col`, or the printed location.
    pub location: String,
}

impl Op {
    pub fn attr(&self, name: &str) -> Option<&Attr> {
        self.attrs.iter().find(|(n, _)| n == name).map(|(_, a)| a)
    }

    pub fn int_attr(&self, name: &str) -> Option<i64> {
        match self.attr(name)? {
            Attr::Int(v) => Some(*v),
            Attr::Bool(b) => Some(i64::from(*b)),
            _ => None,
        }
    }

    pub fn has_attr(&self, name: &str) -> bool {
        self.attr(name).is_some()
    }

    /// The operands of segment `index` (all operands when the op has no
    /// segments and `index` is 0).
    pub fn segment(&self, index: usize) -> &[Slot] {
        match self.segments.get(index) {
            Some(&(start, len)) => &self.operands[start..start + len],
            None if self.segments.is_empty() && index == 0 => &self.operands,
            None => &[],
        }
    }
}

/// A function.
#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub kind: Option<FunctionKind>,
    pub level: Option<Level>,
    pub role: Option<Role>,
    pub params: Vec<Slot>,
    pub param_types: Vec<Ty>,
    /// The `%name` each parameter has in the source, when known.
    pub param_names: Vec<String>,
    /// Where each parameter is declared (`file:line:col`).
    pub param_locations: Vec<String>,
    pub param_directions: Vec<Option<ParamDirection>>,
    pub result_types: Vec<Ty>,
    pub body: Region,
    /// Registers the frame needs.
    pub slots: usize,
    pub location: String,
}

impl Function {
    /// A host orchestrator (docs/pld-guide.md, "Three levels").
    pub fn is_host(&self) -> bool {
        self.level == Some(Level::Host)
    }
}

/// A compiled module.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub functions: Vec<Function>,
    by_name: HashMap<String, usize>,
    /// The start of the input (`file:1:1`), for errors about the program
    /// as a whole; `None` when the module has no file location.
    pub location: Option<String>,
}

impl Program {
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.by_name.get(name).map(|&i| &self.functions[i])
    }

    pub fn index(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The device count a program fixes: one past the highest device a
    /// `pld.comm_domain` lists (`None` when no domain lists devices).
    pub fn fixed_ranks(&self) -> Option<usize> {
        fn visit(region: &Region, highest: &mut Option<usize>) {
            for op in &region.ops {
                if op.code == Code::CommDomain
                    && let Some(Attr::Ints(devices)) = op.attr("devices")
                    && let Some(&max) = devices.iter().max()
                {
                    *highest = Some(highest.unwrap_or(0).max(max as usize + 1));
                }
                for region in &op.regions {
                    visit(region, highest);
                }
            }
        }
        let mut highest = None;
        for function in &self.functions {
            visit(&function.body, &mut highest);
        }
        highest
    }

    /// Compiles every `func.func` of `module`; `source` (the input text)
    /// recovers parameter names.
    ///
    /// A host program's window buffers belong to the comm domains its
    /// dispatches imply: when buffers sit outside any `pld.comm_domain`,
    /// the program runs with the domains `pld-materialize-comm-domains`
    /// makes explicit (on a copy), so that a program and its lowering agree
    /// on ranks and rank counts.
    pub fn compile(module: &Module, source: Option<&str>) -> Result<Self, RunError> {
        if !buffers_outside_domains(module) {
            return Self::compile_module(module, source);
        }
        let context_ref = module.context();
        // SAFETY: the context outlives this call; the copy is owned here.
        let context = unsafe { context_ref.to_ref() };
        // SAFETY: a live module op, cloned into an operation owned here.
        let copy = unsafe {
            melior::ir::Operation::from_raw(mlir_sys::mlirOperationClone(
                module.as_operation().to_raw(),
            ))
        };
        let mut copy = Module::from_operation(copy)
            .ok_or_else(|| RunError::new("the module cannot be copied"))?;
        pto_passes::register_passes();
        let manager = melior::pass::PassManager::new(context);
        melior::utility::parse_pass_pipeline(
            manager.as_operation_pass_manager(),
            "builtin.module(pld-materialize-comm-domains)",
        )
        .map_err(|_| RunError::new("pld-materialize-comm-domains is not registered"))?;
        manager.run(&mut copy).map_err(|_| RunError::reported())?;
        Self::compile_module(&copy, source)
    }

    fn compile_module(module: &Module, source: Option<&str>) -> Result<Self, RunError> {
        let mut program = Program::default();
        // A parsed file's module is at `file:0:0`.
        let module_location = location_text(module.as_operation().location());
        program.location = module_location
            .strip_suffix(":0:0")
            .map(|file| format!("{file}:1:1"));
        let mut next = module.body().first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            if op_name(op) != "func.func" {
                continue;
            }
            let function = compile_function(op, source)?;
            program
                .by_name
                .insert(function.name.clone(), program.functions.len());
            program.functions.push(function);
        }
        Ok(program)
    }
}

pub use pto_dialects::source::location_text;

/// Whether a window buffer is allocated outside any `pld.comm_domain` in a
/// program that dispatches work to devices (without dispatches no device
/// uses a domain).
fn buffers_outside_domains(module: &Module) -> bool {
    let (mut found, mut dispatches) = (false, false);
    module
        .as_operation()
        .walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
            dispatches |= op_name(op) == "pld.dispatch";
            if !found && op_name(op) == "pld.tensor.alloc_window_buffer" {
                let mut parent = op.parent_operation();
                let mut inside = false;
                while let Some(p) = parent {
                    if op_name(p) == "pld.comm_domain" {
                        inside = true;
                        break;
                    }
                    parent = p.parent_operation();
                }
                found = !inside;
            }
            melior::ir::operation::WalkResult::Advance
        });
    found && dispatches
}

struct Compiler {
    slots: HashMap<usize, Slot>,
}

impl Compiler {
    fn slot(&mut self, value: Value) -> Slot {
        let key = value.to_raw().ptr as usize;
        let next = self.slots.len();
        *self.slots.entry(key).or_insert(next)
    }

    fn region(&mut self, block: Option<BlockRef>) -> Result<Region, RunError> {
        let Some(block) = block else {
            return Ok(Region::default());
        };
        let args = (0..block.argument_count())
            .map(|i| self.slot(block.argument(i).unwrap().into()))
            .collect();
        let mut ops = Vec::new();
        let mut next = block.first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            ops.push(self.op(op)?);
        }
        Ok(Region { args, ops })
    }

    fn op(&mut self, op: OperationRef) -> Result<Op, RunError> {
        let name = op_name(op);
        let operands: Vec<Value> = op.operands().collect();
        let results: Vec<Value> = op.results().map(Into::into).collect();
        let mut regions = Vec::new();
        for region in op.regions() {
            regions.push(self.region(region.first_block())?);
        }
        let attrs = op
            .attributes()
            .map(|(name, value)| {
                (
                    name.as_string_ref()
                        .as_str()
                        .unwrap_or_default()
                        .to_string(),
                    decode(value),
                )
            })
            .collect();
        Ok(Op {
            code: Code::of(&name),
            name,
            operand_types: operands.iter().map(|v| Ty::of(v.r#type())).collect(),
            operands: operands.into_iter().map(|v| self.slot(v)).collect(),
            result_types: results.iter().map(|v| Ty::of(v.r#type())).collect(),
            results: results.into_iter().map(|v| self.slot(v)).collect(),
            regions,
            attrs,
            segments: operand_segments(op),
            location: location_text(op.location()),
        })
    }
}

fn function_attr(op: OperationRef, name: &str) -> Option<FunctionAttr> {
    op.attribute(name).ok().and_then(attrs::read)
}

fn compile_function(op: OperationRef, source: Option<&str>) -> Result<Function, RunError> {
    let name = op
        .attribute("sym_name")
        .ok()
        .and_then(attrs::text)
        .unwrap_or_default();
    let location = location_text(op.location());
    let kind = match function_attr(op, "pl.kind") {
        Some(FunctionAttr::Kind(kind)) => Some(kind),
        _ => None,
    };
    let level = match function_attr(op, "pl.level") {
        Some(FunctionAttr::Level(level)) => Some(level),
        _ => None,
    };
    let role = match function_attr(op, "pl.role") {
        Some(FunctionAttr::Role(role)) => Some(role),
        _ => None,
    };
    let mut compiler = Compiler {
        slots: HashMap::new(),
    };
    let block = op.region_opt(0).and_then(|r| r.first_block());
    let body = compiler.region(block)?;
    let arguments: Vec<Value> = block
        .map(|b| {
            (0..b.argument_count())
                .map(|i| b.argument(i).unwrap().into())
                .collect()
        })
        .unwrap_or_default();
    let param_types = arguments.iter().map(|v| Ty::of(v.r#type())).collect();
    let param_names = arguments
        .iter()
        .enumerate()
        .map(|(i, v)| {
            pto_dialects::source::value_name(source, *v).unwrap_or_else(|| format!("arg{i}"))
        })
        .collect();
    let param_locations = arguments
        .iter()
        .map(|v| {
            // SAFETY: `v` is a live value of the function being compiled.
            let location = unsafe {
                melior::ir::Location::from_raw(mlir_sys::mlirValueGetLocation(v.to_raw()))
            };
            location_text(location)
        })
        .collect();
    let directions = op
        .attribute("arg_attrs")
        .ok()
        .and_then(|a| ArrayAttribute::try_from(a).ok());
    let param_directions = (0..arguments.len())
        .map(|i| {
            let dictionary = directions.and_then(|d| d.element(i).ok())?;
            let text = dictionary.to_string();
            ParamDirection::ALL
                .iter()
                .copied()
                .find(|d| text.contains(&format!("#pl.direction<{}>", d.keyword())))
        })
        .collect();
    let result_types = function_results(op);
    Ok(Function {
        name,
        kind,
        level,
        role,
        params: body.args.clone(),
        param_types,
        param_names,
        param_locations,
        param_directions,
        result_types,
        slots: compiler.slots.len(),
        body,
        location,
    })
}

fn function_results(op: OperationRef) -> Vec<Ty> {
    let Some(function_type) = op
        .attribute("function_type")
        .ok()
        .and_then(|a| TypeAttribute::try_from(a).ok())
        .and_then(|t| melior::ir::r#type::FunctionType::try_from(t.value()).ok())
    else {
        return Vec::new();
    };
    (0..function_type.result_count())
        .filter_map(|i| function_type.result(i).ok())
        .map(Ty::of)
        .collect()
}

fn decode(attribute: Attribute) -> Attr {
    if let Some(function_attr) = attrs::read(attribute) {
        return Attr::Function(function_attr);
    }
    if let Ok(integer) = IntegerAttribute::try_from(attribute) {
        return Attr::Int(integer.value());
    }
    if let Ok(boolean) = BoolAttribute::try_from(attribute) {
        return Attr::Bool(boolean.value());
    }
    if let Ok(float) = FloatAttribute::try_from(attribute) {
        return Attr::Float(float.value());
    }
    if let Ok(type_attribute) = TypeAttribute::try_from(attribute) {
        return Attr::Type(Ty::of(type_attribute.value()));
    }
    if let Ok(ints) = DenseI64ArrayAttribute::try_from(attribute) {
        return Attr::Ints(
            (0..ints.len())
                .filter_map(|i| ints.element(i).ok())
                .collect(),
        );
    }
    if let Ok(ints) = DenseI32ArrayAttribute::try_from(attribute) {
        return Attr::Ints(
            (0..ints.len())
                .filter_map(|i| ints.element(i).ok())
                .map(i64::from)
                .collect(),
        );
    }
    if let Ok(array) = ArrayAttribute::try_from(attribute) {
        return Attr::Array(
            (0..array.len())
                .filter_map(|i| array.element(i).ok())
                .map(decode)
                .collect(),
        );
    }
    if let Some(text) = attrs::text(attribute) {
        return Attr::Str(text);
    }
    if attribute.is_unit() {
        return Attr::Unit;
    }
    Attr::Other(attribute.to_string())
}

/// Elementwise binary operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binary {
    Add,
    Sub,
    Mul,
    Div,
    Max,
    Min,
    /// Truncating remainder (C's `%` and `fmod`: the dividend's sign).
    Fmod,
    /// Floor remainder (Python's `%`: the divisor's sign), pl's `rem` and
    /// pto-isa's TREM.
    Rem,
    /// Signed division rounding toward negative (positive) infinity.
    FloorDiv,
    CeilDiv,
    /// The unsigned reading of integer operands (arith's `*ui` ops).
    DivU,
    CeilDivU,
    RemU,
    MinU,
    MaxU,
    ShrU,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Prelu,
    Lrelu,
    /// `exp(a - b)`.
    ExpDif,
    /// The right operand (a broadcast).
    Second,
}

/// Elementwise unary operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unary {
    Neg,
    Exp,
    Log,
    Sqrt,
    Rsqrt,
    Recip,
    Abs,
    Relu,
    Not,
    Sin,
    Cos,
}

/// Reductions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    Sum,
    Max,
    Min,
    Prod,
    ArgMax,
    ArgMin,
}

/// The collectives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collective {
    Barrier,
    Broadcast,
    Allgather,
    AllToAll,
    AllToAllV,
    ReduceScatter,
    Allreduce,
    AllreduceRing,
}

/// What an op does, decoded from its name once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    Constant,
    /// Integer/index conversions that keep the value.
    IntCast,
    TruncI,
    SIToFP,
    UIToFP,
    FPToSI,
    FPToUI,
    FloatCast,
    IntBinary(Binary),
    FloatBinary(Binary),
    Cmpi,
    Cmpf,
    Select,
    NegF,
    MathUnary(Unary),
    For,
    If,
    While,
    Condition,
    Yield,
    Return,
    Call,
    Submit,
    Dispatch,
    Scope,
    CommDomain,
    TileLoad,
    TileStore,
    TileCreate,
    TileFull,
    TileMove,
    TileFillpad,
    TileSetValid,
    TileCast,
    TileRead,
    TileWrite,
    TileSlice,
    TileReshape,
    TileTranspose,
    TileExtract,
    TileAssemble,
    TileExpands,
    TileBinary(Binary),
    TileScalar(Binary),
    TileUnary(Unary),
    TileRowReduce(Reduce),
    TileColReduce(Reduce),
    TileRowExpand(Binary),
    TileColExpand(Binary),
    TileMatmul,
    TileMatmulAcc,
    TileMatmulBias,
    TileCmp,
    TileCmps,
    TileSel,
    TileSels,
    TileBlockIdx,
    TileBlockNum,
    TileSubblockIdx,
    TensorCreate,
    TensorFull,
    TensorView,
    TensorReshape,
    TensorSlice,
    TensorDim,
    TensorRead,
    TensorWrite,
    TensorAssemble,
    TensorTranspose,
    TensorCast,
    TensorFillpad,
    TensorBinary(Binary),
    TensorScalar(Binary),
    TensorUnary(Unary),
    TensorRowReduce(Reduce),
    TensorColReduce(Reduce),
    TensorRowExpand(Binary),
    TensorColExpand(Binary),
    TensorMatmul,
    TensorMatmulAcc,
    TensorExpands,
    /// Fences, cache invalidation, pipe synchronisation: ordering the
    /// interpreter already has.
    Nop,
    WorldSize,
    GetCommCtx,
    Rank,
    Nranks,
    Notify,
    Wait,
    DeferWait,
    AllocWindow,
    Window,
    RemoteLoad,
    RemoteStore,
    TilePut,
    TileGet,
    TensorPut,
    TensorGet,
    Collective(Collective),
    Builtin(Collective),
    Unsupported,
}

fn binary_name(name: &str) -> Option<Binary> {
    Some(match name {
        "add" => Binary::Add,
        "sub" => Binary::Sub,
        "mul" => Binary::Mul,
        "div" => Binary::Div,
        "maximum" | "max" => Binary::Max,
        "minimum" | "min" => Binary::Min,
        "fmod" => Binary::Fmod,
        "rem" => Binary::Rem,
        "and" => Binary::And,
        "or" => Binary::Or,
        "xor" => Binary::Xor,
        "shl" => Binary::Shl,
        "shr" => Binary::Shr,
        "prelu" => Binary::Prelu,
        "expdif" => Binary::ExpDif,
        _ => return None,
    })
}

/// Tile–scalar forms: `<binary>s`, and `lrelu` (its slope is a scalar).
fn scalar_name(name: &str) -> Option<Binary> {
    match name {
        "lrelu" => Some(Binary::Lrelu),
        _ => binary_name(name.strip_suffix('s')?),
    }
}

fn unary_name(name: &str) -> Option<Unary> {
    Some(match name {
        "neg" => Unary::Neg,
        "exp" => Unary::Exp,
        "log" => Unary::Log,
        "sqrt" => Unary::Sqrt,
        "rsqrt" => Unary::Rsqrt,
        "recip" => Unary::Recip,
        "abs" => Unary::Abs,
        "relu" => Unary::Relu,
        "not" => Unary::Not,
        "sin" => Unary::Sin,
        "cos" => Unary::Cos,
        _ => return None,
    })
}

fn reduce_name(name: &str) -> Option<Reduce> {
    Some(match name {
        "sum" => Reduce::Sum,
        "max" => Reduce::Max,
        "min" => Reduce::Min,
        "prod" => Reduce::Prod,
        "argmax" => Reduce::ArgMax,
        "argmin" => Reduce::ArgMin,
        _ => return None,
    })
}

fn expand_name(rest: &str) -> Option<Binary> {
    match rest {
        "" => Some(Binary::Second),
        _ => binary_name(rest.strip_prefix('_')?),
    }
}

fn collective_name(name: &str) -> Option<Collective> {
    Some(match name {
        "barrier" => Collective::Barrier,
        "broadcast" => Collective::Broadcast,
        "allgather" => Collective::Allgather,
        "all_to_all" => Collective::AllToAll,
        "all_to_all_v" => Collective::AllToAllV,
        "reduce_scatter" => Collective::ReduceScatter,
        "allreduce" => Collective::Allreduce,
        "allreduce_ring" => Collective::AllreduceRing,
        _ => return None,
    })
}

impl Code {
    /// Decodes an op name.
    pub fn of(name: &str) -> Self {
        use Code::*;
        match name {
            "arith.constant" => return Constant,
            "arith.index_cast" | "arith.index_castui" | "arith.extsi" | "arith.extui" => {
                return IntCast;
            }
            "arith.trunci" => return TruncI,
            "arith.sitofp" => return SIToFP,
            "arith.uitofp" => return UIToFP,
            "arith.fptosi" => return FPToSI,
            "arith.fptoui" => return FPToUI,
            "arith.extf" | "arith.truncf" => return FloatCast,
            "arith.cmpi" => return Cmpi,
            "arith.cmpf" => return Cmpf,
            "arith.select" => return Select,
            "arith.negf" => return NegF,
            "arith.divsi" => return IntBinary(Binary::Div),
            "arith.divui" => return IntBinary(Binary::DivU),
            "arith.floordivsi" => return IntBinary(Binary::FloorDiv),
            "arith.ceildivsi" => return IntBinary(Binary::CeilDiv),
            "arith.ceildivui" => return IntBinary(Binary::CeilDivU),
            "arith.remsi" => return IntBinary(Binary::Fmod),
            "arith.remui" => return IntBinary(Binary::RemU),
            "arith.minsi" => return IntBinary(Binary::Min),
            "arith.minui" => return IntBinary(Binary::MinU),
            "arith.maxsi" => return IntBinary(Binary::Max),
            "arith.maxui" => return IntBinary(Binary::MaxU),
            "arith.andi" => return IntBinary(Binary::And),
            "arith.ori" => return IntBinary(Binary::Or),
            "arith.xori" => return IntBinary(Binary::Xor),
            "arith.shli" => return IntBinary(Binary::Shl),
            "arith.shrsi" => return IntBinary(Binary::Shr),
            "arith.shrui" => return IntBinary(Binary::ShrU),
            "arith.addi" => return IntBinary(Binary::Add),
            "arith.subi" => return IntBinary(Binary::Sub),
            "arith.muli" => return IntBinary(Binary::Mul),
            "arith.addf" => return FloatBinary(Binary::Add),
            "arith.subf" => return FloatBinary(Binary::Sub),
            "arith.mulf" => return FloatBinary(Binary::Mul),
            "arith.divf" => return FloatBinary(Binary::Div),
            "arith.maximumf" | "arith.maxnumf" => return FloatBinary(Binary::Max),
            "arith.minimumf" | "arith.minnumf" => return FloatBinary(Binary::Min),
            "arith.remf" => return FloatBinary(Binary::Fmod),
            "math.exp" => return MathUnary(Unary::Exp),
            "math.log" => return MathUnary(Unary::Log),
            "math.sqrt" => return MathUnary(Unary::Sqrt),
            "math.rsqrt" => return MathUnary(Unary::Rsqrt),
            "math.absf" => return MathUnary(Unary::Abs),
            "math.sin" => return MathUnary(Unary::Sin),
            "math.cos" => return MathUnary(Unary::Cos),
            "scf.for" => return For,
            "scf.if" => return If,
            "scf.while" => return While,
            "scf.condition" => return Condition,
            "scf.yield" | "pl.yield" | "pld.yield" => return Yield,
            "func.return" => return Return,
            "pl.call" | "func.call" => return Call,
            "pl.submit" => return Submit,
            "pld.dispatch" => return Dispatch,
            "pl.incore_scope" | "pl.cluster_scope" | "pl.spmd_scope" | "pl.runtime_scope" => {
                return Scope;
            }
            "pld.comm_domain" => return CommDomain,
            "pl.tile.load" => return TileLoad,
            "pl.tile.store" => return TileStore,
            "pl.tile.create" => return TileCreate,
            "pl.tile.full" => return TileFull,
            "pl.tile.move" => return TileMove,
            "pl.tile.fillpad" => return TileFillpad,
            "pl.tile.set_validshape" => return TileSetValid,
            "pl.tile.cast" => return TileCast,
            "pl.tile.read" => return TileRead,
            "pl.tile.write" => return TileWrite,
            "pl.tile.slice" => return TileSlice,
            "pl.tile.reshape" => return TileReshape,
            "pl.tile.transpose" => return TileTranspose,
            "pl.tile.extract" => return TileExtract,
            "pl.tile.assemble" => return TileAssemble,
            "pl.tile.expands" => return TileExpands,
            "pl.tile.matmul" => return TileMatmul,
            "pl.tile.matmul_acc" => return TileMatmulAcc,
            "pl.tile.matmul_bias" => return TileMatmulBias,
            // A matrix-vector product is a matrix product with one row
            // (the accumulation phase only schedules the hardware).
            "pl.tile.gemv" => return TileMatmul,
            "pl.tile.gemv_acc" => return TileMatmulAcc,
            "pl.tile.gemv_bias" => return TileMatmulBias,
            "pl.tile.cmp" => return TileCmp,
            "pl.tile.cmps" => return TileCmps,
            "pl.tile.sel" => return TileSel,
            "pl.tile.sels" => return TileSels,
            "pl.tile.get_block_idx" => return TileBlockIdx,
            "pl.tile.get_block_num" => return TileBlockNum,
            "pl.tile.get_subblock_idx" => return TileSubblockIdx,
            "pl.tensor.create" => return TensorCreate,
            "pl.tensor.full" => return TensorFull,
            "pl.tensor.view" => return TensorView,
            "pl.tensor.reshape" => return TensorReshape,
            "pl.tensor.slice" => return TensorSlice,
            "pl.tensor.dim" => return TensorDim,
            "pl.tensor.read" => return TensorRead,
            "pl.tensor.write" => return TensorWrite,
            "pl.tensor.assemble" => return TensorAssemble,
            "pl.tensor.transpose" => return TensorTranspose,
            "pl.tensor.cast" => return TensorCast,
            "pl.tensor.fillpad" => return TensorFillpad,
            "pl.tensor.matmul" => return TensorMatmul,
            "pl.tensor.matmul_acc" => return TensorMatmulAcc,
            "pl.tensor.expands" => return TensorExpands,
            "pl.system.fence"
            | "pl.system.cacheinvalid"
            | "pl.system.bar_v"
            | "pl.system.bar_m"
            | "pl.system.bar_all"
            | "pl.system.sync_src"
            | "pl.system.sync_dst"
            | "pl.system.sync_set"
            | "pl.system.sync_wait"
            | "pl.system.pipe_barrier" => return Nop,
            "pld.system.world_size" => return WorldSize,
            "pld.system.get_comm_ctx" => return GetCommCtx,
            "pld.system.rank" => return Rank,
            "pld.system.nranks" => return Nranks,
            "pld.system.notify" => return Notify,
            "pld.system.wait" => return Wait,
            "pld.system.defer_wait" => return DeferWait,
            "pld.tensor.alloc_window_buffer" => return AllocWindow,
            "pld.tensor.window" => return Window,
            "pld.tile.remote_load" => return RemoteLoad,
            "pld.tile.remote_store" | "pld.tensor.remote_store" => return RemoteStore,
            "pld.tile.put" => return TilePut,
            "pld.tile.get" => return TileGet,
            "pld.tensor.put" => return TensorPut,
            "pld.tensor.get" => return TensorGet,
            _ => {}
        }
        if let Some(rest) = name.strip_prefix("pld.tensor.") {
            return collective_name(rest).map_or(Unsupported, Collective);
        }
        if let Some(rest) = name.strip_prefix("pld.builtin.") {
            return collective_name(rest).map_or(Unsupported, Builtin);
        }
        for (prefix, tile) in [("pl.tile.", true), ("pl.tensor.", false)] {
            let Some(rest) = name.strip_prefix(prefix) else {
                continue;
            };
            if let Some(binary) = binary_name(rest) {
                return if tile {
                    TileBinary(binary)
                } else {
                    TensorBinary(binary)
                };
            }
            if let Some(unary) = unary_name(rest) {
                return if tile {
                    TileUnary(unary)
                } else {
                    TensorUnary(unary)
                };
            }
            if let Some(binary) = scalar_name(rest) {
                return if tile {
                    TileScalar(binary)
                } else {
                    TensorScalar(binary)
                };
            }
            if let Some(reduce) = rest.strip_prefix("row_").and_then(reduce_name) {
                return if tile {
                    TileRowReduce(reduce)
                } else {
                    TensorRowReduce(reduce)
                };
            }
            if let Some(reduce) = rest.strip_prefix("col_").and_then(reduce_name) {
                return if tile {
                    TileColReduce(reduce)
                } else {
                    TensorColReduce(reduce)
                };
            }
            if let Some(binary) = rest.strip_prefix("row_expand").and_then(expand_name) {
                return if tile {
                    TileRowExpand(binary)
                } else {
                    TensorRowExpand(binary)
                };
            }
            if let Some(binary) = rest.strip_prefix("col_expand").and_then(expand_name) {
                return if tile {
                    TileColExpand(binary)
                } else {
                    TensorColExpand(binary)
                };
            }
        }
        Unsupported
    }
}
