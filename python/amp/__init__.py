"""amp from Python: convert MLIR programs to mixed precision.

    import amp
    result = amp.convert(open("model.mlir").read(), precision="bf16")
    print(result.ir)                      # the converted program
    print(result.report["summary"])      # ops low / f32, casts, bytes
    for op in result.report["ops"]:       # why each op runs where it does
        print(op["op"], op["mode"], op["reason"])

This module drives the `amp-opt` tool (found through $AMP_OPT, then the
build tree next to this package, then $PATH). Errors carry amp's diagnostics.
"""

import json
import os
import shutil
import subprocess
import tempfile

__all__ = ["AmpError", "ConvertResult", "convert", "find_amp_opt"]


class AmpError(Exception):
    """A conversion that failed; `diagnostics` holds amp's messages."""

    def __init__(self, message, diagnostics=""):
        super().__init__(message + ("\n" + diagnostics if diagnostics else ""))
        self.diagnostics = diagnostics


class ConvertResult:
    """The converted program, the JSON report and the remarks."""

    def __init__(self, ir, report, remarks):
        self.ir = ir
        self.report = report
        self.remarks = remarks

    def __repr__(self):
        s = self.report.get("summary", {})
        return (f"ConvertResult(ops_low={s.get('ops-low')}, ops_f32={s.get('ops-f32')}, "
                f"casts={s.get('casts-inserted')})")


def find_amp_opt():
    """The amp-opt binary to run."""
    env = os.environ.get("AMP_OPT")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.join(os.path.dirname(os.path.dirname(here)), "build", "bin", "amp-opt")
    if os.path.exists(built):
        return built
    found = shutil.which("amp-opt")
    if found:
        return found
    raise AmpError("amp-opt not found: build amp (scripts/setup.sh) or set $AMP_OPT")


def _option_list(name, ops):
    if isinstance(ops, str):
        ops = [ops]
    return f"{name}={','.join(ops)}" if ops else None


def convert(ir, precision="f16", accumulate="f32", placement="optimal",
            keep_io_types=True, allow=(), follow=(), never=(), policy=None,
            missing_op="never", explain=False, amp_opt=None):
    """Converts the MLIR program `ir` (text) to mixed precision.

    `policy` is a path to a JSON/YAML policy file or a dict with a "rules"
    list (see docs/Policies.md). Raises AmpError with amp's diagnostics when
    the input or an option is bad.
    """
    if not isinstance(ir, str):
        raise TypeError("ir must be MLIR text (str)")
    amp_opt = amp_opt or find_amp_opt()
    with tempfile.TemporaryDirectory() as tmp:
        report_path = os.path.join(tmp, "report.json")
        options = [f"precision={precision}", f"accumulate={accumulate}",
                   f"placement={placement}",
                   f"keep-io-types={'true' if keep_io_types else 'false'}",
                   f"missing-op={missing_op}", f"report={report_path}"]
        if explain:
            options.append("explain=true")
        for name, ops in (("allow", allow), ("follow", follow), ("never", never)):
            opt = _option_list(name, ops)
            if opt:
                options.append(opt)
        if policy is not None:
            if isinstance(policy, dict):
                policy_path = os.path.join(tmp, "policy.json")
                with open(policy_path, "w") as f:
                    json.dump(policy, f)
            else:
                policy_path = os.fspath(policy)
            options.append(f"policy-file={policy_path}")
        for opt in options:
            if " " in opt or "{" in opt or "}" in opt:
                raise AmpError(f"invalid option value: {opt!r}")
        pipeline = "builtin.module(mixed-precision{" + " ".join(options) + "})"
        proc = subprocess.run([amp_opt, "-", "-p", pipeline,
                               "--mlir-print-op-on-diagnostic=false"],
                              input=ir, capture_output=True, text=True)
        if proc.returncode != 0:
            raise AmpError("amp could not convert the program", proc.stderr.strip())
        with open(report_path) as f:
            report = json.load(f)
    remarks = [line for line in proc.stderr.splitlines() if "remark:" in line]
    return ConvertResult(proc.stdout, report, remarks)
