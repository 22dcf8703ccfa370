/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* A stand-in for libcuda.so.1 for cuda-fake-driver.mlir (not a test). It
 * runs no kernel. It hands out memory from malloc, keeps the PTX it is given
 * and, at each launch, checks that every pointer parameter of the kernel
 * (`.param .u64 .ptr` in its PTX signature) points into memory it handed
 * out, that is, memory a real device could use. It prints what it saw.
 * Build: cc -shared -fPIC fake_libcuda.c -o DIR/libcuda.so.1, then run with
 * LD_LIBRARY_PATH=DIR. */

#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
enum { OK = 0, ILLEGAL_ADDRESS = 700, NOT_FOUND = 500 };

static struct {
  char *begin;
  size_t bytes;
} allocations[1 << 16];
static int allocationCount;
static char *modules[64];
static int moduleCount;
static struct {
  char name[256];
  int module;
} kernels[256];
static int kernelCount;

static void *allocate(size_t bytes) {
  char *p = malloc(bytes ? bytes : 1);
  allocations[allocationCount].begin = p;
  allocations[allocationCount].bytes = bytes;
  ++allocationCount;
  return p;
}

static int isDeviceMemory(const char *p) {
  for (int i = 0; i < allocationCount; ++i)
    if (allocations[i].begin && p >= allocations[i].begin &&
        p < allocations[i].begin + allocations[i].bytes)
      return 1;
  return 0;
}

CUresult cuInit(unsigned flags) { return OK; }
CUresult cuDriverGetVersion(int *v) {
  *v = 12040;
  return OK;
}
CUresult cuDeviceGetCount(int *c) {
  *c = 1;
  return OK;
}
CUresult cuDeviceGet(int *d, int ordinal) {
  *d = ordinal;
  return OK;
}
CUresult cuDeviceGetName(char *n, int len, int d) {
  snprintf(n, len, "fake");
  return OK;
}
CUresult cuDeviceGetAttribute(int *v, int attribute, int d) {
  *v = 1;
  return OK;
}
CUresult cuDevicePrimaryCtxRetain(void **c, int d) {
  *c = (void *)1;
  return OK;
}
CUresult cuCtxSetCurrent(void *c) { return OK; }
CUresult cuGetErrorName(CUresult r, const char **s) {
  *s = r == ILLEGAL_ADDRESS ? "CUDA_ERROR_ILLEGAL_ADDRESS"
                            : "CUDA_ERROR_NOT_FOUND";
  return OK;
}
CUresult cuGetErrorString(CUresult r, const char **s) {
  *s = "reported by the fake driver";
  return OK;
}

CUresult cuModuleLoadDataEx(void **m, const void *data, unsigned n, int *o,
                            void **v) {
  modules[moduleCount] = strdup((const char *)data);
  *m = (void *)(intptr_t)(++moduleCount);
  printf("fake-cuda: module loaded (%s)\n",
         strstr((const char *)data, ".target") ? "PTX" : "binary");
  return OK;
}
CUresult cuModuleLoadData(void **m, const void *data) {
  return cuModuleLoadDataEx(m, data, 0, 0, 0);
}
CUresult cuModuleUnload(void *m) { return OK; }
CUresult cuModuleGetFunction(void **f, void *m, const char *name) {
  snprintf(kernels[kernelCount].name, sizeof(kernels[0].name), "%s", name);
  kernels[kernelCount].module = (int)(intptr_t)m - 1;
  *f = &kernels[kernelCount++];
  return OK;
}

CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned smem,
                        void *stream, void **params, void **extra) {
  const char *name = (const char *)f; /* the record starts with the name */
  const char *ptx = modules[*(int *)((const char *)f + 256)];
  char entry[300];
  snprintf(entry, sizeof(entry), ".entry %s(", name);
  const char *line = strstr(ptx, entry);
  if (!line) {
    printf("fake-cuda: launch %s: not in the module\n", name);
    return NOT_FOUND;
  }
  const char *end = strchr(line, ')');
  int count = 0, pointers = 0;
  for (const char *p = strstr(line, ".param"); p && p < end;
       p = strstr(p + 1, ".param")) {
    const char *eol = strchr(p, '\n');
    if (memmem(p, eol - p, ".ptr", 4)) {
      char *value = *(char **)params[count];
      /* 0xdeadbeef is the allocated pointer of a memref.get_global, which
         kernels receive but never dereference. */
      if (value != (char *)0xdeadbeef && !isDeviceMemory(value)) {
        printf("fake-cuda: launch %s: pointer parameter %d (%p) is not device "
               "memory\n",
               name, count, (void *)value);
        return ILLEGAL_ADDRESS;
      }
      ++pointers;
    }
    ++count;
  }
  printf("fake-cuda: launch %s grid %ux%ux%u block %ux%ux%u: %d parameters, "
         "%d pointers, all into device memory\n",
         name, gx, gy, gz, bx, by, bz, count, pointers);
  return OK;
}

CUresult cuStreamCreate(void **s, unsigned flags) {
  *s = (void *)1;
  return OK;
}
CUresult cuStreamDestroy_v2(void *s) { return OK; }
CUresult cuStreamSynchronize(void *s) { return OK; }
CUresult cuStreamWaitEvent(void *s, void *e, unsigned flags) { return OK; }
CUresult cuEventCreate(void **e, unsigned flags) {
  *e = (void *)1;
  return OK;
}
CUresult cuEventDestroy_v2(void *e) { return OK; }
CUresult cuEventSynchronize(void *e) { return OK; }
CUresult cuEventRecord(void *e, void *s) { return OK; }
CUresult cuMemAlloc_v2(uint64_t *p, size_t n) {
  *p = (uintptr_t)allocate(n);
  return OK;
}
static int managedAllocations, frees;
CUresult cuMemAllocManaged(uint64_t *p, size_t n, unsigned flags) {
  *p = (uintptr_t)allocate(n);
  ++managedAllocations;
  return OK;
}
/* How often the runtime went to the driver for memory, printed at exit. */
__attribute__((destructor)) static void printAllocationCounts(void) {
  printf("fake-cuda: %d managed allocations, %d frees\n", managedAllocations,
         frees);
}
CUresult cuMemFree_v2(uint64_t p) {
  for (int i = 0; i < allocationCount; ++i)
    if (allocations[i].begin == (char *)(uintptr_t)p) {
      allocations[i].begin = 0;
      free((void *)(uintptr_t)p);
      ++frees;
      return OK;
    }
  printf("fake-cuda: cuMemFree of %p, which it did not allocate\n",
         (void *)(uintptr_t)p);
  return ILLEGAL_ADDRESS;
}
CUresult cuMemcpyAsync(uint64_t d, uint64_t s, size_t n, void *st) {
  memcpy((void *)(uintptr_t)d, (void *)(uintptr_t)s, n);
  return OK;
}
CUresult cuMemsetD32Async(uint64_t d, unsigned v, size_t n, void *s) {
  for (size_t i = 0; i < n; ++i)
    ((unsigned *)(uintptr_t)d)[i] = v;
  return OK;
}
CUresult cuMemsetD16Async(uint64_t d, unsigned short v, size_t n, void *s) {
  for (size_t i = 0; i < n; ++i)
    ((unsigned short *)(uintptr_t)d)[i] = v;
  return OK;
}
CUresult cuMemHostRegister_v2(void *p, size_t n, unsigned flags) { return OK; }
CUresult cuMemHostUnregister(void *p) { return OK; }
