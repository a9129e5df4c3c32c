// Pipe orders the hazard checker must tell apart: each case runs a load on
// MTE2, a vector add on V that reads the loaded tile, and a store on MTE3,
// ordered (or not) by flags and barriers. The checker is on (--hazards).
#include "pto/sim/host.hpp"

using namespace pto;
using Vec = Tile<TileType::Vec, float, 1, 64, BLayout::RowMajor, 1, 64, SLayout::NoneBox, 512, PadValue::Null>;
using Row = GlobalTensor<float, pto::Shape<1, 1, 1, 1, 64>, pto::Stride<64, 64, 64, 64, 1>, pto::Layout::ND>;

static float input[64], output[64];

static void run(const char *which) {
  Vec a, b;
  TASSIGN(a, 0);
  TASSIGN(b, 256);
  std::string c = which;
  TLOAD(a, Row(input));
  if (c == "flags" || c == "no-store-flag") {
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
  } else if (c == "barrier") {
    pipe_barrier(PIPE_ALL);
  } else if (c == "wrong-pipe-barrier") {
    pipe_barrier(PIPE_MTE2);
  }
  TADD(b, a, a);
  if (c == "flags" || c == "wrong-pipe-barrier" || c == "unsynchronised") {
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID1);
  } else if (c == "barrier") {
    pipe_barrier(PIPE_ALL);
  }
  TSTORE(Row(output), b);
  pipe_barrier(PIPE_ALL);
  // Reusing `a` for a load after the barrier is ordered.
  TLOAD(a, Row(input));
  pipe_barrier(PIPE_ALL);
}

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  pto::sim::Args args = pto::sim::parse_args(argc - 1, argv + 1);
  run(argv[1]);
  std::printf("%s: done\n", argv[1]);
  return pto::sim::exit_code(args);
}
