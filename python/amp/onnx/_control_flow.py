# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ONNX control flow (If, Loop, Scan) as scf regions.

    If   -> the chosen branch in place when the condition is known at import
            time, else scf.if (then/else subgraphs -> the two regions)
    Loop -> scf.for when it runs a trip count only (the body's condition
            output folds to true), else scf.while (condition, counter and
            the carried values as its state)
    Scan -> scf.for over the scan axis: tensor.extract_slice of each scan
            input, tensor.insert_slice of each scan output

Subgraphs see the values of every enclosing graph defined before their node
(ONNX's outer-scope capture): they are imported in a copy of the enclosing
scope, so captured values are the enclosing SSA names or constants
(scf regions are not isolated from above), and names the subgraph defines
do not leak out. Subgraph inputs are bound to the region's block arguments
(or to constants: an If has none; a Loop body's condition input is true
while the body runs). Constants first used inside a region are materialized
there (the emitter forgets them when the region closes).

Everything keeps static shapes: a loop-carried value must keep its type, and
the two branches of an If must yield the same types; otherwise the error
names the node. Loop scan outputs need a trip count known at import time.

The graph walk lives in `_importer.py`, which passes itself in as
`convert_nodes(nodes, scope, em, opset)` (so this module does not import it).
"""

import numpy as np
from onnx import numpy_helper

from ._errors import NodeError
from ._ir import Value, element_type

_I32 = np.iinfo(np.int32)


# --- shared pieces -----------------------------------------------------------

def _subgraph(graph, outer, bindings, em, opset, convert_nodes, what):
    """Imports a subgraph in a copy of the outer scope, its inputs bound to
    bindings; returns its output Values."""
    if len(graph.input) != len(bindings):
        raise NodeError("%s has %d inputs, expected %d" % (what, len(graph.input), len(bindings)))
    scope = dict(outer)
    for init in graph.initializer:
        scope[init.name] = Value.constant(numpy_helper.to_array(init))
    for vi, v in zip(graph.input, bindings):
        scope[vi.name] = v
    convert_nodes(graph.node, scope, em, opset)
    outs = []
    for o in graph.output:
        if o.name not in scope:
            raise NodeError("%s output '%s' is never computed" % (what, o.name))
        outs.append(scope[o.name])
    return outs


def _runtime(v, dtype, what):
    """v as a value of dtype (int64 constants narrowed to the runtime i32,
    exactly); NodeError when that would change it."""
    if v.dtype == dtype:
        return v
    if v.is_const:
        converted = v.const.astype(dtype)
        if np.array_equal(converted.astype(v.dtype), v.const):
            return Value.constant(converted)
    raise NodeError("%s is %s here and %s elsewhere" % (what, v.dtype.name, np.dtype(dtype).name))


def _runtime_dtype(dtype):
    """The element type a value of this dtype has at run time."""
    return np.dtype(np.int32) if dtype == np.int64 else np.dtype(dtype)


def _carried(v, what):
    """A loop's initial value as it is carried (int64 constants as i32)."""
    return _runtime(v, _runtime_dtype(v.dtype), what)


def _uses(graph, name):
    """Whether a graph (or a subgraph nested in it) reads name."""
    if any(o.name == name for o in graph.output):
        return True
    for n in graph.node:
        if name in n.input:
            return True
        for a in n.attribute:
            for g in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                if _uses(g, name):
                    return True
    return False


def _index_constant(em, k, type_="index"):
    name = em.fresh()
    em.emit("%s = arith.constant %d : %s" % (name, k, type_), loc=False)
    return name


def _scalar(em, v, what):
    """The element of a one-element runtime tensor (tensor.extract)."""
    if v.size != 1:
        raise NodeError("%s must have one element, it is %s" % (what, v.type))
    name = em.use(v)
    idx = [_index_constant(em, 0) for _ in range(v.rank)]
    r = em.fresh()
    em.emit("%s = tensor.extract %s[%s] : %s" % (r, name, ", ".join(idx), v.type))
    return r


def _results(name, values):
    """Values for the results of a multi-result op named name."""
    if len(values) == 1:
        values[0].name = name
    else:
        for i, v in enumerate(values):
            v.name = "%s#%d" % (name, i)
    return values


def _types(values):
    return ", ".join(v.type for v in values)


def _yield(em, values):
    names = [em.use(v) for v in values]  # constants materialize in the region
    if values:
        em.emit("scf.yield %s : %s" % (", ".join(names), _types(values)), loc=False)
    else:
        em.emit("scf.yield", loc=False)


def _slice_at(em, x, axis, index):
    """x's slice at a runtime index along axis, without that axis."""
    offs = ["0"] * x.rank
    offs[axis] = index
    sizes = list(x.shape)
    sizes[axis] = 1
    out = em.new(x.shape[:axis] + x.shape[axis + 1:], x.dtype)
    em.emit("%s = tensor.extract_slice %s[%s] [%s] [%s] : %s to %s"
            % (out.name, em.use(x), ", ".join(offs), ", ".join(map(str, sizes)),
               ", ".join(["1"] * x.rank), x.type, out.type))
    return out


def _insert_at(em, part, acc, axis, index):
    """acc with part (acc's slice without axis) written at index along axis."""
    offs = ["0"] * acc.rank
    offs[axis] = index
    sizes = list(acc.shape)
    sizes[axis] = 1
    out = em.new(acc.shape, acc.dtype)
    em.emit("%s = tensor.insert_slice %s into %s[%s] [%s] [%s] : %s into %s"
            % (out.name, em.use(part), acc.name, ", ".join(offs), ", ".join(map(str, sizes)),
               ", ".join(["1"] * acc.rank), part.type, acc.type))
    return out


def _position(em, index, count, reverse):
    """index, or count - 1 - index for a reversed direction (index type)."""
    if not reverse:
        return index
    last = _index_constant(em, count - 1)
    r = em.fresh()
    em.emit("%s = arith.subi %s, %s : index" % (r, last, index), loc=False)
    return r


def _check_carried(outs, args, what):
    """The body's new carried values, with the types they were carried with."""
    result = []
    for k, (o, a) in enumerate(zip(outs, args)):
        o = _runtime(o, a.dtype, "%s %d" % (what, k))
        if o.shape != a.shape:
            raise NodeError("%s %d changes from %s to %s in the body; amp needs static "
                            "loop-carried shapes" % (what, k, a.type, o.type))
        result.append(o)
    return result


# --- If ------------------------------------------------------------------------

def import_if(node, inputs, values, em, opset, convert_nodes):
    """If: the chosen branch in place for a condition known at import time
    (static shapes make most shape conditions so; --const makes input
    conditions so), else scf.if."""
    then_g, else_g = node.attr("then_branch"), node.attr("else_branch")
    cond = inputs[0]
    if cond is None:
        raise NodeError("the condition is missing")
    if cond.is_const:
        branch = then_g if bool(cond.const.reshape(-1)[0]) else else_g
        outs = _subgraph(branch, values, [], em, opset, convert_nodes, "the branch")
        em.at(node.name)
        return outs
    if cond.dtype != np.bool_:
        raise NodeError("the condition is %s, not bool" % cond.dtype.name)
    mark = len(em.lines)
    c = _scalar(em, cond, "the condition")
    head = em.reserve()
    em.open_region()
    then_outs = _subgraph(then_g, values, [], em, opset, convert_nodes, "then_branch")
    then_at = len(em.lines)
    em.lines.append(None)  # the yield, once the types are settled
    em.close_region()
    em.lines.append(em.indent + "} else {")
    em.open_region()
    else_outs = _subgraph(else_g, values, [], em, opset, convert_nodes, "else_branch")
    if len(then_outs) != len(else_outs):
        raise NodeError("then_branch has %d outputs, else_branch %d"
                        % (len(then_outs), len(else_outs)))
    # One static type per result. Equal constants need no result at all
    # (shape computations in both branches, say).
    outputs, yields = [None] * len(then_outs), []
    for k, (t, e) in enumerate(zip(then_outs, else_outs)):
        if (t.is_const and e.is_const and t.shape == e.shape and t.dtype == e.dtype
                and np.array_equal(t.const, e.const)):
            outputs[k] = t
            continue
        dtype = _runtime_dtype(t.dtype if not t.is_const else e.dtype)
        t = _runtime(t, dtype, "output %d" % k)
        e = _runtime(e, dtype, "output %d" % k)
        if t.shape != e.shape:
            raise NodeError("output %d ('%s') is %s in then_branch and %s in else_branch; "
                            "amp needs one static type for both"
                            % (k, node.proto.output[k] if k < len(node.proto.output) else "",
                               t.type, e.type))
        if t.dtype not in (np.float32, np.float16, np.int32, np.bool_):
            raise NodeError("output %d is %s at run time; amp runs float32/float16 with "
                            "int32/bool integers" % (k, t.dtype.name))
        yields.append((k, t, e))
    _yield(em, [e for _, _, e in yields])
    em.close_region()
    em.at(node.name)
    if not yields:
        # Every output is the same constant: the condition does not matter.
        em.truncate(mark)
        return outputs
    # The then-branch yield, at the then-branch's indentation.
    saved = em.lines[then_at + 1:]
    del em.lines[then_at:]
    em.open_region()
    _yield(em, [t for _, t, _ in yields])
    em.close_region()
    # _yield may have materialized constants: they sit before the yield,
    # still inside the then-region.
    em.lines.extend(saved)
    results = _results(em.fresh(), [Value(t.shape, t.dtype) for _, t, _ in yields])
    base = results[0].name.split("#")[0]
    count = (":%d" % len(results)) if len(results) > 1 else ""
    em.fill(head, ["%s%s = scf.if %s -> (%s) {" % (base, count, c, _types(results))])
    em.lines.append(em.indent + "} " + em.loc)
    for (k, _, _), r in zip(yields, results):
        outputs[k] = r
    return outputs


# --- Loop ----------------------------------------------------------------------

def import_loop(node, inputs, values, em, opset, convert_nodes):
    body = node.attr("body")
    trip = inputs[0] if inputs else None
    cond = inputs[1] if len(inputs) > 1 else None
    inits = [_carried(v, "loop-carried value %d" % k) for k, v in enumerate(inputs[2:])]
    if any(v is None for v in inits):
        raise NodeError("a loop-carried initial value is missing")
    n_scan = len(body.output) - 1 - len(inits)
    if len(body.input) != 2 + len(inits) or n_scan < 0:
        raise NodeError("the body takes %d inputs and gives %d outputs for %d carried values"
                        % (len(body.input), len(body.output), len(inits)))
    if trip is not None and trip.size != 1:
        raise NodeError("the trip count M must be a scalar")
    if cond is not None and cond.is_const and not bool(cond.const.reshape(-1)[0]):
        if n_scan:
            raise NodeError("scan outputs of a loop that never runs are not supported")
        return inits  # never enters the body
    always = cond is None or cond.is_const
    if trip is None and always:
        raise NodeError("a Loop without trip count whose condition is always true never ends")
    if trip is not None and always:
        mark = len(em.lines)
        outs = _loop_for(node, body, trip, inits, n_scan, values, em, opset, convert_nodes)
        if outs is not None:
            return outs
        em.truncate(mark)  # the body computes its condition: a while loop
    if n_scan:
        raise NodeError("scan outputs of a Loop that stops on a condition computed at run "
                        "time are not supported (their length is unknown at import time)")
    return _loop_while(node, body, trip, cond, inits, values, em, opset, convert_nodes)


def _loop_for(node, body, trip, inits, n_scan, values, em, opset, convert_nodes):
    """scf.for over the trip count, when the body's condition output folds
    to true; None otherwise (nothing emitted is kept)."""
    lower, step = _index_constant(em, 0), _index_constant(em, 1)
    if trip.is_const:
        count = int(trip.const.reshape(-1)[0])
        if count > _I32.max:
            raise NodeError("trip count %d is beyond what amp runs" % count)
        count = max(count, 0)
        upper = _index_constant(em, count)
    else:
        if n_scan:
            raise NodeError("scan outputs of a Loop need a trip count known at import time "
                            "(use --const for the input that sets it)")
        count = None
        m = _scalar(em, trip, "the trip count")
        upper = em.fresh()
        em.emit("%s = arith.index_cast %s : %s to index"
                % (upper, m, element_type(trip.dtype)))
    init_names = [em.use(v) for v in inits]
    head = em.reserve()
    em.open_region()
    iv = em.fresh()
    args = [Value(v.shape, v.dtype, name=em.fresh()) for v in inits]
    bindings = [_iteration(em, iv, "index") if _uses(body, body.input[0].name) else None,
                Value.constant(np.array(True))] + args
    outs = _subgraph(body, values, bindings, em, opset, convert_nodes, "the body")
    stop = outs[0]
    if not (stop.is_const and bool(stop.const.reshape(-1)[0])):
        em.close_region()
        return None
    new = _check_carried(outs[1:1 + len(inits)], args, "loop-carried value")
    # Scan outputs: accumulators tensor<M x ...> written at the iteration.
    accs, inserted = [], []
    for k, part in enumerate(outs[1 + len(inits):]):
        part = _runtime(part, _runtime_dtype(part.dtype), "scan output %d" % k)
        acc = Value((count,) + part.shape, part.dtype, name=em.fresh())
        accs.append(acc)
        inserted.append(_insert_at(em, part, acc, 0, iv))
    _yield(em, new + inserted)
    em.close_region()
    em.at(node.name)
    empties = []
    for acc in accs:
        empties.append((em.fresh(), acc.type))
    carried = [Value(v.shape, v.dtype) for v in inits + accs]
    name = em.fresh()
    _results(name, carried)
    iter_args = ", ".join("%s = %s" % (a.name, n)
                          for a, n in zip(args + accs, init_names + [e for e, _ in empties]))
    count_s = (":%d" % len(carried)) if len(carried) > 1 else ""
    em.fill(head, ["%s = tensor.empty() : %s" % e for e in empties]
            + ["%s%s = scf.for %s = %s to %s step %s%s -> (%s) {"
               % (name, count_s, iv, lower, upper, step,
                  (" iter_args(%s)" % iter_args) if carried else "", _types(carried))])
    em.lines.append(em.indent + "} " + em.loc)
    return carried


def _iteration(em, counter, type_):
    """ONNX's iteration number (int64 scalar) as a runtime tensor<i32>."""
    if type_ == "index":
        i = em.fresh()
        em.emit("%s = arith.index_cast %s : index to i32" % (i, counter), loc=False)
        counter = i
    it = em.new((), np.int32)
    em.emit("%s = tensor.from_elements %s : %s" % (it.name, counter, it.type), loc=False)
    return it


def _loop_while(node, body, trip, cond, inits, values, em, opset, convert_nodes):
    """scf.while: the state is (condition, iteration count, carried values);
    the before-region tests the condition (and the count against the trip
    count), the after-region runs the body."""
    if cond is None or cond.is_const:
        go0 = em.fresh()
        em.emit("%s = arith.constant true" % go0, loc=False)
    else:
        go0 = _scalar(em, cond, "the condition")
    zero, one = _index_constant(em, 0, "i32"), _index_constant(em, 1, "i32")
    limit = None
    if trip is not None:
        if trip.is_const:
            count = int(trip.const.reshape(-1)[0])
            # Exporters write INT64_MAX for "no limit"; 2^31 iterations
            # are beyond any run, so a larger count is no limit either.
            if count <= _I32.max:
                limit = _index_constant(em, max(count, 0), "i32")
        else:
            limit = _scalar(em, trip, "the trip count")
    init_names = [em.use(v) for v in inits]
    head = em.reserve()
    em.open_region()
    w_go, w_k = em.fresh(), em.fresh()
    w_args = [Value(v.shape, v.dtype, name=em.fresh()) for v in inits]
    go = w_go
    if limit is not None:
        below, both = em.fresh(), em.fresh()
        em.emit("%s = arith.cmpi slt, %s, %s : i32" % (below, w_k, limit), loc=False)
        em.emit("%s = arith.andi %s, %s : i1" % (both, w_go, below), loc=False)
        go = both
    em.emit("scf.condition(%s) %s : %s" % (go, ", ".join([w_k] + [a.name for a in w_args]),
                                            ", ".join(["i32"] + [a.type for a in w_args])),
            loc=False)
    em.close_region()
    em.lines.append(em.indent + "} do {")
    em.open_region()
    k = em.fresh()
    args = [Value(v.shape, v.dtype, name=em.fresh()) for v in inits]
    em.lines.append(em.indent[:-2] + "^bb0(%s):" % ", ".join(
        ["%s: i32" % k] + ["%s: %s" % (a.name, a.type) for a in args]))
    bindings = [_iteration(em, k, "i32") if _uses(body, body.input[0].name) else None,
                Value.constant(np.array(True))] + args
    outs = _subgraph(body, values, bindings, em, opset, convert_nodes, "the body")
    stop = outs[0]
    if stop.is_const:
        go_next = em.fresh()
        em.emit("%s = arith.constant %s" % (go_next, "true" if bool(stop.const.reshape(-1)[0])
                                             else "false"), loc=False)
    else:
        if stop.dtype != np.bool_:
            raise NodeError("the body's condition output is %s, not bool" % stop.dtype.name)
        go_next = _scalar(em, stop, "the body's condition output")
    new = _check_carried(outs[1:], args, "loop-carried value")
    k_next = em.fresh()
    em.emit("%s = arith.addi %s, %s : i32" % (k_next, k, one), loc=False)
    names = [em.use(v) for v in new]
    em.emit("scf.yield %s : %s" % (", ".join([go_next, k_next] + names),
                                   ", ".join(["i1", "i32"] + [v.type for v in new])), loc=False)
    em.close_region()
    em.at(node.name)
    results = [Value((), np.int32)] + [Value(v.shape, v.dtype) for v in inits]
    name = em.fresh()
    _results(name, results)
    state = ", ".join("%s = %s" % p for p in
                      zip([w_go, w_k] + [a.name for a in w_args], [go0, zero] + init_names))
    em.fill(head, ["%s:%d = scf.while (%s) : (%s) -> (%s) {"
                   % (name, len(results), state,
                      ", ".join(["i1", "i32"] + [v.type for v in inits]),
                      ", ".join(["i32"] + [v.type for v in inits]))])
    em.lines.append(em.indent + "} " + em.loc)
    return results[1:]


# --- Scan ----------------------------------------------------------------------

def import_scan(node, inputs, values, em, opset, convert_nodes):
    if opset < 9:
        raise NodeError("Scan before opset 9 (with sequence_lens) is not supported")
    body = node.attr("body")
    n_in = node.attr("num_scan_inputs")
    if n_in is None or n_in < 1 or n_in > len(inputs):
        raise NodeError("num_scan_inputs must be between 1 and the number of inputs")
    states = [_carried(v, "state %d" % k) for k, v in enumerate(inputs[:len(inputs) - n_in])]
    xs = inputs[len(inputs) - n_in:]
    if any(v is None for v in states + xs):
        raise NodeError("an input is missing")
    n_out = len(body.output) - len(states)
    if len(body.input) != len(inputs) or n_out < 0:
        raise NodeError("the body takes %d inputs and gives %d outputs for %d states and %d "
                        "scan inputs" % (len(body.input), len(body.output), len(states), n_in))
    in_dirs = list(node.attr("scan_input_directions", None) or [0] * n_in)
    in_axes = list(node.attr("scan_input_axes", None) or [0] * n_in)
    out_dirs = list(node.attr("scan_output_directions", None) or [0] * n_out)
    out_axes = list(node.attr("scan_output_axes", None) or [0] * n_out)
    if len(in_dirs) != n_in or len(in_axes) != n_in or len(out_dirs) != n_out \
            or len(out_axes) != n_out:
        raise NodeError("scan directions and axes must have one entry per scan input/output")
    axes = []
    for x, a in zip(xs, in_axes):
        if not -x.rank <= a < x.rank:
            raise NodeError("scan_input_axes %d is out of range for %s" % (a, x.type))
        axes.append(a % x.rank)
    lengths = {x.shape[a] for x, a in zip(xs, axes)}
    if len(lengths) != 1:
        raise NodeError("the scan inputs have different lengths %s along their scan axes"
                        % sorted(lengths))
    count = lengths.pop()
    lower, upper, step = (_index_constant(em, 0), _index_constant(em, count),
                          _index_constant(em, 1))
    init_names = [em.use(v) for v in states]
    for x in xs:
        em.use(x)  # before the loop: a constant scan input is materialized once
    head = em.reserve()
    em.open_region()
    iv = em.fresh()
    args = [Value(v.shape, v.dtype, name=em.fresh()) for v in states]
    slices = []
    for x, a, d in zip(xs, axes, in_dirs):
        slices.append(_slice_at(em, x, a, _position(em, iv, count, d == 1)))
    outs = _subgraph(body, values, args + slices, em, opset, convert_nodes, "the body")
    new = _check_carried(outs[:len(states)], args, "state")
    accs, inserted = [], []
    for k, (part, a, d) in enumerate(zip(outs[len(states):], out_axes, out_dirs)):
        part = _runtime(part, _runtime_dtype(part.dtype), "scan output %d" % k)
        if not -(part.rank + 1) <= a <= part.rank:
            raise NodeError("scan_output_axes %d is out of range" % a)
        a %= part.rank + 1
        acc = Value(part.shape[:a] + (count,) + part.shape[a:], part.dtype, name=em.fresh())
        accs.append(acc)
        inserted.append(_insert_at(em, part, acc, a, _position(em, iv, count, d == 1)))
    _yield(em, new + inserted)
    em.close_region()
    em.at(node.name)
    empties = [(em.fresh(), acc.type) for acc in accs]
    carried = [Value(v.shape, v.dtype) for v in states + accs]
    name = em.fresh()
    _results(name, carried)
    iter_args = ", ".join("%s = %s" % (a.name, n)
                          for a, n in zip(args + accs, init_names + [e for e, _ in empties]))
    em.fill(head, ["%s = tensor.empty() : %s" % e for e in empties]
            + ["%s%s = scf.for %s = %s to %s step %s iter_args(%s) -> (%s) {"
               % (name, (":%d" % len(carried)) if len(carried) > 1 else "", iv, lower,
                  upper, step, iter_args, _types(carried))])
    em.lines.append(em.indent + "} " + em.loc)
    return carried
