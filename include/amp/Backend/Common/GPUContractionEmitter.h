//===- GPUContractionEmitter.h - Building contraction kernels ---*- C++ -*-===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What every GPU contraction kernel does the same way, whatever unit it
// computes on (the SIMT kernel of GPUContractionStrategy, NVIDIA's tensor
// cores): index the operands through the op's maps, read an input through
// its fused prologue, store an output through its fused epilogue, and
// remove the ops the kernel replaced.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BACKEND_COMMON_GPUCONTRACTIONEMITTER_H
#define AMP_BACKEND_COMMON_GPUCONTRACTIONEMITTER_H

#include "amp/Backend/Common/GPUContractionStrategy.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace amp {

/// Builds the body of one contraction's kernel with `b`, whose insertion
/// point the kernel moves.
class GPUContractionEmitter {
public:
  GPUContractionEmitter(OpBuilder &b, const GPUContraction &c, Location loc)
      : b(b), c(c), loc(loc) {}

protected:
  Value cst(int64_t v);
  Value add(Value x, Value y);
  Value mul(Value x, int64_t y);
  Value minimum(Value x, int64_t y);
  /// `index < size` as an i1.
  Value lessThan(Value index, int64_t size);

  /// The indices of `operand` at the iteration point `ivs` (one value per
  /// loop; only the loops the operand's map reads need be set): its
  /// indexing map evaluated (a convolution's image index oh * s + kh * d).
  SmallVector<Value> indicesOf(OpOperand *operand, ArrayRef<Value> ivs);
  SmallVector<Value> indicesOf(AffineMap map, ArrayRef<Value> ivs);

  /// Sets the loops `dims` of `ivs` to the position `linear` in their
  /// row-major order (the last loop varies fastest).
  void delinearize(Value linear, ArrayRef<unsigned> dims,
                   SmallVectorImpl<Value> &ivs);

  /// Sets `batchIvs` (one value per loop, null but for the batch loops)
  /// from the linear batch index `batch` (the grid's z).
  void setBatch(Value batch);

  /// The iteration point of output element (row, col) of the current
  /// batch element: `row` over the m loops, `col` over the n loops.
  SmallVector<Value> outputIvs(Value row, Value col);

  /// The element of input `operand` at `indices`: loaded, or computed by
  /// the input's prologue from the prologue's own inputs.
  Value loadInput(OpOperand *operand, ArrayRef<Value> indices);

  /// The start of the accumulator of output element (row, col): the
  /// filled value, or the output's old element (row and col clamped to the
  /// output, whose edges the tiles may pass).
  Value initialAccumulator(Value row, Value col);

  /// Stores the finished accumulator `value` of output element (row, col),
  /// through the epilogue if there is one; guarded when the tiles pass the
  /// output's edges (`exactM`, `exactN` say where they do not).
  void storeOutput(Value value, Value row, Value col, bool exactM, bool exactN);

  /// Whether output elements (row, col) and (row, col + 1), col even, are
  /// neighbours in memory wherever both exist: the output's last index is
  /// the innermost n loop, of even size. storeOutputPair may then be used.
  bool canStorePairs();

  /// Stores the finished accumulators of output elements (row, col) and
  /// (row, col + 1), col even, through the epilogue, as one vector of two.
  void storeOutputPair(Value first, Value second, Value row, Value col,
                       bool exactM, bool exactN);

  OpBuilder &b;
  GPUContraction c;
  Location loc;
  SmallVector<Value> batchIvs;

private:
  /// The value stored for accumulator `value` at output `indices` (through
  /// the epilogue) and the buffer it goes to.
  std::pair<Value, Value> finalValue(Value value, ArrayRef<Value> indices);
  void storeOutputAt(Value value, ArrayRef<Value> indices);
  /// `row < M && col < N` where the tiles may pass the edges, else null.
  Value insideOutput(Value row, Value col, bool exactM, bool exactN);
};

/// Moves the allocations between `c`'s op and its epilogue (the epilogue's
/// output) before the op, where the kernel will stand.
void hoistAllocsBeforeKernel(const GPUContraction &c);

/// Erases what a kernel built for `c` replaced: the op, its fill, epilogue
/// and prologues, and temporaries nothing reads any more.
void eraseReplacedByKernel(RewriterBase &rewriter, const GPUContraction &c);

} // namespace amp
} // namespace mlir

#endif // AMP_BACKEND_COMMON_GPUCONTRACTIONEMITTER_H
