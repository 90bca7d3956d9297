/* table.cuh: the last part of the generated cuda_kernels.cu (CMakeLists.txt),
 * after dialect.h and the kernel files: the host stub of every kernel
 * kernels.h lists, in its order, for cuda.c's launches. */
#include "kernels/cuda/kernels.h"

#define HPLS_CUDA_STUB(k) (const void *)k,
extern "C" const void *const hpls_cuda_kernel[] = {HPLS_CUDA_KERNELS(HPLS_CUDA_STUB)};
