/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * A C program that runs examples/mlp.mlir, converted to f16 and compiled
 * by amp-compile into libmlp.so (run.sh builds it): no MLIR, no LLVM, no
 * Python at run time, only the library and its header.
 *
 *   classify DIR
 *
 * fills the perceptron's five arguments (a batch of 8 inputs of 64
 * features, and its weights) with seeded values, runs it, prints each
 * row's class, and writes the arguments and the result to DIR as
 * arg<k>.npy and result0.npy, for amp-run to check the result against its
 * own run of the same program.
 */
#include "mlp.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Uniform in [-1, 1), from a 64-bit linear congruential generator. */
static void fill(float *data, int64_t count, uint64_t seed) {
  uint64_t state = seed * 6364136223846793005ull + 1442695040888963407ull;
  for (int64_t i = 0; i < count; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    data[i] = (float)((state >> 40) * (1.0 / (1ull << 24)) * 2.0 - 1.0);
  }
}

/* A little-endian f32 .npy file (format 1.0). */
static int write_npy(const char *dir, const char *name, const float *data,
                     const int64_t *shape, int rank) {
  char path[4096], header[128], dims[64] = "";
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  int64_t count = 1;
  for (int d = 0; d < rank; ++d) {
    char dim[24];
    snprintf(dim, sizeof(dim),
             rank == 1 ? "%lld,"
             : d       ? " %lld"
                       : "%lld",
             (long long)shape[d]);
    if (d && rank > 1)
      strcat(dims, ",");
    strcat(dims, dim);
    count *= shape[d];
  }
  int length = snprintf(header, sizeof(header),
                        "{'descr': '<f4', 'fortran_order': False, "
                        "'shape': (%s), }",
                        dims);
  /* Magic, version, header length; the header padded to 64 bytes in all. */
  int padded = (10 + length + 1 + 63) / 64 * 64 - 10;
  FILE *file = fopen(path, "wb");
  if (!file)
    return 1;
  unsigned char prefix[10] = {0x93,
                              'N',
                              'U',
                              'M',
                              'P',
                              'Y',
                              1,
                              0,
                              (unsigned char)(padded & 0xff),
                              (unsigned char)(padded >> 8)};
  fwrite(prefix, 1, sizeof(prefix), file);
  fwrite(header, 1, length, file);
  for (int i = length; i < padded - 1; ++i)
    fputc(' ', file);
  fputc('\n', file);
  fwrite(data, sizeof(float), count, file);
  return fclose(file) != 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  static float x[8 * 64], w1[64 * 128], b1[128], w2[128 * 10], b2[10];
  static float probabilities[8 * 10];
  fill(x, 8 * 64, 1);
  fill(w1, 64 * 128, 2);
  fill(b1, 128, 3);
  fill(w2, 128 * 10, 4);
  fill(b2, 10, 5);
  if (amp_mlp(x, w1, b1, w2, b2, probabilities) != 0)
    return 1;
  for (int row = 0; row < 8; ++row) {
    int best = 0;
    for (int c = 1; c < 10; ++c)
      if (probabilities[row * 10 + c] > probabilities[row * 10 + best])
        best = c;
    printf("row %d: class %d (p=%.4f)\n", row, best,
           probabilities[row * 10 + best]);
  }
  const int64_t xs[] = {8, 64}, w1s[] = {64, 128}, b1s[] = {128},
                w2s[] = {128, 10}, b2s[] = {10}, ps[] = {8, 10};
  return write_npy(argv[1], "arg0.npy", x, xs, 2) ||
         write_npy(argv[1], "arg1.npy", w1, w1s, 2) ||
         write_npy(argv[1], "arg2.npy", b1, b1s, 1) ||
         write_npy(argv[1], "arg3.npy", w2, w2s, 2) ||
         write_npy(argv[1], "arg4.npy", b2, b2s, 1) ||
         write_npy(argv[1], "result0.npy", probabilities, ps, 2);
}
