/* gmres.c: restarted GMRES(m) (Saad & Schultz 1986; Saad, Iterative Methods,
 * Alg. 6.9 and 9.5) and flexible FGMRES(m) (Saad 1993; Alg. 9.6).
 *
 *   r = b - A x; beta = ||r||; v_0 = r / beta; g = beta e_0
 *   for j = 0..m-1:  w = A M^-1 v_j   (FGMRES keeps z_j = M^-1 v_j)
 *     modified Gram-Schmidt: h_ij = (w, v_i), w -= h_ij v_i; a second pass when
 *     ||w|| dropped below 0.7 of its norm before (Kahan's "twice is enough")
 *     h_{j+1,j} = ||w||; v_{j+1} = w / h_{j+1,j}
 *     Givens rotations keep H upper triangular; |g_{j+1}| = ||b - A x_j||
 *   x += M^-1 V y (FGMRES: x += Z y), H y = g; restart from the true residual.
 * Right preconditioning by default, so |g_{j+1}| is the true residual norm (in
 * exact arithmetic) and convergence is confirmed on b - A x.  pc_side=left
 * iterates on M^-1 A and tests ||M^-1 r|| / ||M^-1 b|| (reported in info).
 * An iteration is one inner step (one product with A).  h_{j+1,j} = 0 is the
 * lucky breakdown: the solution lies in the current space and is exact.
 * Traffic per inner step j: one SpMV + about (2j + 5) n (MGS reads v_0..v_j). */
#include "solver.h"

#include <math.h>

typedef struct gmres_data {
    hpls_int m;    /* restart length */
    hpls_real **v; /* m+1 basis vectors */
    hpls_real **z; /* FGMRES: m preconditioned vectors, else NULL */
    double *h;     /* (m+1) x m Hessenberg matrix, column j at h + j*(m+1) */
    double *cs, *sn, *g, *y;
} gmres_data;

static void destroy_gmres(void *mdata)
{
    gmres_data *G = mdata;
    if (!G)
        return;
    for (hpls_int i = 0; G->v && i <= G->m; i++)
        hpls_free(G->v[i]);
    for (hpls_int i = 0; G->z && i < G->m; i++)
        hpls_free(G->z[i]);
    hpls_free(G->v);
    hpls_free(G->z);
    hpls_free(G->h);
    hpls_free(G->cs);
    hpls_free(G->sn);
    hpls_free(G->g);
    hpls_free(G->y);
    hpls_free(G);
}

static hpls_real **vectors(hpls_int count, hpls_int n)
{
    hpls_real **v = hpls_calloc(count, sizeof *v);
    for (hpls_int i = 0; v && i < count; i++) {
        if (!(v[i] = hpls_malloc(n, sizeof **v))) {
            while (i > 0)
                hpls_free(v[--i]);
            hpls_free(v);
            return NULL;
        }
        hpls_k_set(n, 0.0, v[i]); /* first touch by the kernels' partition */
    }
    return v;
}

static hpls_status setup(hpls_solver *s, int flexible)
{
    hpls_int m = s->opt.restart, n = s->op.n;
    gmres_data *G = hpls_calloc(1, sizeof *G);
    if (!G)
        return HPLS_ERR_NOMEM;
    G->m = m;
    G->v = vectors(m + 1, n);
    G->z = flexible ? vectors(m, n) : NULL;
    G->h = hpls_calloc((m + 1) * m, sizeof *G->h);
    G->cs = hpls_malloc(m, sizeof *G->cs);
    G->sn = hpls_malloc(m, sizeof *G->sn);
    G->g = hpls_malloc(m + 1, sizeof *G->g);
    G->y = hpls_malloc(m, sizeof *G->y);
    if (!G->v || (flexible && !G->z) || !G->h || !G->cs || !G->sn || !G->g || !G->y) {
        destroy_gmres(G);
        return HPLS_ERR_NOMEM;
    }
    s->mdata = G;
    return HPLS_OK;
}

hpls_status hpls_setup_gmres(hpls_solver *s) { return setup(s, 0); }
hpls_status hpls_setup_fgmres(hpls_solver *s) { return setup(s, 1); }
void hpls_destroy_gmres(void *mdata) { destroy_gmres(mdata); }

/* r = b - A x, or M^-1 (b - A x) with left preconditioning; returns its norm. */
static double residual(hpls_solver *s, const hpls_real *b, const hpls_real *x, hpls_real *r,
                       hpls_real *t)
{
    if (!s->opt.left)
        return hpls_op_residual(s, b, x, r);
    hpls_op_residual(s, b, x, t);
    const hpls_real *z = hpls_pc_apply(s, t, r);
    if (z != r)
        hpls_k_copy(s->op.n, z, r);
    return hpls_k_nrm2(s->op.n, r);
}

/* Orthogonalises w against v_0..v_j by modified Gram-Schmidt, with one more
 * pass when cancellation lost more than 30% of ||w||; h receives the column. */
static double orthogonalise(hpls_int n, hpls_real **v, hpls_int j, hpls_real *w, double *h)
{
    double before = hpls_k_nrm2(n, w);
    for (hpls_int i = 0; i <= j; i++)
        h[i] = 0.0;
    for (int pass = 0; pass < 2; pass++) {
        for (hpls_int i = 0; i <= j; i++) {
            double hij = hpls_k_dot(n, w, v[i]);
            h[i] += hij;
            hpls_k_axpy(n, -hij, v[i], w); /* w -= h_ij v_i */
        }
        double after = hpls_k_nrm2(n, w);
        if (after > 0.7 * before)
            return after;
        before = after;
    }
    return hpls_k_nrm2(n, w);
}

static hpls_status solve(hpls_solver *s, const hpls_real *b, hpls_real *x, int flexible)
{
    gmres_data *G = s->mdata;
    hpls_int n = s->op.n, m = G->m;
    hpls_real *r = s->work[0], *t = s->work[1], *u = s->work[2];
    hpls_real **v = G->v;
    double *h = G->h, *cs = G->cs, *sn = G->sn, *g = G->g, *y = G->y;
    if (s->opt.left) {
        const hpls_real *pb = hpls_pc_apply(s, b, t); /* reference norm ||M^-1 b|| */
        hpls_conv_use_precond_norm(s, hpls_k_nrm2(n, pb));
    }
    double beta = residual(s, b, x, r, t);
    hpls_reason why = hpls_conv_start(s, beta);
    hpls_int it = 0;
    while (why == HPLS_NOT_RUN) {
        hpls_k_axpby(n, 1.0 / beta, r, 0.0, v[0]); /* v_0 = r / beta */
        g[0] = beta;
        hpls_int j = 0;
        int lucky = 0;
        for (; j < m && why == HPLS_NOT_RUN && !lucky; j++) {
            it++;
            double *hj = h + j * (m + 1);
            if (s->opt.left) {
                hpls_op_apply(s, v[j], t);                 /* t = A v_j */
                const hpls_real *z = hpls_pc_apply(s, t, v[j + 1]);
                if (z != v[j + 1])
                    hpls_k_copy(n, z, v[j + 1]);           /* w = M^-1 A v_j */
            } else {
                hpls_real *zj = flexible ? G->z[j] : t;
                const hpls_real *z = hpls_pc_apply(s, v[j], zj); /* z = M^-1 v_j */
                if (flexible && z != zj)
                    hpls_k_copy(n, z, zj);
                hpls_op_apply(s, z, v[j + 1]);             /* w = A z */
            }
            double hnext = orthogonalise(n, v, j, v[j + 1], hj);
            for (hpls_int i = 0; i < j; i++) { /* apply the earlier rotations */
                double a = hj[i], c = hj[i + 1];
                hj[i] = cs[i] * a + sn[i] * c;
                hj[i + 1] = -sn[i] * a + cs[i] * c;
            }
            double d = hypot(hj[j], hnext);
            if (!isfinite(d)) {
                why = s->info.reason = HPLS_DIVERGED_NAN;
                s->info.iterations = it;
                break;
            }
            if (d == 0.0) { /* A M^-1 v_j = 0: M^-1 A is singular on this space */
                s->info.reason = HPLS_DIVERGED_BREAKDOWN;
                s->info.iterations = it;
                return hpls_solver_fail(s, HPLS_OK, "A M^-1 v = 0 at iteration %lld: the "
                                        "(preconditioned) matrix is singular", (long long)it);
            }
            cs[j] = hj[j] / d;
            sn[j] = hnext / d;
            hj[j] = d;
            g[j + 1] = -sn[j] * g[j];
            g[j] = cs[j] * g[j];
            lucky = hnext == 0.0;
            if (!lucky)
                hpls_k_scale(n, 1.0 / hnext, v[j + 1]); /* v_{j+1} = w / h_{j+1,j} */
            why = hpls_conv_check(s, it, fabs(g[j + 1]));
        }
        if (why == HPLS_DIVERGED_NAN)
            break;
        for (hpls_int i = j - 1; i >= 0; i--) { /* H y = g, H upper triangular */
            double sum = g[i];
            for (hpls_int k = i + 1; k < j; k++)
                sum -= h[k * (m + 1) + i] * y[k];
            y[i] = sum / h[i * (m + 1) + i];
        }
        if (flexible) {
            for (hpls_int i = 0; i < j; i++)
                hpls_k_axpy(n, y[i], G->z[i], x); /* x += Z y */
        } else {
            hpls_k_set(n, 0.0, u);
            for (hpls_int i = 0; i < j; i++)
                hpls_k_axpy(n, y[i], v[i], u); /* u = V y */
            const hpls_real *z = s->opt.left ? u : hpls_pc_apply(s, u, t);
            hpls_k_axpy(n, 1.0, z, x); /* x += M^-1 V y */
        }
        if (hpls_reason_converged(why) && !s->opt.left)
            why = hpls_conv_confirm(s, b, x, r, it); /* r: the true residual if not */
        else if (why == HPLS_NOT_RUN || lucky)
            residual(s, b, x, r, t);
        if (why == HPLS_NOT_RUN) {
            beta = hpls_k_nrm2(n, r);
            if (!(beta > 0.0) || !isfinite(beta))
                why = hpls_conv_check(s, it, beta);
        }
    }
    return HPLS_OK;
}

hpls_status hpls_solve_gmres(hpls_solver *s, const hpls_real *b, hpls_real *x)
{
    return solve(s, b, x, 0);
}

hpls_status hpls_solve_fgmres(hpls_solver *s, const hpls_real *b, hpls_real *x)
{
    return solve(s, b, x, 1);
}
