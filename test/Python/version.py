# RUN: env AMP_CAPI_LIBRARY=%amp_capi_lib PYTHONPATH=%amp_python_path %python %s %amp_python_path | FileCheck %s
#
# amp.__version__ is the package's version (amp/_version.py, which
# pyproject.toml reads); it is the version of the C API library it goes
# with (amp.version()). pyproject.toml names every package under python/amp.
import os
import re
import sys

import amp

print("__version__:", amp.__version__)
# CHECK: __version__: {{[0-9]+\.[0-9]+\.[0-9]+$}}
library = re.match(r"amp (\S+) \(MLIR ([^)]+)\)$", amp.version())
print("library:", library.group(1) == amp.__version__, "MLIR", library.group(2))
# CHECK-NEXT: library: True MLIR {{[0-9]+}}.

root = sys.argv[1]
try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None
with open(os.path.join(root, "pyproject.toml"), "rb") as f:
    text = f.read()
if tomllib:
    project = tomllib.loads(text.decode())
    version_attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    packages = project["tool"]["setuptools"]["packages"]
    backend = project["build-system"]["build-backend"]
else:
    version_attr = re.search(rb'attr = "([^"]+)"', text).group(1).decode()
    packages = re.findall(r'"(amp[\w.]*)"', re.search(rb"packages = \[([^\]]*)\]",
                                                       text).group(1).decode())
    backend = re.search(rb'build-backend = "([^"]+)"', text).group(1).decode()
print("pyproject:", backend, version_attr, packages)
# CHECK-NEXT: pyproject: setuptools.build_meta amp._version.__version__ ['amp', 'amp.onnx']
module, _, attr = version_attr.rpartition(".")
print("attr:", getattr(__import__(module, fromlist=[attr]), attr) == amp.__version__)
# CHECK-NEXT: attr: True
found = sorted(os.path.relpath(d, root).replace(os.sep, ".")
               for d, _, files in os.walk(os.path.join(root, "amp")) if "__init__.py" in files)
print("packages listed:", found == sorted(packages))
# CHECK-NEXT: packages listed: True
