"""Regenerates the PyTorch-exported control-flow test model (not a test).

    /usr/bin/python3 test/ONNX/Inputs/torch/export_control_flow.py   # needs torch

Writes control_flow.onnx (torch.jit.script + torch.onnx.export, opset 14:
data-dependent nested `if`s become ONNX If nodes, one branch holds an LSTM,
and a `for` over the sequence length becomes a Loop) with inputs
control_flow.x<k>.npy and PyTorch's own outputs control_flow.y<k>.npy for
inputs that take different branches.
"""
import os

import numpy as np
import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)


class ControlFlow(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(6, 8)
        self.lstm = nn.LSTM(6, 8)
        self.rec = nn.Linear(8, 8)

    def forward(self, x):
        # x: [T, 1, 6]
        if x.sum() > 0:
            if x.mean() > 0.5:
                h = torch.tanh(self.proj(x[-1]))
            else:
                h = torch.relu(self.proj(x[0]))
        else:
            _, (hn, cn) = self.lstm(x)
            h = hn[0]
        for t in range(x.size(0)):
            h = torch.tanh(self.rec(h)) + 0.5 * h
        return h


def main():
    m = torch.jit.script(ControlFlow().eval())
    xs = [torch.randn(5, 1, 6).abs() + 0.6, torch.randn(5, 1, 6).abs() * 0.1,
          -torch.randn(5, 1, 6).abs()]
    path = os.path.join(HERE, "control_flow.onnx")
    torch.onnx.export(m, (xs[0],), path, input_names=["x"], output_names=["y"],
                      opset_version=14)
    with torch.no_grad():
        for k, x in enumerate(xs):
            np.save(os.path.join(HERE, "control_flow.x%d.npy" % k), x.numpy())
            np.save(os.path.join(HERE, "control_flow.y%d.npy" % k), m(x).numpy())


if __name__ == "__main__":
    main()
