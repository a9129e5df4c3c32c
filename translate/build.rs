//! Compiles the bridge to MLIR's C++ emitter (`cpp/TranslateToCpp.cpp`).

fn main() {
    pto_build_support::cxx_build()
        .file("cpp/TranslateToCpp.cpp")
        .compile("pto_translate_glue");
    println!("cargo:rerun-if-changed=cpp");
}
