// An LSTM cell run for 8 timesteps in an scf.for loop that carries h and c
// (and the sequence of outputs) as tensor iter_args, in linalg on tensors,
// run on the CPU in f32 and again after --mixed-precision has converted it
// to f16 (then bf16); the results must agree within the tolerances below.
// Batch 4, input 16, hidden 16:
//
//   z  = x_t Wx + h Wh + b                     (4x64: two matmuls, bias)
//   i, f, o = sigmoid(z[:, 0:16]), sigmoid(z[:, 16:32]), sigmoid(z[:, 48:64])
//   g  = tanh(z[:, 32:48])
//   c' = f c + i g;   h' = o tanh(c');   seq[4t:4t+4] = h'
//
// sigmoid(v) = 1 / (1 + exp(-v)) is a private function called for three
// gates, so the pass converts its signature together with its calls.
// The result is the whole output sequence (32x16) and the final c (4x16).
//
// REQUIRES: mlir-runner
// DEFINE: %{run} = mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so
//
// f32 reference: the program as written (it agrees with an f64 model of
// the recurrence to the printed precision).
// RUN: bash %S/lower.sh mlir-opt %s | %{run} > %t.f32.txt
//
// What the pass makes of it (checked below): both matmuls take low
// operands (x_t, h cast down each step, the weights once before the loop)
// with f32 accumulators; the bias add, the gate slices and tanh(g) follow
// them into low precision; @sigmoid reads the low gate and computes exp in
// f32; the cell update and h' take f32 inputs and stay f32.
//
// Tolerances. u is the unit roundoff (f16 2^-11 = 4.9e-4, bf16 2^-8 =
// 3.9e-3). The gate pre-activations lie in |z| <= 3.35; they come from
// rounded x, W and h, and are rounded three times (both matmul results and
// their sum): ~u|z| typically, 3u|z| with every rounding aligned. The gates
// pass that on damped (sigmoid' <= 1/4; tanh' <= 1 plus one rounding of
// |g| < 1), and c' = f c + i g adds about (|c| + 1)/4 * dz + dg per step;
// the forget gate (< 0.97) shrinks the earlier steps' errors, and the
// roundings of different steps are independent, so 8 steps do not add up
// linearly. |h| <= 0.81 and |c| <= 1.27. atol = 2u max|z| (f16 3e-3, bf16
// 2.5e-2); measured 4.3e-4 and 4.4e-3. rtol = 4u (f16 2e-3, bf16 1.6e-2)
// on the elements >= 50% of each output's maximum (measured 1.0u and
// 1.3u); smaller elements are covered by atol. --min-abs-err (f16 5e-5,
// bf16 5e-4) asserts that low precision was used: a run that stayed f32
// differs by ~1e-6.
//
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16 placement=greedy})' -o %t.f16.mlir
// RUN: FileCheck %s --check-prefix=IR -DLOW=f16 < %t.f16.mlir
// RUN: FileCheck %s --check-prefix=NOLOW < %t.f16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.f16.mlir | %{run} > %t.f16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.f16.txt --atol 3e-3 --rtol 2e-3 --rel-floor 0.5 --min-abs-err 5e-5 | FileCheck %s --check-prefix=NUM
//
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16 placement=greedy})' -o %t.bf16.mlir
// RUN: FileCheck %s --check-prefix=IR -DLOW=bf16 < %t.bf16.mlir
// RUN: FileCheck %s --check-prefix=NOLOW < %t.bf16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.bf16.mlir | %{run} > %t.bf16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.bf16.txt --atol 2.5e-2 --rtol 1.6e-2 --rel-floor 0.5 --min-abs-err 5e-4 | FileCheck %s --check-prefix=NUM
//
// The default (optimal) placement, which may keep more in f32 where that
// moves fewer bytes, within the same tolerances:
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=f16})' -o %t.opt16.mlir
// RUN: FileCheck %s --check-prefix=NOLOW < %t.opt16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.opt16.mlir | %{run} > %t.opt16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.opt16.txt --atol 3e-3 --rtol 2e-3 --rel-floor 0.5 --min-abs-err 5e-5 | FileCheck %s --check-prefix=NUM
// RUN: amp-opt %s -p 'builtin.module(mixed-precision{precision=bf16})' -o %t.optbf16.mlir
// RUN: FileCheck %s --check-prefix=NOLOW < %t.optbf16.mlir
// RUN: bash %S/lower.sh mlir-opt %t.optbf16.mlir | %{run} > %t.optbf16.txt
// RUN: %python %S/compare.py %t.f32.txt %t.optbf16.txt --atol 2.5e-2 --rtol 1.6e-2 --rel-floor 0.5 --min-abs-err 5e-4 | FileCheck %s --check-prefix=NUM
//
// NUM: max_abs_err={{.*}} OK
//
// No exp in low precision anywhere:
// NOLOW-NOT: math.exp {{.*}} : {{b?f16}}

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#v = affine_map<(i) -> (i)>

// IR-LABEL:  func.func private @sigmoid(
// IR-SAME:     tensor<4x16x[[LOW]]>) -> tensor<4x16xf32>
// IR:            math.exp {{.*}} : f32
// IR:          return {{.*}} : tensor<4x16xf32>

// sigmoid(z) = 1 / (1 + exp(-z)), as a private function called for three gates.
func.func private @sigmoid(%z: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %a : f32
    %ex = math.exp %n : f32
    %d = arith.addf %ex, %one : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  return %s : tensor<4x16xf32>
}

// IR-LABEL:  func.func @compute(
// IR-SAME:     -> (tensor<32x16xf32>, tensor<4x16xf32>)
// IR:          scf.for
// IR:          linalg.matmul ins({{.*}} : tensor<4x16x[[LOW]]>, tensor<16x64x[[LOW]]>) outs({{.*}} : tensor<4x64xf32>)
// IR:          linalg.matmul ins({{.*}} : tensor<4x16x[[LOW]]>, tensor<16x64x[[LOW]]>) outs({{.*}} : tensor<4x64xf32>)
// IR:          linalg.generic {{.*}} ins({{.*}} : tensor<4x64x[[LOW]]>, tensor<4x64x[[LOW]]>, tensor<64x[[LOW]]>) outs({{.*}} : tensor<4x64x[[LOW]]>)
// IR-COUNT-4:  tensor.extract_slice {{.*}} : tensor<4x64x[[LOW]]> to tensor<4x16x[[LOW]]>
// IR-COUNT-3:  func.call @sigmoid({{.*}}) : (tensor<4x16x[[LOW]]>) -> tensor<4x16xf32>
// IR:            math.tanh {{.*}} : [[LOW]]
// The cell update and h' are f32.
// IR:          linalg.generic {{.*}} ins({{.*}} : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) outs({{.*}} : tensor<4x16xf32>)
// IR:          linalg.generic {{.*}} ins({{.*}} : tensor<4x16xf32>, tensor<4x16xf32>) outs({{.*}} : tensor<4x16xf32>)
// IR:            math.tanh {{.*}} : f32
// IR:          scf.yield
// IR:          return {{.*}} : tensor<32x16xf32>, tensor<4x16xf32>
func.func @compute(%xs: tensor<32x16xf32>, %wx: tensor<16x64xf32>, %wh: tensor<16x64xf32>,
                   %b: tensor<64xf32>, %h0: tensor<4x16xf32>, %c0: tensor<4x16xf32>)
    -> (tensor<32x16xf32>, tensor<4x16xf32>) {
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %i4 = arith.constant 4 : index
  %i8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %e4x64 = tensor.empty() : tensor<4x64xf32>
  %e4x16 = tensor.empty() : tensor<4x16xf32>
  %z4x64 = linalg.fill ins(%zero : f32) outs(%e4x64 : tensor<4x64xf32>) -> tensor<4x64xf32>
  %seq0 = tensor.empty() : tensor<32x16xf32>
  %hc:3 = scf.for %t = %i0 to %i8 step %i1 iter_args(%h = %h0, %c = %c0, %seq = %seq0)
      -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<32x16xf32>) {
    %row = arith.muli %t, %i4 : index
    %xt = tensor.extract_slice %xs[%row, 0] [4, 16] [1, 1] : tensor<32x16xf32> to tensor<4x16xf32>
    %zx = linalg.matmul ins(%xt, %wx : tensor<4x16xf32>, tensor<16x64xf32>)
                        outs(%z4x64 : tensor<4x64xf32>) -> tensor<4x64xf32>
    %zh = linalg.matmul ins(%h, %wh : tensor<4x16xf32>, tensor<16x64xf32>)
                        outs(%z4x64 : tensor<4x64xf32>) -> tensor<4x64xf32>
    %z = linalg.generic {indexing_maps = [#id, #id, #col, #id], iterator_types = ["parallel", "parallel"]}
        ins(%zx, %zh, %b : tensor<4x64xf32>, tensor<4x64xf32>, tensor<64xf32>)
        outs(%e4x64 : tensor<4x64xf32>) {
    ^bb0(%p: f32, %q: f32, %r: f32, %o: f32):
      %s = arith.addf %p, %q : f32
      %u = arith.addf %s, %r : f32
      linalg.yield %u : f32
    } -> tensor<4x64xf32>
    // Gates: input, forget, cell candidate, output.
    %zi = tensor.extract_slice %z[0, 0] [4, 16] [1, 1] : tensor<4x64xf32> to tensor<4x16xf32>
    %zf = tensor.extract_slice %z[0, 16] [4, 16] [1, 1] : tensor<4x64xf32> to tensor<4x16xf32>
    %zg = tensor.extract_slice %z[0, 32] [4, 16] [1, 1] : tensor<4x64xf32> to tensor<4x16xf32>
    %zo = tensor.extract_slice %z[0, 48] [4, 16] [1, 1] : tensor<4x64xf32> to tensor<4x16xf32>
    %ig = func.call @sigmoid(%zi) : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %fg = func.call @sigmoid(%zf) : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %og = func.call @sigmoid(%zo) : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %gg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%zg : tensor<4x16xf32>) outs(%e4x16 : tensor<4x16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %th = math.tanh %a : f32
      linalg.yield %th : f32
    } -> tensor<4x16xf32>
    // c' = f * c + i * g;  h' = o * tanh(c'). Both are written into the
    // buffers of c and h (outs), which one-shot-bufferize needs to keep the
    // loop's iter_args in place.
    %cn = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%fg, %ig, %gg : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>)
        outs(%c : tensor<4x16xf32>) {
    ^bb0(%fv: f32, %iv: f32, %gv: f32, %cv: f32):
      %fc = arith.mulf %fv, %cv : f32
      %ic = arith.mulf %iv, %gv : f32
      %s = arith.addf %fc, %ic : f32
      linalg.yield %s : f32
    } -> tensor<4x16xf32>
    %hn = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%og, %cn : tensor<4x16xf32>, tensor<4x16xf32>) outs(%h : tensor<4x16xf32>) {
    ^bb0(%ov: f32, %cv: f32, %o: f32):
      %th = math.tanh %cv : f32
      %r = arith.mulf %ov, %th : f32
      linalg.yield %r : f32
    } -> tensor<4x16xf32>
    %seqn = tensor.insert_slice %hn into %seq[%row, 0] [4, 16] [1, 1] : tensor<4x16xf32> into tensor<32x16xf32>
    scf.yield %hn, %cn, %seqn : tensor<4x16xf32>, tensor<4x16xf32>, tensor<32x16xf32>
  }
  return %hc#2, %hc#1 : tensor<32x16xf32>, tensor<4x16xf32>
}

// v[i][j] = s * sin(a i + b j + c)
func.func @fill2d(%m: memref<?x?xf32>, %a: f32, %b: f32, %c: f32, %s: f32) {
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%m : memref<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %fj = arith.sitofp %jj : i32 to f32
    %x = arith.mulf %fi, %a : f32
    %y = arith.mulf %fj, %b : f32
    %xy = arith.addf %x, %y : f32
    %z = arith.addf %xy, %c : f32
    %t = math.sin %z : f32
    %r = arith.mulf %t, %s : f32
    linalg.yield %r : f32
  }
  return
}

// The driver. Its inputs are written by linalg.generic ops on memrefs in
// the public helper @fill2d, which the pass leaves in f32 (its argument
// buffer keeps f32, as public functions keep their signatures with the
// default keep-io-types, and writing it through a low copy would only add
// copies), and turned into tensors with bufferization.to_tensor,
// which has no model and stays f32; so every run sees bit-identical inputs:
//   x[4t + n][k] = sin(0.37 (4t + n) + 0.11 k)
//   Wx = 0.3 sin(0.23 i - 0.41 j + 0.5),  Wh = 0.3 sin(0.19 i + 0.53 j - 0.2)
//   b = 0.1 sin(0.33 j + 0.1),  h0 = 0.1 sin(.),  c0 = 0.2 sin(.)
// IR-LABEL:  func.func @main(
// IR:          call @compute({{.*}}) -> (tensor<32x16xf32>, tensor<4x16xf32>)
func.func @main() {
  %mxs = memref.alloc() : memref<32x16xf32>
  %dxs = memref.cast %mxs : memref<32x16xf32> to memref<?x?xf32>
  %xs_a = arith.constant 0.37 : f32
  %xs_b = arith.constant 0.11 : f32
  %xs_c = arith.constant 0.0 : f32
  %xs_s = arith.constant 1.0 : f32
  call @fill2d(%dxs, %xs_a, %xs_b, %xs_c, %xs_s) : (memref<?x?xf32>, f32, f32, f32, f32) -> ()
  %xs = bufferization.to_tensor %mxs restrict : memref<32x16xf32> to tensor<32x16xf32>
  %mwx = memref.alloc() : memref<16x64xf32>
  %dwx = memref.cast %mwx : memref<16x64xf32> to memref<?x?xf32>
  %wx_a = arith.constant 0.23 : f32
  %wx_b = arith.constant -0.41 : f32
  %wx_c = arith.constant 0.5 : f32
  %wx_s = arith.constant 0.3 : f32
  call @fill2d(%dwx, %wx_a, %wx_b, %wx_c, %wx_s) : (memref<?x?xf32>, f32, f32, f32, f32) -> ()
  %wx = bufferization.to_tensor %mwx restrict : memref<16x64xf32> to tensor<16x64xf32>
  %mwh = memref.alloc() : memref<16x64xf32>
  %dwh = memref.cast %mwh : memref<16x64xf32> to memref<?x?xf32>
  %wh_a = arith.constant 0.19 : f32
  %wh_b = arith.constant 0.53 : f32
  %wh_c = arith.constant -0.2 : f32
  %wh_s = arith.constant 0.3 : f32
  call @fill2d(%dwh, %wh_a, %wh_b, %wh_c, %wh_s) : (memref<?x?xf32>, f32, f32, f32, f32) -> ()
  %wh = bufferization.to_tensor %mwh restrict : memref<16x64xf32> to tensor<16x64xf32>
  %mb = memref.alloc() : memref<1x64xf32>
  %db = memref.cast %mb : memref<1x64xf32> to memref<?x?xf32>
  %b_a = arith.constant 0.0 : f32
  %b_b = arith.constant 0.33 : f32
  %b_c = arith.constant 0.1 : f32
  %b_s = arith.constant 0.1 : f32
  call @fill2d(%db, %b_a, %b_b, %b_c, %b_s) : (memref<?x?xf32>, f32, f32, f32, f32) -> ()
  %mb1 = memref.collapse_shape %mb [[0, 1]] : memref<1x64xf32> into memref<64xf32>
  %b = bufferization.to_tensor %mb1 restrict : memref<64xf32> to tensor<64xf32>
  %mh0 = memref.alloc() : memref<4x16xf32>
  %dh0 = memref.cast %mh0 : memref<4x16xf32> to memref<?x?xf32>
  %h0_a = arith.constant 0.7 : f32
  %h0_b = arith.constant 0.3 : f32
  %h0_c = arith.constant 0.2 : f32
  %h0_s = arith.constant 0.1 : f32
  call @fill2d(%dh0, %h0_a, %h0_b, %h0_c, %h0_s) : (memref<?x?xf32>, f32, f32, f32, f32) -> ()
  %h0 = bufferization.to_tensor %mh0 restrict : memref<4x16xf32> to tensor<4x16xf32>
  %mc0 = memref.alloc() : memref<4x16xf32>
  %dc0 = memref.cast %mc0 : memref<4x16xf32> to memref<?x?xf32>
  %c0_a = arith.constant -0.45 : f32
  %c0_b = arith.constant 0.61 : f32
  %c0_c = arith.constant 0.9 : f32
  %c0_s = arith.constant 0.2 : f32
  call @fill2d(%dc0, %c0_a, %c0_b, %c0_c, %c0_s) : (memref<?x?xf32>, f32, f32, f32, f32) -> ()
  %c0 = bufferization.to_tensor %mc0 restrict : memref<4x16xf32> to tensor<4x16xf32>
  %hc:2 = call @compute(%xs, %wx, %wh, %b, %h0, %c0)
      : (tensor<32x16xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<4x16xf32>, tensor<4x16xf32>)
      -> (tensor<32x16xf32>, tensor<4x16xf32>)
  // Stored into ranked f32 memrefs, which the pass keeps f32 (an unranked view of it is printed), and
  // printed from there (see README.md in this directory).
  %mh = memref.alloc() : memref<32x16xf32>
  %mc = memref.alloc() : memref<4x16xf32>
  bufferization.materialize_in_destination %hc#0 in restrict writable %mh
      : (tensor<32x16xf32>, memref<32x16xf32>) -> ()
  bufferization.materialize_in_destination %hc#1 in restrict writable %mc
      : (tensor<4x16xf32>, memref<4x16xf32>) -> ()
  %uh = memref.cast %mh : memref<32x16xf32> to memref<*xf32>
  %uc = memref.cast %mc : memref<4x16xf32> to memref<*xf32>
  call @printMemrefF32(%uh) : (memref<*xf32>) -> ()
  call @printMemrefF32(%uc) : (memref<*xf32>) -> ()
  memref.dealloc %mxs : memref<32x16xf32>
  memref.dealloc %mwx : memref<16x64xf32>
  memref.dealloc %mwh : memref<16x64xf32>
  memref.dealloc %mb : memref<1x64xf32>
  memref.dealloc %mh0 : memref<4x16xf32>
  memref.dealloc %mc0 : memref<4x16xf32>
  memref.dealloc %mh : memref<32x16xf32>
  memref.dealloc %mc : memref<4x16xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)
