/* kernels.h: the device kernels (the .cl files of kernels/device) the cuda backend
 * launches, as an X-macro: cuda.c numbers them, table.cuh takes their
 * addresses (the host stubs cudaLaunchKernel wants). */
#ifndef HPLS_CUDA_KERNELS_H
#define HPLS_CUDA_KERNELS_H

#define HPLS_CUDA_KERNELS(X)                                                                       \
    X(red_final)                                                                                   \
    X(dot_part)                                                                                    \
    X(amax_part)                                                                                   \
    X(sscaled_part) X(finite_part) X(v_set) X(v_scale) X(v_axpy) X(v_axpby) X(v_xpay) X(v_waxpy)   \
        X(v_axpbypcz) X(v_pmult) X(v_diag_axpy) X(v_axpy2) X(v_maxpy2_end) X(v_bicgstab_p)         \
            X(v_bicgstab_xr) X(hisa_update_part) X(csr_spmv_scalar) X(csr_residual_scalar)         \
                X(csr_spmv_vector) X(b_minus_part) X(tri_cr) X(sweep_level) X(sweep_syncfree)

#endif /* HPLS_CUDA_KERNELS_H */
