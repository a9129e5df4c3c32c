#!/usr/bin/env bash
# Compiles one kernel of a pl program to C++ and runs it on the CPU
# simulation of the pto-isa API (sim/), against a golden:
#   scripts/simulate.sh PROGRAM.mlir KERNEL [RTOL ATOL]
# pto-translate lowers the program (pto-a2a3-pipeline) and writes the
# kernel's C++ and a host driver; pto-run executes the same lowered kernel
# on random inputs to give the golden; g++ builds the driver; the driver
# runs on pto-run's inputs and prints how its outputs compare.
set -euo pipefail
cd "$(dirname "$0")/.."
program=${1:?usage: scripts/simulate.sh PROGRAM.mlir KERNEL [RTOL ATOL]}
kernel=${2:?usage: scripts/simulate.sh PROGRAM.mlir KERNEL [RTOL ATOL]}
rtol=${3:-1e-3}
atol=${4:-1e-4}
out=target/simulate/$kernel
rm -rf "$out" && mkdir -p "$out"
target/debug/pto-translate --mlir-to-cce --target=a2a3sim "$program" -o "$out/cce"
echo "pto-translate: $(ls "$out/cce" | tr '\n' ' ')"
target/debug/pto-run "$program" --pass-pipeline='builtin.module(pto-a2a3-pipeline)' --entry "$kernel" \
  --random-inputs --seed 1 -o "$out/golden"
g++ -std=c++17 -O1 -Isim/include -I"$out/cce" "$out/cce/${kernel}_main.cpp" -o "$out/$kernel"
# The driver reads every input pto-run drew (file names are parameter names).
inputs=()
for parameter in $(grep -o 'pto::sim::input<[^>]*>([^,]*, "[^"]*"' "$out/cce/${kernel}_main.cpp" | sed 's/.*"\(.*\)"/\1/'); do
  inputs+=(--input "$parameter=$out/golden/$parameter.npy")
done
"$out/$kernel" "${inputs[@]}" --golden "$out/golden" --rtol "$rtol" --atol "$atol"
