#!/usr/bin/env bash
# Benchmark (not a test): pto-a2a3-pipeline on a generated module of 1,000
# vector kernels of ~100 tile ops each, against stock mlir-opt-22 parsing,
# verifying and printing the same module (with the plugin for pl). Prints
# wall time and peak memory of both and their ratio. Release build.
set -euo pipefail
cd "$(dirname "$0")/.."
KERNELS=${KERNELS:-1000}
cargo build --release -p pto-opt -p pto-plugin -p pto-translate >/dev/null 2>&1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 - "$KERNELS" > "$out/module.mlir" <<'PY'
import sys
kernels = int(sys.argv[1])
V = "!pl.tile<16x64xf32, vec>"
T = "!pl.tensor<64x64xf32>"
for k in range(kernels):
    print(f"func.func @k{k}(%x: {T}, %out: {T} {{pl.direction = #pl.direction<out>}}) -> {T} attributes {{pl.kind = #pl.kind<aiv>}} {{")
    print("  %c0 = arith.constant 0 : index\n  %c16 = arith.constant 16 : index\n  %c64 = arith.constant 64 : index")
    print(f"  %r = scf.for %i = %c0 to %c64 step %c16 iter_args(%o = %out) -> ({T}) {{")
    print(f"    %a = pl.tile.load %x[%i, %c0] : {T} -> {V}")
    print(f"    %b = pl.tile.load %x[%c0, %c0] : {T} -> {V}")
    prev, other = "%a", "%b"
    for j in range(94):
        op = ["add", "mul", "maximum", "exp", "abs", "neg"][(j + k) % 6]
        if op in ("exp", "abs", "neg"):
            print(f"    %t{j} = pl.tile.{op} {prev} : {V}")
        else:
            print(f"    %t{j} = pl.tile.{op} {prev}, {other} : {V}, {V} -> {V}")
        other, prev = prev, f"%t{j}"
    print(f"    %s = pl.tile.store {prev}, %o[%i, %c0] : {V}, {T}")
    print(f"    scf.yield %s : {T}")
    print("  }")
    print(f"  return %r : {T}")
    print("}")
PY
ops=$(grep -c "pl.tile" "$out/module.mlir")
measure() { # label, command...
  local label=$1; shift
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "%e %M" -o "$out/t" "$@" >/dev/null
    read -r seconds kib < "$out/t"
  else
    local start=$(date +%s.%N); "$@" >/dev/null; seconds=$(echo "$(date +%s.%N) - $start" | bc); kib=0
  fi
  echo "$label: $seconds s, peak $((kib / 1024)) MiB"
  eval "${label//[^a-z]/_}_s=$seconds"
}
echo "module: $KERNELS kernels, $ops tile ops, $(du -h "$out/module.mlir" | cut -f1)"
measure "mlir-opt parse+verify+print" /usr/lib/llvm-22/bin/mlir-opt --load-dialect-plugin=target/release/libpto_mlir.so "$out/module.mlir" -o "$out/printed.mlir"
measure "pto-opt pto-a2a3-pipeline" target/release/pto-opt "$out/module.mlir" --pto-a2a3-pipeline -o "$out/lowered.mlir"
measure "pto-opt pto-a2a3-pipeline + pl-verify-sync" target/release/pto-opt "$out/module.mlir" --pass-pipeline='builtin.module(pto-a2a3-pipeline, pl-verify-sync)' -o /dev/null
echo "sync ops inserted: $(grep -c 'pl.system' "$out/lowered.mlir")"
measure "pto-translate --mlir-to-cce of the lowered module" target/release/pto-translate --mlir-to-cce "$out/lowered.mlir" -o "$out/cce"
echo "per kernel: $(echo "scale=2; $pto_translate___mlir_to_cce_of_the_lowered_module_s * 1000 / $KERNELS" | bc) ms ($(ls "$out/cce" | grep -c '\.cpp$') C++ files)"
