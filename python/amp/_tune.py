# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Accuracy-budget tuning: the most low-precision program that meets a
tolerance, in few runs (docs/Accuracy.md, "Tuning").

    policy = amp.tune(f32_text, inputs=[[x0], [x1]], precision="bf16",
                      budget="max-rel=0.01,top1=1", output="policy.yaml")

How (method="sensitivity", the default):

1. The f32 program runs on every input: the reference.
2. amp-emulate-precision turns the program into an f32 one that rounds to
   the low type where the converted program would, each op's rounding
   behind a gate read from an extra argument. It is compiled once (amp's
   ahead-of-time compiler, called in-process through ctypes), so a candidate
   policy is an input vector, not a recompile.
3. Sensitivity: one run per gate with only that gate on measures each op's
   own contribution to the output error. Ops are ranked by it.
4. Search: the fewest top-ranked ops kept f32 such that the emulated
   program meets the budget, by doubling then bisecting over the ranking.
5. Verification: the real converted program (mixed-precision with the
   policy) is compiled and run on every input; if it misses the budget, the
   next ops of the ranking join the f32 set until it meets it.

method="bisect" is the baseline that ONNX Runtime's
auto_convert_mixed_precision uses, over amp's policies: it converts and
runs the real program for every candidate, starting from all ops f32 and
trying the largest undecided segment of ops (in program order) low,
splitting segments that fail.

A policy selects ops by their location names (`loc:` rules), which ONNX
import gives every op (the node's name); programs written by hand get
`file:line:col` names from the file name given as `name`.
"""

import ctypes
import json
import math
import os
import re
import signal
import tempfile
import time

from ._core import AmpError, AmpOptionError, Context

_HEADER_PARAM = re.compile(r"^\s*(const )?(\w+) \*(arg|result)(\d+) /\* (\S+) (\w+) \*/")
_C_TYPES = {"float": "float32", "double": "float64", "int32_t": "int32",
            "int64_t": "int64", "uint16_t": "uint16"}


def _numpy():
    import numpy
    return numpy


class _Library:
    """A library amp compiled (amp.compile), called in-process: one
    pointer per argument and result, dense and row-major."""

    def __init__(self, path, header, function):
        np = _numpy()
        self.args, self.results = [], []
        with open(header) as f:
            for line in f:
                m = _HEADER_PARAM.match(line)
                if not m:
                    continue
                ctype, role, shape, element = m.group(2), m.group(3), m.group(5), m.group(6)
                dims = () if shape == "scalar" else tuple(int(d) for d in shape.split("x"))
                dtype = np.dtype(_C_TYPES[ctype])
                (self.args if role == "arg" else self.results).append(
                    (dims, dtype, element))
        self._lib = ctypes.CDLL(os.path.abspath(path))
        self._fn = getattr(self._lib, function)
        self._fn.restype = ctypes.c_int
        self._fn.argtypes = [ctypes.c_void_p] * (len(self.args) + len(self.results))

    def __call__(self, arrays):
        np = _numpy()
        keep = [np.ascontiguousarray(a) for a in arrays]
        outs = [np.empty(dims, dtype) for dims, dtype, _ in self.results]
        status = self._fn(*[a.ctypes.data for a in keep], *[o.ctypes.data for o in outs])
        if status != 0:
            raise AmpError(f"the compiled program returned {status}")
        return outs


class Budget:
    """A tolerance on outputs, relative to the f32 program's: `max-abs`
    (largest absolute difference), `max-rel` (largest difference over the
    output's largest magnitude), `top1` (fraction of rows, over the last
    axis, whose argmax equals f32's); or a metric callable
    `metric(reference_outputs, outputs) -> bool` per input set.

    `safety` K > 1 is a margin for inputs not tuned on: the verdict is taken
    on outputs whose difference from f32's is K times the real one
    (f32 + K (low - f32)), so a policy passes only where its error is K
    times smaller than what the budget allows (an argmax flips only where
    the error exceeds half the gap between the two largest scores, and
    inputs not seen have gaps of their own)."""

    KEYS = ("max-abs", "max-rel", "top1")

    def __init__(self, budget=None, metric=None, safety=1.0):
        self.limits = {}
        self.metric = metric
        try:
            self.safety = float(safety)
        except (TypeError, ValueError):
            raise AmpOptionError(f"tune: safety must be a number, not {safety!r}") from None
        if not math.isfinite(self.safety) or self.safety < 1:
            raise AmpOptionError(f"tune: safety must be a finite number >= 1, not {safety!r}")
        if budget is None and metric is None:
            raise AmpOptionError("tune: give a budget (e.g. 'max-rel=0.01') or a metric")
        if metric is not None and not callable(metric):
            raise AmpOptionError(f"tune: metric must be callable, not {metric!r}")
        if isinstance(budget, str):
            items = {}
            for part in budget.split(","):
                key, eq, value = part.strip().partition("=")
                if not eq:
                    raise AmpOptionError(f"tune: budget entry '{part}' is not KEY=VALUE "
                                         f"(keys: {', '.join(self.KEYS)})")
                items[key.strip()] = value.strip()
            budget = items
        if budget is not None:
            if not isinstance(budget, dict):
                raise AmpOptionError(f"tune: budget must be a str or dict, not {budget!r}")
            for key, value in budget.items():
                if key not in self.KEYS:
                    raise AmpOptionError(f"tune: unknown budget '{key}'; expected "
                                         f"{', '.join(self.KEYS)}")
                try:
                    number = float(value)
                except (TypeError, ValueError):
                    raise AmpOptionError(f"tune: budget {key} must be a number, "
                                         f"not {value!r}") from None
                if not math.isfinite(number) or number < 0 or (key == "top1" and number > 1):
                    raise AmpOptionError(f"tune: budget {key}={value} is out of range")
                self.limits[key] = number

    def describe(self):
        parts = [f"{k}={v:g}" for k, v in self.limits.items()]
        if self.metric is not None:
            parts.append("metric " + getattr(self.metric, "__name__", "callable"))
        if self.safety != 1:
            parts.append(f"safety {self.safety:g}")
        return ", ".join(parts)

    @staticmethod
    def errors(refs, outs):
        """max-abs, max-rel and top1 over all input sets and outputs."""
        np = _numpy()
        worst_abs, worst_rel, agree, rows = 0.0, 0.0, 0, 0
        sq_diff, sq_ref = 0.0, 0.0
        for ref_set, out_set in zip(refs, outs):
            for r, o in zip(ref_set, out_set):
                r = r.astype(np.float64)
                o = o.astype(np.float64)
                with np.errstate(invalid="ignore"):
                    diff = np.abs(o - r)
                d = float(np.max(diff)) if diff.size else 0.0
                if not np.all(np.isfinite(o)) or math.isnan(d):
                    d = math.inf
                scale = float(np.max(np.abs(r))) if r.size else 0.0
                worst_abs = max(worst_abs, d)
                if math.isfinite(d):
                    sq_diff += float(np.sum(diff * diff))
                else:
                    sq_diff = math.inf
                sq_ref += float(np.sum(r * r))
                worst_rel = max(worst_rel, d / scale if scale > 0 else (0.0 if d == 0 else math.inf))
                if r.ndim >= 1 and r.shape[-1] > 1:
                    agree += int((r.argmax(-1) == o.argmax(-1)).sum())
                    rows += int(np.prod(r.shape[:-1]))
        rms = math.sqrt(sq_diff / sq_ref) if sq_ref > 0 else (0.0 if sq_diff == 0 else math.inf)
        return {"max-abs": worst_abs, "max-rel": worst_rel,
                "top1": agree / rows if rows else 1.0, "rms-rel": rms}

    def meets(self, refs, outs, safety=None):
        """(meets the budget, the errors): the errors are the outputs' own;
        the verdict is taken with the error scaled by `safety` (default:
        the budget's)."""
        e = self.errors(refs, outs)
        factor = self.safety if safety is None else safety
        if factor != 1:
            outs = [[_amplify(r, o, factor) for r, o in zip(ref_set, out_set)]
                    for ref_set, out_set in zip(refs, outs)]
            e, real = self.errors(refs, outs), e
        else:
            real = e
        ok = all(e[k] >= v if k == "top1" else e[k] <= v for k, v in self.limits.items())
        if ok and self.metric is not None:
            for k, (ref_set, out_set) in enumerate(zip(refs, outs)):
                try:
                    verdict = self.metric(list(ref_set), list(out_set))
                except Exception as ex:
                    raise AmpError(f"tune: the metric raised on input set {k}: "
                                   f"{type(ex).__name__}: {ex}") from ex
                if not verdict:
                    ok = False
                    break
        return ok, real


def _amplify(ref, out, k):
    np = _numpy()
    if not (np.issubdtype(out.dtype, np.floating) and np.issubdtype(ref.dtype, np.floating)):
        return out
    r = ref.astype(np.float64)
    return (r + k * (out.astype(np.float64) - r)).astype(out.dtype)


class TuneResult:
    """What amp.tune found: the policy (a dict with a 'rules' list, as
    amp.convert takes it), its text (YAML with a comment per rule) and a
    summary dict (low FLOPs, errors, runs, wall time)."""

    def __init__(self, policy, text, summary):
        self.policy, self.text, self.summary = policy, text, summary

    def __repr__(self):
        s = self.summary
        return (f"TuneResult({len(self.policy['rules'])} ops kept f32, "
                f"{100 * s['low-flops-fraction']:.1f}% FLOPs low, {s['runs']} runs)")


def _load_input_dir(path):
    """The arrays of one input set: DIR's .npy files in name order (arg0.npy,
    arg1.npy, ... as amp-run writes them)."""
    np = _numpy()
    if not os.path.isdir(path):
        raise AmpOptionError(f"tune: input set '{path}' is not a directory of .npy files")
    names = sorted((f for f in os.listdir(path) if f.endswith(".npy")),
                   key=lambda n: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", n)])
    if not names:
        raise AmpOptionError(f"tune: no .npy files in '{path}'")
    return [np.load(os.path.join(path, n)) for n in names]


def _input_sets(inputs):
    np = _numpy()
    if isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise AmpOptionError("tune: inputs must be a non-empty list of input sets (each a "
                             "list of arrays, or a directory of .npy files)")
    sets = []
    for s in inputs:
        if isinstance(s, (str, os.PathLike)):
            sets.append(_load_input_dir(os.fspath(s)))
        elif isinstance(s, (list, tuple)):
            sets.append([np.asarray(a) for a in s])
        else:
            raise AmpOptionError("tune: each input set is a list of arrays or a directory, "
                                 f"not {type(s).__name__}")
    return sets


def _check_inputs(lib, sets, what):
    np = _numpy()
    for k, arrays in enumerate(sets):
        if len(arrays) != len(lib.args):
            raise AmpOptionError(f"tune: {what} set {k} has {len(arrays)} arrays; the "
                                 f"function takes {len(lib.args)}")
        for i, (a, (dims, dtype, element)) in enumerate(zip(arrays, lib.args)):
            if tuple(a.shape) != dims:
                shape = "x".join(map(str, dims)) or "scalar"
                raise AmpOptionError(f"tune: {what} set {k} argument {i} has shape "
                                     f"{'x'.join(map(str, a.shape))}; the function takes "
                                     f"{shape} {element}")
            if a.dtype != dtype:
                if a.dtype.kind != dtype.kind:
                    raise AmpOptionError(f"tune: {what} set {k} argument {i} has dtype "
                                         f"{a.dtype}; the function takes {element}")
                arrays[i] = a.astype(dtype)


class _Tuner:
    def __init__(self, text, precision, budget, name, entry, options, workdir, log,
                 excess_precision=False):
        self.text, self.precision, self.budget = text, precision, budget
        self.excess_precision = excess_precision
        self.name, self.entry, self.options = name, entry, dict(options or {})
        self.workdir, self.log = workdir, log
        # Runs of a program on all tuning inputs: to rank ops (one op low
        # each), to try a candidate policy in the emulated program, and to
        # run the real converted program (a compile each).
        self.sensitivity_runs = 0
        self.emulated_runs = 0
        self.real_runs = 0
        self.compiles = 0
        self.compile_seconds = 0.0
        self.counter = 0

    def compile(self, text, what):
        from ._run import compile as amp_compile
        self.counter += 1
        lib = os.path.join(self.workdir, f"lib{self.counter}.so")
        header = os.path.join(self.workdir, f"lib{self.counter}.h")
        start = time.monotonic()
        amp_compile(text, lib, entry=self.entry, header=header, function="amp_tuned",
                    name=f"{self.name} ({what})")
        self.compile_seconds += time.monotonic() - start
        self.compiles += 1
        return _Library(lib, header, "amp_tuned")

    def run_all(self, lib, sets, extra=()):
        return [lib(list(s) + list(extra)) for s in sets]

    def emulation(self, policy=None, gates_only=False):
        """(emulated text, gates) for the decisions under `policy`; with
        `gates_only`, (None, gates): the modes the policy gives each op."""
        from ._convert import mixed_precision_options
        gates_path = os.path.join(self.workdir, "gates.json")
        policy_file = self._policy_file(policy)
        options = mixed_precision_options(precision=self.precision,
                                          policy_file=policy_file, **self.options)
        options = [o for o in options if not o.startswith("explain=")]
        options += [f"entry={self.entry}", f"gates={gates_path}",
                    f"excess-precision={'true' if self.excess_precision else 'false'}",
                    f"gates-only={'true' if gates_only else 'false'}"]
        pipeline = "builtin.module(amp-emulate-precision{" + " ".join(options) + "})"
        with Context() as ctx, ctx.parse(self.text, self.name) as module:
            try:
                module.run_pipeline(pipeline)
            except AmpError as e:
                raise AmpError("tune: amp-emulate-precision failed", e.diagnostics) from None
            text = None if gates_only else module.print()
        with open(gates_path) as f:
            gates = json.load(f)
        return text, gates

    def low_flops(self, policy):
        """The fraction of FLOPs the pass makes low under `policy`."""
        _, gates = self.emulation(policy, gates_only=True)
        low = sum(int(g["flops"]) for g in gates["gates"] if g["mode"] == "low")
        return low / max(int(gates["total-flops"]), 1)

    def _policy_file(self, policy):
        if not policy or not policy.get("rules"):
            return None
        self.counter += 1
        path = os.path.join(self.workdir, f"policy{self.counter}.json")
        with open(path, "w") as f:
            json.dump(policy, f)
        return path

    def convert(self, policy):
        from ._convert import convert
        return convert(self.text, precision=self.precision, policy=policy or None,
                       name=self.name, **self.options).ir

    def evaluate_real(self, policy, sets, refs):
        lib = self.compile(self.convert(policy), "converted")
        outs = self.run_all(lib, sets)
        self.real_runs += 1
        return self.budget.meets(refs, outs)


def _rules(locs):
    return {"rules": [{"loc": loc, "policy": "never"} for loc in locs]}


def _policy_text(kept, header):
    lines = ["# " + h for h in header]
    lines.append("rules:" if kept else "rules: []")
    for loc, comment in kept:
        lines.append(f"  # {comment}")
        lines.append(f"  - loc: {json.dumps(loc)}")
        lines.append("    policy: never")
    return "\n".join(lines) + "\n"


def _write_atomically(path, text):
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".amp-tune-", dir=directory)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def tune(ir, inputs, precision="f16", budget=None, metric=None, output=None,
         method="sensitivity", holdout=None, entry="main", name=None, options=None,
         excess_precision=None, safety=1.0, log=None):
    """Finds the ops to keep f32 so that the program converted to
    `precision` meets the budget on every input set, keeping as many FLOPs
    low as it can.

    ir:        the f32 program (MLIR text), or a path to it.
    inputs:    input sets to tune on: each a list of arrays (one per
               argument of `entry`), or a directory of .npy files.
    budget:    "max-abs=A,max-rel=R,top1=T" (any of them) or a dict.
    metric:    metric(f32_outputs, outputs) -> bool, per input set; with a
               budget too, both must hold.
    output:    write the policy (YAML, a comment per rule) here; written
               only when tuning succeeds (nothing is left behind otherwise).
    method:    "sensitivity" (ranking, then search; default) or "bisect"
               (ONNX Runtime's segment bisection, the baseline).
    holdout:   input sets not tuned on: the summary reports the budget's
               errors and verdict on them.
    options:   further mixed-precision options, as amp.convert takes them
               (e.g. {"accumulate": "f32"}).
    excess_precision: emulate a target that computes chains of low
               elementwise ops in f32, as amp's CPU backend does in bf16,
               where the policy is verified; None (default) does so for
               bf16; False emulates a target that rounds every op's result.
    safety:    a margin K >= 1 for inputs not tuned on: the budget must
               hold on the tuning inputs with every error K times as large
               (the held-out verdict is taken at K = 1).
    log:       a callable that receives progress lines.

    Returns a TuneResult. Raises AmpOptionError on bad arguments or inputs
    that do not match the function, and AmpError when the budget cannot be
    met even with every op f32, or when the metric raises.
    """
    start = time.monotonic()
    if log is None:
        log = lambda msg: None
    if isinstance(ir, (str, os.PathLike)) and not str(ir).lstrip().startswith(("module", "func", "#", "//", "\"")) \
            and os.path.isfile(os.fspath(ir)):
        path = os.fspath(ir)
        with open(path) as f:
            ir = f.read()
        name = name or path
    if not isinstance(ir, str):
        raise AmpOptionError(f"tune: ir must be MLIR text or a path, not {type(ir).__name__}")
    name = name or "<input>"
    if precision not in ("f16", "bf16"):
        raise AmpOptionError(f"tune: precision must be f16 or bf16, not {precision!r}")
    if method not in ("sensitivity", "bisect"):
        raise AmpOptionError(f"tune: method must be 'sensitivity' or 'bisect', not {method!r}")
    if output is not None and not os.path.isdir(os.path.dirname(os.path.abspath(output))):
        raise AmpOptionError(f"tune: cannot write '{output}': no such directory")
    budget = Budget(budget, metric, safety)
    if options is not None:
        import inspect
        from ._convert import mixed_precision_options
        known = set(inspect.signature(mixed_precision_options).parameters) - {
            "precision", "policy_file", "explain", "report", "graph"}
        if not isinstance(options, dict) or set(options) - known:
            bad = sorted(set(options) - known) if isinstance(options, dict) else options
            raise AmpOptionError(f"tune: options takes mixed-precision options "
                                 f"({', '.join(sorted(known))}), not {bad!r}")
    sets = _input_sets(inputs)
    held = _input_sets(holdout) if holdout else []

    with tempfile.TemporaryDirectory(prefix="amp-tune-") as workdir:
        if excess_precision is None:
            excess_precision = precision == "bf16"
        t = _Tuner(ir, precision, budget, name, entry, options, workdir, log,
                   excess_precision=bool(excess_precision))
        # SIGTERM ends a run as Ctrl-C does: nothing written, temporaries gone.
        previous = None
        if hasattr(signal, "SIGTERM"):
            try:
                previous = signal.signal(signal.SIGTERM, _raise_interrupt)
            except ValueError:  # not the main thread
                previous = None
        try:
            result = _tune(t, sets, held, method, start)
        except KeyboardInterrupt:
            raise AmpError("tune: interrupted; no policy written") from None
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
    if output is not None:
        _write_atomically(output, result.text)
    return result


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt


def _tune(t, sets, held, method, start):
    log = t.log
    f32 = t.compile(t.text, "f32")
    _check_inputs(f32, sets, "input")
    if held:
        _check_inputs(f32, held, "holdout")
    refs = t.run_all(f32, sets)
    ok, _ = t.budget.meets(refs, refs)
    if not ok:
        raise AmpError("tune: the budget is not met even with every op in f32 (the metric "
                       "rejects the f32 program's own outputs); no policy written")

    emulated_text, gates = t.emulation()
    # What a policy can keep f32: the location names of the ops low by
    # default (several ops can share one: an ONNX node made of several ops).
    locs, flops = [], {}
    for g in gates["gates"]:
        if g["mode"] == "low" and g["loc"]:
            if g["loc"] not in flops:
                locs.append(g["loc"])
                flops[g["loc"]] = 0
            flops[g["loc"]] += int(g["flops"])
    default_low = t.low_flops(None)
    log(f"{len(locs)} ops can be kept f32; {default_low:.1%} of FLOPs low by default")

    ranking = None
    if method == "bisect":
        kept, notes = _bisect(t, locs, sets, refs)
    else:
        kept, notes, ranking = _search(t, emulated_text, gates, locs, flops, sets, refs)

    # The final policy, always verified as the real converted program.
    policy = _rules(kept)
    ok, errors = t.evaluate_real(policy, sets, refs)
    if not ok:
        # The emulation met the budget where the converted program does
        # not (the emulation rounds as the converted program does, but
        # its kernels sum in another order; a model with near ties between
        # its largest scores tells the two apart). The other ops are
        # searched on the converted program by segment bisection, in the
        # ranking's order (the most sensitive first), with the emulation's
        # ops kept f32 throughout.
        log(f"the converted program misses the budget ({_describe(errors)}); "
            f"bisecting the other ops on the converted program")
        base = list(kept)
        # The ranking's head (made now if the emulation met the budget
        # with every op low), then the other ops in program order.
        ranked = ranking.prefix(len(base) + 8) if ranking else []
        order = [l for l in ranked if l not in base]
        order += [l for l in locs if l not in base and l not in order]
        more, more_notes = _bisect(t, order, sets, refs, fixed=base, known_fail=True)
        kept = base + more
        notes.update({l: "kept f32 because the converted program missed the budget "
                         "without it (bisection)" for l in more_notes})
        policy = _rules(kept)
        ok, errors = t.evaluate_real(policy, sets, refs)
        if not ok:
            # Segments that pass together can fail with the ops kept
            # alone: every op f32 is the f32 program, which meets it.
            log("the bisection's policy misses the budget; every op stays f32")
            notes.update({l: "kept f32: no smaller set met the budget" for l in locs})
            kept = list(locs)
            policy = _rules(kept)
            ok, errors = t.evaluate_real(policy, sets, refs)
            if not ok:
                raise AmpError("tune: the budget is not met with every selectable op "
                               "in f32; no policy written")

    # FLOPs low, as the pass decides them under the final policy.
    summary = {
        "precision": t.precision, "method": method, "budget": t.budget.describe(),
        "inputs": len(sets), "ops": len(locs), "kept-f32": len(kept),
        "low-flops-fraction": t.low_flops(policy),
        "default-low-flops-fraction": default_low,
        "errors": errors,
    }
    if held:
        conv = t.compile(t.convert(policy), "converted")
        held_refs = t.run_all(f32, held)
        held_ok, held_errors = t.budget.meets(held_refs, t.run_all(conv, held), safety=1)
        summary["holdout"] = {"inputs": len(held), "meets": held_ok, "errors": held_errors}
    runs = t.sensitivity_runs + t.emulated_runs + t.real_runs
    summary.update({
        "runs": runs, "sensitivity-runs": t.sensitivity_runs,
        "emulated-runs": t.emulated_runs, "real-runs": t.real_runs,
        "compiles": t.compiles, "compile-seconds": round(t.compile_seconds, 2),
        "seconds": round(time.monotonic() - start, 2)})
    header = [f"amp.tune: {t.name}, {t.precision}, budget {t.budget.describe()}, "
              f"method {method}, {len(sets)} input set(s)",
              f"{len(kept)} of {len(locs)} ops kept f32; "
              f"{100 * summary['low-flops-fraction']:.1f}% of FLOPs low "
              f"(default {100 * summary['default-low-flops-fraction']:.1f}%)",
              f"error reached: {_describe(errors)}",
              f"runs: {runs} ({t.sensitivity_runs} to rank ops, {t.emulated_runs} emulated "
              f"candidates, {t.real_runs} converted programs), {t.compiles} compiles, "
              f"{summary['seconds']:.1f} s"]
    if held:
        h = summary["holdout"]
        header.append(f"held-out inputs ({h['inputs']}): "
                      f"{'meet' if h['meets'] else 'MISS'} the budget, {_describe(h['errors'])}")
    text = _policy_text([(loc, notes.get(loc, "")) for loc in kept], header)
    log(header[1] + "; " + header[3])
    return TuneResult(policy, text, summary)


def _describe(errors):
    return (f"max-abs {errors['max-abs']:.3g}, max-rel {errors['max-rel']:.3g}, "
            f"rms-rel {errors['rms-rel']:.3g}, top1 {errors['top1']:.4f}")


class _Ranking:
    """Ops in decreasing order of their own contribution to the output
    error, produced lazily by group testing on the emulated program: groups
    of consecutive ops are measured (only the group low), and the group
    with the largest error is split in halves (from eight ops down, into
    single ops) and measured again, until a single op comes out on top: it
    is the next in the ranking. The k most sensitive of N ops cost about
    sqrt(N) + k (2 log2(sqrt(N) / 8) + 8) runs when they are few, and at
    most about 2N when the error is spread over all of them."""

    def __init__(self, locs, measure, log):
        import heapq
        self._heapq, self._measure, self._log = heapq, measure, log
        self._heap, self._order = [], 0
        self.ranked, self.errors = [], {}
        self._locs, self._started = locs, False

    def _start(self):
        # The groups are measured when the ranking is first asked for.
        self._started = True
        locs = self._locs
        size = max(1, int(math.ceil(math.sqrt(len(locs)))))
        for k in range(0, len(locs), size):
            self._push(locs[k:k + size])

    def _push(self, members):
        error = self._measure(members)
        self._order += 1
        self._heapq.heappush(self._heap, (-error, self._order, members))

    def prefix(self, k):
        if not self._started:
            self._start()
        while len(self.ranked) < k and self._heap:
            error, _, members = self._heapq.heappop(self._heap)
            if len(members) == 1:
                self.ranked.append(members[0])
                self.errors[members[0]] = -error
                self._log(f"rank {len(self.ranked)}: {members[0]} ({-error:.3g})")
                continue
            # Small groups are measured op by op: when errors are spread
            # over many ops, most of a popped group's ops are ranked soon.
            if len(members) <= 8:
                for member in members:
                    self._push([member])
                continue
            half = len(members) // 2
            self._push(members[:half])
            self._push(members[half:])
        return self.ranked[:k]


def _search(t, emulated_text, gates, locs, flops, sets, refs):
    """The emulated program: all ops low if that meets the budget; else the
    fewest most sensitive ops kept f32 that meet it there, by doubling then
    bisecting over the ranking."""
    np = _numpy()
    log = t.log
    lib = t.compile(emulated_text, "emulated")
    n = len(gates["gates"])
    default_low = [i for i, g in enumerate(gates["gates"]) if g["mode"] == "low"]
    ops_of = {}
    for i in default_low:
        ops_of.setdefault(gates["gates"][i]["loc"], []).append(i)
    unselectable = ops_of.get("", [])

    def run(on):
        vector = np.zeros(n, np.float32)
        vector[sorted(on)] = 1
        return t.run_all(lib, sets, [vector] if gates["argument"] >= 0 else [])

    def rounding(low_locs):
        """Only the ops of `low_locs` low (and those no rule can select)."""
        return set(unselectable).union(*(ops_of[l] for l in low_locs))

    placed = {}

    def evaluate(kept):
        """The budget for the policy keeping `kept` f32, with the ops low
        that the pass makes low under it (a follow op between f32 ops
        stays f32): the decisions are made again, the program is not
        compiled again."""
        key = frozenset(kept)
        if key not in placed:
            _, g = t.emulation(_rules(sorted(kept)), gates_only=True)
            placed[key] = {i for i, op in enumerate(g["gates"]) if op["mode"] == "low"}
        t.emulated_runs += 1
        return t.budget.meets(refs, run(placed[key]))

    def measure(members):
        # The error over all outputs (relative RMS), which does not saturate
        # as the largest error does when an output's argmax flips.
        t.sensitivity_runs += 1
        e = Budget.errors(refs, run(rounding(members)))["rms-rel"]
        return e if math.isfinite(e) else 1e30

    ranking = _Ranking(locs, measure, log)
    ok, errors = evaluate([])
    log(f"all ops low (emulated): {_describe(errors)}")
    if ok:
        # The ranking is made only if the converted program misses.
        return [], {}, ranking

    # Doubling: 1, 2, 4, ... of the most sensitive kept f32 (all of them
    # f32 is the f32 program, which meets the budget).
    bad, k = 0, 1
    while True:
        kept = ranking.prefix(k)
        if len(kept) >= len(locs):
            good = len(kept)
            break
        ok, errors = evaluate(kept)
        log(f"{len(kept)} most sensitive f32 (emulated): {'meets' if ok else 'misses'} "
            f"({_describe(errors)})")
        if ok:
            good = len(kept)
            break
        bad, k = len(kept), 2 * k
    while good - bad > 1:
        mid = (good + bad) // 2
        ok, _ = evaluate(ranking.prefix(mid))
        if ok:
            good = mid
        else:
            bad = mid
    kept = ranking.prefix(good)
    log("most sensitive: " + ", ".join(f"{l} ({ranking.errors[l]:.3g})"
                                       for l in ranking.ranked[:5]))
    # Pruning: the ranking orders by error, not by what an op costs in f32.
    # Each kept op goes back to low, the most FLOPs first, where the
    # emulated program still meets the budget without it.
    for loc in sorted(kept, key=lambda l: -flops.get(l, 0)):
        if len(kept) <= 1 or flops.get(loc, 0) == 0:
            continue
        trial = [l for l in kept if l != loc]
        ok, _ = evaluate(trial)
        if ok:
            kept = trial
            log(f"{loc} goes back to {t.precision}: the budget holds without it")
    notes = {loc: f"rank {r + 1}: alone in {t.precision} it moves the outputs by "
                  f"{ranking.errors[loc]:.3g} (relative RMS)"
             for r, loc in enumerate(kept)}
    return kept, notes, ranking


class _Segment:
    def __init__(self, start, end):
        self.start, self.end, self.state = start, end, None  # None, "good", "bad"

    @property
    def size(self):
        return self.end - self.start


def _bisect(t, locs, sets, refs, fixed=(), known_fail=False):
    """ONNX Runtime's auto_convert_mixed_precision search over amp's
    policies: all ops f32 must pass; then the largest undecided segment is
    tried low (with every good segment); it becomes good, or is split in
    halves (a single op that fails stays f32). The ops of `fixed` stay f32
    throughout; `known_fail` says all of `locs` low is known to fail."""
    log = t.log
    fixed = list(fixed)
    # As ONNX Runtime does: the program with every op f32 must pass first.
    if not fixed:
        ok, errors = t.evaluate_real(_rules(locs), sets, refs)
        if not ok:
            raise AmpError("tune: the budget is not met even with every op in f32; no "
                           "policy written")
    segments = [_Segment(0, len(locs))] if locs else []
    if known_fail and len(locs) > 1:
        half = len(locs) // 2
        segments = [_Segment(0, half), _Segment(half, len(locs))]
    elif known_fail and locs:
        segments[0].state = "bad"
    attempt = 0
    while True:
        pending = [s for s in segments if s.state is None]
        if not pending:
            break
        seg = max(pending, key=lambda s: s.size)
        low = {i for s in segments if s.state == "good" or s is seg
               for i in range(s.start, s.end)}
        kept = fixed + [l for i, l in enumerate(locs) if i not in low]
        attempt += 1
        ok, errors = t.evaluate_real(_rules(kept), sets, refs)
        log(f"attempt {attempt}: {seg.size} ops low with the good ones: "
            f"{'pass' if ok else 'fail'} ({_describe(errors)})")
        if ok:
            seg.state = "good"
        elif seg.size == 1:
            seg.state = "bad"
        else:
            mid = seg.start + seg.size // 2
            i = segments.index(seg)
            segments[i:i + 1] = [_Segment(seg.start, mid), _Segment(mid, seg.end)]
    kept = [locs[i] for s in segments if s.state == "bad" for i in range(s.start, s.end)]
    notes = {loc: "failed the budget alone among the good segments (bisection)"
             for loc in kept}
    return kept, notes
