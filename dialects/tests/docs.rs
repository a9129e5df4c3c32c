//! docs/dialects/<dialect>.md must match what mlir-tblgen generates from the
//! ODS. Run with PTO_BLESS=1 to rewrite them (scripts/update-docs.sh does).

use std::{fs, path::PathBuf, process::Command};

fn generate(dialect: &str, umbrella: &str) -> String {
    let prefix = option_env!("MLIR_SYS_220_PREFIX").unwrap_or("/usr/lib/llvm-22");
    let td_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("td");
    let output = Command::new(format!("{prefix}/bin/mlir-tblgen"))
        .arg("-gen-dialect-doc")
        .arg(format!("-dialect={dialect}"))
        .arg("-I")
        .arg(format!("{prefix}/include"))
        .arg("-I")
        .arg(&td_dir)
        .arg(td_dir.join(umbrella))
        .output()
        .expect("mlir-tblgen runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn dialect_docs_are_up_to_date() {
    let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/dialects");
    let bless = std::env::var_os("PTO_BLESS").is_some();
    let mut stale = Vec::new();
    for (dialect, umbrella) in [("pl", "PL.td"), ("pld", "PLD.td")] {
        let expected = generate(dialect, umbrella);
        let path = docs.join(format!("{dialect}.md"));
        if bless {
            fs::create_dir_all(&docs).unwrap();
            fs::write(&path, &expected).unwrap();
        } else if fs::read_to_string(&path).ok().as_deref() != Some(expected.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale dialect docs (run scripts/update-docs.sh): {stale:?}"
    );
}

#[test]
fn every_op_has_a_description_and_an_example() {
    for (dialect, umbrella) in [("pl", "PL.td"), ("pld", "PLD.td")] {
        let doc = generate(dialect, umbrella);
        for section in doc.split("\n### `").skip(1) {
            let name = section.split('`').next().unwrap();
            assert!(
                section.contains("```mlir"),
                "{name} has no example in its description"
            );
        }
    }
}
