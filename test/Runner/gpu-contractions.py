# REQUIRES: vulkan || cuda-gpu
# RUN: rm -rf %t && mkdir -p %t
# RUN: %if vulkan %{ %python %s --amp-opt amp-opt --amp-run amp-run --backend vulkan --work %t | FileCheck %s %}
# RUN: %if cuda-gpu %{ %python %s --amp-opt amp-opt --amp-run amp-run --backend cuda --work %t | FileCheck %s %}
# amp-run's Vulkan reductions shuffle within subgroups of the device's size
# where it can (the code NVIDIA's warps run; lavapipe: subgroups of 8). The
# row reductions and runs again combining through workgroup memory only:
# RUN: %if vulkan %{ %python %s --amp-opt amp-opt --amp-run amp-run --backend vulkan --work %t --rows-only --vulkan-subgroup-size 0 | FileCheck %s --check-prefix=SHUFFLE %}
# SHUFFLE-NOT: FAIL
# SHUFFLE: contractions: 60 runs, 0 failed
# The f16/bf16 contractions on the CUDA backend's tensor-core kernels
# (amp-tile-contractions-for-tensor-cores): on Vulkan with their warp-level
# ops emulated through workgroup memory (amp-emulate-tensor-cores), which
# checks their tiles, stages, zero fill and fragment layouts; on an NVIDIA
# GPU as they are (see tensor_cores below):
# RUN: %if vulkan %{ %python %s --amp-opt amp-opt --amp-run amp-run --backend vulkan --work %t --tensor-cores | FileCheck %s --check-prefix=TC %}
# RUN: %if cuda-gpu %{ %python %s --amp-opt amp-opt --amp-run amp-run --backend cuda --work %t --tensor-cores | FileCheck %s --check-prefix=TC %}
# TC-NOT: FAIL
# TC: tensor-core contractions: 134 runs, 0 failed
#
# Differential test of the GPU contraction (convolutions included, as
# implicit GEMMs) and row reduction kernels
# (amp-tile-contractions-for-gpu: tiles staged in workgroup memory,
# accumulators in registers, masked edges) against the CPU backend: every
# contraction the strategy takes, at shapes with 1, 7, 63, 129 and 1000 in
# every dimension (none a multiple of the tiles), in f32 and converted to
# f16 and bf16, on inputs uniform in +-20 and in +-1e-3. Both backends run
# the same converted program on the same inputs: the operands are the same
# low-precision values and both accumulate in f32 in the order k = 0, 1, ...
# (row reductions: see REDUCTIONS),
# so they differ only where one fuses a multiply-add and the other rounds
# the product: at most K * 2^-23 * max|a| * max|b| per element (f16 and
# bf16 products are exact in f32, so there they agree bit for bit).
#
# On a machine with an NVIDIA GPU the same cases run on it too (--backend
# cuda; bench/gpu/device-check.sh runs them without lit).
#
# CHECK-NOT: FAIL
# CHECK: contractions: 144 runs, 0 failed

import argparse
import os
import subprocess
import sys

import numpy as np

CASES = []


def case(name, a_shape, b_shape, out_shape, maps, iterators, k):
    CASES.append((name, a_shape, b_shape, out_shape, maps, iterators, k))


def ty(shape, element="f32"):
    return "tensor<%sx%s>" % ("x".join(str(d) for d in shape), element)


# (name, A shape, B shape, C shape, indexing maps, iterator types, K)
MM = ["affine_map<(m, n, k) -> (m, k)>", "affine_map<(m, n, k) -> (k, n)>",
      "affine_map<(m, n, k) -> (m, n)>"]
MM_BT = ["affine_map<(m, n, k) -> (m, k)>", "affine_map<(m, n, k) -> (n, k)>",
         "affine_map<(m, n, k) -> (m, n)>"]
MM_AT = ["affine_map<(m, n, k) -> (k, m)>", "affine_map<(m, n, k) -> (k, n)>",
         "affine_map<(m, n, k) -> (m, n)>"]
BMM = ["affine_map<(b, m, n, k) -> (b, m, k)>",
       "affine_map<(b, m, n, k) -> (b, k, n)>",
       "affine_map<(b, m, n, k) -> (b, m, n)>"]
QK = ["affine_map<(b, h, s, t, d) -> (b, h, s, d)>",
      "affine_map<(b, h, s, t, d) -> (b, h, t, d)>",
      "affine_map<(b, h, s, t, d) -> (b, h, s, t)>"]
PV = ["affine_map<(b, h, s, d, t) -> (b, h, s, t)>",
      "affine_map<(b, h, s, d, t) -> (b, h, t, d)>",
      "affine_map<(b, h, s, d, t) -> (b, h, s, d)>"]
P3 = ["parallel", "parallel", "reduction"]
case("matmul_1x129x1000", (1, 129), (129, 1000), (1, 1000), MM, P3, 129)
case("matmul_1000x7x63", (1000, 7), (7, 63), (1000, 63), MM, P3, 7)
case("matmul_63x1000x129", (63, 1000), (1000, 129), (63, 129), MM, P3, 1000)
case("matmul_129x63x1", (129, 63), (63, 1), (129, 1), MM, P3, 63)
case("matmul_7x1x7", (7, 1), (1, 7), (7, 7), MM, P3, 1)
case("matmul_bt_129x63x1000", (129, 63), (1000, 63), (129, 1000), MM_BT, P3, 63)
case("matmul_at_7x1000x129", (1000, 7), (1000, 129), (7, 129), MM_AT, P3, 1000)
case("batch_matmul_7x63x129x7", (7, 63, 129), (7, 129, 7), (7, 63, 7), BMM,
     ["parallel"] * 3 + ["reduction"], 129)
case("attention_qk", (2, 3, 63, 16), (2, 3, 129, 16), (2, 3, 63, 129), QK,
     ["parallel"] * 4 + ["reduction"], 16)
case("attention_pv", (2, 3, 63, 129), (2, 3, 129, 16), (2, 3, 63, 16), PV,
     ["parallel"] * 4 + ["reduction"], 129)


# Row reductions (amp-reduce-rows-in-workgroups): (name, rows, row length,
# combiner, identity). The workgroup combines partial results in another
# order than the loop: sums differ by at most n * 2^-23 * sum |x| per row.
REDUCTIONS = [("row_sum_7x1000", 7, 1000, "arith.addf", "0.0"),
              ("row_sum_129x63", 129, 63, "arith.addf", "0.0"),
              ("row_max_63x129", 63, 129, "arith.maximumf", "0xFF800000")]


# Runs of row ops that one workgroup per row computes reading each row once
# (amp-fuse-rows-in-workgroups): softmax(a + b) and a layer norm of a * b,
# (name, rows, row length, program). exp and the sums are computed by other
# code and in another order than on the CPU: within 1e-5 of the largest
# value (softmax: probabilities; layer norm: values of order 1 to 5).
ROW_RUNS = [("softmax_7x1000", 7, 1000, "softmax"),
            ("softmax_129x63", 129, 63, "softmax"),
            ("softmax_63x129", 63, 129, "softmax"),
            ("softmax_63x17", 63, 17, "softmax"),
            ("layernorm_7x16", 7, 16, "layernorm"),
            ("layernorm_7x1000", 7, 1000, "layernorm"),
            ("layernorm_63x129", 63, 129, "layernorm")]


def row_run_program(rows, n, kind):
    t = "tensor<%dx%dxf32>" % (rows, n)
    r = "tensor<%dxf32>" % rows
    if kind == "softmax":
        return """func.func @main(%a: {T}, %b: {T}) -> {T} {{
  %x = arith.addf %a, %b : {T}
  %e = tensor.empty() : {T}
  %s = linalg.softmax dimension(1) ins(%x : {T}) outs(%e : {T}) -> {T}
  return %s : {T}
}}
""".format(T=t)
    return """#row = affine_map<(i, j) -> (i)>
#el = affine_map<(i, j) -> (i, j)>
func.func @main(%a: {T}, %b: {T}) -> {T} {{
  %zero = arith.constant 0.0 : f32
  %n = arith.constant {N}.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %x = arith.mulf %a, %b : {T}
  %er = tensor.empty() : {R}
  %z = linalg.fill ins(%zero : f32) outs(%er : {R}) -> {R}
  %sum = linalg.generic {{indexing_maps = [#el, #row], iterator_types = ["parallel", "reduction"]}}
      ins(%x : {T}) outs(%z : {R}) {{
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }} -> {R}
  %mean = linalg.generic {{indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}}
      ins(%sum : {R}) outs(%er : {R}) {{
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  }} -> {R}
  %sq = linalg.generic {{indexing_maps = [#el, #row, #row], iterator_types = ["parallel", "reduction"]}}
      ins(%x, %mean : {T}, {R}) outs(%z : {R}) {{
  ^bb0(%v: f32, %m: f32, %acc: f32):
    %d = arith.subf %v, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %acc : f32
    linalg.yield %s : f32
  }} -> {R}
  %et = tensor.empty() : {T}
  %y = linalg.generic {{indexing_maps = [#el, #row, #row, #el], iterator_types = ["parallel", "parallel"]}}
      ins(%x, %mean, %sq : {T}, {R}, {R}) outs(%et : {T}) {{
  ^bb0(%v: f32, %m: f32, %q: f32, %o: f32):
    %var = arith.divf %q, %n : f32
    %ve = arith.addf %var, %eps : f32
    %sd = math.sqrt %ve : f32
    %d = arith.subf %v, %m : f32
    %r = arith.divf %d, %sd : f32
    linalg.yield %r : f32
  }} -> {T}
  return %y : {T}
}}
""".format(T=t, R=r, N=n)


def reduction_program(rows, n, combiner, identity):
    return """func.func @main(%a: tensor<{R}x{N}xf32>, %b: tensor<{R}x{N}xf32>) -> tensor<{R}xf32> {{
  %init = arith.constant {I} : f32
  %e = tensor.empty() : tensor<{R}xf32>
  %f = linalg.fill ins(%init : f32) outs(%e : tensor<{R}xf32>) -> tensor<{R}xf32>
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                         affine_map<(i, j) -> (i, j)>,
                                         affine_map<(i, j) -> (i)>],
                        iterator_types = ["parallel", "reduction"]}}
      ins(%a, %b : tensor<{R}x{N}xf32>, tensor<{R}x{N}xf32>) outs(%f : tensor<{R}xf32>) {{
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = {C} %p, %acc : f32
    linalg.yield %s : f32
  }} -> tensor<{R}xf32>
  return %r : tensor<{R}xf32>
}}
""".format(R=rows, N=n, C=combiner, I=identity)


# Convolutions as implicit GEMMs: (name, image NHWC, filter HWCF, strides,
# dilations).
CONVS = [("conv3x3_33x33x7_to_63", (1, 33, 33, 7), (3, 3, 7, 63), 1, 1),
         ("conv3x3_s2_2x17x17x129_to_7", (2, 17, 17, 129), (3, 3, 129, 7), 2, 1),
         ("conv3x3_d2_20x20x16_to_33", (1, 20, 20, 16), (3, 3, 16, 33), 1, 2),
         ("conv1x7_1x9x63x1_to_129", (1, 9, 63, 1), (1, 7, 1, 129), 1, 1)]


def conv_program(image, kernel, stride, dilation, element="f32"):
    n, h, w, _ = image
    kh, kw, _, f = kernel
    out = (n, (h - dilation * (kh - 1) - 1) // stride + 1,
           (w - dilation * (kw - 1) - 1) // stride + 1, f)
    return """func.func @main(%a: {A}, %b: {B}) -> {C} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {C}
  %init = linalg.fill ins(%zero : f32) outs(%e : {C}) -> {C}
  %r = linalg.conv_2d_nhwc_hwcf {{dilations = dense<{D}> : tensor<2xi64>,
                                 strides = dense<{S}> : tensor<2xi64>}}
      ins(%a, %b : {A}, {B}) outs(%init : {C}) -> {C}
  return %r : {C}
}}
""".format(A=ty(image, element), B=ty(kernel, element), C=ty(out),
           D=dilation, S=stride)


def program(a_shape, b_shape, out_shape, maps, iterators, element="f32"):
    """The contraction; with a 16-bit `element`, on operands of that type
    (what a converted program's kernels read) accumulated in f32."""
    ext = ""
    x, y = "%x", "%y"
    if element != "f32":
        ext = ("    %xe = arith.extf %x : {E} to f32\n"
               "    %ye = arith.extf %y : {E} to f32\n").format(E=element)
        x, y = "%xe", "%ye"
    return """func.func @main(%a: {A}, %b: {B}) -> {C} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {C}
  %init = linalg.fill ins(%zero : f32) outs(%e : {C}) -> {C}
  %r = linalg.generic {{indexing_maps = [{maps}],
                        iterator_types = [{its}]}}
      ins(%a, %b : {A}, {B}) outs(%init : {C}) {{
  ^bb0(%x: {E}, %y: {E}, %acc: f32):
{ext}    %p = arith.mulf {X}, {Y} : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }} -> {C}
  return %r : {C}
}}
""".format(A=ty(a_shape, element), B=ty(b_shape, element), C=ty(out_shape),
           maps=", ".join(maps), its=", ".join('"%s"' % i for i in iterators),
           E=element, ext=ext, X=x, Y=y)


def to_bf16_words(x):
    """x (f32) rounded to the nearest bf16, as amp-run's bf16 words."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def from_bf16_words(w):
    return (w.astype(np.uint32) << 16).view(np.float32)


def to_tf32(x):
    """x (f32) rounded to TF32's 10 mantissa bits, to nearest with ties away
    from zero (cvt.rna.tf32.f32), as f32."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x1000) & 0xFFFFE000).astype(np.uint32)
    return rounded.view(np.float32)


PRECISIONS = ("f32", "f16", "bf16")
MAGNITUDES = {"big": 20.0, "tiny": 1e-3}


def run_both(args, prog, stem, inputs, extra):
    """Runs `prog` on the CPU backend and on args.backend, with the
    --input option and the further options given per backend; the results
    per backend, or None (printing what amp-run said) when a run fails."""
    results = {}
    for backend in ("cpu", args.backend):
        out = "%s-%s.npy" % (stem, backend)
        run = subprocess.run(
            [args.amp_run, prog, "--entry=main", inputs[backend],
             "--backend=" + backend, "--output=" + out] +
            extra.get(backend, []),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if run.returncode != 0:
            print(run.stdout)
            return None
        results[backend] = np.load(out).astype(np.float64)
    return results


def judge(args, label, results, bound):
    """Prints the line of one run (the CPU's result against the GPU's,
    within `bound`, default 1e-5 of the largest value); True if it
    failed."""
    if results is None:
        print("%s: FAIL (amp-run)" % label)
        return True
    ref, got = results["cpu"], results[args.backend]
    if bound is None:
        bound = 1e-5 * np.abs(ref).max()
    err = np.abs(ref - got).max()
    ok = bool(err <= bound) and np.isfinite(got).all()
    print("%s: max_err=%.3g bound=%.3g %s" % (label, err, bound,
                                              "OK" if ok else "FAIL"))
    return not ok


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--amp-opt", required=True)
    parser.add_argument("--amp-run", required=True)
    parser.add_argument("--backend", default="vulkan")
    parser.add_argument("--work", required=True)
    parser.add_argument("--only", default="")
    parser.add_argument("--rows-only", action="store_true",
                        help="only the row reductions and runs")
    parser.add_argument("--vulkan-subgroup-size", default=None)
    parser.add_argument("--tensor-cores", action="store_true",
                        help="only the f16/bf16 contractions, on the "
                        "tensor-core kernels (on Vulkan: emulated)")
    args = parser.parse_args()
    rng = np.random.default_rng(41)
    runs = failed = 0
    def contraction_bound(k):
        return lambda a, b: k * 2.0**-23 * np.abs(a).max() * np.abs(b).max()

    def reduction_bound(n, combiner):
        if combiner != "arith.addf":
            return lambda a, b: 0.0  # max is exact in any order
        return lambda a, b: n * 2.0**-23 * np.abs(a * b).sum(axis=1).max()

    if args.tensor_cores:
        return tensor_cores(args, rng)
    cases = [(name, program(a, b, out, maps, its), a, b, contraction_bound(k))
             for name, a, b, out, maps, its, k in CASES
             if not args.rows_only]
    cases += [(name, reduction_program(rows, n, combiner, identity),
               (rows, n), (rows, n), reduction_bound(n, combiner))
              for name, rows, n, combiner, identity in REDUCTIONS]
    cases += [(name, row_run_program(rows, n, kind), (rows, n), (rows, n),
               lambda a, b: None)
              for name, rows, n, kind in ROW_RUNS]
    cases += [(name, conv_program(image, kernel, stride, dilation), image,
               kernel, contraction_bound(kernel[0] * kernel[1] * kernel[2]))
              for name, image, kernel, stride, dilation in CONVS
              if not args.rows_only]
    for name, text, a_shape, b_shape, bound_of in cases:
        if args.only and args.only not in name:
            continue
        src = os.path.join(args.work, name + ".mlir")
        with open(src, "w") as f:
            f.write(text)
        for precision in PRECISIONS:
            prog = src
            if precision != "f32":
                prog = os.path.join(args.work, "%s-%s.mlir" % (name, precision))
                subprocess.run([args.amp_opt, src,
                                "--mixed-precision=precision=" + precision,
                                "-o", prog], check=True)
            for magnitude, scale in MAGNITUDES.items():
                stem = os.path.join(args.work, "%s-%s-%s" % (name, precision,
                                                            magnitude))
                a = (rng.uniform(-1, 1, a_shape) * scale).astype(np.float32)
                b = (rng.uniform(-1, 1, b_shape) * scale).astype(np.float32)
                np.save(stem + "-a.npy", a)
                np.save(stem + "-b.npy", b)
                inputs = "--input=%s-a.npy,%s-b.npy" % (stem, stem)
                extra = {}
                if (args.backend == "vulkan" and
                        args.vulkan_subgroup_size is not None):
                    extra["vulkan"] = ["--vulkan-subgroup-size=" +
                                       args.vulkan_subgroup_size]
                results = run_both(args, prog, stem,
                                   {"cpu": inputs, args.backend: inputs},
                                   extra)
                runs += 1
                failed += judge(
                    args, "%s %s %s" % (name, precision, magnitude), results,
                    None if results is None else
                    bound_of(a.astype(np.float64), b.astype(np.float64)))
    print("contractions: %d runs, %d failed" % (runs, failed))
    return 1 if failed else 0


def tensor_cores(args, rng):
    """The contractions on tensor-core kernels (amp-tile-contractions-for-
    tensor-cores): converted programs (their operands rounded by a fused
    prologue, staged through registers), programs whose operands are
    f16/bf16 already (staged by cp.async where rows allow), and f32
    programs with --tf32 (against the CPU on operands rounded to TF32). The products
    are exact in f32 but the mma sums them in another order than the CPU:
    at most K^2 2^-23 max|a| max|b| per element, while a wrong fragment,
    tile or zero fill is off by the size of the values themselves."""
    def bound(k):
        return lambda a, b: k * k * 2.0**-23 * np.abs(a).max() * np.abs(b).max()

    cases = []
    for name, a, b, out, maps, its, k in CASES:
        cases.append((name, "convert", program(a, b, out, maps, its), a, b,
                      bound(k)))
        # A product with a dimension of 1 becomes a matrix-vector or outer
        # product once unit dimensions are folded: no contraction for
        # tensor cores, so it stays exact f32 even with --tf32.
        if 1 not in out[-2:] and k != 1:
            cases.append((name, "tf32", program(a, b, out, maps, its), a, b,
                          bound(k)))
        for element in ("f16", "bf16"):
            cases.append((name, element,
                          program(a, b, out, maps, its, element), a, b,
                          bound(k)))
    for name, image, kernel, stride, dilation in CONVS:
        k = kernel[0] * kernel[1] * kernel[2]
        cases.append((name, "convert",
                      conv_program(image, kernel, stride, dilation), image,
                      kernel, bound(k)))
        cases.append((name, "tf32",
                      conv_program(image, kernel, stride, dilation), image,
                      kernel, bound(k)))
        for element in ("f16", "bf16"):
            cases.append((name, element,
                          conv_program(image, kernel, stride, dilation,
                                       element), image, kernel, bound(k)))
    runs = failed = 0
    for name, kind, text, a_shape, b_shape, bound_of in cases:
        if args.only and args.only not in name:
            continue
        src = os.path.join(args.work, "tc-%s-%s.mlir" % (name, kind))
        with open(src, "w") as f:
            f.write(text)
        precisions = ("f16", "bf16") if kind == "convert" else (kind,)
        for precision in precisions:
            prog = src
            if kind == "convert":
                prog = os.path.join(args.work, "tc-%s-%s.mlir" % (name,
                                                                  precision))
                subprocess.run([args.amp_opt, src,
                                "--mixed-precision=precision=" + precision,
                                "-o", prog], check=True)
            for magnitude, scale in MAGNITUDES.items():
                stem = os.path.join(args.work, "tc-%s-%s-%s-%s" % (
                    name, kind, precision, magnitude))
                a = (rng.uniform(-1, 1, a_shape) * scale).astype(np.float32)
                b = (rng.uniform(-1, 1, b_shape) * scale).astype(np.float32)
                if kind == "f16":
                    a, b = a.astype(np.float16), b.astype(np.float16)
                    saved = (a, b)
                    a, b = a.astype(np.float32), b.astype(np.float32)
                elif kind == "bf16":
                    saved = (to_bf16_words(a), to_bf16_words(b))
                    a, b = from_bf16_words(saved[0]), from_bf16_words(saved[1])
                else:
                    saved = (a, b)
                np.save(stem + "-a.npy", saved[0])
                np.save(stem + "-b.npy", saved[1])
                inputs = {backend: "--input=%s-a.npy,%s-b.npy" % (stem, stem)
                          for backend in ("cpu", args.backend)}
                if kind == "tf32":
                    # The CPU computes in f32 on the operands rounded as
                    # TF32 rounds them (their products are exact in f32).
                    a, b = to_tf32(a), to_tf32(b)
                    np.save(stem + "-a-tf32.npy", a)
                    np.save(stem + "-b-tf32.npy", b)
                    inputs["cpu"] = "--input=%s-a-tf32.npy,%s-b-tf32.npy" % (
                        stem, stem)
                extra = {args.backend: []}
                if args.backend == "vulkan":
                    extra["vulkan"].append("--vulkan-emulate-tensor-cores")
                if kind == "tf32":
                    extra[args.backend].append("--tf32")
                results = run_both(args, prog, stem, inputs, extra)
                runs += 1
                label = "%s %s %s" % (name, kind if kind != "convert" else
                                      "converted-" + precision, magnitude)
                failed += judge(
                    args, label, results,
                    bound_of(a.astype(np.float64), b.astype(np.float64)))
    print("tensor-core contractions: %d runs, %d failed" % (runs, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
