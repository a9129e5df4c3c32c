//! `pto-translate`: translations out of MLIR, in the style of
//! `mlir-translate`. Only the command line exists today; the CCE C++
//! translation (`--mlir-to-cce`) arrives with the EmitC lowering, and until
//! then asking for it is an error, not an empty file.

use std::process::ExitCode;

use clap::Parser;

#[derive(Debug, Parser)]
#[command(name = "pto-translate", version, about = "Translate MLIR to C++ for Ascend a2a3")]
struct Cli {
    /// Input file, or '-' for standard input.
    #[arg(default_value = "-")]
    input: String,

    /// Output file, or a directory for multi-file output.
    #[arg(short = 'o', value_name = "PATH", default_value = "-")]
    output: String,

    /// Translate pl/pld IR to CCE C++ on the pto-isa tile API.
    #[arg(long = "mlir-to-cce")]
    mlir_to_cce: bool,

    /// The target: a2a3 (device) or a2a3sim (CPU simulation).
    #[arg(long = "target", value_parser = ["a2a3", "a2a3sim"], default_value = "a2a3")]
    target: String,
}

fn main() -> ExitCode {
    let arguments = std::env::args().map(|argument| {
        // LLVM tools accept one-dash long flags (-mlir-to-cce).
        if argument.starts_with('-') && !argument.starts_with("--") && argument.len() > 2 {
            format!("-{argument}")
        } else {
            argument
        }
    });
    let cli = match Cli::try_parse_from(arguments) {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => {
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            let rendered = error.render().to_string();
            eprintln!("pto-translate: error: {}", rendered.trim_start_matches("error: ").trim_end());
            return ExitCode::FAILURE;
        }
    };
    if !cli.mlir_to_cce {
        eprintln!("pto-translate: error: no translation requested (use --mlir-to-cce)");
        return ExitCode::FAILURE;
    }
    eprintln!(
        "pto-translate: error: --mlir-to-cce --target={} is not implemented yet (input '{}', output '{}')",
        cli.target, cli.input, cli.output
    );
    ExitCode::FAILURE
}
