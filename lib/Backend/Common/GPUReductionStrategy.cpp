//===- GPUReductionStrategy.cpp - Row reductions across a workgroup -------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/Common/GPUReductionStrategy.h"
#include "amp/Backend/Common/GPUContractionStrategy.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::amp;

int64_t GPURowReduction::rows() const {
  int64_t product = 1;
  for (int64_t size : ArrayRef<int64_t>(loopSizes).drop_back())
    product *= size;
  return product;
}

TypedAttr amp::getCombinerIdentity(Operation *combiner, FloatType type) {
  const llvm::fltSemantics &sem = type.getFloatSemantics();
  if (isa<arith::AddFOp>(combiner))
    return FloatAttr::get(type, APFloat::getZero(sem, /*Negative=*/true));
  if (isa<arith::MulFOp>(combiner))
    return FloatAttr::get(type, APFloat::getOne(sem));
  if (isa<arith::MaximumFOp, arith::MaxNumFOp>(combiner))
    return FloatAttr::get(type, APFloat::getInf(sem, /*Negative=*/true));
  if (isa<arith::MinimumFOp, arith::MinNumFOp>(combiner))
    return FloatAttr::get(type, APFloat::getInf(sem, /*Negative=*/false));
  return {};
}

LogicalResult amp::verifyRowKernelOptions(MLIRContext *context, StringRef pass,
                                          int64_t workgroupSize,
                                          int64_t subgroupSize,
                                          int64_t minRowSize) {
  auto bad = [&](StringRef option, int64_t value, StringRef want) {
    return emitError(UnknownLoc::get(context))
           << pass << ": " << option << " must be " << want << ", got "
           << value;
  };
  if (workgroupSize < 1 || workgroupSize > 1024 ||
      !llvm::isPowerOf2_64(workgroupSize))
    return bad("workgroup-size", workgroupSize,
               "a power of two from 1 to 1024");
  if (subgroupSize < 0 ||
      (subgroupSize > 0 && !llvm::isPowerOf2_64(subgroupSize)))
    return bad("subgroup-size", subgroupSize, "0 or a power of two");
  if (minRowSize < 1)
    return bad("min-row-size", minRowSize, "at least 1");
  return success();
}

FailureOr<GPURowReduction> amp::matchGPURowReduction(Operation *op,
                                                     int64_t minRowSize) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
      linalgOp.getNumDpsInits() != 1 || linalgOp.getNumLoops() < 1 ||
      !linalgOp.hasOnlyProjectedPermutations())
    return failure();
  for (Value operand : op->getOperands())
    if (!isGPUKernelBuffer(operand.getType()))
      return failure();
  SmallVector<utils::IteratorType> iterators = linalgOp.getIteratorTypesArray();
  if (iterators.back() != utils::IteratorType::reduction ||
      llvm::count(iterators, utils::IteratorType::reduction) != 1)
    return failure();
  if (!hasPlainBody(linalgOp))
    return failure();
  Block &body = linalgOp->getRegion(0).front();
  Value yielded = body.getTerminator()->getOperand(0);
  Operation *combiner = yielded.getDefiningOp();
  BlockArgument acc = body.getArguments().back();
  auto type = dyn_cast<FloatType>(acc.getType());
  if (!combiner || !type || combiner->getNumOperands() != 2 ||
      combiner->getBlock() != &body || !getCombinerIdentity(combiner, type) ||
      !acc.hasOneUse() || combiner->getResult(0).getType() != type ||
      !combiner->hasOneUse())
    return failure();
  // The output is indexed by the row: one output per workgroup.
  unsigned rowRank = linalgOp.getNumLoops() - 1;
  AffineMap outMap =
      linalgOp.getMatchingIndexingMap(linalgOp.getDpsInitOperand(0));
  SmallVector<AffineExpr> rowDims;
  for (unsigned d = 0; d < rowRank; ++d)
    rowDims.push_back(getAffineDimExpr(d, op->getContext()));
  if (outMap != AffineMap::get(rowRank + 1, 0, rowDims, op->getContext()))
    return failure();
  unsigned accOperand = combiner->getOperand(0) == acc ? 0 : 1;
  if (combiner->getOperand(accOperand) != acc)
    return failure();
  GPURowReduction r;
  r.op = linalgOp;
  r.combiner = combiner;
  r.accOperand = accOperand;
  r.loopSizes = linalgOp.getStaticLoopRanges();
  if (r.rowSize() < minRowSize)
    return failure();
  return r;
}

/// Combines `value` across the `width` lanes of each subgroup with xor
/// shuffles: every lane gets the result.
static Value shuffleReduce(OpBuilder &b, Location loc, Value value,
                           int64_t width, int64_t subgroupSize,
                           function_ref<Value(Value, Value)> combine) {
  for (int64_t offset = width / 2; offset >= 1; offset /= 2) {
    auto shuffle = gpu::ShuffleOp::create(b, loc, value, offset, subgroupSize,
                                          gpu::ShuffleMode::XOR);
    value = combine(value, shuffle.getShuffleResult());
  }
  return value;
}

Value amp::combineAcrossWorkgroup(OpBuilder &b, Location loc, Value partial,
                                  Value tid, int64_t workgroupSize,
                                  int64_t subgroupSize,
                                  function_ref<Value(Value, Value)> combine) {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Type type = partial.getType();
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  Value zero = cst(0);
  // Shuffles need the subgroups' results to fit in one subgroup.
  if (subgroupSize > 1 && subgroupSize <= workgroupSize &&
      workgroupSize <= subgroupSize * subgroupSize) {
    // Across each subgroup with shuffles, then the subgroups' results
    // through workgroup memory, combined by every subgroup alike.
    partial =
        shuffleReduce(b, loc, partial, subgroupSize, subgroupSize, combine);
    int64_t subgroups = workgroupSize / subgroupSize;
    if (subgroups == 1)
      return partial;
    auto sharedType = MemRefType::get({subgroups}, type,
                                      MemRefLayoutAttrInterface(), workgroup);
    Value shared = memref::AllocOp::create(b, loc, sharedType);
    Value lane = arith::RemUIOp::create(b, loc, tid, cst(subgroupSize));
    Value id = arith::DivUIOp::create(b, loc, tid, cst(subgroupSize));
    Value first =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, zero);
    scf::IfOp::create(b, loc, first, [&](OpBuilder &, Location) {
      memref::StoreOp::create(b, loc, partial, shared, ValueRange{id});
      scf::YieldOp::create(b, loc);
    });
    gpu::BarrierOp::create(b, loc);
    // Lane l reads the result of subgroup l mod S: every aligned group of
    // S lanes holds all S results, so the butterfly over S lanes gives
    // every lane (every thread) the total.
    Value index = arith::RemUIOp::create(b, loc, lane, cst(subgroups));
    partial = memref::LoadOp::create(b, loc, shared, ValueRange{index});
    return shuffleReduce(b, loc, partial, subgroups, subgroupSize, combine);
  }
  // A tree through workgroup memory: log2(workgroupSize) steps, then every
  // thread reads the root.
  auto sharedType = MemRefType::get({workgroupSize}, type,
                                    MemRefLayoutAttrInterface(), workgroup);
  Value shared = memref::AllocOp::create(b, loc, sharedType);
  memref::StoreOp::create(b, loc, partial, shared, ValueRange{tid});
  gpu::BarrierOp::create(b, loc);
  for (int64_t half = workgroupSize / 2; half >= 1; half /= 2) {
    Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                                         cst(half));
    scf::IfOp::create(b, loc, active, [&](OpBuilder &, Location) {
      Value other = arith::AddIOp::create(b, loc, tid, cst(half));
      Value mine = memref::LoadOp::create(b, loc, shared, ValueRange{tid});
      Value theirs = memref::LoadOp::create(b, loc, shared, ValueRange{other});
      memref::StoreOp::create(b, loc, combine(mine, theirs), shared,
                              ValueRange{tid});
      scf::YieldOp::create(b, loc);
    });
    gpu::BarrierOp::create(b, loc);
  }
  return memref::LoadOp::create(b, loc, shared, ValueRange{zero});
}

RowLaunch amp::createRowLaunch(OpBuilder &b, Location loc,
                               ArrayRef<int64_t> rowDims, int64_t threads) {
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  int64_t rows = 1;
  for (int64_t size : rowDims)
    rows *= size;
  int64_t gridY = llvm::divideCeil(rows, 65535);
  int64_t gridX = llvm::divideCeil(rows, gridY);
  RowLaunch result;
  result.launch = gpu::LaunchOp::create(b, loc, cst(gridX), cst(gridY), cst(1),
                                        cst(threads), cst(1), cst(1));
  Block &kernel = result.launch.getBody().front();
  b.setInsertionPointToEnd(&kernel);
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&kernel);
  result.tid = result.launch.getThreadIds().x;
  Value row = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, result.launch.getBlockIds().y, cst(gridX)),
      result.launch.getBlockIds().x);
  result.validRow =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, cst(rows));
  Value rest = arith::MinUIOp::create(b, loc, row, cst(rows - 1));
  result.rowIvs.assign(rowDims.size(), Value());
  for (int64_t d = static_cast<int64_t>(rowDims.size()) - 1; d > 0; --d) {
    result.rowIvs[d] = arith::RemUIOp::create(b, loc, rest, cst(rowDims[d]));
    rest = arith::DivUIOp::create(b, loc, rest, cst(rowDims[d]));
  }
  result.rowIvs[0] = rest;
  return result;
}

namespace {
/// Emits the kernel of one row reduction inside its gpu.launch.
class RowReductionKernel {
public:
  RowReductionKernel(OpBuilder &b, const GPURowReduction &r, Location loc)
      : b(b), r(r), loc(loc) {}

  gpu::LaunchOp emit(int64_t workgroupSize, int64_t subgroupSize);

private:
  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  /// combiner(acc, x) as the body writes it.
  Value combine(Value acc, Value x) {
    IRMapping map;
    map.map(r.combiner->getOperand(r.accOperand), acc);
    map.map(r.combiner->getOperand(1 - r.accOperand), x);
    return b.clone(*r.combiner, map)->getResult(0);
  }

  /// The value the body combines into the accumulator at `ivs`.
  Value element(ArrayRef<Value> ivs) {
    Block &body = r.op->getRegion(0).front();
    IRMapping map;
    for (OpOperand *input : r.op.getDpsInputOperands()) {
      AffineMap indexing = r.op.getMatchingIndexingMap(input);
      BlockArgument arg = body.getArgument(input->getOperandNumber());
      if (!isa<MemRefType>(input->get().getType())) {
        map.map(arg, input->get());
        continue;
      }
      SmallVector<Value> indices;
      for (unsigned i = 0; i < indexing.getNumResults(); ++i)
        indices.push_back(ivs[indexing.getDimPosition(i)]);
      map.map(arg, memref::LoadOp::create(b, loc, input->get(), indices));
    }
    for (Operation &inner : body.without_terminator())
      if (&inner != r.combiner)
        b.clone(inner, map);
    return map.lookupOrDefault(r.combiner->getOperand(1 - r.accOperand));
  }

  OpBuilder &b;
  GPURowReduction r;
  Location loc;
};
} // namespace

gpu::LaunchOp RowReductionKernel::emit(int64_t workgroupSize,
                                       int64_t subgroupSize) {
  int64_t rowSize = r.rowSize();
  RowLaunch rowLaunch = createRowLaunch(
      b, loc, ArrayRef<int64_t>(r.loopSizes).drop_back(), workgroupSize);
  gpu::LaunchOp launch = rowLaunch.launch;
  Value init = r.op.getDpsInits()[0];
  auto accType =
      cast<FloatType>(cast<MemRefType>(init.getType()).getElementType());
  Value neutral = arith::ConstantOp::create(
      b, loc, getCombinerIdentity(r.combiner, accType));
  Value tid = rowLaunch.tid;
  Value valid = rowLaunch.validRow;
  // The row's indices, and the element's (set per element below).
  SmallVector<Value> ivs(rowLaunch.rowIvs);
  ivs.push_back(Value());

  // Each thread: elements tid, tid + workgroupSize, ... of the row.
  auto loop = scf::ForOp::create(
      b, loc, tid, cst(rowSize), cst(workgroupSize), ValueRange{neutral},
      [&](OpBuilder &, Location, Value k, ValueRange partial) {
        SmallVector<Value> at(ivs);
        at.back() = k;
        scf::YieldOp::create(b, loc, combine(partial[0], element(at)));
      });
  Value partial = loop.getResult(0);

  Value zero = cst(0);
  Value total =
      combineAcrossWorkgroup(b, loc, partial, tid, workgroupSize, subgroupSize,
                             [&](Value x, Value y) { return combine(x, y); });

  // Thread 0 combines the row's result into the output.
  Value isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, zero);
  Value store = arith::AndIOp::create(b, loc, isFirst, valid);
  scf::IfOp::create(b, loc, store, [&](OpBuilder &, Location) {
    AffineMap indexing = r.op.getMatchingIndexingMap(r.op.getDpsInitOperand(0));
    SmallVector<Value> indices;
    for (unsigned i = 0; i < indexing.getNumResults(); ++i)
      indices.push_back(ivs[indexing.getDimPosition(i)]);
    Value old = memref::LoadOp::create(b, loc, init, indices);
    memref::StoreOp::create(b, loc, combine(old, total), init, indices);
    scf::YieldOp::create(b, loc);
  });
  return launch;
}

FailureOr<gpu::LaunchOp> amp::reduceRowsInWorkgroups(RewriterBase &rewriter,
                                                     const GPURowReduction &r,
                                                     int64_t workgroupSize,
                                                     int64_t subgroupSize) {
  if (workgroupSize < 1 || !llvm::isPowerOf2_64(workgroupSize) ||
      (subgroupSize != 0 && !llvm::isPowerOf2_64(subgroupSize)))
    return failure();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(r.op);
  RowReductionKernel kernel(rewriter, r, r.op->getLoc());
  gpu::LaunchOp launch = kernel.emit(workgroupSize, subgroupSize);
  rewriter.eraseOp(r.op);
  return launch;
}
