# RUN: rm -rf %t && mkdir -p %t
# RUN: env PYTHONPATH=%amp_python_path %python %s %amp_capi_lib %t | FileCheck %s
#
# Where the package finds libAmpCAPI.so, in order: $AMP_CAPI_LIBRARY (the
# file or its folder; when set, the only place tried), the path recorded in
# amp/_library_path.txt (an install step writes it), an installed prefix's
# lib/ (<prefix>/lib/python3*/site-packages/amp -> <prefix>/lib), build/lib
# of the source tree, then the dynamic loader's search path. Each case runs
# a copy of the package in a fresh interpreter; a failure lists every place
# tried.
import os
import shutil
import subprocess
import sys

import amp

library = os.path.realpath(sys.argv[1])
tmp = os.path.realpath(sys.argv[2])
package = os.path.dirname(os.path.abspath(amp.__file__))


def copy_package(folder):
    os.makedirs(folder, exist_ok=True)
    dest = os.path.join(folder, "amp")
    shutil.copytree(package, dest, ignore=shutil.ignore_patterns("__pycache__",
                                                                 "_library_path.txt"))
    return dest


def run(label, python_path, env=None):
    """amp.version() from the package under python_path, in a fresh process."""
    code = ("import amp, amp._capi as c\n"
            "try:\n"
            "    v = amp.version()\n"
            "    print('loaded', c.library_path(), v.split()[0])\n"
            "except amp.AmpError as e:\n"
            "    print(e)\n")
    environ = {k: v for k, v in os.environ.items()
               if k not in ("AMP_CAPI_LIBRARY", "LD_LIBRARY_PATH", "PYTHONPATH")}
    environ.update(env or {})
    environ["PYTHONPATH"] = python_path
    p = subprocess.run([sys.executable, "-c", code], env=environ, cwd=tmp,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = p.stdout.strip().replace(tmp, "TMP").replace(library, "LIB")
    for line in out.splitlines():
        print("%s: %s" % (label, line))


# Nothing anywhere: the error lists the places tried, in order.
lone = os.path.join(tmp, "lone")
copy_package(lone)
run("nothing", lone)
# CHECK-LABEL: nothing: cannot find amp's C API library libAmpCAPI.so; looked in:
# CHECK-NEXT: nothing:   TMP/build/lib/libAmpCAPI.so (source tree: not found)
# CHECK-NEXT: nothing:   libAmpCAPI.so (the dynamic loader's search path: {{.*}})
# CHECK-NEXT: nothing: build amp (scripts/setup.sh), set $AMP_CAPI_LIBRARY, or record the path in TMP/lone/amp/_library_path.txt

# $AMP_CAPI_LIBRARY, the file or its folder.
run("env file", lone, {"AMP_CAPI_LIBRARY": library})
run("env folder", lone, {"AMP_CAPI_LIBRARY": os.path.dirname(library)})
# CHECK-LABEL: env file: loaded LIB amp
# CHECK-LABEL: env folder: loaded {{.*}}libAmpCAPI.so amp

# The path recorded next to the package: a file, a folder, or one that is
# not there (listed first).
record = os.path.join(lone, "amp", "_library_path.txt")
with open(record, "w") as f:
    f.write(library + "\n")
run("recorded", lone)
with open(record, "w") as f:
    f.write(os.path.relpath(os.path.dirname(library), os.path.dirname(record)) + "\n")
run("recorded relative folder", lone)
with open(record, "w") as f:
    f.write("/nonexistent/lib\n")
run("recorded missing", lone)
# $AMP_CAPI_LIBRARY still comes first.
run("env over recorded", lone, {"AMP_CAPI_LIBRARY": library})
# CHECK-LABEL: recorded: loaded LIB amp
# CHECK-LABEL: recorded relative folder: loaded {{.*}}libAmpCAPI.so amp
# CHECK-LABEL: recorded missing: cannot find amp's C API library libAmpCAPI.so; looked in:
# CHECK-NEXT: recorded missing:   /nonexistent/lib (TMP/lone/amp/_library_path.txt: not found)
# CHECK-NEXT: recorded missing:   TMP/build/lib/libAmpCAPI.so (source tree: not found)
# CHECK-LABEL: env over recorded: loaded LIB amp

# An installed prefix: <prefix>/lib/python3/site-packages/amp finds
# <prefix>/lib/libAmpCAPI.so.
site = os.path.join(tmp, "prefix", "lib", "python3", "site-packages")
copy_package(site)
run("prefix missing", site)
os.symlink(library, os.path.join(tmp, "prefix", "lib", "libAmpCAPI.so"))
run("prefix", site)
# CHECK-LABEL: prefix missing: cannot find amp's C API library libAmpCAPI.so; looked in:
# CHECK-NEXT: prefix missing:   TMP/prefix/lib/libAmpCAPI.so (installed prefix: not found)
# CHECK-NEXT: prefix missing:   TMP/prefix/lib64/libAmpCAPI.so (installed prefix: not found)
# CHECK-LABEL: prefix: loaded TMP/prefix/lib/libAmpCAPI.so amp

# The source tree: <repo>/python/amp finds <repo>/build/lib.
tree = os.path.join(tmp, "repo")
copy_package(os.path.join(tree, "python"))
os.makedirs(os.path.join(tree, "build", "lib"))
os.symlink(library, os.path.join(tree, "build", "lib", "libAmpCAPI.so"))
run("source tree", os.path.join(tree, "python"))
# CHECK-LABEL: source tree: loaded TMP/repo/build/lib/libAmpCAPI.so amp

# A library that is there but does not load is an error, not skipped.
with open(os.path.join(tmp, "broken.so"), "w") as f:
    f.write("not a library\n")
run("broken", lone, {"AMP_CAPI_LIBRARY": os.path.join(tmp, "broken.so")})
# CHECK-LABEL: broken: cannot load amp's C API library 'TMP/broken.so' ($AMP_CAPI_LIBRARY): {{.+}}
