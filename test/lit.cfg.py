# The pto-mlir lit suite: run by scripts/test.sh with Debian's lit
# (/usr/lib/llvm-22/bin/lit). RUN lines use the tools by name, as upstream
# MLIR tests do: pto-opt, pto-translate, stock mlir-opt, FileCheck, not.

import os

import lit.formats

config.name = "pto-mlir"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "consumer"]
config.test_source_root = os.path.dirname(__file__)

repo_root = os.path.dirname(config.test_source_root)
profile = lit_config.params.get("profile", "debug")
tools_dir = os.path.join(repo_root, "target", profile)
llvm_bin = "/usr/lib/llvm-22/bin"
config.test_exec_root = os.path.join(tools_dir, "lit")

for tool in ["pto-opt", "pto-translate", "pto-run"]:
    if not os.path.exists(os.path.join(tools_dir, tool)):
        lit_config.fatal(f"{tool} is not built in {tools_dir}; run 'cargo build' first")

config.environment["PATH"] = os.pathsep.join(
    [tools_dir, llvm_bin, config.environment.get("PATH", "/usr/bin:/bin")]
)
# Colour codes and locale must not leak into FileCheck'd output.
config.environment["LC_ALL"] = "C"

# pto-isa's own headers (a checkout named by PTO_ISA_ROOT, or PTO_ISA as
# before, else the one beside the repository in ../shared/third_party/pto-isa):
# tests that compile the emitted kernels against the real API (its CPU build)
# or run the programs on its CPU backend need them and clang++. The tests see
# the checkout as PTO_ISA_ROOT (scripts/pto-isa-cxx.sh reads it), %pto_isa
# (its include directory) and %pto_isa_root.
pto_isa = (
    os.environ.get("PTO_ISA_ROOT")
    or os.environ.get("PTO_ISA")
    or os.path.join(os.path.dirname(repo_root), "shared", "third_party", "pto-isa")
)
if os.path.exists(
    os.path.join(pto_isa, "include", "pto", "pto-inst.hpp")
) and os.path.exists(os.path.join(llvm_bin, "clang++")):
    pto_isa = os.path.abspath(pto_isa)
    config.available_features.add("pto-isa")
    config.environment["PTO_ISA_ROOT"] = pto_isa
    config.substitutions.append(("%pto_isa_root", pto_isa))
    config.substitutions.append(("%pto_isa", os.path.join(pto_isa, "include")))

plugin = os.path.join(tools_dir, "libpto_mlir.so")
config.substitutions.append(("%plugin", plugin))
config.substitutions.append(("%repo", repo_root))
config.substitutions.append(("%tools_dir", tools_dir))
