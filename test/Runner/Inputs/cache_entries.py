# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Looks at and damages the entries of an amp compile cache, for the tests.

  cache_entries.py count DIR            how many entries DIR holds
  cache_entries.py size DIR             the bytes of its one entry
  cache_entries.py flip DIR             flips one byte in the middle of each
  cache_entries.py truncate DIR         keeps the first 100 bytes of each
  cache_entries.py replace DIR TEXT     replaces each with TEXT
"""
import glob
import os
import sys

command, folder = sys.argv[1], sys.argv[2]
entries = sorted(glob.glob(os.path.join(folder, "*.amp")))
if command == "count":
    print(len(entries))
elif command == "size":
    assert len(entries) == 1, entries
    print(os.path.getsize(entries[0]))
else:
    for path in entries:
        data = bytearray(open(path, "rb").read())
        if command == "flip":
            data[len(data) // 2] ^= 0xFF
        elif command == "truncate":
            data = data[:100]
        elif command == "replace":
            data = sys.argv[3].encode()
        else:
            sys.exit(f"unknown command {command}")
        open(path, "wb").write(bytes(data))
