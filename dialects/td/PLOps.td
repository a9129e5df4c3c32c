//===- PLOps.td - pl operations ----------------------------*- tablegen -*-===//

#ifndef PTO_PL_OPS_TD
#define PTO_PL_OPS_TD

include "PLTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def PL_TileMoveOp : PL_Op<"tile.move", [Pure]> {
  let summary = "Copy a tile between on-chip buffers";
  let description = [{
    Copies `source` into a new tile of the same shape in another on-chip
    memory space. The result must have a memory space; a source without
    one (not yet inferred) is accepted. On a2a3 the legal single-core pairs
    are `mat -> left`, `mat -> right`, `mat -> bias`, `acc -> mat` and
    `vec -> vec`; `vec -> mat` and `acc -> vec` cross between the vector
    and the cube core and are legal until mixed-kernel expansion turns them
    into pushes and pops. A move into `bias` takes i32 to i32 or f32/f16 to
    f32; every other move keeps the element type. Example:

    ```mlir
    %a = pl.tile.move %m : !pl.tile<64x64xf16, mat> -> !pl.tile<64x64xf16, left>
    ```
  }];
  let arguments = (ins PL_AnyTile:$source);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = "$source attr-dict `:` qualified(type($source)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

def PL_TileAddOp : PL_Op<"tile.add", [Pure]> {
  let summary = "Elementwise addition of two tiles";
  let description = [{
    Adds two tiles elementwise. Operands and result live in `vec` (or have
    no memory space yet). The result's element type is the promotion of the
    operands' (a float beats an integer, the wider type wins, at equal width
    signed beats unsigned) and its shape is the right-aligned broadcast of
    the operand shapes. Example:

    ```mlir
    %c = pl.tile.add %a, %b : !pl.tile<16x64xf32, vec>, !pl.tile<16x64xf32, vec> -> !pl.tile<16x64xf32, vec>
    ```
  }];
  let arguments = (ins PL_AnyTile:$lhs, PL_AnyTile:$rhs);
  let results = (outs PL_AnyTile:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` qualified(type($lhs)) `,` qualified(type($rhs))
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

#endif // PTO_PL_OPS_TD
