//! `unsafe` lives in one place (docs/building.md, "Where unsafe lives"):
//! the safe IR layer `pto_dialects::ir` for everything that touches IR
//! handles, and, in the crates with C++ glue of their own, the one module
//! that is their C boundary. This test walks every Rust file of the
//! workspace and fails on `unsafe` anywhere else, so a pass that reaches
//! for a raw handle gets a safe call added to the IR layer instead.

use std::{
    fs,
    path::{Path, PathBuf},
};

/// Where `unsafe` may appear (paths relative to the workspace root; a
/// trailing `/` admits a directory), and why.
const ALLOWED: &[(&str, &str)] = &[
    (
        "dialects/src/ir/",
        "the safe IR layer, the C API and the verifier hooks",
    ),
    ("passes/src/ffi.rs", "the pass adapter glue's C callbacks"),
    (
        "opt-tool/src/driver.rs",
        "the call into MlirOptMain's glue and its callbacks",
    ),
    ("translate/src/ffi.rs", "the EmitC emitter and parser glue"),
    (
        "plugin/src/lib.rs",
        "the plugin entry points mlir-opt looks up by name",
    ),
];

/// Directories that hold no sources of the workspace.
const SKIPPED_DIRS: &[&str] = &[".git", "target", "build", "Output", "third_party"];

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            if !SKIPPED_DIRS.contains(&name.as_str()) {
                rust_files(&path, files);
            }
        } else if name.ends_with(".rs") {
            files.push(path);
        }
    }
}

/// The lines of `text` that use `unsafe` in code: outside `//` comments
/// and string literals (a line's text before its comment, strings blanked).
fn unsafe_lines(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let mut code = String::new();
        let mut in_string = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if in_string => {
                    chars.next();
                }
                '"' => in_string = !in_string,
                '/' if !in_string && chars.peek() == Some(&'/') => break,
                _ if in_string => {}
                _ => code.push(c),
            }
        }
        let is_word = |at: usize| {
            let before = code[..at].chars().next_back();
            let after = code[at + "unsafe".len()..].chars().next();
            let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            !ident(before) && !ident(after)
        };
        if code.match_indices("unsafe").any(|(at, _)| is_word(at)) {
            found.push((number + 1, line.trim().to_string()));
        }
    }
    found
}

#[test]
fn unsafe_stays_in_the_ir_layer_and_the_ffi_modules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut files = Vec::new();
    rust_files(root, &mut files);
    assert!(
        files.len() > 50,
        "the walk found the sources ({})",
        files.len()
    );
    let this_file = Path::new(file!()).file_name().unwrap();
    let mut misplaced = Vec::new();
    let mut allowed_seen = vec![false; ALLOWED.len()];
    for file in &files {
        let relative = file
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if file.file_name() == Some(this_file) {
            continue;
        }
        let Ok(text) = fs::read_to_string(file) else {
            continue;
        };
        let lines = unsafe_lines(&text);
        if lines.is_empty() {
            continue;
        }
        match ALLOWED.iter().position(|(path, _)| {
            relative == *path || (path.ends_with('/') && relative.starts_with(path))
        }) {
            Some(index) => allowed_seen[index] = true,
            None => misplaced.extend(
                lines
                    .into_iter()
                    .map(|(line, text)| format!("{relative}:{line}: {text}")),
            ),
        }
    }
    assert!(
        misplaced.is_empty(),
        "unsafe outside the IR layer and the FFI modules (add a safe call to pto_dialects::ir):\n{}",
        misplaced.join("\n")
    );
    // An entry that no longer holds unsafe should go.
    for ((path, why), seen) in ALLOWED.iter().zip(allowed_seen) {
        assert!(seen, "{path} ({why}) holds no unsafe: drop it from ALLOWED");
    }
}

#[test]
fn the_scanner_sees_code_and_skips_comments_and_strings() {
    let text = "let a = 1; // unsafe in a comment\nlet s = \"unsafe\";\nlet b = unsafe { f() };\nfn unsafe_name() {}\n#[unsafe(no_mangle)]\n";
    let lines: Vec<usize> = unsafe_lines(text).into_iter().map(|(n, _)| n).collect();
    assert_eq!(lines, vec![3, 5]);
}
