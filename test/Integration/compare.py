#!/usr/bin/env python3
"""Compare two memrefs printed by the MLIR runner's printMemrefF32.

Usage: compare.py REFERENCE RESULT --atol A --rtol R [--rel-floor F]
                  [--min-abs-err M]

REFERENCE is the output of the f32 program, RESULT the output of the same
program converted to low precision. Every memref printed in the two files is
compared in order (shapes must match). Prints one line

    max_abs_err=<e> max_rel_err=<e> n=<elements> OK

(or FAIL with the reason) and exits non-zero on failure.

  max_abs_err  max |result - reference| over all elements.
  max_rel_err  max |result - reference| / |reference| over the elements whose
               |reference| is at least rel-floor * max|reference| (default
               0.01): elements next to a cancellation (values near zero) are
               covered by the absolute error alone, since no low-precision
               result can be relatively accurate there.

The check fails if max_abs_err > atol, max_rel_err > rtol, a value is NaN or
infinite in one file but not the same in the other, or max_abs_err < M
(--min-abs-err, default 0): with M > 0 this asserts that the result really
differs from the reference, i.e. that low precision was used at all, or that
the error is at least as large as expected.

Only the Python standard library is used.
"""

import argparse
import math
import re
import sys

_HEADER = re.compile(r"sizes = \[([^\]]*)\].*?data =", re.S)
_NUMBER = re.compile(
    r"[-+]?(?:nan|inf|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)", re.I)


def parse(path):
    """Returns a list of (shape, values) for each memref printed in `path`."""
    with open(path) as f:
        text = f.read()
    headers = list(_HEADER.finditer(text))
    if not headers:
        raise ValueError("%s: no printed memref found" % path)
    memrefs = []
    for k, h in enumerate(headers):
        shape = [int(s) for s in h.group(1).split(",") if s.strip()]
        end = headers[k + 1].start() if k + 1 < len(headers) else len(text)
        # The data ends at the bracket that closes the outermost '['.
        body = text[h.end():end]
        depth, stop = 0, len(body)
        for i, c in enumerate(body):
            if c == "[":
                depth += 1
            elif c == "]":
                depth -= 1
                if depth == 0:
                    stop = i + 1
                    break
        values = [float(v) for v in _NUMBER.findall(body[:stop])]
        count = 1
        for s in shape:
            count *= s
        if len(values) != count:
            raise ValueError("%s: memref of shape %s has %d values, expected %d"
                             % (path, shape, len(values), count))
        memrefs.append((shape, values))
    return memrefs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reference")
    parser.add_argument("result")
    parser.add_argument("--atol", type=float, required=True)
    parser.add_argument("--rtol", type=float, required=True)
    parser.add_argument("--rel-floor", type=float, default=0.01)
    parser.add_argument("--min-abs-err", type=float, default=0.0)
    args = parser.parse_args()

    try:
        ref = parse(args.reference)
        res = parse(args.result)
    except (OSError, ValueError) as e:
        print("FAIL: %s" % e)
        return 1
    if len(ref) != len(res):
        print("FAIL: %d memrefs in the reference, %d in the result"
              % (len(ref), len(res)))
        return 1

    problems = []
    max_abs = max_rel = 0.0
    worst_abs = worst_rel = None
    n = 0
    for m, ((rshape, rvals), (xshape, xvals)) in enumerate(zip(ref, res)):
        if rshape != xshape:
            problems.append("memref %d: shape %s vs %s" % (m, rshape, xshape))
            continue
        finite = [abs(v) for v in rvals if math.isfinite(v)]
        floor = args.rel_floor * (max(finite) if finite else 0.0)
        for i, (r, x) in enumerate(zip(rvals, xvals)):
            n += 1
            if not (math.isfinite(r) and math.isfinite(x)):
                same = (math.isnan(r) and math.isnan(x)) or r == x
                if not same:
                    problems.append("memref %d element %d: reference %r, "
                                    "result %r" % (m, i, r, x))
                continue
            err = abs(x - r)
            where = "memref %d element %d (reference %r, result %r)" % (
                m, i, r, x)
            if err > max_abs:
                max_abs, worst_abs = err, where
            if abs(r) >= floor and r != 0.0:
                rel = err / abs(r)
                if rel > max_rel:
                    max_rel, worst_rel = rel, where

    if max_abs > args.atol:
        problems.append("max_abs_err %.3e > atol %.3e at %s"
                        % (max_abs, args.atol, worst_abs))
    if max_rel > args.rtol:
        problems.append("max_rel_err %.3e > rtol %.3e at %s"
                        % (max_rel, args.rtol, worst_rel))
    if max_abs < args.min_abs_err:
        problems.append("max_abs_err %.3e < min-abs-err %.3e"
                        % (max_abs, args.min_abs_err))

    verdict = "OK" if not problems else "FAIL: " + "; ".join(problems[:5])
    print("max_abs_err=%.3e max_rel_err=%.3e n=%d %s"
          % (max_abs, max_rel, n, verdict))
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
