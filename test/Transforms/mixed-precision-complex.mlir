// RUN: amp-opt %s --split-input-file --mixed-precision=placement=greedy --verify-each | FileCheck %s
// RUN: amp-opt %s --split-input-file --mixed-precision="precision=bf16 placement=greedy" --verify-each | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %s --split-input-file --amp-test-print-policy -o /dev/null | FileCheck %s --check-prefix=POLICY

// complex<f32> scalars convert like f32 scalars: their parts take the low
// type, casts go part by part (re, im, truncf, create), complex constants
// are converted at compile time, and complex exp stays f32.
// CHECK-LABEL: func.func @complex_chain
// CHECK-SAME: (%[[A:.+]]: complex<f32>, %[[B:.+]]: complex<f32>
// CHECK-DAG: %[[RE:.+]] = complex.re %[[A]] : complex<f32>
// CHECK-DAG: %[[IM:.+]] = complex.im %[[A]] : complex<f32>
// CHECK-DAG: %[[RE16:.+]] = arith.truncf %[[RE]] : f32 to f16
// CHECK-DAG: %[[IM16:.+]] = arith.truncf %[[IM]] : f32 to f16
// CHECK: %[[A16:.+]] = complex.create %[[RE16]], %[[IM16]] : complex<f16>
// CHECK: %[[K:.+]] = complex.constant [1.500000e+00 : f16, -2.000000e+00 : f16] : complex<f16>
// CHECK: %[[MUL:.+]] = complex.mul %{{.+}}, %[[K]] : complex<f16>
// CHECK: %[[ADD:.+]] = complex.add %[[MUL]], %[[A16]] : complex<f16>
// CHECK: complex.exp %[[B]] : complex<f32>
// CHECK: complex.abs %[[ADD]] : complex<f16>
// CHECK-NOT: complex.constant {{.*}} : complex<f32>
// BF16-LABEL: func.func @complex_chain
// BF16: complex.mul %{{.+}}, %{{.+}} : complex<bf16>
// POLICY-LABEL: func.func @complex_chain
// POLICY: complex.create follow model acc=- data=(0, 1)->(0) compute=yes "moves data without arithmetic"
// POLICY: complex.constant follow model acc=- data=()->(0)
// POLICY: complex.mul follow model acc=- data=(0, 1)->(0) compute=yes "elementwise arithmetic is accurate in low precision"
// POLICY: complex.exp never model acc=- data=(0)->(0) compute=yes "complex exp and pow overflow f16"
// POLICY: complex.abs follow model acc=- data=(0)->(0)
func.func @complex_chain(%a: complex<f32>, %b: complex<f32>, %w: tensor<4x4xf32>, %x: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> (complex<f32>, f32, tensor<4x4xf32>) {
  %m = linalg.matmul ins(%w, %x : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  %c0 = arith.constant 0 : index
  %e = tensor.extract %m[%c0, %c0] : tensor<4x4xf32>
  %t = math.tanh %e : f32
  %z = complex.create %t, %t : complex<f32>
  %k = complex.constant [1.5 : f32, -2.0 : f32] : complex<f32>
  %s = complex.mul %z, %k : complex<f32>
  %s2 = complex.add %s, %a : complex<f32>
  %x2 = complex.exp %b : complex<f32>
  %r = complex.abs %s2 : complex<f32>
  return %x2, %r, %m : complex<f32>, f32, tensor<4x4xf32>
}

// -----

// Tensors of complex values convert like tensors of f32: a contraction on
// complex tensors (allowed here by the user) reads complex<low> operands,
// each cast element by element, part by part, in a linalg.generic; a dense
// complex constant is converted at compile time; the result is cast back
// for the fixed f32 signature the same way.
// CHECK-LABEL: func.func @complex_tensor_generic
// CHECK-SAME: (%[[X:.+]]: tensor<16xcomplex<f32>>, %[[W:.+]]: tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
// CHECK: %[[X16:.+]] = linalg.generic {{.*}} ins(%[[X]] : tensor<16xcomplex<f32>>) outs(%{{.+}} : tensor<16xcomplex<f16>>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: complex<f32>, %{{.+}}: complex<f16>):
// CHECK-DAG: %[[RE:.+]] = complex.re %[[IN]] : complex<f32>
// CHECK-DAG: %[[IM:.+]] = complex.im %[[IN]] : complex<f32>
// CHECK-DAG: %[[RE16:.+]] = arith.truncf %[[RE]] : f32 to f16
// CHECK-DAG: %[[IM16:.+]] = arith.truncf %[[IM]] : f32 to f16
// CHECK: complex.create %[[RE16]], %[[IM16]] : complex<f16>
// CHECK: %[[K:.+]] = arith.constant dense<[(1.500000e+00,-2.000000e+00), (2.500000e-01,1.000000e+00)]> : tensor<2xcomplex<f16>>
// CHECK: %[[R:.+]] = linalg.generic {{.*}} ins(%{{.+}}, %{{.+}}, %[[K]] : tensor<16xcomplex<f16>>, tensor<16xcomplex<f16>>, tensor<2xcomplex<f16>>)
// CHECK: complex.mul %{{.+}}, %{{.+}} : complex<f16>
// CHECK: complex.add %{{.+}}, %{{.+}} : complex<f16>
// CHECK: %[[BACK:.+]] = linalg.generic {{.*}} ins(%[[R]] : tensor<16xcomplex<f16>>) outs(%{{.+}} : tensor<16xcomplex<f32>>)
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: return %[[BACK]] : tensor<16xcomplex<f32>>
// BF16-LABEL: func.func @complex_tensor_generic
// BF16: arith.constant dense<{{.*}}> : tensor<2xcomplex<bf16>>
// BF16: complex.mul %{{.+}}, %{{.+}} : complex<bf16>
#id = affine_map<(i) -> (i)>
#k = affine_map<(i) -> (0)>
func.func @complex_tensor_generic(%x: tensor<16xcomplex<f32>>, %w: tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>> {
  %c = arith.constant dense<[(1.5, -2.0), (0.25, 1.0)]> : tensor<2xcomplex<f32>>
  %e = tensor.empty() : tensor<16xcomplex<f32>>
  %r = linalg.generic {indexing_maps = [#id, #id, #k, #id], iterator_types = ["parallel"]}
      ins(%x, %w, %c : tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<2xcomplex<f32>>)
      outs(%e : tensor<16xcomplex<f32>>) attrs = {amp.precision = #amp.precision<policy = allow>} {
  ^bb0(%a: complex<f32>, %b: complex<f32>, %k: complex<f32>, %o: complex<f32>):
    %m = complex.mul %a, %b : complex<f32>
    %s = complex.add %m, %k : complex<f32>
    linalg.yield %s : complex<f32>
  } -> tensor<16xcomplex<f32>>
  return %r : tensor<16xcomplex<f32>>
}

// -----

// Data movement on complex tensors follows: with a low-precision signature
// (keep-io-types=false is not asked for here, so the slice follows its f32
// argument and stays f32 rather than adding two casts).
// CHECK-LABEL: func.func @complex_tensor_slice
// CHECK-NOT: f16
// CHECK: return
func.func @complex_tensor_slice(%t: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %0 = tensor.extract_slice %t[0] [4] [1] : tensor<4xcomplex<f32>> to tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

// A complex constant that overflows f16 keeps its consumer in f32.
// CHECK-LABEL: func.func @complex_tensor_overflow
// CHECK: arith.constant dense<(1.000000e+05,0.000000e+00)> : tensor<4xcomplex<f32>>
// CHECK: complex.mul %{{.+}}, %{{.+}} : complex<f32>
// BF16-LABEL: func.func @complex_tensor_overflow
// BF16: complex.mul %{{.+}}, %{{.+}} : complex<bf16>
#id1 = affine_map<(i) -> (i)>
func.func @complex_tensor_overflow(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %c = arith.constant dense<(1.0e5, 0.0)> : tensor<4xcomplex<f32>>
  %e = tensor.empty() : tensor<4xcomplex<f32>>
  %r = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%x, %c : tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>)
      outs(%e : tensor<4xcomplex<f32>>) attrs = {amp.precision = #amp.precision<policy = allow>} {
  ^bb0(%a: complex<f32>, %k: complex<f32>, %o: complex<f32>):
    %m = complex.mul %a, %k : complex<f32>
    linalg.yield %m : complex<f32>
  } -> tensor<4xcomplex<f32>>
  return %r : tensor<4xcomplex<f32>>
}
