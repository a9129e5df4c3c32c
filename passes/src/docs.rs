//! Markdown reference pages for passes (docs/passes/<argument>.md), rendered
//! from the registry so the docs cannot drift from the code.

use std::fmt::Write;

use crate::{
    options::OptionKind,
    registry::{PassDefinition, PipelineDefinition},
};

fn kind_name(kind: OptionKind) -> String {
    match kind {
        OptionKind::Bool => "bool".to_string(),
        OptionKind::Int { min } => format!("integer >= {min}"),
        OptionKind::String => "string".to_string(),
        OptionKind::Enum(choices) => choices.join(" \\| "),
    }
}

/// Renders the reference page of one pass.
pub fn render_pass_page(pass: &PassDefinition) -> String {
    let mut page = String::new();
    let _ = writeln!(
        page,
        "<!-- Generated from the pass registry (passes/src); do not edit. -->\n"
    );
    let _ = writeln!(page, "# `{}`\n", pass.argument);
    let _ = writeln!(page, "_{}_\n", pass.summary);
    let _ = writeln!(page, "{}\n", pass.description.trim());
    let _ = writeln!(page, "## Invocation\n");
    let example_options = pass.example_options;
    let anchor = pass.anchor.unwrap_or("func.func");
    let options = if example_options.is_empty() {
        String::new()
    } else {
        format!("{{{example_options}}}")
    };
    let _ = writeln!(page, "```sh");
    let pipeline = if anchor == "builtin.module" {
        format!("builtin.module({}{options})", pass.argument)
    } else {
        format!("builtin.module({anchor}({}{options}))", pass.argument)
    };
    let _ = writeln!(page, "pto-opt --pass-pipeline='{pipeline}' input.mlir");
    let _ = writeln!(
        page,
        "pto-opt --{}{} input.mlir",
        pass.argument,
        if example_options.is_empty() {
            String::new()
        } else {
            format!("=\"{example_options}\"")
        }
    );
    let _ = writeln!(page, "```\n");
    let _ = writeln!(
        page,
        "Runs on: {}. Class: `{}`.\n",
        pass.anchor
            .map_or("any op".to_string(), |anchor| format!("`{anchor}`")),
        pass.class_name
    );
    if !pass.options.is_empty() {
        let _ = writeln!(page, "## Options\n");
        let _ = writeln!(page, "| option | type | default | description |");
        let _ = writeln!(page, "|---|---|---|---|");
        for option in pass.options {
            let _ = writeln!(
                page,
                "| `{}` | {} | `{}` | {} |",
                option.name,
                kind_name(option.kind),
                option.default,
                option.description
            );
        }
    }
    page
}

/// Renders the reference page of one pipeline.
pub fn render_pipeline_page(pipeline: &PipelineDefinition) -> String {
    let mut page = String::new();
    let _ = writeln!(
        page,
        "<!-- Generated from the pass registry (passes/src); do not edit. -->\n"
    );
    let _ = writeln!(page, "# `{}` (pipeline)\n", pipeline.argument);
    let _ = writeln!(page, "_{}_\n", pipeline.summary);
    let _ = writeln!(page, "{}\n", pipeline.description.trim());
    let _ = writeln!(page, "Expands to: `{}`.", pipeline.pipeline);
    page
}
