"""Extracts the PTX of every gpu.binary (format=isa) in amp-opt's output.

    ptx_of.py OUT_PREFIX < lowered.mlir
        writes OUT_PREFIX.N.ptx per binary and prints, per binary, one line
        "binary NAME: st.shared=A ld.shared=B bar.sync=C shfl.sync=D
        fma.rn.f32=E mma.f16=F mma.bf16=G ldmatrix=H cp.async=I
        st.global.v2=J mma.tf32=K" (how many
        of each instruction its PTX has; mma.T counts m16n8k16 mma.sync on
        T operands with f32 accumulators, cp.async the 16-byte copies,
        st.global.v2 the stores of vectors of two, mma.tf32 m16n8k8 TF32
        mma.sync);
    ptx_of.py --ptxas PTXAS --arch sm_80 OUT_PREFIX < lowered.mlir
        also assembles each with `ptxas -v` and prints, per kernel, one line
        "ptxas: KERNEL registers=R spill_stores=S spill_loads=L smem=B".
"""
import re
import subprocess
import sys


def unescape(text):
    # MLIR prints non-printable bytes of string attributes as \XX (hex).
    out = bytearray()
    i = 0
    raw = text.encode()
    while i < len(raw):
        if raw[i] == ord("\\") and i + 1 < len(raw):
            if raw[i + 1] == ord("\\"):
                out.append(ord("\\"))
                i += 2
                continue
            out.append(int(raw[i + 1:i + 3], 16))
            i += 3
            continue
        out.append(raw[i])
        i += 1
    return out.decode()


def main():
    args = sys.argv[1:]
    ptxas = arch = None
    if args and args[0] == "--ptxas":
        ptxas, arch, args = args[1], args[3], args[4:]
    prefix = args[0]
    text = sys.stdin.read()
    binaries = re.findall(
        r'gpu.binary @(\S+) .*?assembly = "((?:[^"\\]|\\.)*)"', text)
    if not binaries:
        print("ptx_of: no PTX assembly in the input", file=sys.stderr)
        return 1
    for n, (name, escaped) in enumerate(binaries):
        ptx = unescape(escaped)
        path = "%s.%d.ptx" % (prefix, n)
        with open(path, "w") as f:
            f.write(ptx)
        if not ptxas:
            counts = ["%s=%d" % (op, len(re.findall(r"\b%s\b" % re.escape(op),
                                                    ptx)))
                      for op in ("st.shared", "ld.shared", "bar.sync",
                                 "shfl.sync", "fma.rn.f32")]
            # Tensor cores: mma.sync by operand types, ldmatrix, cp.async.
            for types in ("f32.f16.f16.f32", "f32.bf16.bf16.f32"):
                counts.append("mma.%s=%d" % (types.split(".")[1], len(
                    re.findall(r"mma\.sync\.aligned\.m16n8k16\.row\.col\."
                               + re.escape(types), ptx))))
            counts.append("ldmatrix=%d" % len(re.findall(r"\bldmatrix\.", ptx)))
            counts.append("cp.async=%d" % len(
                re.findall(r"\bcp\.async\.cg\.shared\.global", ptx)))
            counts.append("st.global.v2=%d" % len(
                re.findall(r"\bst\.global\.v2\.", ptx)))
            counts.append("mma.tf32=%d" % len(re.findall(
                r"mma\.sync\.aligned\.m16n8k8\.row\.col\.f32\.tf32\.tf32\.f32",
                ptx)))
            print("binary %s: %s" % (name, " ".join(counts)))
            continue
        run = subprocess.run([ptxas, "-v", "-arch=" + arch, path, "-o",
                              path + ".cubin"], stderr=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
        if run.returncode != 0:
            print(run.stderr, file=sys.stderr)
            return 1
        kernel = None
        for line in run.stderr.splitlines():
            m = re.search(r"Compiling entry function '([^']+)'", line)
            if m:
                kernel = m.group(1)
                spills = (0, 0)
                smem = 0
            m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads",
                          line)
            if m:
                spills = (int(m.group(1)), int(m.group(2)))
            m = re.search(r"Used (\d+) registers(.*)", line)
            if m and kernel:
                s = re.search(r"(\d+) bytes smem", m.group(2))
                smem = int(s.group(1)) if s else 0
                print("ptxas: %s registers=%s spill_stores=%d spill_loads=%d "
                      "smem=%d" % (kernel, m.group(1), spills[0], spills[1],
                                   smem))
    return 0


if __name__ == "__main__":
    sys.exit(main())
