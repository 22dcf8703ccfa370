# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""python3 -m amp.tune MODEL.mlir --inputs DIR... --precision f16|bf16 --budget ...

Finds the ops of MODEL to keep f32 so that its mixed-precision conversion
meets the budget on every input set, and writes them as a policy file
(docs/Accuracy.md, "Tuning"; docs/Policies.md). Each DIR holds one input
set: the entry's arguments as .npy files in name order (arg0.npy, ...).

    --budget max-rel=0.01,top1=1    tolerances on the outputs vs f32
    --metric FILE.py:FUNCTION       metric(f32_outputs, outputs) -> bool
    --holdout DIR...                input sets to report on, not tuned on
    --method sensitivity|bisect     amp's search, or ONNX Runtime's bisection
    --safety K                      tune so the budget holds with errors K times larger
    --emulate auto|per-op|excess    what the emulation rounds (auto: excess for bf16)
    -o POLICY.yaml                  the policy (written only on success)
    --summary FILE.json             the summary as JSON

Exit status: 0 on success, 1 when tuning fails (budget not reachable,
metric raised, interrupted), 2 on bad arguments.
"""

import argparse
import importlib.util
import json
import os
import sys

from ._core import AmpError, AmpOptionError
from ._tune import tune


def _load_metric(spec):
    path, sep, function = spec.rpartition(":")
    if not sep or not path or not function:
        raise AmpOptionError(f"--metric must be FILE.py:FUNCTION, not '{spec}'")
    if not os.path.isfile(path):
        raise AmpOptionError(f"--metric: no file '{path}'")
    module_spec = importlib.util.spec_from_file_location("amp_tune_metric", path)
    module = importlib.util.module_from_spec(module_spec)
    try:
        module_spec.loader.exec_module(module)
    except Exception as e:
        raise AmpOptionError(f"--metric: loading '{path}' raised {type(e).__name__}: {e}")
    if not callable(getattr(module, function, None)):
        raise AmpOptionError(f"--metric: '{path}' defines no function '{function}'")
    return getattr(module, function)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m amp.tune",
        description="Tune a mixed-precision policy to an accuracy budget.")
    parser.add_argument("model", help="the f32 program (MLIR)")
    parser.add_argument("--inputs", nargs="+", required=True, metavar="DIR",
                        help="input sets to tune on: directories of .npy files")
    parser.add_argument("--holdout", nargs="+", default=None, metavar="DIR",
                        help="input sets to report on, not tuned on")
    parser.add_argument("--precision", default="f16", choices=("f16", "bf16"))
    parser.add_argument("--budget", default=None,
                        help="max-abs=A,max-rel=R,top1=T (any of them)")
    parser.add_argument("--metric", default=None, metavar="FILE.py:FUNCTION")
    parser.add_argument("--method", default="sensitivity", choices=("sensitivity", "bisect"))
    parser.add_argument("--safety", default="1", metavar="K",
                        help="a margin for inputs not tuned on: the budget must hold with "
                             "every error K times as large (default 1)")
    parser.add_argument("--entry", default="main")
    parser.add_argument("--emulate", default="auto", choices=("auto", "per-op", "excess"),
                        help="what the emulation rounds: every low op's result (per-op), "
                             "or only where values enter or leave chains of elementwise "
                             "ops (excess, as amp's CPU backend computes bf16); auto: "
                             "excess for bf16")
    parser.add_argument("-o", "--output", default=None, help="the policy file to write")
    parser.add_argument("--summary", default=None, help="write the summary as JSON here")
    parser.add_argument("-q", "--quiet", action="store_true")
    args = parser.parse_args(argv)
    log = (lambda m: None) if args.quiet else (lambda m: print("amp.tune: " + m,
                                                              file=sys.stderr))
    try:
        if not os.path.isfile(args.model):
            raise AmpOptionError(f"no file '{args.model}'")
        metric = _load_metric(args.metric) if args.metric else None
        result = tune(args.model, args.inputs, precision=args.precision, budget=args.budget,
                      metric=metric, output=args.output, method=args.method,
                      holdout=args.holdout, entry=args.entry,
                      excess_precision={"auto": None, "per-op": False,
                                        "excess": True}[args.emulate],
                      safety=args.safety, log=log)
    except AmpOptionError as e:
        print(f"amp.tune: error: {e}", file=sys.stderr)
        return 2
    except AmpError as e:
        print(f"amp.tune: error: {e}", file=sys.stderr)
        return 1
    if args.output is None:
        sys.stdout.write(result.text)
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump(result.summary, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
