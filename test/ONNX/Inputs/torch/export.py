"""Regenerates the PyTorch-exported test models (not a test).

    /usr/bin/python3 test/ONNX/Inputs/torch/export.py    # needs python3-torch

Writes <name>.onnx (torch.onnx.export, opset 14, dynamic axes), the input
<name>.x.npy and PyTorch's own output <name>.y.npy for three small seeded
models: a CNN (conv, batch norm, grouped conv, hard-swish, bilinear
upsampling, ceil-mode max pool, adaptive average pool, linear, softmax), a
transformer encoder layer (GELU) and a 2-layer bidirectional LSTM.
"""
import os

import numpy as np
import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
torch.manual_seed(0)


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.c2 = nn.Conv2d(8, 8, 3, stride=2, padding=1, groups=4)
        self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        y = torch.relu(self.bn(self.c1(x)))
        y = self.up(nn.functional.hardswish(self.c2(y)))
        y = nn.functional.max_pool2d(y, 3, 2, 1, ceil_mode=True)
        return torch.softmax(self.fc(torch.flatten(self.pool(y), 1)), -1)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True,
                                                activation="gelu")

    def forward(self, x):
        return self.layer(x)


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(5, 8, num_layers=2, bidirectional=True, batch_first=True)
        self.fc = nn.Linear(16, 3)

    def forward(self, x):
        return self.fc(self.lstm(x)[0])


MODELS = [("cnn", CNN(), (1, 3, 16, 20), {0: "n", 2: "h", 3: "w"}),
          ("encoder", Encoder(), (2, 6, 16), {0: "n", 1: "t"}),
          ("lstm", Tagger(), (1, 7, 5), {0: "n", 1: "t"})]

if __name__ == "__main__":
    for name, m, shape, dyn in MODELS:
        m.eval()
        if name == "cnn":  # batch-norm statistics that are not the identity
            m.bn.running_mean.uniform_(-0.5, 0.5)
            m.bn.running_var.uniform_(0.5, 2.0)
        x = torch.randn(*shape)
        with torch.no_grad():
            y = m(x)
        torch.onnx.export(m, x, os.path.join(HERE, name + ".onnx"), input_names=["x"],
                          output_names=["y"], opset_version=14, dynamic_axes={"x": dyn})
        np.save(os.path.join(HERE, name + ".x.npy"), x.numpy())
        np.save(os.path.join(HERE, name + ".y.npy"), y.numpy())
        print(name, "exported")
