//===- GPURowFusion.cpp - Runs of row ops in one workgroup per row --------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/Common/GPUContractionStrategy.h"
#include "amp/Backend/Common/GPUReductionStrategy.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::amp;

int64_t GPURowSequence::rows() const {
  int64_t product = 1;
  for (int64_t size : rowDims)
    product *= size;
  return product;
}

namespace {
/// What an op of a run does to a row.
enum class RowOpKind { Fill, Reduce, Elementwise, PerRow };

/// How an operand of a run's op is indexed: by element (P, R), by row P,
/// by the element's position in the row R (a layer norm's scale and
/// offset), or not at all (a scalar).
enum class Access { Element, Row, Column, Scalar };
} // namespace

/// How `operand` of `op` (with loops P or (P, R)) is indexed, or nullopt
/// when neither by element nor by row.
static std::optional<Access> accessOf(linalg::LinalgOp op, OpOperand *operand,
                                      unsigned rank) {
  if (!isa<ShapedType>(operand->get().getType()))
    return Access::Scalar;
  if (!isGPUKernelBuffer(operand->get().getType()))
    return std::nullopt;
  AffineMap map = op.getMatchingIndexingMap(operand);
  if (map.isIdentity())
    return map.getNumDims() == rank ? Access::Row : Access::Element;
  // The projection (P, R) -> P.
  SmallVector<AffineExpr> dims;
  for (unsigned d = 0; d < rank; ++d)
    dims.push_back(getAffineDimExpr(d, op.getContext()));
  if (map == AffineMap::get(rank + 1, 0, dims, op.getContext()))
    return Access::Row;
  if (map ==
      AffineMap::get(rank + 1, 0, getAffineDimExpr(rank, op.getContext())))
    return Access::Column;
  return std::nullopt;
}

/// What `op` is in a run over rows `rowDims` of `rowSize` elements.
static std::optional<RowOpKind>
classify(Operation *op, ArrayRef<int64_t> rowDims, int64_t rowSize) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureBufferSemantics() ||
      linalgOp.getNumDpsInits() != 1 ||
      !isGPUKernelBuffer(linalgOp.getDpsInits()[0].getType()))
    return std::nullopt;
  unsigned rank = rowDims.size();
  SmallVector<int64_t> loops = linalgOp.getStaticLoopRanges();
  auto outShape =
      cast<MemRefType>(linalgOp.getDpsInits()[0].getType()).getShape();
  if (getFilledValue(op))
    return outShape == rowDims ? std::optional(RowOpKind::Fill) : std::nullopt;
  if (!hasPlainBody(linalgOp))
    return std::nullopt;
  SmallVector<int64_t> elementLoops(rowDims);
  elementLoops.push_back(rowSize);
  RowOpKind kind;
  if (loops == ArrayRef<int64_t>(rowDims) &&
      linalgOp.getNumParallelLoops() == rank)
    kind = RowOpKind::PerRow;
  else if (loops == ArrayRef<int64_t>(elementLoops) &&
           linalgOp.getNumParallelLoops() == rank + 1)
    kind = RowOpKind::Elementwise;
  else if (loops == ArrayRef<int64_t>(elementLoops) &&
           succeeded(matchGPURowReduction(op, /*minRowSize=*/1)))
    kind = RowOpKind::Reduce;
  else
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands()) {
    std::optional<Access> access = accessOf(linalgOp, &operand, rank);
    if (!access)
      return std::nullopt;
    bool isInit = linalgOp.isDpsInit(&operand);
    // Outputs: elements for elementwise ops, rows otherwise.
    if (isInit &&
        (*access == Access::Element) != (kind == RowOpKind::Elementwise))
      return std::nullopt;
    if (kind == RowOpKind::PerRow && *access != Access::Row &&
        *access != Access::Scalar)
      return std::nullopt;
    if (isInit && *access == Access::Column)
      return std::nullopt;
  }
  return kind;
}

FailureOr<GPURowSequence>
amp::matchGPURowSequence(Operation *first, int64_t minRowSize,
                         int64_t workgroupSize, int64_t maxElementsPerThread) {
  // The rows come from the first reduction of the run (only linalg ops and
  // allocations may come before it).
  linalg::LinalgOp reduce;
  for (Operation *op = first; op && !reduce; op = op->getNextNode()) {
    if (isa<memref::AllocOp>(op))
      continue;
    if (!isa<linalg::LinalgOp>(op))
      return failure();
    if (succeeded(matchGPURowReduction(op, minRowSize)))
      reduce = cast<linalg::LinalgOp>(op);
  }
  if (!reduce)
    return failure();
  SmallVector<int64_t> loops = reduce.getStaticLoopRanges();
  GPURowSequence run;
  run.rowSize = loops.back();
  run.rowDims.assign(loops.begin(), loops.end() - 1);
  int64_t threads =
      std::min<int64_t>(workgroupSize, llvm::PowerOf2Ceil(run.rowSize));
  if (run.rowDims.empty() || static_cast<int64_t>(llvm::divideCeil(
                                 run.rowSize, threads)) > maxElementsPerThread)
    return failure();
  bool reduces = false;
  // The run keeps what it writes in registers until its end, so no op of
  // it may see a buffer the run writes through another view of it.
  // Nor may an op read by column (the rows of other workgroups) what the
  // run writes, before or after it writes it.
  DenseMap<Value, Value> writtenRoots; // root -> the view the run writes
  llvm::SmallPtrSet<Value, 4> columnRoots;
  auto root = [](Value buffer) {
    return memref::skipViewLikeOps(cast<MemrefValue>(buffer));
  };
  auto seesAnotherView = [&](linalg::LinalgOp op) {
    for (OpOperand &operand : op->getOpOperands()) {
      Value buffer = operand.get();
      if (!isa<MemRefType>(buffer.getType()))
        continue;
      auto it = writtenRoots.find(root(buffer));
      if (it != writtenRoots.end() && it->second != buffer)
        return true;
      bool column =
          accessOf(op, &operand, run.rowDims.size()) == Access::Column;
      if (column && it != writtenRoots.end())
        return true;
      if (op.isDpsInit(&operand) && columnRoots.contains(root(buffer)))
        return true;
    }
    return false;
  };
  for (Operation *op = first; op; op = op->getNextNode()) {
    if (isa<memref::AllocOp>(op))
      continue;
    std::optional<RowOpKind> kind = classify(op, run.rowDims, run.rowSize);
    if (!kind || seesAnotherView(cast<linalg::LinalgOp>(op)))
      break;
    auto linalgOp = cast<linalg::LinalgOp>(op);
    Value out = linalgOp.getDpsInits()[0];
    writtenRoots.try_emplace(root(out), out);
    for (OpOperand *input : linalgOp.getDpsInputOperands())
      if (isa<MemRefType>(input->get().getType()) &&
          accessOf(linalgOp, input, run.rowDims.size()) == Access::Column)
        columnRoots.insert(root(input->get()));
    reduces |= *kind == RowOpKind::Reduce;
    run.ops.push_back(cast<linalg::LinalgOp>(op));
  }
  // Fills and per-row ops at the end are better left out.
  auto endsWell = [&](linalg::LinalgOp op) {
    std::optional<RowOpKind> kind = classify(op, run.rowDims, run.rowSize);
    return kind == RowOpKind::Reduce || kind == RowOpKind::Elementwise;
  };
  while (!run.ops.empty() && !endsWell(run.ops.back()))
    run.ops.pop_back();
  if (!reduces || run.ops.empty() || run.ops.front() != first)
    return failure();
  return run;
}

namespace {
/// Emits the kernel of one run inside its gpu.launch.
class RowRunKernel {
public:
  RowRunKernel(OpBuilder &b, const GPURowSequence &run, Location loc,
               int64_t workgroupSize, int64_t subgroupSize)
      : b(b), run(run), loc(loc), threads(workgroupSize),
        subgroupSize(subgroupSize),
        perThread(llvm::divideCeil(run.rowSize, workgroupSize)) {}

  gpu::LaunchOp emit(const llvm::SetVector<Value> &stored);

private:
  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  /// The value of row buffer `buffer` for this row: computed by the run, or
  /// loaded.
  Value rowValue(Value buffer) {
    auto it = rowRegs.find(buffer);
    if (it != rowRegs.end())
      return it->second;
    return memref::LoadOp::create(b, loc, buffer, rowIvs);
  }
  /// Element `i` of this thread of element buffer `buffer`.
  Value elementValue(Value buffer, int64_t i) {
    auto it = elementRegs.find(buffer);
    if (it != elementRegs.end())
      return it->second[i];
    SmallVector<Value> indices(rowIvs);
    indices.push_back(clampedK[i]);
    return memref::LoadOp::create(b, loc, buffer, indices);
  }
  /// The body of `op` for element `i` (or the row, i < 0), up to but not
  /// including `stopAt`; returns the value `stopAt` combines, or the
  /// yielded value.
  Value applyBody(linalg::LinalgOp op, int64_t i, Operation *stopAt,
                  unsigned stopOperand) {
    Block &body = op->getRegion(0).front();
    IRMapping map;
    unsigned rank = run.rowDims.size();
    for (OpOperand &operand : op->getOpOperands()) {
      BlockArgument arg = body.getArgument(operand.getOperandNumber());
      if (arg.use_empty())
        continue;
      std::optional<Access> access = accessOf(op, &operand, rank);
      if (*access == Access::Scalar)
        map.map(arg, operand.get());
      else if (*access == Access::Row)
        map.map(arg, rowValue(operand.get()));
      else if (*access == Access::Column)
        map.map(arg, memref::LoadOp::create(b, loc, operand.get(),
                                            ValueRange{clampedK[i]}));
      else
        map.map(arg, elementValue(operand.get(), i));
    }
    for (Operation &inner : body.without_terminator()) {
      if (&inner == stopAt)
        return map.lookupOrDefault(inner.getOperand(stopOperand));
      b.clone(inner, map);
    }
    return map.lookupOrDefault(body.getTerminator()->getOperand(0));
  }

  OpBuilder &b;
  const GPURowSequence &run;
  Location loc;
  int64_t threads, subgroupSize, perThread;

  SmallVector<Value> rowIvs, clampedK, validK;
  Value tid, validRow;
  DenseMap<Value, Value> rowRegs;
  DenseMap<Value, SmallVector<Value>> elementRegs;
};
} // namespace

gpu::LaunchOp RowRunKernel::emit(const llvm::SetVector<Value> &stored) {
  int64_t rowSize = run.rowSize;
  RowLaunch rowLaunch = createRowLaunch(b, loc, run.rowDims, threads);
  gpu::LaunchOp launch = rowLaunch.launch;
  tid = rowLaunch.tid;
  validRow = rowLaunch.validRow;
  rowIvs = rowLaunch.rowIvs;
  for (int64_t i = 0; i < perThread; ++i) {
    Value k = arith::AddIOp::create(b, loc, tid, cst(i * threads));
    validK.push_back(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, k,
                                           cst(rowSize)));
    clampedK.push_back(arith::MinUIOp::create(b, loc, k, cst(rowSize - 1)));
  }

  unsigned rank = run.rowDims.size();
  for (linalg::LinalgOp op : run.ops) {
    Value out = op.getDpsInits()[0];
    if (Value value = getFilledValue(op)) {
      rowRegs[out] = value;
      continue;
    }
    bool elementwise =
        op.getNumLoops() == rank + 1 && op.getNumParallelLoops() == rank + 1;
    if (op.getNumLoops() == rank) {
      rowRegs[out] = applyBody(op, -1, nullptr, 0);
      continue;
    }
    if (elementwise) {
      SmallVector<Value> values;
      for (int64_t i = 0; i < perThread; ++i)
        values.push_back(applyBody(op, i, nullptr, 0));
      elementRegs[out] = values;
      continue;
    }
    // A reduction: this thread's elements, then the workgroup's.
    FailureOr<GPURowReduction> r = matchGPURowReduction(op, 1);
    Operation *combiner = r->combiner;
    unsigned accOperand = r->accOperand;
    auto combine = [&](Value acc, Value x) {
      IRMapping map;
      map.map(combiner->getOperand(accOperand), acc);
      map.map(combiner->getOperand(1 - accOperand), x);
      return b.clone(*combiner, map)->getResult(0);
    };
    auto type = cast<FloatType>(combiner->getResult(0).getType());
    Value neutral =
        arith::ConstantOp::create(b, loc, getCombinerIdentity(combiner, type));
    Value partial = neutral;
    for (int64_t i = 0; i < perThread; ++i) {
      Value x = applyBody(op, i, combiner, 1 - accOperand);
      Value next = combine(partial, x);
      partial = (i + 1) * threads <= rowSize
                    ? next
                    : arith::SelectOp::create(b, loc, validK[i], next, partial)
                          .getResult();
    }
    Value total = combineAcrossWorkgroup(b, loc, partial, tid, threads,
                                         subgroupSize, combine);
    rowRegs[out] = combine(rowValue(out), total);
  }

  // What is read after the run is stored: elements by their threads, rows
  // by thread 0.
  for (Value buffer : stored) {
    if (elementRegs.count(buffer)) {
      for (int64_t i = 0; i < perThread; ++i) {
        Value ok = arith::AndIOp::create(b, loc, validRow, validK[i]);
        SmallVector<Value> indices(rowIvs);
        indices.push_back(clampedK[i]);
        Value value = elementRegs[buffer][i];
        scf::IfOp::create(b, loc, ok, [&](OpBuilder &, Location) {
          memref::StoreOp::create(b, loc, value, buffer, indices);
          scf::YieldOp::create(b, loc);
        });
      }
      continue;
    }
    Value first =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, cst(0));
    Value ok = arith::AndIOp::create(b, loc, validRow, first);
    Value value = rowRegs[buffer];
    scf::IfOp::create(b, loc, ok, [&](OpBuilder &, Location) {
      memref::StoreOp::create(b, loc, value, buffer, rowIvs);
      scf::YieldOp::create(b, loc);
    });
  }
  return launch;
}

FailureOr<gpu::LaunchOp> amp::fuseRowsInWorkgroups(RewriterBase &rewriter,
                                                   const GPURowSequence &run,
                                                   int64_t workgroupSize,
                                                   int64_t subgroupSize) {
  if (run.ops.empty() || !llvm::isPowerOf2_64(workgroupSize))
    return failure();
  Operation *first = run.ops.front();
  Operation *last = run.ops.back();
  llvm::SmallPtrSet<Operation *, 8> inRun;
  for (linalg::LinalgOp op : run.ops)
    inRun.insert(op);
  // Allocations between the ops move before the kernel that uses them.
  for (Operation *op = first; op != last;) {
    Operation *next = op->getNextNode();
    if (isa<memref::AllocOp>(op))
      rewriter.moveOpBefore(op, first);
    op = next;
  }
  // Buffers the run writes that are read after it (or that it does not
  // own) are stored; temporaries only the run uses are not.
  llvm::SetVector<Value> written, stored;
  for (linalg::LinalgOp op : run.ops)
    written.insert(op.getDpsInits()[0]);
  for (Value buffer : written) {
    bool temporary =
        isa_and_nonnull<memref::AllocOp>(buffer.getDefiningOp()) &&
        llvm::all_of(buffer.getUsers(), [&](Operation *user) {
          return inRun.contains(user) || isa<memref::DeallocOp>(user);
        });
    if (!temporary)
      stored.insert(buffer);
  }
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(first);
  RowRunKernel kernel(rewriter, run, first->getLoc(), workgroupSize,
                      subgroupSize);
  gpu::LaunchOp launch = kernel.emit(stored);
  for (linalg::LinalgOp op : llvm::reverse(run.ops))
    rewriter.eraseOp(op);
  for (Value buffer : written)
    if (!stored.contains(buffer)) {
      Operation *alloc = buffer.getDefiningOp();
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        rewriter.eraseOp(user);
      rewriter.eraseOp(alloc);
    }
  return launch;
}
