/* gmres.c: restarted GMRES(m) (Saad & Schultz 1986; Saad, Iterative Methods,
 * Alg. 6.9 and 9.5) and flexible FGMRES(m) (Saad 1993; Alg. 9.6).
 *
 *   r = b - A x; beta = ||r||; v_0 = r / beta; g = beta e_0
 *   for j = 0..m-1:  w = A M^-1 v_j   (FGMRES keeps z_j = M^-1 v_j)
 *     classical Gram-Schmidt twice (CGS2): h = V^T w, w -= V h, twice, h
 *     the sum of both (Giraud, Langou, Rozloznik 2005: orthogonal to working
 *     precision); h_{j+1,j} = ||w||; v_{j+1} = w / h_{j+1,j}
 *     Givens rotations keep H upper triangular; |g_{j+1}| = ||b - A x_j||
 *   x += M^-1 V y (FGMRES: x += Z y), H y = g; restart from the true residual.
 * Each pass is one multi-dot and one multi-axpy over all of V, so an Arnoldi
 * step has two reductions (not 2(j+1)): the second pass's dots are taken in
 * the same sweep over V as the first pass's update (maxpy_mdot), with (w, w),
 * so ||w|| after the second update follows by Pythagoras, and the second
 * update writes v_{j+1} = w / ||w|| directly.
 * Right preconditioning by default, so |g_{j+1}| is the true residual norm (in
 * exact arithmetic) and convergence is confirmed on b - A x.  pc_side=left
 * iterates on M^-1 A and tests ||M^-1 r|| / ||M^-1 b|| (reported in info).
 * An iteration is one inner step (one product with A).  h_{j+1,j} = 0 is the
 * lucky breakdown: the solution lies in the current space and is exact.
 * Traffic per inner step j: one SpMV + three reads of v_0..v_j + about 6n. */
#include "solver.h"

#include <math.h>

typedef struct gmres_data {
    hpls_backend *be; /* owns the vectors */
    hpls_int m;       /* restart length */
    hpls_dvec **v;    /* m+1 basis vectors */
    hpls_dvec **z;    /* FGMRES: m preconditioned vectors, else NULL */
    double *h;        /* (m+1) x m Hessenberg matrix, column j at h + j*(m+1) */
    double *cs, *sn, *g, *y;
    double *c;        /* m+2 coefficients of a projection */
} gmres_data;

static void free_vectors(hpls_backend *be, hpls_dvec **v, hpls_int count)
{
    for (hpls_int i = 0; v && i < count; i++)
        be->v->release(be, v[i]);
    hpls_free(v);
}

static void destroy_gmres(void *mdata)
{
    gmres_data *G = mdata;
    if (!G)
        return;
    free_vectors(G->be, G->v, G->m + 1);
    free_vectors(G->be, G->z, G->m);
    hpls_free(G->h);
    hpls_free(G->cs);
    hpls_free(G->sn);
    hpls_free(G->g);
    hpls_free(G->y);
    hpls_free(G->c);
    hpls_free(G);
}

static hpls_dvec **vectors(hpls_backend *be, hpls_int count, hpls_int n)
{
    hpls_dvec **v = hpls_calloc(count, sizeof *v);
    for (hpls_int i = 0; v && i < count; i++)
        if (be->v->alloc(be, n, &v[i]) != HPLS_OK) {
            free_vectors(be, v, i);
            return NULL;
        }
    return v;
}

static hpls_status setup(hpls_solver *s, int flexible)
{
    hpls_int m = s->opt.restart, n = s->op.n;
    gmres_data *G = hpls_calloc(1, sizeof *G);
    if (!G)
        return HPLS_ERR_NOMEM;
    G->be = s->be;
    G->m = m;
    G->v = vectors(s->be, m + 1, n);
    G->z = flexible ? vectors(s->be, m, n) : NULL;
    G->h = hpls_calloc((m + 1) * m, sizeof *G->h);
    G->cs = hpls_malloc(m, sizeof *G->cs);
    G->sn = hpls_malloc(m, sizeof *G->sn);
    G->g = hpls_malloc(m + 1, sizeof *G->g);
    G->y = hpls_malloc(m, sizeof *G->y);
    G->c = hpls_malloc(m + 2, sizeof *G->c);
    if (!G->v || (flexible && !G->z) || !G->h || !G->cs || !G->sn || !G->g || !G->y || !G->c) {
        destroy_gmres(G);
        return HPLS_ERR_NOMEM;
    }
    s->mdata = G;
    return HPLS_OK;
}

hpls_status hpls_setup_gmres(hpls_solver *s) { return setup(s, 0); }
hpls_status hpls_setup_fgmres(hpls_solver *s) { return setup(s, 1); }
void hpls_destroy_gmres(void *mdata) { destroy_gmres(mdata); }

double hpls_gmres_cgs2(hpls_backend *be, hpls_int n, int k, hpls_dvec *const *V, hpls_dvec *w,
                       double *h, double *c)
{
    const hpls_dvec *const *Vc = (const hpls_dvec *const *)V;
    hpls_v_mdot(be, n, k, Vc, w, h); /* first pass: h = V^T w */
    for (int i = 0; i < k; i++)
        c[i] = -h[i];
    hpls_v_maxpy_mdot(be, n, k, c, Vc, w, c); /* w -= V h; c = V^T w, c[k] = (w, w) */
    double ww = c[k], cc = 0.0;
    for (int i = 0; i < k; i++) {
        h[i] += c[i];
        cc += c[i] * c[i];
    }
    /* ||w - V c||^2 = ww - ||c||^2 while V is orthonormal; when the second
     * pass removed much of w (a nearly dependent w) or a square left the range
     * of doubles, the norm is measured instead */
    double ss = ww - cc;
    if (isfinite(ww) && ww > 1e-280 && ww < 1e280 && ss > 0.5 * ww) {
        double nrm = sqrt(ss);
        for (int i = 0; i < k; i++)
            c[i] = -c[i] / nrm;
        hpls_v_maxpy(be, n, k, c, Vc, 1.0 / nrm, w); /* v_{j+1} = (w - V c) / nrm */
        return nrm;
    }
    for (int i = 0; i < k; i++)
        c[i] = -c[i];
    hpls_v_maxpy(be, n, k, c, Vc, 1.0, w); /* second pass: w -= V c */
    double nrm = hpls_v_nrm2(be, n, w);
    if (nrm > 0.0 && isfinite(nrm))
        hpls_v_scale(be, n, 1.0 / nrm, w);
    return nrm;
}

/* r = b - A x, or M^-1 (b - A x) with left preconditioning; returns its norm. */
static double residual(hpls_solver *s, const hpls_dvec *b, const hpls_dvec *x, hpls_dvec *r,
                       hpls_dvec *t)
{
    if (!s->opt.left)
        return hpls_op_residual(s, b, x, r);
    hpls_op_residual(s, b, x, t);
    const hpls_dvec *z = hpls_pc_apply(s, t, r);
    if (z != r)
        hpls_v_copy(s->be, s->op.n, z, r);
    return hpls_v_nrm2(s->be, s->op.n, r);
}

static hpls_status solve(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x, int flexible)
{
    gmres_data *G = s->mdata;
    hpls_backend *be = s->be;
    hpls_int n = s->op.n, m = G->m;
    hpls_dvec *r = s->work[0], *t = s->work[1], *u = s->work[2];
    hpls_dvec **v = G->v;
    double *h = G->h, *cs = G->cs, *sn = G->sn, *g = G->g, *y = G->y;
    if (s->opt.left) {
        const hpls_dvec *pb = hpls_pc_apply(s, b, t); /* reference norm ||M^-1 b|| */
        hpls_conv_use_precond_norm(s, hpls_v_nrm2(be, n, pb));
    }
    double beta = residual(s, b, x, r, t);
    hpls_reason why = hpls_conv_start(s, beta);
    hpls_int it = 0;
    while (why == HPLS_NOT_RUN) {
        hpls_v_axpby(be, n, 1.0 / beta, r, 0.0, v[0]); /* v_0 = r / beta */
        g[0] = beta;
        hpls_int j = 0;
        int lucky = 0;
        for (; j < m && why == HPLS_NOT_RUN && !lucky; j++) {
            it++;
            double *hj = h + j * (m + 1);
            if (s->opt.left) {
                hpls_op_apply(s, v[j], t);                 /* t = A v_j */
                const hpls_dvec *z = hpls_pc_apply(s, t, v[j + 1]);
                if (z != v[j + 1])
                    hpls_v_copy(be, n, z, v[j + 1]);       /* w = M^-1 A v_j */
            } else {
                hpls_dvec *zj = flexible ? G->z[j] : t;
                const hpls_dvec *z = hpls_pc_apply(s, v[j], zj); /* z = M^-1 v_j */
                if (flexible && z != zj)
                    hpls_v_copy(be, n, z, zj);
                hpls_op_apply(s, z, v[j + 1]);             /* w = A z */
            }
            /* v_{j+1} = w orthogonalised and normalised, h_{j+1,j} = ||w|| */
            double hnext = hpls_gmres_cgs2(be, n, (int)j + 1, v, v[j + 1], hj, G->c);
            for (hpls_int i = 0; i < j; i++) { /* apply the earlier rotations */
                double a = hj[i], c = hj[i + 1];
                hj[i] = cs[i] * a + sn[i] * c;
                hj[i + 1] = -sn[i] * a + cs[i] * c;
            }
            double d = hypot(hj[j], hnext);
            if (d == 0.0 || !isfinite(d)) { /* d = 0: H is singular, and so is A M^-1 */
                s->info.iterations = it;
                return hpls_breakdown(s, d, "the rotated diagonal of H (0: A M^-1 is singular "
                                            "on the Krylov space)", it);
            }
            cs[j] = hj[j] / d;
            sn[j] = hnext / d;
            hj[j] = d;
            g[j + 1] = -sn[j] * g[j];
            g[j] = cs[j] * g[j];
            lucky = hnext == 0.0;
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
            hpls_v_maxpy(be, n, (int)j, y, (const hpls_dvec *const *)G->z, 1.0, x); /* x += Z y */
        } else {
            hpls_v_maxpy(be, n, (int)j, y, (const hpls_dvec *const *)v, 0.0, u); /* u = V y */
            const hpls_dvec *z = s->opt.left ? u : hpls_pc_apply(s, u, t);
            hpls_v_axpy(be, n, 1.0, z, x); /* x += M^-1 V y */
        }
        if (hpls_reason_converged(why) && !s->opt.left)
            why = hpls_conv_confirm(s, b, x, r, it); /* r: the true residual if not */
        else if (why == HPLS_NOT_RUN || lucky)
            residual(s, b, x, r, t);
        if (why == HPLS_NOT_RUN) {
            beta = hpls_v_nrm2(be, n, r);
            if (!(beta > 0.0) || !isfinite(beta))
                why = hpls_conv_check(s, it, beta);
        }
    }
    return HPLS_OK;
}

hpls_status hpls_solve_gmres(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x)
{
    return solve(s, b, x, 0);
}

hpls_status hpls_solve_fgmres(hpls_solver *s, const hpls_dvec *b, hpls_dvec *x)
{
    return solve(s, b, x, 1);
}
