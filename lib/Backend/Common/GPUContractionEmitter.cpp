//===- GPUContractionEmitter.cpp - Building contraction kernels -----------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/Common/GPUContractionEmitter.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::amp;

Value GPUContractionEmitter::cst(int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value GPUContractionEmitter::add(Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}

Value GPUContractionEmitter::mul(Value x, int64_t y) {
  return arith::MulIOp::create(b, loc, x, cst(y));
}

Value GPUContractionEmitter::minimum(Value x, int64_t y) {
  return arith::MinUIOp::create(b, loc, x, cst(y));
}

Value GPUContractionEmitter::lessThan(Value index, int64_t size) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index,
                               cst(size));
}

SmallVector<Value> GPUContractionEmitter::indicesOf(OpOperand *operand,
                                                    ArrayRef<Value> ivs) {
  return indicesOf(c.op.getMatchingIndexingMap(operand), ivs);
}

SmallVector<Value> GPUContractionEmitter::indicesOf(AffineMap map,
                                                    ArrayRef<Value> ivs) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      indices.push_back(ivs[dim.getPosition()]);
      continue;
    }
    indices.push_back(
        affine::expandAffineExpr(b, loc, expr, ivs, ValueRange()));
  }
  return indices;
}

void GPUContractionEmitter::delinearize(Value linear, ArrayRef<unsigned> dims,
                                        SmallVectorImpl<Value> &ivs) {
  for (unsigned d : llvm::reverse(dims.drop_front())) {
    ivs[d] = arith::RemUIOp::create(b, loc, linear, cst(c.loopSizes[d]));
    linear = arith::DivUIOp::create(b, loc, linear, cst(c.loopSizes[d]));
  }
  ivs[dims.front()] = linear;
}

void GPUContractionEmitter::setBatch(Value batch) {
  batchIvs.assign(c.loopSizes.size(), Value());
  for (unsigned d : llvm::reverse(c.batchDims)) {
    batchIvs[d] = arith::RemUIOp::create(b, loc, batch, cst(c.loopSizes[d]));
    batch = arith::DivUIOp::create(b, loc, batch, cst(c.loopSizes[d]));
  }
}

SmallVector<Value> GPUContractionEmitter::outputIvs(Value row, Value col) {
  SmallVector<Value> ivs(batchIvs);
  delinearize(row, c.mDims, ivs);
  delinearize(col, c.nDims, ivs);
  return ivs;
}

Value GPUContractionEmitter::loadInput(OpOperand *operand,
                                       ArrayRef<Value> indices) {
  linalg::LinalgOp prologue = c.prologues[operand->getOperandNumber()];
  if (!prologue)
    return memref::LoadOp::create(b, loc, operand->get(), indices);
  Block &body = prologue->getRegion(0).front();
  IRMapping map;
  for (OpOperand *input : prologue.getDpsInputOperands()) {
    BlockArgument arg = body.getArgument(input->getOperandNumber());
    if (!isa<MemRefType>(input->get().getType())) {
      map.map(arg, input->get());
      continue;
    }
    map.map(arg,
            memref::LoadOp::create(
                b, loc, input->get(),
                indicesOf(prologue.getMatchingIndexingMap(input), indices)));
  }
  for (Operation &inner : body.without_terminator())
    b.clone(inner, map);
  return map.lookupOrDefault(body.getTerminator()->getOperand(0));
}

Value GPUContractionEmitter::initialAccumulator(Value row, Value col) {
  if (c.fillValue)
    return c.fillValue;
  OpOperand *init = c.op.getDpsInitOperand(0);
  return memref::LoadOp::create(
      b, loc, init->get(),
      indicesOf(init, outputIvs(minimum(row, c.sizeM() - 1),
                                minimum(col, c.sizeN() - 1))));
}

std::pair<Value, Value>
GPUContractionEmitter::finalValue(Value value, ArrayRef<Value> indices) {
  Value result = c.op.getDpsInits()[0];
  if (!c.epilogue)
    return {value, result};
  // The epilogue's loops are the output's dimensions (identity map).
  Block &body = c.epilogue->getRegion(0).front();
  IRMapping map;
  for (OpOperand &operand : c.epilogue->getOpOperands()) {
    BlockArgument arg = body.getArgument(operand.getOperandNumber());
    if (operand.get() == result)
      map.map(arg, value);
    else if (isa<MemRefType>(operand.get().getType()))
      map.map(arg, memref::LoadOp::create(
                       b, loc, operand.get(),
                       indicesOf(c.epilogue.getMatchingIndexingMap(&operand),
                                 indices)));
    else
      map.map(arg, operand.get());
  }
  for (Operation &inner : body.without_terminator())
    b.clone(inner, map);
  return {map.lookupOrDefault(body.getTerminator()->getOperand(0)),
          c.epilogue.getDpsInits()[0]};
}

void GPUContractionEmitter::storeOutputAt(Value value,
                                          ArrayRef<Value> indices) {
  auto [stored, buffer] = finalValue(value, indices);
  memref::StoreOp::create(b, loc, stored, buffer, indices);
}

Value GPUContractionEmitter::insideOutput(Value row, Value col, bool exactM,
                                          bool exactN) {
  Value inside;
  if (!exactM)
    inside = lessThan(row, c.sizeM());
  if (!exactN) {
    Value inCol = lessThan(col, c.sizeN());
    inside = inside ? arith::AndIOp::create(b, loc, inside, inCol) : inCol;
  }
  return inside;
}

void GPUContractionEmitter::storeOutput(Value value, Value row, Value col,
                                        bool exactM, bool exactN) {
  SmallVector<Value> indices =
      indicesOf(c.op.getDpsInitOperand(0), outputIvs(row, col));
  Value inside = insideOutput(row, col, exactM, exactN);
  if (!inside) {
    storeOutputAt(value, indices);
    return;
  }
  auto guard = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(guard.thenBlock());
  storeOutputAt(value, indices);
}

bool GPUContractionEmitter::canStorePairs() {
  linalg::LinalgOp op = c.op;
  AffineMap map = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  auto last = dyn_cast<AffineDimExpr>(map.getResult(map.getNumResults() - 1));
  return last && last.getPosition() == c.nDims.back() &&
         c.loopSizes[c.nDims.back()] % 2 == 0;
}

void GPUContractionEmitter::storeOutputPair(Value first, Value second,
                                            Value row, Value col, bool exactM,
                                            bool exactN) {
  // With an even innermost n loop and col even, col + 1 is in the same row
  // of the output, and inside it exactly when col is.
  Value inside = insideOutput(row, col, exactM, exactN);
  OpBuilder::InsertionGuard g(b);
  if (inside) {
    auto guard = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
    b.setInsertionPointToStart(guard.thenBlock());
  }
  SmallVector<Value> indices =
      indicesOf(c.op.getDpsInitOperand(0), outputIvs(row, col));
  SmallVector<Value> next =
      indicesOf(c.op.getDpsInitOperand(0),
                outputIvs(row, arith::AddIOp::create(b, loc, col, cst(1))));
  auto [v0, buffer] = finalValue(first, indices);
  Value v1 = finalValue(second, next).first;
  Value pair = vector::FromElementsOp::create(
      b, loc, VectorType::get({2}, v0.getType()), ValueRange{v0, v1});
  // The pair starts at an even element of the buffer (an even column of
  // rows of even length): aligned to its own size, so that the target
  // stores it as one vector.
  int64_t bytes = 2 * llvm::divideCeil(v0.getType().getIntOrFloatBitWidth(), 8);
  vector::StoreOp::create(b, loc, pair, buffer, indices,
                          /*nontemporal=*/false, llvm::MaybeAlign(bytes));
}

void amp::hoistAllocsBeforeKernel(const GPUContraction &c) {
  if (!c.epilogue)
    return;
  Operation *op = c.op;
  for (Operation *between = op->getNextNode(); between != c.epilogue;) {
    Operation *next = between->getNextNode();
    between->moveBefore(op);
    between = next;
  }
}

void amp::eraseReplacedByKernel(RewriterBase &rewriter,
                                const GPUContraction &c) {
  Operation *op = c.op;
  // (Collected before the ops that use them are erased.)
  llvm::SetVector<Value> temporaries;
  for (Value operand : op->getOperands())
    temporaries.insert(operand);
  if (c.epilogue)
    rewriter.eraseOp(c.epilogue);
  rewriter.eraseOp(op);
  if (c.fill)
    rewriter.eraseOp(c.fill);
  for (unsigned i = 0; i < 2; ++i)
    if (c.prologues[i] && (i == 0 || c.prologues[1] != c.prologues[0]))
      rewriter.eraseOp(c.prologues[i]);
  // Temporaries that only the epilogue or the prologues used are no longer
  // needed.
  for (Value temporary : temporaries)
    if (auto alloc = temporary.getDefiningOp<memref::AllocOp>())
      if (llvm::all_of(alloc->getUsers(), [](Operation *user) {
            return isa<memref::DeallocOp>(user);
          })) {
        for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
          rewriter.eraseOp(user);
        rewriter.eraseOp(alloc);
      }
}
