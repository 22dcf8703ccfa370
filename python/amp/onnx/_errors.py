# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The errors of the ONNX importer (the first stage: it imports nothing).

OnnxImportError is what users see: the model cannot be imported faithfully,
and the message names the node (or graph input) and why. NodeError is what
converters raise; the importer turns it into an OnnxImportError naming the
node and its op.
"""


class OnnxImportError(Exception):
    """The model cannot be imported faithfully; the message names the node."""


class NodeError(Exception):
    """Raised by converters; the importer adds the node's name and op."""
