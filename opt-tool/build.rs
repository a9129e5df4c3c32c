//! Compiles the bridge to MLIR's opt driver (`cpp/OptMain.cpp`).

fn main() {
    pto_build_support::cxx_build()
        .file("cpp/OptMain.cpp")
        .compile("pto_opt_glue");
    println!("cargo:rerun-if-changed=cpp");
}
