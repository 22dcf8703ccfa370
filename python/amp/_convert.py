# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""convert() and lower(): the mixed-precision pass and amp's lowerings."""

import json
import math
import numbers
import os
import re
import tempfile
import warnings

from . import _capi
from ._core import AmpError, AmpOptionError, Context, LowPrecisionWarning

# Option values that need no quoting in a textual pass pipeline.
_PLAIN = re.compile(r"^[A-Za-z0-9_.+\-/:*]*$")



class ConvertResult:
    """What convert() returns: the converted program `ir` (MLIR text), the
    JSON `report` (a dict: precision, summary, and every op's decision with
    its reason), the `diagnostics` the pass emitted (warnings, remarks) and,
    among them, the `remarks` (explain=True: one per op)."""

    def __init__(self, ir, report, diagnostics):
        self.ir = ir
        self.report = report
        self.diagnostics = diagnostics
        self.remarks = [d for d in diagnostics if d.severity == "remark"]

    def __repr__(self):
        s = self.report.get("summary", {})
        return (f"ConvertResult(precision={self.report.get('precision')!r}, "
                f"ops_low={s.get('ops-low')}, ops_f32={s.get('ops-f32')}, "
                f"casts={s.get('casts-inserted')})")


def _option(name, value):
    """`name=value` for a pass pipeline, quoting what needs it."""
    value = str(value)
    if _PLAIN.match(value):
        return f"{name}={value}"
    if '"' in value or "}" in value:
        raise AmpOptionError(f"invalid value for option '{name}': {value!r} "
                             "(contains a double quote or a brace)")
    return f'{name}="{value}"'


def _op_list(name, ops):
    if isinstance(ops, str):
        ops = [ops]
    try:
        ops = list(ops)
    except TypeError:
        raise AmpOptionError(f"convert: {name} must be an op name or a list of them, "
                             f"not {type(ops).__name__}") from None
    for op in ops:
        if not isinstance(op, str) or not re.match(r"^[A-Za-z0-9_.*]+$", op):
            raise AmpOptionError(f"invalid op name in {name}: {op!r}")
    return f"{name}={','.join(ops)}" if ops else None


# The mixed-precision pass's enumerated options (include/amp/Transforms/
# Passes.td): keyword -> (pass option, accepted values).
_CHOICES = {
    "precision": ("precision", ("f16", "bf16")),
    "accumulate": ("accumulate", ("f32", "low")),
    "placement": ("placement", ("optimal", "greedy", "naive")),
    "missing_op": ("missing-op", ("never", "follow", "warn", "error")),
}

def _choice(keyword, value):
    option, allowed = _CHOICES[keyword]
    if not isinstance(value, str):
        raise AmpOptionError(f"convert: {keyword} must be a str, one of "
                             + ", ".join(repr(a) for a in allowed)
                             + f"; got {type(value).__name__} {value!r}")
    if value not in allowed:
        raise AmpOptionError(f"convert: {keyword} must be one of "
                             + ", ".join(repr(a) for a in allowed) + f"; got {value!r}")
    return f"{option}={value}"


def _flag(keyword, option, value):
    if not isinstance(value, bool):
        raise AmpOptionError(f"convert: {keyword} must be True or False, not "
                             f"{type(value).__name__} {value!r}")
    return f"{option}={'true' if value else 'false'}"


def _count(keyword, option, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise AmpOptionError(f"convert: {keyword} must be an int, not "
                             f"{type(value).__name__} {value!r}")
    if value < 0:
        raise AmpOptionError(f"convert: {keyword} must be >= 0, got {value}")
    return f"{option}={value}"


def _path(keyword, value):
    if not isinstance(value, (str, os.PathLike)):
        raise AmpOptionError(f"convert: {keyword} must be a path (str or os.PathLike), "
                             f"not {type(value).__name__}")
    value = os.fspath(value)
    if not isinstance(value, str) or not value:
        raise AmpOptionError(f"convert: {keyword} must be a non-empty path")
    return value


def _target(value):
    if not isinstance(value, str):
        raise AmpOptionError(f"convert: target must be a str, not {type(value).__name__}")
    # The names are C++'s (lib/Target/TargetNames.cpp), and so is the error.
    error = _capi.check_target(value)
    if error:
        raise AmpOptionError(error)
    return f"target={value}"


def _bound(value, where):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise AmpOptionError(f"convert: input_range: {where} must be a number, not "
                             f"{type(value).__name__} {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise AmpOptionError(f"convert: input_range: {where} must be finite, got {value}")
    return repr(value)


def _interval(value, where):
    """`LO:HI` for a (lo, hi) pair."""
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise AmpOptionError(f"convert: input_range: {where} must be a (lo, hi) pair, "
                             f"not {value!r}")
    lo, hi = _bound(value[0], where + " lo"), _bound(value[1], where + " hi")
    if float(lo) > float(hi):
        raise AmpOptionError(f"convert: input_range: {where} has lo > hi: {value!r}")
    return f"{lo}:{hi}"


def _input_range(value):
    """`input-range=...` for (lo, hi) (every float argument) or
    {argument: (lo, hi)}."""
    if isinstance(value, dict):
        entries = []
        for key in sorted(value, key=lambda k: (not isinstance(k, int), k)):
            if isinstance(key, bool) or not isinstance(key, int) or key < 0:
                raise AmpOptionError("convert: input_range keys must be argument "
                                     f"numbers (int >= 0), not {key!r}")
            entries.append(f"{key}={_interval(value[key], f'argument {key}')}")
        if not entries:
            raise AmpOptionError("convert: input_range is an empty dict")
        return "input-range=" + ",".join(entries)
    return "input-range=" + _interval(value, "the range")


def mixed_precision_options(precision="f16", accumulate="f32", accumulate_min_size=0,
                            keep_io_types=True, allow=(), follow=(), never=(),
                            policy_file=None, missing_op="never", placement="optimal",
                            target=None, explain=False, report=None,
                            ranges_file=None, input_range=None, graph=None):
    """The option list of `mixed-precision{...}` for these keyword values
    (validated here: AmpOptionError, a ValueError, on a bad one)."""
    options = [_choice("precision", precision),
               _choice("accumulate", accumulate),
               _count("accumulate_min_size", "accumulate-min-size", accumulate_min_size),
               _flag("keep_io_types", "keep-io-types", keep_io_types),
               _choice("placement", placement),
               _choice("missing_op", missing_op),
               _flag("explain", "explain", explain)]
    for opt_name, ops in (("allow", allow), ("follow", follow), ("never", never)):
        opt = _op_list(opt_name, ops)
        if opt:
            options.append(opt)
    if target is not None:
        options.append(_target(target))
    if policy_file is not None:
        options.append(_option("policy-file", _path("policy_file", policy_file)))
    if report is not None:
        options.append(_option("report", _path("report", report)))
    if ranges_file is not None:
        options.append(_option("ranges", _path("ranges", ranges_file)))
    if input_range is not None:
        options.append(_input_range(input_range))
    if graph is not None:
        options.append(_option("graph", _path("graph", graph)))
    return options


def _text(ir):
    if isinstance(ir, ConvertResult):
        return ir.ir
    if not isinstance(ir, str):
        raise TypeError(f"ir must be MLIR text (str), not {type(ir).__name__}")
    return ir


def _run(ir, pipeline, context, name, what, before=None):
    """Parses `ir`, calls `before(module)` if given, runs `pipeline`;
    returns (text, diagnostics, reports). A failing pipeline raises AmpError
    saying `what` failed."""
    ctx = context or Context()
    try:
        # One transaction on a context that other threads may share: their
        # runs would replace the reports and add diagnostics in between.
        with ctx._lock, ctx.parse(ir, name) as module:
            if before:
                before(module)
            try:
                module.run_pipeline(pipeline)
            except AmpError as e:
                raise AmpError(f"{what} failed", e.diagnostics) from None
            reports = ctx.reports
            return module.print(), ctx.take_diagnostics(), reports
    finally:
        if context is None:
            ctx.close()


def convert(ir, precision="f16", policy=None, allow=(), follow=(), never=(),
            keep_io_types=True, accumulate="f32", placement="optimal",
            explain=False, missing_op="never", context=None, name="<input>", *,
            accumulate_min_size=0, policy_file=None, target=None, report=None,
            ranges=None, input_range=None, graph=None):
    """Converts the MLIR program `ir` (text) to mixed precision.

    Every option of the mixed-precision pass, in snake_case:

    precision:     the low type, "f16" or "bf16".
    accumulate:    "f32" or "low": accumulators of contractions and sums.
    accumulate_min_size: with accumulate="f32", reductions over fewer
                   elements than this accumulate low (0: always f32).
    keep_io_types: public functions keep f32 signatures.
    allow, follow, never: op names whose category is forced.
    policy:        None, a path to a JSON/YAML policy file, or a dict with a
                   "rules" list (docs/Policies.md).
    policy_file:   the same as a path to a policy file (give one of the two).
    missing_op:    ops without a model: "never", "follow", "warn", "error".
    placement:     "optimal", "greedy" or "naive".
    target:        None, "cpu", "vulkan", "vulkan-storage16" or "sm_<N>":
                   what the target computes low (ops without a target
                   attribute around them).
    explain:       a remark per op (ConvertResult.remarks).
    report:        also write the JSON report to this file ("-": stdout);
                   ConvertResult.report has it either way.
    ranges:        value ranges observed by running the f32 program: the
                   dict amp.calibrate() returns, or the path of a file
                   amp-run --calibrate wrote (mixed-precision{ranges=...}).
    input_range:   ranges of the arguments: (lo, hi) for every float
                   argument, or {argument number: (lo, hi)}
                   (mixed-precision{input-range=...}).
    graph:         write the decisions as a Graphviz digraph to this file
                   (mixed-precision{graph=...}; render with dot -Tsvg).
    context:       a Context to reuse (a fresh one otherwise).

    A bad option value or type raises AmpOptionError (an AmpError and a
    ValueError) before anything runs. Raises AmpError, carrying MLIR's
    diagnostics, when the text does not parse, the policy is bad or the pass
    fails (missing_op="error" and an op without a model).
    """
    ir = _text(ir)
    if policy is not None and policy_file is not None:
        raise AmpOptionError("convert: give policy or policy_file, not both")
    if policy is not None and not isinstance(policy, dict):
        policy_file, policy = _path("policy", policy), None
    elif policy is not None and not isinstance(policy.get("rules", []), list):
        raise AmpOptionError("convert: a policy dict needs a 'rules' list")
    if ranges is not None and not isinstance(ranges, dict):
        ranges = _path("ranges", ranges)
    elif ranges is not None and not isinstance(ranges.get("values"), list):
        raise AmpOptionError("convert: a ranges dict needs a 'values' list (what "
                             "amp.calibrate returns)")
    with tempfile.TemporaryDirectory(prefix="amp-") as tmp:
        if policy is not None:
            policy_file = os.path.join(tmp, "policy.json")
            with open(policy_file, "w") as f:
                json.dump(policy, f)
        if isinstance(ranges, dict):
            path = os.path.join(tmp, "ranges.json")
            with open(path, "w") as f:
                json.dump(ranges, f)
            ranges = path
        options = mixed_precision_options(
            precision=precision, accumulate=accumulate,
            accumulate_min_size=accumulate_min_size, keep_io_types=keep_io_types,
            allow=allow, follow=follow, never=never, policy_file=policy_file,
            missing_op=missing_op, placement=placement, target=target,
            explain=explain, report=report,
            ranges_file=ranges, input_range=input_range, graph=graph)
        pipeline = "builtin.module(mixed-precision{" + " ".join(options) + "})"
        text, diagnostics, reports = _run(ir, pipeline, context, name,
                                          "mixed-precision")
    if len(reports) != 1:
        raise AmpError(f"expected one mixed-precision report, got {len(reports)}",
                       diagnostics)
    return ConvertResult(text, reports[0], diagnostics)


def _option_value(value):
    """An option value as pass pipelines spell it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_option_value(v) for v in value)
    return str(value)


def lower(ir, target="cpu", context=None, name="<input>", **options):
    """Lowers mixed-precision output with the pipeline of a backend and
    returns the MLIR text. The backends are amp-run's (amp.backends() lists
    them, from the C API):

    "cpu":    amp-lower-to-llvm (the LLVM dialect), as amp-run --backend=cpu;
    "vulkan": amp-lower-to-vulkan (serialised SPIR-V kernels and LLVM host
              code for amp's Vulkan runtime), as amp-run --backend=vulkan;
    "cuda":   amp-lower-to-nvvm, as amp-run --backend=cuda; "sm_<N>[a|f]"
              is the cuda backend for that chip;
    "spirv":  amp-lower-to-spirv (the spirv.module kernels only).

    Every option of the backend's pipeline is a keyword (dashes written as
    underscores: threads=2, bf16_dot=True, tile_cols=1 for the CPU;
    chip="sm_90", format="bin" for cuda; amp.backend_options(target) lists
    them with their defaults). The pipeline's own parser checks names and
    values: a bad one is AmpOptionError with the message amp-opt gives.

    `ir` is MLIR text or a ConvertResult. Raises AmpError with MLIR's
    diagnostics on failure.
    """
    if not isinstance(target, str):
        raise AmpOptionError(f"lower: target must be a str, not {type(target).__name__}")
    text = " ".join(f"{k.replace('_', '-')}={_option_value(v)}"
                    for k, v in sorted(options.items()))
    pipeline, error = _capi.backend_pipeline(target, text)
    if error:
        raise AmpOptionError(error)
    def note(module):
        # Converted without a target, the program may compute in f16/bf16
        # where this CPU has no units for it: said once, as amp-run does.
        text = module.low_precision_note()
        if text:
            warnings.warn(f"{name}: {text}", LowPrecisionWarning, stacklevel=3)

    text, _, _ = _run(_text(ir), f"builtin.module({pipeline})", context, name,
                     pipeline.split("{")[0], note if target == "cpu" else None)
    return text


def backends():
    """The backends lower() and amp-run take, as C++ defines them."""
    return _capi.backend_names()


def backend_options(backend):
    """The options of `backend`'s pipeline with their defaults, as a dict of
    option name (as amp-opt spells it) to default value text."""
    text = _capi.backend_options(backend) if isinstance(backend, str) else None
    if text is None:
        raise AmpOptionError(f"unknown backend {backend!r}; expected one of "
                             + ", ".join(backends()))
    options = {}
    for item in text.strip().strip("{}").split():
        key, _, value = item.partition("=")
        options[key] = value
    return options
