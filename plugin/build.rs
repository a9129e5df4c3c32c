//! Gives libpto_mlir.so a SONAME, so that a program linked against the
//! build tree's library records `libpto_mlir.so` (found through its
//! RUNPATH), not the library's absolute path. scripts/install.sh sets the
//! versioned SONAME of an installed tree.

fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libpto_mlir.so");
}
