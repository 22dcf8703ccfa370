#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The accuracy benchmark: amp's mixed precision on models with real weights and inputs.

    /usr/bin/python3 bench/accuracy/run.py                 # all models, writes docs/
    /usr/bin/python3 bench/accuracy/run.py --models digits-mlp --variants f32,amp-f16,amp-bf16 --no-docs

(after ./scripts/setup.sh and bench/setup.sh). For every model it imports the
ONNX file with amp.onnx (f32), converts it, runs every version on the CPU
(bench/accuracy/runner.py) on the same real inputs and compares them with the
f32 import:

  f32           the imported program as is (checked against ONNX Runtime when
                tools/onnx/ort is installed)
  amp-f16       amp.convert(precision="f16"): the default policy, accumulators
  amp-bf16      in f32, optimal cast placement, f32 signature
  policy-f16    amp with the policy file bench/accuracy/elementwise-f32.yaml
  policy-bf16   (elementwise add, sub, mul, div stay f32; contractions low)
  naive-f16     every op in the low type, accumulators included: the
                f32 program through amp-opt's amp-test-convert-ops{all=true
                accumulate=<low>}, which rewrites each op on its own to compute
                in the low type with casts around it (exact round trips, so
                numerically an all-low program with f32 inputs and outputs) --
                what `model.half()` does
  naive32-f16   the same with accumulators of contractions and sums kept in
  naive32-bf16  f32: "everything low" the way GPU libraries run it, which
                isolates what amp's never list (exp, erf, sqrt, softmax,
                TOSA sums) adds. (TOSA's bf16 contractions accumulate in f32
                only, so a bf16 naive-with-bf16-accumulators program is this
                same program: it is not run.)
  autocast-bf16 PyTorch's torch.autocast("cpu", dtype=torch.bfloat16) on the
                trained PyTorch model (digits only; compared with PyTorch f32)

Per version: max abs error and max rel error vs f32 (relative error over the
outputs whose magnitude is at least 1% of the largest, as in
test/Integration/compare.py), mean abs error, the task metric, the fraction of
FLOPs run in low precision (amp: the ops the JSON report decides `low`;
naive: ops on low tensors; FLOPs from shapes, bench/accuracy/flops.py), casts
inserted and weight bytes. Results go to a JSON file, docs/Accuracy.md (from
bench/accuracy/Accuracy.md.in) and docs/accuracy.png.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CACHE = os.path.join(ROOT, "bench", "models", ".cache")
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "bench", "models", "digits"))
sys.path.insert(0, os.path.join(ROOT, "bench", "models", "ocr"))
# tools/onnx/reference.py (ONNX Runtime); last, so that bench/accuracy's
# runner.py is not shadowed by tools/onnx/runner.py.
sys.path.append(os.path.join(ROOT, "tools", "onnx"))

import flops  # noqa: E402
import runner  # noqa: E402

VARIANTS = ["f32", "amp-f16", "policy-f16", "naive32-f16", "naive-f16", "amp-bf16",
            "policy-bf16", "naive32-bf16", "autocast-bf16"]
POLICY = os.path.join(HERE, "elementwise-f32.yaml")
LOW = {"f16": "f16", "bf16": "bf16"}


# --------------------------------------------------------------------------
# Models


class Model:
    """An ONNX model, its real inputs and how its task is judged."""

    name = ""
    description = ""
    shapes = {}
    opt = 0  # JIT optimisation level

    def onnx(self):
        raise NotImplementedError

    def inputs(self):
        raise NotImplementedError

    def task(self, out, ref):
        """Task metrics of output `out` given the f32 output `ref`: a dict
        with 'summary' (text), 'same' (the task result equals f32's)."""
        raise NotImplementedError

    def torch_outputs(self):
        """(f32 output, autocast bf16 output) of the PyTorch model, or None."""
        return None


class Digits(Model):
    def __init__(self, arch):
        self.arch = arch
        self.name = "digits-" + arch
        self.description = {
            "mlp": "MLP 64-128-64-10",
            "cnn": "CNN: 3 conv+BN+ReLU, max pool, global average pool, dense",
            "lstm": "LSTM over the 8 rows (hidden 64, unrolled), dense",
            "transformer": "transformer encoder, 2 blocks (dim 32, 4 heads, GELU), "
                           "decomposed layer norm",
        }[arch]
        self._split = None

    def split(self):
        if self._split is None:
            import data
            self._split = data.load_split()
        return self._split

    def onnx(self):
        return os.path.join(ROOT, "bench", "models", "digits", self.arch + ".onnx")

    def inputs(self):
        import data
        return [data.as_input(self.arch, self.split()[1])]

    def task(self, out, ref):
        y = self.split()[3]
        acc = float((out.argmax(1) == y).mean())
        agree = float((out.argmax(1) == ref.argmax(1)).mean())
        return {"accuracy": acc, "top1_agreement": agree, "same": agree == 1.0,
                "summary": "acc %.2f%%, top-1 = f32 %.1f%%" % (100 * acc, 100 * agree)}

    def torch_outputs(self):
        try:
            import torch
        except ImportError:
            return None
        import models
        torch.set_num_threads(1)
        model = models.MODELS[self.arch]()
        model.load_state_dict(torch.load(os.path.join(
            ROOT, "bench", "models", "digits", self.arch + ".pt")))
        model.eval()
        x = torch.from_numpy(self.inputs()[0])
        with torch.no_grad():
            ref = model(x).numpy()
            with torch.autocast("cpu", dtype=torch.bfloat16):
                low = model(x).float().numpy()
        return ref, low


class OCR(Model):
    def __init__(self, kind):
        self.kind = kind
        self.name = "ocr-" + kind
        import ocr
        self.ocr = ocr
        self.description = {
            "cls": "PaddleOCR text direction classifier (MobileNetV3), 8 lines, half upside down",
            "det": "PaddleOCR PP-OCRv4 text detector (DB), a 320x256 page of 4 lines",
            "rec": "PaddleOCR PP-OCRv4 recogniser (SVTR: conv + transformer encoder with "
                   "decomposed layer norm, CTC), 8 lines",
        }[kind]
        self.shapes = {"x": {"cls": ocr.CLS_SHAPE, "det": ocr.DET_SHAPE,
                             "rec": ocr.REC_SHAPE}[kind]}
        self.opt = 1 if kind == "rec" else 0

    def onnx(self):
        if not self.ocr.available():
            subprocess.run([os.path.join(ROOT, "bench", "models", "ocr", "fetch.sh")], check=True)
        return self.ocr.model_path(self.kind)

    def inputs(self):
        return [{"cls": self.ocr.cls_inputs, "det": self.ocr.det_inputs,
                 "rec": self.ocr.rec_inputs}[self.kind]()[0]]

    def task(self, out, ref):
        o = self.ocr
        if self.kind == "rec":
            # The recogniser often reads a space at a line's ends, with a
            # probability near the blank's: exact strings can differ there
            # while the text does not. Both are counted; the task is the text.
            got, want = o.ctc_decode(out), o.ctc_decode(ref)
            truth = o.rec_inputs()[1]
            exact = sum(g == w for g, w in zip(got, want))
            same = sum(g.strip() == w.strip() for g, w in zip(got, want))
            right = sum(g.strip() == t for g, t in zip(got, truth))
            n = len(got)
            return {"strings_exact": exact, "texts_equal": same, "texts_correct": right,
                    "n": n, "decoded": got, "same": same == n,
                    "summary": "%d/%d texts = f32 (%d/%d exact strings), %d/%d correct"
                               % (same, n, exact, n, right, n)}
        if self.kind == "cls":
            truth = o.cls_inputs()[1]
            agree = int((out.argmax(1) == ref.argmax(1)).sum())
            right = int((out.argmax(1) == truth).sum())
            return {"class_agreement": agree, "correct": right, "n": len(truth),
                    "same": agree == len(truth),
                    "summary": "%d/%d classes = f32, %d/%d correct" % (agree, len(truth), right,
                                                                       len(truth))}
        m, m0 = o.det_map(out), o.det_map(ref)
        iou = o.iou(m, m0)
        regions, regions0 = o.regions(m), o.regions(m0)
        differ = int((m != m0).sum())
        return {"iou": iou, "regions": regions, "regions_f32": regions0,
                "pixels_differ": differ, "same": regions == regions0 and iou >= 0.99,
                "summary": "map IoU %.4f, %d px differ, %d regions (f32 %d)"
                           % (iou, differ, regions, regions0)}


def all_models():
    return [Digits("mlp"), Digits("cnn"), Digits("lstm"), Digits("transformer"),
            OCR("cls"), OCR("det"), OCR("rec")]


# --------------------------------------------------------------------------
# Conversions


def convert(variant, f32_path, out_path):
    """Writes the program of `variant`; returns (report or None, seconds)."""
    amp_opt = runner.amp_opt()
    kind, low = variant.split("-")
    start = time.time()
    if kind in ("amp", "policy"):
        policy = POLICY if kind == "policy" else None
        try:
            import amp
            try:
                with open(f32_path) as f:
                    result = amp.convert(f.read(), precision=low, policy=policy)
            except amp.AmpError as e:
                if "cannot load amp's C API library" not in str(e):
                    raise
                raise ImportError(str(e)) from None
            with open(out_path, "w") as f:
                f.write(result.ir)
            return result.report, time.time() - start
        except ImportError:
            # No C API library: the same conversion through amp-opt.
            report = out_path + ".report.json"
            subprocess.run([amp_opt, f32_path, "-p",
                            "builtin.module(mixed-precision{precision=%s report=%s%s})"
                            % (low, report, " policy-file=" + policy if policy else ""),
                            "-o", out_path], check=True,
                           capture_output=True, text=True)
            with open(report) as f:
                return json.load(f), time.time() - start
    acc = low if kind == "naive" else "f32"
    subprocess.run([amp_opt, f32_path, "-p",
                    "builtin.module(amp-test-convert-ops{low=%s all=true accumulate=%s})"
                    % (low, acc), "-o", out_path], check=True, capture_output=True, text=True)
    return None, time.time() - start


def errors(out, ref):
    out = np.asarray(out, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    diff = np.abs(out - ref)
    big = np.abs(ref) >= 0.01 * np.abs(ref).max()
    nonfinite = int((~np.isfinite(out)).sum())
    return {"max_abs": float(diff.max()), "mean_abs": float(diff.mean()),
            "max_rel": float((diff[big] / np.abs(ref[big])).max()) if big.any() else 0.0,
            "nonfinite": nonfinite}


def bench_model(model, variants, workdir, log):
    res = {"model": model.name, "description": model.description, "variants": {}}
    onnx_path = model.onnx()
    f32_path = os.path.join(workdir, model.name + ".f32.mlir")
    import amp.onnx
    start = time.time()
    text = amp.onnx.import_model(onnx_path, shapes=model.shapes)
    with open(f32_path, "w") as f:
        f.write(text)
    log("%s: imported %s in %.1f s" % (model.name, os.path.basename(onnx_path),
                                       time.time() - start))
    ops = flops.function_ops(flops.generic_form(runner.amp_opt(), f32_path))
    total_flops = sum(flops.flops(op) for op in ops)
    res["flops"] = total_flops
    res["weight_bytes_f32"] = flops.float_constant_bytes(ops)
    inputs = model.inputs()
    start = time.time()
    (ref,) = runner.run(f32_path, inputs, opt=model.opt)
    res["run_method"] = runner.method()
    log("%s: f32 ran in %.1f s (%s)" % (model.name, time.time() - start, runner.method()))
    res["variants"]["f32"] = {"task": model.task(ref, ref), **errors(ref, ref),
                              "low_flops": 0.0, "casts": 0,
                              "weight_bytes": res["weight_bytes_f32"]}
    try:
        from reference import available, run_reference
        if available():
            import onnx
            graph = onnx.load(onnx_path).graph
            weights = {t.name for t in graph.initializer}
            names = [i.name for i in graph.input if i.name not in weights]
            (ort,) = list(run_reference(onnx_path, dict(zip(names, inputs))).values())[:1]
            res["ort"] = errors(ref, ort)
            res["ort"]["task"] = model.task(ref, ort)
    except Exception as e:  # the reference is optional
        res["ort_error"] = str(e)
    for v in variants:
        if v == "f32":
            continue
        try:
            if v.startswith("autocast"):
                t = model.torch_outputs()
                if t is None:
                    continue
                tref, tlow = t
                res["torch_f32_vs_import"] = errors(tref, ref)
                res["variants"][v] = {"task": model.task(tlow, tref), **errors(tlow, tref),
                                      "low_flops": None, "casts": None,
                                      "weight_bytes": res["weight_bytes_f32"]}
                log("%s: %s %s" % (model.name, v, res["variants"][v]["task"]["summary"]))
                continue
            path = os.path.join(workdir, "%s.%s.mlir" % (model.name, v))
            report, secs = convert(v, f32_path, path)
            low = v.split("-")[1]
            conv_ops = flops.function_ops(flops.generic_form(runner.amp_opt(), path))
            if report is not None:
                low_flops, _ = flops.low_flops_from_report(ops, report)
                n_casts = report["summary"]["casts-inserted"]
                wbytes = flops.float_constant_bytes(conv_ops)
            else:
                low_flops, _ = flops.low_flops_from_types(conv_ops, low)
                n_casts = flops.casts(conv_ops)
                wbytes = flops.float_constant_bytes(ops, elem_bytes=2)
            start = time.time()
            (out,) = runner.run(path, inputs, opt=model.opt)
            entry = {"task": model.task(out, ref), **errors(out, ref), "run_method": runner.method(),
                     "low_flops": low_flops / total_flops if total_flops else 0.0,
                     "casts": n_casts, "weight_bytes": wbytes, "convert_s": secs}
            if report is not None:
                entry["report_summary"] = report["summary"]
                entry["f32_ops"] = sorted({o["op"] for o in report["ops"] if o["mode"] == "f32"})
            res["variants"][v] = entry
            log("%s: %s ran in %.1f s: max abs %.3g, %s" % (
                model.name, v, time.time() - start, entry["max_abs"], entry["task"]["summary"]))
        except Exception as e:
            res["variants"][v] = {"error": str(e)[-2000:]}
            log("%s: %s FAILED: %s" % (model.name, v, str(e)[-500:]))
    return res


# --------------------------------------------------------------------------
# Report


LABELS = {"f32": "f32 import", "amp-f16": "amp f16", "naive32-f16": "naive f16, f32 acc",
          "naive-f16": "naive f16", "amp-bf16": "amp bf16",
          "policy-f16": "amp f16 + elementwise-f32 policy",
          "policy-bf16": "amp bf16 + elementwise-f32 policy",
          "naive32-bf16": "naive bf16, f32 acc", "naive-bf16": "naive bf16",
          "autocast-bf16": "PyTorch autocast bf16"}


def _fmt(x, pct=False):
    if x is None:
        return "—"
    if x != x:
        return "**NaN**"
    if pct:
        return "%.1f%%" % (100 * x)
    return "%.2e" % x if x else "0"


def table(results):
    rows = ["| model | version | max abs err | max rel err | mean abs err | task | "
            "low-precision FLOPs | casts | weight bytes |",
            "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        if "error" in r:
            rows.append("| %s | — | not run: %s | | | | | | |" % (r["model"], r["error"].splitlines()[0]))
            continue
        first = True
        for v in VARIANTS:
            e = r["variants"].get(v)
            if e is None:
                continue
            name = "**%s** (%.3g GFLOP)" % (r["model"], r["flops"] / 1e9) if first else ""
            first = False
            if "error" in e:
                rows.append("| %s | %s | failed: %s | | | | | | |" % (
                    name, LABELS[v], e["error"].strip().splitlines()[-1][:120]))
                continue
            rows.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                name, LABELS[v], _fmt(e["max_abs"]), _fmt(e["max_rel"]), _fmt(e["mean_abs"]),
                e["task"]["summary"], _fmt(e["low_flops"], pct=True),
                "—" if e["casts"] is None else e["casts"],
                "{:,}".format(e["weight_bytes"])))
    return "\n".join(rows)


def reference_table(results):
    rows = ["| model | f32 import vs ONNX Runtime: max abs err | task | PyTorch f32 vs import |",
            "|---|---|---|---|"]
    for r in results:
        if "error" in r:
            continue
        ort = r.get("ort")
        tv = r.get("torch_f32_vs_import")
        rows.append("| %s | %s | %s | %s |" % (
            r["model"], _fmt(ort["max_abs"]) if ort else "not checked",
            ort["task"]["summary"] if ort else "", _fmt(tv["max_abs"]) if tv else "—"))
    return "\n".join(rows)


def checks(results):
    """amp's default against naive demotion and autocast, per model and low type."""
    def cell(e, key):
        return "NaN" if e["nonfinite"] else _fmt(e[key])

    lines = []
    for r in results:
        if "error" in r:
            continue
        v = r["variants"]
        for low in ("f16", "bf16"):
            a = v.get("amp-" + low)
            if not a or "error" in a:
                continue
            for other in ("naive32-" + low, "naive-" + low, "autocast-" + low):
                o = v.get(other)
                if not o or "error" in o:
                    continue
                if a["nonfinite"] or o["nonfinite"]:
                    verdict = ("both NaN" if a["nonfinite"] and o["nonfinite"] else
                               "**amp NaN**" if a["nonfinite"] else "other NaN")
                else:
                    verdict = "/".join(
                        "≤" if a[k] <= o[k] else "**larger**" for k in ("max_abs", "mean_abs"))
                lines.append("| %s | amp %s vs %s | %s / %s | %s / %s | %s |" % (
                    r["model"], low, LABELS[other], cell(a, "max_abs"), cell(a, "mean_abs"),
                    cell(o, "max_abs"), cell(o, "mean_abs"), verdict))
    return "\n".join(["| model | comparison | amp max / mean abs err | other max / mean abs err "
                      "| amp max / mean |",
                      "|---|---|---|---|---|"] + lines)


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    shown = ["amp-f16", "policy-f16", "naive32-f16", "naive-f16", "amp-bf16", "policy-bf16",
             "naive32-bf16", "autocast-bf16"]
    colors = ["#1f77b4", "#17becf", "#9ecae1", "#c6dbef", "#d62728", "#9467bd", "#fc9272",
              "#2ca02c"]
    good = [r for r in results if "error" not in r]
    fig, axes = plt.subplots(2, 1, figsize=(11, 8), sharex=True)
    width = 0.8 / len(shown)
    for k, (v, c) in enumerate(zip(shown, colors)):
        xs, mean, top, hatch = [], [], [], []
        for i, r in enumerate(good):
            e = r["variants"].get(v)
            if e and "error" not in e:
                xs.append(i + (k - len(shown) / 2 + 0.5) * width)
                # NaN/inf outputs are drawn as a hatched bar at 10.
                mean.append(max(e["mean_abs"], 1e-9) if not e["nonfinite"] else 10.0)
                top.append(max(e["max_abs"], 1e-9) if not e["nonfinite"] else 10.0)
                hatch.append("xx" if e["nonfinite"] else "")
        for ax, ys in ((axes[0], top), (axes[1], mean)):
            bars = ax.bar(xs, ys, width, color=c, edgecolor="black", linewidth=0.3,
                          label=LABELS[v] if ax is axes[0] else None)
            for b, h in zip(bars, hatch):
                b.set_hatch(h)
    for ax, what in zip(axes, ("max abs error vs f32", "mean abs error vs f32")):
        ax.set_yscale("log")
        ax.set_ylabel(what)
        ax.grid(axis="y", alpha=0.3)
    axes[1].set_xticks(range(len(good)))
    axes[1].set_xticklabels([r["model"] for r in good])
    fig.legend(ncol=4, fontsize=8, loc="lower center")
    axes[0].set_title("amp vs naive demotion vs PyTorch autocast (lower is better; "
                      "hatched at 10: NaN outputs)")
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    fig.savefig(path, dpi=110)


def runners(results):
    """Which runner ran which programs, e.g. 'amp-run for all 60 programs'."""
    used = {}
    for r in results:
        if "error" in r:
            continue
        runs = [("%s f32" % r["model"], r.get("run_method"))]
        runs += [("%s %s" % (r["model"], v), e.get("run_method"))
                 for v, e in r["variants"].items() if v != "f32" and "run_method" in e]
        for name, m in runs:
            used.setdefault(m, []).append(name)
    if len(used) == 1:
        (m, names), = used.items()
        return "%s for all %d programs" % (m, len(names))
    return "; ".join("%s for %s" % (m, ", ".join(names)) for m, names in sorted(used.items()))


def write_docs(results, md_path, png_path, elapsed):
    with open(os.path.join(HERE, "Accuracy.md.in")) as f:
        template = f.read()
    text = (template.replace("@TABLE@", table(results))
            .replace("@REFERENCE@", reference_table(results))
            .replace("@CHECKS@", checks(results))
            .replace("@RUNNER@", runners(results))
            .replace("@ELAPSED@", "%.0f" % (elapsed / 60.0)))
    # The tuning results are bench/tune/run.py's: kept as it wrote them.
    begin, end = "<!-- tune: begin -->", "<!-- tune: end -->"
    if os.path.exists(md_path):
        old = open(md_path).read()
        if begin in old and end in old and begin in text:
            kept = old[old.index(begin):old.index(end) + len(end)]
            text = text[:text.index(begin)] + kept + text[text.index(end) + len(end):]
    with open(md_path, "w") as f:
        f.write(text)
    plot(results, png_path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", help="comma-separated model names (default: all)")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--json", default=os.path.join(CACHE, "accuracy.json"))
    ap.add_argument("--markdown", default=os.path.join(ROOT, "docs", "Accuracy.md"))
    ap.add_argument("--plot", default=os.path.join(ROOT, "docs", "accuracy.png"))
    ap.add_argument("--no-docs", action="store_true", help="do not write the markdown and plot")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--from-json", action="store_true",
                    help="write the docs from the JSON of an earlier run, running nothing")
    args = ap.parse_args()
    if args.from_json:
        with open(args.json) as f:
            saved = json.load(f)
        write_docs(saved["results"], args.markdown, args.plot, saved["elapsed_s"])
        return 0
    models = all_models()
    if args.models:
        wanted = args.models.split(",")
        unknown = set(wanted) - {m.name for m in models}
        if unknown:
            ap.error("unknown models %s (have %s)" % (", ".join(sorted(unknown)),
                                                      ", ".join(m.name for m in models)))
        models = [m for m in models if m.name in wanted]
    variants = args.variants.split(",")
    bad = set(variants) - set(VARIANTS)
    if bad:
        ap.error("unknown variants %s (have %s)" % (", ".join(sorted(bad)), ", ".join(VARIANTS)))

    def log(msg):
        if not args.quiet:
            print(msg, file=sys.stderr, flush=True)

    start = time.time()
    results = []
    with tempfile.TemporaryDirectory(prefix="amp-accuracy-") as work:
        for m in models:
            try:
                results.append(bench_model(m, variants, work, log))
            except Exception as e:
                log("%s: not run: %s" % (m.name, e))
                results.append({"model": m.name, "error": str(e)})
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump({"elapsed_s": time.time() - start, "results": results}, f, indent=1)
    for r in results:
        if "error" in r:
            print("%s: not run" % r["model"])
            continue
        for v, e in r["variants"].items():
            if "error" in e:
                print("%s %s: failed" % (r["model"], v))
            else:
                print("%s %s: max_abs=%.3g %s low_flops=%s same=%s" % (
                    r["model"], v, e["max_abs"], e["task"]["summary"],
                    _fmt(e["low_flops"], pct=True), e["task"]["same"]))
    if all("error" in r for r in results):
        log("no model ran: %s and %s left as they are" % (args.markdown, args.plot))
    elif not args.no_docs:
        write_docs(results, args.markdown, args.plot, time.time() - start)
        log("wrote %s and %s" % (args.markdown, args.plot))
    failed = [r for r in results if "error" in r or any("error" in e for e in r["variants"].values())]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
