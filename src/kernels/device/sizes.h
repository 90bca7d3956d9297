/* SPDX-License-Identifier: BSD-3-Clause */
/* sizes.h: the sizes the device kernels and their host code share, in one
 * place: the host's C includes it (devhost.h, backend.h), OpenCL gets them as
 * -DWG and -DTB (opencl.c) and the CUDA unit by including it before the
 * kernels (CMakeLists.txt), so a change here reaches every compiler. */
#ifndef HPLS_DEVICE_SIZES_H
#define HPLS_DEVICE_SIZES_H

/* Work-group size of every kernel (dialect.h's WG): the reductions' trees are this wide. */
#define HPLS_DEV_WG 128
/* Rows of a tridiagonal block a device solves in local memory at most
 * (tridiag.cl's TB: 5 x 512 doubles = 20 KiB a work-group). */
#define HPLS_DEVICE_TRI_MAX 512

#endif /* HPLS_DEVICE_SIZES_H */
