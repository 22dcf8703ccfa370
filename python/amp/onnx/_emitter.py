# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The emitter: the function body being written, as MLIR text.

It owns the spelling of what converters emit and the SSA names: `fresh()`
names a value, `new()` makes a Value with a fresh name, `use()` spells a
value (materializing a constant on its first use), `op()` writes a generic
`results = op operands : (types) -> types` line, and the region helpers
write the bodies of linalg.generic / tensor.pad. Every line carries the
location of the node being converted (`at()`). `function()` wraps the body
into the module text the importer returns.
"""

import numpy as np

from ._errors import NodeError
from ._ir import Value, dense_attr_parts, location

_UNKNOWN = "loc(unknown)"


class Emitter:
    """The function body being written, and helpers every converter uses."""

    def __init__(self):
        self.lines = []
        self._next = 0
        self.loc = _UNKNOWN
        # Indentation of the lines being written ("    " in the function,
        # two more per enclosing scf region), and per open scf region the
        # constants first materialized in it: they are forgotten when the
        # region closes, since a name defined there does not dominate what
        # follows the region.
        self.indent = "    "
        self._regions = []

    # --- locations -----------------------------------------------------------

    def at(self, name=None):
        """Lines from now on carry loc("name") (loc(unknown) for None)."""
        self.loc = location(name) if name is not None else _UNKNOWN

    # --- SSA plumbing ------------------------------------------------------

    def fresh(self):
        self._next += 1
        return "%%v%d" % self._next

    def emit(self, text, loc=True):
        self.lines.append(self.indent + text + ((" " + self.loc) if loc else ""))

    def emit_parts(self, parts):
        """A line given as pieces (a constant's large payload stays one piece)."""
        self.lines.append([self.indent] + parts + [" " + self.loc])

    def new(self, shape, dtype):
        return Value(shape, dtype, name=self.fresh())

    def use(self, v):
        """The SSA name of a value; constants are materialized on first use."""
        if v.name is not None:
            return v.name
        if v._materialized is None:
            if v.const is None:
                raise NodeError("internal: value without a name or constant")
            name = self.fresh()
            if v.dtype in (np.float32, np.float16, np.int32, np.int8, np.bool_):
                # tosa.const: TOSA's own passes (e.g. tosa-reduce-transposes)
                # see through it; amp-fuse-kernels lowers it to arith.
                self.emit_parts(['%s = "tosa.const"() <{values = ' % name]
                                + dense_attr_parts(v.const) + ["}> : () -> %s" % v.type])
            else:
                self.emit_parts(["%s = arith.constant " % name] + dense_attr_parts(v.const))
            v._materialized = name
            if self._regions:
                self._regions[-1].append(v)
        return v._materialized

    def op(self, text, operands, results, attrs=None):
        """`results = text operands {attrs} : (types) -> types`."""
        names = [self.use(o) for o in operands]
        res = ", ".join(r.name for r in results)
        attr = (" {%s}" % attrs) if attrs else ""
        in_types = ", ".join(o.type for o in operands)
        out_types = ", ".join(r.type for r in results)
        if len(results) != 1:
            out_types = "(%s)" % out_types
        self.emit("%s = %s %s%s : (%s) -> %s" % (res, text, ", ".join(names), attr, in_types,
                                                 out_types))
        return results[0] if len(results) == 1 else results

    def const(self, array, dtype=None):
        array = np.asarray(array, dtype=dtype)
        return Value.constant(array)

    def shape_operand(self, values):
        name = self.fresh()
        values = [int(v) for v in values]
        attr = ("dense<[%s]> : tensor<%dxindex>" % (", ".join(map(str, values)), len(values))
                if values else "dense<> : tensor<0xindex>")
        self.emit("%s = tosa.const_shape {values = %s} : () -> !tosa.shape<%d>"
                  % (name, attr, len(values)))
        return name

    def zero_point(self, dtype):
        return Value.constant(np.zeros([1], dtype=dtype))

    def mul_shift(self):
        return Value.constant(np.zeros([1], dtype=np.int8))

    # --- regions (linalg.generic, tensor.pad bodies) -----------------------

    def block(self, args):
        """The entry block of the region just opened: `^bb0(name: type, ...)`."""
        self.lines.append(self.indent + "^bb0(%s):" % ", ".join("%s: %s" % a for a in args))

    def body(self, text):
        """An op inside the region (the op that owns the region has the location)."""
        self.lines.append(self.indent + "  " + text)

    def end_region(self, suffix):
        """Closes the region: `} suffix loc`."""
        self.lines.append(self.indent + "} %s %s" % (suffix, self.loc))

    # --- scf regions (If, Loop, Scan) -----------------------------------------

    def reserve(self):
        """A placeholder line (an op whose header depends on its regions),
        filled in later by fill()."""
        self.lines.append(None)
        return len(self.lines) - 1

    def fill(self, index, texts):
        """Writes lines (at the current indentation) at a reserved place."""
        self.lines[index] = "\n".join(self.indent + t for t in texts)

    def open_region(self):
        self._regions.append([])
        self.indent += "  "

    def close_region(self):
        for v in self._regions.pop():
            v._materialized = None
        self.indent = self.indent[:-2]

    def truncate(self, mark):
        """Drops the lines written since len(lines) was mark (an import
        attempt that is redone another way; its regions are closed)."""
        del self.lines[mark:]

    # --- the function --------------------------------------------------------

    def function(self, name, args, results, comments=()):
        """The module holding `func.func @name(args) -> results` with the
        body emitted so far: args are argument Values (named %argK), results
        Values to return. Comment lines go at the top."""
        sig_args = ", ".join("%s: %s" % (v.name, v.type) for v in args)
        res_types = ", ".join(v.type for v in results)
        if len(results) != 1:
            res_types = "(%s)" % res_types
        ret = "    return %s : %s" % (", ".join(self.use(v) for v in results),
                                      ", ".join(v.type for v in results))
        head = ["// " + c for c in comments]
        head.append("module {")
        head.append("  func.func @%s(%s) -> %s {" % (name, sig_args, res_types))
        pieces = ["\n".join(head), "\n"]
        for line in self.lines:
            if isinstance(line, list):
                pieces.extend(line)
            else:
                pieces.append(line)
            pieces.append("\n")
        pieces.append(ret + "\n  }\n}\n")
        return "".join(pieces)
