// Launches cross-core-deadlock.mlir's group: its vector core waits for a
// push that never comes, which the launch reports as a deadlock.
#include "pto/sim/groups.hpp"
#include "kernels.cpp"

#include <vector>

int main() {
  std::vector<float> x(16 * 32);
  std::vector<int8_t> slots(4096);
  pto::sim::launch_group<1, 2>("stuck", stuck_aic, stuck_aiv, x.data(), slots.data(), x.data(), slots.data());
  std::printf("the launch returned\n");
  return 0;
}
