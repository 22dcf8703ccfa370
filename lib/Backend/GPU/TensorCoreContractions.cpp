//===- TensorCoreContractions.cpp - Contractions on tensor cores ----------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/GPU/TensorCoreContractions.h"
#include "amp/Backend/Common/GPUContractionEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::amp;

/// The shape of NVIDIA's mma.sync for 16-bit operands, and the elements one
/// cp.async or one ldmatrix row moves (16 bytes).
static constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 16, kChunk = 8;

//===----------------------------------------------------------------------===//
// The configuration as an attribute
//===----------------------------------------------------------------------===//

DictionaryAttr TensorCoreConfig::toAttr(MLIRContext *context) const {
  Builder b(context);
  return b.getDictionaryAttr(
      {b.getNamedAttr("workgroup",
                      b.getDenseI64ArrayAttr({tileM, tileN, tileK})),
       b.getNamedAttr("warps", b.getDenseI64ArrayAttr({warpsM, warpsN})),
       b.getNamedAttr("stages", b.getI64IntegerAttr(stages))});
}

bool TensorCoreConfig::isTensorCoreAttr(Attribute attr) {
  auto dict = dyn_cast_or_null<DictionaryAttr>(attr);
  return dict && dict.contains("warps");
}

std::optional<TensorCoreConfig> TensorCoreConfig::fromAttr(Attribute attr,
                                                           std::string &error) {
  auto dict = dyn_cast_or_null<DictionaryAttr>(attr);
  auto workgroup =
      dict ? dict.getAs<DenseI64ArrayAttr>("workgroup") : DenseI64ArrayAttr();
  auto warps =
      dict ? dict.getAs<DenseI64ArrayAttr>("warps") : DenseI64ArrayAttr();
  auto stages = dict ? dict.getAs<IntegerAttr>("stages") : IntegerAttr();
  if (!workgroup || !warps || !stages || workgroup.size() != 3 ||
      warps.size() != 2 || dict.size() != 3) {
    error = "expected {workgroup = array<i64: M, N, K>, warps = "
            "array<i64: M, N>, stages = S : i64}";
    return std::nullopt;
  }
  TensorCoreConfig config;
  config.tileM = workgroup[0];
  config.tileN = workgroup[1];
  config.tileK = workgroup[2];
  config.warpsM = warps[0];
  config.warpsN = warps[1];
  config.stages = stages.getInt();
  return config;
}

//===----------------------------------------------------------------------===//
// Matching and choosing tiles
//===----------------------------------------------------------------------===//

/// Whether `value` is `arith.extf` of block argument `arg` to f32.
static bool isExtendedArg(Value value, BlockArgument arg) {
  auto ext = value.getDefiningOp<arith::ExtFOp>();
  return ext && ext.getIn() == arg;
}

FailureOr<Type> amp::matchTensorCoreContraction(const GPUContraction &c,
                                                std::string *reason,
                                                bool allowTF32) {
  auto fail = [&](const Twine &why) -> FailureOr<Type> {
    if (reason)
      *reason = why.str();
    return failure();
  };
  linalg::LinalgOp op = c.op;
  Type lhs = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  Type rhs = getElementTypeOrSelf(op.getDpsInputs()[1].getType());
  Type acc = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  bool tf32 = allowTF32 && lhs.isF32();
  if (lhs != rhs || !(lhs.isF16() || lhs.isBF16() || tf32))
    return fail(allowTF32 ? "the operands are not both f16, bf16 or f32"
                          : "the operands are not both f16 or both bf16");
  if (!acc.isF32())
    return fail("the accumulator is not f32");
  // acc + ext(a) * ext(b) (f32: acc + a * b), in any order of the operands.
  Block &body = op->getRegion(0).front();
  auto add = body.getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return fail("the body does not add to the accumulator");
  Value product = add.getRhs();
  if (add.getLhs() != body.getArgument(2)) {
    if (add.getRhs() != body.getArgument(2))
      return fail("the body does not add to the accumulator");
    product = add.getLhs();
  }
  auto isOperand = [&](Value value, unsigned index) {
    return tf32 ? value == body.getArgument(index)
                : isExtendedArg(value, body.getArgument(index));
  };
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul || !((isOperand(mul.getLhs(), 0) && isOperand(mul.getRhs(), 1)) ||
                (isOperand(mul.getLhs(), 1) && isOperand(mul.getRhs(), 0))))
    return fail("the body does not multiply the operands");
  // Nothing else in the body (a product that is also used otherwise).
  if (std::distance(body.begin(), body.end()) != (tf32 ? 3 : 5))
    return fail("the body computes more than the multiply-add");
  return lhs;
}

SmallVector<TensorCoreConfig>
amp::chooseTensorCoreConfigs(const GPUContraction &c, int64_t minWorkgroups) {
  // From large output tiles (more reuse of each staged element) to small
  // ones (more workgroups). Two stages of the largest fill 40 KiB of the
  // 48 KiB every kernel may have statically.
  static const TensorCoreConfig candidates[] = {
      {128, 128, 32, 2, 4, 2}, {64, 64, 32, 2, 2, 3}, {32, 32, 32, 2, 2, 3}};
  size_t first = std::size(candidates) - 1;
  for (size_t i = 0; i < std::size(candidates); ++i) {
    const TensorCoreConfig &candidate = candidates[i];
    int64_t grid = c.batch() * llvm::divideCeil(c.sizeM(), candidate.tileM) *
                   llvm::divideCeil(c.sizeN(), candidate.tileN);
    if (grid >= minWorkgroups) {
      first = i;
      break;
    }
  }
  return SmallVector<TensorCoreConfig>(std::begin(candidates) + first,
                                       std::end(candidates));
}

/// Elements of the operand's own dimension per row of its shared tile, and
/// its rows, for a tile whose contiguous dimension is k (`kInner`) or not.
/// Rows are padded by one 16-byte chunk: ldmatrix's eight row addresses
/// then fall in distinct banks.
static std::pair<int64_t, int64_t> sharedShape(int64_t own, int64_t tileK,
                                               bool kInner, Type element) {
  int64_t pad = 16 / (element.getIntOrFloatBitWidth() / 8);
  if (kInner)
    return {own, tileK + pad};
  return {tileK, own + pad};
}

/// Whether the contiguous (last) dimension of input `index` of `c` is a
/// reduction one.
static bool isKInner(const GPUContraction &c, unsigned index) {
  linalg::LinalgOp op = c.op;
  AffineMap map = op.getMatchingIndexingMap(op.getDpsInputOperand(index));
  AffineExpr last = map.getResult(map.getNumResults() - 1);
  return llvm::any_of(c.kDims,
                      [&](unsigned d) { return last.isFunctionOfDim(d); });
}

/// Elements of the shared tile the cooperative-matrix kernel passes its
/// results through: tileM rows of tileN + 4 f32 (rows offset by 16 bytes).
static int64_t resultTileElements(const TensorCoreConfig &config) {
  return config.tileM * (config.tileN + 4);
}

std::optional<std::string>
amp::checkTensorCoreConfig(const GPUContraction &c,
                           const TensorCoreConfig &config, MatrixUnit unit) {
  if (config.tileM < 1 || config.tileN < 1 || config.tileK < 1 ||
      config.warpsM < 1 || config.warpsN < 1)
    return std::string("tile sizes and warps must be positive");
  if (config.stages < 2 || config.stages > 4)
    return std::string("stages must be 2, 3 or 4");
  if (config.tileM % config.warpsM || config.tileN % config.warpsN)
    return std::string("workgroup tiles must be multiples of the warps");
  if (config.warpTileM() % kMmaM || config.warpTileN() % (2 * kMmaN) ||
      config.tileK % kMmaK)
    return std::string("warp tiles must be multiples of 16x16 and k steps "
                       "multiples of 16");
  if (unit == MatrixUnit::CooperativeMatrix && !c.fillValue)
    return std::string("cooperative matrices start from a fill of the "
                       "output");
  // Every thread moves the same number of 16-byte chunks of each tile.
  if ((config.tileM * config.tileK / kChunk) % config.threads() ||
      (config.tileN * config.tileK / kChunk) % config.threads())
    return std::string("the 16-byte chunks of a tile are no multiple of the "
                       "workgroup's threads");
  if (config.threads() > 1024)
    return "a workgroup of " + std::to_string(config.threads()) +
           " threads exceeds 1024";
  int64_t fragments =
      (config.warpTileM() / kMmaM) * (config.warpTileN() / kMmaN);
  if (fragments > 32)
    return "a warp tile of " + std::to_string(fragments) +
           " mma tiles exceeds 32 (128 accumulators per thread)";
  int64_t shared = 0;
  for (unsigned i = 0; i < 2; ++i) {
    Type element = getElementTypeOrSelf(c.op->getOperand(i).getType());
    auto [rows, cols] = sharedShape(i == c.lhs ? config.tileM : config.tileN,
                                    config.tileK, isKInner(c, i), element);
    shared +=
        config.stages * rows * cols * (element.getIntOrFloatBitWidth() / 8);
  }
  if (unit == MatrixUnit::CooperativeMatrix)
    shared += resultTileElements(config) * 4;
  if (shared > 48 * 1024)
    return std::to_string(shared) +
           " bytes of shared memory exceed the 48 KiB every kernel has";
  if (llvm::divideCeil(c.sizeM(), config.tileM) > 65535 ||
      llvm::divideCeil(c.sizeN(), config.tileN) > 65535 || c.batch() > 65535)
    return std::string("more than 65535 workgroups along a grid dimension");
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

namespace {
/// Emits the tensor-core kernel of one contraction inside its gpu.launch.
class TensorCoreKernel : public GPUContractionEmitter {
public:
  TensorCoreKernel(RewriterBase &rewriter, const GPUContraction &c,
                   const TensorCoreConfig &config, MatrixUnit unit,
                   Location loc)
      : GPUContractionEmitter(rewriter, c, loc), cfg(config), unit(unit) {}

  gpu::LaunchOp emit();

private:
  /// How one operand reaches shared memory.
  struct Operand {
    unsigned index;  // input of the op
    bool lhs;        // the one with the m dimensions
    bool kInner;     // its contiguous dimension is a reduction one
    bool async;      // by cp.async, 16 bytes a copy, else via registers
    int64_t own;     // its own tile size (tileM or tileN)
    int64_t ownSize; // its own extent (M or N)
    Value origin;    // the workgroup's offset in its own dimensions
    Value shared;    // stages x rows x cols in workgroup memory
  };

  /// Whether operand `o` can be copied 16 bytes at a time: no prologue
  /// computes it, and its contiguous dimension is the innermost loop of the
  /// group it belongs to, read by nothing else, of a multiple of 8
  /// elements (chunks never straddle a row of the operand).
  bool canCopyAsync(const Operand &o);
  /// Issues the copies of k step `step` into stage `stage`: cp.async for
  /// asynchronous operands (the returned tokens), nothing for the others.
  SmallVector<Value> copyAsync(const Operand &o, Value step, Value stage);
  /// The elements this thread moves of register-staged operand `o` at k
  /// step `step` (zero past the reduction's end), and their stores.
  SmallVector<Value> loadThroughRegisters(const Operand &o, Value step);
  void storeFromRegisters(const Operand &o, ArrayRef<Value> values,
                          Value stage);
  /// Position (own, k) in the tile of element or chunk `linear` of `o`'s
  /// tile, walked along its contiguous dimension in pieces of `width`.
  std::pair<Value, Value> tilePosition(const Operand &o, Value linear,
                                       int64_t width);
  /// Iteration point of own-dimension element `own` and reduction element
  /// `k` of operand `o` (both within the operand).
  SmallVector<Value> operandIvs(const Operand &o, Value own, Value k);
  /// acc += this warp's products of stage `stage`.
  SmallVector<Value> compute(Value stage, ValueRange acc);
  /// The same in TF32 (m16n8k8, fragments read element by element).
  SmallVector<Value> computeTF32(Value stage, ValueRange acc);
  /// `value` (f32) rounded to TF32's 10 mantissa bits, to nearest with
  /// ties away from zero (cvt.rna.tf32.f32); infinities and NaNs as they
  /// are.
  Value roundToTF32(Value value);
  /// The same with cooperative matrices: acc holds this subgroup's 16x16
  /// accumulator matrices.
  SmallVector<Value> computeCooperative(Value stage, ValueRange acc);
  /// Stores this subgroup's accumulator matrices to shared memory and
  /// from there, through the epilogue, each element by one thread.
  void storeCooperative(ValueRange acc);
  /// ldmatrix.x4 of four 8x8 blocks of `o`'s stage `stage`: block q is at
  /// own offset `ownBase` + 8 * ownBlock(q) and k offset `k0` + 8 *
  /// kBlock(q).
  Value loadFragments(const Operand &o, Value stage, Value ownBase, Value k0,
                      bool ownBlockFirst);

  const TensorCoreConfig &cfg;
  MatrixUnit unit;
  Type elementType;
  bool tf32 = false;
  Operand operands[2];
  Value tid, lane, warpM, warpN, m0, n0;
};
} // namespace

bool TensorCoreKernel::canCopyAsync(const Operand &o) {
  if (c.prologues[o.index])
    return false;
  AffineMap map = c.op.getMatchingIndexingMap(c.op.getDpsInputOperand(o.index));
  auto last = dyn_cast<AffineDimExpr>(map.getResult(map.getNumResults() - 1));
  if (!last)
    return false;
  unsigned d = last.getPosition();
  ArrayRef<unsigned> group = o.kInner ? ArrayRef<unsigned>(c.kDims)
                                      : (o.lhs ? ArrayRef<unsigned>(c.mDims)
                                               : ArrayRef<unsigned>(c.nDims));
  if (group.empty() || group.back() != d || c.loopSizes[d] % kChunk)
    return false;
  for (AffineExpr expr : map.getResults().drop_back())
    if (expr.isFunctionOfDim(d))
      return false;
  return true;
}

std::pair<Value, Value>
TensorCoreKernel::tilePosition(const Operand &o, Value linear, int64_t width) {
  auto div = [&](Value x, int64_t y) {
    return arith::DivUIOp::create(b, loc, x, cst(y)).getResult();
  };
  auto rem = [&](Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, cst(y)).getResult();
  };
  if (o.kInner) {
    int64_t perRow = cfg.tileK / width;
    return {div(linear, perRow), mul(rem(linear, perRow), width)};
  }
  int64_t perRow = o.own / width;
  return {mul(rem(linear, perRow), width), div(linear, perRow)};
}

SmallVector<Value> TensorCoreKernel::operandIvs(const Operand &o, Value own,
                                                Value k) {
  SmallVector<Value> ivs(batchIvs);
  delinearize(own, o.lhs ? c.mDims : c.nDims, ivs);
  delinearize(k, c.kDims, ivs);
  return ivs;
}

SmallVector<Value> TensorCoreKernel::copyAsync(const Operand &o, Value step,
                                               Value stage) {
  OpOperand *input = c.op.getDpsInputOperand(o.index);
  int64_t chunks = o.own * cfg.tileK / kChunk;
  int64_t sizeK = c.sizeK();
  Value k0 = mul(step, cfg.tileK);
  SmallVector<Value> tokens;
  for (int64_t e = 0; e * cfg.threads() < chunks; ++e) {
    Value linear = add(tid, cst(e * cfg.threads()));
    auto [own, k] = tilePosition(o, linear, kChunk);
    // Chunks past the operand's own end are read from its last chunk (they
    // feed outputs that are not stored); past the reduction's end they are
    // zero-filled (they would add to stored outputs), as is every chunk of
    // a step past the last.
    Value globalOwn = add(o.origin, own);
    Value globalK = add(k0, k);
    Value valid = lessThan(globalK, sizeK);
    globalOwn = minimum(globalOwn, o.ownSize - (o.kInner ? 1 : kChunk));
    globalK = minimum(globalK, sizeK - (o.kInner ? kChunk : 1));
    Value srcElements =
        arith::SelectOp::create(b, loc, valid, cst(kChunk), cst(0));
    SmallVector<Value> src =
        indicesOf(input, operandIvs(o, globalOwn, globalK));
    SmallVector<Value> dst = {stage, o.kInner ? own : k, o.kInner ? k : own};
    tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), o.shared, dst,
        input->get(), src, b.getIndexAttr(kChunk), srcElements,
        b.getUnitAttr()));
  }
  return tokens;
}

SmallVector<Value> TensorCoreKernel::loadThroughRegisters(const Operand &o,
                                                          Value step) {
  OpOperand *input = c.op.getDpsInputOperand(o.index);
  int64_t elements = o.own * cfg.tileK;
  int64_t sizeK = c.sizeK();
  Value k0 = mul(step, cfg.tileK);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elementType));
  SmallVector<Value> values;
  for (int64_t e = 0; e * cfg.threads() < elements; ++e) {
    Value linear = minimum(add(tid, cst(e * cfg.threads())), elements - 1);
    auto [own, k] = tilePosition(o, linear, 1);
    Value globalK = add(k0, k);
    Value valid = lessThan(globalK, sizeK);
    SmallVector<Value> ivs =
        operandIvs(o, minimum(add(o.origin, own), o.ownSize - 1),
                   minimum(globalK, sizeK - 1));
    Value value = loadInput(input, indicesOf(input, ivs));
    if (tf32)
      value = roundToTF32(value);
    values.push_back(arith::SelectOp::create(b, loc, valid, value, zero));
  }
  return values;
}

void TensorCoreKernel::storeFromRegisters(const Operand &o,
                                          ArrayRef<Value> values, Value stage) {
  int64_t elements = o.own * cfg.tileK;
  for (auto [e, value] : llvm::enumerate(values)) {
    Value linear = add(tid, cst(e * cfg.threads()));
    auto [own, k] = tilePosition(o, linear, 1);
    SmallVector<Value> dst = {stage, o.kInner ? own : k, o.kInner ? k : own};
    if (static_cast<int64_t>(e + 1) * cfg.threads() <= elements) {
      memref::StoreOp::create(b, loc, value, o.shared, dst);
      continue;
    }
    auto guard = scf::IfOp::create(b, loc, lessThan(linear, elements),
                                   /*withElseRegion=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(guard.thenBlock());
    memref::StoreOp::create(b, loc, value, o.shared, dst);
  }
}

Value TensorCoreKernel::loadFragments(const Operand &o, Value stage,
                                      Value ownBase, Value k0,
                                      bool ownBlockFirst) {
  // Lane l gives the address of row l % 8 of block l / 8. An A fragment's
  // registers are the blocks (rows 0-7, k 0-7), (rows 8-15, k 0-7),
  // (rows 0-7, k 8-15), (rows 8-15, k 8-15); two B fragments' are (n 0-7,
  // k 0-7), (n 0-7, k 8-15), (n 8-15, k 0-7), (n 8-15, k 8-15).
  Value q = arith::DivUIOp::create(b, loc, lane, cst(8));
  Value r = arith::RemUIOp::create(b, loc, lane, cst(8));
  Value low = arith::RemUIOp::create(b, loc, q, cst(2));
  Value high = arith::DivUIOp::create(b, loc, q, cst(2));
  Value ownBlock = ownBlockFirst ? high : low;
  Value kBlock = ownBlockFirst ? low : high;
  Value own = add(ownBase, mul(ownBlock, 8));
  Value k = add(k0, mul(kBlock, 8));
  // A tile stored k-major is read transposed: row r of a block is then
  // k + r, and each thread receives the pair (k, k + 1) of one own index.
  SmallVector<Value> indices;
  if (o.kInner)
    indices = {stage, add(own, r), k};
  else
    indices = {stage, add(k, r), own};
  auto type = VectorType::get({4, 2}, elementType);
  return nvgpu::LdMatrixOp::create(b, loc, type, o.shared, indices,
                                   /*transpose=*/!o.kInner, /*numTiles=*/4);
}

SmallVector<Value> TensorCoreKernel::compute(Value stage, ValueRange acc) {
  int64_t fragsM = cfg.warpTileM() / kMmaM, fragsN = cfg.warpTileN() / kMmaN;
  const Operand &lhs = operands[c.lhs], &rhs = operands[1 - c.lhs];
  Value rowBase = mul(warpM, cfg.warpTileM());
  Value colBase = mul(warpN, cfg.warpTileN());
  SmallVector<Value> result(acc);
  auto accType = VectorType::get({2, 2}, b.getF32Type());
  for (int64_t kk = 0; kk < cfg.tileK; kk += kMmaK) {
    SmallVector<Value> aFrags, bFrags;
    for (int64_t i = 0; i < fragsM; ++i)
      aFrags.push_back(loadFragments(lhs, stage, add(rowBase, cst(i * kMmaM)),
                                     cst(kk), /*ownBlockFirst=*/false));
    for (int64_t j = 0; j < fragsN; j += 2) {
      Value pair = loadFragments(rhs, stage, add(colBase, cst(j * kMmaN)),
                                 cst(kk), /*ownBlockFirst=*/true);
      for (int64_t half = 0; half < 2; ++half)
        bFrags.push_back(vector::ShuffleOp::create(
            b, loc, pair, pair, ArrayRef<int64_t>{2 * half, 2 * half + 1}));
    }
    for (int64_t i = 0; i < fragsM; ++i)
      for (int64_t j = 0; j < fragsN; ++j) {
        int64_t base = (i * fragsN + j) * 4;
        Value c0 = vector::FromElementsOp::create(
            b, loc, accType, ValueRange(result).slice(base, 4));
        Value d =
            nvgpu::MmaSyncOp::create(b, loc, aFrags[i], bFrags[j], c0,
                                     ArrayRef<int64_t>{kMmaM, kMmaN, kMmaK});
        for (int64_t e = 0; e < 4; ++e)
          result[base + e] = vector::ExtractOp::create(
              b, loc, d, ArrayRef<int64_t>{e / 2, e % 2});
      }
  }
  return result;
}

Value TensorCoreKernel::roundToTF32(Value value) {
  Type i32 = b.getI32Type();
  auto i32c = [&](int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  Value bits = arith::BitcastOp::create(b, loc, i32, value);
  Value exponent = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, i32c(23)), i32c(0xFF));
  Value special = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        exponent, i32c(0xFF));
  // Sign and magnitude: adding half of the last kept bit rounds the
  // magnitude to nearest, ties away from zero (and past the largest
  // finite value to infinity).
  Value rounded = arith::AndIOp::create(
      b, loc, arith::AddIOp::create(b, loc, bits, i32c(0x1000)),
      i32c(static_cast<int32_t>(0xFFFFE000u)));
  return arith::BitcastOp::create(
      b, loc, value.getType(),
      arith::SelectOp::create(b, loc, special, bits, rounded));
}

SmallVector<Value> TensorCoreKernel::computeTF32(Value stage, ValueRange acc) {
  // PTX's m16n8k8 TF32 fragments: lane l = 4 g + t holds A(g, t),
  // A(g + 8, t), A(g, t + 4), A(g + 8, t + 4) and B(t, g), B(t + 4, g).
  constexpr int64_t kStep = 8;
  int64_t fragsM = cfg.warpTileM() / kMmaM, fragsN = cfg.warpTileN() / kMmaN;
  const Operand &lhs = operands[c.lhs], &rhs = operands[1 - c.lhs];
  Value rowBase = mul(warpM, cfg.warpTileM());
  Value colBase = mul(warpN, cfg.warpTileN());
  Value g = arith::DivUIOp::create(b, loc, lane, cst(4));
  Value t = arith::RemUIOp::create(b, loc, lane, cst(4));
  auto element = [&](const Operand &o, Value own, Value k) -> Value {
    SmallVector<Value> at = o.kInner ? SmallVector<Value>{stage, own, k}
                                     : SmallVector<Value>{stage, k, own};
    return memref::LoadOp::create(b, loc, o.shared, at);
  };
  auto accType = VectorType::get({2, 2}, b.getF32Type());
  SmallVector<Value> result(acc);
  for (int64_t kk = 0; kk < cfg.tileK; kk += kStep) {
    SmallVector<Value> aFrags, bFrags;
    for (int64_t i = 0; i < fragsM; ++i) {
      SmallVector<Value> a;
      for (int64_t r = 0; r < 4; ++r)
        a.push_back(element(lhs,
                            add(rowBase, add(g, cst(i * kMmaM + 8 * (r % 2)))),
                            add(t, cst(kk + 4 * (r / 2)))));
      aFrags.push_back(vector::FromElementsOp::create(
          b, loc, VectorType::get({4, 1}, b.getF32Type()), a));
    }
    for (int64_t j = 0; j < fragsN; ++j) {
      SmallVector<Value> bValues;
      for (int64_t r = 0; r < 2; ++r)
        bValues.push_back(element(rhs, add(colBase, add(g, cst(j * kMmaN))),
                                  add(t, cst(kk + 4 * r))));
      bFrags.push_back(vector::FromElementsOp::create(
          b, loc, VectorType::get({2, 1}, b.getF32Type()), bValues));
    }
    for (int64_t i = 0; i < fragsM; ++i)
      for (int64_t j = 0; j < fragsN; ++j) {
        int64_t base = (i * fragsN + j) * 4;
        Value c0 = vector::FromElementsOp::create(
            b, loc, accType, ValueRange(result).slice(base, 4));
        Value d = nvgpu::MmaSyncOp::create(
            b, loc, aFrags[i], bFrags[j], c0,
            ArrayRef<int64_t>{kMmaM, kMmaN, kStep}, /*tf32Enabled=*/true);
        for (int64_t e = 0; e < 4; ++e)
          result[base + e] = vector::ExtractOp::create(
              b, loc, d, ArrayRef<int64_t>{e / 2, e % 2});
      }
  }
  return result;
}

SmallVector<Value> TensorCoreKernel::computeCooperative(Value stage,
                                                        ValueRange acc) {
  int64_t fragsM = cfg.warpTileM() / kMmaM, fragsN = cfg.warpTileN() / kMmaK;
  const Operand &lhs = operands[c.lhs], &rhs = operands[1 - c.lhs];
  Value rowBase = mul(warpM, cfg.warpTileM());
  Value colBase = mul(warpN, cfg.warpTileN());
  SmallVector<Value> result(acc);
  // A fragment of a tile stored with its own dimension first is row-major
  // for A ([m][k]) and column-major for B ([n][k]), and the other way
  // round for tiles stored k-major.
  auto load = [&](const Operand &o, Value own, int64_t kk, StringRef kind) {
    auto type = cast<MemRefType>(o.shared.getType());
    SmallVector<Value> indices = o.kInner
                                     ? SmallVector<Value>{stage, own, cst(kk)}
                                     : SmallVector<Value>{stage, cst(kk), own};
    bool transpose = o.lhs ? !o.kInner : o.kInner;
    return gpu::SubgroupMmaLoadMatrixOp::create(
        b, loc, gpu::MMAMatrixType::get({kMmaM, kMmaK}, elementType, kind),
        o.shared, indices, b.getIndexAttr(type.getDimSize(2)),
        transpose ? b.getUnitAttr() : UnitAttr());
  };
  for (int64_t kk = 0; kk < cfg.tileK; kk += kMmaK) {
    SmallVector<Value> aFrags, bFrags;
    for (int64_t i = 0; i < fragsM; ++i)
      aFrags.push_back(load(lhs, add(rowBase, cst(i * kMmaM)), kk, "AOp"));
    for (int64_t j = 0; j < fragsN; ++j)
      bFrags.push_back(load(rhs, add(colBase, cst(j * kMmaK)), kk, "BOp"));
    for (int64_t i = 0; i < fragsM; ++i)
      for (int64_t j = 0; j < fragsN; ++j)
        result[i * fragsN + j] = gpu::SubgroupMmaComputeOp::create(
            b, loc, aFrags[i], bFrags[j], result[i * fragsN + j], UnitAttr(),
            UnitAttr());
  }
  return result;
}

void TensorCoreKernel::storeCooperative(ValueRange acc) {
  int64_t fragsN = cfg.warpTileN() / kMmaK;
  int64_t rowLength = cfg.tileN + 4;
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  Value results = memref::AllocOp::create(
      b, loc,
      MemRefType::get({cfg.tileM, rowLength}, b.getF32Type(),
                      MemRefLayoutAttrInterface(), workgroup),
      b.getI64IntegerAttr(16));
  Value rowBase = mul(warpM, cfg.warpTileM());
  Value colBase = mul(warpN, cfg.warpTileN());
  for (auto [f, matrix] : llvm::enumerate(acc)) {
    int64_t i = f / fragsN, j = f % fragsN;
    gpu::SubgroupMmaStoreMatrixOp::create(
        b, loc, matrix, results,
        ValueRange{add(rowBase, cst(i * kMmaM)), add(colBase, cst(j * kMmaK))},
        b.getIndexAttr(rowLength), UnitAttr());
  }
  gpu::BarrierOp::create(b, loc);
  // Each thread then takes elements tid, tid + threads, ... of the tile
  // (neighbouring threads, neighbouring columns).
  bool exactM = c.sizeM() % cfg.tileM == 0, exactN = c.sizeN() % cfg.tileN == 0;
  int64_t elements = cfg.tileM * cfg.tileN;
  for (int64_t e = 0; e * cfg.threads() < elements; ++e) {
    Value linear = add(tid, cst(e * cfg.threads()));
    Value row = arith::DivUIOp::create(b, loc, linear, cst(cfg.tileN));
    Value col = arith::RemUIOp::create(b, loc, linear, cst(cfg.tileN));
    Value value = memref::LoadOp::create(b, loc, results, ValueRange{row, col});
    storeOutput(value, add(m0, row), add(n0, col), exactM, exactN);
  }
}

gpu::LaunchOp TensorCoreKernel::emit() {
  elementType = getElementTypeOrSelf(c.op.getDpsInputs()[0].getType());
  tf32 = elementType.isF32();
  int64_t sizeM = c.sizeM(), sizeN = c.sizeN(), sizeK = c.sizeK();
  auto launch =
      gpu::LaunchOp::create(b, loc, cst(llvm::divideCeil(sizeN, cfg.tileN)),
                            cst(llvm::divideCeil(sizeM, cfg.tileM)),
                            cst(c.batch()), cst(cfg.threads()), cst(1), cst(1));
  launch->setAttr(kLoweringConfigAttrName, cfg.toAttr(b.getContext()));
  Block &kernel = launch.getBody().front();
  b.setInsertionPointToEnd(&kernel);
  gpu::TerminatorOp::create(b, loc);
  b.setInsertionPointToStart(&kernel);

  tid = launch.getThreadIds().x;
  lane = arith::RemUIOp::create(b, loc, tid, cst(cfg.laneCount));
  Value warp = arith::DivUIOp::create(b, loc, tid, cst(cfg.laneCount));
  warpM = arith::DivUIOp::create(b, loc, warp, cst(cfg.warpsN));
  warpN = arith::RemUIOp::create(b, loc, warp, cst(cfg.warpsN));
  n0 = mul(launch.getBlockIds().x, cfg.tileN);
  m0 = mul(launch.getBlockIds().y, cfg.tileM);
  setBatch(launch.getBlockIds().z);

  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  for (unsigned i = 0; i < 2; ++i) {
    Operand &o = operands[i];
    o.index = i;
    o.lhs = i == c.lhs;
    o.kInner = isKInner(c, i);
    o.own = o.lhs ? cfg.tileM : cfg.tileN;
    o.ownSize = o.lhs ? sizeM : sizeN;
    o.origin = o.lhs ? m0 : n0;
    // TF32 operands are rounded as they are staged.
    o.async = unit == MatrixUnit::MmaSync && !tf32 && canCopyAsync(o);
    auto [rows, cols] = sharedShape(o.own, cfg.tileK, o.kInner, elementType);
    auto type = MemRefType::get({cfg.stages, rows, cols}, elementType,
                                MemRefLayoutAttrInterface(), workgroup);
    // 16-byte aligned: the target of 16-byte copies and ldmatrix rows.
    o.shared = memref::AllocOp::create(b, loc, type, b.getI64IntegerAttr(16));
  }

  // This thread's outputs: in mma tile (i, j) of its warp, rows lane / 4
  // and lane / 4 + 8, columns 2 * (lane % 4) and the next. A subgroup's
  // cooperative matrices start from the fill.
  int64_t fragsM = cfg.warpTileM() / kMmaM, fragsN = cfg.warpTileN() / kMmaN;
  SmallVector<Value> rows, cols, acc;
  if (unit == MatrixUnit::CooperativeMatrix) {
    auto accType =
        gpu::MMAMatrixType::get({kMmaM, kMmaK}, b.getF32Type(), "COp");
    Value start =
        gpu::SubgroupMmaConstantMatrixOp::create(b, loc, accType, c.fillValue);
    acc.assign(fragsM * (cfg.warpTileN() / kMmaK), start);
  } else {
    Value group = arith::DivUIOp::create(b, loc, lane, cst(4));
    Value pair = mul(arith::RemUIOp::create(b, loc, lane, cst(4)), 2);
    for (int64_t i = 0; i < fragsM; ++i)
      for (int64_t j = 0; j < fragsN; ++j)
        for (int64_t e = 0; e < 4; ++e) {
          rows.push_back(add(add(m0, mul(warpM, cfg.warpTileM())),
                             add(group, cst(i * kMmaM + 8 * (e / 2)))));
          cols.push_back(add(add(n0, mul(warpN, cfg.warpTileN())),
                             add(pair, cst(j * kMmaN + e % 2))));
        }
    for (auto [row, col] : llvm::zip(rows, cols))
      acc.push_back(initialAccumulator(row, col));
  }

  // Steps 0 .. stages - 2 are in flight before the loop. Each step waits
  // (at the end of the step before) until its own copies have landed, those
  // of later steps may still fly; the barrier that starts the step both
  // publishes them and tells that every warp is done with the stage that
  // the copies of step + stages - 1, issued right after it, overwrite.
  // Register-staged operands are loaded before the arithmetic and stored
  // after it.
  int64_t steps = llvm::divideCeil(sizeK, cfg.tileK);
  auto issue = [&](Value step, Value stage) -> Value {
    SmallVector<Value> tokens;
    for (Operand &o : operands)
      if (o.async)
        llvm::append_range(tokens, copyAsync(o, step, stage));
    if (tokens.empty())
      return Value();
    return nvgpu::DeviceAsyncCreateGroupOp::create(
               b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), tokens)
        .getResult();
  };
  auto wait = [&](Value token, int64_t pending) {
    if (token)
      nvgpu::DeviceAsyncWaitOp::create(b, loc, token,
                                       b.getI32IntegerAttr(pending));
  };
  Value token;
  for (int64_t p = 0; p + 1 < cfg.stages; ++p) {
    token = issue(cst(p), cst(p));
    for (Operand &o : operands)
      if (!o.async)
        storeFromRegisters(o, loadThroughRegisters(o, cst(p)), cst(p));
  }
  wait(token, cfg.stages - 2);
  auto loop = scf::ForOp::create(
      b, loc, cst(0), cst(steps), cst(1), acc,
      [&](OpBuilder &, Location, Value step, ValueRange accs) {
        gpu::BarrierOp::create(b, loc);
        // Steps past the last copy zeros (their stage is never read).
        Value next = add(step, cst(cfg.stages - 1));
        Value nextStage = arith::RemUIOp::create(b, loc, next, cst(cfg.stages));
        Value issued = issue(next, nextStage);
        SmallVector<SmallVector<Value>> staged(2);
        for (Operand &o : operands)
          if (!o.async)
            staged[o.index] = loadThroughRegisters(o, next);
        Value stage = arith::RemUIOp::create(b, loc, step, cst(cfg.stages));
        SmallVector<Value> out = unit == MatrixUnit::CooperativeMatrix
                                     ? computeCooperative(stage, accs)
                                 : tf32 ? computeTF32(stage, accs)
                                        : compute(stage, accs);
        for (Operand &o : operands)
          if (!o.async)
            storeFromRegisters(o, staged[o.index], nextStage);
        wait(issued, cfg.stages - 2);
        scf::YieldOp::create(b, loc, out);
      });
  // No copy is left in flight when the kernel ends.
  if (token)
    wait(nvgpu::DeviceAsyncCreateGroupOp::create(
             b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()),
             ValueRange()),
         0);

  if (unit == MatrixUnit::CooperativeMatrix) {
    storeCooperative(loop.getResults());
    return launch;
  }
  // Each thread's accumulators come in pairs of neighbouring columns:
  // stored as vectors of two where the output allows.
  bool exactM = sizeM % cfg.tileM == 0, exactN = sizeN % cfg.tileN == 0;
  bool pairs = canStorePairs();
  for (size_t e = 0; e < rows.size(); e += 2) {
    if (pairs) {
      storeOutputPair(loop.getResult(e), loop.getResult(e + 1), rows[e],
                      cols[e], exactM, exactN);
      continue;
    }
    for (size_t i = e; i < e + 2; ++i)
      storeOutput(loop.getResult(i), rows[i], cols[i], exactM, exactN);
  }
  return launch;
}

FailureOr<gpu::LaunchOp>
amp::tileTensorCoreContraction(RewriterBase &rewriter, const GPUContraction &c,
                               const TensorCoreConfig &config,
                               MatrixUnit unit) {
  Operation *op = c.op;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  hoistAllocsBeforeKernel(c);
  TensorCoreKernel kernel(rewriter, c, config, unit, op->getLoc());
  gpu::LaunchOp launch = kernel.emit();
  eraseReplacedByKernel(rewriter, c);
  return launch;
}

//===----------------------------------------------------------------------===//
// The passes' driver
//===----------------------------------------------------------------------===//

LogicalResult amp::tileContractionsOnMatrixUnits(Operation *root,
                                                 MatrixUnit unit,
                                                 int64_t minWorkgroups,
                                                 int64_t laneCount,
                                                 bool allowTF32) {
  SmallVector<Operation *> candidates;
  root->walk([&](linalg::LinalgOp op) {
    if (!op->getParentOfType<gpu::LaunchOp>())
      candidates.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  for (Operation *candidate : candidates) {
    // Matched as the IR is now: an earlier kernel may have taken this op
    // as its epilogue or prologue.
    if (!candidate->getBlock())
      continue;
    Attribute attr = candidate->getAttr(kLoweringConfigAttrName);
    bool asked = TensorCoreConfig::isTensorCoreAttr(attr);
    // A configuration for the SIMT kernel is that strategy's.
    if (attr && !asked)
      continue;
    std::string reason;
    FailureOr<GPUContraction> matched = matchGPUContraction(candidate, &reason);
    if (succeeded(matched)) {
      FailureOr<Type> element = matchTensorCoreContraction(
          *matched, &reason, allowTF32 && unit == MatrixUnit::MmaSync);
      // gpu.subgroup_mma_* of MLIR 22 takes no bf16 (nor does amp's SPIR-V,
      // whose bf16 is storage only).
      if (succeeded(element) && unit == MatrixUnit::CooperativeMatrix &&
          !element->isF16()) {
        reason = "cooperative matrices take f16 operands only";
        element = failure();
      }
      if (failed(element))
        matched = failure();
    }
    if (failed(matched)) {
      if (!asked)
        continue;
      candidate->emitError()
          << kLoweringConfigAttrName
          << " asks for tensor cores, but the op cannot use them: " << reason;
      return failure();
    }
    const GPUContraction &c = *matched;
    if (asked) {
      std::string error;
      std::optional<TensorCoreConfig> given =
          TensorCoreConfig::fromAttr(attr, error);
      if (!given) {
        c.op->emitError() << kLoweringConfigAttrName << ": " << error;
        return failure();
      }
      given->laneCount = laneCount;
      if (std::optional<std::string> why =
              checkTensorCoreConfig(c, *given, unit)) {
        c.op->emitError() << "cannot tile this contraction for tensor cores "
                             "with "
                          << given->toAttr(root->getContext()) << ": " << *why;
        return failure();
      }
      if (failed(tileTensorCoreContraction(rewriter, c, *given, unit)))
        return failure();
      continue;
    }
    // The preferred tiling the unit can take (the largest tiles with a
    // cooperative matrix's result tile exceed the shared memory); what it
    // cannot take at all (a grid past the limits) is left to the SIMT
    // kernel.
    std::optional<TensorCoreConfig> config;
    // Fewer stages where shared memory runs out (f32 tiles are twice the
    // size).
    for (TensorCoreConfig candidate :
         chooseTensorCoreConfigs(c, minWorkgroups)) {
      candidate.laneCount = laneCount;
      for (; !config && candidate.stages >= 2; --candidate.stages)
        if (!checkTensorCoreConfig(c, candidate, unit))
          config = candidate;
      if (config)
        break;
    }
    if (!config)
      continue;
    if (failed(tileTensorCoreContraction(rewriter, c, *config, unit)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// bf16 mma.sync to NVVM
//===----------------------------------------------------------------------===//

namespace {
/// nvgpu.mma.sync m16n8k16 on bf16 with f32 accumulators as nvvm.mma.sync:
/// each row of the fragments (a pair of bf16) becomes one i32 register.
struct BF16MmaSyncToNVVM : OpRewritePattern<nvgpu::MmaSyncOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(nvgpu::MmaSyncOp op,
                                PatternRewriter &rewriter) const override {
    auto aType = cast<VectorType>(op.getMatrixA().getType());
    auto bType = cast<VectorType>(op.getMatrixB().getType());
    auto cType = cast<VectorType>(op.getMatrixC().getType());
    if (!aType.getElementType().isBF16() || !bType.getElementType().isBF16() ||
        !cType.getElementType().isF32() ||
        aType.getShape() != ArrayRef<int64_t>{4, 2} ||
        bType.getShape() != ArrayRef<int64_t>{2, 2} ||
        cType.getShape() != ArrayRef<int64_t>{2, 2} ||
        op.getMmaShapeAsArray() != std::array<int64_t, 3>{16, 8, 16})
      return rewriter.notifyMatchFailure(op, "not a bf16 m16n8k16 to f32");
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    auto registers = [&](Value fragment, int64_t count) {
      SmallVector<Value> regs;
      for (int64_t i = 0; i < count; ++i) {
        Value row = vector::ExtractOp::create(rewriter, loc, fragment,
                                              ArrayRef<int64_t>{i});
        Value packed = vector::BitCastOp::create(
            rewriter, loc, VectorType::get({1}, i32), row);
        regs.push_back(vector::ExtractOp::create(rewriter, loc, packed,
                                                 ArrayRef<int64_t>{0}));
      }
      return regs;
    };
    SmallVector<Value> a = registers(op.getMatrixA(), 4);
    SmallVector<Value> bRegs = registers(op.getMatrixB(), 2);
    SmallVector<Value> cRegs;
    for (int64_t e = 0; e < 4; ++e)
      cRegs.push_back(vector::ExtractOp::create(
          rewriter, loc, op.getMatrixC(), ArrayRef<int64_t>{e / 2, e % 2}));
    Type f32 = rewriter.getF32Type();
    auto structType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), SmallVector<Type>(4, f32));
    std::array<NVVM::MMATypes, 2> ptxTypes = {NVVM::MMATypes::bf16,
                                              NVVM::MMATypes::bf16};
    std::array<NVVM::MMALayout, 2> layouts = {NVVM::MMALayout::row,
                                              NVVM::MMALayout::col};
    Value mma = NVVM::MmaOp::create(rewriter, loc, structType, a, bRegs, cRegs,
                                    ArrayRef<int64_t>{16, 8, 16}, std::nullopt,
                                    std::nullopt, ptxTypes, layouts);
    SmallVector<Value> d;
    for (int64_t e = 0; e < 4; ++e)
      d.push_back(LLVM::ExtractValueOp::create(rewriter, loc, mma, e));
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, cType, d);
    return success();
  }
};
} // namespace

void amp::populateBF16MMAToNVVMPatterns(RewritePatternSet &patterns) {
  patterns.add<BF16MmaSyncToNVVM>(patterns.getContext());
}
