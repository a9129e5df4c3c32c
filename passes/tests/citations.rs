//! The semantics documents pl.md and pld.md live outside the repository, so
//! nothing in it may cite their sections: code comments, emitted text (the
//! emitters' string literals are in the sources) and docs cite the
//! project's own docs (docs/, docs/passes/, docs/dialects/), and the docs
//! state in their own words what they rely on. This test walks every text
//! file of the repository and fails on such a citation: `pl.md` or
//! `pld.md` followed by a section sign (across a line break and comment
//! markers too), a bare section number (the project numbers no sections of
//! its own), or a path into the spec directory.

use std::{
    fs,
    path::{Path, PathBuf},
};

/// The section sign, spelled so that this file does not match itself.
const SECTION: char = '\u{a7}';

/// Files whose citations are pending (none).
const PENDING: &[&str] = &[];

/// Directories that hold no sources: build output, VCS data, lit output.
const SKIPPED_DIRS: &[&str] = &[".git", "target", "build", "__pycache__", "Output"];

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            if !SKIPPED_DIRS.contains(&name.as_ref()) {
                walk(&path, files);
            }
        } else if kind.is_file() {
            files.push(path);
        }
    }
}

/// The citations in `text`, as (line, excerpt).
fn citations(text: &str) -> Vec<(usize, String)> {
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    let excerpt = |at: usize| {
        let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        text[start..end].trim().to_string()
    };
    let mut found = Vec::new();
    // Section signs already reported with their document.
    let mut cited = Vec::new();
    for document in ["pl.md", "pld.md"] {
        for (at, _) in text.match_indices(document) {
            // What follows, past blanks, line breaks and comment markers.
            let after = &text[at + document.len()..];
            let rest =
                after.trim_start_matches(|c: char| c.is_whitespace() || "/#*!;-".contains(c));
            if rest.starts_with(SECTION) {
                found.push((line_of(at), excerpt(at)));
                cited.push(text.len() - rest.len());
            }
        }
        for prefix in ["spec/", "spec\\"] {
            let path = format!("{prefix}{document}");
            for (at, _) in text.match_indices(&path) {
                found.push((line_of(at), excerpt(at)));
            }
        }
    }
    for (at, _) in text.match_indices(SECTION) {
        let next = text[at + SECTION.len_utf8()..].chars().next();
        if next.is_some_and(|c| c.is_ascii_digit()) && !cited.contains(&at) {
            found.push((line_of(at), excerpt(at)));
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn nothing_cites_the_spec_sections() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    walk(&root, &mut files);
    assert!(
        files.len() > 100,
        "walked only {} files from {}",
        files.len(),
        root.display()
    );
    let mut offenders = Vec::new();
    for path in files {
        let relative = path.strip_prefix(&root).unwrap_or(&path);
        let relative = relative.to_string_lossy().replace('\\', "/");
        if PENDING.contains(&relative.as_str()) {
            continue;
        }
        // Binary files (not UTF-8) hold no citations to speak of.
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        for (line, excerpt) in citations(&text) {
            offenders.push(format!("{relative}:{line}: {excerpt}"));
        }
    }
    assert!(
        offenders.is_empty(),
        "cite the project's own docs (docs/...), not a section of the spec documents:\n{}",
        offenders.join("\n")
    );
}

#[test]
fn the_check_finds_citations() {
    let cite = |document: &str, between: &str| format!("x ({document}{between}{SECTION}1.5) y");
    assert_eq!(citations(&cite("pl.md", " ")).len(), 1);
    assert_eq!(citations(&cite("pld.md", " ")).len(), 1);
    assert_eq!(citations(&cite("pld.md", "\n// ")).len(), 1);
    assert_eq!(
        citations(&format!("the rule of {SECTION}3.4 step 2")).len(),
        1
    );
    assert_eq!(
        citations(&format!("see ../shared/{}/pld.md", "spec")).len(),
        1
    );
    assert!(citations("docs/dialects/pl.md and docs/pld-guide.md").is_empty());
    assert!(citations(&format!("a lone {SECTION} sign")).is_empty());
}
