#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Accuracy-budget tuning on the accuracy suite's models: amp.tune against
ONNX Runtime's bisection (auto_convert_mixed_precision's search,
reimplemented over amp's policies as amp.tune(method="bisect")), same
models, budgets and inputs, side by side in one run.

    ./scripts/setup.sh && bench/setup.sh
    /usr/bin/python3 bench/tune/run.py [--models digits-mlp,ocr-rec]
        [--precisions f16,bf16] [--methods sensitivity,bisect] [--docs]

Each model's inputs are split in two: the tuner sees the first half, and
the summary reports the budget on the second (held out). The digits models
take a batch of 450: they are tuned on the split's 450 held-out images and
checked on 450 training images the tuner never sees. Budgets are the
task's: the digits' and the classifier's argmax equals f32's on every
input; the recogniser decodes every line as f32 does; the detector's text
map has IoU >= 0.99 with f32's on every page. The default conversion (no
tuning) is measured too.

Writes bench/tune/results.json and, with --docs, the "Tuning" section of
docs/Accuracy.md and docs/tune.png.
"""

import argparse
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "bench", "models", "digits"))
sys.path.insert(0, os.path.join(ROOT, "bench", "models", "ocr"))
sys.path.insert(0, os.path.join(ROOT, "bench"))
os.environ.setdefault("AMP_CAPI_LIBRARY", os.path.join(ROOT, "build", "lib", "libAmpCAPI.so"))

import numpy as np  # noqa: E402

import amp  # noqa: E402
import amp.onnx  # noqa: E402
from machine import describe as describe_machine  # noqa: E402

RESULTS = os.path.join(ROOT, "bench", "tune", "results.json")
BEGIN, END = "<!-- tune: begin -->", "<!-- tune: end -->"


class Model:
    def __init__(self, name, description, onnx_path, shapes, tune_sets, held_sets,
                 budget=None, metric=None, budget_text=""):
        self.name, self.description = name, description
        self.onnx_path, self.shapes = onnx_path, shapes
        self.tune_sets, self.held_sets = tune_sets, held_sets
        self.budget, self.metric, self.budget_text = budget, metric, budget_text


def digits(arch, tight=False):
    # The models were exported for a batch of 450 (the LSTM's initial state
    # too): tuned on the 450 held-out images of the split, checked on 450
    # training images, which the tuner never sees.
    import data
    x_train, x_test = data.load_split()[:2]
    tune, held = data.as_input(arch, x_test), data.as_input(arch, x_train[:len(x_test)])
    if tight:
        # A numeric budget that bf16's defaults miss: logits within 0.1% of
        # their largest magnitude, and the same classes.
        return Model("digits-%s-tight" % arch, arch, os.path.join(
            ROOT, "bench", "models", "digits", arch + ".onnx"), {}, [[tune]], [[held]],
            budget="max-rel=0.001,top1=1",
            budget_text="logits within 0.1% of their largest magnitude, argmax = f32's")
    return Model("digits-" + arch, arch, os.path.join(ROOT, "bench", "models", "digits",
                                                      arch + ".onnx"),
                 {}, [[tune]], [[held]],
                 budget="top1=1", budget_text="argmax = f32's on every image")


def ocr(kind):
    import ocr as o
    if not o.available():
        import subprocess
        subprocess.run([os.path.join(ROOT, "bench", "models", "ocr", "fetch.sh")], check=True)
    if kind == "rec":
        batches = o.more_rec_inputs()
        alphabet = o.keys()

        def same_text(ref, out):
            got = o.ctc_decode(out[0], alphabet)
            want = o.ctc_decode(ref[0], alphabet)
            return all(g.strip() == w.strip() for g, w in zip(got, want))
        return Model("ocr-rec", "recogniser", o.model_path("rec"), {"x": o.REC_SHAPE},
                     [[b] for b in batches[:2]], [[b] for b in batches[2:]],
                     metric=same_text, budget_text="every line decodes to f32's text")
    if kind == "det":
        pages = o.more_det_inputs()

        def iou_99(ref, out):
            return o.iou(o.det_map(out[0]), o.det_map(ref[0])) >= 0.99
        return Model("ocr-det", "detector", o.model_path("det"), {"x": o.DET_SHAPE},
                     [[p] for p in pages[:2]], [[p] for p in pages[2:]],
                     metric=iou_99, budget_text="text map IoU >= 0.99 on every page")
    batches = o.more_cls_inputs()
    return Model("ocr-cls", "direction classifier", o.model_path("cls"),
                 {"x": o.CLS_SHAPE}, [[b] for b in batches[:2]], [[b] for b in batches[2:]],
                 budget="top1=1", budget_text="class = f32's on every line")


MODELS = {
    "digits-mlp": lambda: digits("mlp"), "digits-cnn": lambda: digits("cnn"),
    "digits-lstm": lambda: digits("lstm"), "digits-transformer": lambda: digits("transformer"),
    "digits-mlp-tight": lambda: digits("mlp", True),
    "digits-cnn-tight": lambda: digits("cnn", True),
    "digits-lstm-tight": lambda: digits("lstm", True),
    "digits-transformer-tight": lambda: digits("transformer", True),
    "ocr-cls": lambda: ocr("cls"), "ocr-det": lambda: ocr("det"), "ocr-rec": lambda: ocr("rec"),
}


NOISE_TRIALS = 3


def default_conversion(text, model, precision, name):
    """The untuned conversion on the tuning and held-out inputs: whether it
    meets the budget, and its errors. Also how stable the budget is for the
    f32 program itself: the held-out input sets on which f32 misses its own
    budget when each input element moves by up to one grey level (1/255 of
    the input's range, uniform noise; NOISE_TRIALS draws). A budget that f32
    misses under noise smaller than the images' own quantisation sits at
    the noise floor: no policy can be expected to meet it on unseen
    inputs."""
    from amp._tune import Budget, _Tuner
    import tempfile
    with tempfile.TemporaryDirectory(prefix="amp-bench-tune-") as tmp:
        t = _Tuner(text, precision, Budget(model.budget, model.metric), name, "main",
                   None, tmp, lambda m: None)
        f32 = t.compile(text, "f32")
        low = t.compile(t.convert(None), "converted")
        out = {}
        for what, sets in (("tune", model.tune_sets), ("holdout", model.held_sets)):
            refs = t.run_all(f32, sets)
            ok, errors = t.budget.meets(refs, t.run_all(low, sets))
            out[what] = {"meets": ok, "errors": errors}
        rng = np.random.default_rng(0)
        unstable = 0
        refs = t.run_all(f32, model.held_sets)
        for s, ref in zip(model.held_sets, refs):
            for _ in range(NOISE_TRIALS):
                noisy = []
                for x in s:
                    step = (float(x.max()) - float(x.min())) / 255 if x.size else 0.0
                    noisy.append((x + rng.uniform(-step, step, x.shape)).astype(x.dtype)
                                 if np.issubdtype(x.dtype, np.floating) else x)
                ok, _ = t.budget.meets([ref], [f32(noisy)], safety=1)
                if not ok:
                    unstable += 1
                    break
        out["f32-unstable-sets"] = unstable
        out["held-out-sets"] = len(model.held_sets)
        return out


def bench_model(model, precisions, methods, log, safety=1.0):
    start = time.monotonic()
    text = amp.onnx.import_model(model.onnx_path, shapes=model.shapes or None)
    log(f"{model.name}: imported in {time.monotonic() - start:.1f} s")
    entries = []
    for precision in precisions:
        name = model.name + ".mlir"
        entry = {"model": model.name, "precision": precision, "budget": model.budget_text,
                 "default": default_conversion(text, model, precision, name)}
        log(f"{model.name} {precision}: default conversion "
            f"{'meets' if entry['default']['tune']['meets'] else 'misses'} the budget "
            f"(held out: {'meets' if entry['default']['holdout']['meets'] else 'misses'})")
        for method in methods:
            t0 = time.monotonic()
            result = amp.tune(text, [list(s) for s in model.tune_sets], precision=precision,
                              budget=model.budget, metric=model.metric, method=method,
                              holdout=[list(s) for s in model.held_sets], name=name,
                              safety=safety, log=lambda m: log(f"  {m}"))
            s = dict(result.summary)
            s["safety"] = safety
            s["kept"] = [r["loc"] for r in result.policy["rules"]]
            entry[method] = s
            log(f"{model.name} {precision} {method}: {len(s['kept'])} kept f32, "
                f"{100 * s['low-flops-fraction']:.1f}% FLOPs low, {s['runs']} runs "
                f"({s['real-runs']} compiled), {time.monotonic() - t0:.0f} s, held out "
                f"{'meets' if s['holdout']['meets'] else 'MISSES'}")
        entries.append(entry)
    return entries


def _pct(x):
    return f"{100 * x:.1f}%"


def table(results):
    rows = ["| model | prec | default meets (tune / held out) | f32 under noise | method "
            "| kept f32 | FLOPs low "
            "| error reached (max-rel / rms-rel) | runs (ranking + emulated + compiled) "
            "| compiles | wall | held out |",
            "|---|---|---|---|---|---:|---:|---|---|---:|---:|---|"]
    for e in results:
        d = e["default"]
        default = f"{'yes' if d['tune']['meets'] else 'no'} / " \
                  f"{'yes' if d['holdout']['meets'] else 'no'}"
        noise = (f"misses on {d['f32-unstable-sets']} of {d['held-out-sets']}"
                 if d.get("f32-unstable-sets") else
                 ("meets" if "f32-unstable-sets" in d else "—"))
        for method in ("sensitivity", "bisect"):
            s = e.get(method)
            if not s:
                continue
            label = "amp.tune" if method == "sensitivity" else "bisection"
            runs = (f"{s['runs']} ({s['sensitivity-runs']} + {s['emulated-runs']} + "
                    f"{s['real-runs']})")
            err = s["errors"]
            rows.append(f"| {e['model']} | {e['precision']} | {default} | {noise} | {label} | "
                        f"{s['kept-f32']} of {s['ops']} | {_pct(s['low-flops-fraction'])} | "
                        f"{err['max-rel']:.2g} / {err['rms-rel']:.2g} | "
                        f"{runs} | {s['compiles']} | {s['seconds']:.0f} s | "
                        f"{'meets' if s['holdout']['meets'] else '**misses**'} |")
    return "\n".join(rows)


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    labels = [f"{e['model']} {e['precision']}" for e in results
              if e.get("sensitivity") and e.get("bisect")]
    pairs = [(e["sensitivity"], e["bisect"]) for e in results
             if e.get("sensitivity") and e.get("bisect")]
    if not pairs:
        return
    fig, axes = plt.subplots(1, 3, figsize=(16, 6))
    xs = np.arange(len(pairs))
    for ax, key, title in ((axes[0], "real-runs", "compiled runs"),
                           (axes[1], "seconds", "wall time (s)"),
                           (axes[2], "low-flops-fraction", "FLOPs low")):
        a = [p[0][key] for p in pairs]
        b = [p[1][key] for p in pairs]
        ax.bar(xs - 0.2, a, 0.4, label="amp.tune")
        ax.bar(xs + 0.2, b, 0.4, label="bisection (ORT)")
        ax.set_xticks(xs)
        ax.set_xticklabels(labels, fontsize=7, rotation=45, ha="right")
        ax.set_title(title)
        if key == "low-flops-fraction":
            ax.set_ylim(0, 1.05)
    axes[0].legend()
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def tuning_minutes(results):
    return sum(e[m]["seconds"] for e in results for m in ("sensitivity", "bisect")
               if m in e) / 60


def write_docs(results, meta):
    md = os.path.join(ROOT, "docs", "Accuracy.md")
    text = open(md).read()
    body = [BEGIN,
            f"Measured on {meta['chip']}, {meta['date']}, by `bench/tune/run.py`; the "
            f"tuning runs below took {tuning_minutes(results):.0f} minutes in all.",
            "", table(results), "", "![tuning](tune.png)", END]
    section = "\n".join(body)
    if BEGIN in text:
        a, b = text.index(BEGIN), text.index(END) + len(END)
        text = text[:a] + section + text[b:]
    else:
        text = text.rstrip() + "\n\n" + section + "\n"
    open(md, "w").write(text)
    plot(results, os.path.join(ROOT, "docs", "tune.png"))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--models", default=",".join(MODELS))  # the tight budgets too
    p.add_argument("--precisions", default="f16,bf16")
    p.add_argument("--methods", default="sensitivity,bisect")
    p.add_argument("--safety", type=float, default=1.0,
                   help="amp.tune's safety margin, for both methods")
    p.add_argument("--docs", action="store_true")
    p.add_argument("--out", default=RESULTS)
    p.add_argument("--docs-only", action="store_true",
                   help="rewrite the docs from the results file, running nothing")
    args = p.parse_args()
    if args.docs_only:
        saved = json.load(open(args.out))
        order = list(MODELS)
        saved["results"].sort(key=lambda e: (order.index(e["model"]), e["precision"]))
        print(table(saved["results"]))
        write_docs(saved["results"], saved["meta"])
        return
    start = time.monotonic()
    log = lambda m: print(m, flush=True)
    results = []
    if os.path.exists(args.out):
        previous = json.load(open(args.out)).get("results", [])
    else:
        previous = []
    for name in args.models.split(","):
        if name not in MODELS:
            sys.exit(f"unknown model {name}; expected one of {', '.join(MODELS)}")
        results += bench_model(MODELS[name](), args.precisions.split(","),
                               args.methods.split(","), log, args.safety)
        # Keep what other runs measured for the models this one did not.
        done = {(e["model"], e["precision"]) for e in results}
        merged = [e for e in previous if (e["model"], e["precision"]) not in done] + results
        meta = {"chip": describe_machine(), "date": time.strftime("%Y-%m-%d"),
                "seconds": time.monotonic() - start}
        with open(args.out, "w") as f:
            json.dump({"meta": meta, "results": merged}, f, indent=1)
    order = list(MODELS)
    merged.sort(key=lambda e: (order.index(e["model"]), e["precision"]))
    print(table(merged))
    if args.docs:
        write_docs(merged, meta)


if __name__ == "__main__":
    main()
