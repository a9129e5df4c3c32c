//! A kernel's SPMD identity in C++ (docs/translate.md, "SPMD launches"):
//! the block queries a kernel's body holds (`pl.tile.get_block_idx`,
//! `get_block_num`, `get_subblock_idx`) become trailing `int32_t`
//! parameters of the kernel, in that order, only those it uses; whoever
//! launches it passes them: the runtime's `kernel_entry` reads them from
//! its arguments (`get_block_idx(args)`, `get_block_num(args)`,
//! `get_sub_block_id(args)` of the runtime's `intrinsic.h`), a simulator
//! program passes each block's.

use melior::ir::operation::{OperationRef, WalkOrder, WalkResult};
use pto_dialects::op_table::OpKind;

/// One block query, in the order the parameters come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    BlockIdx,
    BlockNum,
    SubblockIdx,
}

impl Query {
    /// In parameter order.
    pub const ALL: [Query; 3] = [Query::BlockIdx, Query::BlockNum, Query::SubblockIdx];

    /// The query `kind` is, if it is one.
    pub fn of(kind: OpKind) -> Option<Self> {
        Some(match kind {
            OpKind::PlTileGetBlockIdx => Query::BlockIdx,
            OpKind::PlTileGetBlockNum => Query::BlockNum,
            OpKind::PlTileGetSubblockIdx => Query::SubblockIdx,
            _ => return None,
        })
    }

    /// The runtime's accessor of its `kernel_entry` arguments.
    pub fn runtime_accessor(self) -> &'static str {
        match self {
            Query::BlockIdx => "get_block_idx",
            Query::BlockNum => "get_block_num",
            Query::SubblockIdx => "get_sub_block_id",
        }
    }
}

/// The block queries a kernel's body holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Queries([bool; 3]);

impl Queries {
    /// The queries of `kernel` (a `func.func` in pl form).
    pub fn of(kernel: OperationRef) -> Self {
        let mut used = [false; 3];
        pto_dialects::ir::walk(kernel, WalkOrder::PreOrder, |op| {
            if let Some(query) = OpKind::of(&op).and_then(Query::of) {
                used[query as usize] = true;
            }
            WalkResult::Advance
        });
        Self(used)
    }

    /// The kernel's trailing parameters, in order.
    pub fn parameters(self) -> impl Iterator<Item = Query> {
        Query::ALL.into_iter().filter(move |q| self.0[*q as usize])
    }

    /// Whether the kernel takes any.
    pub fn any(self) -> bool {
        self.0.iter().any(|used| *used)
    }
}

/// The bit of `pto::sim::launch_blocks`'s mask that runs the blocks at
/// once, each on a thread of its own.
pub const TOGETHER: u32 = 8;

impl Queries {
    /// The queries as the bit mask `pto::sim::launch_blocks` takes: 1 the
    /// block index, 2 the block count, 4 the sub-block index.
    pub fn mask(self) -> u32 {
        self.parameters().map(|q| 1 << (q as u32)).sum()
    }
}

/// A simulator program's call of kernel `name` with `operands`: launched on
/// `blocks` blocks (`pto::sim::launch_blocks<mask>(blocks, name,
/// operands...)`, which appends each block's identity the kernel takes),
/// one after another, or each on a thread of its own when the launch
/// starts them `together` (`sync_start`: mask bit 8, what a
/// `pl.system.syncall` needs), when it is an SPMD launch or the kernel
/// reads its identity, else the plain call `name(operands...)`. `blocks`
/// is an integer value (one block when `None`).
pub fn sim_call<'c>(
    context: &'c melior::Context,
    name: &str,
    queries: Queries,
    blocks: Option<melior::ir::Value<'c, '_>>,
    together: bool,
    operands: &[melior::ir::Value<'c, '_>],
) -> melior::ir::Operation<'c> {
    use super::build::opaque_attribute;
    use melior::ir::{
        Attribute, Identifier, Location, Type,
        attribute::{ArrayAttribute, IntegerAttribute, StringAttribute},
        operation::OperationBuilder,
    };
    if blocks.is_none() && !queries.any() {
        return super::build::call_opaque(context, name, operands, &[], None);
    }
    let index =
        |i: usize| -> Attribute { IntegerAttribute::new(Type::index(context), i as i64).into() };
    let mut all = Vec::new();
    let mut args = Vec::new();
    match blocks {
        Some(blocks) => {
            all.push(blocks);
            args.push(index(0));
        }
        None => args.push(opaque_attribute(context, "1")),
    }
    args.push(opaque_attribute(context, name));
    for &operand in operands {
        args.push(index(all.len()));
        all.push(operand);
    }
    OperationBuilder::new("emitc.call_opaque", Location::unknown(context))
        .add_attributes(&[
            (
                Identifier::new(context, "callee"),
                StringAttribute::new(context, "pto::sim::launch_blocks").into(),
            ),
            (
                Identifier::new(context, "args"),
                ArrayAttribute::new(context, &args).into(),
            ),
            (
                Identifier::new(context, "template_args"),
                ArrayAttribute::new(
                    context,
                    &[opaque_attribute(
                        context,
                        &(queries.mask() | if together { TOGETHER } else { 0 }).to_string(),
                    )],
                )
                .into(),
            ),
        ])
        .add_operands(&all)
        .build()
        .expect("emitc.call_opaque builds")
}
