//! Build-script helpers shared by the workspace crates: where LLVM/MLIR 22
//! lives, running `mlir-tblgen`, compiling C++ glue against MLIR, and making
//! the shared MLIR C API library that Debian does not ship.

use std::{
    env, fs,
    path::{Path, PathBuf},
    process::Command,
};

/// Returns the LLVM/MLIR 22 prefix (`.cargo/config.toml` sets it).
pub fn llvm_prefix() -> PathBuf {
    PathBuf::from(env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into()))
}

/// Returns the path of a tool in the LLVM 22 `bin/` directory.
pub fn llvm_tool(name: &str) -> PathBuf {
    llvm_prefix().join("bin").join(name)
}

fn run(command: &mut Command) -> String {
    let output = command
        .output()
        .unwrap_or_else(|error| panic!("cannot run {command:?}: {error}"));
    if !output.status.success() {
        panic!(
            "{command:?} failed:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    String::from_utf8(output.stdout).expect("tool output is UTF-8")
}

/// Returns the `OUT_DIR` of the running build script.
pub fn out_dir() -> PathBuf {
    PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR is set for build scripts"))
}

/// Returns `target/<profile>`: the directory holding the final binaries.
///
/// `OUT_DIR` is `target/<profile>/build/<pkg>-<hash>/out`.
pub fn profile_dir() -> PathBuf {
    out_dir()
        .ancestors()
        .nth(3)
        .expect("OUT_DIR has the cargo layout")
        .to_path_buf()
}

/// Runs `mlir-tblgen -gen-<generator>` on `td` into `out`.
pub fn tblgen(td: &Path, include_dirs: &[&Path], generator: &str, out: &Path) {
    let mut command = Command::new(llvm_tool("mlir-tblgen"));
    command.arg(format!("-gen-{generator}"));
    command.arg("-I").arg(llvm_prefix().join("include"));
    for dir in include_dirs {
        command.arg("-I").arg(dir);
    }
    command.arg(td).arg("-o").arg(out);
    run(&mut command);
}

/// Returns a `cc::Build` for C++ glue compiled like LLVM 22 itself
/// (`llvm-config --cxxflags`: C++17, no exceptions, LLVM's defines).
pub fn cxx_build() -> cc::Build {
    let cxxflags = run(Command::new(llvm_tool("llvm-config")).arg("--cxxflags"));
    let mut build = cc::Build::new();
    // The glue is mostly mlir-tblgen output: built lightly optimised with
    // line tables only, whatever the cargo profile, it stays small and
    // links fast.
    // Warnings are on and are errors, as in LLVM's own build (-Wall -Wextra
    // without unused-parameter); MLIR's headers and the generated .inc files
    // are system headers, so only the glue itself is held to them.
    build
        .cpp(true)
        .warnings(true)
        .extra_warnings(true)
        .warnings_into_errors(true)
        .opt_level(1)
        .debug(false)
        .flag("-gline-tables-only");
    let llvm_include = format!("-I{}", llvm_prefix().join("include").display());
    for flag in cxxflags.split_whitespace() {
        // Optimisation and debug levels follow the cargo profile.
        if flag.starts_with("-O") || flag == "-g" || flag.starts_with("-fdiagnostics-color") {
            continue;
        }
        if flag == llvm_include {
            build.flag("-isystem").flag(&flag[2..]);
            continue;
        }
        build.flag(flag);
    }
    build.flag("-Wno-unused-parameter");
    build
}

/// Adds `dir` (generated `.inc` files) to `build`'s system include path.
pub fn include_generated(build: &mut cc::Build, dir: &Path) {
    build
        .flag("-isystem")
        .flag(dir.to_str().expect("UTF-8 path"));
}

/// Builds `target/<profile>/libMLIR-C.so` from Debian's `libMLIRCAPI*.a`
/// (Debian ships the MLIR C API only as static archives) and adds it to the
/// link search path. Linking MLIR shared everywhere is what lets the plugin
/// run inside stock `mlir-opt`: a private static MLIR copy would duplicate
/// MLIR's type ids.
pub fn ensure_shared_mlir_capi() {
    let lib_dir = llvm_prefix().join("lib");
    let mut archives: Vec<PathBuf> = fs::read_dir(&lib_dir)
        .expect("LLVM 22 lib directory exists")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.starts_with("libMLIRCAPI") && name.ends_with(".a")
        })
        .collect();
    archives.sort();
    assert!(
        !archives.is_empty(),
        "no libMLIRCAPI*.a in {}",
        lib_dir.display()
    );

    let target = profile_dir().join("libMLIR-C.so");
    let newest_archive = archives
        .iter()
        .filter_map(|a| fs::metadata(a).and_then(|m| m.modified()).ok())
        .max();
    let up_to_date = fs::metadata(&target)
        .and_then(|m| m.modified())
        .map(|built| newest_archive.is_none_or(|newest| built >= newest))
        .unwrap_or(false);
    if !up_to_date {
        // Written under a private name and renamed, so a concurrent build
        // never links a half-written library.
        let partial = out_dir().join("libMLIR-C.so.partial");
        let mut command = Command::new(env::var("CXX").unwrap_or_else(|_| "g++".into()));
        command
            .arg("-shared")
            .arg("-o")
            .arg(&partial)
            .arg("-Wl,--whole-archive")
            .args(&archives)
            .arg("-Wl,--no-whole-archive")
            .arg(format!("-L{}", lib_dir.display()))
            .args(["-lMLIR", "-lLLVM"])
            .arg(format!("-Wl,-rpath,{}", lib_dir.display()))
            .arg("-Wl,--no-undefined")
            .arg("-Wl,-soname,libMLIR-C.so");
        run(&mut command);
        fs::rename(&partial, &target).expect("move libMLIR-C.so into place");
    }
    println!("cargo:rustc-link-search=native={}", profile_dir().display());
    println!("cargo:rustc-link-search=native={}", lib_dir.display());
}
