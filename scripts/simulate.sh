#!/usr/bin/env bash
# Compiles a pl program to C++ and runs one of its functions on the CPU,
# against a golden:
#   scripts/simulate.sh PROGRAM.mlir FUNCTION [RTOL ATOL]
# FUNCTION is an orchestration (the program runs with all its kernels) or a
# kernel (run alone). pto-translate lowers the program (pto-a2a3-pipeline)
# and writes the C++ and a host driver; pto-run executes FUNCTION on random
# inputs for the golden — from the source as written when FUNCTION is in it,
# else (a kernel the pipeline outlined) after the pipeline.
# scripts/pto-isa-cxx.sh builds the driver: on pto-isa's own CPU backend when
# it finds pto-isa (PTO_ISA_ROOT, else ../shared/third_party/pto-isa) and
# clang++ 22, else on the project's instruction model in sim/
# (PTO_SIM_BACKEND=sim or pto-isa decides instead). The driver runs on
# pto-run's inputs and prints how its outputs compare; the pipe hazard
# checker, which only the model has, runs on a model build as well.
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
# The driver reads every input pto-run drew (file names are parameter names).
inputs=()
for parameter in $(grep -o 'pto::sim::input<[^>]*>([^,]*, "[^"]*"' "$out/cce/run_${function}.cpp" | sed 's/.*"\(.*\)"/\1/'); do
  inputs+=(--input "$parameter=$out/golden/$parameter.npy")
done
compare=("${inputs[@]}" --golden "$out/golden" --rtol "$rtol" --atol "$atol")

choice=$(scripts/pto-isa-cxx.sh --print-backend)
read -r backend root <<< "$choice"
status=0
if [ "$backend" = pto-isa ]; then
  scripts/pto-isa-cxx.sh --backend=pto-isa -O1 -I"$out/cce" "$out/cce/run_${function}.cpp" -o "$out/$function"
  echo "built $out/$function on pto-isa's CPU backend (${root}); running it:"
  "$out/$function" "${compare[@]}" || status=$?
  model=$out/$function-model
  scripts/pto-isa-cxx.sh --backend=sim -O1 -I"$out/cce" "$out/cce/run_${function}.cpp" -o "$model"
  echo "built $model on the project's instruction model in sim/; running it with the pipe hazard checker:"
else
  model=$out/$function
  scripts/pto-isa-cxx.sh --backend=sim -O1 -I"$out/cce" "$out/cce/run_${function}.cpp" -o "$model"
  why="pto-isa not found"
  [ "${PTO_SIM_BACKEND:-auto}" = sim ] && why="PTO_SIM_BACKEND=sim"
  echo "built $model on the project's instruction model in sim/ ($why); running it with the pipe hazard checker:"
fi
"$model" --hazards "${compare[@]}" || status=$?
exit "$status"
