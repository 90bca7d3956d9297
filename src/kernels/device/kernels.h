/* SPDX-License-Identifier: BSD-3-Clause */
/* kernels.h: the device kernels the host launches, listed once: the host
 * layer numbers them (HPLS_K_<name>) and checks every launch's arguments
 * against the signature, the opencl backend makes a kernel object of each
 * name, the cuda module takes each one's host stub (table.cuh, compiled as
 * CUDA).  A signature has one letter per parameter of the KERNEL, in order:
 *   l idx_t   i int   u u64_t   d double   g a GLOBAL pointer (any type)
 * The ctest device_kernel_list parses the embedded kernel text and fails
 * when a kernel or a letter differs from this list.  Each .cl file has its
 * sub-list; HPLS_DEVICE_KERNELS names them all. */
#ifndef HPLS_DEVICE_KERNELS_H
#define HPLS_DEVICE_KERNELS_H

/* clang-format off */
#define HPLS_K_VECTOR(X)                                                                           \
    X(red_final, "iiigg")                                                                          \
    X(dot_part, "ligggggggiiii")                                                                   \
    X(amax_part, "lgg")                                                                            \
    X(sscaled_part, "ldgg")                                                                        \
    X(finite_part, "lgg")                                                                          \
    X(v_set, "ldg")                                                                                \
    X(v_scale, "ldg")                                                                              \
    X(v_axpy, "ldgg")                                                                              \
    X(v_axpby, "ldgdg")                                                                            \
    X(v_xpay, "lgdg")                                                                              \
    X(v_waxpy, "ldggg")                                                                            \
    X(v_axpbypcz, "ldgdgdg")                                                                       \
    X(v_pmult, "lggg")                                                                             \
    X(v_diag_axpy, "ldggg")                                                                        \
    X(v_axpy2, "lddggg")                                                                           \
    X(v_maxpy2_end, "ldgddg")                                                                      \
    X(v_bicgstab_p, "lgddgg")                                                                      \
    X(v_bicgstab_xr, "ldgdggggg")                                                                  \
    X(hisa_update_part, "lggggg")

#define HPLS_K_SPMV(X)                                                                             \
    X(csr_spmv_scalar, "lggggg")                                                                   \
    X(csr_residual_scalar, "lggggggg")                                                             \
    X(csr_spmv_vector, "lggggg")                                                                   \
    X(b_minus_part, "lggg")

#define HPLS_K_TRIDIAG(X)                                                                          \
    X(tri_cr, "llggggg")

#define HPLS_K_SWEEP(X)                                                                            \
    X(sweep_level, "lligggggggigg")                                                                \
    X(sweep_syncfree, "liigggggggigggu")                                                           \
    X(sweep_syncfree_lanes, "liigggggggigggu")

#define HPLS_K_FACTOR(X)                                                                           \
    X(fac_level, "illlgidggggggggggggggg")                                                         \
    X(fac_syncfree, "ilidggggggggggggggggu")                                                      \
    X(ilu_transpose, "lggggggg")                                                                   \
    X(fac_first_part, "lgg")

/* gs, sor, ssor (relax.cl), PJG (pjg.cl), a dense A (dense.cl), many
 * right-hand sides (block.cl) */
#define HPLS_K_METHODS(X)                                                                          \
    X(relax_level, "illggggggdggg")                                                                \
    X(relax_syncfree, "ilgggggdggggu")                                                            \
    X(relax_residual_part, "lggggidgggg")                                                          \
    X(pjg_csr, "llligggggggggig")                                                                  \
    X(pjg_dense, "lllgggggig")                                                                     \
    X(dense_product, "liggggg")                                                                    \
    X(csr_residual_block, "lilgliggggggg")                                                         \
    X(jacobi_block, "lilgdggg")

#define HPLS_K_CR(X)                                                                               \
    X(cr_reduce, "llggglgl")                                                                       \
    X(cr_top, "lggl")                                                                              \
    X(cr_back, "llgggglgl")

#define HPLS_K_THOMAS(X)                                                                           \
    X(tri_thomas, "llggggg")                                                                       \
    X(tri_resid_part, "lggggggg")

#define HPLS_K_GSPIKE(X)                                                                           \
    X(gs_factor, "llldggggggggggg")                                                                \
    X(gs_spikes, "lllgggggggggggggggg")                                                            \
    X(gs_solve1, "lllgggggggggggg")                                                                \
    X(gs_solve2, "lllggggggg")                                                                     \
    X(gs_resid_part, "lgggggggg")

#define HPLS_DEVICE_KERNELS(X)                                                                     \
    HPLS_K_VECTOR(X)                                                                               \
    HPLS_K_SPMV(X) HPLS_K_TRIDIAG(X) HPLS_K_SWEEP(X) HPLS_K_FACTOR(X) HPLS_K_METHODS(X)            \
    HPLS_K_CR(X) HPLS_K_THOMAS(X) HPLS_K_GSPIKE(X)
/* clang-format on */

#define HPLS_K_ENUM_(name, sig) HPLS_K_##name,
enum { HPLS_DEVICE_KERNELS(HPLS_K_ENUM_) HPLS_K_COUNT };

#endif /* HPLS_DEVICE_KERNELS_H */
