//! `pto-opt`: mlir-opt with the pl and pld dialects and passes.
//!
//! Main registers the dialects and every upstream and project pass and
//! pipeline, then hands the command line to MLIR: its own option parser
//! and opt driver (`MlirOptMain`) do the rest, so every mlir-opt flag works
//! in pto-opt and tests written for mlir-opt behave the same
//! (docs/pto-opt.md).

mod driver;
mod output;

use std::process::ExitCode;

use melior::dialect::DialectRegistry;

fn main() -> ExitCode {
    driver::register_all_passes();
    let registry = DialectRegistry::new();
    melior::utility::register_all_dialects(&registry);
    pto_dialects::register_dialects(&registry);
    ExitCode::from(driver::opt_main(std::env::args_os(), &registry))
}
