/* SPDX-License-Identifier: BSD-3-Clause */
/* dcsr_reverse.c: the reverse halo of a distributed matrix (dcsr_ops.h).
 *
 * y = A x's halo brings the ghosts' values to the rank that needs them; the
 * reverse halo takes each rank's values AT its ghost columns back to the
 * columns' owners, who combine them with their own entries (PETSc's reverse
 * scatter with ADD_VALUES, written from its description).  Two users:
 *   y = A^T x     my rows contribute Ao^T x_mine to the ghost columns' entries
 *                 of y, owned elsewhere: sent back and added (dcsr_spmv.c);
 *   Ruiz          a column's maximum over the rows of every rank: sent back
 *                 and maxed (dist_ruiz.c).
 * It is the forward plan read backwards: a message to every rank I receive
 * ghosts from (recv_ptr's ranges of out), one from every rank I send to
 * (send_ptr's ranges of in, added at send_idx), so it moves the same values
 * over the same links as the forward exchange, on persistent requests made
 * once. */
#include "mpi/dcsr_ops.h"

#include <math.h>

enum { REVERSE_TAG = 9 }; /* not the forward halo's: the two never share a message */

hpls_status hpls_dcsr_reverse_plan(hpls_dcsr *D)
{
    if (D->rev)
        return HPLS_OK;
    hpls_dcsr_rev *R = hpls_calloc(1, sizeof *R);
    if (!R)
        return HPLS_ERR_NOMEM;
    hpls_int nin = D->send_ptr[D->nsend];
    R->out = hpls_malloc(D->nghost + 1, sizeof *R->out);
    R->in = hpls_malloc(nin + 1, sizeof *R->in);
    R->req = hpls_malloc(D->nsend + D->nrecv + 1, sizeof *R->req);
    if (!R->out || !R->in || !R->req) {
        hpls_free(R->out);
        hpls_free(R->in);
        hpls_free(R->req);
        hpls_free(R);
        return HPLS_ERR_NOMEM;
    }
    for (int k = 0; k < D->nsend; k++) /* from the ranks whose ghosts I own */
        MPI_Recv_init(R->in + D->send_ptr[k], (int)(D->send_ptr[k + 1] - D->send_ptr[k]),
                      MPI_DOUBLE, D->send_rank[k], REVERSE_TAG, D->comm, &R->req[k]);
    for (int k = 0; k < D->nrecv; k++) /* to the owners of my ghosts */
        MPI_Send_init(R->out + D->recv_ptr[k], (int)(D->recv_ptr[k + 1] - D->recv_ptr[k]),
                      MPI_DOUBLE, D->recv_rank[k], REVERSE_TAG, D->comm, &R->req[D->nsend + k]);
    R->nreq = D->nsend + D->nrecv;
    D->rev = R;
    return HPLS_OK;
}

void hpls_dcsr_reverse_destroy(hpls_dcsr *D)
{
    hpls_dcsr_rev *R = D->rev;
    if (!R)
        return;
    for (int k = 0; k < R->nreq; k++)
        MPI_Request_free(&R->req[k]);
    hpls_csr_destroy(R->AoT);
    hpls_free(R->out);
    hpls_free(R->in);
    hpls_free(R->req);
    hpls_free(R);
    D->rev = NULL;
}

hpls_status hpls_dcsr_reverse_start(hpls_dcsr *D)
{
    hpls_dcsr_rev *R = D->rev;
    if (D->nsend > 0 && MPI_Startall(D->nsend, R->req) != MPI_SUCCESS)
        return hpls_fail(HPLS_ERR_INTERNAL, "rank %d: MPI_Startall (reverse halo receives)",
                         D->rank);
    if (D->nrecv > 0 && MPI_Startall(D->nrecv, R->req + D->nsend) != MPI_SUCCESS)
        return hpls_fail(HPLS_ERR_INTERNAL, "rank %d: MPI_Startall (reverse halo sends)", D->rank);
    D->messages += D->nrecv;
    return HPLS_OK;
}

hpls_status hpls_dcsr_reverse_finish(hpls_dcsr *D, hpls_red_op op, hpls_real *y)
{
    hpls_dcsr_rev *R = D->rev;
    if (R->nreq > 0 && MPI_Waitall(R->nreq, R->req, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
        return hpls_fail(HPLS_ERR_INTERNAL, "rank %d: MPI_Waitall (reverse halo)", D->rank);
    /* one row of mine may be a ghost of several ranks: added one after another
     * in the neighbours' rank order, so the sum is repeatable */
    hpls_int nin = D->send_ptr[D->nsend];
    if (op == HPLS_RED_SUM)
        for (hpls_int k = 0; k < nin; k++)
            y[D->send_idx[k]] += R->in[k];
    else
        for (hpls_int k = 0; k < nin; k++)
            y[D->send_idx[k]] = fmax(y[D->send_idx[k]], R->in[k]);
    return HPLS_OK;
}
