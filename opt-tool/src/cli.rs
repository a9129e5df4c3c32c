//! pto-opt's command line: the flags mlir-opt users expect, spelled with one
//! or two dashes, plus one flag per registered pass.

use clap::{ArgAction, CommandFactory, Parser};

/// The statically declared flags. Pass flags (`--<pass>[=options]`) and
/// MLIR's other `--mlir-*` options are recognised by [`split_arguments`].
#[derive(Debug, Parser)]
#[command(
    name = "pto-opt",
    about = "MLIR modular optimizer driver with the pl and pld dialects",
    disable_version_flag = true,
    after_help = "Every registered pass is also a flag: --<pass>[=\"opt=value ...\"], run in \
                  command-line order. --list-passes lists the passes and their options.\n\
                  Flags may be written with one dash or two (-split-input-file)."
)]
pub struct Cli {
    /// Input file, or '-' for standard input (text or bytecode).
    #[arg(default_value = "-")]
    pub input: String,

    /// Output file ('-' for standard output); written only on success.
    #[arg(short = 'o', value_name = "FILE", default_value = "-")]
    pub output: String,

    /// A textual pass pipeline, e.g. 'builtin.module(func.func(cse))'.
    #[arg(long = "pass-pipeline", value_name = "PIPELINE")]
    pub pass_pipeline: Option<String>,

    /// Split the input at a marker line and process each chunk on its own.
    #[arg(long = "split-input-file", value_name = "MARKER", num_args = 0..=1,
          require_equals = true, default_missing_value = "// -----")]
    pub split_input_file: Option<String>,

    /// The marker that joins the outputs of split chunks.
    #[arg(
        long = "output-split-marker",
        value_name = "MARKER",
        default_value = "// -----"
    )]
    pub output_split_marker: String,

    /// Check diagnostics against expected-* comments in the input.
    #[arg(long = "verify-diagnostics", value_name = "LEVEL", num_args = 0..=1,
          require_equals = true, default_missing_value = "all",
          value_parser = ["all", "only-expected"])]
    pub verify_diagnostics: Option<String>,

    /// Run the verifier after each pass.
    #[arg(long = "verify-each", value_name = "BOOL", num_args = 0..=1, require_equals = true,
          default_value = "true", default_missing_value = "true", action = ArgAction::Set)]
    pub verify_each: bool,

    /// Print the output, parse it again and check it round-trips.
    #[arg(long = "verify-roundtrip", num_args = 0..=1, require_equals = true,
          default_value = "false", default_missing_value = "true", action = ArgAction::Set)]
    pub verify_roundtrip: bool,

    /// Emit MLIR bytecode instead of text.
    #[arg(long = "emit-bytecode", num_args = 0..=1, require_equals = true,
          default_value = "false", default_missing_value = "true", action = ArgAction::Set)]
    pub emit_bytecode: bool,

    /// Accept operations of unregistered dialects.
    #[arg(long = "allow-unregistered-dialect", num_args = 0..=1, require_equals = true,
          default_value = "false", default_missing_value = "true", action = ArgAction::Set)]
    pub allow_unregistered_dialect: bool,

    /// Do not wrap the input in an implicit top-level module.
    #[arg(long = "no-implicit-module", num_args = 0..=1, require_equals = true,
          default_value = "false", default_missing_value = "true", action = ArgAction::Set)]
    pub no_implicit_module: bool,

    /// Print the registered dialects and exit.
    #[arg(long = "show-dialects")]
    pub show_dialects: bool,

    /// Print the registered passes and pipelines with their options and exit.
    #[arg(long = "list-passes")]
    pub list_passes: bool,

    /// Print the pass pipeline that will run, before running it.
    #[arg(long = "dump-pass-pipeline")]
    pub dump_pass_pipeline: bool,

    /// Print the IR before every pass.
    #[arg(long = "mlir-print-ir-before-all")]
    pub mlir_print_ir_before_all: bool,

    /// Print the IR after every pass.
    #[arg(long = "mlir-print-ir-after-all")]
    pub mlir_print_ir_after_all: bool,

    /// Print the IR after a pass that failed.
    #[arg(long = "mlir-print-ir-after-failure")]
    pub mlir_print_ir_after_failure: bool,

    /// Print the IR after a pass only when it changed the IR.
    #[arg(long = "mlir-print-ir-after-change")]
    pub mlir_print_ir_after_change: bool,

    /// Print the whole module when printing IR around passes.
    #[arg(long = "mlir-print-ir-module-scope")]
    pub mlir_print_ir_module_scope: bool,

    /// Report the time spent in each pass.
    #[arg(long = "mlir-timing")]
    pub mlir_timing: bool,

    /// Print operations in the generic form.
    #[arg(long = "mlir-print-op-generic")]
    pub mlir_print_op_generic: bool,

    /// Print source locations.
    #[arg(long = "mlir-print-debuginfo")]
    pub mlir_print_debuginfo: bool,

    /// Run passes on one thread.
    #[arg(long = "mlir-disable-threading")]
    pub mlir_disable_threading: bool,

    /// Print the version and exit.
    #[arg(long = "version")]
    pub version: bool,
}

/// A pass given as its own flag, in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassFlag {
    /// The pass (or pipeline) name.
    pub name: String,
    /// The text after `=`, e.g. `nranks=4` (empty for none).
    pub options: String,
}

/// The command line split into what clap parses, pass flags, and MLIR
/// options forwarded verbatim.
#[derive(Debug, Default)]
pub struct SplitArguments {
    /// Arguments for clap (program name first).
    pub declared: Vec<String>,
    /// `--<pass>[=options]` flags.
    pub passes: Vec<PassFlag>,
    /// Undeclared `--mlir-*` flags, forwarded to MLIR's option parser.
    pub mlir_options: Vec<String>,
}

/// Rewrites LLVM's one-dash long flags (`-split-input-file`) to two dashes.
fn normalize(argument: &str) -> String {
    let is_one_dash_long = argument.starts_with('-')
        && !argument.starts_with("--")
        && argument.len() > 2
        && !argument.starts_with("-o=")
        && argument.as_bytes()[1].is_ascii_alphabetic();
    if is_one_dash_long {
        format!("-{argument}")
    } else {
        argument.to_string()
    }
}

/// Splits `arguments` (without the program name). `is_pass` tells whether a
/// name is a registered pass; an undeclared flag that is neither a pass nor
/// an `--mlir-*` option is an error.
pub fn split_arguments(
    arguments: impl IntoIterator<Item = String>,
    is_pass: impl Fn(&str) -> bool,
) -> Result<SplitArguments, String> {
    let command = Cli::command();
    let declared_longs: Vec<String> = command
        .get_arguments()
        .filter_map(|arg| arg.get_long().map(str::to_string))
        .collect();
    let mut split = SplitArguments {
        declared: vec!["pto-opt".to_string()],
        ..Default::default()
    };
    let mut only_positionals = false;
    for raw in arguments {
        if only_positionals {
            split.declared.push(raw);
            continue;
        }
        if raw == "--" {
            only_positionals = true;
            split.declared.push(raw);
            continue;
        }
        let argument = normalize(&raw);
        let Some(flag) = argument.strip_prefix("--") else {
            split.declared.push(argument);
            continue;
        };
        let (name, value) = match flag.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (flag, None),
        };
        if name == "help" || declared_longs.iter().any(|long| long == name) {
            split.declared.push(argument);
        } else if is_pass(name) {
            split.passes.push(PassFlag {
                name: name.to_string(),
                options: value.unwrap_or("").to_string(),
            });
        } else if name.starts_with("mlir-") {
            split.mlir_options.push(argument);
        } else {
            return Err(format!(
                "unknown command line argument '{raw}'; see 'pto-opt --help'"
            ));
        }
    }
    Ok(split)
}

impl Cli {
    /// MLIR's global options this command line sets, as MLIR spells them.
    pub fn mlir_options(&self) -> Vec<String> {
        [
            (self.mlir_print_ir_before_all, "--mlir-print-ir-before-all"),
            (self.mlir_print_ir_after_all, "--mlir-print-ir-after-all"),
            (
                self.mlir_print_ir_after_failure,
                "--mlir-print-ir-after-failure",
            ),
            (
                self.mlir_print_ir_after_change,
                "--mlir-print-ir-after-change",
            ),
            (
                self.mlir_print_ir_module_scope,
                "--mlir-print-ir-module-scope",
            ),
            (self.mlir_timing, "--mlir-timing"),
            (self.mlir_print_op_generic, "--mlir-print-op-generic"),
            (self.mlir_print_debuginfo, "--mlir-print-debuginfo"),
            (self.mlir_disable_threading, "--mlir-disable-threading"),
        ]
        .into_iter()
        .filter(|(set, _)| *set)
        .map(|(_, flag)| flag.to_string())
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(args: &[&str]) -> Result<SplitArguments, String> {
        split_arguments(args.iter().map(|s| s.to_string()), |name| {
            name == "cse" || name == "pl-x"
        })
    }

    #[test]
    fn one_and_two_dash_spellings_are_the_same_flag() {
        let one = split(&["-split-input-file", "-verify-diagnostics", "in.mlir"]).unwrap();
        let two = split(&["--split-input-file", "--verify-diagnostics", "in.mlir"]).unwrap();
        assert_eq!(one.declared, two.declared);
        assert_eq!(one.declared[1], "--split-input-file");
    }

    #[test]
    fn pass_flags_keep_order_and_options() {
        let args = split(&["--cse", "-pl-x=a=1 b=2", "-o", "out.mlir"]).unwrap();
        assert_eq!(
            args.passes,
            vec![
                PassFlag {
                    name: "cse".into(),
                    options: "".into()
                },
                PassFlag {
                    name: "pl-x".into(),
                    options: "a=1 b=2".into()
                },
            ]
        );
        assert_eq!(args.declared, vec!["pto-opt", "-o", "out.mlir"]);
    }

    #[test]
    fn unknown_flags_are_errors_and_mlir_options_are_forwarded() {
        assert!(
            split(&["--no-such-pass"])
                .unwrap_err()
                .contains("'--no-such-pass'")
        );
        let args = split(&["--mlir-elide-elementsattrs-if-larger=4"]).unwrap();
        assert_eq!(
            args.mlir_options,
            vec!["--mlir-elide-elementsattrs-if-larger=4"]
        );
    }

    #[test]
    fn standard_input_and_short_flags_are_untouched() {
        let args = split(&["-", "-o", "-"]).unwrap();
        assert_eq!(args.declared, vec!["pto-opt", "-", "-o", "-"]);
    }
}
