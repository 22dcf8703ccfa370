# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ONNX Resize modes as tosa.resize parameters.

tosa.resize maps output row o to the input coordinate y = (o*D + OFF) / N
with integers N, D, OFF (scale = [N_y, D_y, N_x, D_x], offset = [OFF_y,
OFF_x]); nearest mode takes floor(y + 1/2) and bilinear interpolates between
floor(y) and floor(y) + 1, with indices clamped to the input. Every ONNX
coordinate transformation used in practice is such a rational affine map,
and each ONNX nearest rounding is floor(y + 1/2) of a shifted offset once the
scale is doubled, so these modes are imported exactly; anything else is an
error.
"""

from fractions import Fraction

from ._errors import NodeError

_MAX_SCALE = 1 << 11  # TOSA's limit for scale numerators and denominators


def _coordinate_map(coord, in_size, out_size, scale):
    """(N, D, OFF): y = (o*D + OFF) / N."""
    s = Fraction(scale).limit_denominator(1 << 10)
    if abs(float(s) - scale) > 1e-7 * scale:
        raise NodeError("scale %r is not a simple fraction" % scale)
    n, d = s.numerator, s.denominator  # y = o * d / n (asymmetric)
    if coord == "asymmetric":
        return n, d, 0
    if coord == "half_pixel" or (coord == "pytorch_half_pixel" and out_size > 1):
        # y = (o + 1/2) d/n - 1/2 = (2 o d + d - n) / (2 n)
        return 2 * n, 2 * d, d - n
    if coord == "align_corners":
        if out_size == 1:
            return 1, 1, 0
        f = Fraction(in_size - 1, out_size - 1)
        return f.denominator, f.numerator, 0
    raise NodeError("coordinate_transformation_mode=%s is not supported" % coord)


def _axis(mode, coord, nearest, in_size, out_size, scale):
    n, d, off = _coordinate_map(coord, in_size, out_size, scale)
    if mode == "nearest":
        # In the doubled system (2N, 2D) TOSA's index is
        # floor((2 o D + OFF' + N) / (2N)); pick OFF' for each rounding.
        offs = {"round_prefer_ceil": 2 * off, "floor": 2 * off - n,
                "round_prefer_floor": 2 * off - 1, "ceil": 2 * off + n - 2}
        if nearest not in offs:
            raise NodeError("nearest_mode=%s is not supported" % nearest)
        n, d, off = 2 * n, 2 * d, offs[nearest]
    if n > _MAX_SCALE or d > _MAX_SCALE:
        raise NodeError("resize scale %d/%d is too fine for tosa.resize" % (n, d))
    if not -n <= off < 16 * n:
        raise NodeError("resize offset %d is out of tosa.resize's range" % off)
    border = (out_size - 1) * d - (in_size - 1) * n + off
    if not -16 * n <= border < n:
        raise NodeError("resize from %d to %d with scale %r is out of tosa.resize's range"
                        % (in_size, out_size, scale))
    return n, d, off, border


def resize_params(mode, coord, nearest, in_hw, out_hw, scales_hw):
    """(scale[4], offset[2], border[2], TOSA mode) for the H and W axes."""
    tosa_mode = "NEAREST_NEIGHBOR" if mode == "nearest" else "BILINEAR"
    ys = _axis(mode, coord, nearest, in_hw[0], out_hw[0], scales_hw[0])
    xs = _axis(mode, coord, nearest, in_hw[1], out_hw[1], scales_hw[1])
    return [ys[0], ys[1], xs[0], xs[1]], [ys[2], xs[2]], [ys[3], xs[3]], tosa_mode
