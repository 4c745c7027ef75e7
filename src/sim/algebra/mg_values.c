/* The values of the multigrid hierarchy, recomputed at every setup (sim/algebra/mg_internal.h). */
#include "sim/algebra/mg_internal.h"

/* ---------- values (every setup) ---------- */

/* block t of lv += (c & 1) B + (c >> 1) B^T for code = 4 t + c (see cslot) */
static inline void add_coarse(double *restrict lv, int code, const double *restrict B)
{
    double *t = lv + 9 * (size_t)(code >> 2);
    if (code & 1)
        for (int k = 0; k < 9; k++) t[k] += B[k];
    if (code & 2)
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) t[3 * a + b] += B[3 * b + a];
}

/* zero the Galerkin sums of level C (NULL is fine): its node sums with rotations or affine maps */
static void coarse_zero(mg_level *C)
{
    if (C && C->gn) memset(C->gn, 0, ((size_t)C->nnlo + C->nn + 1) * C->nm * C->nm * sizeof *C->gn);
    else if (C) memset(C->lv, 0, ((size_t)C->nlo + C->n + 1) * 9 * sizeof *C->lv);
}

/* Deferred additions. The tail's rows (cc_mg_prefill_tail) add into some values that the
 * head's rows between the last part's first row and the tail add into too: the lumps of those
 * rows, and the Galerkin sums of the aggregates that hold one of them (amin: an aggregate's
 * lowest row). The tail keeps those additions in a list, in order, and fill_all makes them
 * after the head's, so every value is the same sum in the same order as from one pass over
 * the rows. The kinds: dst[0 .. n-1] += v; add_coarse (n = 9) or add_coarse_node (n = nm^2)
 * of v at dst with code. */
enum { LATER_PLAIN, LATER_COARSE, LATER_NODE };
struct mg_later {
    double *dst;
    int kind, code, n;
    size_t off;   /* v in mg->laterv */
};

/* one addition kept for later; -1 (and the list dropped: the setup makes its full pass) if no memory */
static int keep_later(cc_mg *mg, int kind, double *dst, int code, const double *v, int n)
{
    if (mg->nlater < 0) return -1;
    if (mg->nlater == mg->caplater || mg->nlaterv + (size_t)n > mg->caplaterv) {
        int cap = mg->caplater ? 2 * mg->caplater : 256;
        size_t capv = mg->caplaterv ? 2 * mg->caplaterv : 4096;
        while (capv < mg->nlaterv + (size_t)n) capv *= 2;
        struct mg_later *l = realloc(mg->later, (size_t)cap * sizeof *l);
        if (l) mg->later = l, mg->caplater = cap;
        double *w = realloc(mg->laterv, capv * sizeof *w);
        if (w) mg->laterv = w, mg->caplaterv = capv;
        if (!l || !w) return mg->nlater = -1, -1;
    }
    mg->later[mg->nlater++] = (struct mg_later){.dst = dst, .kind = kind, .code = code, .n = n, .off = mg->nlaterv};
    memcpy(mg->laterv + mg->nlaterv, v, (size_t)n * sizeof *v);
    mg->nlaterv += (size_t)n;
    return 0;
}

/* the additions kept, made in order; -1 if some were lost */
static int make_later(cc_mg *mg)
{
    if (mg->nlater < 0) return -1;
    int nm = mg->nlev > 1 ? mg->lev[1].nm : 0;
    for (int e = 0; e < mg->nlater; e++) {
        const struct mg_later *l = mg->later + e;
        const double *v = mg->laterv + l->off;
        if (l->kind == LATER_COARSE) add_coarse(l->dst, l->code, v);
        else if (l->kind == LATER_NODE) add_coarse_node(l->dst, l->code, v, nm);
        else
            for (int c = 0; c < l->n; c++) l->dst[c] += v[c];
    }
    return 0;
}

/* dst[0 .. n-1] += v, now or (later != NULL) kept in later's list */
static inline void add_plain(cc_mg *later, double *restrict dst, const double *restrict v, int n)
{
    if (later) {
        (void)keep_later(later, LATER_PLAIN, dst, 0, v, n);
        return;
    }
    for (int c = 0; c < n; c++) dst[c] += v[c];
}

/* add_coarse, now or kept */
static inline void add_coarse_at(cc_mg *later, double *restrict lv, int code, const double *restrict B)
{
    if (later) (void)keep_later(later, LATER_COARSE, lv, code, B, 9);
    else add_coarse(lv, code, B);
}

/* Di += Si Y Si and Dk += Sk Y Sk for Y = (T + T^T)/2, a NULL filter block standing for I;
 * each now or, where li / lk is not NULL, kept in its list */
static inline void lump_pair(double *restrict Di, double *restrict Dk, const double *T, const double *Si,
                             const double *Sk, cc_mg *li, cc_mg *lk)
{
    double Y[9];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) Y[3 * a + b] = 0.5 * (T[3 * a + b] + T[3 * b + a]);
    if (!Si && !Sk) {
        if (!li && !lk) {
            for (int c = 0; c < 9; c++) Di[c] += Y[c], Dk[c] += Y[c];
            return;
        }
        add_plain(li, Di, Y, 9);
        add_plain(lk, Dk, Y, 9);
        return;
    }
    double U[9], V[9];
    filt(Y, Si, Si, U);
    filt(Y, Sk, Sk, V);
    if (!li && !lk) {
        for (int c = 0; c < 9; c++) Di[c] += U[c], Dk[c] += V[c];
        return;
    }
    add_plain(li, Di, U, 9);
    add_plain(lk, Dk, V, 9);
}

/* the coarse level C with nodes (mg_modes.c): its node block += P_i^T B P_k for a lower block
 * B of row i, column k of L (code: L's cslot for it), or its node I's diagonal block +=
 * P_i^T B P_i for i's diagonal block B (code < 0); now or (later) kept. Kept out of line, so
 * that the loops of the translations keep their code */
static __attribute__((noinline)) void add_node_block(mg_level *C, const mg_level *L, int code, int i, int k,
                                                     const double *B, cc_mg *later)
{
    int nm = C->nm;
    double G[CC_MG_MAXM * CC_MG_MAXM];
    galerkin_node(L->pv + 3 * (size_t)nm * i, B, L->pv + 3 * (size_t)nm * k, G, nm);
    if (code >= 0) {
        if (later) (void)keep_later(later, LATER_NODE, C->gn, code, G, nm * nm);
        else add_coarse_node(C->gn, code, G, nm);
        return;
    }
    add_plain(later, C->gn + (size_t)nm * nm * ((size_t)C->nnlo + L->agg[i]), G, nm * nm);
}

/* level 0's values, begun: level 1's Galerkin sums and the lumps zeroed, and with rotations or
 * affine maps level 0's P for the positions and F (cc_mgi_modes0) */
static void fill0_begin(cc_mg *mg, const cc_filter *F)
{
    mg_level *L = mg->lev;
    coarse_zero(mg->nlev > 1 ? mg->lev + 1 : NULL);
    if (mg->nlev > 1 && mg->lev[1].gn) cc_mgi_modes0(mg, F);
    if (L->lump) memset(L->lump, 0, 9 * (size_t)L->n * sizeof *L->lump);
}

/* level 0's rows from <= i < to from A and F: L_ik = (S A S)_ik in single precision, the
 * product's diagonal blocks, D_i^-1 of S_i A_ii S_i + I - S_i (after fill0_end when the
 * smoother lumps), their parts of level 1's Galerkin sums (or level 0's own double copy when
 * it is the coarsest). The rows before from must be done, but for the tail's (tail > 0: the
 * rows from `tail` on, whose additions into values that the rows below tail share are kept in
 * mg's list: see keep_later). -1 if some D_i is not SPD. Always inlined into fill0_rows and
 * fill0_tail_rows, so that the first, with tail 0, has the loop without the list's tests */
static inline __attribute__((always_inline)) int fill0_rows_(cc_mg *mg, const cc_bsr *A, const cc_filter *F,
                                                              int from, int to, int tail)
{
    mg_level *L = mg->lev, *C = mg->nlev > 1 ? mg->lev + 1 : NULL;
    int self = mg->nlev == 1 && mg->dense;   /* level 0 is factored densely: keep its values in double */
    int nm = C && C->gn ? C->nm : 0;   /* rotations: node sums P_i^T B P_k, no correction of the dropped blocks */
#define LATER(shared) (tail > 0 && (shared) ? mg : NULL)   /* where an addition goes: now, or kept */
    for (int i = from, q = from < L->n ? L->rowptr[from] : 0; i < to; i++) {
        int pi = F->pos[i], I = C ? L->agg[i] : -1, own = I >= 0 && !nm ? 4 * (C->nlo + I) + 3 : -1;
        cc_mg *lI = LATER(I >= 0 && mg->amin[I] < tail);   /* row i's aggregate has rows below the tail */
        const double *Si = pi >= 0 ? F->S + 9 * pi : NULL;
        double cd[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
        for (int p = A->rowptr[i]; p < A->diag[i]; p++, q++) {
            int k = A->col[p], pk = F->pos[k];
            const double *B = cc_bsr_block(A, p), *Sk = pk >= 0 ? F->S + 9 * pk : NULL;
            double T[9];
            if (Si || Sk) filt(B, Si, Sk, T), B = T;
            int v = L->slot0 ? L->slot0[q] : q;
            cc_mgf *dst = v >= 0 ? L->sf + 9 * (size_t)v : L->wf + 9 * (size_t)(-1 - v);
            for (int c = 0; c < 9; c++) dst[c] = (cc_mgf)B[c];
            if (v < 0) lump_pair(L->lump + 9 * (size_t)i, L->lump + 9 * (size_t)k, B, Si, Sk, NULL, LATER(k < tail));
            int K = C ? L->agg[k] : -1;
            cc_mg *lK = LATER(K >= 0 && mg->amin[K] < tail), *lIK = lI ? lI : lK;
            if (nm) {
                if (I >= 0 && K >= 0) add_node_block(C, L, L->cslot[q], i, k, B, lIK);
            } else if (C && L->cslot[q] == own) {   /* within row i's aggregate: summed here, added once */
                for (int a = 0; a < 3; a++)
                    for (int b = 0; b < 3; b++) cd[3 * a + b] += B[3 * a + b] + B[3 * b + a];
            } else if (C && v < 0 && mg->gamma > 0 && I >= 0 && K >= 0) {   /* dropped, across aggregates */
                double G[9];
                for (int c = 0; c < 9; c++) G[c] = (1 + mg->gamma) * B[c];
                add_coarse_at(lIK, C->lv, L->cslot[q], G);
                for (int c = 0; c < 9; c++) G[c] = -mg->gamma * B[c];
                lump_pair(C->dv + 9 * (size_t)I, C->dv + 9 * (size_t)K, G, Si, Sk, lI, lK);
            } else if (C) {
                add_coarse_at(lIK, C->lv, L->cslot[q], B);
            }
            if (self) memcpy(L->lv + 9 * q, B, 9 * sizeof *B);
        }
        double D[9];
        const double *Aii = cc_bsr_block(A, A->diag[i]);
        filt(Aii, Si, Si, D);
        set_cols(L->dsys + 9 * (size_t)i, D);
        if (I >= 0 && nm) {   /* (I - S_i) P_i = 0: D without it */
            add_node_block(C, L, -1, i, i, D, lI);
        } else if (I >= 0) {
            double *t = C->dv + 9 * I, eps = CC_MG_NULLFIX * fabs(Aii[0] + Aii[4] + Aii[8]) / 3, u[9];
            for (int c = 0; c < 9; c++) u[c] = D[c] + cd[c];
            add_plain(lI, t, u, 9);
            if (Si) {
                for (int c = 0; c < 9; c++) u[c] = eps * ((c % 4 == 0 ? 1.0 : 0.0) - Si[c]);
                add_plain(lI, t, u, 9);
            }
        }
        if (Si)
            for (int c = 0; c < 9; c++) D[c] += (c % 4 == 0 ? 1.0 : 0.0) - Si[c];
        if (self) memcpy(L->dv + 9 * i, D, sizeof D);
        if (L->lump)
            for (int c = 0; c < 9; c++) L->lump[9 * (size_t)i + c] += D[c];   /* complete once the later rows have lumped */
        else if (set_dinv(L, i, D) < 0) return -1;
    }
#undef LATER
    return 0;
}

/* fill0_rows_ of the rows from <= i < to, in order from row 0 (tail 0: its tests fold away) */
static int fill0_rows(cc_mg *mg, const cc_bsr *A, const cc_filter *F, int from, int to)
{
    return fill0_rows_(mg, A, F, from, to, 0);
}

/* fill0_rows_ of the tail's rows from <= i < to: those that add into what the rows below the
 * tail do keeping those additions, the rest as fill0_rows */
static int fill0_tail_rows(cc_mg *mg, const cc_bsr *A, const cc_filter *F, int from, int to)
{
    int mid = to < mg->later_end ? to : mg->later_end > from ? mg->later_end : from;
    if (fill0_rows_(mg, A, F, from, mid, mg->tail) < 0) return -1;
    return fill0_rows(mg, A, F, mid, to);
}

/* amin, and later_end for the tail from row `tail`: the row after the last one of the tail
 * with a column below the tail, or in or next to an aggregate that has a row below it; -1 if
 * no memory */
static int later_rows(cc_mg *mg, int tail)
{
    const mg_level *L = mg->lev;
    const int *agg = mg->nlev > 1 ? L->agg : NULL;   /* one level: no aggregates, only the lumps */
    int *a = realloc(mg->amin, ((size_t)L->n + 1) * sizeof *a), end = tail;
    if (!a) return -1;
    mg->amin = a;
    for (int i = L->n - 1; agg && i >= 0; i--)   /* each aggregate's lowest row */
        if (agg[i] >= 0) a[agg[i]] = i;
    for (int i = tail; i < L->n; i++) {
        int shared = agg && agg[i] >= 0 && a[agg[i]] < tail;
        for (int p = L->rowptr[i]; p < L->rowptr[i + 1] && !shared; p++) {
            int k = L->col[p];
            shared = k < tail || (agg && agg[k] >= 0 && a[agg[k]] < tail);
        }
        if (shared) end = i + 1;
    }
    mg->later_tail = tail, mg->later_end = end;
    return 0;
}

/* |M| = (M M^T)^(1/2) for a 3x3 M (row-major): M M^T = V diag(l) V^T by cyclic Jacobi
 * rotations, then V diag(sqrt(l)) V^T */
static void abs_left(const double *M, double *R)
{
    double S[9], V[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) S[3 * a + b] = M[3 * a] * M[3 * b] + M[3 * a + 1] * M[3 * b + 1] + M[3 * a + 2] * M[3 * b + 2];
    for (int sweep = 0; sweep < 12; sweep++)
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                double apq = S[3 * p + q];
                if (fabs(apq) <= 1e-300 + 1e-15 * (fabs(S[4 * p]) + fabs(S[4 * q]))) continue;
                double th = 0.5 * (S[4 * q] - S[4 * p]) / apq;
                double t = (th >= 0 ? 1.0 : -1.0) / (fabs(th) + sqrt(th * th + 1)), c = 1 / sqrt(t * t + 1), sn = t * c;
                for (int k = 0; k < 3; k++) {   /* S = J^T S J, V = V J */
                    double skp = S[3 * k + p], skq = S[3 * k + q];
                    S[3 * k + p] = c * skp - sn * skq, S[3 * k + q] = sn * skp + c * skq;
                }
                for (int k = 0; k < 3; k++) {
                    double spk = S[3 * p + k], sqk = S[3 * q + k];
                    S[3 * p + k] = c * spk - sn * sqk, S[3 * q + k] = sn * spk + c * sqk;
                }
                for (int k = 0; k < 3; k++) {
                    double vkp = V[3 * k + p], vkq = V[3 * k + q];
                    V[3 * k + p] = c * vkp - sn * vkq, V[3 * k + q] = sn * vkp + c * vkq;
                }
            }
    double l[3] = {sqrt(fmax(S[0], 0)), sqrt(fmax(S[4], 0)), sqrt(fmax(S[8], 0))};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) R[3 * a + b] = V[3 * a] * l[0] * V[3 * b] + V[3 * a + 1] * l[1] * V[3 * b + 1] + V[3 * a + 2] * l[2] * V[3 * b + 2];
}

/* row i's D_i^-1 := (D_i + E)^-1, and the shift E kept in L's list, when D_i - E is not
 * SPD (D_i read back from D_i^-1) */
static void shift_row(mg_level *L, int i, const double *E)
{
    double *di = L->dinv + 9 * (size_t)i, Dinv[9], D[9], T[9];
    for (int a = 0; a < 3; a++)   /* symmetric: its columns are its rows */
        for (int b = 0; b < 3; b++) Dinv[3 * a + b] = 0.5 * (di[3 * a + b] + di[3 * b + a]);
    if (spd_inverse(Dinv, D) < 0) return;
    for (int c = 0; c < 9; c++) T[c] = D[c] - E[c];
    if (spd_inverse(T, Dinv) == 0) return;   /* dominant across the cut */
    for (int c = 0; c < 9; c++) D[c] += E[c];
    if (set_dinv(L, i, D) < 0) return;
    L->shrow[L->nsh] = i;
    memcpy(L->shd + 9 * (size_t)L->nsh++, E, 9 * sizeof *E);
}

/* shift_row(L, i, Ei) the first time row i comes (Ei then cleared: its trace > 0 marks a
 * row with cross blocks not yet taken) */
static void shift_once(mg_level *L, int i, double *Ei)
{
    if (!(Ei[0] + Ei[4] + Ei[8] > 0)) return;
    shift_row(L, i, Ei);
    memset(Ei, 0, 9 * sizeof *Ei);
}

/* E_i += |C| */
static void add_abs(double *Ei, const double *C)
{
    double R[9];
    abs_left(C, R);
    for (int c = 0; c < 9; c++) Ei[c] += R[c];
}

/* L's smoother made safe across the cut between its parts. The hybrid sweep (multigrid.c)
 * solves with M = D + L - C (C: the cross blocks), and B stays positive definite while
 * M + M^T - A = D - C - C^T is; rows block diagonally dominant across the cut make it so
 * (mass and stretch on the bench cloth), stiff bending does not (the strip of
 * docs/performance.md at 120 x 24: cut rows with D_i = diag(0.07, 0.07, 39) whose cross
 * blocks add up to about as much), and its cycle met r^T B^-1 r < 0 on a PSD A. So, the l1
 * smoother of Baker, Falgout, Kolev & Yang (2011) on those rows only: E_i = the sum over row
 * i's cross blocks of |C_ik| = (C_ik C_ik^T)^(1/2) and over those in its column of
 * |C_ki^T|; where D_i - E_i is not SPD the sweep takes D_i + E_i instead (Delta_i = E_i,
 * listed in shrow and shd). With the polar bound 2 x^T C y <= x^T |C| x + y^T |C^T| y,
 *   x^T (D + Delta - C - C^T) x >= sum_i x_i^T (D_i + Delta_i - E_i) x_i > 0,
 * and M + M^T - A = D + 2 Delta - C - C^T is SPD. The cycle stays that of A (mg_cycle.c
 * adds Delta x to the sweeps' residuals), so the coarse correction is still the A-orthogonal
 * projection. Nothing to do before the parts are set (cc_mgi_parts) or in one part; -1 if
 * no memory. */
static int cut_safe(mg_level *L)
{
    L->nsh = 0;
    if (L->np < 2 || !L->sbeg || L->nx == 0) return 0;
    int cap = L->nx;   /* rows that can be shifted: the rows with cross blocks and their columns */
    for (int x = 0; x < L->nx; x++) cap += L->sbeg[L->xrow[x]] - L->srow[L->xrow[x]];
    if (!L->shrow) L->shrow = malloc(((size_t)cap + 1) * sizeof *L->shrow);   /* the pattern's: kept */
    if (!L->shd) L->shd = malloc(9 * ((size_t)cap + 1) * sizeof *L->shd);
    double *E = calloc(9 * (size_t)L->n + 1, sizeof *E);
    if (!E || !L->shrow || !L->shd) return free(E), -1;
    for (int x = 0; x < L->nx; x++) {
        int i = L->xrow[x];
        for (int p = L->srow[i]; p < L->sbeg[i]; p++) {
            double C[9], Ct[9];
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) C[3 * a + b] = L->sf[9 * (size_t)p + 3 * a + b], Ct[3 * b + a] = C[3 * a + b];
            add_abs(E + 9 * (size_t)i, C);
            add_abs(E + 9 * (size_t)L->scol[p], Ct);
        }
    }
    for (int x = 0; x < L->nx; x++) {   /* row i, then its cross blocks' columns */
        int i = L->xrow[x];
        shift_once(L, i, E + 9 * (size_t)i);
        for (int p = L->srow[i]; p < L->sbeg[i]; p++) shift_once(L, L->scol[p], E + 9 * (size_t)L->scol[p]);
    }
    free(E);
    return 0;
}

/* level 0's values, ended: D_i^-1 of the lumped D_i, or of the unlumped one where that is
 * not SPD, shifted on the cut (cut_safe) with rotations or affine maps; -1 if neither is SPD,
 * or no memory. With translations the cycle stays as it is: its level 1 is not A's Galerkin
 * operator (gamma, multigrid.c), so cut_safe's argument does not carry over, and the bench
 * cloth has not needed it */
static int fill0_end(cc_mg *mg, const cc_bsr *A, const cc_filter *F)
{
    mg_level *L = mg->lev;
    for (int i = 0; L->lump && i < A->n; i++)
        if (set_dinv(L, i, L->lump + 9 * (size_t)i) < 0) {
            double D[9];
            const double *Si = F->pos[i] >= 0 ? F->S + 9 * F->pos[i] : NULL;
            filt(cc_bsr_block(A, A->diag[i]), Si, Si, D);
            if (Si)
                for (int c = 0; c < 9; c++) D[c] += (c % 4 == 0 ? 1.0 : 0.0) - Si[c];
            if (set_dinv(L, i, D) < 0) return -1;
        }
    return mg->modes > 3 ? cut_safe(L) : 0;
}

/* level 0 from A and F (fill0_begin, fill0_rows over all rows, fill0_end); -1 if some D_i is
 * not SPD */
static int fill0(cc_mg *mg, const cc_bsr *A, const cc_filter *F)
{
    fill0_begin(mg, F);
    return fill0_rows(mg, A, F, 0, A->n) < 0 ? -1 : fill0_end(mg, A, F);
}

/* level l >= 1 from its Galerkin sums (with rotations or affine maps: its node sums spread
 * first, and its P computed, cc_mgi_modes): smoother blocks and the next level's sums; -1 if
 * some D_i is not SPD */
static int fill(cc_mg *mg, int l)
{
    mg_level *L = mg->lev + l, *C = l + 1 < mg->nlev ? L + 1 : NULL;
    int nm = C && C->gn ? C->nm : 0;
    if (L->gn) cc_mgi_expand_nodes(L);
    if (nm) cc_mgi_modes(mg, l);
    coarse_zero(C);
    for (int i = 0; i < L->n; i++) {
        for (int p = L->rowptr[i]; p < L->rowptr[i + 1]; p++) {
            const double *B = L->lv + 9 * p;
            for (int k = 0; k < 9; k++) L->lf[9 * p + k] = (cc_mgf)B[k];
            if (nm && L->agg[i] >= 0 && L->agg[L->col[p]] >= 0) {
                add_node_block(C, L, L->cslot[p], i, L->col[p], B, NULL);
            } else if (C && !nm) {
                add_coarse(C->lv, L->cslot[p], B);
            }
        }
        const double *D = L->dv + 9 * i;
        if (nm && L->agg[i] >= 0) {
            add_node_block(C, L, -1, i, i, D, NULL);
        } else if (C && !nm && L->agg[i] >= 0) {
            for (int k = 0; k < 9; k++) C->dv[9 * L->agg[i] + k] += D[k];
        }
        if (set_dinv(L, i, D) < 0) return -1;
    }
    return mg->modes > 3 ? cut_safe(L) : 0;
}

/* the coarsest level's dense Cholesky factor L L^T of its Galerkin matrix, a pivot that is
 * not above 1e-12 of its diagonal entry replaced by that entry (so L L^T is SPD); -1 if a
 * diagonal entry is not positive or a pivot is below -1e-9 of it: the matrix is indefinite
 * beyond round-off (whose pivots of a semidefinite matrix of m rows stay within about m 2^-53
 * of their entry), as level 1 with the correction gamma can be (cc_mg_setup then sets it up
 * without), and a factor made SPD by replacing pivots would be that of another matrix */
static int dense_factor(mg_level *L)
{
    int m = 3 * L->n;
    double *R = L->chol;
    memset(R, 0, (size_t)m * m * sizeof *R);
    for (int i = 0; i < L->n; i++) {
        for (int a = 0; a < 3; a++)
            for (int b = 0; b <= a; b++) R[(3 * i + a) * m + 3 * i + b] = L->dv[9 * i + 3 * a + b];
        for (int p = L->rowptr[i]; p < L->rowptr[i + 1]; p++)
            for (int a = 0; a < 3; a++)
                for (int b = 0; b < 3; b++) R[(3 * i + a) * m + 3 * L->col[p] + b] = L->lv[9 * p + 3 * a + b];
    }
    for (int j = 0; j < m; j++) {
        double orig = R[j * m + j], d = orig;
        for (int k = 0; k < j; k++) d -= R[j * m + k] * R[j * m + k];
        if (!(orig > 0) || !isfinite(orig) || !(d >= -1e-9 * orig)) return -1;
        if (!(d > 1e-12 * orig)) d = orig;
        double ljj = sqrt(d);
        R[j * m + j] = ljj;
        for (int i = j + 1; i < m; i++) {
            double s = R[i * m + j];
            for (int k = 0; k < j; k++) s -= R[i * m + k] * R[j * m + k];
            R[i * m + j] = s / ljj;
        }
    }
    return 0;
}

/* B's values for this A and F in the hierarchy mg already has; 0 or -1 */
static int fill_all(cc_mg *mg, const cc_bsr *A, const cc_filter *F)
{
    /* level 0's rows filled ahead, used once: the head up to the tail's first row, the tail to the end */
    int pre = mg->pre >= 0 && mg->pre == mg->tail && mg->tail_end == A->n, bad = mg->pre_bad || mg->tail_bad;
    if (pre && !bad && make_later(mg) < 0) pre = 0;   /* with the list lost, the full pass */
    cc_mg_prefill_reset(mg);
    if (pre ? bad || fill0_end(mg, A, F) < 0 : fill0(mg, A, F) < 0) return -1;
    for (int l = 1; l < mg->nlev; l++)
        if (fill(mg, l) < 0) return -1;
    return mg->dense ? dense_factor(mg->lev + mg->nlev - 1) : 0;
}

/* squared Frobenius norms of level 0's lower blocks (nlo2) and diagonal blocks (nd, not
 * squared) of the filtered A */
static void strength0(const cc_bsr *A, const cc_filter *F, double *nlo2, double *nd)
{
    for (int i = 0, q = 0; i < A->n; i++) {
        int pi = F->pos[i];
        const double *Si = pi >= 0 ? F->S + 9 * pi : NULL;
        double T[9];
        for (int p = A->rowptr[i]; p < A->diag[i]; p++, q++) {
            int pk = F->pos[A->col[p]];
            filt(cc_bsr_block(A, p), Si, pk >= 0 ? F->S + 9 * pk : NULL, T);
            nlo2[q] = fro2(T);
        }
        filt(cc_bsr_block(A, A->diag[i]), Si, Si, T);
        nd[i] = sqrt(fro2(T));
    }
}

/* the same from level l's Galerkin sums */
static void strength(const mg_level *L, double *nlo2, double *nd)
{
    for (int p = 0; p < L->nlo; p++) nlo2[p] = fro2(L->lv + 9 * p);
    for (int i = 0; i < L->n; i++) nd[i] = sqrt(fro2(L->dv + 9 * i));
}

/* the first row of level 0's last part from which no row has a block in an earlier part:
 * fill0_rows of those rows touches the last part's values only (its rows' lumps, its
 * aggregates' Galerkin sums: aggregates keep to their part) */
static int tail_row(const mg_level *L)
{
    if (L->np < 2) return L->n;
    int c = L->pstart[L->np - 1], r = c;
    for (int i = c; i < L->n; i++)
        if (L->rowptr[i] < L->rowptr[i + 1] && L->col[L->rowptr[i]] < c) r = i + 1;   /* columns ascend */
    return r;
}

/* the hierarchy for the pattern of A (values of A and F decide the aggregates); -1 if no
 * memory, an unsymmetric pattern, or a block that is not SPD */
static int build(cc_mg *mg, const cc_bsr *A, const cc_filter *F)
{
    cc_mgi_clear(mg);
    mg_level *L = mg->lev;
    if (cc_mgi_level0_pattern(L, A) < 0 || cc_mgi_level_alloc(L, 0) < 0) return -1;
    int rc = 0;
    double *nlo2 = malloc(((size_t)L->nlo + 1) * sizeof *nlo2), *nd = malloc(((size_t)L->n + 1) * sizeof *nd);
    if (!nlo2 || !nd) rc = -1;
    else strength0(A, F, nlo2, nd);
    unsigned char *minor = rc == 0 && A->minor ? malloc((size_t)L->nlo + 1) : NULL;
    if (minor)   /* level 0's lower blocks are A's, in the same order */
        for (int i = 0, q = 0; i < A->n; i++)
            for (int p = A->rowptr[i]; p < A->diag[i]; p++) minor[q++] = A->minor[p];
    if (rc == 0 && A->minor && !minor) rc = -1;
    if (rc == 0) mg->modes = !mg->x ? 3 : mg->modes_req ? mg->modes_req : cc_mgi_choose_modes(mg, A, F, nlo2, nd);
    if (rc == 0 && cc_mgi_smoother0(L, nlo2, nd, minor, mg->modes > 3 ? 0 : mg->weak) < 0) rc = -1;
    if (rc == 0 && cc_mgi_cut(L, L->n >= mg->parts * CC_MG_PART_ROWS ? mg->parts : 1) < 0) rc = -1;
    free(minor);
    int nm = mg->modes > 3 ? mg->modes : 0, r = nm / 3;   /* coordinates a node, its block rows */
    double theta = CC_MG_THETA;
    int l = 0;
    for (; rc == 0; l++, theta *= 0.5) {
        L = mg->lev + l;
        if (L->n <= CC_MG_DENSE || l == CC_MG_MAXLEV - 1) break;
        L->agg = malloc(((size_t)L->n + 1) * sizeof *L->agg);
        int na = !L->agg ? -1 : nm && l > 0 ? cc_mgi_aggregate_nodes(L, theta) : cc_mgi_aggregate(L, nlo2, nd, theta, L->agg);
        if (na < 0) rc = -1;
        if (na <= 0 || 5 * na > 4 * (nm && l > 0 ? L->nn : L->n)) break;   /* no coarsening, or too little */
        if (nm && l == 0)
            for (int p = 0; p <= L->np; p++) L->cstart[p] *= r;   /* in the next level's rows: r a node */
        mg_level *C = L + 1;
        if ((nm ? cc_mgi_coarse_pattern_nodes(L, C, na, nm) : cc_mgi_coarse_pattern(L, C, na)) < 0 ||
            cc_mgi_level_alloc(C, 1) < 0 || (nm && cc_mgi_alloc_nodes(L, C) < 0) ||
            (l == 0 ? cc_mgi_cut_as(C, L) : cc_mgi_cut(C, 1)) < 0) {   /* level 1 in level 0's parts */
            rc = -1;
            break;
        }
        mg->nlev = l + 2;
        if ((l == 0 ? fill0(mg, A, F) : fill(mg, l)) < 0) {
            rc = -1;
            break;
        }
        if (nm) continue;   /* the next aggregation reads the node sums (cc_mgi_aggregate_nodes) */
        double *t2 = realloc(nlo2, ((size_t)C->nlo + 1) * sizeof *nlo2), *t1 = realloc(nd, ((size_t)C->n + 1) * sizeof *nd);
        if (t2) nlo2 = t2;
        if (t1) nd = t1;
        if (!t1 || !t2) {
            rc = -1;
            break;
        }
        strength(C, nlo2, nd);
    }
    free(nlo2);
    free(nd);
    if (rc < 0) return cc_mgi_clear(mg), -1;
    for (int k = 0; k <= l; k++) {
        mg->lev[k].ahead = mg->lev[k].n >= mg->far ? CC_MG_AHEAD : 0;
        if (cc_mgi_sweep_order(mg->lev + k, mg->reorder) < 0 || cc_mgi_parts(mg->lev + k) < 0)
            return cc_mgi_clear(mg), -1;
    }
    L = mg->lev + l;
    free(L->agg);   /* the coarsest level has no aggregates */
    L->agg = NULL;
    mg->nlev = l + 1;
    if (L->n <= CC_MG_DENSE) {
        mg->dense = 1;
        size_t m = 3 * (size_t)L->n;
        L->chol = malloc((m * m + 1) * sizeof *L->chol);
        L->d3 = malloc((m + 1) * sizeof *L->d3);
        if (!L->chol || !L->d3) return cc_mgi_clear(mg), -1;
        if (l == 0) {   /* a small system: level 0 is solved directly */
            L->lv = malloc(9 * ((size_t)L->nlo + L->n + 1) * sizeof *L->lv);
            if (!L->lv) return cc_mgi_clear(mg), -1;
            L->dv = L->lv + 9 * (size_t)L->nlo;
        }
    }
    mg->n = A->n;
    mg->nnzb = A->nnzb;
    mg->id = A->id;
    mg->tail_row = tail_row(mg->lev);
    return 0;
}

/* the hierarchy when the pattern is new, then the values; 0 or -1 */
static int setup_once(cc_mg *mg, const cc_bsr *A, const cc_filter *F)
{
    if (mg->nlev == 0 || mg->n != A->n || mg->nnzb != A->nnzb || mg->id != A->id || (mg->modes > 3 && !mg->x))
        if (build(mg, A, F) < 0) return -1;
    if (fill_all(mg, A, F) < 0) {
        cc_mgi_clear(mg);   /* values only, but the aggregates were chosen from them: start over next time */
        return -1;
    }
    return 0;
}

/* B for this A and F; when it fails with level 1's correction (gamma), once more without it */
int cc_mg_setup(cc_mg *mg, const cc_bsr *A, const cc_filter *F)
{
    if (!mg || !A || !F || A->n != F->n || A->n < 1) return -1;
    if (setup_once(mg, A, F) == 0) return 0;
    if (!(mg->gamma > 0)) return -1;
    double g = mg->gamma;
    mg->gamma = 0;
    int rc = setup_once(mg, A, F);
    mg->gamma = g;
    return rc;
}

/* 1 if mg's hierarchy was built for A's pattern and F's size (and its positions, if it has
 * rotations or affine maps) */
static int is_for(const cc_mg *mg, const cc_bsr *A, const cc_filter *F)
{
    return mg && A && F && mg->nlev > 0 && mg->id == A->id && mg->n == A->n && F->n == A->n &&
           (mg->modes <= 3 || mg->x);
}

/* tail_row of the hierarchy mg has for A (set when it is built), A->n if it has none for A */
int cc_mg_tail_row(const cc_mg *mg, const cc_bsr *A)
{
    if (!A) return 0;
    if (!mg || mg->nlev == 0 || mg->id != A->id || mg->n != A->n) return A->n;
    return mg->tail_row;
}

/* the fill ahead begun (fill0_begin), its tail kept for cc_mg_prefill_tail from row tail on */
int cc_mg_prefill_begin(cc_mg *mg, const cc_bsr *A, const cc_filter *F, int tail)
{
    if (!is_for(mg, A, F) || tail < cc_mg_tail_row(mg, A) || tail > A->n) {
        cc_mg_prefill_reset(mg);
        return -1;
    }
    if (tail < A->n && mg->later_tail != tail && later_rows(mg, tail) < 0)
        return cc_mg_prefill_reset(mg), -1;
    fill0_begin(mg, F);
    mg->pre = 0, mg->pre_bad = 0;
    mg->tail = mg->tail_end = tail, mg->tail_bad = 0;
    mg->nlater = 0, mg->nlaterv = 0;
    return 0;
}

/* rows from <= i < to of one front, whose rows below *end are filled (-1: dropped), up to
 * limit: the head's by fill0_rows, the tail's by fill0_tail_rows; out of order: -1, and the
 * front dropped (the setup then makes the full pass) */
static int fill_front(cc_mg *mg, const cc_bsr *A, const cc_filter *F, int tail, int *end, int *bad, int from,
                      int to, int limit)
{
    if (*end < 0 || from != *end || to < from || to > limit) return *end = -1, -1;
    if (!*bad && (tail ? fill0_tail_rows(mg, A, F, from, to) : fill0_rows(mg, A, F, from, to)) < 0) *bad = 1;
    *end = to;
    return 0;
}

/* the head: from row 0 up to the tail's first row */
int cc_mg_prefill(cc_mg *mg, const cc_bsr *A, const cc_filter *F, int from, int to)
{
    if (!is_for(mg, A, F)) return -1;
    return fill_front(mg, A, F, 0, &mg->pre, &mg->pre_bad, from, to, mg->tail);
}

/* the tail: from its first row up to A->n, side by side with the head */
int cc_mg_prefill_tail(cc_mg *mg, const cc_bsr *A, const cc_filter *F, int from, int to)
{
    if (!is_for(mg, A, F)) return -1;
    return fill_front(mg, A, F, 1, &mg->tail_end, &mg->tail_bad, from, to, A->n);
}

/* forget rows filled ahead (A is about to change) */
void cc_mg_prefill_reset(cc_mg *mg)
{
    if (mg) mg->pre = mg->tail = mg->tail_end = -1;
}
