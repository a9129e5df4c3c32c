//! `pl.system.syncall`: the blocks of a launch that starts them together
//! (`sync_start`) run on threads of their own, and a barrier holds each
//! until all have reached it. A block that ends (or fails) while others
//! wait is a deadlock on the device, reported here instead of hanging.

use std::sync::{Arc, Condvar, Mutex};

use super::Interp;
use crate::error::{Result, RunError};
use crate::value::Value;

/// The most blocks pto-run runs at once for a launch with a barrier.
pub const MAX_CONCURRENT_BLOCKS: i64 = 256;

/// Where the blocks of one launch stand.
#[derive(Default)]
struct State {
    /// Blocks waiting at the barrier now.
    arrived: i64,
    /// Barriers completed.
    generation: u64,
    /// A block that ended, failed or left: no barrier completes any more.
    gone: Option<String>,
}

/// A barrier across the `blocks` blocks of a launch.
pub struct BlockBarrier {
    blocks: i64,
    state: Mutex<State>,
    released: Condvar,
}

impl BlockBarrier {
    fn new(blocks: i64) -> Self {
        Self {
            blocks,
            state: Mutex::new(State::default()),
            released: Condvar::new(),
        }
    }

    /// Block `block` reaches the barrier: returns once every block has,
    /// or an error once one never will.
    pub fn wait(&self, block: i64) -> Result<()> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(gone) = &state.gone {
            return Err(deadlock(block, gone));
        }
        state.arrived += 1;
        if state.arrived == self.blocks {
            state.arrived = 0;
            state.generation += 1;
            self.released.notify_all();
            return Ok(());
        }
        let generation = state.generation;
        while state.generation == generation {
            if let Some(gone) = &state.gone {
                return Err(deadlock(block, gone));
            }
            state = self.released.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        Ok(())
    }

    /// Block `block` is done (`failed` if by an error): a barrier no
    /// longer completes.
    fn leave(&self, block: i64, failed: bool) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if state.gone.is_none() {
            state.gone = Some(format!(
                "block {block} {}",
                if failed { "failed" } else { "ended" }
            ));
        }
        self.released.notify_all();
    }
}

/// What every deadlock report says.
const NEVER_COMPLETES: &str = "never completes";

fn deadlock(block: i64, gone: &str) -> RunError {
    RunError::new(format!(
        "block {block} waits at a pl.system.syncall that {NEVER_COMPLETES}: {gone} without reaching it (the launch deadlocks on the device)"
    ))
}

impl<'w> Interp<'w> {
    /// Runs function `callee` on every block of a launch of `blocks`, each
    /// on a thread of its own with a barrier they share; the results are
    /// the last block's, as in a launch run block after block.
    pub(super) fn call_blocks_together(
        &mut self,
        callee: usize,
        args: &[Value],
        blocks: i64,
    ) -> Result<Vec<Value>> {
        if blocks > MAX_CONCURRENT_BLOCKS {
            return Err(RunError::new(format!(
                "a launch of {blocks} blocks with a pl.system.syncall: pto-run runs at most {MAX_CONCURRENT_BLOCKS} blocks at once"
            )));
        }
        let barrier = Arc::new(BlockBarrier::new(blocks));
        let outcomes: Vec<(Result<Vec<Value>>, Vec<super::comm::Deferred>)> =
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..blocks)
                    .map(|b| {
                        let mut block = self.fork((b, blocks), Some(barrier.clone()), None);
                        let args = args.to_vec();
                        let barrier = barrier.clone();
                        scope.spawn(move || {
                            let result = block.call(callee, args);
                            barrier.leave(b, result.is_err());
                            (result, std::mem::take(&mut block.deferred))
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| {
                        h.join().unwrap_or_else(|_| {
                            (Err(RunError::new("a block's thread panicked")), Vec::new())
                        })
                    })
                    .collect()
            });
        // A block's own failure explains the others' deadlocks: it is the
        // error reported.
        let mut results = Ok(Vec::new());
        let mut errors = Vec::new();
        for (result, deferred) in outcomes {
            self.deferred.extend(deferred);
            match result {
                Ok(values) => results = Ok(values),
                Err(error) => errors.push(error),
            }
        }
        let own = errors
            .iter()
            .position(|e| !e.to_string().contains(NEVER_COMPLETES));
        match own.or((!errors.is_empty()).then_some(0)) {
            Some(index) => Err(errors.swap_remove(index)),
            None => results,
        }
    }
}
