//! melior's `operand(i)`, `result(i)` and `region(i)` print the whole op
//! into their out-of-range error, and printing a nested op builds the
//! printer state of the whole module, verifying it: a function pass that
//! probes an index this way reads functions other threads are rewriting
//! (pto-translate crashed about once in a few hundred runs of the tiled
//! matmul example). Sources probe with `pto_dialects::ops::Checked`
//! (`operand_opt`, `result_opt`, `region_opt`, `has_operand`) instead; this
//! test finds the printing forms.

use std::{fs, path::Path};

/// The probing forms: an accessor whose error is discarded.
const PROBES: [&str; 4] = [").ok()", ").is_ok()", ").is_err()", ").unwrap_or"];
const ACCESSORS: [&str; 3] = [".operand(", ".result(", ".region("];

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `text` with newlines and the spaces after them removed, so that a
/// chain split over lines reads as one.
fn joined(text: &str) -> String {
    text.lines().map(str::trim).collect::<Vec<_>>().join("")
}

#[test]
fn no_source_probes_an_index_with_a_printing_accessor() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for crate_dir in ["dialects/src", "passes/src", "translate/src", "run/src"] {
        sources(&root.join(crate_dir), &mut files);
    }
    let mut found = Vec::new();
    for file in files {
        let text = joined(&fs::read_to_string(&file).unwrap());
        for accessor in ACCESSORS {
            let mut at = 0;
            while let Some(start) = text[at..].find(accessor) {
                let begin = at + start;
                // The receiver must not be a function type (its accessors
                // print the type only).
                let before = &text[begin.saturating_sub(24)..begin];
                let rest = &text[begin + accessor.len()..];
                let close = rest.find(')').unwrap_or(0);
                let after = &rest[close..];
                let typed = before.ends_with("_type") || before.ends_with("type()");
                if !typed
                    && !rest[..close].contains('(')
                    && PROBES.iter().any(|p| after.starts_with(p))
                {
                    found.push(format!(
                        "{}: {}",
                        file.display(),
                        &text[begin..(begin + accessor.len() + close + 8).min(text.len())]
                    ));
                }
                at = begin + accessor.len();
            }
        }
    }
    assert!(
        found.is_empty(),
        "probe indices with pto_dialects::ops::Checked instead:\n{}",
        found.join("\n")
    );
}
