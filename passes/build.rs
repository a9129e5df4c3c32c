//! Compiles the pass adapter glue (`cpp/PassAdapter.cpp`).

fn main() {
    pto_build_support::cxx_build()
        .file("cpp/PassAdapter.cpp")
        .compile("pto_passes_glue");
    println!("cargo:rerun-if-changed=cpp");
}
