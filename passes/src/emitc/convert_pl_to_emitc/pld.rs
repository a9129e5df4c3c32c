//! The pld side of `convert-pl-to-emitc` (docs/translate.md, "How the C++
//! is made"): window pointers and CommContexts, peer addresses, remote
//! loads and stores, puts and gets, signals, fences and cache invalidation.
//! It shares the tile objects and window bookkeeping of the pl lowering, so
//! it is part of the same pass.

use melior::ir::{
    Attribute, OperationRef, Type, Value, ValueLike, attribute::IntegerAttribute,
    operation::OperationLike, r#type::IntegerType,
};
use pto_dialects::{
    enums::{AtomicType, EnumAttr, NotifyKind, WaitCmp},
    ops::{OpKind, operand_at, operand_segments, result_at},
    types::TileType,
};

use super::{Failure, Lowering, emitted, no_lowering};
use crate::emitc::build::opaque_attribute;
use pto_dialects::ops::constant_int;

/// The CommContext accessors communicating kernels use (docs/translate.md,
/// "How the C++ is made": slot 2 holds rankId and rankNum, slot 4 + k rank
/// k's window base; a peer address is
/// `local - windowsIn[rankId] + windowsIn[peer]`).
pub(super) const COMM_HELPERS: &str = "#ifndef PTO_PLD_CONTEXT_HELPERS
#define PTO_PLD_CONTEXT_HELPERS
static AICORE inline int32_t pld_rank(__gm__ int64_t* ctx) { return (int32_t)(ctx[2] & 0xffffffff); }
static AICORE inline int32_t pld_nranks(__gm__ int64_t* ctx) { return (int32_t)((uint64_t)ctx[2] >> 32); }
template <typename T>
static AICORE inline __gm__ T* pld_peer(__gm__ T* local, __gm__ int64_t* ctx, int32_t peer) {
  return (__gm__ T*)((__gm__ char*)local - ctx[4 + pld_rank(ctx)] + ctx[4 + peer]);
}
#endif";

impl<'c, 'a> Lowering<'c, 'a> {
    /// The CommContext pointer of distributed tensor `tensor`.
    fn context_of(
        &self,
        op: OperationRef<'c, 'a>,
        tensor: Value<'c, 'a>,
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        self.gm_tensor(tensor).and_then(|t| t.context).ok_or((
            op,
            "this distributed tensor has no CommContext parameter".to_string(),
        ))
    }

    /// `tensor`'s pointer on rank `peer`, as the same pointer
    /// type: `local - windowsIn[rankId] + windowsIn[peer]`.
    fn peer_pointer(
        &self,
        op: OperationRef<'c, 'a>,
        tensor: Value<'c, 'a>,
        peer: Value<'c, 'a>,
    ) -> Result<Value<'c, 'a>, Failure<'c, 'a>> {
        let ctx = self.context_of(op, tensor)?;
        Ok(self
            .call(
                op,
                "pld_peer",
                &[tensor, ctx, peer],
                None,
                Some(emitted(tensor).r#type()),
            )
            .expect("a result"))
    }

    /// Remote tile access, signals, fences and rank queries (docs/translate.md,
    /// "How the C++ is made").
    pub(super) fn communicate(
        &mut self,
        op: OperationRef<'c, 'a>,
        kind: OpKind,
    ) -> Result<(), Failure<'c, 'a>> {
        self.communicates = true;
        let opaque_args = |texts: &[&str]| -> Vec<Attribute<'c>> {
            texts
                .iter()
                .map(|t| opaque_attribute(self.context, t))
                .collect()
        };
        let index_arg = |i: i64| -> Attribute<'c> {
            IntegerAttribute::new(Type::index(self.context), i).into()
        };
        match kind {
            OpKind::PldSystemGetCommCtx => {
                let ctx = self.context_of(op, operand_at(op, 0).unwrap())?;
                self.replace(op, ctx);
            }
            OpKind::PldSystemRank | OpKind::PldSystemNranks => {
                let i32_type: Type = IntegerType::new(self.context, 32).into();
                let callee = if kind == OpKind::PldSystemNranks {
                    "pld_nranks"
                } else {
                    "pld_rank"
                };
                let value = self
                    .call(
                        op,
                        callee,
                        &[operand_at(op, 0).unwrap()],
                        None,
                        Some(i32_type),
                    )
                    .expect("a result");
                self.replace(op, value);
            }
            OpKind::PldTileRemoteLoad => {
                let result = result_at(op, 0).expect("a tile");
                let tile = TileType::try_from(result.r#type()).map_err(|e| (op, e.to_string()))?;
                let segments = operand_segments(op);
                let (start, count) = segments.get(1).copied().unwrap_or((1, 0));
                let offsets: Vec<Value> = (start..start + count)
                    .filter_map(|i| operand_at(op, i))
                    .collect();
                let peer = operand_at(op, segments.get(2).map_or(start + count, |s| s.0)).unwrap();
                let target = operand_at(op, 0).unwrap();
                // Runtime valid extents, in order of the dynamic ones. A tail-
                // padded load reads the window's bytes past the row end as
                // they lie in the slot, which the window's strides already do.
                let (valid_start, valid_count) = segments.get(3).copied().unwrap_or((0, 0));
                let mut dynamic =
                    (valid_start..valid_start + valid_count).filter_map(|i| operand_at(op, i));
                let extents = tile.effective_view().valid_shape;
                let valid: [Option<Value>; 2] = [0, 1].map(|d| {
                    if extents[d].is_none() {
                        dynamic.next()
                    } else {
                        None
                    }
                });
                let (window, runtime) = self.tile_window(op, tile, valid)?;
                let object = self.declare_tile(op, result, 0, valid)?;
                let remote = self.peer_pointer(op, target, peer)?;
                let global = self.global_window(op, target, remote, &offsets, &window, &runtime)?;
                self.call(op, "TLOAD", &[object, global], None, None);
                self.replace(op, object);
            }
            OpKind::PldTileRemoteStore => {
                let (tile, target) = (operand_at(op, 0).unwrap(), operand_at(op, 1).unwrap());
                let n = op.operand_count();
                let offsets: Vec<Value> = (2..n - 1).filter_map(|i| operand_at(op, i)).collect();
                let peer = operand_at(op, n - 1).unwrap();
                let (window, runtime) = self.stored_window(op, tile)?;
                let remote = self.peer_pointer(op, target, peer)?;
                let global = self.global_window(op, target, remote, &offsets, &window, &runtime)?;
                // An atomic store adds into the peer's window.
                if op
                    .enum_attr::<AtomicType>("atomic")
                    .is_some_and(|a| a != AtomicType::None)
                {
                    self.atomic_store(op, global, tile)?;
                } else {
                    self.call(op, "TSTORE", &[global, tile], None, None);
                }
                self.replaced.push(op);
            }
            OpKind::PldSystemNotify => {
                let target = operand_at(op, 0).unwrap();
                let n = op.operand_count();
                let offsets: Vec<Value> = (1..n - 2).filter_map(|i| operand_at(op, i)).collect();
                let (peer, value) = (
                    operand_at(op, n - 2).unwrap(),
                    operand_at(op, n - 1).unwrap(),
                );
                let kind = if op.enum_attr::<NotifyKind>("op") == Some(NotifyKind::Set) {
                    "pto::comm::NotifyOp::Set"
                } else {
                    "pto::comm::NotifyOp::AtomicAdd"
                };
                // Drain every local pipe before publishing.
                self.call(
                    op,
                    "pipe_barrier",
                    &[],
                    Some(opaque_args(&["PIPE_ALL"])),
                    None,
                );
                let remote = self.peer_pointer(op, target, peer)?;
                let cell = vec![1; offsets.len()];
                let global = self.global_at(op, target, remote, &offsets, &cell)?;
                let mut args = vec![index_arg(0), index_arg(1)];
                args.extend(opaque_args(&[kind]));
                self.call(op, "pto::comm::TNOTIFY", &[global, value], Some(args), None);
                self.replaced.push(op);
            }
            OpKind::PldSystemWait => {
                let signal = operand_at(op, 0).unwrap();
                let n = op.operand_count();
                let offsets: Vec<Value> = (1..n - 1).filter_map(|i| operand_at(op, i)).collect();
                let expected = operand_at(op, n - 1).unwrap();
                let cmp = if op.enum_attr::<WaitCmp>("cmp") == Some(WaitCmp::Eq) {
                    "pto::comm::WaitCmp::EQ"
                } else {
                    "pto::comm::WaitCmp::GE"
                };
                let cell = vec![1; offsets.len()];
                let global = self.global_at(op, signal, signal, &offsets, &cell)?;
                let mut args = vec![index_arg(0), index_arg(1)];
                args.extend(opaque_args(&[cmp]));
                self.call(
                    op,
                    "pto::comm::TWAIT",
                    &[global, expected],
                    Some(args),
                    None,
                );
                self.replaced.push(op);
            }
            OpKind::PlSystemFence => {
                self.call(
                    op,
                    "pipe_barrier",
                    &[],
                    Some(opaque_args(&["PIPE_ALL"])),
                    None,
                );
                self.call(op, "dsb", &[], Some(opaque_args(&["DSB_DDR"])), None);
                self.replaced.push(op);
            }
            OpKind::PlSystemCacheinvalid if op.operand_count() == 0 => {
                self.call(
                    op,
                    "dcci",
                    &[],
                    Some(opaque_args(&[
                        "(__gm__ void*)0",
                        "cache_line_t::ENTIRE_DATA_CACHE",
                    ])),
                    None,
                );
                self.replaced.push(op);
            }
            OpKind::PlSystemCacheinvalid => {
                let mut args = vec![index_arg(0)];
                args.extend(opaque_args(&["cache_line_t::SINGLE_CACHE_LINE"]));
                self.call(op, "dcci", &[operand_at(op, 0).unwrap()], Some(args), None);
                self.replaced.push(op);
            }
            OpKind::PldTilePut | OpKind::PldTileGet => {
                let put = kind == OpKind::PldTilePut;
                let atomic = op
                    .enum_attr::<AtomicType>("atomic")
                    .is_some_and(|a| a != AtomicType::None);
                if atomic && !put {
                    return Err((
                        op,
                        "atomic gets are not translated yet (pto-isa's TGET has no atomic form)"
                            .into(),
                    ));
                }
                // dst, peer, src, stage, stage2?, dst offsets, src offsets,
                // shape.
                let segments = operand_segments(op);
                let group = |i: usize| -> Vec<Value<'c, 'a>> {
                    segments.get(i).map_or(Vec::new(), |&(start, count)| {
                        (start..start + count)
                            .filter_map(|k| operand_at(op, k))
                            .collect()
                    })
                };
                let (dst, peer, src) = (
                    operand_at(op, 0).unwrap(),
                    operand_at(op, 1).unwrap(),
                    operand_at(op, 2).unwrap(),
                );
                let first_region = 5;
                let stages: Vec<Value> = group(3).into_iter().chain(group(4)).collect();
                let (dst_offsets, src_offsets, extents) = (
                    group(first_region),
                    group(first_region + 1),
                    group(first_region + 2),
                );
                // The transfer's extents: the region's (constants), else the
                // whole local tensor's.
                let local = if put { src } else { dst };
                let shape: Vec<i64> = if extents.is_empty() {
                    self.gm_tensor(local).map(|t| t.shape).unwrap_or_default()
                } else {
                    extents
                        .iter()
                        .map(|v| constant_int(*v).unwrap_or(-1))
                        .collect()
                };
                if shape.is_empty() || shape.contains(&-1) {
                    return Err((op, "transfers need static extents (constant region sizes, or a static local tensor)".into()));
                }
                let zeros = |n: usize| -> Vec<Value<'c, 'a>> {
                    (0..n).map(|_| self.index_constant(op, 0)).collect()
                };
                let dst_offsets = if dst_offsets.is_empty() {
                    zeros(shape.len())
                } else {
                    dst_offsets
                };
                let src_offsets = if src_offsets.is_empty() {
                    zeros(shape.len())
                } else {
                    src_offsets
                };
                let (dst_pointer, src_pointer) = if put {
                    (self.peer_pointer(op, dst, peer)?, src)
                } else {
                    (dst, self.peer_pointer(op, src, peer)?)
                };
                let dst_global = self.global_at(op, dst, dst_pointer, &dst_offsets, &shape)?;
                let src_global = self.global_at(op, src, src_pointer, &src_offsets, &shape)?;
                // Order earlier stores before the DMA reads, and drain it after.
                self.call(
                    op,
                    "pipe_barrier",
                    &[],
                    Some(opaque_args(&["PIPE_ALL"])),
                    None,
                );
                let operands: Vec<Value> =
                    [dst_global, src_global].into_iter().chain(stages).collect();
                let callee = match (put, atomic) {
                    (true, true) => "pto::comm::TPUT<AtomicType::AtomicAdd>",
                    (true, false) => "pto::comm::TPUT",
                    _ => "pto::comm::TGET",
                };
                self.call(op, callee, &operands, None, None);
                self.call(
                    op,
                    "pipe_barrier",
                    &[],
                    Some(opaque_args(&["PIPE_ALL"])),
                    None,
                );
                self.replaced.push(op);
            }
            _ => return Err(no_lowering(op, kind)),
        }
        Ok(())
    }
}
