// pto-isa's TRANDOM on its CPU backend for the tiles of Inputs/random.mlir:
// prints each tile's name, then its valid elements' bits, one row per line.
#include <cstdint>
#include <cstdio>

#include "pto/pto-inst.hpp"

using namespace pto;

template <typename T, int Rows, int Cols, int ValidRows, int ValidCols, uint16_t Rounds>
void draw(const char *name, uint32_t k0, uint32_t k1, uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3) {
  using Data = Tile<TileType::Vec, T, Rows, Cols, BLayout::RowMajor, ValidRows, ValidCols, SLayout::NoneBox, 512,
                    PadValue::Null>;
  Data tile;
  TASSIGN(tile, 0);
  TRandomKey key = {k0, k1};
  TRandomCounter counter = {c0, c1, c2, c3};
  TRANDOM<Rounds>(tile, key, counter);
  std::printf("%s\n", name);
  for (int r = 0; r < ValidRows; ++r) {
    for (int c = 0; c < ValidCols; ++c)
      std::printf("%s%u", c ? " " : "", uint32_t(tile.data()[r * Cols + c]));
    std::printf("\n");
  }
}

int main() {
  draw<uint32_t, 4, 256, 4, 256, 10>("result0", 4660, 22136, 1, 2, 3, 4);
  draw<int32_t, 3, 40, 3, 33, 7>("result1", 7, uint32_t(-9), uint32_t(-16), uint32_t(-1), 5, 0);
  draw<uint32_t, 2, 520, 2, 520, 10>("result2", uint32_t(-1), uint32_t(-1), uint32_t(-256), 0, 0, 0);
  return 0;
}
