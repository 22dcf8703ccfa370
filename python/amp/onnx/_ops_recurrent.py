# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Recurrent converters: LSTM, GRU and RNN on one scaffolding.

`_recurrent()` does what the three share: the attributes (direction,
layout, hidden_size, activations, clip, sequence_lens), the per-direction
weights and initial states, one tosa.matmul projecting the inputs of every
step at once, the loop over the (static) sequence, unrolled, forward or
reversed, and the outputs (Y, then the final states Y_h, Y_c). A cell
(`_LSTM`, `_GRU`, `_RNN`) says how many gates it has, how its bias splits
and what one step computes.
"""

import numpy as np

from ._builders import (add, clamp, concat, extract_slice, matmul, mul, need_const, opt_input,
                        reshape, sub, transpose)
from ._errors import NodeError
from ._ir import Value
from ._registry import converter

_ACTIVATIONS = {"Sigmoid": "tosa.sigmoid", "Tanh": "tosa.tanh", "Relu": None}


def _activation(em, name, v):
    if name == "Relu":
        return clamp(em, v, 0.0, np.inf)
    return em.op(_ACTIVATIONS[name], [v], [em.new(v.shape, v.dtype)])


def _direction_slice(em, v, d, shape):
    """v[d] (the direction's slice of a [num_directions, ...] input) as `shape`."""
    return reshape(em, extract_slice(em, v, [d] + [0] * (v.rank - 1),
                                      [1] + list(v.shape[1:])), shape)


class _Cell:
    """What distinguishes one recurrent op. Subclasses set the class
    attributes and implement the methods."""

    gates = 1                # gate blocks in W, R (and each half of B)
    default_acts = ()        # the activations of one direction
    state_inputs = (5,)      # input indices of the initial states (h first)

    def __init__(self, node):
        self.node = node

    def input_bias(self, em, bd, H):
        """The bias added to the input projection, shape (1, gates * H), or
        None; bd is the direction's B, shape (2 * gates * H,)."""
        G = self.gates * H
        return reshape(em, add(em, extract_slice(em, bd, [0], [G]),
                               extract_slice(em, bd, [G], [G])), (1, G))

    def prepare(self, em, inputs, d, rt, bd, H):
        """Per-direction values the steps use (rt: R[d] transposed)."""
        return {"rt": rt}

    def start(self, states, batch, H, dtype):
        """The initial states; None is a zero state not written out."""
        return states

    def step(self, em, g, states, p, acts, batch, H):
        """The states after one step; g is the step's input projection
        (with its bias), shape (batch, gates * H)."""
        raise NotImplementedError


class _LSTM(_Cell):
    """Gates i, o, f, c; optional peepholes (input P)."""

    gates = 4
    default_acts = ("Sigmoid", "Tanh", "Tanh")
    state_inputs = (5, 6)

    def __init__(self, node):
        super().__init__(node)
        if node.attr("input_forget", 0):
            raise NodeError("input_forget=1 is not supported")

    def prepare(self, em, inputs, d, rt, bd, H):
        p = opt_input(inputs, 7)
        peep = None
        if p is not None:
            pd = _direction_slice(em, p, d, (3 * H,))
            peep = [reshape(em, extract_slice(em, pd, [k * H], [H]), (1, H)) for k in range(3)]
        return {"rt": rt, "peep": peep}

    def start(self, states, batch, H, dtype):
        h, c = states
        # h = 0 drops the first step's recurrence; c = 0 is written out.
        return [h, c if c is not None else Value.constant(np.zeros((batch, H), dtype))]

    def step(self, em, g, states, p, acts, batch, H):
        h, c = states
        f_act, g_act, h_act = acts
        peep = p["peep"]
        if h is not None:
            g = add(em, g, matmul(em, h, p["rt"]))
        gi, go, gf, gc = (extract_slice(em, g, [0, k * H], [batch, H]) for k in range(4))
        if peep is not None:
            gi = add(em, gi, mul(em, peep[0], c))
            gf = add(em, gf, mul(em, peep[2], c))
        i_t = _activation(em, f_act, gi)
        f_t = _activation(em, f_act, gf)
        c_hat = _activation(em, g_act, gc)
        c = add(em, mul(em, f_t, c), mul(em, i_t, c_hat))
        if peep is not None:
            go = add(em, go, mul(em, peep[1], c))
        o_t = _activation(em, f_act, go)
        h = mul(em, o_t, _activation(em, h_act, c))
        return [h, c]


class _GRU(_Cell):
    """Gates z, r, h; the reset gate applied before the recurrence matmul
    (linear_before_reset=0) or after it (1, PyTorch's)."""

    gates = 3
    default_acts = ("Sigmoid", "Tanh")

    def __init__(self, node):
        super().__init__(node)
        self.lbr = node.attr("linear_before_reset", 0)

    def input_bias(self, em, bd, H):
        # z and r take both biases up front; h's recurrence bias stays with
        # the recurrence (it is inside the reset gate's product).
        wb = extract_slice(em, bd, [0], [3 * H])
        rb = extract_slice(em, bd, [3 * H], [3 * H])
        zr = add(em, extract_slice(em, wb, [0], [2 * H]), extract_slice(em, rb, [0], [2 * H]))
        return reshape(em, concat(em, [zr, extract_slice(em, wb, [2 * H], [H])], 0), (1, 3 * H))

    def prepare(self, em, inputs, d, rt, bd, H):
        rbh = None
        if bd is not None:
            rbh = reshape(em, extract_slice(em, bd, [5 * H], [H]), (1, H))
        return {"rt_zr": extract_slice(em, rt, [0, 0], [H, 2 * H]),
                "rt_h": extract_slice(em, rt, [0, 2 * H], [H, H]), "rbh": rbh}

    def step(self, em, g, states, p, acts, batch, H):
        (h,) = states
        f_act, g_act = acts
        dt = g.dtype
        gzr = extract_slice(em, g, [0, 0], [batch, 2 * H])
        gh = extract_slice(em, g, [0, 2 * H], [batch, H])
        if h is not None:
            gzr = add(em, gzr, matmul(em, h, p["rt_zr"]))
        z_t = _activation(em, f_act, extract_slice(em, gzr, [0, 0], [batch, H]))
        r_t = _activation(em, f_act, extract_slice(em, gzr, [0, H], [batch, H]))
        if self.lbr:
            rh = matmul(em, h, p["rt_h"]) if h is not None else Value.constant(
                np.zeros((batch, H), dt))
            if p["rbh"] is not None:
                rh = add(em, rh, p["rbh"])
            gh = add(em, gh, mul(em, r_t, rh))
        else:
            if h is not None:
                gh = add(em, gh, matmul(em, mul(em, r_t, h), p["rt_h"]))
            if p["rbh"] is not None:
                gh = add(em, gh, p["rbh"])
        h_hat = _activation(em, g_act, gh)
        # H = (1 - z) h_hat + z H_prev
        prev = h if h is not None else Value.constant(np.zeros((batch, H), dt))
        one = Value.constant(np.ones((1, 1), dt))
        return [add(em, mul(em, sub(em, one, z_t), h_hat), mul(em, z_t, prev))]


class _RNN(_Cell):
    """H = f(X W^T + H_prev R^T + Wb + Rb)."""

    gates = 1
    default_acts = ("Tanh",)

    def step(self, em, g, states, p, acts, batch, H):
        (h,) = states
        if h is not None:
            g = add(em, g, matmul(em, h, p["rt"]))
        return [_activation(em, acts[0], g)]


def _recurrent(em, node, inputs, cell):
    """Unrolled over the (static) sequence: one matmul for the input
    projections of all steps, then per step the cell's recurrence."""
    x, w, r = inputs[0], inputs[1], inputs[2]
    b, seq_lens = opt_input(inputs, 3), opt_input(inputs, 4)
    initial = [opt_input(inputs, i) for i in cell.state_inputs]
    direction = node.attr("direction", "forward")
    layout = node.attr("layout", 0)
    acts = list(node.attr("activations") or [])
    acts = [a.decode() if isinstance(a, bytes) else a for a in acts]
    # alpha and beta parametrize activations none of the supported ones take.
    node.ignore("activation_alpha", "activation_beta")
    if node.attr("clip") is not None:
        raise NodeError("clip is not supported")
    if direction not in ("forward", "reverse", "bidirectional"):
        raise NodeError("direction=%s is not supported" % direction)
    if layout not in (0, 1):
        raise NodeError("layout=%s is not supported" % layout)
    ndir = 2 if direction == "bidirectional" else 1
    per_dir = len(cell.default_acts)
    if not acts:
        acts = list(cell.default_acts) * ndir
    elif len(acts) == per_dir and ndir == 2:
        acts = acts * 2
    if len(acts) != per_dir * ndir or any(a not in _ACTIVATIONS for a in acts):
        raise NodeError("activations %s are not supported (%d per direction of Sigmoid, Tanh, "
                        "Relu)" % (acts, per_dir))
    if x.rank != 3 or w.rank != 3 or r.rank != 3:
        raise NodeError("X, W and R must be 3-D")
    if layout == 1:
        x = transpose(em, x, [1, 0, 2])
        initial = [transpose(em, v, [1, 0, 2]) if v is not None else None for v in initial]
    seq, batch, isz = x.shape
    hidden = node.attr("hidden_size")
    H = hidden if hidden is not None else r.shape[-1]
    G = cell.gates * H
    if w.shape != (ndir, G, isz) or r.shape != (ndir, G, H):
        raise NodeError("W %s and R %s do not match %d direction(s), hidden_size %d and "
                        "input size %d" % (list(w.shape), list(r.shape), ndir, H, isz))
    if b is not None and b.shape != (ndir, 2 * G):
        raise NodeError("B %s does not match W" % list(b.shape))
    if seq_lens is not None:
        lens = need_const(seq_lens, "sequence_lens").reshape(-1)
        if np.any(lens != seq):
            raise NodeError("sequence_lens shorter than the sequence are not supported")
    x2 = reshape(em, x, (seq * batch, isz))
    ys, finals = [], []
    for d in range(ndir):
        wd = _direction_slice(em, w, d, (G, isz))
        rd = _direction_slice(em, r, d, (G, H))
        proj = matmul(em, x2, transpose(em, wd, [1, 0]))
        bd = _direction_slice(em, b, d, (2 * G,)) if b is not None else None
        if bd is not None:
            proj = add(em, proj, cell.input_bias(em, bd, H))
        proj = reshape(em, proj, (seq, batch, G))
        params = cell.prepare(em, inputs, d, transpose(em, rd, [1, 0]), bd, H)
        states = [_direction_slice(em, v, d, (batch, H)) if v is not None else None
                  for v in initial]
        states = cell.start(states, batch, H, x.dtype)
        forward = direction == "forward" or (direction == "bidirectional" and d == 0)
        out = [None] * seq
        for t in (range(seq) if forward else range(seq - 1, -1, -1)):
            g = reshape(em, extract_slice(em, proj, [t, 0, 0], [1, batch, G]), (batch, G))
            states = cell.step(em, g, states, params, acts[per_dir * d:per_dir * (d + 1)],
                               batch, H)
            out[t] = reshape(em, states[0], (1, 1, batch, H))
        ys.append(concat(em, out, 0))
        finals.append([reshape(em, s, (1, batch, H)) for s in states])
    y = concat(em, ys, 1)
    ends = [concat(em, [f[k] for f in finals], 0) for k in range(len(cell.state_inputs))]
    if layout == 1:
        y = transpose(em, y, [2, 0, 1, 3])
        ends = [transpose(em, e, [1, 0, 2]) for e in ends]
    return [y] + ends


@converter("LSTM")
def _lstm(em, node, inputs):
    return _recurrent(em, node, inputs, _LSTM(node))


@converter("GRU")
def _gru(em, node, inputs):
    return _recurrent(em, node, inputs, _GRU(node))


@converter("RNN")
def _rnn(em, node, inputs):
    return _recurrent(em, node, inputs, _RNN(node))
