/* SPDX-License-Identifier: BSD-3-Clause */
/* dialect.h: the few words in which every device kernel is written once, so
 * the same body compiles as OpenCL C (clBuildProgram, kernels/opencl) and as
 * CUDA (nvcc or NVRTC, for a cuda backend).  The library embeds this header
 * and the kernel files as one text at build time (cmake/embed.cmake), so no
 * include path is needed at run time.
 *
 *   KERNEL void f(...)       an entry point        DEVICE  a helper function
 *   GLOBAL double *p         device memory         LOCAL   work-group memory
 *   LOCAL_ARRAY(T, a, n)     a work-group array declared in a kernel
 *   BARRIER()                work-group barrier (local memory visible after it)
 *   BARRIER_ALL()            the same for device memory too (the group's writes of it)
 *   LID GRP LSZ NGRP GID GSZ local id, group id, group size, groups, global id
 *                            and global size, in dimension 0, as idx_t
 *   atomic_add_u64(p, v)     64-bit atomic add on device memory, returns the old value
 *   atomic_cas_u64(p, c, v)  64-bit compare-and-swap (v where *p is c), returns the old value
 *   atomic_load_u64(p)       a 64-bit value another work-group writes
 *   atomic_load_f64(p), atomic_store_f64(p, v)   a double other work-groups
 *                            read or write while this one runs (through its bits)
 *   GLOBAL_FENCE()           orders this item's device-memory accesses (a store
 *                            before the flag that publishes it)
 *   idx_t, u64_t             64-bit signed and unsigned integers
 *
 * Floating point: contraction into FMA is off (OpenCL's FP_CONTRACT; nvcc
 * needs --fmad=false), so a kernel without a reduction rounds exactly as the
 * ref backend's loop and the tests compare bits. */
#if defined(__OPENCL_VERSION__)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL FP_CONTRACT OFF
#define KERNEL __kernel
#define DEVICE
#define GLOBAL __global
#define LOCAL __local
#define LOCAL_ARRAY(T, a, n) __local T a[n]
#define BARRIER() barrier(CLK_LOCAL_MEM_FENCE)
#define BARRIER_ALL() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#define LID ((idx_t)get_local_id(0))
#define GRP ((idx_t)get_group_id(0))
#define LSZ ((idx_t)get_local_size(0))
#define NGRP ((idx_t)get_num_groups(0))
#define GID ((idx_t)get_global_id(0))
#define GSZ ((idx_t)get_global_size(0))
typedef long idx_t;
typedef ulong u64_t;
#define atomic_add_u64(p, v) atom_add((volatile GLOBAL u64_t *)(p), (u64_t)(v))
#define atomic_load_u64(p) atom_add((volatile GLOBAL u64_t *)(p), (u64_t)0)
#define atomic_cas_u64(p, c, v) atom_cmpxchg((volatile GLOBAL u64_t *)(p), (u64_t)(c), (u64_t)(v))
#define atomic_load_f64(p) as_double(atomic_load_u64(p))
#define atomic_store_f64(p, v) atom_xchg((volatile GLOBAL u64_t *)(p), as_ulong(v))
#define GLOBAL_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#elif defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define KERNEL extern "C" __global__
#define DEVICE __device__
#define GLOBAL
#define LOCAL
#define LOCAL_ARRAY(T, a, n) __shared__ T a[n]
#define BARRIER() __syncthreads()
#define BARRIER_ALL() __syncthreads()
#define LID ((idx_t)threadIdx.x)
#define GRP ((idx_t)blockIdx.x)
#define LSZ ((idx_t)blockDim.x)
#define NGRP ((idx_t)gridDim.x)
#define GID ((idx_t)blockIdx.x * blockDim.x + threadIdx.x)
#define GSZ ((idx_t)gridDim.x * blockDim.x)
typedef long long idx_t;
typedef unsigned long long u64_t;
#define atomic_add_u64(p, v) atomicAdd((u64_t *)(p), (u64_t)(v))
#define atomic_load_u64(p) (*(volatile u64_t *)(p))
#define atomic_cas_u64(p, c, v) atomicCAS((u64_t *)(p), (u64_t)(c), (u64_t)(v))
#define atomic_load_f64(p) __longlong_as_double(atomicAdd((u64_t *)(p), 0ull))
#define atomic_store_f64(p, v) atomicExch((u64_t *)(p), (u64_t)__double_as_longlong(v))
#define GLOBAL_FENCE() __threadfence()
#define isfinite(x) ::isfinite(x)
#else
#error "dialect.h: compile as OpenCL C or CUDA"
#endif

/* Work-group size of every kernel (the reductions' trees are this wide) and
 * tridiag.cl's block rows, from the host's sizes.h: OpenCL's -DWG -DTB
 * (opencl.c), the generated CUDA unit's defines (CMakeLists.txt).  No
 * default: one that drifted from the host's would overflow silently. */
#if !defined(WG) || !defined(TB)
#error "dialect.h: WG and TB come from kernels/device/sizes.h (see its comment)"
#endif
