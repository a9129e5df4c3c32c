//! `pto-opt`: mlir-opt with the pl and pld dialects and passes.
//!
//! The command line is parsed here (clap, with LLVM's one-dash spellings and
//! one flag per registered pass); parsing, passes and printing run in MLIR's
//! own opt driver, so tests written for mlir-opt behave the same.

mod cli;
mod driver;
mod output;

use std::{io::Read, process::ExitCode};

use clap::{CommandFactory, FromArgMatches, error::ErrorKind};

use cli::{Cli, split_arguments};
use driver::{OptRequest, VerifyDiagnostics};

/// Prints `pto-opt: error: <message>` and returns the failure exit code.
fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("pto-opt: error: {message}");
    ExitCode::FAILURE
}

fn read_input(input: &str) -> Result<(String, Vec<u8>), String> {
    if input == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|error| format!("cannot read standard input: {error}"))?;
        Ok(("<stdin>".to_string(), bytes))
    } else {
        let bytes = std::fs::read(input)
            .map_err(|error| format!("cannot open input file '{input}': {error}"))?;
        Ok((input.to_string(), bytes))
    }
}

fn main() -> ExitCode {
    let arguments = split_arguments(std::env::args().skip(1), driver::is_registered_pass);
    let arguments = match arguments {
        Ok(arguments) => arguments,
        Err(message) => return fail(message),
    };
    let matches = match Cli::command().try_get_matches_from(&arguments.declared) {
        Ok(matches) => matches,
        Err(error)
            if matches!(
                error.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) =>
        {
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            let rendered = error.render().to_string();
            let message = rendered.trim_start_matches("error: ").trim_end();
            return fail(message);
        }
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => return fail(error.to_string().trim_end()),
    };

    if cli.version {
        println!(
            "pto-opt {} (LLVM/MLIR {})",
            env!("CARGO_PKG_VERSION"),
            driver::llvm_version()
        );
        return ExitCode::SUCCESS;
    }
    if cli.pass_pipeline.is_some() && !arguments.passes.is_empty() {
        return fail("'--pass-pipeline' cannot be combined with individual pass flags");
    }

    let (input_name, input) = if cli.show_dialects || cli.list_passes {
        ("<none>".to_string(), Vec::new())
    } else {
        match read_input(&cli.input) {
            Ok(read) => read,
            Err(message) => return fail(message),
        }
    };
    // Text MLIR's parser would crash on is reported before it parses.
    if let Some(message) = std::str::from_utf8(&input)
        .ok()
        .and_then(|text| pto_dialects::source::unparsable(&input_name, text))
    {
        eprintln!("{message}");
        return ExitCode::FAILURE;
    }

    let mut mlir_options = cli.mlir_options();
    mlir_options.extend(arguments.mlir_options.iter().cloned());
    let request = OptRequest {
        input_name: &input_name,
        input: &input,
        pass_pipeline: cli.pass_pipeline.as_deref(),
        pass_flags: &arguments.passes,
        split_input_marker: cli.split_input_file.as_deref(),
        output_split_marker: &cli.output_split_marker,
        verify_diagnostics: match cli.verify_diagnostics.as_deref() {
            None => VerifyDiagnostics::None,
            Some("only-expected") => VerifyDiagnostics::OnlyExpected,
            Some(_) => VerifyDiagnostics::All,
        },
        emit_bytecode: cli.emit_bytecode,
        allow_unregistered_dialects: cli.allow_unregistered_dialect,
        show_dialects: cli.show_dialects,
        list_passes: cli.list_passes,
        verify_each_pass: cli.verify_each,
        verify_roundtrip: cli.verify_roundtrip,
        no_implicit_module: cli.no_implicit_module,
        dump_pass_pipeline: cli.dump_pass_pipeline,
        mlir_options: &mlir_options,
    };
    let Some(output) = driver::run(&request) else {
        return ExitCode::FAILURE;
    };
    match output::write_output(&cli.output, &output) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail(format!(
            "cannot write output file '{}': {error}",
            cli.output
        )),
    }
}
