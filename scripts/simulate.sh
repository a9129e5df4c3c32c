#!/usr/bin/env bash
# Compiles a pl program to C++ and runs one of its functions on the CPU
# simulation of the pto-isa API (sim/), against a golden:
#   scripts/simulate.sh PROGRAM.mlir FUNCTION [RTOL ATOL]
# FUNCTION is an orchestration (the program runs with all its kernels) or a
# kernel (run alone). pto-translate lowers the program (pto-a2a3-pipeline)
# and writes the C++ and a host driver; pto-run executes FUNCTION on random
# inputs for the golden — from the source as written when FUNCTION is in it,
# else (a kernel the pipeline outlined) after the pipeline; g++ builds the
# driver, which runs on pto-run's inputs (with the pipe hazard checker on)
# and prints how its outputs compare.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/simulate.sh PROGRAM.mlir FUNCTION [RTOL ATOL]"
program=${1:?$usage}
function=${2:?$usage}
rtol=${3:-1e-3}
atol=${4:-1e-4}
out=target/simulate/$function
rm -rf "$out" && mkdir -p "$out"
target/debug/pto-translate --mlir-to-cce --target=a2a3sim "$program" -o "$out/cce"
echo "pto-translate wrote: $(ls "$out/cce" | tr '\n' ' ')"
golden=(target/debug/pto-run "$program" --entry "$function" --random-inputs --seed 1 -o "$out/golden")
if ! grep -q "func.func @$function(" "$program"; then
  golden+=(--pass-pipeline='builtin.module(pto-a2a3-pipeline)')
fi
"${golden[@]}"
g++ -std=c++17 -O1 -Isim/include -I"$out/cce" "$out/cce/run_${function}.cpp" -o "$out/$function"
echo "g++ built $out/$function; running it on the simulator:"
# The driver reads every input pto-run drew (file names are parameter names).
inputs=()
for parameter in $(grep -o 'pto::sim::input<[^>]*>([^,]*, "[^"]*"' "$out/cce/run_${function}.cpp" | sed 's/.*"\(.*\)"/\1/'); do
  inputs+=(--input "$parameter=$out/golden/$parameter.npy")
done
"$out/$function" "${inputs[@]}" --hazards --golden "$out/golden" --rtol "$rtol" --atol "$atol"
