//! pto-run: executable semantics for pl/pld programs on the CPU.
//!
//! A module is compiled out of MLIR ([`program`]) and run by one thread per
//! device plus the host ([`session`]): the host orchestrator dispatches to
//! device queues, kernels block in `wait` on real signal cells, and
//! collectives gather every rank of their domain. Deadlocks are reported
//! with what each rank waits for; out-of-bounds accesses and reads of
//! never-written tile elements are errors at the op's location.

pub mod error;
pub mod interp;
pub mod npy;
pub mod program;
pub mod progress;
pub mod session;
pub mod types;
pub mod value;
pub mod world;

pub use error::RunError;
pub use program::{Program, supports};
pub use session::{Array, Outcome, Session};
