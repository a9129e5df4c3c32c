//! `convert-pl-to-emitc`: planned, synchronised pl kernels as EmitC calls on
//! the pto-isa C++ API. What it does and why: [`PASS`]`.description` (also
//! docs/passes/convert-pl-to-emitc.md).

use pto_dialects::ir::ValueKey;
use pto_dialects::ops::Checked;
use std::collections::HashMap;

use melior::{
    Context,
    ir::{
        Attribute, Block, BlockLike, BlockRef, Identifier, Location, OperationRef, Region,
        RegionLike, Type, TypeLike, Value, ValueLike,
        attribute::{
            ArrayAttribute, DenseI64ArrayAttribute, IntegerAttribute, StringAttribute,
            TypeAttribute,
        },
        operation::{OperationBuilder, OperationLike, OperationMutLike, WalkOrder, WalkResult},
        r#type::{FunctionType, IntegerType},
    },
};
use pto_dialects::{
    diag::{OpDiagnostic, Severity},
    dtype::Dtype,
    op_table::{Family, Group},
    ops::{OpKind, op_name, operand_at, result_at},
    types::{CommCtxType, TensorLike, TileType},
};

mod array_storage;
mod arrays;
pub(crate) use array_storage::give_arrays_storage;
pub(crate) use arrays::{TaskIds, lower_array_op};
mod column_vectors;
mod cross_core;
pub use cross_core::record_peer_bases;
mod elementwise;
mod indexing;
mod matmul;
mod movement;
mod pld;
mod prefetch;
mod reduce;
mod scalar_access;
mod system;

use pld::COMM_HELPERS;

use super::{
    build::{self, opaque, opaque_attribute, pointer},
    cpp_types,
    kernel_entry::{self, EntryArg},
};
use crate::{
    options::{OptionKind, OptionSpec, OptionValues},
    pl::linear::value_key,
    pld::ir::detach,
    registry::{PassDefinition, PassFailed, Run},
};

/// The registry entry.
pub static PASS: PassDefinition = PassDefinition {
    argument: "convert-pl-to-emitc",
    class_name: "ConvertPLToEmitC",
    summary: "Lower planned, synchronised pl kernels to EmitC calls on the pto-isa API",
    description: r#"Every aic/aiv kernel (after `pto-a2a3-pipeline`: 2-D tiles with memory
spaces, `pl.addresses`, and synchronisation) becomes an `emitc.func` with
the `__global__ AICORE` specifiers of PTOAS's kernels:

- tensor parameters become `__gm__ T*` pointers; `index` parameters
  `size_t`; the kernel returns nothing (its results are its `out`
  parameters);
- every tile value becomes a `Tile<TileType::…, T, R, C, BLayout::…, VR, VC,
  SLayout::…, fractal, PadValue::…>` object bound to its planned address
  with `TASSIGN` (several objects may share an address);
- loads and stores build a five-dimensional `GlobalTensor<…>` over the
  window (pointer plus the row-major offset) and call `TLOAD(tile, gm)` /
  `TSTORE(gm, tile)`;
- tile compute ops call their instruction with the destination first
  (`TADD(dst, a, b)`, `TROWSUM(dst, src, tmp)`, `TROWEXPANDSUB(dst, a, b)`,
  `TEXPANDS(dst, s)`, `TMOV`, `TEXTRACT(dst, src, row, col)`,
  `TMATMUL(c, a, b)`, `TMATMUL_ACC(c, c_in, a, b)` — with an `init` flag,
  an `if` choosing between the two —, `TCVT(dst, src, RoundMode::…)`);
- `pl.system.sync_src`/`sync_dst`/`pipe_barrier` become `set_flag`,
  `wait_flag` and `pipe_barrier` on `PIPE_…`/`EVENT_ID…`;
- a column vector (an `[N, 1]` col_major tile, what row reductions make)
  takes part in an elementwise op as a `[1, N]` row-major object at the
  same address (the same elements in the same order): pto-isa's vector
  instructions take row-major tiles;
- `pl.tensor.read` and `pl.tensor.write` of one element of a kernel tensor
  call `pto_gm_read(pointer, index)` / `pto_gm_write(pointer, index,
  value)` (guarded helpers the file gains) at the row-major index;
- prefetches become pto-isa's: `PrefetchAsyncContext()`,
  `TPREFETCH_ASYNC(gm, context)` on a `GlobalTensor` of the whole tensor,
  and `pto_prefetch_session(context)` / `pto_prefetch_wait(event,
  session)` (guarded helpers the file gains: the context's session field,
  the event's `Wait`); the context has no SDMA workspace, with which
  pto-isa issues no prefetch;
- loop-carried tiles and tensors are dropped from `scf.for`: planning put
  the init, the iteration argument, the yield and the result in one buffer
  (tensors are one pointer), so the body uses the init's object.

The module gains `#include <cstdint>`, `#include "pto/pto-inst.hpp"` and
`using namespace pto;`.
Each dynamic extent of a tensor parameter is one more `size_t` parameter
(after all others, in parameter and axis order) that `pl.tensor.dim`
reads; a tensor with a dynamic extent after its leading one has its
`GlobalTensor` strides at run time (`pto::Stride<-1, -1, -1, -1, -1>(…)`,
products of the extents); tiles with runtime valid
extents are constructed with them (`Tile<…, -1, C, …>(rows, C)`, a clamped
load narrowing them to the tensor's edge), and results take them from their
operands. Index arithmetic and loops are left to the upstream
`arith-expand`, `arith-signed-index-to-i64`, `scf-while-index-to-i64`, `convert-arith-to-emitc` and `convert-scf-to-emitc`
(pto-translate runs them next).

Communication in kernels lowers here too: a `!pld.dtensor` parameter is a
`__gm__ T*` to this rank's copy, each `!pld.comm_ctx` a `__gm__ int64_t*`
CommContext (slot 2 holds the rank id in its low and the rank count in its
high 32 bits, slot 4 + k rank k's window base) read by `pld_rank`/
`pld_nranks`; a peer's copy is `pld_peer(ptr, ctx, peer)` =
`ptr - ctx[4 + me] + ctx[4 + peer]`; remote loads and stores, tile and
tensor put/get, notify/wait, fences and cache invalidation become `TLOAD`/
`TSTORE` on the peer's window, `pto::comm::TPUT`/`TGET`/`TNOTIFY`/`TWAIT`,
`pipe_barrier` + `dsb` and `dcci`.

With `kernel-entry=true` (pto-translate's `--target=a2a3`) the kernel
becomes `static __aicore__` and an `extern "C" kernel_entry(__gm__
int64_t* args)` unpacks the runtime's arguments and calls it:
one `ChipTensor*` descriptor per tensor parameter, then one 64-bit payload
per scalar, CommContexts last; dynamic extents come from the descriptors'
`shapes`. The entry's name is fixed, so this wants one kernel per module.

Compares (`TCMP(mask, a, b, CmpMode::LT)`) write the packed predicate
mask selects read (`TSEL(dst, mask, a, b, tmp)`); arg-reductions, bitwise
and shift ops, remainders, ReLU variants, transposes (`TTRANS`), bias and
matrix-vector products take their pto-isa instructions; `pl.tile.read` is
`GetValue` into a variable; block queries call `get_block_idx()`,
`get_block_num()` and `get_subblockid()`.

A tile slice is a copy into its own buffer (`TEXTRACT(dst, src, row,
col)`); an assemble writes its source into the target's buffer, which the
result shares (`TINSERT(dst, src, row, col)`).

Partial ops, joins and fills are their instructions (`TPARTADD(dst, a,
b)`, `TCONCAT(dst, a, b)`, `TFILLPAD_INPLACE(dst, src)` with the
destination at the source's address, `TFILLPAD_EXPAND(dst, src)`); the
carrying ops have none (pl-lower-math-ops decomposes them).

Index sequences, masks, sorts and gathers spell out the template arguments
pto-isa does not deduce: `TCI<Tile<…>, T, descending>(dst, start)`,
`TTRI<Tile<…>, upper>(dst, diagonal)`,
`TSORT32(dst, src, idx)`, `TMRGSORT(dst, src, blockLen)` for the runs of
one row, `TMRGSORT<Dst, Tmp, S0, S1, …, exhausted>(dst, counts, tmp, s0,
s1, …)` for lists (`counts` a `MrgSortExecutedNumList` pl has no result
for), `TGATHER(dst, src, idx, tmp)`, `TGATHER<Dst, Src,
MaskPattern::P…>(dst, src)`, `TGATHERB(dst, src, offsets)` (its
source's rows whole 32-byte blocks, as the verifier requires) and
`MGATHER<Coalesce::Row|Elem, GatherOOB::…>(dst, table, indices)` on a
`GlobalTensor` of the whole table (the mode always spelt: pto-isa's
default differs between a2a3 and its CPU backend). A masked gather's destination rows must be a
whole number of 32 bytes (pto-isa streams the kept elements over its
storage), and an indexed gather's source one row or rows of a whole
number of 32 bytes (it reads a flat index of the storage); other forms
are errors at the op. A `reinterpret_view` is another object at its
source's address. A scatter is `TEXPANDS(dst, {})` then `TSCATTER(dst,
src, indexes)`: a2a3's TSCATTER zeroes its destination and pto-isa's CPU
backend does not, so the fill makes both compute the op (its destination,
like a gather's source, is one row or rows of a whole number of 32
bytes); a masked scatter is `TSCATTER<MaskPattern::P…>(dst, src)` (its
source's rows a whole number of 32 bytes: pto-isa's CPU backend streams
its storage).

A `pl.array` is a zeroed C array on the core's stack (`int32_t v[8] =
{0};`, an `index` element an `int64_t`), read as `v[i]` and written in
place (`v[i] = x;`); a loop carrying it carries nothing. Arrays stay
values: an update (or a loop carrying an array) whose array is read
later, is defined outside the update's block, or is carried twice works
on a copy (a fresh array and a loop over its elements); a loop yielding
an array of other storage than it carries, and a branch yielding an
array, copy it into the carried (or a fresh) array. A while loop
carrying an array is not translated yet.

An `atomic_add` store is `TSTORE<Tile<…>, GlobalTensor<…>,
AtomicType::AtomicAdd>(gm, tile)` (pto-isa names both types).

Cross-core pipes take pto-isa's `TPipe<id, directions, slot_size, slots,
local>` over the set-up's gm slot buffer (pl-inject-gm-pipe-buffer's; a
set-up without one is an error) and the rings' planned addresses (a
reservation's `base`; an import's `base`, else its peer's reservation in
the module), through guarded helpers the file gains: `pto_pipe<TPipe<…>>(gm,
c2v, v2c, ring)` keeps the pipe with the ring this core pops into and a
count of its pops; `pto_tpush<split>(pipe, tile)`, `pto_tpop<split>(pipe,
tile)` and `pto_tfree<split>(pipe)` call `TPUSH`/`TPOP`/`TFREE<Pipe, Tile,
TileSplitAxis::…>`, a popped tile (a new `Tile<…>`, not planned) bound first
to local slot `pops % local` of the ring, where a2a3's TPOP points it (the
CPU backend copies into it). A core group's function, the launch of its
kernels, is erased (the host program launches them).

Ops without a lowering (tensor-level ops, batch matmuls; `sin`/`cos`,
which pl-lower-math-ops decomposes before) are errors at the op; so is a module whose orchestrations
call the kernels (lower each kernel in a module of its own, as
pto-translate does).

Before:

```mlir
%t = pl.tile.load %a[%c0, %c0] {pl.addresses = array<i64: 0>} : !pl.tensor<16x64xf32> -> !pl.tile<16x64xf32, vec>
```

After:

```mlir
%0 = emitc.call_opaque "Tile<TileType::Vec, float, 16, 64, BLayout::RowMajor, 16, 64, SLayout::NoneBox, 512, PadValue::Null>"() : () -> !emitc.opaque<"Tile<...>">
emitc.call_opaque "TASSIGN"(%0) {args = [0 : index, 0 : i64]} : (!emitc.opaque<"Tile<...>">) -> ()
%1 = emitc.call_opaque "GlobalTensor<float, pto::Shape<1, 1, 1, 16, 64>, pto::Stride<1024, 1024, 1024, 64, 1>, pto::Layout::ND>"(%arg0) : ...
emitc.call_opaque "TLOAD"(%0, %1) : ...
```"#,
    example_options: "",
    anchor: Some("builtin.module"),
    options: &[OptionSpec {
        name: "kernel-entry",
        kind: OptionKind::Bool,
        description: "Make each kernel `static __aicore__` and add the packed-argument `kernel_entry` the a2a3 runtime calls",
        default: "false",
    }],
    dependent_dialects: crate::emitc::dependent_dialects,
    run: Run::Op(run),
};

type Failure<'c, 'a> = (OperationRef<'c, 'a>, String);

fn run(module: OperationRef, options: &OptionValues) -> Result<(), PassFailed> {
    let context = pto_dialects::ir::context(&module);
    let Some(body) = module.region_opt(0).and_then(|r| r.first_block()) else {
        return Ok(());
    };
    let mut kernels = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op_name(op) == "func.func" && crate::pl::is_kernel(op) {
            kernels.push(op);
        }
    }
    if kernels.is_empty() {
        return Ok(());
    }
    // Callers would be left pointing at EmitC functions: kernels are lowered
    // in modules of their own (pto-translate clones each one).
    let names: Vec<String> = kernels
        .iter()
        .filter_map(|k| pto_dialects::attrs::text_of(*k, "sym_name"))
        .collect();
    // A core group's calls are the launch of its kernels, which the host
    // program makes: the group goes once its kernels are lowered.
    let mut groups = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op_name(op) == "func.func"
            && pto_dialects::attrs::kind_of(op) == Some(pto_dialects::enums::FunctionKind::Group)
        {
            groups.push(op);
        }
    }
    let mut callers = Vec::new();
    pto_dialects::ir::walk(module, WalkOrder::PreOrder, |op| {
        let callee = pto_dialects::attrs::text_of(op, "callee");
        if matches!(OpKind::of(&op), Some(OpKind::PlCall | OpKind::PlSubmit))
            && callee.is_some_and(|c| names.contains(&c))
            && !pto_dialects::ops::enclosing_function(op).is_some_and(|f| groups.contains(&f))
        {
            callers.push(op);
        }
        WalkResult::Advance
    });
    if let Some(&raw) = callers.first() {
        let caller = raw;
        OpDiagnostic::new(
            "convert-pl-to-emitc: this module dispatches the kernels it would lower; lower each kernel in a module of its own (pto-translate --mlir-to-cce does)",
        )
        .emit(caller, Severity::Error);
        return Err(PassFailed);
    }
    let with_entry = options.bool("kernel-entry");
    if with_entry && kernels.len() > 1 {
        OpDiagnostic::new("convert-pl-to-emitc: kernel-entry wants one kernel per module (every kernel's entry is `kernel_entry`)").emit(kernels[1], Severity::Error);
        return Err(PassFailed);
    }
    record_peer_bases(module);
    let mut failed = false;
    let mut helpers = Helpers::default();
    for kernel in kernels {
        match convert_kernel(context, kernel, with_entry) {
            Ok(used) => {
                helpers.communicates |= used.communicates;
                helpers.accesses_gm |= used.accesses_gm;
                helpers.spmd |= used.spmd;
                helpers.prefetches |= used.prefetches;
                helpers.barriers |= used.barriers;
                helpers.pipes |= used.pipes;
            }
            Err((op, message)) => {
                OpDiagnostic::new(format!("convert-pl-to-emitc: {message}"))
                    .emit(op, Severity::Error);
                failed = true;
            }
        }
    }
    if failed {
        return Err(PassFailed);
    }
    for group in groups {
        pto_dialects::ir::erase(group);
    }
    add_prologue(context, body, helpers, with_entry);
    Ok(())
}

/// The helper definitions a kernel file needs beyond pto-isa's header.
#[derive(Clone, Copy, Debug, Default)]
struct Helpers {
    /// The CommContext accessors (a kernel communicates).
    communicates: bool,
    /// The scalar global-memory accessors.
    accesses_gm: bool,
    /// The runtime's SPMD accessors (a kernel entry passes block queries).
    spmd: bool,
    /// The prefetch session and wait helpers.
    prefetches: bool,
    /// The cross-block barrier and event-base helpers.
    barriers: bool,
    /// The cross-core pipe helpers.
    pipes: bool,
}

/// `#include <cstdint>`, `#include "pto/pto-inst.hpp"` and `using
/// namespace pto;` at the top (and the CommContext accessors when a kernel
/// communicates). pto-isa's own header uses the fixed-width integer types
/// before it includes <cstdint>.
fn add_prologue(context: &Context, body: BlockRef, helpers: Helpers, with_entry: bool) {
    let location = Location::unknown(context);
    let verbatim = |text: &str| build::verbatim(context, location, text, &[]);
    let include = build::include(context, "pto/pto-inst.hpp", false);
    let using = verbatim("using namespace pto;");
    let first = body.first_operation().expect("kernels were found");
    body.insert_operation_before(first, build::include(context, "cstdint", true));
    let include = body.insert_operation_before(first, include);
    let using = body.insert_operation_after(include, using);
    let mut last = using;
    if with_entry {
        body.insert_operation_before(using, build::include(context, "tensor.h", false));
        if helpers.spmd {
            body.insert_operation_before(using, build::include(context, "intrinsic.h", false));
        }
        last = body.insert_operation_after(using, verbatim(kernel_entry::ENTRY_HELPERS));
    }
    if helpers.communicates {
        last = body.insert_operation_after(last, verbatim(COMM_HELPERS));
    }
    if helpers.accesses_gm {
        last = body.insert_operation_after(last, verbatim(scalar_access::GM_ACCESS_HELPERS));
    }
    if helpers.prefetches {
        last = body.insert_operation_after(last, verbatim(prefetch::PREFETCH_HELPERS));
    }
    if helpers.barriers {
        last = body.insert_operation_after(last, verbatim(system::BARRIER_HELPERS));
    }
    if helpers.pipes {
        body.insert_operation_after(last, verbatim(cross_core::PIPE_HELPERS));
    }
}

/// A tensor in global memory: its pointer and row-major shape.
#[derive(Clone)]
struct GmTensor<'c, 'a> {
    element: &'static str,
    /// Row-major shape; -1 for the (leading) dynamic dimension.
    shape: Vec<i64>,
    /// The index value of each dynamic dimension (the kernel parameter
    /// appended for it).
    dims: Vec<Option<Value<'c, 'a>>>,
    /// A distributed tensor's CommContext pointer.
    context: Option<Value<'c, 'a>>,
}

/// Builds the EmitC form of one kernel in place.
///
/// pl values keep their pl types while the kernel converts, as in
/// upstream's dialect conversion: each converted value is the result of a
/// `builtin.unrealized_conversion_cast` from what stands for it in EmitC
/// (see [`materialization`]), so that the ops after it still see its shape
/// and valid extents in its type, and read what the type cannot hold —
/// runtime extents, a tensor's CommContext — from the cast's operands. The
/// casts go once every op is converted.
struct Lowering<'c, 'a> {
    context: &'c Context,
    /// The kernel's SPMD parameters, by [`super::spmd::Query`].
    spmd: [Option<Value<'c, 'a>>; 3],
    /// pl ops replaced (erased at the end, last first).
    replaced: Vec<OperationRef<'c, 'a>>,
    /// The casts that give converted values their pl types (erased after
    /// the ops that use them).
    materializations: Vec<OperationRef<'c, 'a>>,
    /// Whether a communication op was lowered (the kernel file then needs
    /// the context helpers).
    communicates: bool,
    /// Whether a scalar access to global memory was lowered (the kernel
    /// file then needs its helpers).
    accesses_gm: bool,
    /// Whether a prefetch op was lowered (the kernel file then needs its
    /// helpers).
    prefetches: bool,
    /// Whether a cross-block barrier or the event base was lowered (the
    /// kernel file then needs their helpers).
    barriers: bool,
    /// The planned address of each `Tile<…>` object declared.
    addresses: HashMap<ValueKey, i64>,
    /// Whether a cross-core op was lowered (the kernel file then needs the
    /// pipe helpers).
    pipes_used: bool,
    /// The pipe object of each pipe id set up.
    pipes: HashMap<i64, Value<'c, 'a>>,
    /// Each popped tile's pipe id and split (what its free gives back).
    popped: HashMap<ValueKey, (i64, pto_dialects::enums::CoreSplit)>,
}

/// The operands of the cast that materializes `value` as a pl or pld value
/// from its EmitC parts, when it is one:
/// - a tile: the `Tile<…>` object, then the runtime valid extent (index) of
///   each dimension whose valid extent the type leaves dynamic;
/// - a tensor: its `__gm__` pointer, then the extent (index) of each of
///   its dynamic dimensions — all of them or none (a view's are not
///   known) — then, for a distributed tensor, its CommContext pointer
///   (the i-th context parameter belongs to the i-th distributed tensor
///   parameter: docs/passes/pld-materialize-dist-tensor-ctx.md);
/// - a comm context: its pointer.
fn materialization<'c: 'a, 'a>(value: Value<'c, 'a>) -> Option<Vec<Value<'c, 'a>>> {
    let cast = pto_dialects::ir::defining_op(value)?;
    let pto_type = |t: Type| {
        pto_dialects::ir::type_in_dialect(t, "pl") || pto_dialects::ir::type_in_dialect(t, "pld")
    };
    (op_name(cast) == "builtin.unrealized_conversion_cast" && pto_type(value.r#type())).then(|| {
        (0..cast.operand_count())
            .filter_map(|i| operand_at(cast, i))
            .collect()
    })
}

/// What stands for `value` in EmitC: its materialization's first part, or
/// `value` itself (an EmitC or builtin value).
fn emitted<'c: 'a, 'a>(value: Value<'c, 'a>) -> Value<'c, 'a> {
    materialization(value)
        .and_then(|parts| parts.first().copied())
        .unwrap_or(value)
}

fn int_attribute(op: OperationRef, name: &str) -> Option<i64> {
    op.attribute(name)
        .ok()
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map(|a| a.value())
}

/// The instruction the op table gives `kind`, else the error at `op`.
fn instruction<'c, 'a>(
    op: OperationRef<'c, 'a>,
    kind: OpKind,
) -> Result<&'static str, Failure<'c, 'a>> {
    kind.info().instruction.ok_or_else(|| no_lowering(op, kind))
}

/// The error at an op of `kind` the lowering does not take.
fn no_lowering<'c, 'a>(op: OperationRef<'c, 'a>, kind: OpKind) -> Failure<'c, 'a> {
    (op, format!("'{kind}' has no lowering to EmitC yet"))
}

/// The error at an op [`lowers`] does not take, for `reason`: the reason
/// itself where it says what to run first, else that there is no lowering
/// and why.
fn unsupported<'c, 'a>(op: OperationRef<'c, 'a>, kind: OpKind, reason: &str) -> Failure<'c, 'a> {
    match kind {
        OpKind::PldTensorPut | OpKind::PldTensorGet => (op, reason.to_string()),
        _ => (
            op,
            format!("'{kind}' has no lowering to EmitC yet ({reason})"),
        ),
    }
}

/// How one family's ops lower: a method of [`Lowering`] keyed by the op's
/// kind inside.
type FamilyLowering<'c, 'a> =
    fn(&mut Lowering<'c, 'a>, OperationRef<'c, 'a>, OpKind) -> Result<(), Failure<'c, 'a>>;

/// The lowering of each family [`lowers`] takes; `None` for the families it
/// refuses (its reasons say why). `the_ops_lowered_have_a_lowering` in
/// passes/tests/emitc_coverage.rs checks the two agree.
fn family_lowering<'c, 'a>(family: Family) -> Option<FamilyLowering<'c, 'a>> {
    Some(match family {
        Family::Sync => Lowering::sync,
        Family::BlockQuery => Lowering::block_query,
        Family::MemoryOrder
        | Family::RankQuery
        | Family::Signal
        | Family::RemoteAccess
        | Family::RemoteTransfer => Lowering::communicate,
        Family::TensorView => Lowering::tensor_views,
        Family::TensorAccess => Lowering::tensor_access,
        Family::TileTransfer => Lowering::transfer,
        Family::TileView => Lowering::tile_views,
        Family::TileFillpad => Lowering::fillpad,
        Family::TileAccess => Lowering::tile_access,
        Family::TileCreate => Lowering::tile_create,
        Family::TileAssemble => Lowering::assemble,
        Family::TileMove | Family::TileTranspose => Lowering::moves,
        Family::TileUnary
        | Family::TileBinary
        | Family::TileScalar
        | Family::TileRowExpand
        | Family::TileColExpand
        | Family::TileSelect
        | Family::TilePartial
        | Family::TileConcat => Lowering::elementwise,
        Family::TileCompare => Lowering::compare,
        Family::TileCast => Lowering::cast,
        Family::TileRowReduce | Family::TileColReduce => Lowering::reduce,
        Family::TileMatmul => Lowering::matmul,
        Family::TileGenerate
        | Family::TileSort
        | Family::TileGather
        | Family::TileGatherRow
        | Family::TileScatter => Lowering::indexing,
        Family::Array => Lowering::array,
        Family::Prefetch => Lowering::prefetch,
        Family::CrossCore => Lowering::cross_core,
        _ => return None,
    })
}

/// Whether convert-pl-to-emitc has a lowering for `kind`'s family.
pub fn has_family_lowering(kind: OpKind) -> bool {
    family_lowering(kind.family()).is_some()
}

/// Whether convert-pl-to-emitc lowers the ops of `kind`, and why not when
/// it does not: such an op is an error at the op. (Ops of other dialects
/// are left to the upstream conversions.) A lowered op may still be an
/// error in a form the lowering does not take: a block query under the
/// runtime's entry, an atomic get, a view with a non-row-major layout.
pub fn lowers(kind: OpKind) -> Result<(), &'static str> {
    use OpKind as K;
    const TENSOR_LEVEL: &str =
        "a tensor-level op: pl-convert-tensor-to-tile makes tile ops of it in kernels";
    // The families lowered as their instruction on the operands.
    let instruction = || match (kind.info().instruction, kind) {
        (Some(_), _) => Ok(()),
        (
            None,
            K::PlTileSin
            | K::PlTileCos
            | K::PlTileAddc
            | K::PlTileSubc
            | K::PlTileAddsc
            | K::PlTileSubsc,
        ) => Err(
            "a2a3 has no instruction for it: pl-lower-math-ops (pto-a2a3-pipeline) decomposes it into primitive tile ops",
        ),
        (None, _) => Err("pto-isa has no instruction for it"),
    };
    match kind.family() {
        Family::Sync => match kind {
            K::PlSystemSyncSrc | K::PlSystemSyncDst | K::PlSystemPipeBarrier => Ok(()),
            K::PlSystemSyncall | K::PlSystemSetFfts => Ok(()),
            _ => Err(
                "only the pipe events and barriers of pl-insert-sync, cross-block barriers and the event base are lowered",
            ),
        },
        Family::BlockQuery if kind.info().group == Group::Tensor => Err(TENSOR_LEVEL),
        Family::BlockQuery | Family::MemoryOrder => Ok(()),
        Family::RankQuery => match kind {
            K::PldSystemGetCommCtx | K::PldSystemRank | K::PldSystemNranks => Ok(()),
            _ => Err("a host orchestrator's query"),
        },
        Family::Signal => match kind {
            K::PldSystemNotify | K::PldSystemWait => Ok(()),
            _ => Err(
                "a deferred wait registers its condition with the runtime's scheduler, through an adapter the dispatch passes as a hidden argument; pto-isa has no such call and the simulator no such scheduler",
            ),
        },
        Family::RemoteAccess => match kind {
            K::PldTileRemoteLoad | K::PldTileRemoteStore => Ok(()),
            _ => Err("a tensor-level op: kernels store to a peer from tiles"),
        },
        Family::RemoteTransfer => match kind {
            K::PldTilePut | K::PldTileGet => Ok(()),
            _ => Err(
                "pto-isa's TPUT/TGET move data through a staging tile: run pl-convert-tensor-to-tile (pto-a2a3-pipeline), which gives the transfer one",
            ),
        },
        Family::TensorView => match kind {
            K::PlTensorView => Ok(()),
            _ => Err("only pl.tensor.view, a row-major view of a kernel parameter, is translated"),
        },
        Family::TensorAccess => Ok(()),
        Family::TensorAssemble
        | Family::TensorBinary
        | Family::TensorCast
        | Family::TensorColExpand
        | Family::TensorColReduce
        | Family::TensorCompare
        | Family::TensorCreate
        | Family::TensorFillpad
        | Family::TensorMatmul
        | Family::TensorRowExpand
        | Family::TensorRowReduce
        | Family::TensorScalar
        | Family::TensorSelect
        | Family::TensorUnary
        | Family::TensorGenerate
        | Family::TensorSort
        | Family::TensorGather
        | Family::TensorGatherRow
        | Family::TensorScatter
        | Family::TensorPartial => Err(TENSOR_LEVEL),
        Family::TileGatherRow => match kind {
            K::PlTileMgather => Ok(()),
            _ => Err(
                "a window load into a tile: pl-lower-math-ops (pto-a2a3-pipeline) makes it a load and an assemble",
            ),
        },
        Family::TileTransfer
        | Family::TileFillpad
        | Family::TileAccess
        | Family::TileAssemble
        | Family::TileCompare
        | Family::TileCast
        | Family::TileSort => Ok(()),
        Family::TileGenerate => match kind {
            K::PlTileRandom => Err(
                "a2a3 has no TRANDOM (pto-isa implements it for a5): pl-lower-math-ops (pto-a2a3-pipeline) makes it scalar arithmetic",
            ),
            _ => Ok(()),
        },
        Family::TileGather => match kind {
            K::PlTileGatherCompare => Err(
                "a2a3's compare gather takes only eq and gt and integer keys: pl-lower-math-ops (pto-a2a3-pipeline) makes it scalar loops",
            ),
            _ => Ok(()),
        },
        Family::TileScatter => match kind {
            K::PlTileScatterUpdate => Err(
                "a2a3 has no instruction for it: pl-lower-math-ops (pto-a2a3-pipeline) makes it row copies",
            ),
            K::PlTileMscatter => Err(
                "pto-isa spells a2a3's MSCATTER without its mode, which its CPU backend reads as the other mode: pl-lower-math-ops (pto-a2a3-pipeline) makes it stores",
            ),
            _ => Ok(()),
        },
        Family::TileView => match kind {
            K::PlTileSetValidshape | K::PlTileReshape | K::PlTileReinterpretView => Ok(()),
            K::PlTileTransposeView => Ok(()),
            _ => instruction(),
        },
        Family::TileCreate => match kind {
            K::PlTileCreate => Ok(()),
            K::PlTileAlloc => Err("planning gives tiles their buffers: kernels create them"),
            _ => instruction(),
        },
        Family::TileMatmul => match kind {
            K::PlTileMatmulAcc => Ok(()),
            K::PlTileBatchMatmul | K::PlTileBatchMatmulAcc => {
                Err("batch matmuls are not translated yet")
            }
            _ => instruction(),
        },
        Family::TileMove
        | Family::TileTranspose
        | Family::TileUnary
        | Family::TileBinary
        | Family::TileScalar
        | Family::TileRowExpand
        | Family::TileColExpand
        | Family::TileSelect
        | Family::TileRowReduce
        | Family::TileColReduce
        | Family::TilePartial
        | Family::TileConcat
        | Family::TileCarry => instruction(),
        Family::Call => Err("a dispatch: kernels dispatch no tasks"),
        Family::Task => Err("an orchestration's task or launch size: kernels submit no tasks"),
        Family::Prefetch => Ok(()),
        Family::Array => Ok(()),
        Family::Scope => Err("a scope: outlined or lowered before the kernels are"),
        Family::Terminator => Err("the terminator of a scope"),
        Family::Collective => Err("a collective: lowered to transfers and signals before"),
        Family::BuiltinCollective => Err("a host program's collective"),
        Family::Window => Err("a window of the host's comm domain"),
        Family::CrossCore => Ok(()),
        Family::CoreBoundary => {
            Err("a boundary of a mixed kernel: pl-expand-mixed-kernel makes it a push and a pop")
        }
    }
}

impl<'c, 'a> Lowering<'c, 'a> {
    /// `callee(operands...)`, before `at`; its result when `result` is given.
    fn call(
        &self,
        at: OperationRef<'c, 'a>,
        callee: &str,
        operands: &[Value<'c, '_>],
        args: Option<Vec<Attribute<'c>>>,
        result: Option<Type<'c>>,
    ) -> Option<Value<'c, 'a>> {
        self.templated_call(at, callee, &[], operands, args, result)
    }

    /// `callee<templates...>(operands...)`, before `at` (pto-isa spells out
    /// the types of the instructions whose later template parameters are
    /// not deduced: a mask pattern, a merge's `exhausted`).
    fn templated_call(
        &self,
        at: OperationRef<'c, 'a>,
        callee: &str,
        templates: &[Attribute<'c>],
        operands: &[Value<'c, '_>],
        args: Option<Vec<Attribute<'c>>>,
        result: Option<Type<'c>>,
    ) -> Option<Value<'c, 'a>> {
        let context = self.context;
        let block = at.block().expect("ops sit in blocks");
        // Index operands reach C as int64_t (the arith conversion turns
        // the cast into a C cast of its size_t).
        let operands: Vec<Value> = operands
            .iter()
            .map(|&value| {
                let value = emitted(value);
                if !value.r#type().is_index() {
                    return value;
                }
                let cast = melior::dialect::arith::index_cast(
                    value,
                    IntegerType::new(context, 64).into(),
                    at.location(),
                );
                block
                    .insert_operation_before(at, cast)
                    .result(0)
                    .unwrap()
                    .into()
            })
            .collect();
        let operands = &operands[..];
        let mut builder = OperationBuilder::new("emitc.call_opaque", at.location())
            .add_attributes(&[(
                Identifier::new(context, "callee"),
                StringAttribute::new(context, callee).into(),
            )])
            .add_operands(operands);
        if let Some(args) = args {
            builder = builder.add_attributes(&[(
                Identifier::new(context, "args"),
                ArrayAttribute::new(context, &args).into(),
            )]);
        }
        if !templates.is_empty() {
            builder = builder.add_attributes(&[(
                Identifier::new(context, "template_args"),
                ArrayAttribute::new(context, templates).into(),
            )]);
        }
        if let Some(result) = result {
            builder = builder.add_results(&[result]);
        }
        let op =
            block.insert_operation_before(at, builder.build().expect("emitc.call_opaque builds"));
        result.map(|_| op.result(0).expect("one result").into())
    }

    /// A `Tile<…>` object for `value` (a pl tile result of `op`) bound to
    /// its planned address.
    fn declare_tile(
        &mut self,
        op: OperationRef<'c, 'a>,
        value: Value<'c, 'a>,
        index: usize,
        valid: [Option<Value<'c, 'a>>; 2],
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        let tile = TileType::try_from(value.r#type()).map_err(|e| (op, e.to_string()))?;
        let cpp = cpp_types::tile(tile).map_err(|m| (op, m))?;
        let addresses = op
            .attribute("pl.addresses")
            .ok()
            .and_then(|a| DenseI64ArrayAttribute::try_from(a).ok())
            .ok_or((
                op,
                "this tile has no planned address (run pl-plan-memory first)".to_string(),
            ))?;
        let address = addresses.element(index).map_err(|e| (op, e.to_string()))?;
        // The dynamic valid extents are the constructor's arguments
        // (pto-isa's `Tile(rows, cols)` when both are, `Tile(extent)` when
        // one is); static ones are in the type.
        let extents = tile.effective_view().valid_shape;
        let mut arguments = Vec::new();
        for d in 0..2 {
            match (extents[d], valid[d]) {
                (Some(_), _) => {}
                (None, Some(runtime)) => arguments.push(runtime),
                (None, None) => {
                    return Err((
                        op,
                        format!(
                            "the runtime valid extent {d} of {} is not known here",
                            value.r#type()
                        ),
                    ));
                }
            }
        }
        let object = self.assigned_object(op, &cpp, &arguments, address);
        let mut parts = vec![object];
        parts.extend(arguments);
        Ok(self.materialize(op, value.r#type(), &parts))
    }

    /// A `cpp` object (constructed with `arguments`) bound to `address`
    /// with `TASSIGN` before `op`, its address recorded.
    fn assigned_object(
        &mut self,
        op: OperationRef<'c, 'a>,
        cpp: &str,
        arguments: &[Value<'c, 'a>],
        address: i64,
    ) -> Value<'c, 'a> {
        let object = self
            .call(op, cpp, arguments, None, Some(opaque(self.context, cpp)))
            .expect("a result");
        self.addresses.insert(ValueKey::of(object), address);
        let index_attr: Attribute = IntegerAttribute::new(Type::index(self.context), 0).into();
        let address_attr: Attribute =
            IntegerAttribute::new(IntegerType::new(self.context, 64).into(), address).into();
        self.call(
            op,
            "TASSIGN",
            &[object],
            Some(vec![index_attr, address_attr]),
            None,
        );
        object
    }

    /// `parts` as a value of pl type `r#type`, before `at` (see
    /// [`materialization`]).
    fn materialize(
        &mut self,
        at: OperationRef<'c, 'a>,
        r#type: Type<'c>,
        parts: &[Value<'c, 'a>],
    ) -> Value<'c, 'a> {
        let cast = OperationBuilder::new("builtin.unrealized_conversion_cast", at.location())
            .add_operands(parts)
            .add_results(&[r#type])
            .build()
            .expect("a cast builds");
        let cast = at
            .block()
            .expect("ops sit in blocks")
            .insert_operation_before(at, cast);
        self.materializations.push(cast);
        cast.result(0).expect("one result").into()
    }

    /// The runtime valid extents of a converted tile (`None` where its type
    /// gives the extent, or where it is not converted).
    fn runtime_valid(&self, tile: Value<'c, 'a>) -> [Option<Value<'c, 'a>>; 2] {
        let (Ok(r#type), Some(parts)) = (TileType::try_from(tile.r#type()), materialization(tile))
        else {
            return [None, None];
        };
        let extents = r#type.effective_view().valid_shape;
        let mut runtime = parts.into_iter().skip(1);
        [0, 1].map(|d| {
            if extents.get(d).copied().flatten().is_none() {
                runtime.next()
            } else {
                None
            }
        })
    }

    /// The global-memory tensor a converted tensor value stands for.
    fn gm_tensor(&self, tensor: Value<'c, 'a>) -> Option<GmTensor<'c, 'a>> {
        let r#type = TensorLike::try_from(tensor.r#type()).ok()?;
        let parts = materialization(tensor)?;
        let element = cpp_types::element(r#type.element()).ok()?;
        let dims = r#type.shape();
        let extents: Vec<Value> = parts
            .iter()
            .skip(1)
            .copied()
            .filter(|part| part.r#type().is_index())
            .collect();
        let mut known = extents.into_iter();
        let all_known = known.len() == dims.iter().filter(|d| d.is_none()).count();
        Some(GmTensor {
            element,
            shape: dims.iter().map(|d| d.unwrap_or(-1)).collect(),
            dims: dims
                .iter()
                .map(|d| match d {
                    None if all_known => known.next(),
                    _ => None,
                })
                .collect(),
            context: parts
                .iter()
                .skip(1)
                .copied()
                .find(|part| !part.r#type().is_index()),
        })
    }

    /// The row-major element index of `indices` in a tile of `shape`, as an
    /// i64 (what SetValue/GetValue take); a single index is already flat.
    fn flat_index(
        &self,
        op: OperationRef<'c, 'a>,
        shape: &[i64],
        indices: &[Value<'c, 'a>],
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        let location = op.location();
        let block = op.block().unwrap();
        let mut flat: Option<Value> = None;
        for (d, index) in indices.iter().enumerate() {
            let stride = if indices.len() == 1 {
                1
            } else {
                shape[d + 1..]
                    .iter()
                    .try_fold(1i64, |stride, &n| stride.checked_mul(n))
                    .ok_or_else(|| {
                        (
                            op,
                            "the tile has more elements than 64 bits count".to_string(),
                        )
                    })?
            };
            let stride = self.index_constant(op, stride);
            let term: Value = block
                .insert_operation_before(op, melior::dialect::arith::muli(*index, stride, location))
                .result(0)
                .unwrap()
                .into();
            flat = Some(match flat {
                None => term,
                Some(sum) => block
                    .insert_operation_before(op, melior::dialect::arith::addi(sum, term, location))
                    .result(0)
                    .unwrap()
                    .into(),
            });
        }
        let flat = flat.ok_or((op, "a tile access without indices".to_string()))?;
        Ok(block
            .insert_operation_before(
                op,
                melior::dialect::arith::index_cast(
                    flat,
                    IntegerType::new(self.context, 64).into(),
                    location,
                ),
            )
            .result(0)
            .unwrap()
            .into())
    }

    fn index_constant(&self, at: OperationRef<'c, 'a>, value: i64) -> Value<'c, 'a> {
        let constant = melior::dialect::arith::constant(
            self.context,
            IntegerAttribute::new(Type::index(self.context), value).into(),
            at.location(),
        );
        at.block()
            .unwrap()
            .insert_operation_before(at, constant)
            .result(0)
            .unwrap()
            .into()
    }

    /// The runtime valid extents a result takes from its tile operands:
    /// each dynamic one from the first operand that has it at runtime.
    fn propagated_valid(&self, op: OperationRef<'c, 'a>) -> [Option<Value<'c, 'a>>; 2] {
        [0, 1].map(|d| {
            op.operands()
                .find_map(|operand| self.runtime_valid(operand)[d])
        })
    }

    /// A `GlobalTensor` over the window of `tensor` at `offsets` with
    /// `window` extents, based at `pointer`, a pointer with `tensor`'s
    /// layout (itself, or a peer's copy of it).
    fn global_at(
        &self,
        op: OperationRef<'c, 'a>,
        tensor: Value<'c, 'a>,
        pointer: Value<'c, 'a>,
        offsets: &[Value<'c, 'a>],
        window: &[i64],
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        self.global_window(op, tensor, pointer, offsets, window, &[])
    }

    /// The window of global memory a tile moves: its valid extents
    /// (pto-isa's rule for ND windows: the window's rows and columns are
    /// the tile's valid ones — on the device the DMA moves the window's),
    /// static where the tile type has them, its runtime extents (-1 in the
    /// type) where not. A `partition` attribute (a window of the tensor's
    /// rank) stands for a wholly valid tile.
    pub(super) fn tile_window(
        &self,
        op: OperationRef<'c, 'a>,
        tile: TileType<'c>,
        runtime: [Option<Value<'c, 'a>>; 2],
    ) -> Result<(Vec<i64>, Vec<Option<Value<'c, 'a>>>), Failure<'c, 'a>> {
        movement::two_dimensional(op, tile)?;
        let view = tile.effective_view().valid_shape;
        self.window_of(op, &tile.shape(), [view[0], view[1]], runtime)
    }

    fn window_of(
        &self,
        op: OperationRef<'c, 'a>,
        shape: &[i64],
        valid: [Option<i64>; 2],
        runtime: [Option<Value<'c, 'a>>; 2],
    ) -> Result<(Vec<i64>, Vec<Option<Value<'c, 'a>>>), Failure<'c, 'a>> {
        let shape = shape.to_vec();
        let extents: Vec<i64> = (0..2).map(|d| valid[d].unwrap_or(-1)).collect();
        let runtime: Vec<Option<Value>> = (0..2)
            .map(|d| if valid[d].is_none() { runtime[d] } else { None })
            .collect();
        if (0..2).any(|d| extents[d] < 0 && runtime[d].is_none()) {
            return Err((
                op,
                "the runtime valid extents of this tile are not known here".into(),
            ));
        }
        let whole = extents == shape;
        let partition = partition_or(op, &shape);
        if whole {
            return Ok((partition, Vec::new()));
        }
        // A window of the tensor's rank: its leading extents must be 1, its
        // last two the tile's.
        let lead = partition.len().saturating_sub(2);
        if partition.len() < 2
            || partition[..lead].iter().any(|&e| e != 1)
            || partition[lead..] != shape[..]
        {
            return Err((
                op,
                "a partially valid tile moving a window of higher rank is not translated yet"
                    .into(),
            ));
        }
        let mut window = partition;
        window[lead..].copy_from_slice(&extents);
        let mut dynamic = vec![None; lead];
        dynamic.extend(runtime);
        Ok((window, dynamic))
    }

    /// [`Self::tile_window`] of a declared tile object (what a store moves).
    pub(super) fn stored_window(
        &self,
        op: OperationRef<'c, 'a>,
        tile: Value<'c, 'a>,
    ) -> Result<(Vec<i64>, Vec<Option<Value<'c, 'a>>>), Failure<'c, 'a>> {
        let r#type = TileType::try_from(tile.r#type())
            .map_err(|_| (op, "the stored value is not a tile".to_string()))?;
        self.tile_window(op, r#type, self.runtime_valid(tile))
    }

    /// [`Self::global_at`] with runtime extents: where `runtime[d]` is a
    /// value, window dimension `d` is dynamic (-1 in the type) and the
    /// GlobalTensor is constructed with a `pto::Shape` holding it.
    pub(super) fn global_window(
        &self,
        op: OperationRef<'c, 'a>,
        tensor: Value<'c, 'a>,
        pointer: Value<'c, 'a>,
        offsets: &[Value<'c, 'a>],
        window: &[i64],
        runtime: &[Option<Value<'c, 'a>>],
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        let info = self.gm_tensor(tensor).ok_or((
            op,
            "this tensor is not a kernel parameter in global memory; it is not translated yet"
                .to_string(),
        ))?;
        let pointer = emitted(pointer);
        let location = op.location();
        let block = op.block().expect("ops sit in blocks");
        // Row-major strides: constants where the inner extents are static,
        // products of the runtime extents where they are not.
        let rank = info.shape.len();
        let mut strides: Vec<Value> = Vec::with_capacity(rank);
        let mut stride = self.index_constant(op, 1);
        for d in (0..rank).rev() {
            strides.push(stride);
            if d == 0 {
                break;
            }
            let extent = self.tensor_dim(op, tensor, d)?;
            stride = block
                .insert_operation_before(op, melior::dialect::arith::muli(stride, extent, location))
                .result(0)
                .unwrap()
                .into();
        }
        strides.reverse();
        // The window's element offset, in index arithmetic the upstream
        // arith conversion turns into C.
        let mut offset: Option<Value> = None;
        for (&index, &stride_value) in offsets.iter().zip(&strides) {
            let term: Value = block
                .insert_operation_before(
                    op,
                    melior::dialect::arith::muli(index, stride_value, location),
                )
                .result(0)
                .unwrap()
                .into();
            offset = Some(match offset {
                None => term,
                Some(sum) => block
                    .insert_operation_before(op, melior::dialect::arith::addi(sum, term, location))
                    .result(0)
                    .unwrap()
                    .into(),
            });
        }
        let mut base = pointer;
        if let Some(offset) = offset {
            let i64_type: Type = IntegerType::new(self.context, 64).into();
            let cast = melior::dialect::arith::index_cast(offset, i64_type, location);
            let offset: Value = block
                .insert_operation_before(op, cast)
                .result(0)
                .unwrap()
                .into();
            let add = OperationBuilder::new("emitc.add", location)
                .add_operands(&[pointer, offset])
                .add_results(&[pointer.r#type()])
                .build()
                .expect("emitc.add builds");
            base = block
                .insert_operation_before(op, add)
                .result(0)
                .unwrap()
                .into();
        }
        let window: Vec<i64> = window
            .iter()
            .enumerate()
            .map(|(d, &w)| {
                if runtime.get(d).is_some_and(Option::is_some) {
                    -1
                } else {
                    w
                }
            })
            .collect();
        let cpp = cpp_types::global_tensor(info.element, &window, &info.shape);
        let dynamic: Vec<Value> = runtime.iter().flatten().copied().collect();
        // Strides known only at run time: `pto::Stride<-1, …>(…)` of all
        // five (the padding dimensions' extent is 1; they take the
        // outermost stride).
        let stride = if cpp_types::dynamic_strides(&info.shape) {
            let stride_cpp = "pto::Stride<-1, -1, -1, -1, -1>";
            let pad = 5usize.saturating_sub(rank);
            let all: Vec<Value> = std::iter::repeat_n(strides[0], pad)
                .chain(strides.iter().copied())
                .collect();
            Some(
                self.call(
                    op,
                    stride_cpp,
                    &all,
                    None,
                    Some(opaque(self.context, stride_cpp)),
                )
                .expect("a result"),
            )
        } else {
            None
        };
        if let Some(stride) = stride {
            let shape_cpp = cpp_types::window_shape(&window);
            let shape = if dynamic.is_empty() {
                self.call(
                    op,
                    &shape_cpp,
                    &[],
                    None,
                    Some(opaque(self.context, &shape_cpp)),
                )
            } else {
                self.window_shape_value(op, &window, runtime, &dynamic)
            }
            .expect("a result");
            return Ok(self
                .call(
                    op,
                    &cpp,
                    &[base, shape, stride],
                    None,
                    Some(opaque(self.context, &cpp)),
                )
                .expect("a result"));
        }
        if dynamic.is_empty() {
            return Ok(self
                .call(op, &cpp, &[base], None, Some(opaque(self.context, &cpp)))
                .expect("a result"));
        }
        let shape = self
            .window_shape_value(op, &window, runtime, &dynamic)
            .expect("a result");
        Ok(self
            .call(
                op,
                &cpp,
                &[base, shape],
                None,
                Some(opaque(self.context, &cpp)),
            )
            .expect("a result"))
    }

    /// `pto::Shape<1, 1, 1, -1, 256>(1, 1, 1, rows, 256)`: all five
    /// extents of `window`, the dynamic ones (`runtime`) from operands.
    fn window_shape_value(
        &self,
        op: OperationRef<'c, 'a>,
        window: &[i64],
        runtime: &[Option<Value<'c, 'a>>],
        dynamic: &[Value<'c, 'a>],
    ) -> Option<Value<'c, 'a>> {
        let shape_cpp = cpp_types::window_shape(window);
        let pad = 5 - window.len();
        let mut next = 0;
        let args: Vec<Attribute> = (0..5)
            .map(|d| {
                let i64_type: Type = IntegerType::new(self.context, 64).into();
                if d >= pad && runtime.get(d - pad).is_some_and(Option::is_some) {
                    next += 1;
                    IntegerAttribute::new(Type::index(self.context), next - 1).into()
                } else {
                    let extent = if d < pad { 1 } else { window[d - pad] };
                    IntegerAttribute::new(i64_type, extent).into()
                }
            })
            .collect();
        self.call(
            op,
            &shape_cpp,
            dynamic,
            Some(args),
            Some(opaque(self.context, &shape_cpp)),
        )
    }

    /// Dimension `axis` of a kernel tensor as an index value.
    fn tensor_dim(
        &self,
        op: OperationRef<'c, 'a>,
        tensor: Value<'c, 'a>,
        axis: usize,
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        let info = self.gm_tensor(tensor).ok_or((
            op,
            "this tensor is not a kernel parameter in global memory".to_string(),
        ))?;
        let extent = *info
            .shape
            .get(axis)
            .ok_or((op, format!("no dimension {axis}")))?;
        match info.dims.get(axis).copied().flatten() {
            Some(dim) => Ok(dim),
            // A view's dynamic extents are not known (pl.tensor.view has no
            // sizes): refused rather than read as -1.
            None if extent < 0 => Err((
                op,
                format!(
                    "dimension {axis} of this view is dynamic and its extent is not known here; views of dynamic shape are not translated yet"
                ),
            )),
            None => Ok(self.index_constant(op, extent)),
        }
    }

    /// Replaces `op`'s result with `value` and retires `op`.
    fn replace(&mut self, op: OperationRef<'c, 'a>, value: Value<'c, 'a>) {
        if let Some(result) = result_at(op, 0) {
            pto_dialects::ir::replace_all_uses(result, value);
        }
        self.replaced.push(op);
    }

    /// Lowers one op of the kernel: by its family, each family's lowering
    /// keyed by the op's kind inside. An op [`lowers`] does not take is an
    /// error at the op.
    fn convert(&mut self, op: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
        // Ops of other dialects (arith, scf) are left to the upstream
        // conversions pto-translate runs next.
        let Some(kind) = OpKind::of(&op) else {
            return Ok(());
        };
        if let Err(reason) = lowers(kind) {
            return Err(unsupported(op, kind, reason));
        }
        let lower = family_lowering(kind.family()).ok_or_else(|| no_lowering(op, kind))?;
        lower(self, op, kind)
    }

    /// `INSTRUCTION(dst, sources...)` for an op whose instruction (the op
    /// table's) takes the destination and then `sources` (its operands, or
    /// as its family arranges them), with `args` when the call spells its
    /// arguments out.
    fn one_to_one(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
        sources: Vec<Value<'c, 'a>>,
        args: Option<Vec<Attribute<'c>>>,
    ) -> Result<(), Failure<'c, 'a>> {
        let callee = instruction(op, kind)?;
        let valid = self.propagated_valid(op);
        let object = self.declare_tile(
            op,
            result_at(op, 0).ok_or((op, "a tile op without a result".to_string()))?,
            0,
            valid,
        )?;
        let operands: Vec<Value> = std::iter::once(object).chain(sources).collect();
        self.call(op, callee, &operands, args, None);
        self.replace(op, object);
        Ok(())
    }

    /// TTRANS and TPRELU write a scratch tile (the op table's scratch
    /// operand) the pl op may leave out: pl-flatten-tile-nd-to-2d adds it.
    fn require_scratch(
        &self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        let callee = instruction(op, kind)?;
        if kind.info().scratch_operand == Some(op.operand_count()) {
            return Err((
                op,
                format!("{callee} needs a scratch tile (tmp): run pl-flatten-tile-nd-to-2d first"),
            ));
        }
        Ok(())
    }

    fn call_in(
        &self,
        block: &Block<'c>,
        location: Location<'c>,
        callee: &str,
        operands: &[Value<'c, '_>],
    ) {
        let context = self.context;
        let operands: Vec<Value> = operands.iter().map(|&value| emitted(value)).collect();
        block.append_operation(
            OperationBuilder::new("emitc.call_opaque", location)
                .add_attributes(&[(
                    Identifier::new(context, "callee"),
                    StringAttribute::new(context, callee).into(),
                )])
                .add_operands(&operands)
                .build()
                .expect("emitc.call_opaque builds"),
        );
    }

    /// `TSTORE<Tile, GlobalTensor, AtomicType::AtomicAdd>(global, tile)`
    /// before `op`: pto-isa's atomic store spells out both types.
    pub(super) fn atomic_store(
        &self,
        op: OperationRef<'c, 'a>,
        global: Value<'c, 'a>,
        tile: Value<'c, 'a>,
    ) -> Result<(), Failure<'c, 'a>> {
        let templates = [
            self.cpp_type_of(op, tile)?,
            self.cpp_type_of(op, global)?,
            opaque_attribute(self.context, "AtomicType::AtomicAdd"),
        ];
        self.templated_call(op, "TSTORE", &templates, &[global, tile], None, None);
        Ok(())
    }

    /// The C++ type of `value` as a template argument: a tile's `Tile<…>`,
    /// else the type it is emitted with.
    pub(super) fn cpp_type_of(
        &self,
        op: OperationRef<'c, 'a>,
        value: Value<'c, 'a>,
    ) -> Result<Attribute<'c>, Failure<'c, 'a>> {
        let r#type = match TileType::try_from(value.r#type()) {
            Ok(tile) => opaque(self.context, &cpp_types::tile(tile).map_err(|m| (op, m))?),
            Err(_) => emitted(value).r#type(),
        };
        Ok(TypeAttribute::new(r#type).into())
    }
}

/// A load's or store's window: its `partition`, else the tile's shape.
fn partition_or(op: OperationRef, shape: &[i64]) -> Vec<i64> {
    op.attribute("partition")
        .ok()
        .and_then(|a| DenseI64ArrayAttribute::try_from(a).ok())
        .map(|p| (0..p.len()).filter_map(|i| p.element(i).ok()).collect())
        .unwrap_or_else(|| shape.to_vec())
}

/// Drops the tile and tensor iteration arguments of every `scf.for` in
/// `kernel` (innermost first): the body and the code after the loop use
/// the init instead, which planning placed in the same buffer.
pub fn drop_carried_buffers<'c, 'a>(kernel: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
    drop_carried_buffers_but(kernel, &|_, _| false)
}

/// [`drop_carried_buffers`], but for the carries `kept(loop, index)`
/// picks (a rebinding carry the loop keeps).
pub fn drop_carried_buffers_but<'c, 'a>(
    function: OperationRef<'c, 'a>,
    kept: &dyn Fn(OperationRef<'c, 'a>, usize) -> bool,
) -> Result<(), Failure<'c, 'a>> {
    drop_carried(function, |for_op, i| {
        let t = for_op.result(i).unwrap().r#type();
        (TileType::try_from(t).is_ok()
            || TensorLike::try_from(t).is_ok()
            || pto_dialects::types::ArrayType::try_from(t).is_ok())
            && !kept(for_op, i)
    })
}

/// Drops the arrays `function`'s loops carry (each is one C array its
/// body updates in place).
pub(crate) fn drop_carried_arrays<'c, 'a>(
    function: OperationRef<'c, 'a>,
) -> Result<(), Failure<'c, 'a>> {
    drop_carried(function, |for_op, i| {
        pto_dialects::types::ArrayType::try_from(for_op.result(i).unwrap().r#type()).is_ok()
    })
}

/// Drops the values `function`'s `scf.for` loops carry that
/// `is_buffer(loop, index)` picks: each is one storage its body updates in
/// place.
fn drop_carried<'c, 'a>(
    function: OperationRef<'c, 'a>,
    is_buffer: impl Fn(OperationRef<'c, 'a>, usize) -> bool,
) -> Result<(), Failure<'c, 'a>> {
    let mut loops = Vec::new();
    pto_dialects::ir::walk(function, WalkOrder::PostOrder, |op| {
        if op_name(op) == "scf.for" {
            loops.push(op);
        }
        WalkResult::Advance
    });
    for raw in loops {
        let for_op = raw;
        let body = for_op
            .region_opt(0)
            .and_then(|r| r.first_block())
            .ok_or((for_op, "a loop without a body".to_string()))?;
        let carried = for_op.result_count();
        let dropped: Vec<usize> = (0..carried).filter(|&i| is_buffer(for_op, i)).collect();
        if dropped.is_empty() {
            continue;
        }
        let terminator = body
            .terminator()
            .ok_or((for_op, "a loop body without a yield".to_string()))?;
        for &i in &dropped {
            let init = operand_at(for_op, 3 + i).unwrap();
            // The iteration argument's and the result's uses move to the
            // init, which dominates both.
            pto_dialects::ir::replace_all_uses(body.argument(i + 1).unwrap(), init);
            pto_dialects::ir::replace_all_uses(for_op.result(i).unwrap(), init);
        }
        if terminator.operand_count() != carried {
            return Err((
                for_op,
                "a loop body yielding other than it carries".to_string(),
            ));
        }
        for &i in dropped.iter().rev() {
            if !pto_dialects::ir::erase_argument(body, i + 1) {
                return Err((for_op, "a dropped loop buffer is still used".to_string()));
            }
        }
        // A new loop with the kept iteration arguments takes the body.
        let kept: Vec<usize> = (0..carried).filter(|i| !dropped.contains(i)).collect();
        let mut operands: Vec<Value> = (0..3).map(|i| operand_at(for_op, i).unwrap()).collect();
        operands.extend(kept.iter().map(|&i| operand_at(for_op, 3 + i).unwrap()));
        keep_results(for_op, "scf.for", &operands, &kept)?;
    }
    Ok(())
}

/// Replaces `op` (an `scf.for` or `scf.if` named `name`, with `operands`)
/// by one yielding only its results `kept`: each region's yield keeps
/// those operands, the regions move to the new op, and the kept results'
/// uses move to it.
pub(crate) fn keep_results<'c, 'a>(
    op: OperationRef<'c, 'a>,
    name: &str,
    operands: &[Value<'c, 'a>],
    kept: &[usize],
) -> Result<(), Failure<'c, 'a>> {
    for region in op.regions() {
        let Some(body) = region.first_block() else {
            continue;
        };
        let Some(terminator) = body.terminator() else {
            continue;
        };
        let yielded: Vec<Value> = kept
            .iter()
            .filter_map(|&i| operand_at(terminator, i))
            .collect();
        body.insert_operation_before(
            terminator,
            melior::dialect::scf::r#yield(&yielded, terminator.location()),
        );
        drop(detach(terminator));
    }
    let result_types: Vec<Type> = kept
        .iter()
        .map(|&i| op.result(i).unwrap().r#type())
        .collect();
    let rebuilt = rebuild(op, name, operands, &result_types)?;
    for (new_index, &old_index) in kept.iter().enumerate() {
        pto_dialects::ir::replace_all_uses(
            op.result(old_index).unwrap(),
            rebuilt.result(new_index).unwrap(),
        );
    }
    drop(detach(op));
    Ok(())
}

/// A new `name` op (an `scf.for` or `scf.if`) before `op`, with `operands`
/// and `result_types`, that takes `op`'s regions; `op` stays, its regions
/// empty, for the caller to move its results' uses and remove it.
pub(crate) fn rebuild<'c, 'a>(
    op: OperationRef<'c, 'a>,
    name: &str,
    operands: &[Value<'c, 'a>],
    result_types: &[Type<'c>],
) -> Result<OperationRef<'c, 'a>, Failure<'c, 'a>> {
    let regions: Vec<Region> = (0..op.region_count())
        .map(|index| {
            let region = Region::new();
            pto_dialects::ir::take_body(&region, &op.region(index).unwrap());
            region
        })
        .collect();
    let builder = OperationBuilder::new(name, op.location())
        .add_operands(operands)
        .add_results(result_types);
    let mut regions = regions.into_iter();
    let builder = match (regions.next(), regions.next()) {
        (Some(body), None) => builder.add_regions([body]),
        (Some(then), Some(otherwise)) => builder.add_regions([then, otherwise]),
        _ => return Err((op, format!("a '{name}' without its regions"))),
    };
    let rebuilt = builder.build().map_err(|e| (op, e.to_string()))?;
    Ok(op.block().unwrap().insert_operation_before(op, rebuilt))
}

/// Lowers one kernel; the helpers it needs.
/// Tile results of `scf.if`: planning put both yields and the result in
/// one buffer (its address is on the `scf.if`), so the result becomes a
/// `pl.tile.create` at that address before the branch, and the branch
/// yields nothing for it.
fn drop_branch_tiles<'c, 'a>(
    context: &'c Context,
    kernel: OperationRef<'c, 'a>,
) -> Result<(), Failure<'c, 'a>> {
    let mut branches = Vec::new();
    pto_dialects::ir::walk(kernel, WalkOrder::PostOrder, |op| {
        if op_name(op) == "scf.if"
            && (0..op.result_count())
                .any(|i| TileType::try_from(op.result(i).unwrap().r#type()).is_ok())
        {
            branches.push(op);
        }
        WalkResult::Advance
    });
    for raw in branches {
        let branch = raw;
        let addresses = branch
            .attribute("pl.addresses")
            .ok()
            .and_then(|a| DenseI64ArrayAttribute::try_from(a).ok())
            .ok_or((
                branch,
                "a branch yielding tiles has no planned addresses".to_string(),
            ))?;
        let results = branch.result_count();
        let mut kept = Vec::new();
        for i in 0..results {
            let result: Value = branch.result(i).unwrap().into();
            if TileType::try_from(result.r#type()).is_err() {
                if TensorLike::try_from(result.r#type()).is_ok() {
                    return Err((
                        branch,
                        "branches yielding tensors are not translated yet".to_string(),
                    ));
                }
                kept.push(i);
                continue;
            }
            let address = addresses.element(i).map_err(|e| (branch, e.to_string()))?;
            let create = OperationBuilder::new(OpKind::PlTileCreate.name(), branch.location())
                .add_results(&[result.r#type()])
                .add_attributes(&[(
                    Identifier::new(context, "pl.addresses"),
                    DenseI64ArrayAttribute::new(context, &[address]).into(),
                )])
                .build()
                .map_err(|e| (branch, e.to_string()))?;
            let create = branch
                .block()
                .unwrap()
                .insert_operation_before(branch, create);
            pto_dialects::ir::replace_all_uses(result, create.result(0).unwrap());
        }
        // The branches yield only what is kept.
        keep_results(branch, "scf.if", &[operand_at(branch, 0).unwrap()], &kept)?;
    }
    Ok(())
}

/// `arith.remui`/`divui` (which the upstream arith conversion does not
/// take) as EmitC `%`/`/` on the unsigned C type: `size_t` for index,
/// `uintN_t` for iN.
fn lower_unsigned_division<'c, 'a>(
    context: &'c Context,
    kernel: OperationRef<'c, 'a>,
) -> Result<(), Failure<'c, 'a>> {
    for op in pto_dialects::ir::collect_named(kernel, &["arith.remui", "arith.divui"]) {
        let location = op.location();
        let block = op.block().unwrap();
        let r#type = result_at(op, 0).unwrap().r#type();
        let unsigned = if r#type.is_index() {
            Type::parse(context, "!emitc.size_t").expect("size_t parses")
        } else {
            let width = IntegerType::try_from(r#type)
                .map_err(|_| (op, format!("unsigned division of {type}")))?
                .width();
            IntegerType::unsigned(context, width).into()
        };
        let to = |value: Value<'c, 'a>, target: Type<'c>| -> Value<'c, 'a> {
            let cast = OperationBuilder::new("builtin.unrealized_conversion_cast", location)
                .add_operands(&[value])
                .add_results(&[target])
                .build()
                .expect("a cast builds");
            block
                .insert_operation_before(op, cast)
                .result(0)
                .unwrap()
                .into()
        };
        let (lhs, rhs) = (
            to(operand_at(op, 0).unwrap(), unsigned),
            to(operand_at(op, 1).unwrap(), unsigned),
        );
        let emitc_name = if op_name(op) == "arith.remui" {
            "emitc.rem"
        } else {
            "emitc.div"
        };
        let divided: Value = block
            .insert_operation_before(
                op,
                OperationBuilder::new(emitc_name, location)
                    .add_operands(&[lhs, rhs])
                    .add_results(&[unsigned])
                    .build()
                    .expect("emitc division builds"),
            )
            .result(0)
            .unwrap()
            .into();
        let back = to(divided, r#type);
        pto_dialects::ir::replace_all_uses(result_at(op, 0).unwrap(), back);
        drop(detach(op));
    }
    Ok(())
}

fn convert_kernel<'c, 'a>(
    context: &'c Context,
    kernel: OperationRef<'c, 'a>,
    with_entry: bool,
) -> Result<Helpers, Failure<'c, 'a>> {
    crate::target::a2a3_forms::check(kernel)?;
    lower_unsigned_division(context, kernel)?;
    give_arrays_storage(kernel)?;
    drop_carried_buffers(kernel)?;
    drop_branch_tiles(context, kernel)?;
    let entry = kernel
        .region_opt(0)
        .and_then(|r| r.first_block())
        .ok_or((kernel, "an empty kernel".to_string()))?;
    let mut lowering = Lowering {
        context,
        replaced: Vec::new(),
        materializations: Vec::new(),
        communicates: false,
        accesses_gm: false,
        prefetches: false,
        barriers: false,
        addresses: HashMap::new(),
        pipes_used: false,
        pipes: HashMap::new(),
        popped: HashMap::new(),
        spmd: [None; 3],
    };
    // The kernel's own first op: the parameters' materializations go before
    // it, after the casts of the scalar parameters.
    let body_first = entry
        .first_operation()
        .ok_or((kernel, "a kernel without a return".to_string()))?;
    // Parameters: tensors become __gm__ pointers, index size_t; a dynamic
    // leading dimension is one more size_t parameter after all others.
    let mut parameter_types = Vec::new();
    let mut dynamic_dims: Vec<(ValueKey, usize)> = Vec::new();
    let mut distributed: Vec<ValueKey> = Vec::new();
    let mut comm_contexts: Vec<(Value, Type)> = Vec::new();
    // Tensor parameters and their pl types.
    let mut tensor_parameters: Vec<(Value, Type)> = Vec::new();
    let mut abi: Vec<EntryArg> = Vec::new();
    let mut parameter_of: HashMap<ValueKey, usize> = HashMap::new();
    for i in 0..entry.argument_count() {
        let argument: Value = entry.argument(i).unwrap().into();
        let r#type = argument.r#type();
        if CommCtxType::try_from(r#type).is_ok() {
            let context_type = pointer(context, "int64_t");
            argument.set_type(context_type);
            comm_contexts.push((argument, r#type));
            parameter_types.push(context_type);
            abi.push(EntryArg::Context);
            continue;
        }
        if let Ok(tensor) = TensorLike::try_from(r#type) {
            if tensor.is_distributed() {
                distributed.push(value_key(argument));
            }
            let dims = tensor.shape();
            let element = cpp_types::element(tensor.element()).map_err(|m| (kernel, m))?;
            let pointer_type = pointer(context, element);
            argument.set_type(pointer_type);
            // Each dynamic extent is one more size_t parameter (a plain
            // tensor's leading one, any of a window view's).
            for (axis, extent) in dims.iter().enumerate() {
                if extent.is_none() {
                    dynamic_dims.push((value_key(argument), axis));
                }
            }
            tensor_parameters.push((argument, r#type));
            parameter_of.insert(value_key(argument), abi.len());
            parameter_types.push(pointer_type);
            abi.push(EntryArg::Tensor { element });
        } else if r#type.is_index() {
            let size_t = Type::parse(context, "!emitc.size_t").expect("size_t parses");
            let first = entry.first_operation().expect("a kernel has a return");
            let cast =
                OperationBuilder::new("builtin.unrealized_conversion_cast", kernel.location())
                    .add_operands(&[argument])
                    .add_results(&[r#type])
                    .build()
                    .expect("a cast builds");
            let cast = entry.insert_operation_before(first, cast);
            let index_value: Value = cast.result(0).unwrap().into();
            pto_dialects::ir::replace_all_uses(argument, index_value);
            pto_dialects::ir::edit(cast).set_operand(0, argument);
            argument.set_type(size_t);
            parameter_types.push(size_t);
            abi.push(EntryArg::Scalar {
                cpp: "size_t".into(),
            });
        } else if TileType::try_from(r#type).is_ok() {
            return Err((
                kernel,
                format!("parameter #{i} is a tile; kernels take tensors and scalars"),
            ));
        } else {
            let cpp =
                cpp_types::element(r#type).map_err(|m| (kernel, format!("parameter #{i}: {m}")))?;
            if Dtype::of(r#type) == Some(Dtype::Bf16) {
                // EmitC spells a bf16 scalar `__bf16`; pto-isa's tiles and
                // scalar operands take its bfloat16_t.
                return Err((
                    kernel,
                    format!(
                        "parameter #{i}: a bf16 scalar parameter is not translated yet (EmitC's __bf16 is not pto-isa's bfloat16_t); pass it as f32 and cast it in the kernel"
                    ),
                ));
            }
            parameter_types.push(r#type);
            abi.push(EntryArg::Scalar { cpp: cpp.into() });
        }
    }
    if distributed.len() > comm_contexts.len() {
        return Err((kernel, "a distributed tensor parameter has no CommContext parameter (run pld-materialize-dist-tensor-ctx first)".to_string()));
    }
    let size_t = Type::parse(context, "!emitc.size_t").expect("size_t parses");
    let mut extents: HashMap<(ValueKey, usize), Value> = HashMap::new();
    for (key, axis) in &dynamic_dims {
        let argument: Value = entry.add_argument(size_t, kernel.location());
        let first = entry.first_operation().expect("a kernel has a return");
        let cast = OperationBuilder::new("builtin.unrealized_conversion_cast", kernel.location())
            .add_operands(&[argument])
            .add_results(&[Type::index(context)])
            .build()
            .expect("a cast builds");
        let index_value: Value = entry
            .insert_operation_before(first, cast)
            .result(0)
            .unwrap()
            .into();
        extents.insert((*key, *axis), index_value);
        parameter_types.push(size_t);
        abi.push(EntryArg::Extent {
            parameter: parameter_of[key],
            axis: *axis,
        });
    }
    // The SPMD identity the body reads: trailing int32_t parameters.
    let i32_type: Type = IntegerType::new(context, 32).into();
    for query in super::spmd::Queries::of(kernel).parameters() {
        let argument: Value = entry.add_argument(i32_type, kernel.location());
        lowering.spmd[query as usize] = Some(argument);
        parameter_types.push(i32_type);
        abi.push(EntryArg::Spmd(query));
    }
    // The parameters as the pl values the body uses.
    let mut materialize_parameter =
        |argument: Value<'c, 'a>, r#type: Type<'c>, parts: &[Value<'c, 'a>]| {
            let value = lowering.materialize(body_first, r#type, parts);
            pto_dialects::ir::replace_all_uses(argument, value);
            let cast = pto_dialects::ir::defining_op(value).expect("a cast");
            pto_dialects::ir::edit(cast).set_operand(0, argument);
        };
    for &(argument, r#type) in &comm_contexts {
        materialize_parameter(argument, r#type, &[argument]);
    }
    let mut contexts = comm_contexts.iter().map(|(ctx, _)| *ctx);
    for &(argument, r#type) in &tensor_parameters {
        let mut parts = vec![argument];
        let rank = TensorLike::try_from(r#type).map_or(0, |t| t.rank());
        parts.extend(
            (0..rank).filter_map(|axis| extents.get(&(value_key(argument), axis)).copied()),
        );
        if distributed.contains(&value_key(argument)) {
            parts.extend(contexts.next());
        }
        materialize_parameter(argument, r#type, &parts);
    }
    // Tile ops, in order (nested ones included).
    let mut ops = Vec::new();
    pto_dialects::ir::walk(kernel, WalkOrder::PreOrder, |op| {
        ops.push(op);
        WalkResult::Advance
    });
    for raw in ops {
        let op = raw;
        if op == kernel {
            continue;
        }
        lowering.convert(op)?;
    }
    for op in lowering.replaced.iter().rev() {
        drop(detach(*op));
    }
    // func.func -> emitc.func with the kernel specifiers; results dropped.
    let name = pto_dialects::attrs::text_of(kernel, "sym_name")
        .ok_or((kernel, "a kernel without a name".to_string()))?;
    let function_type = FunctionType::new(context, &parameter_types, &[]);
    // Under a runtime entry the kernel is a plain device function the entry
    // calls (docs/translate.md, "What the runtime gets"); alone it is
    // PTOAS's launchable kernel.
    let specifiers: &[&str] = if with_entry {
        &["static", "__aicore__"]
    } else {
        &["__global__", "AICORE"]
    };
    let region = Region::new();
    pto_dialects::ir::take_body(&region, &kernel.region(0).unwrap());
    let function = build::func(
        context,
        kernel.location(),
        &name,
        function_type,
        specifiers,
        region,
    )
    .map_err(|e| (kernel, e.to_string()))?;
    let function = kernel
        .block()
        .unwrap()
        .insert_operation_before(kernel, function);
    let body = function.region(0).unwrap().first_block().unwrap();
    if let Some(terminator) = body.terminator() {
        body.insert_operation_before(
            terminator,
            OperationBuilder::new("emitc.return", terminator.location())
                .build()
                .expect("emitc.return builds"),
        );
        drop(detach(terminator));
    }
    // Every use of a pl value is converted now (the kernel's results
    // with its return).
    for cast in lowering.materializations.iter().rev() {
        let value: Value = cast.result(0).expect("one result").into();
        if let Some((user, _)) = pto_dialects::ir::uses(value).first() {
            return Err((
                *user,
                format!(
                    "this op takes a {} and is not a pl op; it is not translated yet",
                    value.r#type()
                ),
            ));
        }
        drop(detach(*cast));
    }
    drop(detach(kernel));
    if with_entry {
        kernel_entry::build(context, function, &name, &parameter_types, &abi)
            .map_err(|m| (function, m))?;
    }
    Ok(Helpers {
        communicates: lowering.communicates,
        accesses_gm: lowering.accesses_gm,
        spmd: lowering.spmd.iter().any(Option::is_some),
        prefetches: lowering.prefetches,
        barriers: lowering.barriers,
        pipes: lowering.pipes_used,
    })
}
