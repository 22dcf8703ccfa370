# RUN: env PYTHONPATH=%amp_python_path %python %s %amp_python_path | FileCheck %s
#
# amp.onnx is a chain of stages without import cycles: errors, ir, emitter,
# builders and registry, the op modules (each registers its converters),
# the importer, then the package and its command line. Checked two ways:
# the imports written in every module (anywhere, functions included) form
# a DAG, with no import inside a function; and each submodule imports alone
# in a fresh interpreter, in reverse order (dependents first), without the
# package's __init__ having imported the others before it. The check and
# conformance tools and the ONNX Runtime runner are not in the package
# (tools/onnx).
import ast
import os
import subprocess
import sys

root = sys.argv[1]
pkg = os.path.join(root, "amp", "onnx")
modules = sorted(f[:-3] for f in os.listdir(pkg) if f.endswith(".py"))
print("modules:", " ".join(modules))
# CHECK: modules: __init__ __main__ _builders _control_flow _emitter _errors _fold _importer _ir _ops_elementwise _ops_nn _ops_recurrent _ops_shape _registry _resize
print("subpackages:", [d for d in os.listdir(pkg)
                       if os.path.isdir(os.path.join(pkg, d)) and d != "__pycache__"])
# CHECK-NEXT: subpackages: []


def sibling_imports(name):
    """(imported sibling, line, inside a function) for every import in module `name`."""
    with open(os.path.join(pkg, name + ".py")) as f:
        tree = ast.parse(f.read())
    found = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                      ast.Lambda))
            targets = []
            if isinstance(child, ast.ImportFrom):
                if child.level == 1 and child.module:
                    targets = [child.module.split(".")[0]]
                elif child.level == 1:
                    # `from . import x`: the submodule x, or a name of __init__.
                    targets = [a.name if a.name in modules else "__init__"
                               for a in child.names]
                elif child.level == 0 and (child.module or "").startswith("amp.onnx"):
                    rest = child.module[len("amp.onnx"):].lstrip(".")
                    targets = [rest.split(".")[0] or "__init__"]
            elif isinstance(child, ast.Import):
                for a in child.names:
                    if a.name.startswith("amp.onnx."):
                        targets.append(a.name.split(".")[2])
            for t in targets:
                if t in modules:
                    found.append((t, child.lineno, in_function))
            visit(child, inner)

    visit(tree, False)
    return found


graph = {}
for m in modules:
    deps = sibling_imports(m)
    for t, line, in_function in deps:
        if in_function:
            print("import inside a function: %s.py:%d imports %s" % (m, line, t))
    graph[m] = sorted({t for t, _, _ in deps} - {m})
# CHECK-NOT: import inside a function

# Kahn's algorithm: stages, each depending only on earlier ones.
order, stages, left = [], [], dict(graph)
while left:
    ready = sorted(m for m, deps in left.items() if all(d in order for d in deps))
    if not ready:
        print("cycle among:", " ".join(sorted(left)))
        break
    stages.append(ready)
    order += ready
    for m in ready:
        del left[m]
for i, stage in enumerate(stages):
    print("stage %d: %s" % (i, " ".join(stage)))
# CHECK-NOT: cycle
# CHECK: stage 0: _errors
# CHECK-NEXT: stage 1: _ir _resize
# CHECK-NEXT: stage 2: _builders _control_flow _emitter _registry
# CHECK-NEXT: stage 3: _fold _ops_elementwise _ops_nn _ops_recurrent
# CHECK-NEXT: stage 4: _ops_shape
# CHECK-NEXT: stage 5: _importer
# CHECK-NEXT: stage 6: __init__
# CHECK-NEXT: stage 7: __main__

# Each submodule alone, dependents first, in a fresh interpreter: below the
# package, the packages are stubs, so only what the module imports itself is
# loaded, and a cycle would fail with "partially initialized module". (The
# package and __main__, which imports it, are imported as they are.)
STUB = """
import importlib, sys, types
if sys.argv[1] in ("__init__", "__main__"):
    import amp.onnx
    if sys.argv[1] == "__main__":
        import amp.onnx.__main__
else:
    for name, path in (("amp", %r), ("amp.onnx", %r)):
        m = types.ModuleType(name)
        m.__path__ = [path]
        sys.modules[name] = m
    importlib.import_module("amp.onnx." + sys.argv[1])
loaded = sorted(k[len("amp.onnx."):] for k in sys.modules if k.startswith("amp.onnx."))
print(" ".join(loaded))
""" % (os.path.join(root, "amp"), pkg)
for m in reversed(order):
    cmd = [sys.executable, "-c", STUB, m]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    last = (p.stdout.strip().splitlines() or [""])[-1]
    print("alone %s: exit %d, loads %s" % (m, p.returncode, last or "-"))
# CHECK: alone __main__: exit 0, loads __main__ _builders _control_flow _emitter _errors _fold _importer _ir _ops_elementwise _ops_nn _ops_recurrent _ops_shape _registry _resize
# CHECK-NEXT: alone __init__: exit 0, loads _builders _control_flow _emitter _errors _fold _importer _ir _ops_elementwise _ops_nn _ops_recurrent _ops_shape _registry _resize
# CHECK-NEXT: alone _importer: exit 0, loads _builders _control_flow _emitter _errors _fold _importer _ir _ops_elementwise _ops_nn _ops_recurrent _ops_shape _registry _resize
# CHECK-NEXT: alone _ops_shape: exit 0, loads _builders _errors _fold _ir _ops_shape _registry
# CHECK-NEXT: alone _ops_recurrent: exit 0, loads _builders _errors _ir _ops_recurrent _registry
# CHECK-NEXT: alone _ops_nn: exit 0, loads _builders _errors _ir _ops_nn _registry _resize
# CHECK-NEXT: alone _ops_elementwise: exit 0, loads _builders _errors _ir _ops_elementwise _registry
# CHECK-NEXT: alone _fold: exit 0, loads _errors _fold _ir _registry
# CHECK-NEXT: alone _registry: exit 0, loads _errors _ir _registry
# CHECK-NEXT: alone _emitter: exit 0, loads _emitter _errors _ir
# CHECK-NEXT: alone _control_flow: exit 0, loads _control_flow _errors _ir
# CHECK-NEXT: alone _builders: exit 0, loads _builders _errors _ir
# CHECK-NEXT: alone _resize: exit 0, loads _errors _resize
# CHECK-NEXT: alone _ir: exit 0, loads _errors _ir
# CHECK-NEXT: alone _errors: exit 0, loads _errors

# Once the package is imported, the registry holds every op module's
# converters.
sys.path.insert(0, root)
import amp.onnx  # noqa: E402
ops = dict(amp.onnx.supported_ops())
print("registered:", len(ops), all(op in ops for op in ("Conv", "LSTM", "GRU", "RNN", "Reshape",
                                                        "Relu", "Shape", "Constant")))
# CHECK: registered: {{[0-9]+}} True
