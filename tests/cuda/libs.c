/* SPDX-License-Identifier: BSD-3-Clause */
/* libs.c: every cuSPARSE and cuBLAS entry point the cuda backend calls
 * (kernels/cuda/cuda.c; entry_points.sh checks that this file names each
 * one), called the way the backend calls it, so linking this program is the
 * gate for the module's library calls.  Where no driver or device is (CI),
 * the handles cannot be made: cusparseCreate and cublasCreate must then say
 * so by their status, which is the path the backend reports, and the rest is
 * only linked.  On a GPU: y = A x by cusparseSpMV (CSR_ALG2), then r = b - A
 * x (alpha -1, beta 1), and (x, y) by cublasDdot_64, against their values.
 *   libs   (CTest cuda_libs; exit 0 pass, 1 fail) */
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusparse.h>
#include <stdio.h>

/* A = [4 -1 0; -1 4 -1; 0 -1 4], x = (1, 2, 3): A x = (2, 4, 10), (x, A x) = 40 */
static int on_device(cusparseHandle_t sp, cublasHandle_t blas, cudaStream_t q)
{
    const int rp[] = {0, 2, 5, 7}, ci[] = {0, 1, 0, 1, 2, 1, 2};
    const double val[] = {4, -1, -1, 4, -1, -1, 4}, x[] = {1, 2, 3}, b[] = {2, 5, 10};
    int *drp, *dci;
    double *dval, *dx, *dy, *dr, y[3], r[3], one = 1, zero = 0, minus = -1, dot = 0;
    cudaMalloc((void **)&drp, sizeof rp);
    cudaMalloc((void **)&dci, sizeof ci);
    cudaMalloc((void **)&dval, sizeof val);
    cudaMalloc((void **)&dx, sizeof x);
    cudaMalloc((void **)&dy, sizeof x);
    cudaMalloc((void **)&dr, sizeof x);
    cudaMemcpy(drp, rp, sizeof rp, cudaMemcpyHostToDevice);
    cudaMemcpy(dci, ci, sizeof ci, cudaMemcpyHostToDevice);
    cudaMemcpy(dval, val, sizeof val, cudaMemcpyHostToDevice);
    cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
    cudaMemcpy(dr, b, sizeof b, cudaMemcpyHostToDevice);
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t vx, vy;
    size_t size = 0;
    void *buf = NULL;
    int bad = cusparseCreateCsr(&A, 3, 3, 7, drp, dci, dval, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F) != CUSPARSE_STATUS_SUCCESS;
    bad |= cusparseCreateDnVec(&vx, 3, dx, CUDA_R_64F) != CUSPARSE_STATUS_SUCCESS;
    bad |= cusparseCreateDnVec(&vy, 3, dy, CUDA_R_64F) != CUSPARSE_STATUS_SUCCESS;
    bad |= cusparseSpMV_bufferSize(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx, &zero, vy,
                                   CUDA_R_64F, CUSPARSE_SPMV_CSR_ALG2, &size) != 0;
    cudaMalloc(&buf, size ? size : 1);
    bad |= cusparseSpMV(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, vx, &zero, vy, CUDA_R_64F,
                        CUSPARSE_SPMV_CSR_ALG2, buf) != CUSPARSE_STATUS_SUCCESS;
    bad |= cusparseDnVecSetValues(vy, dr) != CUSPARSE_STATUS_SUCCESS; /* r = b - A x */
    bad |= cusparseSpMV(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &minus, A, vx, &one, vy, CUDA_R_64F,
                        CUSPARSE_SPMV_CSR_ALG2, buf) != CUSPARSE_STATUS_SUCCESS;
    bad |= cublasDdot_64(blas, 3, dx, 1, dy, 1, &dot) != CUBLAS_STATUS_SUCCESS;
    cudaStreamSynchronize(q);
    cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
    cudaMemcpy(r, dr, sizeof r, cudaMemcpyDeviceToHost);
    bad |= y[0] != 2 || y[1] != 4 || y[2] != 10 || r[0] != 0 || r[1] != 1 || r[2] != 0 || dot != 40;
    printf("on the device: A x = (%g, %g, %g), b - A x = (%g, %g, %g), (x, A x) = %g: %s\n", y[0],
           y[1], y[2], r[0], r[1], r[2], dot, bad ? "WRONG" : "right");
    cusparseDestroyDnVec(vx);
    cusparseDestroyDnVec(vy);
    cusparseDestroySpMat(A);
    cudaFree(buf);
    cudaFree(drp);
    cudaFree(dci);
    cudaFree(dval);
    cudaFree(dx);
    cudaFree(dy);
    cudaFree(dr);
    return bad;
}

int main(void)
{
    int count = 0; /* left unchanged when there is no driver */
    cudaError_t e = cudaGetDeviceCount(&count);
    cusparseHandle_t sp = NULL;
    cublasHandle_t blas = NULL;
    cusparseStatus_t s = cusparseCreate(&sp);
    cublasStatus_t b = cublasCreate(&blas);
    printf("cudaGetDeviceCount: %s, %d device(s); cusparseCreate: %s; cublasCreate: %s\n",
           cudaGetErrorName(e), count, cusparseGetErrorString(s), cublasGetStatusString(b));
    if (e != cudaSuccess || count == 0) { /* no device: both must have failed, with a status */
        int ok = s != CUSPARSE_STATUS_SUCCESS && b != CUBLAS_STATUS_SUCCESS;
        printf("no device: %s\n", ok ? "both refused, as the backend expects" : "WRONG");
        return !ok;
    }
    if (s != CUSPARSE_STATUS_SUCCESS || b != CUBLAS_STATUS_SUCCESS)
        return 1;
    cudaStream_t q;
    cudaStreamCreateWithFlags(&q, cudaStreamNonBlocking);
    int bad = cusparseSetStream(sp, q) != CUSPARSE_STATUS_SUCCESS ||
              cublasSetStream(blas, q) != CUBLAS_STATUS_SUCCESS || on_device(sp, blas, q);
    cusparseDestroy(sp);
    cublasDestroy(blas);
    cudaStreamDestroy(q);
    return bad;
}
