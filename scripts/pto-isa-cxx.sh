#!/usr/bin/env bash
# Compiles pto-translate's C++ (kernels, host programs run_*.cpp) for the CPU:
#   scripts/pto-isa-cxx.sh [--backend=pto-isa|sim|auto] [--print-backend] [--] ARGS...
# ARGS go to the compiler as they are (sources, -I of the output directory,
# -o, -O1, -fsyntax-only, ...). The backend decides the rest:
#   pto-isa  the instructions of pto-isa's own CPU backend: clang++ (LLVM 22)
#            -std=c++20 -D__CPU_SIM with $PTO_ISA_ROOT/include ahead of the
#            project's sim/include (host programs, ranks, runtime);
#   sim      the project's instruction model in sim/ (with the pipe hazard
#            checker): g++ -std=c++17;
#   auto     pto-isa when $PTO_ISA_ROOT/include/pto/pto-inst.hpp exists and
#            clang++ 22 is installed, else sim (the default; the environment
#            variable PTO_SIM_BACKEND gives another default).
# PTO_ISA_ROOT is a pto-isa checkout, by default ../shared/third_party/pto-isa
# beside the repository; PTO_ISA_CXX and PTO_SIM_CXX name other compilers.
# Prints nothing of its own on success; --print-backend prints the backend
# chosen ("pto-isa PTO_ISA_ROOT=DIR" or "sim") on stdout, and with no ARGS
# compiles nothing.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
backend=${PTO_SIM_BACKEND:-auto}
print=false
while [ $# -gt 0 ]; do
  case "$1" in
    --backend=*) backend=${1#--backend=}; shift ;;
    --print-backend) print=true; shift ;;
    --) shift; break ;;
    *) break ;;
  esac
done

root=${PTO_ISA_ROOT:-$repo/../shared/third_party/pto-isa}
[ -d "$root" ] && root=$(cd "$root" && pwd)
clang=${PTO_ISA_CXX:-}
if [ -z "$clang" ]; then
  for candidate in clang++-22 /usr/lib/llvm-22/bin/clang++; do
    if command -v "$candidate" > /dev/null; then clang=$candidate; break; fi
  done
fi

case "$backend" in
  auto)
    if [ -f "$root/include/pto/pto-inst.hpp" ] && [ -n "$clang" ]; then backend=pto-isa; else backend=sim; fi ;;
  pto-isa)
    if [ ! -f "$root/include/pto/pto-inst.hpp" ]; then
      echo "pto-isa-cxx.sh: error: no pto-isa in PTO_ISA_ROOT=$root (no include/pto/pto-inst.hpp)" >&2
      exit 2
    fi
    if [ -z "$clang" ]; then
      echo "pto-isa-cxx.sh: error: pto-isa's CPU backend needs clang++ 22 (clang++-22; or set PTO_ISA_CXX)" >&2
      exit 2
    fi ;;
  sim) ;;
  *)
    echo "pto-isa-cxx.sh: error: unknown backend '$backend' (pto-isa, sim or auto)" >&2
    exit 2 ;;
esac

if $print; then
  if [ "$backend" = pto-isa ]; then echo "pto-isa PTO_ISA_ROOT=$root"; else echo sim; fi
  [ $# -eq 0 ] && exit 0
fi
if [ $# -eq 0 ]; then
  echo "usage: scripts/pto-isa-cxx.sh [--backend=pto-isa|sim|auto] [--print-backend] [--] COMPILER-ARGS..." >&2
  exit 2
fi

if [ "$backend" = pto-isa ]; then
  # pto-isa's pto-inst.hpp uses <cstdint>'s types without including it; its
  # own headers warn of unhandled enumerators and unvectorised loops.
  exec "$clang" -std=c++20 -D__CPU_SIM -include cstdint -pthread -Wno-switch -Wno-pass-failed \
    -I"$root/include" -I"$repo/sim/include" -I"$repo/sim/include/runtime" "$@"
else
  exec "${PTO_SIM_CXX:-g++}" -std=c++17 -pthread \
    -I"$repo/sim/include" -I"$repo/sim/include/runtime" "$@"
fi
