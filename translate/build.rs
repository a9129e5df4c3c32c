//! Compiles the bridges to MLIR's C++ emitter (`cpp/TranslateToCpp.cpp`),
//! parser (`cpp/Parse.cpp`) and driver (`cpp/Tooling.cpp`: MLIR's options,
//! the diagnostic verifier, timing).

fn main() {
    pto_build_support::cxx_build()
        .file("cpp/TranslateToCpp.cpp")
        .file("cpp/Parse.cpp")
        .file("cpp/Tooling.cpp")
        .compile("pto_translate_glue");
    println!("cargo:rerun-if-changed=cpp");
}
