"""convert() and lower(): the mixed-precision pass and amp's lowerings."""

import json
import os
import re
import tempfile

from ._core import AmpError, Context

# Option values that need no quoting in a textual pass pipeline.
_PLAIN = re.compile(r"^[A-Za-z0-9_.+\-/:*]*$")

_LOWERINGS = {
    "cpu": "amp-lower-to-llvm",
    "vulkan": "amp-lower-to-spirv",
    "nvvm": "amp-lower-to-nvvm",
}


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
    if '"' in value:
        raise AmpError(f"invalid value for option '{name}': {value!r} "
                       "(contains a double quote)")
    return f'{name}="{value}"'


def _op_list(name, ops):
    if isinstance(ops, str):
        ops = [ops]
    ops = list(ops)
    for op in ops:
        if not isinstance(op, str) or not re.match(r"^[A-Za-z0-9_.*]+$", op):
            raise AmpError(f"invalid op name in {name}: {op!r}")
    return f"{name}={','.join(ops)}" if ops else None


def _text(ir):
    if isinstance(ir, ConvertResult):
        return ir.ir
    if not isinstance(ir, str):
        raise TypeError(f"ir must be MLIR text (str), not {type(ir).__name__}")
    return ir


def _run(ir, pipeline, context, name, what):
    """Parses `ir`, runs `pipeline`; returns (text, diagnostics, reports).
    A failing pipeline raises AmpError saying `what` failed."""
    ctx = context or Context()
    try:
        # One transaction on a context that other threads may share: their
        # runs would replace the reports and add diagnostics in between.
        with ctx._lock, ctx.parse(ir, name) as module:
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
            explain=False, missing_op="never", context=None, name="<input>"):
    """Converts the MLIR program `ir` (text) to mixed precision.

    precision:     the low type, "f16" or "bf16".
    policy:        None, a path to a JSON/YAML policy file, or a dict with a
                   "rules" list (docs/Policies.md).
    allow, follow, never: op names whose category is forced.
    keep_io_types: public functions keep f32 signatures.
    accumulate:    "f32" or "low": accumulators of contractions and sums.
    placement:     "optimal", "greedy" or "naive".
    explain:       a remark per op (ConvertResult.remarks).
    missing_op:    ops without a model: "never", "follow", "warn", "error".
    context:       a Context to reuse (a fresh one otherwise).

    Raises AmpError, carrying MLIR's diagnostics, when the text does not
    parse or an option or the policy is bad.
    """
    ir = _text(ir)
    options = [_option("precision", precision),
               _option("accumulate", accumulate),
               _option("placement", placement),
               _option("missing-op", missing_op),
               f"keep-io-types={'true' if keep_io_types else 'false'}",
               f"explain={'true' if explain else 'false'}"]
    for opt_name, ops in (("allow", allow), ("follow", follow), ("never", never)):
        opt = _op_list(opt_name, ops)
        if opt:
            options.append(opt)
    with tempfile.TemporaryDirectory(prefix="amp-") as tmp:
        if policy is not None:
            if isinstance(policy, dict):
                path = os.path.join(tmp, "policy.json")
                with open(path, "w") as f:
                    json.dump(policy, f)
            else:
                path = os.fspath(policy)
            options.append(_option("policy-file", path))
        pipeline = "builtin.module(mixed-precision{" + " ".join(options) + "})"
        text, diagnostics, reports = _run(ir, pipeline, context, name,
                                          "mixed-precision")
    if len(reports) != 1:
        raise AmpError(f"expected one mixed-precision report, got {len(reports)}",
                       diagnostics)
    return ConvertResult(text, reports[0], diagnostics)


def lower(ir, target="cpu", context=None, name="<input>", **options):
    """Lowers mixed-precision output with amp's pipelines and returns the
    MLIR text:

    "cpu":    amp-lower-to-llvm (the LLVM dialect, for mlir-runner);
    "vulkan": amp-lower-to-spirv (spirv.module kernels);
    "nvvm":   amp-lower-to-nvvm; options chip="sm_90", features="+ptx80",
              format="bin"|"isa"|"fatbin" (bin needs the CUDA Toolkit's ptxas).

    `ir` is MLIR text or a ConvertResult. Raises AmpError with MLIR's
    diagnostics on failure.
    """
    if target not in _LOWERINGS:
        raise AmpError(f"unknown lowering target {target!r}; expected one of "
                       + ", ".join(repr(t) for t in _LOWERINGS))
    if options and target != "nvvm":
        raise AmpError(f"target {target!r} takes no options, got "
                       + ", ".join(sorted(options)))
    pipeline = _LOWERINGS[target]
    if options:
        pipeline += "{" + " ".join(_option(k.replace("_", "-"), v)
                                   for k, v in sorted(options.items())) + "}"
    text, _, _ = _run(_text(ir), f"builtin.module({pipeline})", context, name,
                     _LOWERINGS[target])
    return text
