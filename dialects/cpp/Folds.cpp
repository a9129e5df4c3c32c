//===- Folds.cpp - folders of pl ops --------------------------------------===//
//
// The folds canonicalize applies to pl ops: extents a type already knows,
// and ops that leave their operand as it is (a scalar identity, a move,
// view or reshape to the operand's own type); and its patterns: constant
// tile arithmetic (a tile-scalar op of a constant-filled tile is a filled
// tile). docs/canonicalization.md lists them.
//
// A tile op folds only before memory planning. Once planned, its result
// has a buffer of its own and the operand's buffer may be reused right
// after the op (docs/a2a3-lowering.md), so handing the operand to the
// result's users would read a buffer another tile has overwritten.
//
//===----------------------------------------------------------------------===//

#include "Dialects.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace pto::pl;

Operation *PLDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                          Type type, Location loc) {
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || !arith::ConstantOp::isBuildableWith(typed, type))
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, typed);
}

namespace {

/// The elementwise operation of a tile-scalar op.
enum class ScalarOperation { Add, Sub, Mul, Div };

/// Whether `scalar` (a constant, or null) leaves every element of type
/// `element` as it is: the identities arith folds (x + -0.0, x - 0.0,
/// x * 1, x / 1; 0 for integer sums and differences). A float x + 0.0 is
/// not x for x = -0.0, and an integer 0 added to floats is +0.0.
bool isIdentity(Attribute scalar, Type element, ScalarOperation operation) {
  if (operation == ScalarOperation::Add && isa<FloatType>(element) &&
      !isa_and_present<FloatAttr>(scalar))
    return false;
  if (auto value = dyn_cast_if_present<FloatAttr>(scalar)) {
    const APFloat &number = value.getValue();
    switch (operation) {
    case ScalarOperation::Add:
      return number.isNegZero();
    case ScalarOperation::Sub:
      return number.isPosZero();
    case ScalarOperation::Mul:
    case ScalarOperation::Div:
      return number.isExactlyValue(1.0);
    }
  }
  if (auto value = dyn_cast_if_present<IntegerAttr>(scalar)) {
    const APInt &number = value.getValue();
    switch (operation) {
    case ScalarOperation::Add:
    case ScalarOperation::Sub:
      return number.isZero();
    case ScalarOperation::Mul:
    case ScalarOperation::Div:
      return number.isOne();
    }
  }
  return false;
}

/// `source` in place of `op`'s result when they have one type and `op` is
/// not planned (see the file comment).
OpFoldResult foldToSource(Operation *op, Value source) {
  if (source.getType() != op->getResult(0).getType() || pto::isPlanned(op))
    return {};
  return source;
}

/// `source` in place of a tile-scalar op whose scalar is the operation's
/// identity. (Tensor-scalar ops make a tensor of their own in memory, which
/// later ops may write in place: they never fold to their operand.)
OpFoldResult foldScalarIdentity(Operation *op, Value source, Attribute scalar,
                                ScalarOperation operation) {
  Type element = cast<ShapedType>(source.getType()).getElementType();
  if (!isIdentity(scalar, element, operation))
    return {};
  return foldToSource(op, source);
}

/// Whether a tensor type is packed row-major and whole: no layout, strides,
/// valid shape or pad.
bool isPlain(pto::pl::TensorType type) {
  return !type.getLayout() && type.getStrides().empty() &&
         type.getValidShape().empty() && !type.getPad();
}

/// Whether `value` is, through views, a slice that `clamp` may narrow at
/// run time below its type's extents.
bool mayBeClamped(Value value) {
  while (Operation *op = value.getDefiningOp()) {
    if (auto slice = dyn_cast<TensorSliceOp>(op); slice && slice.getClamp())
      return true;
    auto view = dyn_cast<ViewLikeOpInterface>(op);
    if (!view)
      return false;
    value = view.getViewSource();
  }
  return false;
}

/// The element count of a static shape, or nullopt.
std::optional<int64_t> staticElementCount(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return std::nullopt;
  return shaped.getNumElements();
}

/// `left operation right` for two constants of one type, as arith's folds
/// compute it (IEEE, rounding to nearest even; integers wrap); null where
/// no single answer holds (an integer division).
TypedAttr computeScalar(Attribute left, Attribute right,
                        ScalarOperation operation) {
  auto a = dyn_cast_if_present<TypedAttr>(left);
  auto b = dyn_cast_if_present<TypedAttr>(right);
  if (!a || !b || a.getType() != b.getType())
    return {};
  if (auto x = dyn_cast<FloatAttr>(a)) {
    APFloat result = x.getValue();
    const APFloat &y = cast<FloatAttr>(b).getValue();
    constexpr auto rounding = APFloat::rmNearestTiesToEven;
    switch (operation) {
    case ScalarOperation::Add:
      result.add(y, rounding);
      break;
    case ScalarOperation::Sub:
      result.subtract(y, rounding);
      break;
    case ScalarOperation::Mul:
      result.multiply(y, rounding);
      break;
    case ScalarOperation::Div:
      result.divide(y, rounding);
      break;
    }
    return FloatAttr::get(a.getType(), result);
  }
  auto x = dyn_cast<IntegerAttr>(a);
  if (!x)
    return {};
  const APInt &y = cast<IntegerAttr>(b).getValue();
  switch (operation) {
  case ScalarOperation::Add:
    return IntegerAttr::get(a.getType(), x.getValue() + y);
  case ScalarOperation::Sub:
    return IntegerAttr::get(a.getType(), x.getValue() - y);
  case ScalarOperation::Mul:
    return IntegerAttr::get(a.getType(), x.getValue() * y);
  case ScalarOperation::Div:
    return {};
  }
  return {};
}

/// A tile-scalar op of a `pl.tile.full` whose value and scalar are
/// constants of the tile's element type is a `pl.tile.full` of the
/// computed constant (neither op planned: see the file comment).
template <typename ScalarOp, ScalarOperation operation>
struct FullOfConstants : OpRewritePattern<ScalarOp> {
  using OpRewritePattern<ScalarOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ScalarOp op,
                                PatternRewriter &rewriter) const override {
    auto full = op.getTile().template getDefiningOp<TileFullOp>();
    if (!full || full.getType() != op.getType() || pto::isPlanned(op) ||
        pto::isPlanned(full))
      return failure();
    Attribute value, scalar;
    if (!matchPattern(full.getValue(), m_Constant(&value)) ||
        !matchPattern(op.getScalar(), m_Constant(&scalar)))
      return failure();
    TypedAttr result = computeScalar(value, scalar, operation);
    if (!result ||
        result.getType() != cast<ShapedType>(op.getType()).getElementType())
      return failure();
    auto constant = arith::ConstantOp::create(rewriter, op.getLoc(), result);
    rewriter.replaceOpWithNewOp<TileFullOp>(op, op.getType(), constant);
    return success();
  }
};

} // namespace

#define PTO_SCALAR_CANONICALIZATION(Op, operation)                            \
  void Op::getCanonicalizationPatterns(RewritePatternSet &patterns,            \
                                       MLIRContext *context) {                 \
    patterns.add<FullOfConstants<Op, ScalarOperation::operation>>(context);    \
  }

PTO_SCALAR_CANONICALIZATION(TileAddsOp, Add)
PTO_SCALAR_CANONICALIZATION(TileSubsOp, Sub)
PTO_SCALAR_CANONICALIZATION(TileMulsOp, Mul)
PTO_SCALAR_CANONICALIZATION(TileDivsOp, Div)

#undef PTO_SCALAR_CANONICALIZATION

#define PTO_SCALAR_IDENTITY_FOLD(Op, operand, operation)                       \
  OpFoldResult Op::fold(FoldAdaptor adaptor) {                                 \
    return foldScalarIdentity(*this, get##operand(), adaptor.getScalar(),      \
                              ScalarOperation::operation);                     \
  }

PTO_SCALAR_IDENTITY_FOLD(TileAddsOp, Tile, Add)
PTO_SCALAR_IDENTITY_FOLD(TileSubsOp, Tile, Sub)
PTO_SCALAR_IDENTITY_FOLD(TileMulsOp, Tile, Mul)
PTO_SCALAR_IDENTITY_FOLD(TileDivsOp, Tile, Div)

#undef PTO_SCALAR_IDENTITY_FOLD

/// A move within one memory space to the source's own type copies the
/// tile: before planning that is the tile itself.
OpFoldResult TileMoveOp::fold(FoldAdaptor) {
  return foldToSource(*this, getSource());
}

OpFoldResult TileReshapeOp::fold(FoldAdaptor) {
  return foldToSource(*this, getSource());
}

OpFoldResult TensorViewOp::fold(FoldAdaptor) {
  return foldToSource(*this, getSource());
}

/// A reshape to the source's type is the source; a reshape of a reshape
/// reshapes the first source, when both ends are static (equal element
/// counts, as the verifier requires of one reshape) and the middle tensor
/// is plain (a layout, strides, valid shape or pad would change what the
/// second reshape reads).
OpFoldResult TensorReshapeOp::fold(FoldAdaptor) {
  if (OpFoldResult same = foldToSource(*this, getSource()))
    return same;
  auto inner = getSource().getDefiningOp<TensorReshapeOp>();
  if (!inner || !isPlain(cast<pto::pl::TensorType>(inner.getType())))
    return {};
  std::optional<int64_t> from = staticElementCount(inner.getSource().getType());
  std::optional<int64_t> to = staticElementCount(getType());
  if (!from || from != to)
    return {};
  if (inner.getSource().getType() == getType())
    return inner.getSource();
  getSourceMutable().assign(inner.getSource());
  return getResult();
}

/// A static extent is a constant (unless a clamped slice may narrow it);
/// a dynamic one of a tensor made here (`pl.tensor.create`,
/// `pl.tensor.full`) is the size it was made with.
OpFoldResult TensorDimOp::fold(FoldAdaptor) {
  auto type = cast<ShapedType>(getTensor().getType());
  int64_t rank = type.getRank();
  // I64Attr reads back unsigned: negative axes count from the end.
  int64_t axis = static_cast<int64_t>(getAxis());
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return {};
  if (!type.isDynamicDim(axis)) {
    // A clamped slice's extents are known when it runs.
    if (mayBeClamped(getTensor()))
      return {};
    return IntegerAttr::get(IndexType::get(getContext()),
                            type.getDimSize(axis));
  }
  std::optional<OperandRange> sizes;
  if (auto create = getTensor().getDefiningOp<TensorCreateOp>())
    sizes = create.getSizes();
  else if (auto full = getTensor().getDefiningOp<TensorFullOp>())
    sizes = full.getSizes();
  unsigned index = type.getDynamicDimIndex(axis);
  if (!sizes || index >= sizes->size())
    return {};
  return (*sizes)[index];
}
