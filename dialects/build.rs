//! Generates C++ from the ODS in `td/` with mlir-tblgen, compiles it with the
//! glue in `cpp/`, generates the Rust op table and enums from the same ODS,
//! and makes the shared MLIR C API library.

#[path = "build/op_table.rs"]
mod op_table;

use std::path::Path;

use pto_build_support as support;

/// (umbrella .td, file prefix of the generated .inc files, has attributes).
const DIALECTS: &[(&str, &str, bool)] = &[("PL", "PL", true), ("PLD", "PLD", false)];

fn main() {
    let td_dir = Path::new("td");
    let out = support::out_dir();

    for &(umbrella, prefix, has_attrs) in DIALECTS {
        let td = td_dir.join(format!("{umbrella}.td"));
        let mut generators = vec![
            ("dialect-decls", format!("{prefix}Dialect.h.inc")),
            ("dialect-defs", format!("{prefix}Dialect.cpp.inc")),
            ("typedef-decls", format!("{prefix}Types.h.inc")),
            ("typedef-defs", format!("{prefix}Types.cpp.inc")),
            ("enum-decls", format!("{prefix}Enums.h.inc")),
            ("enum-defs", format!("{prefix}Enums.cpp.inc")),
            ("op-decls", format!("{prefix}Ops.h.inc")),
            ("op-defs", format!("{prefix}Ops.cpp.inc")),
        ];
        if has_attrs {
            generators.push(("attrdef-decls", format!("{prefix}Attrs.h.inc")));
            generators.push(("attrdef-defs", format!("{prefix}Attrs.cpp.inc")));
        }
        for (generator, file) in generators {
            support::tblgen(&td, &[td_dir], generator, &out.join(file));
        }
    }

    // The Rust op table and enums (src/op_table.rs, src/enums.rs).
    let llvm_include = support::llvm_prefix().join("include");
    op_table::generate(
        &[&td_dir.join("PL.td"), &td_dir.join("PLD.td")],
        &[td_dir, &llvm_include],
        &out,
    );

    let mut glue = support::cxx_build();
    support::include_generated(&mut glue, &out);
    glue.include("cpp")
        .files([
            "cpp/Common.cpp",
            "cpp/PLDialect.cpp",
            "cpp/PLDDialect.cpp",
            "cpp/CAPI.cpp",
            "cpp/Folds.cpp",
            "cpp/Interfaces.cpp",
        ])
        .compile("pto_dialects_glue");

    support::ensure_shared_mlir_capi();
    println!("cargo:rustc-link-lib=dylib=MLIR");
    println!("cargo:rerun-if-changed=td");
    println!("cargo:rerun-if-changed=cpp");
    println!("cargo:rerun-if-changed=build");
}
