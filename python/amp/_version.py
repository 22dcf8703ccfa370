# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""amp's version: the Python package's, and the C API library's it goes with
(AMP_VERSION in lib/CAPI/Amp.cpp). pyproject.toml reads it from here."""

__version__ = "0.1.0"
