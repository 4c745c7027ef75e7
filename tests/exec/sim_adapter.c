/* clothcheck's own simulator behind the system protocol (docs/your-code.md), for check-system's
 * tests: the program a student would write around their simulator, here around cc_sim.
 *
 *   sim_adapter [--mistake NAME]
 *
 * The model: 001 Table 1 cloth (pritchard-table1) with the bend condition whose Jacobian is
 * exact (bend/pritchard-exact) and a hundred times stiffer (k_bend 1e-3, so that its mistakes
 * show beside the stretch forces), its damping, gravity: the claims "standard,
 * bend_variant=pritchard-exact, k_bend=1e-3, d_bend=2e-4". Its energy is the potential of the
 * conservative forces, gravity's included; "external" is gravity; A and b are Baraff &
 * Witkin's (15)-(16) with the lumped masses. Planted mistakes, as a student makes them:
 *   wrong-vertex   block (a, c) of df/dx added at row a' instead of a (a' the next vertex)
 *   transposed     an off-diagonal block of df/dx stored transposed
 *   damping-sign   df/dv with the wrong sign
 *   damping-dx-sign  the damping's part of df/dx (df/dx at v less df/dx at v = 0) with the wrong sign
 *   damping-dx-twice the damping's part of df/dx added twice
 *   jacobian-predicted df/dx taken at the predicted position x + h v, not at x
 *   doubled        the bend force and its Jacobian summed twice (its energy once)
 *   b-sign         b = h (f - h df/dx v)
 *   b-h            b = h f + h df/dx v (h where h^2 belongs)
 *   A-h            A = M - h df/dv - h df/dx (h where h^2 belongs)
 *   nan-force      one entry of the force NaN
 *   nan-all        every entry of the force NaN
 *   nan-jacobian   one entry of df/dx NaN
 * and the forms right programs take, which must pass:
 *   energy-offset  the energy plus 1e-25 J (an energy is defined up to a constant)
 *   energy-big-offset  the energy plus 1000 J
 *   digits9        every number printed with 9 significant digits (%.9g)
 *   single         every number rounded to a float (the positions it reads too), printed %.9g
 * Dense Jacobians (cc_sim_jacobian_dense): meant for small meshes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/jsonr.h"
#include "sim/sim.h"

static const char *mistake = "";

/* the numbers of list v (n of them) into out; 0 or -1 */
static int numbers(const cc_jv *v, int n, double *out)
{
    if (!v || v->type != CC_JV_ARRAY || v->n != n) return -1;
    for (int i = 0; i < n; i++) out[i] = cc_jv_number(&v->items[i]);
    return 0;
}

/* the mesh of the first request; NULL on a bad one */
static cc_mesh *read_mesh(const cc_jv *root)
{
    const cc_jv *m = cc_jv_get(root, "mesh"), *v = m ? cc_jv_get(m, "vertices") : NULL, *uv = m ? cc_jv_get(m, "uv") : NULL,
                *t = m ? cc_jv_get(m, "triangles") : NULL;
    char err[CC_ERRLEN];
    if (!v || !t || v->type != CC_JV_ARRAY || t->type != CC_JV_ARRAY || v->n % 3) return NULL;
    cc_mesh *mesh = cc_mesh_new(v->n / 3, t->n);
    if (!mesh) return NULL;
    numbers(v, v->n, mesh->x);
    for (int a = 0; a < mesh->nv; a++) {   /* (u,v) given, or the rest positions' x, y */
        mesh->uv[2 * a] = uv ? cc_jv_number(&uv->items[2 * a]) : mesh->x[3 * a];
        mesh->uv[2 * a + 1] = uv ? cc_jv_number(&uv->items[2 * a + 1]) : mesh->x[3 * a + 1];
    }
    for (int k = 0; k < t->n; k++)
        for (int q = 0; q < 3; q++) mesh->tri[3 * k + q] = (int)cc_jv_number(&t->items[k].items[q]);
    if (cc_mesh_build_hinges(mesh, err) < 0) {
        cc_mesh_free(mesh);
        return NULL;
    }
    return mesh;
}

/* a simulation of mesh: every term, or only the bend term (bend_only) */
static cc_sim *make_sim(const cc_mesh *mesh, int bend_only)
{
    cc_sim_params p;
    char err[CC_ERRLEN];
    if (cc_sim_preset("pritchard-table1", &p, err) < 0) return NULL;
    strcpy(p.bend_variant, "pritchard-exact");
    p.k_bend = 1e-3, p.d_bend = 0.2 * p.k_bend;
    p.threads = 1;
    if (bend_only) {
        p.k_stretch = p.k_shear = p.d_stretch = p.d_shear = 0;
        p.d_bend = 0;
        p.gravity[0] = p.gravity[1] = p.gravity[2] = 0;
    }
    return cc_sim_new(mesh, &p, err);
}

/* the printf format of a number: %.17g, or %.9g for digits9 */
static const char *num(void) { return !strcmp(mistake, "digits9") || !strcmp(mistake, "single") ? "%.9g" : "%.17g"; }

static void put_number(double v)
{
    if (!strcmp(mistake, "single")) v = (double)(float)v;
    if (isnan(v)) fputs("NaN", stdout);
    else printf(num(), v);
}

static void put_vector(const char *name, const double *v, int n)
{
    printf(", \"%s\": [", name);
    for (int i = 0; i < n; i++) {
        if (i) fputs(", ", stdout);
        put_number(v[i]);
    }
    putchar(']');
}

/* the nonzeros of dense n x n J as triplets */
static void put_matrix(const char *name, const double *J, int n)
{
    const char *parts[3] = {"i", "j", "v"};
    printf(", \"%s\": {", name);
    for (int p = 0; p < 3; p++) {
        printf(p ? ", \"%s\": [" : "\"%s\": [", parts[p]);
        int first = 1;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double v = J[(size_t)i * n + j];
                if (v == 0) continue;
                if (p == 0) printf(first ? "%d" : ", %d", i);
                else if (p == 1) printf(first ? "%d" : ", %d", j);
                else {
                    if (!first) fputs(", ", stdout);
                    put_number(v);
                }
                first = 0;
            }
        putchar(']');
    }
    putchar('}');
}

/* move block (a, c) of J to row a2 (added there, removed at a) */
static void move_block(double *J, int n, int a, int c, int a2)
{
    for (int s = 0; s < 3; s++)
        for (int t = 0; t < 3; t++) {
            double *from = &J[(size_t)(3 * a + s) * n + 3 * c + t], *to = &J[(size_t)(3 * a2 + s) * n + 3 * c + t];
            *to += *from, *from = 0;
        }
}

/* store block (a, c) of J transposed */
static void transpose_block(double *J, int n, int a, int c)
{
    double B[3][3];
    for (int s = 0; s < 3; s++)
        for (int t = 0; t < 3; t++) B[s][t] = J[(size_t)(3 * a + s) * n + 3 * c + t];
    for (int s = 0; s < 3; s++)
        for (int t = 0; t < 3; t++) J[(size_t)(3 * a + s) * n + 3 * c + t] = B[t][s];
}

/* answer one state request */
static void answer(cc_sim *s, cc_sim *bend, const cc_mesh *mesh, const cc_jv *req)
{
    int nv = mesh->nv, n = 3 * nv;
    const cc_jv *st = cc_jv_get(req, "state"), *hv = cc_jv_get(req, "h");
    double *x = malloc(sizeof(double) * n), *v = malloc(sizeof(double) * n), *f = malloc(sizeof(double) * n),
           *fb = malloc(sizeof(double) * n), *ext = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n);
    double *J = malloc(sizeof(double) * (size_t)n * n), *D = malloc(sizeof(double) * (size_t)n * n),
           *Jb = malloc(sizeof(double) * (size_t)n * n), *A = malloc(sizeof(double) * (size_t)n * n);
    if (!st || !hv || numbers(cc_jv_get(st, "x"), n, x) < 0 || numbers(cc_jv_get(st, "v"), n, v) < 0) {
        puts("{\"error\": \"a state needs x and v of 3n numbers, and h\"}");
        goto done;
    }
    double h = cc_jv_number(hv);
    if (!strcmp(mistake, "single"))
        for (int i = 0; i < n; i++) x[i] = (double)(float)x[i], v[i] = (double)(float)v[i];
    cc_sim_set_state(s, x, v), cc_sim_set_state(bend, x, v);
    cc_sim_energy e;
    cc_sim_energies(s, &e);
    cc_sim_force(s, f);
    cc_sim_jacobian_dense(s, 0, J);
    cc_sim_jacobian_dense(s, 1, D);
    const double *mass = cc_sim_masses(s), *g = cc_sim_get_params(s)->gravity;
    for (int a = 0; a < nv; a++)
        for (int q = 0; q < 3; q++) ext[3 * a + q] = mass[a] * g[q];
    if (!strcmp(mistake, "doubled")) {
        cc_sim_force(bend, fb);
        cc_sim_jacobian_dense(bend, 0, Jb);
        for (int i = 0; i < n; i++) f[i] += fb[i];
        for (size_t k = 0; k < (size_t)n * n; k++) J[k] += Jb[k];
    }
    if (!strncmp(mistake, "damping-dx-", 11)) {   /* J = J0 + c (J - J0), J0 at v = 0 */
        double c = !strcmp(mistake, "damping-dx-sign") ? -1 : 2;
        memset(fb, 0, sizeof(double) * n);
        cc_sim_set_state(s, x, fb);
        cc_sim_jacobian_dense(s, 0, Jb);
        cc_sim_set_state(s, x, v);
        for (size_t k = 0; k < (size_t)n * n; k++) J[k] = Jb[k] + c * (J[k] - Jb[k]);
    }
    if (!strcmp(mistake, "jacobian-predicted")) {
        for (int i = 0; i < n; i++) fb[i] = x[i] + h * v[i];
        cc_sim_set_state(s, fb, v);
        cc_sim_jacobian_dense(s, 0, J);
        cc_sim_set_state(s, x, v);
    }
    if (!strcmp(mistake, "wrong-vertex")) move_block(J, n, 0, 1, 2);
    if (!strcmp(mistake, "transposed")) transpose_block(J, n, 1, 0);
    if (!strcmp(mistake, "damping-sign"))
        for (size_t k = 0; k < (size_t)n * n; k++) D[k] = -D[k];
    double hA = !strcmp(mistake, "A-h") ? h : h * h, hb = !strcmp(mistake, "b-sign") ? -h : !strcmp(mistake, "b-h") ? 1 : h;
    for (int i = 0; i < n; i++) {   /* A = M - h D - h^2 J, b = h (f + h J v) */
        double Jv = 0;
        for (int j = 0; j < n; j++) {
            Jv += J[(size_t)i * n + j] * v[j];
            A[(size_t)i * n + j] = (i == j ? mass[i / 3] : 0) - h * D[(size_t)i * n + j] - hA * J[(size_t)i * n + j];
        }
        b[i] = h * (f[i] + hb * Jv);
    }
    if (!strcmp(mistake, "nan-force")) f[5] = NAN;
    if (!strcmp(mistake, "nan-all"))
        for (int i = 0; i < n; i++) f[i] = NAN;
    if (!strcmp(mistake, "nan-jacobian")) J[(size_t)4 * n + 7] = NAN;
    double E = e.total - e.kinetic;
    if (!strcmp(mistake, "energy-offset")) E += 1e-25;
    if (!strcmp(mistake, "energy-big-offset")) E += 1000;
    fputs("{\"energy\": ", stdout);
    put_number(E);
    put_vector("force", f, n);
    put_vector("external", ext, n);
    put_matrix("df_dx", J, n);
    put_matrix("df_dv", D, n);
    put_matrix("A", A, n);
    put_vector("b", b, n);
    puts("}");
done:
    free(x), free(v), free(f), free(fb), free(ext), free(b), free(J), free(D), free(Jb), free(A);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--mistake")) mistake = argv[2];
    else if (argc != 1) {
        fputs("usage: sim_adapter [--mistake NAME] (the names in the banner)\n", stderr);
        return 2;
    }
    static char line[1 << 24];
    cc_mesh *mesh = NULL;
    cc_sim *s = NULL, *bend = NULL;
    while (fgets(line, sizeof line, stdin)) {
        char err[CC_ERRLEN];
        cc_jdoc *doc = cc_jdoc_parse(line, strlen(line), err);
        const cc_jv *root = doc ? cc_jdoc_root(doc) : NULL;
        if (!root) printf("{\"error\": \"not JSON\"}\n");
        else if (!mesh) {
            mesh = read_mesh(root);
            s = mesh ? make_sim(mesh, 0) : NULL;
            bend = mesh ? make_sim(mesh, 1) : NULL;
            if (!s || !bend) puts("{\"error\": \"cannot build the simulation of that mesh\"}");
            else puts("{\"provides\": [\"energy\", \"force\", \"df_dx\", \"df_dv\", \"system\", \"external\"]}");
        } else {
            answer(s, bend, mesh, root);
        }
        fflush(stdout);
        cc_jdoc_free(doc);
    }
    cc_sim_free(s), cc_sim_free(bend);
    cc_mesh_free(mesh);
    return 0;
}
