//! Compiles the pass adapter glue (`cpp/PassAdapter.cpp`).

fn main() {
    let mut build = pto_build_support::cxx_build();
    // Debug builds (the test suites' tools) check every pass's claim to
    // have left the IR unchanged.
    if std::env::var("PROFILE").as_deref() == Ok("debug") {
        build.define("PTO_CHECK_UNCHANGED_CLAIMS", None);
    }
    build.file("cpp/PassAdapter.cpp").compile("pto_passes_glue");
    println!("cargo:rerun-if-changed=cpp");
}
