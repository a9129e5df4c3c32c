//! docs/passes/<pass>.md must match what the registry renders. Run with
//! PTO_BLESS=1 to rewrite the pages (scripts/update-docs.sh does).

use std::{fs, path::PathBuf};

#[test]
fn pass_pages_are_up_to_date() {
    let docs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/passes");
    let bless = std::env::var_os("PTO_BLESS").is_some();
    let mut stale = Vec::new();
    for pass in pto_passes::PASSES {
        let path = docs.join(format!("{}.md", pass.argument));
        let expected = pto_passes::docs::render_pass_page(pass);
        if bless {
            fs::create_dir_all(&docs).unwrap();
            fs::write(&path, &expected).unwrap();
        } else if fs::read_to_string(&path).ok().as_deref() != Some(expected.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    for pipeline in pto_passes::PIPELINES {
        let path = docs.join(format!("{}.md", pipeline.argument));
        let expected = pto_passes::docs::render_pipeline_page(pipeline);
        if bless {
            fs::write(&path, &expected).unwrap();
        } else if fs::read_to_string(&path).ok().as_deref() != Some(expected.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "stale pass docs (run scripts/update-docs.sh): {stale:?}"
    );
}

#[test]
fn every_pass_is_documented_and_registered_once() {
    let mut arguments: Vec<&str> = pto_passes::PASSES.iter().map(|p| p.argument).collect();
    arguments.sort();
    arguments.dedup();
    assert_eq!(
        arguments.len(),
        pto_passes::PASSES.len(),
        "duplicate pass names"
    );
    for pass in pto_passes::PASSES {
        assert!(
            !pass.summary.is_empty() && !pass.description.is_empty(),
            "{}",
            pass.argument
        );
        assert!(
            pass.description.contains("```mlir"),
            "{} needs a before/after example",
            pass.argument
        );
    }
}
