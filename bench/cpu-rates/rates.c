// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// How fast this CPU retires the instructions amp's x86 kernels choose
// between: each loop runs 24 independent copies of one instruction on
// registers (12 accumulators, two rounds), so what it times is throughput,
// not latency. Prints one line per instruction named on the command line:
//   NAME NS_PER_INSTRUCTION
// The caller checks the CPU has each instruction (an absent one traps).

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

// Twelve copies of `op SRC, zmm30, zmmK` for K = 0..11.
#define TWELVE(op, src)                                                        \
  op " " src ",%%zmm30,%%zmm0\n" op " " src ",%%zmm30,%%zmm1\n" op " " src     \
     ",%%zmm30,%%zmm2\n" op " " src ",%%zmm30,%%zmm3\n" op " " src             \
     ",%%zmm30,%%zmm4\n" op " " src ",%%zmm30,%%zmm5\n" op " " src             \
     ",%%zmm30,%%zmm6\n" op " " src ",%%zmm30,%%zmm7\n" op " " src             \
     ",%%zmm30,%%zmm8\n" op " " src ",%%zmm30,%%zmm9\n" op " " src             \
     ",%%zmm30,%%zmm10\n" op " " src ",%%zmm30,%%zmm11\n"
// Twelve copies of a one-source instruction writing zmm0..zmm11 (or their
// low halves): nothing depends on the result.
#define TWELVE1(op, src, d)                                                    \
  op " " src ",%%" d "0\n" op " " src ",%%" d "1\n" op " " src ",%%" d         \
     "2\n" op " " src ",%%" d "3\n" op " " src ",%%" d "4\n" op " " src        \
     ",%%" d "5\n" op " " src ",%%" d "6\n" op " " src ",%%" d "7\n" op        \
     " " src ",%%" d "8\n" op " " src ",%%" d "9\n" op " " src ",%%" d         \
     "10\n" op " " src ",%%" d "11\n"

#define LOOP(name, body)                                                       \
  static double name(long n) {                                                 \
    double start = now();                                                      \
    __asm__ volatile("vpxord %%zmm30,%%zmm30,%%zmm30\n"                        \
                     "vpxord %%zmm31,%%zmm31,%%zmm31\n"                        \
                     "1:\n" body body "dec %0\n"                               \
                     "jnz 1b\n"                                                \
                     : "+r"(n)                                                 \
                     :                                                         \
                     : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", \
                       "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "cc");        \
    return now() - start;                                                      \
  }

// The same with AVX2's 16 ymm registers (ymm0..11 written, ymm14/15 read).
#define TWELVE_YMM(op)                                                         \
  op " %%ymm15,%%ymm14,%%ymm0\n" op " %%ymm15,%%ymm14,%%ymm1\n" op             \
     " %%ymm15,%%ymm14,%%ymm2\n" op " %%ymm15,%%ymm14,%%ymm3\n" op             \
     " %%ymm15,%%ymm14,%%ymm4\n" op " %%ymm15,%%ymm14,%%ymm5\n" op             \
     " %%ymm15,%%ymm14,%%ymm6\n" op " %%ymm15,%%ymm14,%%ymm7\n" op             \
     " %%ymm15,%%ymm14,%%ymm8\n" op " %%ymm15,%%ymm14,%%ymm9\n" op             \
     " %%ymm15,%%ymm14,%%ymm10\n" op " %%ymm15,%%ymm14,%%ymm11\n"
#define LOOP_YMM(name, body)                                                   \
  static double name(long n) {                                                 \
    double start = now();                                                      \
    __asm__ volatile("vpxor %%ymm14,%%ymm14,%%ymm14\n"                         \
                     "vpxor %%ymm15,%%ymm15,%%ymm15\n"                         \
                     "1:\n" body body "dec %0\n"                               \
                     "jnz 1b\n"                                                \
                     : "+r"(n)                                                 \
                     :                                                         \
                     : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", \
                       "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm14",      \
                       "xmm15", "cc");                                         \
    return now() - start;                                                      \
  }

LOOP(fma_f32, TWELVE("vfmadd231ps", "%%zmm31"))
LOOP_YMM(fma_f32_ymm, TWELVE_YMM("vfmadd231ps"))
LOOP(dot_bf16, TWELVE("vdpbf16ps", "%%zmm31"))
LOOP(fma_f16, TWELVE("vfmadd231ph", "%%zmm31"))
LOOP(widen_bf16, TWELVE1("vpmovzxwd", "%%ymm31", "zmm")
                     TWELVE1("vpslld $16,", "%%zmm31", "zmm"))
LOOP(round_bf16, TWELVE1("vcvtneps2bf16", "%%zmm31", "ymm"))
LOOP(widen_f16, TWELVE1("vcvtph2ps", "%%ymm31", "zmm"))

static const struct {
  const char *name;
  double (*loop)(long);
  int perIteration;
} loops[] = {
    {"fma_f32", fma_f32, 24},       {"fma_f32_ymm", fma_f32_ymm, 24},
    {"dot_bf16", dot_bf16, 24},     {"fma_f16", fma_f16, 24},
    {"widen_bf16", widen_bf16, 24}, {"round_bf16", round_bf16, 24},
    {"widen_f16", widen_f16, 24},
};

int main(int argc, char **argv) {
  long iterations = 10000000;
  for (int a = 1; a < argc; ++a) {
    int found = 0;
    for (unsigned i = 0; i < sizeof(loops) / sizeof(loops[0]); ++i) {
      if (strcmp(argv[a], loops[i].name))
        continue;
      found = 1;
      double best = 1e9;
      for (int round = 0; round < 5; ++round) {
        double t = loops[i].loop(iterations);
        if (t < best)
          best = t;
      }
      printf("%s %.4f\n", loops[i].name,
             best / iterations / loops[i].perIteration * 1e9);
    }
    if (!found) {
      fprintf(stderr, "rates: unknown instruction '%s'\n", argv[a]);
      return 1;
    }
  }
  return 0;
}
