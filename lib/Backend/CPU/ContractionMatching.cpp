//===- ContractionMatching.cpp - Which ops and bodies the kernels take
//------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Matching for amp-vectorize-contractions: element types a kernel moves
// as vectors, scalar elementwise bodies, widened bf16 product sums and the
// inputs of their AVX512-BF16 pair layouts.
//
//===----------------------------------------------------------------------===//

#include "ContractionKernels.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

/// Element types a kernel loads and stores as vectors (a vector of i1 is
/// packed bits, a memref of i1 one byte per element).
bool amp::isVectorMemoryType(Type type) {
  return isa<FloatType>(type) || (isa<IntegerType>(type) && !type.isInteger(1));
}

bool amp::isScalarElementwiseBody(Block &body) {
  auto scalar = [](Type type) { return isa<FloatType, IntegerType>(type); };
  for (Operation &op : body.without_terminator()) {
    if (!isa<arith::ConstantOp>(op) &&
        (!op.hasTrait<OpTrait::Elementwise>() || !isPure(&op) ||
         op.getNumRegions() != 0))
      return false;
    if (!llvm::all_of(op.getOperandTypes(), scalar) ||
        !llvm::all_of(op.getResultTypes(), scalar))
      return false;
  }
  return body.getTerminator()->getNumOperands() == 1;
}

bool amp::isWidenedProductSum(Block &body, Type low) {
  if (body.getNumArguments() != 3 || !body.getArgument(2).getType().isF32() ||
      body.getArgument(0).getType() != low ||
      body.getArgument(1).getType() != low)
    return false;
  auto yield = body.getTerminator();
  auto add = yield->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || add->getBlock() != &body ||
      std::distance(body.begin(), body.end()) != 5)
    return false;
  Value acc = body.getArgument(2);
  Value product = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  if ((add.getLhs() == acc) == (add.getRhs() == acc))
    return false;
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  auto widened = [&](Value value, BlockArgument arg) {
    auto ext = value.getDefiningOp<arith::ExtFOp>();
    return ext && ext.getIn() == arg;
  };
  BlockArgument a = body.getArgument(0), b = body.getArgument(1);
  return (widened(mul.getLhs(), a) && widened(mul.getRhs(), b)) ||
         (widened(mul.getLhs(), b) && widened(mul.getRhs(), a));
}

namespace {
/// The loop dimensions of a widened bf16 product sum with two inputs: `n`,
/// its output's innermost index, and `k`, its last reduction dimension.
struct ProductSumDims {
  AffineExpr n, k;
  unsigned nDim, kDim;
};
} // namespace

static std::optional<ProductSumDims> getProductSumDims(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !amp::isWidenedProductSum(*op.getBlock(),
                                BFloat16Type::get(op.getContext())))
    return std::nullopt;
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (outMap.getNumResults() == 0 || !outMap.isProjectedPermutation())
    return std::nullopt;
  unsigned n = cast<AffineDimExpr>(outMap.getResults().back()).getPosition();
  std::optional<unsigned> k;
  for (auto [dim, iterator] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iterator == utils::IteratorType::reduction)
      k = dim;
  if (!k)
    return std::nullopt;
  MLIRContext *ctx = op.getContext();
  return ProductSumDims{getAffineDimExpr(n, ctx), getAffineDimExpr(*k, ctx), n,
                        *k};
}

/// Whether `map` indexes `k` only as its innermost index and not `n`: the
/// input whose pair (k, k + 1) is broadcast.
static bool isContiguousPairMap(AffineMap map, const ProductSumDims &dims) {
  ArrayRef<AffineExpr> results = map.getResults();
  return !results.empty() && results.back() == dims.k &&
         !map.isFunctionOfDim(dims.nDim) &&
         llvm::none_of(results.drop_back(), [&](AffineExpr index) {
           return index.isFunctionOfDim(dims.kDim);
         });
}

std::optional<unsigned> amp::getBF16PairInput(linalg::LinalgOp op) {
  std::optional<ProductSumDims> dims = getProductSumDims(op);
  if (!dims)
    return std::nullopt;
  AffineExpr kExpr = dims->k, nExpr = dims->n;
  for (unsigned pairs = 0; pairs < 2; ++pairs) {
    AffineMap pairMap = op.getMatchingIndexingMap(op.getDpsInputOperand(pairs));
    AffineMap other =
        op.getMatchingIndexingMap(op.getDpsInputOperand(1 - pairs));
    ArrayRef<AffineExpr> results = pairMap.getResults();
    if (results.size() < 3 ||
        results.take_back(3) !=
            ArrayRef<AffineExpr>{kExpr.floorDiv(2), nExpr, kExpr % 2})
      continue;
    if (llvm::any_of(results.drop_back(3), [&](AffineExpr index) {
          return !isa<AffineDimExpr>(index) ||
                 index.isFunctionOfDim(dims->kDim) || index == nExpr;
        }))
      continue;
    if (!isContiguousPairMap(other, *dims))
      continue;
    return pairs;
  }
  return std::nullopt;
}

std::optional<unsigned> amp::getBF16InterleavedInput(linalg::LinalgOp op) {
  std::optional<ProductSumDims> dims = getProductSumDims(op);
  if (!dims)
    return std::nullopt;
  for (unsigned rows = 0; rows < 2; ++rows) {
    AffineMap rowMap = op.getMatchingIndexingMap(op.getDpsInputOperand(rows));
    AffineMap other =
        op.getMatchingIndexingMap(op.getDpsInputOperand(1 - rows));
    ArrayRef<AffineExpr> results = rowMap.getResults();
    if (results.size() < 2 || results.back() != dims->n ||
        llvm::count(results, dims->k) != 1)
      continue;
    if (llvm::any_of(results.drop_back(), [&](AffineExpr index) {
          return index.isFunctionOfDim(dims->nDim) ||
                 (index != dims->k && index.isFunctionOfDim(dims->kDim));
        }))
      continue;
    if (!isContiguousPairMap(other, *dims))
      continue;
    return rows;
  }
  return std::nullopt;
}
