/* SPDX-License-Identifier: BSD-3-Clause */
/* bicgstabl.c: BiCGstab(l) (Sleijpen & Fokkema, ETNA 1, 1993, Alg. 3.1), right
 * preconditioned: it runs on B = A M^-1 and x = x0 + M^-1 xt, where xt gathers
 * the updates; M^-1 xt is added to x (and xt zeroed) when the solve stops or
 * restarts, so an update made of NaN never reaches x.
 *
 *   r_0 = b - A x; rt = r_0; u_0 = 0; xt = 0; rho0 = omega = 1; alpha = 0
 *   cycle (k += l):
 *     rho0 = -omega rho0
 *     BiCG part, j = 0 .. l-1:
 *       rho1 = (r_j, rt); beta = alpha rho1 / rho0; rho0 = rho1
 *       u_i = r_i - beta u_i (i <= j); u_j+1 = B u_j
 *       alpha = rho1 / (u_j+1, rt)
 *       xt += alpha u_0; r_i -= alpha u_i+1 (i <= j); r_j+1 = B r_j
 *     MR part: gamma minimises ||r_0 - sum_j gamma_j r_j|| (j = 1 .. l) through
 *       the QR factors of [r_1 .. r_l]: r_j = q_j + sum_i<j tau_ij q_i with q_j
 *       orthogonal (classical Gram-Schmidt twice, one multi-dot and one
 *       multi-axpy a pass), sigma_j = (q_j, q_j), gamma'_j = (q_j, r_0) / sigma_j,
 *       R gamma = gamma' (R unit upper triangular, R_ij = tau_ij), and
 *       gamma''_j = gamma_j+1 + sum_{j<i<l} tau_ji gamma_i+1 (the paper's
 *       gamma, gamma', gamma''): the paper's modified Gram-Schmidt, by blocks
 *       xt += gamma_1 r_0 + sum_{j<l} gamma''_j q_j
 *       r_0 -= sum_j gamma'_j q_j; u_0 -= sum_j gamma_j u_j; omega = gamma_l
 * This is the paper's minimal-residual polynomial (PETSc's default,
 * -ksp_bcgsl_mrpoly), solved by QR rather than by the normal equations of the
 * Gram matrix, which square the condition of [r_1 .. r_l].
 *
 * An iteration is one BiCG step (two products with B, as a BiCGSTAB iteration:
 * l = 1 is BiCGSTAB in exact arithmetic) and a cycle is l of them, as PETSc's
 * KSPBCGSL counts.  r_0 is the residual of the current iterate after every
 * BiCG step, so the convergence test runs after each (its norm comes with
 * the next rho in one reduction); after the last step of a cycle it runs on
 * the residual the MR part leaves.  The last cycle is cut to the iterations
 * maxiter leaves (a shorter cycle with as many MR directions is BiCGstab(m)'s).
 *
 * Breakdowns: rho1 = 0 or (u_j+1, rt) = 0 restart with rt = r_0 (then a second
 * vanishing in the fresh cycle stops: BREAKDOWN); so does sigma_1 = ||B r_0||^2
 * = 0.  A direction q_j (j > 1) that Gram-Schmidt reduced below 1e-14 of r_j
 * is dependent on the earlier ones: the MR part uses q_1 .. q_j-1 only; a
 * polynomial whose degree is below the cycle's steps (or omega = 0) makes the
 * next rho meaningless, so the next cycle restarts.  A non-finite alpha or
 * gamma stops before it is used. */
#include "iter/method.h"

#include <math.h>

typedef struct bcgsl_data {
    hpls_backend *be; /* owns the vectors */
    int l;
    hpls_dvec **r, **u;       /* l + 1 each */
    double *tau;              /* l x l: tau_ij (1 <= i < j <= l) at TAU(D, i, j) */
    double *sig, *g, *gp, *c; /* l + 1 each; c: 2l + 3 (a multi-dot's values) */
    double *a;                /* l + 1: coefficients of a multi-axpy */
} bcgsl_data;

void hpls_destroy_bicgstabl(void *mdata)
{
    bcgsl_data *D = mdata;
    if (!D)
        return;
    for (int i = 0; i <= D->l; i++) {
        if (D->r)
            D->be->v->release(D->be, D->r[i]);
        if (D->u)
            D->be->v->release(D->be, D->u[i]);
    }
    double *arrays[] = {D->tau, D->sig, D->g, D->gp, D->c, D->a};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        hpls_free(arrays[i]);
    hpls_free(D->r);
    hpls_free(D->u);
    hpls_free(D);
}

hpls_status hpls_setup_bicgstabl(hpls_mctx *mc)
{
    int l = (int)mc->opt.ell;
    bcgsl_data *D = hpls_calloc(1, sizeof *D);
    if (!D)
        return HPLS_ERR_NOMEM;
    D->be = mc->be;
    D->l = l;
    D->r = hpls_calloc(l + 1, sizeof *D->r);
    D->u = hpls_calloc(l + 1, sizeof *D->u);
    D->tau = hpls_calloc((size_t)l * l, sizeof *D->tau);
    D->sig = hpls_calloc(l + 1, sizeof *D->sig);
    D->g = hpls_calloc(l + 1, sizeof *D->g);
    D->gp = hpls_calloc(l + 1, sizeof *D->gp);
    D->c = hpls_calloc(2 * l + 3, sizeof *D->c);
    D->a = hpls_calloc(l + 1, sizeof *D->a);
    int ok = D->r && D->u && D->tau && D->sig && D->g && D->gp && D->c && D->a;
    for (int i = 0; ok && i <= l; i++)
        ok = mc->be->v->alloc(mc->be, mc->n, &D->r[i]) == HPLS_OK &&
             mc->be->v->alloc(mc->be, mc->n, &D->u[i]) == HPLS_OK;
    if (!ok) {
        hpls_destroy_bicgstabl(D);
        return HPLS_ERR_NOMEM;
    }
    mc->mdata = D;
    return HPLS_OK;
}

#define TAU(D, i, j) (D)->tau[((i)-1) * (D)->l + (j)-1]

/* x += M^-1 xt, xt = 0.  An update that is not finite is dropped (x keeps its
 * last finite value) and ends the solve as NaN at iteration it: returns 0. */
static int fold(hpls_mctx *mc, hpls_dvec *xt, hpls_dvec *z, hpls_dvec *x, hpls_int it)
{
    hpls_backend *be = mc->be;
    hpls_int n = mc->n;
    const hpls_dvec *mz = hpls_m_pc_apply(mc, xt, z);
    double bad;
    if (hpls_v_finite(be, n, mz, &bad) >= 0) {
        hpls_breakdown(mc, bad, "an entry of the update of x", it);
        mc->info.iterations = it;
        return 0;
    }
    hpls_v_axpy(be, n, 1.0, mz, x);
    hpls_v_set(be, n, 0.0, xt);
    return 1;
}

/* The test after iteration it on rn = ||r_0||: 1 to stop (x finished), 0 to
 * go on, with *restart = 1 when r_0 is now the true residual of x. */
static int check(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x, hpls_dvec *xt, hpls_dvec *z,
                 hpls_dvec *r0, hpls_int it, double rn, int *restart)
{
    hpls_reason why = hpls_conv_check(mc, it, rn);
    if (why == HPLS_NOT_RUN)
        return 0;
    if (why == HPLS_DIVERGED_NAN || !fold(mc, xt, z, x, it) || !hpls_reason_converged(why))
        return 1;
    why = hpls_conv_confirm(mc, b, x, r0, it);
    *restart = why == HPLS_NOT_RUN;
    return !*restart;
}

/* The MR part over m directions r_1 .. r_m: the QR factors, gamma, and the
 * updates of xt, r_0 and u_0.  Returns the directions used (0: sigma_1 is 0
 * or not finite), or -1 after stopping the solve on a non-finite gamma. */
static int min_residual(hpls_mctx *mc, bcgsl_data *D, int m, hpls_dvec *xt, hpls_int it)
{
    hpls_backend *be = mc->be;
    hpls_int n = mc->n;
    hpls_dvec **r = D->r, **u = D->u;
    const hpls_dvec *const *q = (const hpls_dvec *const *)(r + 1); /* q_1 .. q_m */
    int used = 0;
    for (int j = 1; j <= m; j++) {
        double orig = 0.0; /* ||r_j||^2 before Gram-Schmidt */
        for (int i = 1; i < j; i++)
            TAU(D, i, j) = 0.0;
        for (int pass = 0; j > 1 && pass < 2; pass++) {
            /* c_i = (q_i, r_j), i < j (the first pass also (r_j, r_j)) */
            hpls_v_mdot(be, n, pass == 0 ? j : j - 1, q, r[j], D->c);
            if (pass == 0)
                orig = D->c[j - 1];
            for (int i = 1; i < j; i++) {
                double t = D->c[i - 1] / D->sig[i];
                TAU(D, i, j) += t;
                D->a[i - 1] = -t;
            }
            hpls_v_maxpy(be, n, j - 1, D->a, q, 1.0, r[j]); /* r_j -= sum t_i q_i */
        }
        const hpls_dvec *pair[2] = {r[j], r[0]};
        hpls_v_mdot(be, n, 2, pair, r[j], D->c); /* (q_j, q_j), (r_0, q_j) */
        D->sig[j] = D->c[0];
        if (j == 1)
            orig = D->sig[1];
        if (!(D->sig[j] > 1e-28 * orig) || !isfinite(D->sig[j]))
            break;
        D->gp[j] = D->c[1] / D->sig[j];
        used = j;
    }
    if (used == 0)
        return 0;
    /* R gamma = gamma' by back substitution */
    for (int j = used; j >= 1; j--) {
        double g = D->gp[j];
        for (int i = j + 1; i <= used; i++)
            g -= TAU(D, j, i) * D->g[i];
        D->g[j] = g;
        if (!isfinite(g)) {
            hpls_breakdown(mc, g, "gamma of the minimal-residual step", it);
            mc->info.iterations = it;
            return -1;
        }
    }
    /* xt += gamma_1 r_0 + sum_{j<used} gamma''_j q_j */
    D->a[0] = D->g[1];
    for (int j = 1; j < used; j++) {
        double g = D->g[j + 1];
        for (int i = j + 1; i < used; i++)
            g += TAU(D, j, i) * D->g[i + 1];
        D->a[j] = g;
    }
    hpls_v_maxpy(be, n, used, D->a, (const hpls_dvec *const *)r, 1.0, xt);
    for (int j = 1; j <= used; j++)
        D->a[j - 1] = -D->gp[j];
    hpls_v_maxpy(be, n, used, D->a, q, 1.0, r[0]); /* r_0 -= sum gamma'_j q_j */
    for (int j = 1; j <= used; j++)
        D->a[j - 1] = -D->g[j];
    hpls_v_maxpy(be, n, used, D->a, (const hpls_dvec *const *)(u + 1), 1.0, u[0]);
    return used;
}

hpls_status hpls_solve_bicgstabl(hpls_mctx *mc, const hpls_dvec *b, hpls_dvec *x)
{
    hpls_backend *be = mc->be;
    hpls_int n = mc->n;
    bcgsl_data *D = mc->mdata;
    hpls_dvec **r = D->r, **u = D->u;
    hpls_dvec *rt = mc->work[0], *xt = mc->work[1], *z = mc->work[2];
    double rn = hpls_m_op_residual(mc, b, x, r[0]); /* r_0 = b - A x */
    if (hpls_conv_start(mc, rn) != HPLS_NOT_RUN)
        return HPLS_OK;
    hpls_v_set(be, n, 0.0, xt);
    double rho0 = 1.0, rho1 = 0.0, alpha = 0.0, omega = 1.0;
    int restart = 1;
    hpls_int it = 0, restarted_at = -1;
    /* One cycle of l iterations without preconditioner reads
     *   BiCG part: 2 l (l + 1) + 7 l - 3 vectors, writes l (l + 2)
     *   MR part:   Gram-Schmidt: 2 for q_1, 4 j + 2 for q_j (j > 1), writing 2;
     *              updates: 3 l + 3 reads, 3 writes; the test's reduction: 2 reads
     * besides its 2 l SpMVs: per iteration 18 reads and 6 writes at l = 1
     * (BiCGSTAB: 14 and 4), 23 and 6.5 at l = 2, 31.5 and 8.25 at l = 4.  A
     * preconditioner adds its 2 l applications (into z) a cycle and one when
     * the solve stops or restarts (M^-1 xt). */
    for (;;) {
        if (restart) {
            if (restarted_at >= 0 && !fold(mc, xt, z, x, it))
                return HPLS_OK;
            hpls_v_copy(be, n, r[0], rt); /* rt = r_0 */
            hpls_v_set(be, n, 0.0, u[0]);
            rho0 = omega = 1.0;
            alpha = 0.0;
            rho1 = hpls_v_dot(be, n, r[0], rt);
            restart = 0;
            restarted_at = it;
        }
        int m = (int)(mc->opt.maxiter - it < D->l ? mc->opt.maxiter - it : D->l);
        rho0 = -omega * rho0;
        for (int j = 0; j < m && !restart; j++) {
            int g = hpls_guard(mc, rho1, "rho = (r_j, rt)", it + 1, restarted_at == it);
            if (g == 0) {
                double beta = alpha * (rho1 / rho0);
                rho0 = rho1;
                for (int i = 0; i <= j; i++)
                    hpls_v_xpay(be, n, r[i], -beta, u[i]); /* u_i = r_i - beta u_i */
                hpls_m_op_apply(mc, hpls_m_pc_apply(mc, u[j], z), u[j + 1]);
                double sigma = hpls_v_dot(be, n, u[j + 1], rt);
                g = hpls_guard(mc, sigma, "(A M^-1 u_j, rt)", it + 1, restarted_at == it);
                alpha = rho1 / sigma;
                if (g == 0 && !isfinite(alpha)) {
                    hpls_breakdown(mc, alpha, "alpha", it + 1);
                    g = -1;
                }
            }
            if (g < 0) { /* stopped (BREAKDOWN or NAN) */
                mc->info.iterations = it;
                fold(mc, xt, z, x, it);
                return HPLS_OK;
            }
            if (g > 0) { /* restart from r_0 */
                restart = 1;
                break;
            }
            hpls_v_axpy(be, n, alpha, u[0], xt);
            for (int i = 0; i <= j; i++)
                hpls_v_axpy(be, n, -alpha, u[i + 1], r[i]); /* r_i -= alpha u_i+1 */
            hpls_m_op_apply(mc, hpls_m_pc_apply(mc, r[j], z), r[j + 1]);
            it++;
            if (j == m - 1)
                break;
            /* rho1 = (rt, r_j+1) and ||r_0||^2 in one reduction */
            const hpls_dvec *shadow[1] = {rt};
            hpls_v_mdot2(be, n, 1, shadow, r[j + 1], r[0], D->c);
            rho1 = D->c[0];
            if (check(mc, b, x, xt, z, r[0], it, hpls_be_norm(be, n, D->c[4], r[0]), &restart))
                return HPLS_OK;
        }
        if (restart)
            continue;
        int used = min_residual(mc, D, m, xt, it);
        if (used < 0)
            return HPLS_OK;
        if (used == 0 &&
            hpls_guard(mc, D->sig[1], "||A M^-1 r_0||^2", it, restarted_at == it - m) < 0) {
            mc->info.iterations = it;
            fold(mc, xt, z, x, it);
            return HPLS_OK;
        }
        if (used > 0)
            omega = D->g[used];
        const hpls_dvec *pair[2] = {r[0], rt};
        hpls_v_mdot(be, n, 2, pair, r[0], D->c); /* ||r_0||^2, (rt, r_0) */
        rho1 = D->c[1];
        if (check(mc, b, x, xt, z, r[0], it, hpls_be_norm(be, n, D->c[0], r[0]), &restart))
            return HPLS_OK;
        if (used < m || omega == 0.0)
            restart = 1;
    }
}
