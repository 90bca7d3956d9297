/* SPDX-License-Identifier: BSD-3-Clause */
/* table.cuh: the last part of the generated cuda_kernels.cu (CMakeLists.txt),
 * after dialect.h and the kernel files: the host stub of every kernel
 * kernels/device/kernels.h lists, in its order (HPLS_K_*), for cuda.c's
 * launches. */
#include "kernels/device/kernels.h"

#define HPLS_CUDA_STUB(name, sig) (const void *)name,
extern "C" const void *const hpls_cuda_kernel[] = {HPLS_DEVICE_KERNELS(HPLS_CUDA_STUB)};
