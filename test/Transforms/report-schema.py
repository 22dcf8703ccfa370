# The JSON report follows docs/report.schema.json (version 1): the reports
# of every .mlir input of this test suite under each placement and type,
# and of amp.convert (the C API's in-memory report), validate against it;
# reports that break it (a missing field, an unknown mode, another version)
# do not.
# RUN: env AMP_CAPI_LIBRARY=%amp_capi_lib PYTHONPATH=%amp_python_path %python %s %amp_opt %S/.. %S/../../docs/report.schema.json | FileCheck %s
# CHECK: amp-opt: {{[1-9][0-9]*}} reports valid, 0 invalid
# CHECK-NEXT: amp.convert: valid
# CHECK-NEXT: missing summary: rejected
# CHECK-NEXT: unknown mode: rejected
# CHECK-NEXT: version 2: rejected

import copy
import glob
import json
import os
import subprocess
import sys

import jsonschema

amp_opt, test_dir, schema_path = sys.argv[1:4]
with open(schema_path) as f:
    schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)

OPTIONS = ["", "precision=bf16", "placement=greedy", "placement=naive",
           "accumulate=low", "target=vulkan-storage16"]
inputs = sorted(glob.glob(os.path.join(test_dir, "Transforms", "*.mlir")) +
                glob.glob(os.path.join(test_dir, "Integration", "*.mlir")))
valid = invalid = 0
for path in inputs:
    for options in OPTIONS:
        pipeline = "builtin.module(mixed-precision{report=- %s})" % options
        run = subprocess.run([amp_opt, path, "--split-input-file",
                              "--allow-unregistered-dialect", "-p", pipeline,
                              "-o", os.devnull],
                             capture_output=True, text=True)
        # Splits the pass rejects on purpose (error tests) print no report.
        decoder = json.JSONDecoder()
        text = run.stdout
        pos = 0
        while True:
            while pos < len(text) and text[pos].isspace():
                pos += 1
            if pos >= len(text):
                break
            if text[pos] != "{":
                # "// -----" separators between splits
                pos = text.find("\n", pos) + 1 or len(text)
                continue
            report, pos = decoder.raw_decode(text, pos)
            errors = list(validator.iter_errors(report))
            if errors:
                invalid += 1
                print("%s {%s}: %s" % (os.path.basename(path), options,
                                       errors[0].message), file=sys.stderr)
            else:
                valid += 1
print("amp-opt: %d reports valid, %d invalid" % (valid, invalid))

import amp
result = amp.convert(open(os.path.join(test_dir, "..", "examples",
                                       "mlp.mlir")).read())
validator.validate(result.report)
print("amp.convert: valid")


def rejected(name, change):
    broken = copy.deepcopy(result.report)
    change(broken)
    try:
        validator.validate(broken)
        print("%s: accepted" % name)
    except jsonschema.ValidationError:
        print("%s: rejected" % name)


rejected("missing summary", lambda r: r.pop("summary"))
rejected("unknown mode", lambda r: r["ops"][0].update(mode="half"))
rejected("version 2", lambda r: r.update(version=2))
