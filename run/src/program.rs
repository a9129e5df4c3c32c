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
    enums::{EnumAttr, FunctionKind, I32Enum, Level, ParamDirection, Role},
    op_table::{Compute, Family, OpInfo, OpKind, kind},
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

/// Typed access to an op's `pl`/`pld` enum attributes, as on MLIR ops:
/// `op.enum_attr::<RoundMode>("mode")`.
impl EnumAttr for Op {
    fn enum_attr<E: I32Enum>(&self, name: &str) -> Option<E> {
        match self.attr(name)? {
            Attr::Int(code) => E::from_code(i32::try_from(*code).ok()?),
            _ => None,
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
    /// Whether the body holds a `pl.system.syncall` (its launches that
    /// start their blocks together run them at once).
    pub has_syncall: bool,
    /// The vector cores a core group launching this kernel runs: two when
    /// a push or pop splits its tile between them
    /// (`pto_dialects::verify::group_lanes`).
    pub group_lanes: u32,
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

    /// Compiles every `func.func` of `module`. Parameters are known by the
    /// names the IR gives them (`pto_dialects::source::name_arguments`),
    /// else as `arg<i>`.
    ///
    /// A host program's window buffers belong to the comm domains its
    /// dispatches imply: when buffers sit outside any `pld.comm_domain`,
    /// the program runs with the domains `pld-materialize-comm-domains`
    /// makes explicit (on a copy), so that a program and its lowering agree
    /// on ranks and rank counts.
    pub fn compile(module: &Module) -> Result<Self, RunError> {
        if !buffers_outside_domains(module) {
            return Self::compile_module(module);
        }
        let context = pto_dialects::ir::context(&module.as_operation());
        let copy = pto_dialects::ir::clone(&module.as_operation());
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
        Self::compile_module(&copy)
    }

    fn compile_module(module: &Module) -> Result<Self, RunError> {
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
            let function = compile_function(op)?;
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
            dispatches |= kind(&op) == Some(OpKind::PldDispatch);
            if !found && kind(&op) == Some(OpKind::PldTensorAllocWindowBuffer) {
                let mut parent = op.parent_operation();
                let mut inside = false;
                while let Some(p) = parent {
                    if kind(&p) == Some(OpKind::PldCommDomain) {
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
    slots: HashMap<pto_dialects::ir::ValueKey, Slot>,
}

impl Compiler {
    fn slot(&mut self, value: Value) -> Slot {
        let key = pto_dialects::ir::ValueKey::of(value);
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
        let mut attrs: Vec<(String, Attr)> = op
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
        let code = Code::of(op);
        if code == Code::PipeFree {
            // A free gives back the slot of the pop that made its operand.
            let pop = operands
                .first()
                .and_then(|v| melior::ir::operation::OperationResult::try_from(*v).ok())
                .map(|r| r.owner());
            if let Some(id) = pop.and_then(|p| p.attribute("id").ok()).map(decode) {
                attrs.push(("popped_id".to_string(), id));
            }
        }
        Ok(Op {
            code,
            name: name.to_string(),
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

fn compile_function(op: OperationRef) -> Result<Function, RunError> {
    let name = attrs::text_of(op, "sym_name").unwrap_or_default();
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
        .map(|(i, v)| pto_dialects::ir::parameter_name(*v, i))
        .collect();
    let param_locations = arguments
        .iter()
        .map(|v| location_text(v.location()))
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
        has_syncall: has_syncall(&body.ops),
        group_lanes: pto_dialects::verify::group_lanes(&[op]).unwrap_or(2),
        body,
        location,
    })
}

/// Whether `ops` (at any depth) hold a `pl.system.syncall`.
fn has_syncall(ops: &[Op]) -> bool {
    ops.iter().any(|op| {
        matches!(op.code, Code::Syncall) || op.regions.iter().any(|r| has_syncall(&r.ops))
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

/// Index sequences, sorts and gathers (run/src/interp/indexing.rs), each a
/// tile op and, with a tensor form, a tensor op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Indexing {
    /// `ci`: an index sequence.
    Sequence,
    /// `sort32`: 32-element blocks sorted into (value, index) pairs.
    SortBlocks,
    /// `mrgsort_format1`: groups of four sorted runs of one row merged.
    MergeRuns,
    /// `mrgsort_format2`: two to four sorted lists merged.
    MergeLists,
    /// `gather`: elements by flat index.
    Gather,
    /// `gather_mask`: the columns a mask pattern selects.
    GatherMask,
    /// `pl.tensor.gather`: elements along one axis by index.
    GatherAxis,
    /// `pl.tile.scatter`: elements to flat indices of a zeroed tile.
    Scatter,
    /// `pl.tensor.scatter`: elements replaced along one axis by index.
    ScatterAxis,
    /// `scatter_update`: rows replaced by index.
    ScatterRows,
    /// `scatter_mask`: rows spread over the columns a pattern selects.
    ScatterMask,
    /// `gatherb`: 32-byte blocks by byte offset.
    GatherBlocks,
    /// `gather_row`: a window of a tensor into a window of the target.
    GatherRow,
    /// `paged_gather`: rows of a paged cache through a block table.
    PagedGather,
    /// `mgather`: rows or elements of a tensor by index.
    TableGather,
    /// `mscatter`: rows or elements of a tile into a tensor by index.
    TableScatter,
    /// `reinterpret_view`: the same bytes as another element type.
    Reinterpret,
    /// `random`: counter-based random bits (Philox-4x32).
    Random,
    /// `tri`: a triangular mask of ones and zeros.
    Triangle,
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

/// What an op does, decoded once when the program is compiled: a `pl` or
/// `pld` op from its entry in the op table ([`Code::of_kind`]), an upstream
/// op from its name.
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
    TileIndexing(Indexing),
    TensorIndexing(Indexing),
    /// `part_*`: over the first operand's valid region, the second's
    /// where it holds data.
    TilePartial(Binary),
    TensorPartial(Binary),
    /// `addc` and friends: `(a op b) + c`.
    TileCarry(Binary),
    TileConcat,
    TileFillpadExpand,
    /// Task ids and launch sizes (`pl.system.task_*`, `available_*`).
    TaskDummy,
    /// `gather_compare`, tile or tensor form: the columns whose element
    /// compares true with a key, and their counts (two results).
    GatherCompare,
    /// A prefetch context, prefetch or session: a handle (pto-run models
    /// no cache).
    PrefetchHandle,
    /// `ub.poison`: a value nothing may read (upstream passes, such as
    /// remove-dead-values, put it where a result is never used).
    Poison,
    /// `pl.prefetch.wait`: done (true).
    PrefetchWait,
    TaskInvalid,
    TaskIsValid,
    ClusterCount,
    AivCount,
    /// `pl.array.*`.
    ArrayCreate,
    ArrayGet,
    ArraySet,
    TensorCreate,
    TensorFull,
    TensorView,
    TensorReshape,
    TensorSlice,
    TensorDim,
    TensorRead,
    TensorWrite,
    TensorAssemble,
    TensorConcat,
    TensorTranspose,
    TensorCast,
    TensorFillpad,
    TensorFillpadExpand,
    TensorSetValid,
    TensorExpandClone,
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
    /// `pl.system.syncall`: a barrier across the blocks of the launch.
    Syncall,
    /// A cross-core pipe's set-up, push, pop and free (run/src/interp/pipes.rs).
    PipeSetup,
    PipePush,
    PipePop,
    PipeFree,
    /// `aiv_shard` / `aic_gather`: the value itself when split `none`
    /// (each core has it whole); a split one is per vector core, which
    /// only the core group pl-expand-mixed-kernel makes runs.
    CoreBoundary,
    /// `reserve_buffer` / `import_peer_buffer`: a ring's address (its
    /// `base`, else 0: pto-run's tiles are values, not addresses).
    RingAddress,
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

/// Why pto-run does not execute an op: the `pl` ops outside what
/// docs/pto-run.md ("Values and numerics") lists as running, each the
/// reason [`supports`] gives.
pub mod unsupported {
    /// `pl.tensor.cmp`, `pl.tensor.cmps`: comparisons run on tiles
    /// (`pl.tile.cmp`, the form pl-convert-tensor-to-tile makes).
    pub const TENSOR_COMPARE: &str =
        "tensor comparisons are not modelled; their tile forms (pl.tile.cmp, pl.tile.cmps) run";
    /// `pl.tensor.sel`, `pl.tensor.sels`: selections run on tiles.
    pub const TENSOR_SELECT: &str =
        "tensor selections are not modelled; their tile forms (pl.tile.sel, pl.tile.sels) run";
    /// `pl.tile.alloc`: a raw address in a memory space, where pto-run's
    /// tiles are values (docs/pto-run.md, "Values and numerics").
    pub const TILE_ALLOC: &str =
        "raw tile buffers are not modelled (pto-run's tiles are values, not addresses)";
    /// `pl.tile.batch_matmul`, `pl.tile.batch_matmul_acc`.
    pub const BATCH_MATMUL: &str = "batched matrix products are not modelled";
    /// An op of a family whose ops pto-run decodes one by one, added to the
    /// table after pto-run's rules were written.
    pub const NO_RULE: &str = "pto-run has no rule for this op of its family";
    /// An elementwise, reduction or expansion op whose computation has no
    /// meaning in pto-run's rule for its family.
    pub const NO_COMPUTATION: &str = "pto-run has no rule for this op's computation";
}

/// Whether pto-run executes ops of `kind`, and if not, why (a program
/// using one fails with a located `pto-run does not execute` error).
pub fn supports(kind: OpKind) -> Result<(), &'static str> {
    Code::of_kind(kind).map(|_| ())
}

/// What pto-run computes for a table computation: one exhaustive match, so
/// a new `Compute` fails to build until it has its meaning here. `max` and
/// `min` name both the expansions' binary operation and a reduction;
/// `broadcast` is "the right operand".
#[derive(Clone, Copy)]
enum Computation {
    Binary(Binary),
    Unary(Unary),
    Reduce(Reduce),
    BinaryOrReduce(Binary, Reduce),
}

fn computation(compute: Option<Compute>) -> Result<Computation, &'static str> {
    use Computation::{Binary as B, BinaryOrReduce as BR, Reduce as R, Unary as U};
    use Compute as C;
    Ok(match compute.ok_or(unsupported::NO_COMPUTATION)? {
        C::Add => B(Binary::Add),
        C::Sub => B(Binary::Sub),
        C::Mul => B(Binary::Mul),
        C::Div => B(Binary::Div),
        C::Maximum => B(Binary::Max),
        C::Minimum => B(Binary::Min),
        C::Fmod => B(Binary::Fmod),
        C::Rem => B(Binary::Rem),
        C::And => B(Binary::And),
        C::Or => B(Binary::Or),
        C::Xor => B(Binary::Xor),
        C::Shl => B(Binary::Shl),
        C::Shr => B(Binary::Shr),
        C::Prelu => B(Binary::Prelu),
        C::Lrelu => B(Binary::Lrelu),
        C::Expdif => B(Binary::ExpDif),
        C::Broadcast => B(Binary::Second),
        C::Max => BR(Binary::Max, Reduce::Max),
        C::Min => BR(Binary::Min, Reduce::Min),
        C::Neg => U(Unary::Neg),
        C::Exp => U(Unary::Exp),
        C::Log => U(Unary::Log),
        C::Sqrt => U(Unary::Sqrt),
        C::Rsqrt => U(Unary::Rsqrt),
        C::Recip => U(Unary::Recip),
        C::Abs => U(Unary::Abs),
        C::Relu => U(Unary::Relu),
        C::Not => U(Unary::Not),
        C::Sin => U(Unary::Sin),
        C::Cos => U(Unary::Cos),
        C::Sum => R(Reduce::Sum),
        C::Prod => R(Reduce::Prod),
        C::Argmax => R(Reduce::ArgMax),
        C::Argmin => R(Reduce::ArgMin),
    })
}

/// The binary operation a table computation names.
fn binary(compute: Option<Compute>) -> Result<Binary, &'static str> {
    match computation(compute)? {
        Computation::Binary(op) | Computation::BinaryOrReduce(op, _) => Ok(op),
        _ => Err(unsupported::NO_COMPUTATION),
    }
}

/// The unary operation a table computation names.
fn unary(compute: Option<Compute>) -> Result<Unary, &'static str> {
    match computation(compute)? {
        Computation::Unary(op) => Ok(op),
        _ => Err(unsupported::NO_COMPUTATION),
    }
}

/// The reduction a table computation names.
fn reduce(compute: Option<Compute>) -> Result<Reduce, &'static str> {
    match computation(compute)? {
        Computation::Reduce(op) | Computation::BinaryOrReduce(_, op) => Ok(op),
        _ => Err(unsupported::NO_COMPUTATION),
    }
}

impl Code {
    /// What `op` does: a `pl`/`pld` op by its kind in the op table, an
    /// upstream op (`arith`, `math`, `scf`, `func`) by its name.
    pub fn of(op: OperationRef) -> Self {
        match kind(&op) {
            Some(kind) => Self::of_kind(kind).unwrap_or(Code::Unsupported),
            None => Self::upstream(op_name(op)),
        }
    }

    /// What an op of `kind` does, or why pto-run does not execute it.
    ///
    /// The elementwise, scalar, reduction and expansion families take
    /// their operation from the table's computation, so that a new op of
    /// such a family needs no rule here; the other families' ops mean
    /// something of their own and are decoded one by one (a new one is
    /// [`unsupported::NO_RULE`] until it has a rule, which the coverage
    /// test `run/tests/coverage.rs` reports).
    pub fn of_kind(kind: OpKind) -> Result<Self, &'static str> {
        use Code::*;
        use OpKind as K;
        Ok(match kind {
            K::PlYield | K::PldYield => Yield,
            K::PlCall => Call,
            K::PlSubmit => Submit,
            K::PldDispatch => Dispatch,
            K::PlIncoreScope | K::PlClusterScope | K::PlSpmdScope | K::PlRuntimeScope => Scope,
            K::PldCommDomain => CommDomain,
            K::PlTileLoad => TileLoad,
            K::PlTileStore => TileStore,
            K::PlTileCreate => TileCreate,
            K::PlTileFull => TileFull,
            K::PlTileAlloc => return Err(unsupported::TILE_ALLOC),
            K::PlTileMove => TileMove,
            K::PlTileFillpad | K::PlTileFillpadInplace => TileFillpad,
            K::PlTileFillpadExpand => TileFillpadExpand,
            K::PlTileConcat => TileConcat,
            K::PlTileTri => TileIndexing(Indexing::Triangle),
            K::PlTileSetValidshape => TileSetValid,
            K::PlTileCast => TileCast,
            K::PlTileRead => TileRead,
            K::PlTileWrite => TileWrite,
            K::PlTileSlice => TileSlice,
            K::PlTileReshape => TileReshape,
            K::PlSystemSyncall => Syncall,
            K::PlSystemAicInitializePipe | K::PlSystemAivInitializePipe => PipeSetup,
            K::PlTileTpushToAiv | K::PlTileTpushToAic => PipePush,
            K::PlTileTpopFromAic | K::PlTileTpopFromAiv => PipePop,
            K::PlSystemTfreeToAic | K::PlSystemTfreeToAiv => PipeFree,
            K::PlSystemReserveBuffer | K::PlSystemImportPeerBuffer => RingAddress,
            K::PlTileAivShard | K::PlTileAicGather | K::PlTensorAivShard | K::PlTensorAicGather => {
                CoreBoundary
            }
            // A view in the same buffer on the device; tiles are values
            // here, so it is the transpose.
            K::PlTileTranspose | K::PlTileTransposeView => TileTranspose,
            K::PlTileExtract => TileExtract,
            K::PlTileAssemble => TileAssemble,
            // A matrix-vector product is a matrix product with one row
            // (the accumulation phase only schedules the hardware).
            K::PlTileMatmul | K::PlTileGemv => TileMatmul,
            K::PlTileMatmulAcc | K::PlTileGemvAcc => TileMatmulAcc,
            K::PlTileMatmulBias | K::PlTileGemvBias => TileMatmulBias,
            K::PlTileBatchMatmul | K::PlTileBatchMatmulAcc => {
                return Err(unsupported::BATCH_MATMUL);
            }
            K::PlTileCmp => TileCmp,
            K::PlTileCmps => TileCmps,
            K::PlTileSel => TileSel,
            K::PlTileSels => TileSels,
            K::PlTileGetBlockIdx | K::PlTensorGetBlockIdx => TileBlockIdx,
            K::PlTileGetBlockNum | K::PlTensorGetBlockNum => TileBlockNum,
            K::PlTileGetSubblockIdx | K::PlTensorGetSubblockIdx => TileSubblockIdx,
            K::PlTileCi => TileIndexing(Indexing::Sequence),
            K::PlTileRandom => TileIndexing(Indexing::Random),
            K::PlTensorRandom => TensorIndexing(Indexing::Random),
            K::PlTileSort32 => TileIndexing(Indexing::SortBlocks),
            K::PlTileMrgsortFormat1 => TileIndexing(Indexing::MergeRuns),
            K::PlTileMrgsortFormat2 => TileIndexing(Indexing::MergeLists),
            K::PlTileGather => TileIndexing(Indexing::Gather),
            K::PlTileGatherMask => TileIndexing(Indexing::GatherMask),
            K::PlTileGatherCompare | K::PlTensorGatherCompare => GatherCompare,
            K::PlTileReinterpretView => TileIndexing(Indexing::Reinterpret),
            K::PlTensorCi => TensorIndexing(Indexing::Sequence),
            K::PlTensorSort32 => TensorIndexing(Indexing::SortBlocks),
            K::PlTensorMrgsortFormat1 => TensorIndexing(Indexing::MergeRuns),
            K::PlTensorMrgsortFormat2 => TensorIndexing(Indexing::MergeLists),
            K::PlTensorGatherMask => TensorIndexing(Indexing::GatherMask),
            K::PlTensorGather => TensorIndexing(Indexing::GatherAxis),
            K::PlTileScatter => TileIndexing(Indexing::Scatter),
            K::PlTensorScatter => TensorIndexing(Indexing::ScatterAxis),
            K::PlTileScatterUpdate => TileIndexing(Indexing::ScatterRows),
            K::PlTensorScatterUpdate => TensorIndexing(Indexing::ScatterRows),
            K::PlTileScatterMask => TileIndexing(Indexing::ScatterMask),
            K::PlTileGatherb => TileIndexing(Indexing::GatherBlocks),
            K::PlTileGatherRow => TileIndexing(Indexing::GatherRow),
            K::PlTileMgather => TileIndexing(Indexing::TableGather),
            K::PlTileMscatter => TileIndexing(Indexing::TableScatter),
            K::PlTensorGatherRow => TensorIndexing(Indexing::GatherRow),
            K::PlTensorPagedGather => TensorIndexing(Indexing::PagedGather),
            K::PlTensorScatterMask => TensorIndexing(Indexing::ScatterMask),
            K::PlTensorReinterpretView => TensorIndexing(Indexing::Reinterpret),
            K::PlArrayCreate => ArrayCreate,
            K::PlArrayGetElement => ArrayGet,
            K::PlArrayUpdateElement => ArraySet,
            K::PlSystemTaskDummy => TaskDummy,
            K::PlPrefetchMakeContext | K::PlPrefetchAsyncPrefetch | K::PlPrefetchSession => {
                PrefetchHandle
            }
            K::PlPrefetchWait => PrefetchWait,
            K::PlSystemTaskInvalid => TaskInvalid,
            K::PlSystemTaskIsValid => TaskIsValid,
            K::PlSystemAvailableClusterCount => ClusterCount,
            K::PlSystemAvailableAivCount => AivCount,
            // An L1 tensor is a tensor here (pto-run has one memory).
            K::PlTensorCreate | K::PlTensorCreateL1 => TensorCreate,
            K::PlTensorFull => TensorFull,
            K::PlTensorView => TensorView,
            K::PlTensorReshape => TensorReshape,
            K::PlTensorSlice => TensorSlice,
            K::PlTensorDim => TensorDim,
            K::PlTensorRead => TensorRead,
            K::PlTensorWrite => TensorWrite,
            K::PlTensorAssemble => TensorAssemble,
            K::PlTensorConcat => TensorConcat,
            K::PlTensorTranspose => TensorTranspose,
            K::PlTensorCast => TensorCast,
            K::PlTensorFillpad => TensorFillpad,
            K::PlTensorFillpadExpand => TensorFillpadExpand,
            K::PlTensorSetValidshape => TensorSetValid,
            K::PlTensorExpandClone => TensorExpandClone,
            K::PlTensorMatmul => TensorMatmul,
            K::PlTensorMatmulAcc => TensorMatmulAcc,
            K::PldSystemWorldSize => WorldSize,
            K::PldSystemGetCommCtx => GetCommCtx,
            K::PldSystemRank => Rank,
            K::PldSystemNranks => Nranks,
            K::PldSystemNotify => Notify,
            K::PldSystemWait => Wait,
            K::PldSystemDeferWait => DeferWait,
            K::PldTensorAllocWindowBuffer => AllocWindow,
            K::PldTensorWindow => Window,
            K::PldTileRemoteLoad => RemoteLoad,
            K::PldTileRemoteStore | K::PldTensorRemoteStore => RemoteStore,
            K::PldTilePut => TilePut,
            K::PldTileGet => TileGet,
            K::PldTensorPut => TensorPut,
            K::PldTensorGet => TensorGet,
            K::PldTensorBarrier => Collective(self::Collective::Barrier),
            K::PldTensorBroadcast => Collective(self::Collective::Broadcast),
            K::PldTensorAllgather => Collective(self::Collective::Allgather),
            K::PldTensorAllToAll => Collective(self::Collective::AllToAll),
            K::PldTensorAllToAllV => Collective(self::Collective::AllToAllV),
            K::PldTensorReduceScatter => Collective(self::Collective::ReduceScatter),
            K::PldTensorAllreduce => Collective(self::Collective::Allreduce),
            K::PldBuiltinBarrier => Builtin(self::Collective::Barrier),
            K::PldBuiltinBroadcast => Builtin(self::Collective::Broadcast),
            K::PldBuiltinAllgather => Builtin(self::Collective::Allgather),
            K::PldBuiltinAllToAll => Builtin(self::Collective::AllToAll),
            K::PldBuiltinAllToAllV => Builtin(self::Collective::AllToAllV),
            K::PldBuiltinReduceScatter => Builtin(self::Collective::ReduceScatter),
            K::PldBuiltinAllreduce => Builtin(self::Collective::Allreduce),
            K::PldBuiltinAllreduceRing => Builtin(self::Collective::AllreduceRing),
            _ => return Self::of_family(kind.info()),
        })
    }

    /// The families whose ops differ only in what they compute.
    fn of_family(info: &OpInfo) -> Result<Self, &'static str> {
        use Code::*;
        use Family as F;
        let compute = info.compute;
        Ok(match info.family {
            // A sequential thread already orders its memory accesses and
            // pipes: synchronisation is a no-op (docs/pto-run.md).
            F::Sync | F::MemoryOrder => Nop,
            // `expands` fills the whole tile, invalid region included.
            F::TileScalar if compute == Some(Compute::Broadcast) => TileExpands,
            F::TensorScalar if compute == Some(Compute::Broadcast) => TensorExpands,
            F::TileBinary => TileBinary(binary(compute)?),
            F::TileScalar => TileScalar(binary(compute)?),
            F::TileUnary => TileUnary(unary(compute)?),
            F::TileRowReduce => TileRowReduce(reduce(compute)?),
            F::TileColReduce => TileColReduce(reduce(compute)?),
            F::TileRowExpand => TileRowExpand(binary(compute)?),
            F::TileColExpand => TileColExpand(binary(compute)?),
            F::TensorBinary => TensorBinary(binary(compute)?),
            F::TensorScalar => TensorScalar(binary(compute)?),
            F::TensorUnary => TensorUnary(unary(compute)?),
            F::TensorRowReduce => TensorRowReduce(reduce(compute)?),
            F::TensorColReduce => TensorColReduce(reduce(compute)?),
            F::TensorRowExpand => TensorRowExpand(binary(compute)?),
            F::TensorColExpand => TensorColExpand(binary(compute)?),
            F::TilePartial => TilePartial(binary(compute)?),
            F::TensorPartial => TensorPartial(binary(compute)?),
            F::TileCarry => TileCarry(binary(compute)?),
            F::TensorCompare => return Err(unsupported::TENSOR_COMPARE),
            F::TensorSelect => return Err(unsupported::TENSOR_SELECT),
            F::TileCompare
            | F::TileSelect
            | F::TileCast
            | F::TileMatmul
            | F::TileMove
            | F::TileTransfer
            | F::TileCreate
            | F::TileView
            | F::TileTranspose
            | F::TileFillpad
            | F::TileAccess
            | F::TileAssemble
            | F::TensorCast
            | F::TensorMatmul
            | F::TensorCreate
            | F::TensorView
            | F::TensorFillpad
            | F::TensorAccess
            | F::TensorAssemble
            | F::TileGenerate
            | F::TileSort
            | F::TileGather
            | F::TileScatter
            | F::TensorGenerate
            | F::TensorSort
            | F::TensorGather
            | F::TensorScatter
            | F::TileGatherRow
            | F::TensorGatherRow
            | F::TileConcat
            | F::Task
            | F::Prefetch
            | F::CrossCore
            | F::CoreBoundary
            | F::Array
            | F::BlockQuery
            | F::Scope
            | F::Call
            | F::Terminator
            | F::Collective
            | F::BuiltinCollective
            | F::RankQuery
            | F::Signal
            | F::Window
            | F::RemoteAccess
            | F::RemoteTransfer => return Err(unsupported::NO_RULE),
        })
    }

    /// What an upstream op does, by its name.
    fn upstream(name: &str) -> Self {
        use Code::*;
        match name {
            "arith.constant" => Constant,
            "ub.poison" => Poison,
            "arith.index_cast" | "arith.index_castui" | "arith.extsi" | "arith.extui" => IntCast,
            "arith.trunci" => TruncI,
            "arith.sitofp" => SIToFP,
            "arith.uitofp" => UIToFP,
            "arith.fptosi" => FPToSI,
            "arith.fptoui" => FPToUI,
            "arith.extf" | "arith.truncf" => FloatCast,
            "arith.cmpi" => Cmpi,
            "arith.cmpf" => Cmpf,
            "arith.select" => Select,
            "arith.negf" => NegF,
            "arith.divsi" => IntBinary(Binary::Div),
            "arith.divui" => IntBinary(Binary::DivU),
            "arith.floordivsi" => IntBinary(Binary::FloorDiv),
            "arith.ceildivsi" => IntBinary(Binary::CeilDiv),
            "arith.ceildivui" => IntBinary(Binary::CeilDivU),
            "arith.remsi" => IntBinary(Binary::Fmod),
            "arith.remui" => IntBinary(Binary::RemU),
            "arith.minsi" => IntBinary(Binary::Min),
            "arith.minui" => IntBinary(Binary::MinU),
            "arith.maxsi" => IntBinary(Binary::Max),
            "arith.maxui" => IntBinary(Binary::MaxU),
            "arith.andi" => IntBinary(Binary::And),
            "arith.ori" => IntBinary(Binary::Or),
            "arith.xori" => IntBinary(Binary::Xor),
            "arith.shli" => IntBinary(Binary::Shl),
            "arith.shrsi" => IntBinary(Binary::Shr),
            "arith.shrui" => IntBinary(Binary::ShrU),
            "arith.addi" => IntBinary(Binary::Add),
            "arith.subi" => IntBinary(Binary::Sub),
            "arith.muli" => IntBinary(Binary::Mul),
            "arith.addf" => FloatBinary(Binary::Add),
            "arith.subf" => FloatBinary(Binary::Sub),
            "arith.mulf" => FloatBinary(Binary::Mul),
            "arith.divf" => FloatBinary(Binary::Div),
            "arith.maximumf" | "arith.maxnumf" => FloatBinary(Binary::Max),
            "arith.minimumf" | "arith.minnumf" => FloatBinary(Binary::Min),
            "arith.remf" => FloatBinary(Binary::Fmod),
            "math.exp" => MathUnary(Unary::Exp),
            "math.log" => MathUnary(Unary::Log),
            "math.sqrt" => MathUnary(Unary::Sqrt),
            "math.rsqrt" => MathUnary(Unary::Rsqrt),
            "math.absf" => MathUnary(Unary::Abs),
            "math.sin" => MathUnary(Unary::Sin),
            "math.cos" => MathUnary(Unary::Cos),
            "scf.for" => For,
            "scf.if" => If,
            "scf.while" => While,
            "scf.condition" => Condition,
            "scf.yield" => Yield,
            "func.return" => Return,
            "func.call" => Call,
            _ => Unsupported,
        }
    }
}
