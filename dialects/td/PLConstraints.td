//===- PLConstraints.td - element-type constraints of pl ---*- tablegen -*-===//
//
// The element types an op takes, as ODS type constraints: the generated op
// reference (docs/dialects/pl.md) shows them in the operand tables and ODS
// reports a violation before the Rust verifier runs. Only pl's own rules
// are here; what the a2a3 instructions take (`ptoA2A3ElementTypes`,
// docs/translate.md) is checked by the emitter. Rules that relate
// operands (one type, promotion, shapes) stay in the Rust verifier
// (dialects/src/verify/).
//
//===----------------------------------------------------------------------===//

#ifndef PTO_PL_CONSTRAINTS_TD
#define PTO_PL_CONSTRAINTS_TD

include "PLTypes.td"

// The element types pl has (docs/pl-guide.md, "Element types"), by
// category, as `pto_dialects::dtype::Dtype` classifies them.
def PL_Integer : AnyTypeOf<[I1, I<4>, I8, I16, I32, I64, UI<4>, UI8, UI16,
                            UI32, UI64, Index],
    "integer (i1, i4, i8, i16, i32, i64, ui4, ui8, ui16, ui32, ui64 or index)">;
def PL_Float : AnyTypeOf<[F16, BF16, F32, F8E4M3FN, F8E5M2, F8E8M0FNU,
                          F4E2M1FN, PL_HiFloat8Type, PL_HiFloat4Type],
    "float (f16, bf16, f32, f8E4M3FN, f8E5M2, f8E8M0FNU, f4E2M1FN, !pl.hf8 or !pl.hf4)">;

// An integer scalar operand (an `index` scalar is cast first).
def PL_IntegerScalar : AnyTypeOf<[I1, I<4>, I8, I16, I32, I64, UI<4>, UI8,
                                  UI16, UI32, UI64],
    "integer scalar (i1, i4, i8, i16, i32, i64, ui4, ui8, ui16, ui32 or ui64)">;

// A pl tile or tensor whose element type is one of `allowed`, as
// upstream's `TensorOf<[F32]>`: "pl tile of 16-bit float or 32-bit float
// values".
class PL_TileOf<list<Type> allowed>
    : Type<And<[CPred<"::llvm::isa<::pto::pl::TileType>($_self)">,
                Concat<"[](::mlir::Type elementType) { return ",
                       SubstLeaves<"$_self", "elementType",
                                   AnyTypeOf<allowed>.predicate>,
                       "; }(::llvm::cast<::pto::pl::TileType>($_self).getElementType())">]>,
           "pl tile of " # AnyTypeOf<allowed>.summary # " values",
           "::pto::pl::TileType"> {
  list<Type> allowedTypes = allowed;
}

class PL_TensorOf<list<Type> allowed>
    : Type<And<[CPred<"::llvm::isa<::pto::pl::TensorType>($_self)">,
                Concat<"[](::mlir::Type elementType) { return ",
                       SubstLeaves<"$_self", "elementType",
                                   AnyTypeOf<allowed>.predicate>,
                       "; }(::llvm::cast<::pto::pl::TensorType>($_self).getElementType())">]>,
           "pl tensor of " # AnyTypeOf<allowed>.summary # " values",
           "::pto::pl::TensorType"> {
  list<Type> allowedTypes = allowed;
}

// The tile, tensor or scalar constraint of an op whose element types are
// `allowed`: any when the list is empty.
class PL_TileWith<list<Type> allowed> {
  Type type = !if(!empty(allowed), PL_AnyTile, PL_TileOf<allowed>);
}
class PL_TensorWith<list<Type> allowed> {
  Type type = !if(!empty(allowed), PL_AnyTensor, PL_TensorOf<allowed>);
}
class PL_ScalarWith<list<Type> allowed> {
  Type type = !if(!empty(allowed), PL_Scalar, AnyTypeOf<allowed>);
}

#endif // PTO_PL_CONSTRAINTS_TD
