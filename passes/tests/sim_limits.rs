//! The simulator's arenas are the planner's table: sim/include/pto/sim/
//! a2a3.hpp must be what `target::a2a3::sim_header` renders, and the model
//! must size and align its arenas with it. PTO_BLESS=1 rewrites the header
//! (scripts/update-docs.sh does).

use std::{fs, path::PathBuf};

fn sim_include() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../sim/include/pto")
}

#[test]
fn the_sim_header_is_the_planners_table() {
    let path = sim_include().join("sim/a2a3.hpp");
    let expected = pto_passes::target::a2a3::sim_header();
    if std::env::var_os("PTO_BLESS").is_some() {
        fs::write(&path, &expected).unwrap();
    }
    assert_eq!(
        fs::read_to_string(&path).ok().as_deref(),
        Some(expected.as_str()),
        "{} is stale (run scripts/update-docs.sh)",
        path.display()
    );
}

#[test]
fn the_model_sizes_its_arenas_with_the_table() {
    let model = fs::read_to_string(sim_include().join("pto-inst.hpp")).unwrap();
    assert!(model.contains("#include \"pto/sim/a2a3.hpp\""));
    for name in ["Ub", "L1", "L0a", "L0b", "L0c", "Bias"] {
        for constant in [format!("k{name}Bytes"), format!("k{name}Alignment")] {
            assert!(
                model.contains(&constant),
                "pto-inst.hpp does not use {constant}"
            );
        }
    }
    // No capacity is restated as a number.
    assert!(!model.contains("* 1024]"), "an arena sized by a literal");
}
