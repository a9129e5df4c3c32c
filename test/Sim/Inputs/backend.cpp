// Which instructions a host program was built on, what it set in the
// environment for them, and (`deadlock`) two ranks of which one waits for a
// signal nobody sends.
#include "pto/sim/comm.hpp"

using Cell = pto::GlobalTensor<int32_t, pto::Shape<1, 1, 1, 1, 1>, pto::Stride<1, 1, 1, 1, 1>, pto::Layout::ND>;

static void wait_for_nothing(int32_t *signal) {
  Cell cell(signal);
  pto::comm::TWAIT(cell, 1, pto::comm::WaitCmp::GE);
}
static void idle(int32_t *) {}

int main(int argc, char **argv) {
  bool deadlock = argc > 1 && std::string(argv[1]) == "deadlock";
  pto::sim::Args args = pto::sim::parse_args(argc - deadlock, argv + deadlock);
  const char *spins = std::getenv("PTO_CPU_SIM_TWAIT_MAX_SPINS");
  std::printf("backend: %s\n", pto::sim::backend_name());
  std::printf("PTO_CPU_SIM_TWAIT_MAX_SPINS=%s\n", spins ? spins : "(unset)");
  if (deadlock) {
    pto::sim::CommDomain *domain = pto::sim::domain(args, "d");
    pto::sim::Window<int32_t> signal = pto::sim::window<int32_t>(pto::sim::window_buffer(domain, 4, "signal"), 1, 1);
    pto::sim::launch(domain, 0, wait_for_nothing, signal);
    pto::sim::launch(domain, 1, idle, signal);
    std::fflush(stdout);
    pto::sim::join(domain);
    std::printf("joined\n");
  }
  return pto::sim::exit_code(args);
}
