/* clothcheck Lua: plots through gnuplot. Every plot writes DIR/NAME.dat, DIR/NAME.gp and, when
 * gnuplot is installed, DIR/NAME.png (see io/gnuplot.h); re-make one by hand with
 * `cd DIR && gnuplot NAME.gp`.
 *
 *   clothcheck.plot{dir=, name=, title=, xlabel=, ylabel=, logx=, logy=, width=, height=, key=,
 *                   xrange=, yrange=, series = {{title=, x={...}, y={...}, with="lines"}, ...}}
 *                   log axes are labelled 10^n; the key (gnuplot's words, default "outside right
 *                   top", "off" for none) goes where it covers no curve
 *   clothcheck.plot{dir=, name=, title=, layout={rows, cols}, panels = {{title=, xlabel=, ylabel=,
 *                   logy=, series={...}}, ...}}            several panels in one figure; a panel
 *                   with legend_only = true draws only the key of its series (a legend that
 *                   panels drawn with key = "off" share)
 *   clothcheck.plot_surface{dir=, name=, nu=, nv=, x={x1,y1,z1,...}, color={...}, title=, view=,
 *                   zrange={lo, hi}}                       a grid cloth as a pm3d surface, drawn to
 *                   scale; zrange fixes z (and the colours by height) so that pictures compare
 *   clothcheck.plot_image{dir=, name=, nu=, nv=, r={...}, g={...}, b={...}, title=}
 *                                                          per-vertex colours in [0,1] as an image
 *   clothcheck.plot_animation{dir=, name=, delay=, frames = {{title=, series={...}}, ...}}
 *                                                          an animated GIF (NAME.gif), a frame per panel
 * Each returns true when the PNG was made, or false, message when gnuplot is missing (the data
 * and script are still written); nil, message when a file cannot be written.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "io/gnuplot.h"
#include "lua/lcc.h"

/* the string field k of table t, or def */
static const char *sfield(lua_State *L, int t, const char *k, const char *def)
{
    int ty = lua_getfield(L, t, k);
    const char *s = ty == LUA_TNIL ? def : lua_tostring(L, -1);
    if (ty != LUA_TNIL && !s) luaL_error(L, "plot field '%s' must be a string", k);
    lua_pop(L, 1);   /* the string stays alive in the table */
    return s;
}

static int bfield(lua_State *L, int t, const char *k)
{
    lua_getfield(L, t, k);
    int b = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return b;
}

static lua_Integer ifield(lua_State *L, int t, const char *k, lua_Integer def)
{
    lua_getfield(L, t, k);
    lua_Integer v = lua_isnil(L, -1) ? def : luaL_checkinteger(L, -1);
    lua_pop(L, 1);
    return v;
}

/* the numbers of array field k of table t (caller frees); *n set; error if missing */
static double *nfield(lua_State *L, int t, const char *k, int *n)
{
    if (lua_getfield(L, t, k) != LUA_TTABLE) luaL_error(L, "plot field '%s' must be a list of numbers", k);
    *n = (int)luaL_len(L, -1);
    double *v = malloc(sizeof(double) * (size_t)(*n + 1));
    if (!v) luaL_error(L, "out of memory");
    for (int i = 0; i < *n; i++) {
        lua_geti(L, -1, i + 1);
        int ok;
        v[i] = lua_tonumberx(L, -1, &ok);
        lua_pop(L, 1);
        if (!ok) {
            free(v);
            luaL_error(L, "plot field '%s': entry %d is not a number", k, i + 1);
        }
    }
    lua_pop(L, 1);
    return v;
}

/* s as a gnuplot single-quoted string; a new line becomes the string expression '."\n".' (a
 * title or label on two lines), a carriage return is dropped */
static void gp_quote(FILE *f, const char *s)
{
    /* single quotes: gnuplot runs `...` inside double-quoted strings, never inside single */
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'') fputc('\'', f);
        if (*s == '\n') fputs("'.\"\\n\".'", f);
        else if (*s != '\r') fputc(*s, f);
    }
    fputc('\'', f);
}

/* Open NAME.dat and NAME.gp in dir (the directory is created); dir and name from the spec. */
typedef struct plotfiles {
    const char *dir, *name;   /* from the spec table */
    int delay;                /* > 0: an animated GIF with this delay (1/100 s), else a PNG */
    cc_outfile dat, gp;       /* the data file and the script */
    char err[CC_ERRLEN];            /* why a file could not be written */
} plotfiles;

static int plot_open(lua_State *L, plotfiles *p, int w, int h)
{
    char path[CC_PATH_MAX];
    p->dir = sfield(L, 1, "dir", NULL);
    if (!p->dir) {                                   /* the script's output folder */
        lua_getfield(L, LUA_REGISTRYINDEX, CC_LUA_OUTDIR);
        p->dir = lua_isstring(L, -1) ? lua_tostring(L, -1) : ".";
        lua_pop(L, 1);                               /* the registry keeps the string */
    }
    p->name = sfield(L, 1, "name", NULL);
    if (!p->name || !cc_gp_name_ok(p->name))
        luaL_error(L, "plot needs a name of letters, digits, '.', '_' or '-'");
    cc_lua_checkpath(L, p->dir, 1);
    if (cc_mkdir_p(p->dir, p->err) < 0) return -1;
    if (cc_path_join(path, p->dir, p->name, ".dat") < 0) return snprintf(p->err, sizeof p->err, "path too long"), -1;
    if (cc_outfile_open(&p->dat, path, p->err) < 0) return -1;
    if ((p->delay > 0 ? cc_gp_anim_open(&p->gp, p->dir, p->name, w, h, p->delay, p->err)
                      : cc_gp_script_open(&p->gp, p->dir, p->name, w, h, p->err)) < 0) {
        cc_outfile_abort(&p->dat);
        return -1;
    }
    return 0;
}

/* commit both files, run gnuplot; push the Lua results */
static int plot_finish(lua_State *L, plotfiles *p)
{
    if (cc_outfile_commit(&p->dat, p->err) < 0) {
        cc_outfile_abort(&p->gp);
        luaL_pushfail(L), lua_pushstring(L, p->err);
        return 2;
    }
    if (cc_gp_script_close(&p->gp, p->err) < 0) {
        luaL_pushfail(L), lua_pushstring(L, p->err);
        return 2;
    }
    const char *names[1] = {p->name};
    int made = cc_gp_run_as(p->dir, names, 1, p->delay > 0 ? ".gif" : ".png");
    if (made == 1) {
        lua_pushboolean(L, 1);
        return 1;
    }
    lua_pushboolean(L, 0);
    lua_pushfstring(L, made < 0 ? "gnuplot not found: wrote %s/%s.dat and .gp" : "gnuplot failed on %s/%s.gp",
                    p->dir, p->name);
    return 2;
}

/* s is a gnuplot option list ("top left", "linespoints lw 2"): letters, digits, spaces and
 * ".,+-" only, so that a script cannot slip a command (system(...), a new line) into the
 * .gp file; else a Lua error naming the field */
static void check_words(lua_State *L, const char *s, const char *field)
{
    for (const char *c = s; c && *c; c++)
        if (!(strchr(" .,+-_", *c) || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
            luaL_error(L, "plot field '%s' may hold only letters, digits, spaces and .,+-_ (got '%s')", field, s);
}

/* the optional range field k = {lo, hi} of table t into r; 1 if given, error if malformed */
static int rfield(lua_State *L, int t, const char *k, double r[2])
{
    int ty = lua_getfield(L, t, k);
    lua_pop(L, 1);
    if (ty == LUA_TNIL) return 0;
    int n;
    double *v = nfield(L, t, k, &n);
    int ok = n == 2 && v[0] < v[1];
    if (ok) r[0] = v[0], r[1] = v[1];
    free(v);
    if (!ok) luaL_error(L, "plot field '%s' must be {lo, hi} with lo < hi", k);
    return 1;
}

/* Check the panel table at pt completely (strings, series, equal lengths) before any file
 * is opened, so that writing cannot stop half-way on a Lua error. */
#define PANEL_KEYS "title", "xlabel", "ylabel", "key", "xrange", "yrange", "logx", "logy", "legend_only", "series"
static void check_panel(lua_State *L, int pt, const char *where)
{
    static const char *const strs[] = {"title", "xlabel", "ylabel", "key"};
    static const char *const panel_keys[] = {PANEL_KEYS, NULL}, *const series_keys[] = {"title", "x", "y", "with", NULL};
    double r[2] = {0, 0};
    if (where) cc_lua_checkkeys(L, 1, pt, where, panel_keys);   /* else the caller checked */
    for (int i = 0; i < 4; i++) sfield(L, pt, strs[i], NULL);
    check_words(L, sfield(L, pt, "key", NULL), "key");
    rfield(L, pt, "xrange", r), rfield(L, pt, "yrange", r);
    if (lua_getfield(L, pt, "series") != LUA_TTABLE) luaL_error(L, "plot needs series = {{x=..., y=...}, ...}");
    int st = lua_gettop(L), ns = (int)luaL_len(L, st);
    if (ns == 0) luaL_error(L, "plot has no series");
    for (int i = 0; i < ns; i++) {
        if (lua_geti(L, st, i + 1) != LUA_TTABLE) luaL_error(L, "series %d must be a table", i + 1);
        int se = lua_gettop(L), nx, ny;
        cc_lua_checkkeys(L, 1, se, lua_pushfstring(L, "%s%sseries %d", where ? where : "", where ? ", " : "", i + 1),
                         series_keys);
        lua_pop(L, 1);
        sfield(L, se, "title", NULL);
        check_words(L, sfield(L, se, "with", NULL), "with");
        double *x = nfield(L, se, "x", &nx);
        free(x);
        x = nfield(L, se, "y", &ny);
        free(x);
        if (nx != ny) luaL_error(L, "series %d: x has %d values, y has %d", i + 1, nx, ny);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
}

/* write the series of the panel table at index pt as data blocks from *block on, and the
 * panel's plot command into the script */
static void write_panel(lua_State *L, plotfiles *p, int pt, int *block)
{
    FILE *g = p->gp.f;
    fputs("reset session\n", g);
    const char *s;
    if (bfield(L, pt, "legend_only")) {   /* the key of the series alone, centred: a legend shared by panels */
        fputs("unset border\nunset tics\nset key center center\nset xrange [0:1]\nset yrange [0:1]\n", g);
        if ((s = sfield(L, pt, "title", NULL))) fputs("set title ", g), gp_quote(g, s), fputc('\n', g);
        lua_getfield(L, pt, "series");
        int st = lua_gettop(L), ns = (int)luaL_len(L, st);
        fputs("plot ", g);
        for (int i = 0; i < ns; i++) {
            lua_geti(L, st, i + 1);
            fprintf(g, "%sNaN with %s title ", i ? ", \\\n     " : "", sfield(L, -1, "with", "lines"));
            gp_quote(g, sfield(L, -1, "title", ""));
            lua_pop(L, 1);
        }
        fputc('\n', g);
        lua_pop(L, 1);
        return;
    }
    if ((s = sfield(L, pt, "title", NULL))) fputs("set title ", g), gp_quote(g, s), fputc('\n', g);
    if ((s = sfield(L, pt, "xlabel", NULL))) fputs("set xlabel ", g), gp_quote(g, s), fputc('\n', g);
    if ((s = sfield(L, pt, "ylabel", NULL))) fputs("set ylabel ", g), gp_quote(g, s), fputc('\n', g);
    if ((s = sfield(L, pt, "key", NULL))) fprintf(g, "set key %s\n", s);
    else fputs("set key outside right top\n", g);   /* never over a curve */
    double r[2] = {0, 0};
    if (rfield(L, pt, "xrange", r)) fprintf(g, "set xrange [%.17g:%.17g]\n", r[0], r[1]);
    if (rfield(L, pt, "yrange", r)) fprintf(g, "set yrange [%.17g:%.17g]\n", r[0], r[1]);
    if (bfield(L, pt, "logx")) fputs("set logscale x\nset format x \"10^{%L}\"\n", g);   /* powers of ten */
    if (bfield(L, pt, "logy")) fputs("set logscale y\nset format y \"10^{%L}\"\n", g);
    fputs("set grid\n", g);
    if (lua_getfield(L, pt, "series") != LUA_TTABLE) luaL_error(L, "plot needs series = {{x=..., y=...}, ...}");
    int st = lua_gettop(L), ns = (int)luaL_len(L, st);
    if (ns == 0) luaL_error(L, "plot has no series");
    fputs("plot ", g);
    for (int i = 0; i < ns; i++) {
        lua_geti(L, st, i + 1);
        int se = lua_gettop(L), nx, ny;
        luaL_checktype(L, se, LUA_TTABLE);
        double *x = nfield(L, se, "x", &nx), *y = nfield(L, se, "y", &ny);
        if (nx != ny) {
            free(x), free(y);
            luaL_error(L, "series %d: x has %d values, y has %d", i + 1, nx, ny);
        }
        fprintf(p->dat.f, "# block %d\n", *block);
        for (int k = 0; k < nx; k++) fprintf(p->dat.f, "%.17g %.17g\n", x[k], y[k]);
        fputs("\n\n", p->dat.f);
        free(x), free(y);
        fprintf(g, "%s'%s.dat' index %d with %s title ", i ? ", \\\n     " : "", p->name, *block,
                sfield(L, se, "with", "lines"));
        gp_quote(g, sfield(L, se, "title", ""));
        (*block)++;
        lua_pop(L, 1);
    }
    fputc('\n', g);
    lua_pop(L, 1);
}

static int l_plot(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    plotfiles p = {0};
    int w = (int)ifield(L, 1, "width", 900), h = (int)ifield(L, 1, "height", 600), block = 0;
    luaL_argcheck(L, w >= 100 && w <= 8000 && h >= 100 && h <= 8000, 1, "width and height must be 100..8000");
    int np = 0;
    lua_Integer rows = 1, cols = 1;
    if (lua_getfield(L, 1, "panels") == LUA_TTABLE) {
        static const char *const keys[] = {"dir", "name", "title", "width", "height", "layout", "panels", NULL};
        cc_lua_checkkeys(L, 1, 1, NULL, keys);
        np = (int)luaL_len(L, -1);
        cols = np;
        for (int i = 0; i < np; i++) {
            if (lua_geti(L, -1, i + 1) != LUA_TTABLE) luaL_error(L, "panel %d must be a table", i + 1);
            int pt = lua_gettop(L);
            check_panel(L, pt, lua_pushfstring(L, "panel %d", i + 1));
            lua_pop(L, 2);
        }
        if (lua_getfield(L, 1, "layout") == LUA_TTABLE) {
            lua_geti(L, -1, 1), rows = luaL_checkinteger(L, -1), lua_pop(L, 1);
            lua_geti(L, -1, 2), cols = luaL_checkinteger(L, -1), lua_pop(L, 1);
        }
        lua_pop(L, 1);
        if (np < 1 || rows < 1 || cols < 1 || rows * cols < np)
            return luaL_error(L, "plot: layout {rows, cols} must hold all %d panels", np);
    } else {
        static const char *const keys[] = {"dir", "name", "width", "height", PANEL_KEYS, NULL};
        cc_lua_checkkeys(L, 1, 1, NULL, keys);
        check_panel(L, 1, NULL);
    }
    lua_pop(L, 1);
    sfield(L, 1, "title", NULL);
    if (plot_open(L, &p, w, h) < 0) {
        luaL_pushfail(L), lua_pushstring(L, p.err);
        return 2;
    }
    if (np > 0) {
        lua_getfield(L, 1, "panels");
        int pt = lua_gettop(L);
        fprintf(p.gp.f, "set multiplot layout %d,%d", (int)rows, (int)cols);
        const char *t = sfield(L, 1, "title", NULL);
        if (t) fputs(" title ", p.gp.f), gp_quote(p.gp.f, t);
        fputc('\n', p.gp.f);
        for (int i = 0; i < np; i++) {
            lua_geti(L, pt, i + 1);
            write_panel(L, &p, lua_gettop(L), &block);
            lua_pop(L, 1);
        }
        fputs("unset multiplot\n", p.gp.f);
        lua_pop(L, 1);
    } else {
        write_panel(L, &p, 1, &block);
    }
    return plot_finish(L, &p);
}

/* nu, nv from the spec, checked against the number of per-vertex values n */
static void grid_dims(lua_State *L, int *nu, int *nv)
{
    *nu = (int)ifield(L, 1, "nu", 0), *nv = (int)ifield(L, 1, "nv", 0);
    if (*nu < 2 || *nv < 2) luaL_error(L, "plot needs grid sizes nu, nv >= 2");
}

static int l_plot_surface(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    static const char *const keys[] = {"dir", "name", "nu", "nv", "x", "color", "title", "view", "width", "height",
                                       "zrange", NULL};
    cc_lua_checkkeys(L, 1, 1, NULL, keys);
    int nu, nv, n, nc = 0;
    grid_dims(L, &nu, &nv);
    const char *title = sfield(L, 1, "title", NULL), *view = sfield(L, 1, "view", "60,30");
    check_words(L, view, "view");   /* before anything is allocated */
    int w = (int)ifield(L, 1, "width", 900), h = (int)ifield(L, 1, "height", 700);
    double zr[2], lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    int has_zrange = rfield(L, 1, "zrange", zr);
    double *x = nfield(L, 1, "x", &n), *c = NULL;
    if (n != 3 * nu * nv) free(x), luaL_error(L, "plot_surface: x needs 3*nu*nv = %d numbers, got %d", 3 * nu * nv, n);
    lua_getfield(L, 1, "color");
    int has_color = !lua_isnil(L, -1);
    lua_pop(L, 1);
    if (has_color) {
        c = nfield(L, 1, "color", &nc);
        if (nc != nu * nv) free(x), free(c), luaL_error(L, "plot_surface: color needs nu*nv = %d numbers", nu * nv);
    }
    plotfiles p = {0};
    if (plot_open(L, &p, w, h) < 0) {
        free(x), free(c);
        luaL_pushfail(L), lua_pushstring(L, p.err);
        return 2;
    }
    for (int j = 0; j < nv; j++) {
        for (int i = 0; i < nu; i++) {
            int k = i + nu * j;
            fprintf(p.dat.f, "%.9g %.9g %.9g %.9g\n", x[3 * k], x[3 * k + 1], x[3 * k + 2], c ? c[k] : x[3 * k + 2]);
            for (int a = 0; a < 3; a++)
                if (isfinite(x[3 * k + a])) lo[a] = fmin(lo[a], x[3 * k + a]), hi[a] = fmax(hi[a], x[3 * k + a]);
        }
        fputc('\n', p.dat.f);
    }
    free(x), free(c);
    FILE *g = p.gp.f;
    if (title) fputs("set title ", g), gp_quote(g, title), fputc('\n', g);
    if (has_zrange) {   /* one z scale (and colour scale, when coloured by height) across pictures */
        fprintf(g, "set zrange [%.10g:%.10g]\n", zr[0], zr[1]);
        if (!c) fprintf(g, "set cbrange [%.10g:%.10g]\n", zr[0], zr[1]);
        lo[2] = zr[0], hi[2] = zr[1];
    }
    /* the axes are drawn to scale (view equal xyz): one tic spacing for all three, a round
     * number giving at most eight tics along the longest, so that a short axis's labels do not
     * run into each other */
    double span = 0;
    for (int a = 0; a < 3; a++) span = fmax(span, hi[a] > lo[a] ? hi[a] - lo[a] : 0);
    if (span > 0 && isfinite(span)) {
        double base = pow(10, floor(log10(span / 6))), step = base;
        static const double mult[] = {1, 2, 5, 10};
        for (int m = 0; m < 4 && span / (step = mult[m] * base) > 7; m++) {}
        fprintf(g, "set xtics %.10g\nset ytics %.10g\nset ztics %.10g\n", step, step, step);
    }
    if (isfinite(lo[2])) fprintf(g, "set xyplane at %.10g\n", lo[2]);   /* the floor of the box at the lowest z */
    fprintf(g, "set view %s\nset view equal xyz\nset pm3d depthorder border lc rgb \"#404040\" lw 0.3\n"
               "set palette defined (0 \"#2b4c7e\", 1 \"#f4e8c1\", 2 \"#c0392b\")\nunset key\n"
               "set xlabel \"x\"\nset ylabel \"y\"\nset zlabel \"z\"\n"
               "splot '%s.dat' using 1:2:3:4 with pm3d\n",
            view, p.name);
    return plot_finish(L, &p);
}

static int l_plot_image(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    static const char *const keys[] = {"dir", "name", "nu", "nv", "r", "g", "b", "title", "width", "height", NULL};
    cc_lua_checkkeys(L, 1, 1, NULL, keys);
    int nu, nv, nr, ng, nb;
    grid_dims(L, &nu, &nv);
    double *r = nfield(L, 1, "r", &nr), *gg = nfield(L, 1, "g", &ng), *b = nfield(L, 1, "b", &nb);
    if (nr != nu * nv || ng != nu * nv || nb != nu * nv) {
        free(r), free(gg), free(b);
        luaL_error(L, "plot_image: r, g and b need nu*nv = %d values each", nu * nv);
    }
    const char *title = sfield(L, 1, "title", NULL);
    int w = (int)ifield(L, 1, "width", 700), h = (int)ifield(L, 1, "height", 700);
    plotfiles p = {0};
    if (plot_open(L, &p, w, h) < 0) {
        free(r), free(gg), free(b);
        luaL_pushfail(L), lua_pushstring(L, p.err);
        return 2;
    }
    for (int j = 0; j < nv; j++)
        for (int i = 0; i < nu; i++) {
            int k = i + nu * j;
            double ch[3] = {r[k], gg[k], b[k]};
            for (int c = 0; c < 3; c++) ch[c] = ch[c] < 0 ? 0 : ch[c] > 1 ? 1 : ch[c];
            fprintf(p.dat.f, "%d %d %d %d %d\n", i, j, (int)(255 * ch[0] + 0.5), (int)(255 * ch[1] + 0.5),
                    (int)(255 * ch[2] + 0.5));
        }
    free(r), free(gg), free(b);
    FILE *g = p.gp.f;
    if (title) fputs("set title ", g), gp_quote(g, title), fputc('\n', g);
    fprintf(g, "set size ratio -1\nunset key\nset xlabel \"u (vertex)\"\nset ylabel \"v (vertex)\"\n"
               "plot '%s.dat' using 1:2:3:4:5 with rgbimage\n", p.name);
    return plot_finish(L, &p);
}

/* clothcheck.plot_animation{dir=, name=, delay=, width=, height=, frames = {panel, ...}}: an
 * animated GIF, one frame per panel table (title, xlabel, ylabel, key, xrange, yrange, series
 * as for plot); every frame is checked before a file is opened */
static int l_plot_animation(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    static const char *const keys[] = {"dir", "name", "delay", "width", "height", "frames", NULL};
    cc_lua_checkkeys(L, 1, 1, NULL, keys);
    plotfiles p = {0};
    int w = (int)ifield(L, 1, "width", 640), h = (int)ifield(L, 1, "height", 480), block = 0;
    lua_Integer delay = ifield(L, 1, "delay", 8);
    luaL_argcheck(L, w >= 100 && w <= 4000 && h >= 100 && h <= 4000, 1, "width and height must be 100..4000");
    luaL_argcheck(L, delay >= 1 && delay <= 1000, 1, "delay must be 1..1000 hundredths of a second");
    if (lua_getfield(L, 1, "frames") != LUA_TTABLE) return luaL_error(L, "plot_animation needs frames = {panel, ...}");
    int ft = lua_gettop(L), nf = (int)luaL_len(L, ft);
    if (nf < 1 || nf > 10000) return luaL_error(L, "plot_animation needs 1..10000 frames (got %d)", nf);
    for (int i = 0; i < nf; i++) {
        if (lua_geti(L, ft, i + 1) != LUA_TTABLE) luaL_error(L, "frame %d must be a table", i + 1);
        int pt = lua_gettop(L);
        check_panel(L, pt, lua_pushfstring(L, "frame %d", i + 1));
        lua_pop(L, 2);
    }
    p.delay = (int)delay;
    if (plot_open(L, &p, w, h) < 0) {
        luaL_pushfail(L), lua_pushstring(L, p.err);
        return 2;
    }
    for (int i = 0; i < nf; i++) {
        lua_geti(L, ft, i + 1);
        write_panel(L, &p, lua_gettop(L), &block);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return plot_finish(L, &p);
}

static const luaL_Reg plot_funcs[] = {
    {"plot", l_plot}, {"plot_surface", l_plot_surface}, {"plot_image", l_plot_image},
    {"plot_animation", l_plot_animation}, {NULL, NULL}};

void cc_lua_open_plot(lua_State *L) { luaL_setfuncs(L, plot_funcs, 0); }
