//===- GPUContractionStrategy.cpp - Tiled contractions on GPUs ------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/Common/GPUContractionStrategy.h"
#include "amp/Backend/Common/GPUContractionEmitter.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::amp;

//===----------------------------------------------------------------------===//
// The configuration as an attribute
//===----------------------------------------------------------------------===//

DictionaryAttr GPUContractionConfig::toAttr(MLIRContext *context) const {
  Builder b(context);
  return b.getDictionaryAttr(
      {b.getNamedAttr("workgroup",
                      b.getDenseI64ArrayAttr({tileM, tileN, tileK})),
       b.getNamedAttr("thread", b.getDenseI64ArrayAttr({threadM, threadN}))});
}

std::optional<GPUContractionConfig>
GPUContractionConfig::fromAttr(Attribute attr, std::string &error) {
  auto dict = dyn_cast_or_null<DictionaryAttr>(attr);
  auto workgroup =
      dict ? dict.getAs<DenseI64ArrayAttr>("workgroup") : DenseI64ArrayAttr();
  auto thread =
      dict ? dict.getAs<DenseI64ArrayAttr>("thread") : DenseI64ArrayAttr();
  if (!workgroup || !thread || workgroup.size() != 3 || thread.size() != 2 ||
      dict.size() != 2) {
    error = "expected {workgroup = array<i64: M, N, K>, thread = "
            "array<i64: M, N>}";
    return std::nullopt;
  }
  GPUContractionConfig config;
  config.tileM = workgroup[0];
  config.tileN = workgroup[1];
  config.tileK = workgroup[2];
  config.threadM = thread[0];
  config.threadN = thread[1];
  return config;
}

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

int64_t GPUContraction::product(ArrayRef<unsigned> dims) const {
  int64_t product = 1;
  for (unsigned d : dims)
    product *= loopSizes[d];
  return product;
}

bool amp::isGPUKernelBuffer(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.hasStaticShape() && memref.getLayout().isIdentity() &&
         !memref.getMemorySpace() && memref.getElementType().isIntOrFloat();
}

/// The allocation (or argument) `buffer` is a view of: two buffers with the
/// same root may alias.
static Value rootOf(Value buffer) {
  auto memref = dyn_cast<MemrefValue>(buffer);
  return memref ? memref::skipViewLikeOps(memref) : buffer;
}

/// Whether `buffer` may alias one of `others`.
static bool mayAlias(Value buffer, ValueRange others) {
  return llvm::any_of(
      others, [&](Value other) { return rootOf(other) == rootOf(buffer); });
}

bool amp::hasPlainBody(linalg::LinalgOp op) {
  Block &body = op->getRegion(0).front();
  for (Operation &inner : body.without_terminator())
    if (isa<linalg::IndexOp>(inner) || !isMemoryEffectFree(&inner) ||
        inner.getNumRegions() != 0)
      return false;
  return body.getTerminator()->getNumOperands() == 1;
}

/// The value that the op right before `op` writes to all of `op`'s output
/// (a linalg.fill, or the generic it generalizes to), if there is one.
Value amp::getFilledValue(Operation *op) {
  auto fill = dyn_cast_or_null<linalg::LinalgOp>(op);
  if (!fill ||
      !(fill.hasPureBufferSemantics() || fill.hasPureTensorSemantics()) ||
      fill.getNumDpsInits() != 1)
    return {};
  Type element = getElementTypeOrSelf(fill.getDpsInits()[0].getType());
  if (auto named = dyn_cast<linalg::FillOp>(fill.getOperation())) {
    Value value = named.getInputs()[0];
    return value.getType() == element ? value : Value();
  }
  if (fill.getNumDpsInputs() != 0 ||
      fill.getNumParallelLoops() != fill.getNumLoops() ||
      !fill.getMatchingIndexingMap(fill.getDpsInitOperand(0)).isIdentity())
    return {};
  Region &body = fill->getRegion(0);
  Value value = body.front().getTerminator()->getOperand(0);
  if (value.getParentRegion() == &body || value.getType() != element)
    return {};
  return value;
}

static Value fillValueBefore(linalg::LinalgOp op) {
  Operation *previous = op->getPrevNode();
  Value value = getFilledValue(previous);
  if (!value ||
      cast<linalg::LinalgOp>(previous).getDpsInits()[0] != op.getDpsInits()[0])
    return {};
  return value;
}

/// The elementwise op right after `op` that reads its output where it
/// writes its own (bias, activation, the cast to f16/bf16), if the output
/// is not read anywhere else afterwards.
static linalg::LinalgOp epilogueAfter(linalg::LinalgOp op, Operation *fill) {
  Value result = op.getDpsInits()[0];
  auto type = cast<MemRefType>(result.getType());
  // Allocations in between (the epilogue's own output) are moved before
  // the kernel when it is built.
  Operation *after = op->getNextNode();
  while (isa_and_nonnull<memref::AllocOp>(after))
    after = after->getNextNode();
  auto next = dyn_cast_or_null<linalg::LinalgOp>(after);
  if (!next || !next.hasPureBufferSemantics() || next.getNumDpsInits() != 1 ||
      next.getNumParallelLoops() != next.getNumLoops() ||
      next.getNumLoops() != static_cast<unsigned>(type.getRank()) ||
      !hasPlainBody(next))
    return {};
  bool readsResult = false;
  for (OpOperand &operand : next->getOpOperands()) {
    AffineMap map = next.getMatchingIndexingMap(&operand);
    if (!map.isProjectedPermutation())
      return {};
    if (isa<ShapedType>(operand.get().getType()) &&
        !isGPUKernelBuffer(operand.get().getType()))
      return {};
    if (operand.get() == result) {
      if (!map.isIdentity())
        return {};
      readsResult |= next.isDpsInput(&operand);
    }
  }
  OpOperand *out = next.getDpsInitOperand(0);
  // Other workgroups still read the contraction's inputs while this one
  // stores.
  if (mayAlias(out->get(), op.getDpsInputs()))
    return {};
  if (!readsResult || !next.getMatchingIndexingMap(out).isIdentity() ||
      cast<MemRefType>(out->get().getType()).getShape() != type.getShape())
    return {};
  // Written elsewhere, the contraction's own result must be a temporary
  // that is dead after it.
  if (out->get() != result && !result.getDefiningOp<memref::AllocOp>())
    return {};
  if (out->get() != result)
    for (Operation *user : result.getUsers())
      if (user != op && user != next && user != fill &&
          !isa<memref::DeallocOp>(user))
        return {};
  return next;
}

/// The elementwise op that computes input `index` of `op` into a temporary
/// that nothing but `op` reads, if there is one and nothing between the two
/// writes what it reads.
static linalg::LinalgOp prologueOf(linalg::LinalgOp op, unsigned index) {
  Value input = op.getDpsInputs()[index];
  if (!input.getDefiningOp<memref::AllocOp>())
    return {};
  linalg::LinalgOp producer;
  for (OpOperand &use : input.getUses()) {
    Operation *user = use.getOwner();
    if (user == op || isa<memref::DeallocOp>(user))
      continue;
    auto linalgUser = dyn_cast<linalg::LinalgOp>(user);
    if (producer || !linalgUser || !linalgUser.isDpsInit(&use))
      return {};
    producer = linalgUser;
  }
  if (!producer || producer->getBlock() != op->getBlock() ||
      !producer->isBeforeInBlock(op) || !producer.hasPureBufferSemantics() ||
      producer.getNumDpsInits() != 1 ||
      producer.getNumParallelLoops() != producer.getNumLoops() ||
      producer.getNumLoops() !=
          static_cast<unsigned>(cast<MemRefType>(input.getType()).getRank()) ||
      !producer.getMatchingIndexingMap(producer.getDpsInitOperand(0))
           .isIdentity() ||
      !hasPlainBody(producer))
    return {};
  // The kernel does not read the temporary, so the body must not either.
  Block &body = producer->getRegion(0).front();
  if (!body.getArguments().back().use_empty())
    return {};
  SmallVector<Value> reads;
  for (OpOperand *operand : producer.getDpsInputOperands()) {
    if (!isa<ShapedType>(operand->get().getType()))
      continue;
    if (!isGPUKernelBuffer(operand->get().getType()) ||
        !producer.getMatchingIndexingMap(operand).isProjectedPermutation() ||
        mayAlias(operand->get(), op.getDpsInits()))
      return {};
    reads.push_back(rootOf(operand->get()));
  }
  // Nothing between the producer and the contraction may write what the
  // producer reads (the kernel reads it where the contraction stands).
  for (Operation *between = producer->getNextNode(); between != op;
       between = between->getNextNode()) {
    if (isa<memref::AllocOp>(between) || isMemoryEffectFree(between))
      continue;
    auto linalgOp = dyn_cast<linalg::LinalgOp>(between);
    if (!linalgOp || !linalgOp.hasPureBufferSemantics())
      return {};
    for (Value init : linalgOp.getDpsInits())
      if (llvm::is_contained(reads, rootOf(init)))
        return {};
  }
  return producer;
}

FailureOr<GPUContraction> amp::matchGPUContraction(Operation *op,
                                                   std::string *reason) {
  auto fail = [&](const Twine &why) -> FailureOr<GPUContraction> {
    if (reason)
      *reason = why.str();
    return failure();
  };
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return fail("not a linalg op");
  if (!linalgOp.hasPureBufferSemantics())
    return fail("not on buffers");
  if (linalgOp.getNumDpsInputs() != 2 || linalgOp.getNumDpsInits() != 1)
    return fail("not two inputs and one init");
  for (Value operand : op->getOperands())
    if (!isGPUKernelBuffer(operand.getType()))
      return fail("an operand is not an identity-layout buffer of static "
                  "shape in global memory");
  AffineMap outMap =
      linalgOp.getMatchingIndexingMap(linalgOp.getDpsInitOperand(0));
  if (!outMap.isProjectedPermutation())
    return fail("the output's indexing map is not a projected permutation");
  if (!hasPlainBody(linalgOp))
    return fail("the body reads indices, has effects or regions, or does "
                "not yield one value");
  // Other workgroups still read the inputs while one stores its outputs.
  if (mayAlias(linalgOp.getDpsInits()[0], linalgOp.getDpsInputs()))
    return fail("the output may alias an input");

  GPUContraction c;
  c.op = linalgOp;
  auto append = [](SmallVector<unsigned, 2> &to, ArrayRef<unsigned> dims) {
    to.append(dims.begin(), dims.end());
  };
  if (linalgOp.hasOnlyProjectedPermutations()) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(linalgOp);
    if (failed(dims))
      return fail("not a contraction");
    append(c.batchDims, dims->batch);
    append(c.mDims, dims->m);
    append(c.nDims, dims->n);
    append(c.kDims, dims->k);
  } else {
    FailureOr<linalg::ConvolutionDimensions> dims =
        linalg::inferConvolutionDims(linalgOp);
    if (failed(dims))
      return fail("neither a contraction nor a convolution");
    append(c.batchDims, dims->depth);
    append(c.mDims, dims->batch);
    append(c.mDims, dims->outputImage);
    append(c.nDims, dims->outputChannel);
    append(c.kDims, dims->filterLoop);
    append(c.kDims, dims->inputChannel);
  }
  if (c.mDims.empty() || c.nDims.empty() || c.kDims.empty())
    return fail("no m, n or k dimension");
  if (c.batchDims.size() + c.mDims.size() + c.nDims.size() + c.kDims.size() !=
      linalgOp.getNumLoops())
    return fail("a loop is neither batch, m, n nor k");
  // Each group in loop order: the reduction runs in the loop nest's order
  // and the last loop of a group varies fastest.
  for (SmallVector<unsigned, 2> *dims :
       {&c.batchDims, &c.mDims, &c.nDims, &c.kDims})
    llvm::sort(*dims);
  c.loopSizes = linalgOp.getStaticLoopRanges();
  c.fillValue = fillValueBefore(linalgOp);
  if (c.fillValue)
    c.fill = op->getPrevNode();
  c.epilogue = epilogueAfter(linalgOp, c.fill);
  for (unsigned i = 0; i < 2; ++i)
    c.prologues[i] = prologueOf(linalgOp, i);
  // The epilogue must not write what a prologue reads (other workgroups
  // still read it).
  if (c.epilogue)
    for (linalg::LinalgOp prologue : c.prologues)
      if (prologue &&
          mayAlias(c.epilogue.getDpsInits()[0], prologue.getDpsInputs()))
        c.epilogue = {};
  AffineMap lhsMap =
      linalgOp.getMatchingIndexingMap(linalgOp.getDpsInputOperand(0));
  c.lhs = lhsMap.isFunctionOfDim(c.mDims.front()) ? 0 : 1;
  return c;
}

//===----------------------------------------------------------------------===//
// Choosing tiles
//===----------------------------------------------------------------------===//

GPUContractionConfig amp::chooseGPUContractionConfig(const GPUContraction &c,
                                                     int64_t minWorkgroups) {
  // From large output tiles (more reuse of each staged operand element) to
  // small ones (more workgroups), 256 threads each.
  static const GPUContractionConfig candidates[] = {{128, 128, 16, 8, 8},
                                                    {64, 64, 16, 4, 4},
                                                    {32, 64, 16, 2, 4},
                                                    {32, 32, 16, 2, 2}};
  GPUContractionConfig config = candidates[std::size(candidates) - 1];
  for (const GPUContractionConfig &candidate : candidates) {
    int64_t grid = c.batch() * llvm::divideCeil(c.sizeM(), candidate.tileM) *
                   llvm::divideCeil(c.sizeN(), candidate.tileN);
    if (grid >= minWorkgroups) {
      config = candidate;
      break;
    }
  }
  // A dimension smaller than its tile gets the smallest power of two that
  // holds it (a matrix-vector-like product does not leave most threads
  // idle), and thread tiles shrink until a workgroup has 64 threads.
  auto shrink = [](int64_t size, int64_t &tile, int64_t &thread) {
    if (size >= tile)
      return;
    int64_t smaller = static_cast<int64_t>(llvm::PowerOf2Ceil(size));
    // The threads keep their number: each gets a proportionally smaller
    // register tile.
    thread = std::max<int64_t>(1, thread * smaller / tile);
    tile = smaller;
  };
  shrink(c.sizeM(), config.tileM, config.threadM);
  shrink(c.sizeN(), config.tileN, config.threadN);
  while (config.threads() < 64 && (config.threadM > 1 || config.threadN > 1)) {
    if (config.threadN >= config.threadM)
      config.threadN /= 2;
    else
      config.threadM /= 2;
  }
  config.tileK = std::min<int64_t>(config.tileK, c.sizeK());
  return config;
}

std::optional<std::string>
amp::checkGPUContractionConfig(const GPUContraction &c,
                               const GPUContractionConfig &config) {
  if (config.tileM < 1 || config.tileN < 1 || config.tileK < 1 ||
      config.threadM < 1 || config.threadN < 1)
    return std::string("tile sizes must be positive");
  if (config.tileM % config.threadM || config.tileN % config.threadN)
    return std::string(
        "workgroup tile sizes must be multiples of the thread tile sizes");
  if (config.threads() > 1024)
    return "a workgroup of " + std::to_string(config.threads()) +
           " threads exceeds 1024";
  if (config.threadM * config.threadN > 64)
    return std::string("a thread tile of more than 64 accumulators");
  auto bytes = [](Value buffer) {
    Type element = cast<MemRefType>(buffer.getType()).getElementType();
    return static_cast<int64_t>(
        llvm::divideCeil(element.getIntOrFloatBitWidth(), 8));
  };
  linalg::LinalgOp op = c.op;
  Value lhs = op.getDpsInputs()[c.lhs];
  Value rhs = op.getDpsInputs()[1 - c.lhs];
  int64_t shared = 2 * (config.tileM * (config.tileK + 1) * bytes(lhs) +
                        config.tileK * (config.tileN + 1) * bytes(rhs));
  if (shared > 48 * 1024)
    return std::to_string(shared) +
           " bytes of workgroup memory exceed the 48 KiB every target has";
  if (llvm::divideCeil(c.sizeM(), config.tileM) > 65535 ||
      llvm::divideCeil(c.sizeN(), config.tileN) > 65535 || c.batch() > 65535)
    return std::string("more than 65535 workgroups along a grid dimension");
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

namespace {
/// Emits the kernel of one contraction inside its gpu.launch.
class ContractionKernel : public GPUContractionEmitter {
public:
  ContractionKernel(RewriterBase &rewriter, const GPUContraction &c,
                    const GPUContractionConfig &config, Location loc)
      : GPUContractionEmitter(rewriter, c, loc), cfg(config) {}

  FailureOr<gpu::LaunchOp> emit();

private:
  /// Loads this thread's share of the operand tile at reduction offset
  /// `k0`: element e of the tile (row-major in the operand's contiguous
  /// dimension, so that neighbouring threads read neighbouring addresses)
  /// is loaded by thread e mod threads. Rows and columns past the operand's
  /// end are clamped to its last ones: those elements feed only outputs
  /// that are not stored, or reduction steps that are not taken.
  SmallVector<Value> loadTile(bool lhs, Value k0);
  /// Stores what loadTile loaded into workgroup buffer `buf`.
  void storeTile(bool lhs, ArrayRef<Value> values, Value buf);
  /// Position (row in the tile's own dimension, k) of the e-th element
  /// this thread moves.
  std::pair<Value, Value> tileElement(bool lhs, int64_t e);
  /// acc = body(a, b, acc) for `count` reduction steps of buffer `buf`.
  SmallVector<Value> compute(Value buf, int64_t count, ValueRange acc);

  const GPUContractionConfig &cfg;

  // Set while emitting the launch body.
  Value tid, tx, ty, m0, n0;
  Value lhsShared, rhsShared;
  SmallVector<scf::ForOp> toUnroll;
};
} // namespace

std::pair<Value, Value> ContractionKernel::tileElement(bool lhs, int64_t e) {
  OpOperand *operand = c.op.getDpsInputOperand(lhs ? c.lhs : 1 - c.lhs);
  AffineMap map = c.op.getMatchingIndexingMap(operand);
  int64_t ownTile = lhs ? cfg.tileM : cfg.tileN;
  // Whether the operand's contiguous dimension is a reduction one.
  AffineExpr last = map.getResult(map.getNumResults() - 1);
  bool kInner = llvm::any_of(
      c.kDims, [&](unsigned d) { return last.isFunctionOfDim(d); });
  Value linear = add(tid, cst(e * cfg.threads()));
  Value row, k;
  if (kInner) {
    row = arith::DivUIOp::create(b, loc, linear, cst(cfg.tileK));
    k = arith::RemUIOp::create(b, loc, linear, cst(cfg.tileK));
  } else {
    k = arith::DivUIOp::create(b, loc, linear, cst(ownTile));
    row = arith::RemUIOp::create(b, loc, linear, cst(ownTile));
  }
  return {row, k};
}

static int64_t elementsPerThread(const GPUContractionConfig &cfg, bool lhs) {
  int64_t elements = (lhs ? cfg.tileM : cfg.tileN) * cfg.tileK;
  return llvm::divideCeil(elements, cfg.threads());
}

SmallVector<Value> ContractionKernel::loadTile(bool lhs, Value k0) {
  OpOperand *operand = c.op.getDpsInputOperand(lhs ? c.lhs : 1 - c.lhs);
  ArrayRef<unsigned> own = lhs ? c.mDims : c.nDims;
  int64_t ownSize = lhs ? c.sizeM() : c.sizeN();
  Value origin = lhs ? m0 : n0;
  SmallVector<Value> values;
  for (int64_t e = 0; e < elementsPerThread(cfg, lhs); ++e) {
    auto [row, k] = tileElement(lhs, e);
    SmallVector<Value> ivs(batchIvs);
    delinearize(minimum(add(origin, row), ownSize - 1), own, ivs);
    delinearize(minimum(add(k0, k), c.sizeK() - 1), c.kDims, ivs);
    values.push_back(loadInput(operand, indicesOf(operand, ivs)));
  }
  return values;
}

void ContractionKernel::storeTile(bool lhs, ArrayRef<Value> values, Value buf) {
  int64_t elements = (lhs ? cfg.tileM : cfg.tileN) * cfg.tileK;
  for (auto [e, value] : llvm::enumerate(values)) {
    auto [row, k] = tileElement(lhs, e);
    auto store = [&](OpBuilder &builder, Location l) {
      if (lhs)
        memref::StoreOp::create(builder, l, value, lhsShared,
                                ValueRange{buf, row, k});
      else
        memref::StoreOp::create(builder, l, value, rhsShared,
                                ValueRange{buf, k, row});
    };
    // The last element a thread moves may lie past the tile when the
    // tile's size is no multiple of the workgroup's.
    if (static_cast<int64_t>(e + 1) * cfg.threads() <= elements) {
      store(b, loc);
      continue;
    }
    Value linear = add(tid, cst(e * cfg.threads()));
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         linear, cst(elements));
    scf::IfOp::create(b, loc, inside, [&](OpBuilder &builder, Location l) {
      store(builder, l);
      scf::YieldOp::create(builder, l);
    });
  }
}

SmallVector<Value> ContractionKernel::compute(Value buf, int64_t count,
                                              ValueRange acc) {
  Block &body = c.op->getRegion(0).front();
  auto loop = scf::ForOp::create(
      b, loc, cst(0), cst(count), cst(1), acc,
      [&](OpBuilder &builder, Location l, Value kk, ValueRange accs) {
        SmallVector<Value> lhs, rhs;
        for (int64_t i = 0; i < cfg.threadM; ++i) {
          Value row = arith::AddIOp::create(
              builder, l, ty,
              arith::ConstantIndexOp::create(builder, l, i * cfg.threadsM()));
          lhs.push_back(memref::LoadOp::create(builder, l, lhsShared,
                                               ValueRange{buf, row, kk}));
        }
        for (int64_t j = 0; j < cfg.threadN; ++j) {
          Value col = arith::AddIOp::create(
              builder, l, tx,
              arith::ConstantIndexOp::create(builder, l, j * cfg.threadsN()));
          rhs.push_back(memref::LoadOp::create(builder, l, rhsShared,
                                               ValueRange{buf, kk, col}));
        }
        SmallVector<Value> results;
        for (int64_t i = 0; i < cfg.threadM; ++i) {
          for (int64_t j = 0; j < cfg.threadN; ++j) {
            IRMapping map;
            map.map(body.getArgument(c.lhs), lhs[i]);
            map.map(body.getArgument(1 - c.lhs), rhs[j]);
            map.map(body.getArgument(2), accs[i * cfg.threadN + j]);
            // Products may be fused into the sums (as the CPU backend's
            // kernels fuse them): one rounding instead of two.
            for (Operation &inner : body.without_terminator()) {
              Operation *copy = builder.clone(inner, map);
              if (isa<arith::MulFOp, arith::AddFOp>(copy))
                if (auto fm = dyn_cast<arith::ArithFastMathInterface>(copy))
                  copy->setAttr(fm.getFastMathAttrName(),
                                arith::FastMathFlagsAttr::get(
                                    copy->getContext(),
                                    fm.getFastMathFlagsAttr().getValue() |
                                        arith::FastMathFlags::contract));
            }
            results.push_back(
                map.lookupOrDefault(body.getTerminator()->getOperand(0)));
          }
        }
        scf::YieldOp::create(builder, l, results);
      });
  // Small reduction steps are unrolled once the kernel is complete (the
  // unrolling replaces the loop's results).
  if (count * cfg.threadM * cfg.threadN <= 1024)
    toUnroll.push_back(loop);
  return SmallVector<Value>(loop.getResults());
}

FailureOr<gpu::LaunchOp> ContractionKernel::emit() {
  Value lhsValue = c.op.getDpsInputs()[c.lhs];
  Value rhsValue = c.op.getDpsInputs()[1 - c.lhs];

  int64_t sizeM = c.sizeM(), sizeN = c.sizeN(), sizeK = c.sizeK();
  auto launch = gpu::LaunchOp::create(
      b, loc, cst(llvm::divideCeil(sizeN, cfg.tileN)),
      cst(llvm::divideCeil(sizeM, cfg.tileM)), cst(c.batch()),
      cst(cfg.threadsN()), cst(cfg.threadsM()), cst(1));
  launch->setAttr(kLoweringConfigAttrName, cfg.toAttr(b.getContext()));
  Block &kernel = launch.getBody().front();
  b.setInsertionPointToEnd(&kernel);
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&kernel);

  tx = launch.getThreadIds().x;
  ty = launch.getThreadIds().y;
  tid = add(mul(ty, cfg.threadsN()), tx);
  n0 = mul(launch.getBlockIds().x, cfg.tileN);
  m0 = mul(launch.getBlockIds().y, cfg.tileM);
  setBatch(launch.getBlockIds().z);

  // Operand tiles in workgroup memory, two of each, rows padded by one
  // element so that threads storing down a column hit distinct banks.
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  auto sharedType = [&](Value operand, int64_t rows, int64_t cols) {
    return MemRefType::get({2, rows, cols},
                           cast<MemRefType>(operand.getType()).getElementType(),
                           MemRefLayoutAttrInterface(), workgroup);
  };
  lhsShared = memref::AllocOp::create(
      b, loc, sharedType(lhsValue, cfg.tileM, cfg.tileK + 1));
  rhsShared = memref::AllocOp::create(
      b, loc, sharedType(rhsValue, cfg.tileK, cfg.tileN + 1));

  // Output positions of this thread: rows ty + i * threadsM, columns
  // tx + j * threadsN, so that neighbouring threads read neighbouring
  // words of the staged tiles and store neighbouring outputs.
  SmallVector<Value> rows, cols;
  for (int64_t i = 0; i < cfg.threadM; ++i)
    rows.push_back(add(m0, add(ty, cst(i * cfg.threadsM()))));
  for (int64_t j = 0; j < cfg.threadN; ++j)
    cols.push_back(add(n0, add(tx, cst(j * cfg.threadsN()))));
  SmallVector<Value> acc;
  for (int64_t i = 0; i < cfg.threadM; ++i)
    for (int64_t j = 0; j < cfg.threadN; ++j)
      acc.push_back(initialAccumulator(rows[i], cols[j]));

  // Prologue: the first k step staged in buffer 0.
  int64_t steps = llvm::divideCeil(sizeK, cfg.tileK);
  storeTile(true, loadTile(true, cst(0)), cst(0));
  storeTile(false, loadTile(false, cst(0)), cst(0));
  gpu::BarrierOp::create(b, loc);
  // Every step but the last: the next step's tiles are loaded from global
  // memory before this step's arithmetic and stored to the other buffer
  // after it; one barrier per step separates both buffers' readers from
  // their writers.
  if (steps > 1) {
    auto loop = scf::ForOp::create(
        b, loc, cst(0), cst(steps - 1), cst(1), acc,
        [&](OpBuilder &, Location, Value step, ValueRange accs) {
          Value buf = arith::RemUIOp::create(b, loc, step, cst(2));
          Value next = arith::SubIOp::create(b, loc, cst(1), buf);
          Value k0 = mul(add(step, cst(1)), cfg.tileK);
          SmallVector<Value> lhsNext = loadTile(true, k0);
          SmallVector<Value> rhsNext = loadTile(false, k0);
          SmallVector<Value> out = compute(buf, cfg.tileK, accs);
          storeTile(true, lhsNext, next);
          storeTile(false, rhsNext, next);
          gpu::BarrierOp::create(b, loc);
          scf::YieldOp::create(b, loc, out);
        });
    acc.assign(loop.getResults().begin(), loop.getResults().end());
  }
  // The last step (of sizeK - (steps - 1) * tileK elements, known here).
  acc = compute(cst((steps - 1) % 2), sizeK - (steps - 1) * cfg.tileK, acc);

  // The single store of each output this thread computed.
  bool exactM = sizeM % cfg.tileM == 0, exactN = sizeN % cfg.tileN == 0;
  for (int64_t i = 0; i < cfg.threadM; ++i)
    for (int64_t j = 0; j < cfg.threadN; ++j)
      storeOutput(acc[i * cfg.threadN + j], rows[i], cols[j], exactM, exactN);
  // The loads of one reduction step overlap the arithmetic of the last.
  for (scf::ForOp loop : toUnroll)
    (void)loopUnrollFull(loop);
  return launch;
}

FailureOr<gpu::LaunchOp>
amp::tileGPUContraction(RewriterBase &rewriter, const GPUContraction &c,
                        const GPUContractionConfig &config) {
  Operation *op = c.op;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  hoistAllocsBeforeKernel(c);
  ContractionKernel kernel(rewriter, c, config, op->getLoc());
  FailureOr<gpu::LaunchOp> launch = kernel.emit();
  if (failed(launch))
    return failure();
  eraseReplacedByKernel(rewriter, c);
  return launch;
}
