//===- backend.hpp - The pto-isa implementation a host program runs on ---===//
//
// A host program (host.hpp, comm.hpp, runtime.hpp) runs its kernels on
// whichever `pto/pto-inst.hpp` the include path finds first:
//
//  - the project's instruction model, sim/include/pto/pto-inst.hpp (g++ or
//    clang++, C++17): the instructions as docs/translate.md describes them,
//    with the pipe hazard checker (hazards.hpp);
//  - pto-isa's own CPU backend (`clang++ -std=c++20 -D__CPU_SIM
//    -I$PTO_ISA_ROOT/include -Isim/include`): the instruction semantics are
//    pto-isa's; the harness here adds what it lacks (ranks on threads with
//    their windows, the runtime's orchestration API, .npy I/O, goldens).
//
// scripts/pto-isa-cxx.sh names the flags of both. This header includes the
// instructions, says which ones they are (PTO_SIM_ON_PTO_ISA: 1 on pto-isa,
// 0 on the model), and gives the host side what it needs from either: an
// error exit, the hazard checker's switch (which only the model has: asking
// for it on pto-isa is an error), and the settings pto-isa's CPU backend
// reads from the environment.
//
//===----------------------------------------------------------------------===//

#ifndef PTO_SIM_BACKEND_HPP
#define PTO_SIM_BACKEND_HPP

// pto-isa's pto-inst.hpp uses the fixed-width types without including them.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "pto/pto-inst.hpp"

#if defined(PTO_SIM_PTO_INST_HPP)
#define PTO_SIM_ON_PTO_ISA 0
#elif defined(PTO_INST_HPP)
#define PTO_SIM_ON_PTO_ISA 1
#if !defined(__CPU_SIM)
#error "pto-isa's pto/pto-inst.hpp was found, but not for its CPU backend: compile with -D__CPU_SIM (scripts/pto-isa-cxx.sh sets it)"
#endif
#else
#error "pto/pto-inst.hpp is neither the project's instruction model (sim/include) nor pto-isa's"
#endif

#if !PTO_SIM_ON_PTO_ISA
#include "pto/sim/hazards.hpp"
#endif

namespace pto::sim {

[[noreturn]] inline void fail(const char *what) {
  std::fprintf(stderr, "pto sim: error: %s\n", what);
  std::abort();
}

/// What the instructions of this build are.
inline const char *backend_name() {
  return PTO_SIM_ON_PTO_ISA ? "pto-isa's CPU backend" : "the project's instruction model (sim/)";
}

/// What pto-isa's CPU backend reads from the environment, set before any
/// kernel runs; a value the user set is kept.
///  - PTO_CPU_SIM_TWAIT_MAX_SPINS=0: a TWAIT waits until its signal
///    arrives (by default it gives up after 100000 polls, about a second,
///    and the program goes on as if it had arrived);
///  - PTO_CPU_SIM_NUM_CORES=1: pto-isa's own get_block_num() is 1: a
///    simulated device is one core (the emitted kernels read their SPMD
///    identity from parameters, not from pto-isa's block registers).
inline bool configure_backend() {
#if PTO_SIM_ON_PTO_ISA
  setenv("PTO_CPU_SIM_TWAIT_MAX_SPINS", "0", 0);
  setenv("PTO_CPU_SIM_NUM_CORES", "1", 0);
#endif
  return true;
}
/// Done while the program starts, before main, so that no kernel, whatever
/// the host program calls first, runs with pto-isa's defaults.
inline const bool configured = configure_backend();

/// `--hazards`: turns on the pipe hazard checker. The checker follows the
/// model's instructions; pto-isa's do not report to it, so there a program
/// asked to check cannot, and stops.
inline void request_hazards() {
#if PTO_SIM_ON_PTO_ISA
  std::fprintf(stderr,
               "error: --hazards: the pipe hazard checker needs the project's instruction model "
               "(sim/include/pto/pto-inst.hpp); this program was built on pto-isa's CPU backend. Rebuild it "
               "with scripts/pto-isa-cxx.sh --backend=sim to check its pipes\n");
  std::exit(1);
#else
  hazards::enabled() = true;
#endif
}

/// PTO_SIM_HAZARDS set in the environment of a pto-isa build: a note, once
/// (the program still runs; its pipes are not checked).
inline void note_unchecked_hazards() {
#if PTO_SIM_ON_PTO_ISA
  const char *value = std::getenv("PTO_SIM_HAZARDS");
  if (value && *value && std::strcmp(value, "0") != 0)
    std::fprintf(stderr,
                 "pto sim: note: PTO_SIM_HAZARDS is set, but the pipe hazard checker needs the project's "
                 "instruction model; this program runs on pto-isa's CPU backend and its pipes are not checked\n");
#endif
}

/// Unsynchronised accesses the checker found (none on pto-isa).
inline long hazards_found() {
#if PTO_SIM_ON_PTO_ISA
  return 0;
#else
  return hazards::found();
#endif
}

} // namespace pto::sim

#endif // PTO_SIM_BACKEND_HPP
