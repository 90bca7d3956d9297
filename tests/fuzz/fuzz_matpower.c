/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_matpower.c: libFuzzer target for the MATPOWER case reader of the
 * power-flow example (examples/powerflow/matpower.c), and what follows a read:
 * the network and Ybus (ybus.c), the flat start, the mismatch and three sweeps
 * of the power flow (pflow.c) -- all cheap on the small cases a fuzzer makes.
 *
 * Input: the case file's text.
 * Properties: no crash or sanitizer report; a failure leaves a message naming the
 * file; a case read has the three matrices with at least the columns the power
 * flow reads; Ybus is a valid CSR with its diagonal where `diag` says. */
#include "fuzz_common.h"

#include "powerflow.h"

static void check_ybus(const pf_ybus *y)
{
    FUZZ_CHECK(y->n >= 0 && y->rowptr[0] == 0, "Ybus: n = %d, rowptr[0] = %d", y->n, y->rowptr[0]);
    for (int i = 0; i < y->n; i++) {
        FUZZ_CHECK(y->rowptr[i] <= y->rowptr[i + 1], "Ybus: rowptr decreases at %d", i);
        for (int p = y->rowptr[i]; p < y->rowptr[i + 1]; p++)
            FUZZ_CHECK(y->col[p] >= 0 && y->col[p] < y->n &&
                           (p == y->rowptr[i] || y->col[p - 1] < y->col[p]),
                       "Ybus: row %d, column %d out of order or range", i, y->col[p]);
        int d = y->diag[i];
        FUZZ_CHECK(d >= y->rowptr[i] && d < y->rowptr[i + 1] && y->col[d] == i,
                   "Ybus: diag[%d] = %d is not the diagonal", i, d);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *path;
    if (!path)
        path = fuzz_path("case", ".m");
    fuzz_write(path, data, size, 0);
    char err[PF_ERRLEN] = "";
    pf_case c;
    if (pf_case_read(path, &c, err) != 0) {
        FUZZ_CHECK(strstr(err, path) == err, "read failed, message \"%s\" without the file", err);
        return 0;
    }
    FUZZ_CHECK(c.bus.at && c.gen.at && c.branch.at, "a matrix is missing");
    FUZZ_CHECK((c.bus.rows == 0 || c.bus.cols >= 9) && (c.gen.rows == 0 || c.gen.cols >= 8) &&
                   (c.branch.rows == 0 || c.branch.cols >= 11),
               "too few columns");
    pf_net net;
    if (pf_net_build(&c, &net, err) == 0) {
        check_ybus(&net.y);
        double complex *v = malloc(((size_t)net.n + 1) * sizeof *v);
        FUZZ_CHECK(v, "out of memory");
        pf_start(&net, 1, v);
        pf_mismatch(&net, v);
        pf_opts o = {.psize = 2, .accel = 1.0, .tol = 1e-8, .maxiter = 3};
        pf_result r;
        FUZZ_CHECK(pf_solve(&net, &o, v, &r) == 0, "pf_solve out of memory");
        free(v);
        pf_net_free(&net);
    } else {
        FUZZ_CHECK(strstr(err, path) == err, "build failed, message \"%s\" without the file", err);
    }
    pf_case_free(&c);
    return 0;
}
