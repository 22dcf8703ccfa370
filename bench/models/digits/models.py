# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Four small classifiers for scikit-learn's bundled digits (8x8 images).

Shared by train.py (which trains and exports them) and the accuracy
benchmark (which reloads the trained weights to run PyTorch autocast on the
same network that was exported to ONNX).

Every model takes a float32 batch of images scaled to [0, 1] in the layout
`INPUT_SHAPES` gives and returns logits (N, 10). The layers are written so
that the ONNX export holds only common ops (Gemm/MatMul, Conv, Relu,
MaxPool, GlobalAveragePool, Sigmoid, Tanh, Softmax, ReduceMean, Sqrt, Div,
Reshape, Transpose, Slice/Gather, Concat): the LSTM is unrolled over the 8
rows (the same cell equations as torch.nn.LSTM) and the transformer uses a
decomposed layer norm (mean, variance, sqrt, divide), as exported
PaddleOCR models do.
"""

import torch
from torch import nn

from data import (INPUT_SHAPES, NUM_CLASSES, SEED, TEST_FRACTION,  # noqa: F401
                  as_input, load_split)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 64),
                                 nn.ReLU(), nn.Linear(64, NUM_CLASSES))

    def forward(self, x):
        return self.net(x)


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1))
        self.head = nn.Linear(64, NUM_CLASSES)

    def forward(self, x):
        return self.head(torch.flatten(self.features(x), 1))


class UnrolledLSTM(nn.Module):
    """torch.nn.LSTM's equations (gates i, f, g, o) unrolled over time."""

    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.input_gates = nn.Linear(input_size, 4 * hidden_size)
        self.hidden_gates = nn.Linear(hidden_size, 4 * hidden_size, bias=False)

    def forward(self, x):
        n, steps, _ = x.shape
        h = x.new_zeros(n, self.hidden_size)
        c = x.new_zeros(n, self.hidden_size)
        hs = self.hidden_size
        for t in range(steps):
            gates = self.input_gates(x[:, t, :]) + self.hidden_gates(h)
            i = torch.sigmoid(gates[:, 0:hs])
            f = torch.sigmoid(gates[:, hs:2 * hs])
            g = torch.tanh(gates[:, 2 * hs:3 * hs])
            o = torch.sigmoid(gates[:, 3 * hs:4 * hs])
            c = f * c + i * g
            h = o * torch.tanh(c)
        return h


class LSTM(nn.Module):
    """Reads the image row by row (8 steps of 8 pixels)."""

    def __init__(self):
        super().__init__()
        self.rnn = UnrolledLSTM(8, 64)
        self.head = nn.Linear(64, NUM_CLASSES)

    def forward(self, x):
        return self.head(self.rnn(x))


class DecomposedLayerNorm(nn.Module):
    """Layer norm from elementary ops, as PaddleOCR's exported encoders hold it."""

    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))
        self.eps = eps

    def forward(self, x):
        mean = x.mean(-1, keepdim=True)
        centered = x - mean
        var = (centered * centered).mean(-1, keepdim=True)
        return centered / torch.sqrt(var + self.eps) * self.weight + self.bias


class EncoderBlock(nn.Module):
    """Pre-norm transformer encoder block: attention, then an MLP."""

    def __init__(self, dim, heads, hidden):
        super().__init__()
        self.heads = heads
        self.norm1 = DecomposedLayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = DecomposedLayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim))

    def forward(self, x):
        n, t, d = x.shape
        hd = d // self.heads
        qkv = self.qkv(self.norm1(x)).reshape(n, t, 3, self.heads, hd).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        att = torch.softmax(torch.matmul(q, k.transpose(-1, -2)) * (hd ** -0.5), dim=-1)
        y = torch.matmul(att, v).transpose(1, 2).reshape(n, t, d)
        x = x + self.proj(y)
        return x + self.mlp(self.norm2(x))


class Transformer(nn.Module):
    """Each image row is a token: 8 tokens of 8 pixels, 2 encoder blocks."""

    def __init__(self, dim=32, heads=4, hidden=64, depth=2):
        super().__init__()
        self.embed = nn.Linear(8, dim)
        self.pos = nn.Parameter(torch.zeros(1, 8, dim))
        self.blocks = nn.Sequential(*[EncoderBlock(dim, heads, hidden) for _ in range(depth)])
        self.norm = DecomposedLayerNorm(dim)
        self.head = nn.Linear(dim, NUM_CLASSES)

    def forward(self, x):
        x = self.blocks(self.embed(x) + self.pos)
        return self.head(self.norm(x).mean(1))


MODELS = {"mlp": MLP, "cnn": CNN, "lstm": LSTM, "transformer": Transformer}
