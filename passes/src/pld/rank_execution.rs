//! Executes a function's integer control flow as one rank of P would: `scf`
//! loops and branches, `arith` integer ops, `pld.system.rank`/`nranks`.
//! Every other op is handed to an [`Effects`] observer, which decides what it
//! means (`pld-comm-stats` counts transfers; tests record a trace and replay
//! it over simulated memory). The lowered collectives' control flow depends
//! only on the rank, the rank count and constants, so one rank's execution
//! is a fixed sequence of effects.

use pto_dialects::ops::Checked;
use std::collections::HashMap;

use pto_dialects::ir::ValueKey;
use pto_dialects::op_table::OpKind;

use melior::ir::{
    BlockLike, BlockRef, OperationRef, RegionLike, Value, attribute::IntegerAttribute,
    operation::OperationLike,
};

use super::ir::op_name;

/// An op the execution could not evaluate, and why.
pub type Failure<'c, 'a> = (OperationRef<'c, 'a>, String);

/// What the observer is told.
pub trait Effects<'c, 'a> {
    /// An op that is not integer control flow or arithmetic; `Some(v)`
    /// gives its first result the integer `v` (a scalar read of a known
    /// input, say).
    fn effect(
        &mut self,
        machine: &RankMachine,
        op: OperationRef<'c, 'a>,
    ) -> Result<Option<i64>, Failure<'c, 'a>>;

    /// Each `(dst, src)`: `dst` now holds what `src` held, all at once
    /// (loop-carried values, `scf.if` results); the machine itself forwards
    /// integers.
    fn bind(&mut self, _pairs: &[(Value<'c, 'a>, Value<'c, 'a>)]) {}
}

/// One rank's integer state.
pub struct RankMachine {
    pub rank: i64,
    pub nranks: i64,
    values: HashMap<ValueKey, i64>,
    /// Loop iterations the rank may still execute (all loops together).
    trips_left: i64,
    max_trips: i64,
}

/// Values are keyed by identity: unique while the IR lives.
pub fn value_key(value: Value) -> ValueKey {
    ValueKey::of(value)
}

impl RankMachine {
    pub fn new(rank: i64, nranks: i64) -> Self {
        Self {
            rank,
            nranks,
            values: HashMap::new(),
            trips_left: i64::MAX,
            max_trips: i64::MAX,
        }
    }

    /// Limits the loop iterations the rank executes, over all loops: a loop
    /// whose trip count exceeds what is left is a failure, before it runs.
    pub fn with_max_trips(mut self, max_trips: i64) -> Self {
        self.max_trips = max_trips;
        self.trips_left = max_trips;
        self
    }

    /// Runs the body of `function` (a `func.func`).
    pub fn run_function<'c, 'a>(
        &mut self,
        function: OperationRef<'c, 'a>,
        effects: &mut impl Effects<'c, 'a>,
    ) -> Result<(), Failure<'c, 'a>> {
        if let Some(block) = function.regions().next().and_then(|r| r.first_block()) {
            self.run_block(block, effects)?;
        }
        Ok(())
    }

    /// The integer `value` holds; `op` is blamed when it is unknown.
    pub fn value<'c, 'a>(
        &self,
        op: OperationRef<'c, 'a>,
        value: Value,
    ) -> Result<i64, Failure<'c, 'a>> {
        self.values
            .get(&value_key(value))
            .copied()
            .ok_or_else(|| (op, format!("cannot evaluate {value}")))
    }

    /// The integer operand `index` of `op`.
    pub fn operand<'c, 'a>(
        &self,
        op: OperationRef<'c, 'a>,
        index: usize,
    ) -> Result<i64, Failure<'c, 'a>> {
        self.value(op, op.operand(index).expect("verified operand"))
    }

    /// The integer operands `range` of `op`.
    pub fn operands<'c, 'a>(
        &self,
        op: OperationRef<'c, 'a>,
        range: std::ops::Range<usize>,
    ) -> Result<Vec<i64>, Failure<'c, 'a>> {
        range.map(|i| self.operand(op, i)).collect()
    }

    fn run_block<'c, 'a>(
        &mut self,
        block: BlockRef<'c, 'a>,
        effects: &mut impl Effects<'c, 'a>,
    ) -> Result<(), Failure<'c, 'a>> {
        let mut next = block.first_operation();
        while let Some(op) = next {
            self.run_op(op, effects)?;
            next = op.next_in_block();
        }
        Ok(())
    }

    fn set(&mut self, op: OperationRef, value: i64) {
        if let Some(result) = op.results().next() {
            self.values.insert(value_key(result.into()), value);
        }
    }

    /// Parallel assignment `targets := sources`.
    fn bind<'c, 'a>(
        &mut self,
        targets: &[Value<'c, 'a>],
        sources: impl IntoIterator<Item = Value<'c, 'a>>,
        effects: &mut impl Effects<'c, 'a>,
    ) {
        let pairs: Vec<(Value, Value)> = targets.iter().copied().zip(sources).collect();
        let known: Vec<Option<i64>> = pairs
            .iter()
            .map(|(_, src)| self.values.get(&value_key(*src)).copied())
            .collect();
        for ((dst, _), value) in pairs.iter().zip(known) {
            match value {
                Some(v) => self.values.insert(value_key(*dst), v),
                None => self.values.remove(&value_key(*dst)),
            };
        }
        if !pairs.is_empty() {
            effects.bind(&pairs);
        }
    }

    /// Binds `targets` to the operands of `block`'s terminator.
    fn bind_yield<'c, 'a>(
        &mut self,
        block: BlockRef<'c, 'a>,
        targets: &[Value<'c, 'a>],
        effects: &mut impl Effects<'c, 'a>,
    ) {
        if let Some(terminator) = block.terminator() {
            self.bind(targets, terminator.operands(), effects);
        }
    }

    fn run_op<'c, 'a>(
        &mut self,
        op: OperationRef<'c, 'a>,
        effects: &mut impl Effects<'c, 'a>,
    ) -> Result<(), Failure<'c, 'a>> {
        let name = op_name(op);
        let binary =
            |machine: &Self, f: fn(i64, i64) -> Option<i64>| -> Result<i64, Failure<'c, 'a>> {
                let (a, b) = (machine.operand(op, 0)?, machine.operand(op, 1)?);
                f(a, b).ok_or_else(|| {
                    (
                        op,
                        format!("cannot evaluate '{}' of {a} and {b}", op_name(op)),
                    )
                })
            };
        // The rank queries are pl ops; the rest of what the machine
        // evaluates is upstream arith and scf.
        match OpKind::of(&op) {
            Some(OpKind::PldSystemNranks) => {
                self.set(op, self.nranks);
                return Ok(());
            }
            Some(OpKind::PldSystemRank) => {
                self.set(op, self.rank);
                return Ok(());
            }
            _ => {}
        }
        match name {
            "arith.constant" => {
                if let Some(value) = op
                    .attribute("value")
                    .ok()
                    .and_then(|a| IntegerAttribute::try_from(a).ok())
                {
                    self.set(op, value.value());
                }
            }
            "arith.index_cast" | "arith.index_castui" | "arith.extsi" | "arith.extui"
            | "arith.trunci" => {
                if let Ok(v) = self.operand(op, 0) {
                    self.set(op, v);
                }
            }
            "arith.addi" => self.try_set(op, binary(self, i64::checked_add)),
            "arith.subi" => self.try_set(op, binary(self, i64::checked_sub)),
            "arith.muli" => self.try_set(op, binary(self, i64::checked_mul)),
            "arith.divui" | "arith.divsi" => self.try_set(op, binary(self, i64::checked_div)),
            "arith.remui" | "arith.remsi" => self.try_set(op, binary(self, i64::checked_rem)),
            "arith.minsi" | "arith.minui" => self.try_set(op, binary(self, |a, b| Some(a.min(b)))),
            "arith.maxsi" | "arith.maxui" => self.try_set(op, binary(self, |a, b| Some(a.max(b)))),
            "arith.cmpi" => {
                let predicate = op
                    .attribute("predicate")
                    .ok()
                    .and_then(|a| IntegerAttribute::try_from(a).ok())
                    .map(|a| a.value());
                if let (Ok(a), Ok(b)) = (self.operand(op, 0), self.operand(op, 1)) {
                    let holds = match predicate {
                        Some(0) => a == b,
                        Some(1) => a != b,
                        Some(2) | Some(6) => a < b,
                        Some(3) | Some(7) => a <= b,
                        Some(4) | Some(8) => a > b,
                        _ => a >= b,
                    };
                    self.set(op, i64::from(holds));
                }
            }
            "arith.select" => {
                if let Ok(c) = self.operand(op, 0) {
                    let pick = if c != 0 { 1 } else { 2 };
                    if let Ok(v) = self.operand(op, pick) {
                        self.set(op, v);
                    }
                }
            }
            "scf.for" => {
                let (lower, upper, step) = (
                    self.operand(op, 0)?,
                    self.operand(op, 1)?,
                    self.operand(op, 2)?,
                );
                if step <= 0 {
                    return Err((op, format!("step {step} is not positive")));
                }
                let body = op
                    .region_opt(0)
                    .and_then(|r| r.first_block())
                    .expect("scf.for has a body");
                let carried: Vec<Value> = (1..body.argument_count())
                    .map(|i| body.argument(i).unwrap().into())
                    .collect();
                self.bind(&carried, op.operands().skip(3), effects);
                let induction = value_key(body.argument(0).expect("induction variable").into());
                // In i128: neither the trip count nor the last step overflows.
                let span = (i128::from(upper) - i128::from(lower)).max(0);
                let trips = (span + i128::from(step) - 1) / i128::from(step);
                if trips > i128::from(self.trips_left) {
                    return Err((
                        op,
                        format!(
                            "this loop's {trips} iterations exceed max-trips ({} loop iterations per rank and function)",
                            self.max_trips
                        ),
                    ));
                }
                self.trips_left -= trips as i64;
                // A body that does nothing but yield its iteration arguments
                // unchanged leaves everything as it was, however many trips.
                let idle = body.first_operation().is_some_and(|first| {
                    first.next_in_block().is_none()
                        && first
                            .operands()
                            .zip(&carried)
                            .all(|(yielded, argument)| yielded == *argument)
                        && first.operand_count() == carried.len()
                });
                let trips = if idle { 0 } else { trips };
                for trip in 0..trips {
                    let iv = i128::from(lower) + trip * i128::from(step);
                    self.values.insert(induction, iv as i64);
                    self.run_block(body, effects)?;
                    self.bind_yield(body, &carried, effects);
                }
                let results: Vec<Value> = op.results().map(Into::into).collect();
                self.bind(&results, carried.iter().copied(), effects);
            }
            "scf.if" => {
                let region = if self.operand(op, 0)? != 0 { 0 } else { 1 };
                if let Some(block) = op.region_opt(region).and_then(|r| r.first_block()) {
                    self.run_block(block, effects)?;
                    let results: Vec<Value> = op.results().map(Into::into).collect();
                    self.bind_yield(block, &results, effects);
                }
            }
            "scf.yield" | "func.return" => {}
            _ => {
                if let Some(value) = effects.effect(self, op)? {
                    self.set(op, value);
                }
            }
        }
        Ok(())
    }

    fn try_set<'c, 'a>(&mut self, op: OperationRef<'c, 'a>, value: Result<i64, Failure<'c, 'a>>) {
        // Values that cannot be evaluated stay unknown; using one for control
        // flow or an extent is what gets diagnosed.
        if let Ok(value) = value {
            self.set(op, value);
        }
    }
}
