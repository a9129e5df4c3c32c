//! Compiles the bridges to MLIR's C++ emitter (`cpp/TranslateToCpp.cpp`) and
//! parser (`cpp/Parse.cpp`).

fn main() {
    pto_build_support::cxx_build()
        .file("cpp/TranslateToCpp.cpp")
        .file("cpp/Parse.cpp")
        .compile("pto_translate_glue");
    println!("cargo:rerun-if-changed=cpp");
}
