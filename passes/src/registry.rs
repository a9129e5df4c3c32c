//! The pass registry: every Rust pass and pipeline. Their registration in
//! MLIR's global pass registry and the C callbacks the pass adapter glue
//! calls are in [`crate::ffi`].
//!
//! A pass is a [`PassDefinition`]: plain data plus a `run` function over the
//! operation it is scheduled on. The glue (`cpp/PassAdapter.cpp`) wraps each
//! one in an `mlir::Pass` with real pass options.

use melior::{dialect::DialectHandle, ir::operation::OperationRef};

pub use crate::ffi::{create_pass, register_passes};
use crate::options::{OptionError, OptionSpec, OptionValues};
use crate::pl::parameter_aliases::ParameterAliases;

/// Why a pass run failed. The pass has already emitted its diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassFailed;

/// A pass: what the registry, `--help`, docs/passes and the runner need.
pub struct PassDefinition {
    /// The pipeline name, e.g. `pld-specialize-nranks`.
    pub argument: &'static str,
    /// The pass class name, e.g. `SpecializeNRanks`.
    pub class_name: &'static str,
    /// A one-line summary.
    pub summary: &'static str,
    /// What the pass does, with a before/after example (Markdown; the
    /// source of docs/passes/<argument>.md).
    pub description: &'static str,
    /// Option text for the documented invocation, e.g. `nranks=4`.
    pub example_options: &'static str,
    /// The op the pass is anchored on (`None`: any op).
    pub anchor: Option<&'static str>,
    /// The options.
    pub options: &'static [OptionSpec],
    /// Dialects whose ops the pass creates.
    pub dependent_dialects: fn() -> Vec<DialectHandle>,
    /// What the pass runs.
    pub run: Run,
}

/// What a pass runs.
pub enum Run {
    /// On the op the pass is scheduled on.
    Op(for<'c, 'a> fn(OperationRef<'c, 'a>, &OptionValues) -> Result<(), PassFailed>),
    /// Scheduled on a module (anchor `builtin.module`): on each of its
    /// functions, in parallel as a function pass, knowing which parameters
    /// of each kernel its callers may pass one tensor to. A function pass
    /// may not look at the other functions, the callers among them, and
    /// asking for each kernel's callers would walk the module once a kernel.
    Functions(
        for<'c, 'a> fn(
            OperationRef<'c, 'a>,
            &ParameterAliases,
            &OptionValues,
        ) -> Result<(), PassFailed>,
    ),
}

impl PassDefinition {
    /// Parses and checks option values given as `(name, text)` pairs.
    pub fn parse_options<'a>(
        &self,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<OptionValues, String> {
        let defaults = self.options.iter().map(|spec| (spec.name, spec.default));
        // Defaults first, then the given values override them.
        let given: Vec<(&str, &str)> = pairs.into_iter().collect();
        let mut merged: Vec<(&str, &str)> = defaults
            .filter(|(name, _)| !given.iter().any(|(given_name, _)| given_name == name))
            .collect();
        merged.extend(given);
        OptionValues::parse(self.argument, self.options, merged)
    }

    /// Parses and checks option text as written in a pipeline
    /// (`nranks=4 arch=a5`); see [`crate::options::parse_option_text`].
    pub fn parse_option_text(
        &self,
        text: &str,
    ) -> Result<Vec<(&'static str, String)>, OptionError> {
        crate::options::parse_option_text(self.argument, self.options, text)
    }
}

/// Every pass of the project, in pipeline order.
pub static PASSES: &[&PassDefinition] = &[
    &crate::pld::synthesize_allreduce_signals::PASS,
    &crate::pld::lower_composite_ops::PASS,
    &crate::pld::materialize_comm_domains::PASS,
    &crate::pld::lower_host_collectives::PASS,
    &crate::pld::materialize_dist_tensor_ctx::PASS,
    &crate::pld::insert_comm_fence::PASS,
    &crate::pld::specialize_nranks::PASS,
    &crate::pld::comm_stats::PASS,
    &crate::pl::inline_functions::PASS,
    &crate::pl::unroll_loops::PASS,
    &crate::pl::verify_constants::PASS,
    &crate::pl::outline_incore_scopes::PASS,
    &crate::pl::materialize_valid_shapes::PASS,
    &crate::pl::convert_tensor_to_tile::PASS,
    &crate::pl::derive_task_dependencies::PASS,
    &crate::pl::lower_math_ops::PASS,
    &crate::pl::flatten_tile_nd::PASS,
    &crate::pl::legalize_tile_cast::PASS,
    &crate::pl::tile_matmul_l0::PASS,
    &crate::pl::infer_memory_space::PASS,
    &crate::pl::lower_auto_vector_split::PASS,
    &crate::pl::expand_mixed_kernel::PASS,
    &crate::pl::inject_gm_pipe_buffer::PASS,
    &crate::pl::double_buffer::PASS,
    &crate::pl::plan_memory::PASS,
    &crate::pl::insert_sync::PASS,
    &crate::pl::verify_sync::PASS,
    &crate::pl::estimate_cycles::PASS,
    &crate::emitc::convert_pl_to_emitc::PASS,
    &crate::emitc::orchestration::PASS,
    &crate::emitc::program::PASS,
    &crate::emitc::signed_index::PASS,
    &crate::emitc::while_index::PASS,
];

/// A named pass pipeline, registered like upstream's
/// `PassPipelineRegistration`.
pub struct PipelineDefinition {
    /// The name in pass pipelines and on the command line.
    pub argument: &'static str,
    /// One line for `--help`.
    pub summary: &'static str,
    /// Markdown for docs/passes/<argument>.md.
    pub description: &'static str,
    /// The passes it expands to (module-level pipeline text).
    pub pipeline: &'static str,
}

/// Every pipeline of the project.
pub static PIPELINES: &[&PipelineDefinition] = &[
    &crate::pld::lower_distributed::PIPELINE,
    &crate::pl::a2a3_pipeline::PIPELINE,
];

/// Returns the pass with the given pipeline name.
pub fn find_pass(argument: &str) -> Option<&'static PassDefinition> {
    PASSES
        .iter()
        .copied()
        .find(|pass| pass.argument == argument)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_documented_invocation_parses() {
        for pass in PASSES {
            if let Err(error) = pass.parse_option_text(pass.example_options) {
                panic!(
                    "{}{{{}}}: {}",
                    pass.argument, pass.example_options, error.message
                );
            }
        }
    }
}

thread_local! {
    /// Set by a pass that left the IR as it found it (per thread: passes on
    /// functions run in parallel).
    static UNCHANGED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Says that the running pass leaves the IR as it found it: the pass
/// manager then keeps every analysis and does not verify the op again
/// (MLIR's `markAllAnalysesPreserved`). Only for a run that changed
/// nothing: a wrong claim would skip the verifier after a change.
pub fn left_unchanged() {
    UNCHANGED.with(|unchanged| unchanged.set(true));
}

/// Whether the pass just run said [`left_unchanged`]; clears the claim.
pub(crate) fn take_unchanged() -> bool {
    UNCHANGED.with(|unchanged| unchanged.replace(false))
}
