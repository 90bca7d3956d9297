#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""archs.py: the cuda module holds code for every architecture CMake was
asked for: machine code (an ELF entry) for each of CMAKE_CUDA_ARCHITECTURES,
and PTX for those without "-real".  Reads the module's .nv_fatbin section
(objcopy), then walks the fat binaries in it: a header (magic 0xBA55ED50,
version, header size, size), then entries, each with a header whose first
word holds the kind in its low 16 bits (1 PTX, 2 ELF), whose second is the
header's size, third the payload's, and eighth the SM version (80, 90 ...).
No cuobjdump is needed (this toolkit ships none).
  archs.py MODULE.so "80-real;90-real;100"   (CTest cuda_module_archs)"""
import os
import struct
import subprocess
import sys
import tempfile

FATBIN_MAGIC = 0xBA55ED50


def entries(blob):
    """(kind, sm) of every entry of every fat binary in blob"""
    found, off = [], 0
    while off + 16 <= len(blob):
        magic, _, hsize, size = struct.unpack_from("<IHHQ", blob, off)
        if magic != FATBIN_MAGIC:
            off += 8  # fat binaries are 8-byte aligned in the section
            continue
        p, end = off + hsize, off + hsize + size
        while p + 32 <= end:
            word = struct.unpack_from("<8I", blob, p)
            found.append((word[0] & 0xFFFF, word[7]))
            p += word[1] + word[2]
        off = end
    return found


def main():
    module, archs = sys.argv[1], sys.argv[2].split(";")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "fatbin")
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin", module, out],
                       check=True)
        with open(out, "rb") as f:
            found = set(entries(f.read()))
    want = set()
    for a in archs:
        sm = int(a.split("-")[0])
        want.add((2, sm))
        if not a.endswith("-real"):
            want.add((1, sm))
    name = {1: "PTX", 2: "sm"}
    print("in the module:", ", ".join(f"{name.get(k, k)} {sm}" for k, sm in sorted(found)))
    missing = want - found
    if missing:
        print("FAIL: missing", ", ".join(f"{name[k]} {sm}" for k, sm in sorted(missing)))
        return 1
    print("every architecture asked for is there:", sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
