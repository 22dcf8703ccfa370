# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""numpy (f64) results of the functions of test/Runner/cpu-kernels.mlir.

    kernels_reference.py NAME INPUT_DIR OUTPUT.npy
"""
import os
import sys

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def windows(x, size, stride, dilation):
    """x (n, h, w, c) as (n, oh, ow, c, kh, kw) windows."""
    span = dilation * (size - 1) + 1
    v = sliding_window_view(x, (span, span), axis=(1, 2))
    return v[:, ::stride, ::stride, :, ::dilation, ::dilation]


def const_filter():
    f, i, j, c = np.meshgrid(range(4), range(3), range(3), range(3), indexing="ij")
    return ((7 * f + 5 * i + 3 * j + c) % 11 - 5) / 8.0


def main():
    name, inputs, out = sys.argv[1:]
    arg = lambda i: np.load(os.path.join(inputs, "arg%d.npy" % i)).astype(np.float64)
    if name == "conv":
        ref = np.einsum("nhwcij,ijcf->nhwf", windows(arg(0), 3, 2, 1), arg(1))
    elif name == "conv_const":
        ref = np.einsum("nhwcij,fijc->nhwf", windows(arg(0), 3, 1, 1), const_filter())
    elif name == "depthwise":
        ref = np.einsum("nhwcij,ijc->nhwc", windows(arg(0), 3, 1, 2), arg(1))
    elif name == "matmul":
        ref = arg(0) @ arg(1)
    elif name == "matmul_epilogue":
        ref = np.maximum(arg(0) @ arg(1) + arg(2), 0) * 0.5
    elif name == "conv_dilated":
        x = np.pad(arg(0), ((0, 0), (4, 4), (4, 4), (0, 0)))
        ref = np.einsum("nhwcij,ijcf->nhwf", windows(x, 3, 1, 4), arg(1))
    elif name == "conv_blocked":
        ref = np.maximum(np.einsum("nhwcij,ijcf->nhwf", windows(arg(0), 3, 1, 1), arg(1)) + arg(2), 0)
    elif name == "row_reductions":
        x = arg(0)
        ref = (x * x).sum(axis=1) - x[:, :8].max(axis=1)
    elif name == "pool":
        ref = windows(arg(0), 3, 2, 1).max(axis=(4, 5))
    else:
        sys.exit("unknown function " + name)
    np.save(out, ref.astype(np.float32))


if __name__ == "__main__":
    main()
