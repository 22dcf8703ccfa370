//===- EmulateTensorCores.cpp - NVGPU warp ops on any GPU -----------------===//
//
// Part of amp, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "amp/Backend/GPU/Passes.h"
#include "amp/Backend/GPU/TensorCoreContractions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir {
namespace amp {
#define GEN_PASS_DEF_EMULATETENSORCORES
#include "amp/Backend/GPU/Passes.h.inc"
} // namespace amp
} // namespace mlir

using namespace mlir;
using namespace mlir::amp;

namespace {
/// Rewrites the warp-level NVGPU ops of one gpu.launch into code every GPU
/// runs. What a warp's lanes exchange goes through two workgroup buffers,
/// one row per thread, between workgroup barriers (the kernels that use
/// these ops run them in uniform control flow). Vector values of the ops
/// are tracked as their elements, in row-major order.
class Emulator {
public:
  Emulator(gpu::LaunchOp launch) : launch(launch), b(launch) {}

  LogicalResult run();

private:
  LogicalResult emulate(Operation *op);
  void ldmatrix(nvgpu::LdMatrixOp op);
  LogicalResult mma(nvgpu::MmaSyncOp op);
  void copy(nvgpu::DeviceAsyncCopyOp op);
  /// The elements of vector `value`: tracked, or extracted.
  SmallVector<Value> elementsOf(Value value);

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value addc(Value x, int64_t y) { return add(x, cst(y)); }

  gpu::LaunchOp launch;
  OpBuilder b;
  Location loc = launch.getLoc();
  int64_t threads = 0;
  Value tid, lane, warpBase;
  /// Per thread: the indices an ldmatrix lane gives; the fragments an mma
  /// lane holds (8 of A, 4 of B, as f32).
  Value addresses, fragments;
  DenseMap<Value, SmallVector<Value>> elements;
  /// Vector stores rewritten as scalar ones.
  SmallVector<Operation *> stored;
};
} // namespace

SmallVector<Value> Emulator::elementsOf(Value value) {
  auto it = elements.find(value);
  if (it != elements.end())
    return it->second;
  auto type = cast<VectorType>(value.getType());
  SmallVector<Value> result;
  for (int64_t i = 0; i < type.getNumElements(); ++i) {
    SmallVector<int64_t> position;
    int64_t rest = i;
    for (int64_t size : llvm::reverse(type.getShape())) {
      position.insert(position.begin(), rest % size);
      rest /= size;
    }
    result.push_back(vector::ExtractOp::create(b, loc, value, position));
  }
  return result;
}

void Emulator::ldmatrix(nvgpu::LdMatrixOp op) {
  // Each lane publishes the row address it gives.
  auto indices = op.getIndices();
  for (auto [d, index] : llvm::enumerate(indices))
    memref::StoreOp::create(
        b, loc, arith::IndexCastOp::create(b, loc, b.getI32Type(), index),
        addresses, ValueRange{tid, cst(d)});
  gpu::BarrierOp::create(b, loc);
  Value lane4 = arith::DivUIOp::create(b, loc, lane, cst(4));
  Value pair = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, lane, cst(4)), cst(2));
  auto addressOf = [&](Value source) {
    SmallVector<Value> at;
    for (unsigned d = 0; d < indices.size(); ++d)
      at.push_back(arith::IndexCastOp::create(
          b, loc, b.getIndexType(),
          memref::LoadOp::create(b, loc, addresses,
                                 ValueRange{source, cst(d)})));
    return at;
  };
  SmallVector<Value> result;
  for (int64_t tile = 0; tile < op.getNumTiles(); ++tile)
    for (int64_t half = 0; half < 2; ++half) {
      // Without transposition, lane l receives elements 2 (l % 4) and the
      // next of row l / 4 of the tile; with it, element l / 4 of rows
      // 2 (l % 4) and the next.
      SmallVector<Value> at;
      if (!op.getTranspose()) {
        at = addressOf(add(warpBase, addc(lane4, 8 * tile)));
        at.back() = add(at.back(), addc(pair, half));
      } else {
        at = addressOf(add(warpBase, addc(pair, 8 * tile + half)));
        at.back() = add(at.back(), lane4);
      }
      result.push_back(memref::LoadOp::create(b, loc, op.getSrcMemref(), at));
    }
  gpu::BarrierOp::create(b, loc);
  elements[op.getResult()] = result;
}

LogicalResult Emulator::mma(nvgpu::MmaSyncOp op) {
  auto aType = cast<VectorType>(op.getMatrixA().getType());
  std::array<int64_t, 3> shape = op.getMmaShapeAsArray();
  // m16n8k16 on 16-bit operands, or m16n8k8 in TF32 (f32 registers).
  bool halves = shape == std::array<int64_t, 3>{16, 8, 16} &&
                aType.getElementTypeBitWidth() == 16;
  bool tf32 = shape == std::array<int64_t, 3>{16, 8, 8} &&
              aType.getElementType().isF32() && op.getTf32Enabled();
  if (!halves && !tf32)
    return op.emitError("only m16n8k16 mma.sync on 16-bit operands and "
                        "m16n8k8 in TF32 are emulated");
  SmallVector<Value> a = elementsOf(op.getMatrixA());
  SmallVector<Value> bElems = elementsOf(op.getMatrixB());
  SmallVector<Value> c = elementsOf(op.getMatrixC());
  Type f32 = b.getF32Type();
  auto publish = [&](ArrayRef<Value> values, int64_t offset) {
    for (auto [i, value] : llvm::enumerate(values)) {
      Value wide = value;
      if (wide.getType() != f32)
        wide = arith::ExtFOp::create(b, loc, f32, wide);
      memref::StoreOp::create(b, loc, wide, fragments,
                              ValueRange{tid, cst(offset + i)});
    }
  };
  publish(a, 0);
  publish(bElems, 8);
  gpu::BarrierOp::create(b, loc);
  // PTX's fragment layouts. m16n8k16: A(row, k) is element 2 (row / 8 +
  // 2 (k / 8)) + k % 2 of lane 4 (row % 8) + (k % 8) / 2; B(k, col) is
  // element 2 (k / 8) + k % 2 of lane 4 col + (k % 8) / 2. m16n8k8 TF32:
  // A(row, k) is element row / 8 + 2 (k / 4) of lane 4 (row % 8) + k % 4;
  // B(k, col) is element k / 4 of lane 4 col + k % 4. Both: lane l holds
  // D(l / 4 + 8 (e / 2), 2 (l % 4) + e % 2) as its element e.
  int64_t depth = shape[2];
  Value group = arith::DivUIOp::create(b, loc, lane, cst(4));
  Value pair = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, lane, cst(4)), cst(2));
  SmallVector<Value> result;
  for (int64_t e = 0; e < 4; ++e) {
    Value col = addc(pair, e % 2);
    Value aLane = add(warpBase, arith::MulIOp::create(b, loc, group, cst(4)));
    Value bLane = add(warpBase, arith::MulIOp::create(b, loc, col, cst(4)));
    auto loop = scf::ForOp::create(
        b, loc, cst(0), cst(depth), cst(1), ValueRange{c[e]},
        [&](OpBuilder &nested, Location l, Value k, ValueRange sum) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(nested.getInsertionBlock());
          Value laneOffset, aIndex, bIndex;
          if (halves) {
            laneOffset = arith::DivUIOp::create(
                b, l, arith::RemUIOp::create(b, l, k, cst(8)), cst(2));
            Value kHigh = arith::DivUIOp::create(b, l, k, cst(8));
            Value kOdd = arith::RemUIOp::create(b, l, k, cst(2));
            // 2 (e / 2) + 4 (k / 8) + k % 2, and 8 + 2 (k / 8) + k % 2.
            aIndex = add(add(arith::MulIOp::create(b, l, kHigh, cst(4)), kOdd),
                         cst(2 * (e / 2)));
            bIndex =
                addc(add(arith::MulIOp::create(b, l, kHigh, cst(2)), kOdd), 8);
          } else {
            laneOffset = arith::RemUIOp::create(b, l, k, cst(4));
            Value kHigh = arith::DivUIOp::create(b, l, k, cst(4));
            // e / 2 + 2 (k / 4), and 8 + k / 4.
            aIndex = addc(arith::MulIOp::create(b, l, kHigh, cst(2)), e / 2);
            bIndex = addc(kHigh, 8);
          }
          Value aValue = memref::LoadOp::create(
              b, l, fragments, ValueRange{add(aLane, laneOffset), aIndex});
          Value bValue = memref::LoadOp::create(
              b, l, fragments, ValueRange{add(bLane, laneOffset), bIndex});
          Value product = arith::MulFOp::create(b, l, aValue, bValue);
          scf::YieldOp::create(
              b, l, ValueRange{arith::AddFOp::create(b, l, sum[0], product)});
        });
    result.push_back(loop.getResult(0));
  }
  gpu::BarrierOp::create(b, loc);
  elements[op.getRes()] = result;
  return success();
}

void Emulator::copy(nvgpu::DeviceAsyncCopyOp op) {
  // Synchronous: the elements past srcElements are zeros.
  auto dstType = cast<MemRefType>(op.getDst().getType());
  Value zero = arith::ConstantOp::create(
      b, loc, b.getZeroAttr(dstType.getElementType()));
  int64_t count = op.getDstElements().getZExtValue();
  for (int64_t e = 0; e < count; ++e) {
    SmallVector<Value> src(op.getSrcIndices());
    src.back() = addc(src.back(), e);
    SmallVector<Value> dst(op.getDstIndices());
    dst.back() = addc(dst.back(), e);
    Value value;
    if (Value valid = op.getSrcElements()) {
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           cst(e), valid);
      auto branch = scf::IfOp::create(
          b, loc, inside,
          [&](OpBuilder &nested, Location l) {
            scf::YieldOp::create(nested, l,
                                 ValueRange{memref::LoadOp::create(
                                     nested, l, op.getSrc(), src)});
          },
          [&](OpBuilder &nested, Location l) {
            scf::YieldOp::create(nested, l, ValueRange{zero});
          });
      value = branch.getResult(0);
    } else {
      value = memref::LoadOp::create(b, loc, op.getSrc(), src);
    }
    memref::StoreOp::create(b, loc, value, op.getDst(), dst);
  }
}

LogicalResult Emulator::emulate(Operation *op) {
  b.setInsertionPoint(op);
  loc = op->getLoc();
  if (auto ld = dyn_cast<nvgpu::LdMatrixOp>(op)) {
    ldmatrix(ld);
    return success();
  }
  if (auto m = dyn_cast<nvgpu::MmaSyncOp>(op))
    return mma(m);
  if (auto cp = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op)) {
    copy(cp);
    return success();
  }
  if (auto from = dyn_cast<vector::FromElementsOp>(op)) {
    elements[from.getResult()] = SmallVector<Value>(from.getElements());
    return success();
  }
  if (auto store = dyn_cast<vector::StoreOp>(op)) {
    // A vector store of tracked elements (the kernel's pairs of results):
    // one store per element.
    auto it = elements.find(store.getValueToStore());
    if (it == elements.end() ||
        cast<VectorType>(store.getValueToStore().getType()).getRank() != 1)
      return success();
    for (auto [i, value] : llvm::enumerate(it->second)) {
      SmallVector<Value> at(store.getIndices());
      at.back() = addc(at.back(), i);
      memref::StoreOp::create(b, loc, value, store.getBase(), at);
    }
    stored.push_back(store);
    return success();
  }
  if (auto shuffle = dyn_cast<vector::ShuffleOp>(op)) {
    if (!elements.count(shuffle.getV1()) || !elements.count(shuffle.getV2()))
      return success();
    // A shuffle of n-d vectors picks rows.
    auto type = cast<VectorType>(shuffle.getV1().getType());
    int64_t rows = type.getDimSize(0);
    int64_t rowSize = type.getNumElements() / rows;
    SmallVector<Value> v1 = elements[shuffle.getV1()];
    SmallVector<Value> v2 = elements[shuffle.getV2()];
    SmallVector<Value> result;
    for (int64_t row : shuffle.getMask()) {
      ArrayRef<Value> from = row < rows ? v1 : v2;
      int64_t r = row < rows ? row : row - rows;
      llvm::append_range(result, from.slice(r * rowSize, rowSize));
    }
    elements[shuffle.getResult()] = result;
    return success();
  }
  if (auto extract = dyn_cast<vector::ExtractOp>(op)) {
    auto it = elements.find(extract.getSource());
    if (it == elements.end())
      return success();
    auto type = cast<VectorType>(extract.getSource().getType());
    if (!extract.getDynamicPosition().empty() ||
        static_cast<int64_t>(extract.getStaticPosition().size()) !=
            type.getRank())
      return op->emitError("cannot emulate a partial or dynamic extract of a "
                           "tensor-core fragment");
    int64_t flat = 0;
    for (auto [size, index] :
         llvm::zip(type.getShape(), extract.getStaticPosition()))
      flat = flat * size + index;
    extract.getResult().replaceAllUsesWith(it->second[flat]);
    return success();
  }
  return success();
}

LogicalResult Emulator::run() {
  SmallVector<Operation *> ops;
  bool any = false;
  launch.getBody().walk([&](Operation *op) {
    ops.push_back(op);
    any |= isa<nvgpu::NVGPUDialect>(op->getDialect());
  });
  if (!any)
    return success();
  auto sizeOf = [](Value v) {
    return getConstantIntValue(getAsOpFoldResult(v)).value_or(0);
  };
  threads = sizeOf(launch.getBlockSizeX()) * sizeOf(launch.getBlockSizeY()) *
            sizeOf(launch.getBlockSizeZ());
  if (threads <= 0 || threads % 32)
    return launch.emitError(
        "tensor-core emulation needs a constant workgroup of whole warps");

  // The thread's linear id, lane and the id of lane 0 of its warp.
  b.setInsertionPointToStart(&launch.getBody().front());
  auto ids = launch.getThreadIds();
  Value sx = launch.getBlockSizeX(), sy = launch.getBlockSizeY();
  tid = add(ids.x, arith::MulIOp::create(
                       b, loc, sx,
                       add(ids.y, arith::MulIOp::create(b, loc, sy, ids.z))));
  lane = arith::RemUIOp::create(b, loc, tid, cst(32));
  warpBase = arith::SubIOp::create(b, loc, tid, lane);
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  addresses = memref::AllocOp::create(
      b, loc,
      MemRefType::get({threads, 4}, b.getI32Type(), MemRefLayoutAttrInterface(),
                      workgroup));
  fragments = memref::AllocOp::create(
      b, loc,
      MemRefType::get({threads, 12}, b.getF32Type(),
                      MemRefLayoutAttrInterface(), workgroup));

  for (Operation *op : ops)
    if (failed(emulate(op)))
      return failure();
  for (Operation *op : stored)
    op->erase();
  // The NVGPU ops and the vector ops over their fragments, users first.
  for (Operation *op : llvm::reverse(ops)) {
    if (llvm::is_contained(stored, op))
      continue;
    bool tracked = llvm::any_of(op->getResults(),
                                [&](Value v) { return elements.count(v); });
    bool extractOfTracked = false;
    if (auto extract = dyn_cast<vector::ExtractOp>(op))
      extractOfTracked = elements.count(extract.getSource());
    if (!tracked && !extractOfTracked &&
        !isa<nvgpu::NVGPUDialect>(op->getDialect()))
      continue;
    if (!op->use_empty())
      return op->emitError("a tensor-core fragment is used by an op the "
                           "emulation does not know");
    op->erase();
  }
  return success();
}

namespace {
struct EmulateTensorCores
    : amp::impl::EmulateTensorCoresBase<EmulateTensorCores> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation()->walk(
        [&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      if (failed(Emulator(launch).run()))
        return signalPassFailure();
  }
};
} // namespace
