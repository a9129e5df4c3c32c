//! A function's ops in one linear (pre-order) sequence, with the live
//! interval of each value: what memory planning and sync insertion reason
//! over. A use inside a loop of a value defined outside it keeps the value
//! live to the loop's end (the next iteration reads it again).

use rustc_hash::FxHashMap;

use melior::ir::{
    BlockLike, BlockRef, OperationRef, RegionLike, Value,
    operation::{OperationLike, OperationResult},
};

use pto_dialects::ops::op_name;

pub use pto_dialects::ir::{OpKey, ValueKey};

/// An op's identity.
pub fn op_key(op: OperationRef) -> OpKey {
    OpKey::of(&op)
}

/// A value's identity.
pub fn value_key(value: Value) -> ValueKey {
    ValueKey::of(value)
}

/// `[def, end]` in linear positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    pub def: usize,
    pub end: usize,
}

/// The linear order of a function's ops.
pub struct Linear<'c, 'a> {
    pub ops: Vec<OperationRef<'c, 'a>>,
    position: FxHashMap<OpKey, usize>,
    end: FxHashMap<OpKey, usize>,
    /// Each op's users: (user position, operand index) per value key.
    uses: FxHashMap<ValueKey, Vec<(usize, usize)>>,
}

impl<'c, 'a> Linear<'c, 'a> {
    /// Linearizes the body of `function`.
    pub fn of(function: OperationRef<'c, 'a>) -> Self {
        let mut linear = Linear {
            ops: Vec::new(),
            position: FxHashMap::default(),
            end: FxHashMap::default(),
            uses: FxHashMap::default(),
        };
        for region in function.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                linear.visit(b);
                block = b.next_in_region();
            }
        }
        for (position, op) in linear.ops.iter().enumerate() {
            for (index, operand) in op.operands().enumerate() {
                linear
                    .uses
                    .entry(value_key(operand))
                    .or_default()
                    .push((position, index));
            }
        }
        linear
    }

    fn visit(&mut self, block: BlockRef<'c, 'a>) {
        let mut next = block.first_operation();
        while let Some(op) = next {
            let position = self.ops.len();
            self.position.insert(op_key(op), position);
            self.ops.push(op);
            for region in op.regions() {
                let mut inner = region.first_block();
                while let Some(b) = inner {
                    self.visit(b);
                    inner = b.next_in_region();
                }
            }
            self.end.insert(op_key(op), self.ops.len() - 1);
            next = op.next_in_block();
        }
    }

    pub fn position(&self, op: OperationRef) -> usize {
        self.position[&op_key(op)]
    }

    /// `op`'s position, `None` for an op made after the linearization.
    pub fn position_opt(&self, op: OperationRef) -> Option<usize> {
        self.position.get(&op_key(op)).copied()
    }

    /// The last position inside `op`'s regions (its own for a plain op).
    pub fn end(&self, op: OperationRef) -> usize {
        self.end[&op_key(op)]
    }

    /// Whether `inner` is `outer` or nested in it.
    pub fn within(&self, inner: usize, outer: OperationRef) -> bool {
        let start = self.position(outer);
        inner >= start && inner <= self.end(outer)
    }

    /// The op defining `value` (its owner, or the op whose region's block
    /// takes it as an argument) and whether it is a block argument.
    pub fn definer(&self, value: Value<'c, 'a>) -> Option<(OperationRef<'c, 'a>, bool)> {
        if let Ok(result) = OperationResult::try_from(value) {
            return Some((result.owner(), false));
        }
        pto_dialects::ir::argument_owner(value)?
            .parent_operation()
            .map(|op| (op, true))
    }

    /// Where `value` becomes available: a region op's results at its end,
    /// block arguments at their op's start.
    pub fn def_point(&self, value: Value<'c, 'a>) -> usize {
        match self.definer(value) {
            Some((op, true)) => self.position(op),
            Some((op, false)) if op.region_count() > 0 => self.end(op),
            Some((op, false)) => self.position(op),
            None => 0,
        }
    }

    /// The users of `value`: (position, operand index).
    pub fn uses(&self, value: Value) -> &[(usize, usize)] {
        self.uses.get(&value_key(value)).map_or(&[], Vec::as_slice)
    }

    /// The loops (`scf.for`, `scf.while`) enclosing position `at`, innermost
    /// first.
    pub fn loops_around(&self, at: usize) -> Vec<OperationRef<'c, 'a>> {
        let mut loops = Vec::new();
        let mut current = self.ops[at].parent_operation();
        while let Some(op) = current {
            if op_name(op) == "func.func" {
                break;
            }
            if matches!(op_name(op), "scf.for" | "scf.while") {
                loops.push(op);
            }
            current = op.parent_operation();
        }
        loops
    }

    /// The live interval of `value`.
    pub fn interval(&self, value: Value<'c, 'a>) -> Interval {
        let def = self.def_point(value);
        let scope = self.definer(value);
        let mut end = def;
        for &(user, _) in self.uses(value) {
            let mut at = user;
            for looped in self.loops_around(user) {
                // A use in a loop the value was defined outside of: live to
                // the loop's end. (A block argument of the loop itself is
                // defined inside it.)
                let inside = match scope {
                    Some((op, true)) => {
                        op_key(op) == op_key(looped) || self.within(self.position(op), looped)
                    }
                    Some((op, false)) => {
                        self.within(self.position(op), looped) && op_key(op) != op_key(looped)
                    }
                    None => false,
                };
                if !inside {
                    at = at.max(self.end(looped));
                }
            }
            end = end.max(at);
        }
        Interval { def, end }
    }
}
