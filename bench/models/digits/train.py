#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Trains the four digits classifiers and exports them to ONNX.

    /usr/bin/python3 bench/models/digits/train.py [--out bench/models/digits] [--only mlp,cnn]

For each model in models.MODELS: trains on the fixed training split of
scikit-learn's bundled digits (seeded, CPU, single thread so that runs are
bit-reproducible), prints the held-out accuracy, and writes

  <name>.pt    the trained state dict (the accuracy benchmark reloads it to
               run PyTorch autocast on the same network);
  <name>.onnx  the model exported with torch.onnx.export (opset 13), with a
               static batch of the whole held-out split (450 images), input
               "x" and output "logits".

Needs Debian's python3-torch and python3-sklearn (bench/setup.sh).
"""

import argparse
import os
import sys
import time

import numpy as np
import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import models  # noqa: E402

# name: (epochs, learning rate)
SCHEDULE = {"mlp": (60, 2e-3), "cnn": (40, 2e-3), "lstm": (80, 3e-3),
            "transformer": (120, 2e-3)}
BATCH = 64
OPSET = 13


def train(name, x_train, y_train):
    torch.manual_seed(models.SEED)
    model = models.MODELS[name]()
    epochs, lr = SCHEDULE[name]
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)
    loss_fn = nn.CrossEntropyLoss()
    xs = torch.from_numpy(models.as_input(name, x_train))
    ys = torch.from_numpy(y_train)
    gen = torch.Generator().manual_seed(models.SEED)
    model.train()
    for _ in range(epochs):
        perm = torch.randperm(len(xs), generator=gen)
        for k in range(0, len(xs), BATCH):
            idx = perm[k:k + BATCH]
            opt.zero_grad()
            loss_fn(model(xs[idx]), ys[idx]).backward()
            opt.step()
        sched.step()
    model.eval()
    return model


def accuracy(model, name, x, y):
    with torch.no_grad():
        logits = model(torch.from_numpy(models.as_input(name, x)))
    return float((logits.argmax(1).numpy() == y).mean())


def export(model, name, batch, path):
    example = torch.zeros((batch,) + models.INPUT_SHAPES[name])
    torch.onnx.export(model, example, path, opset_version=OPSET, input_names=["x"],
                      output_names=["logits"], do_constant_folding=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=HERE)
    parser.add_argument("--only", default=",".join(models.MODELS))
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    x_train, x_test, y_train, y_test = models.load_split()
    os.makedirs(args.out, exist_ok=True)
    for name in args.only.split(","):
        if name not in models.MODELS:
            sys.exit(f"train.py: unknown model {name!r} (have {', '.join(models.MODELS)})")
        start = time.time()
        model = train(name, x_train, y_train)
        acc = accuracy(model, name, x_test, y_test)
        torch.save(model.state_dict(), os.path.join(args.out, name + ".pt"))
        export(model, name, len(x_test), os.path.join(args.out, name + ".onnx"))
        params = sum(p.numel() for p in model.parameters())
        print(f"{name}: {params} parameters, held-out accuracy {acc:.4f} "
              f"({len(x_test)} images), trained in {time.time() - start:.1f} s")


if __name__ == "__main__":
    main()
