//! `pto-run`: executes a pl/pld program with P simulated ranks.

use std::{
    io::IsTerminal,
    path::{Path, PathBuf},
    process::ExitCode,
    sync::{Arc, atomic::AtomicU64},
    time::Duration,
};

use clap::Parser;
use melior::{
    Context, ir::operation::OperationLike, pass::PassManager, utility::parse_pass_pipeline,
};
use pto_run::{
    Program, RunError, Session,
    npy::{self, compare},
    progress,
    session::parse_file,
};

/// Executes a pl/pld program on the CPU: the host orchestrator (or the
/// named function) runs with P simulated ranks, one thread per device.
#[derive(Parser, Debug)]
#[command(name = "pto-run", version)]
struct Cli {
    /// The program (.mlir).
    input: PathBuf,

    /// The function to run (default: the only host orchestrator, else @main).
    #[arg(long)]
    entry: Option<String>,

    /// Devices (pld.system.world_size); default: what the program's comm
    /// domains fix (one past the highest device they list), else 1.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    ranks: Option<u32>,

    /// An input: NAME=FILE.npy, NAME the parameter's %name in the source or
    /// argN. A distributed tensor's file stacks the ranks: [P, ...].
    #[arg(long = "input", value_name = "NAME=FILE")]
    inputs: Vec<String>,

    /// Generate the inputs not given (floats uniform in [-1, 1); integer
    /// tensors zero).
    #[arg(long)]
    random_inputs: bool,

    /// Seed of --random-inputs.
    #[arg(long, default_value_t = 0)]
    seed: u64,

    /// Run this pass pipeline first (e.g. 'builtin.module(pld-lower-distributed)').
    #[arg(long = "pass-pipeline", value_name = "PIPELINE")]
    pass_pipeline: Option<String>,

    /// Write each output (tensor parameters by name, results as resultN,
    /// window buffers by name) as DIR/NAME.npy.
    #[arg(long = "output-dir", short = 'o', value_name = "DIR")]
    output_dir: Option<PathBuf>,

    /// Compare every output that has DIR/NAME.npy with it.
    #[arg(long, value_name = "DIR")]
    golden: Option<PathBuf>,

    /// Relative tolerance of --golden.
    #[arg(long, default_value_t = 1e-5)]
    rtol: f64,

    /// Absolute tolerance of --golden.
    #[arg(long, default_value_t = 1e-6)]
    atol: f64,

    /// Give up after this many seconds (deadlocks are detected sooner).
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,

    /// Show no progress line (by default one is drawn on standard error
    /// when it is a terminal and the run takes over half a second).
    #[arg(long, short = 'q', conflicts_with = "progress")]
    quiet: bool,

    /// Show progress even when standard error is not a terminal, and end
    /// with a summary line (ops executed, time, rate).
    #[arg(long)]
    progress: bool,

    /// The host memory the program's data may take: global memory and
    /// window buffers (every rank's copy) together, and each tile on its
    /// own; bytes, or with a K, M, G (KiB, MiB, GiB) suffix. Past it, the
    /// allocating op is an error.
    #[arg(long = "memory-limit", value_name = "BYTES", default_value = "1GiB", value_parser = parse_bytes)]
    memory_limit: usize,
}

/// `BYTES`, `BYTESK`/`KiB`, `M`/`MiB`, `G`/`GiB` (powers of 1024), at least 1.
fn parse_bytes(text: &str) -> Result<usize, String> {
    let lower = text.trim().to_ascii_lowercase();
    let digits_end = lower
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(lower.len());
    let (digits, unit) = lower.split_at(digits_end);
    let scale: usize = match unit.trim() {
        "" | "b" => 1,
        "k" | "kib" => 1 << 10,
        "m" | "mib" => 1 << 20,
        "g" | "gib" => 1 << 30,
        _ => {
            return Err(format!(
                "'{text}' is not a size (BYTES, or with a K, M or G suffix)"
            ));
        }
    };
    let count: usize = digits
        .parse()
        .map_err(|_| format!("'{text}' is not a size (BYTES, or with a K, M or G suffix)"))?;
    match count.checked_mul(scale) {
        Some(0) => Err("the memory limit must be at least 1 byte".to_string()),
        Some(bytes) => Ok(bytes),
        None => Err(format!("'{text}' is more bytes than 64 bits count")),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => {
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            // A usage error is a diagnostic and exit code 1, as every error.
            let rendered = error.render().to_string();
            eprintln!(
                "pto-run: error: {}",
                rendered.trim_start_matches("error: ").trim_end()
            );
            return ExitCode::FAILURE;
        }
    };
    match run(&cli) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            if !error.is_reported() {
                eprintln!("{error}");
            }
            ExitCode::FAILURE
        }
    }
}

/// Why no entry is chosen, at the second host orchestrator when there are
/// several, else at the start of the input.
fn no_entry(program: &Program) -> RunError {
    let hosts: Vec<&pto_run::program::Function> =
        program.functions.iter().filter(|f| f.is_host()).collect();
    if let [first, second, ..] = hosts.as_slice() {
        return RunError::at(
            &second.location,
            format!(
                "no entry: @{} and @{} are both host orchestrators; name one with --entry",
                first.name, second.name
            ),
        );
    }
    let error = RunError::new(
        "no entry: name one with --entry (there is no host orchestrator and no @main)",
    );
    match &program.location {
        Some(location) => error.located(location),
        None => error,
    }
}

fn context() -> Context {
    let context = pto_dialects::create_context();
    pto_dialects::diag::print_to_stderr(&context);
    context
}

fn run(cli: &Cli) -> Result<bool, RunError> {
    if !cli.input.exists() {
        return Err(RunError::new(format!(
            "cannot open {}",
            cli.input.display()
        )));
    }
    let context = context();
    let mut module = parse_file(&context, &cli.input)?;
    if let Some(pipeline) = &cli.pass_pipeline {
        pto_passes::register_passes();
        melior::utility::register_all_passes();
        let manager = PassManager::new(&context);
        parse_pass_pipeline(manager.as_operation_pass_manager(), pipeline).map_err(|error| {
            let reason = match error {
                melior::Error::ParsePassPipeline(reason) => reason,
                other => other.to_string(),
            };
            // MLIR locates pipeline syntax errors in the pipeline text.
            let reason = reason.trim_end();
            if reason.contains("error:") {
                eprintln!("{reason}");
                RunError::reported()
            } else {
                RunError::new(format!("invalid pass pipeline '{pipeline}': {reason}"))
            }
        })?;
        // Pass failures and verifier errors are diagnosed by MLIR.
        manager.run(&mut module).map_err(|_| RunError::reported())?;
        if !module.as_operation().verify() {
            return Err(RunError::reported());
        }
    }
    let program = Program::compile(&module)?;
    let entry = match &cli.entry {
        Some(entry) => entry.clone(),
        None => Session::default_entry(&program).ok_or_else(|| no_entry(&program))?,
    };
    let ranks = cli
        .ranks
        .map(|r| r as usize)
        .or_else(|| program.fixed_ranks())
        .unwrap_or(1);
    let mut session = Session::new(&program)
        .ranks(ranks)
        .timeout(Duration::from_secs_f64(cli.timeout.max(0.001)))
        .memory_limit(cli.memory_limit);
    if cli.random_inputs {
        session = session.seed(cli.seed);
    }
    for input in &cli.inputs {
        let (name, file) = input
            .split_once('=')
            .ok_or_else(|| RunError::new(format!("--input wants NAME=FILE, got '{input}'")))?;
        session = session.input(name, npy::read(Path::new(file))?);
    }
    let ops = Arc::new(AtomicU64::new(0));
    let session = session.op_counter(ops.clone());
    let shown = !cli.quiet && (cli.progress || std::io::stderr().is_terminal());
    let outcome = progress::with_progress(&entry, shown, ops, || session.run(&entry))?;
    if let Some(dir) = &cli.output_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| RunError::new(format!("{}: {e}", dir.display())))?;
        for (name, array) in outcome.outputs() {
            npy::write(&dir.join(format!("{name}.npy")), array)?;
        }
    }
    let mut ok = true;
    if let Some(dir) = &cli.golden {
        let mut compared = 0;
        for (name, array) in outcome.outputs() {
            let path = dir.join(format!("{name}.npy"));
            if !path.exists() {
                continue;
            }
            compared += 1;
            let golden = npy::read(&path)?;
            let comparison = compare(array, &golden, cli.rtol, cli.atol)
                .map_err(|e| RunError::new(format!("{name}: {}", e.message)))?;
            let verdict = if comparison.mismatches == 0 {
                "ok"
            } else {
                "MISMATCH"
            };
            println!(
                "{name}: {verdict}: {} of {} elements differ; max abs error {:.3e}, max rel error {:.3e}",
                comparison.mismatches, comparison.elements, comparison.max_abs, comparison.max_rel
            );
            if let Some((index, value, expected)) = comparison.first {
                println!("  first at flat index {index}: {value} vs golden {expected}");
                ok = false;
            }
        }
        if compared == 0 {
            return Err(RunError::new(format!(
                "no golden in {} matches an output",
                dir.display()
            )));
        }
    }
    Ok(ok)
}
