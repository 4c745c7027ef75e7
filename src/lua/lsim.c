/* clothcheck Lua: the simulator.
 *
 *   clothcheck.presets()                       -> {"pritchard-table1", ...}
 *   clothcheck.sim(mesh [, params])            -> sim   (params: {preset=name, k_bend=1e-4,
 *                                                 bend_variant="macri", gravity={0,0,-9.81}, ...};
 *                                                 names as the fields of cc_sim_params;
 *                                                 bend_condition="bridson-force" for Bridson's
 *                                                 bending force model, see sim.h)
 *   sim:pin(i [, {vx,vy,vz}])   sim:slide_plane(i, {nx,ny,nz})   sim:slide_line(i, {dx,dy,dz})
 *   sim:release(i)              (i is a 1-based vertex number)
 *   sim:add_plane({p}, {n})     sim:add_sphere({c}, r)    sim:add_table(cx, cy, top, floor, r)
 *   sim:add_condition(cond, elements, k [, kd])   elements: "triangles", "hinges" or
 *                                                 {{a,b,c}, ...} of 1-based vertex numbers
 *   sim:step() / sim:advance(T) -> true | nil, message   (a blow-up is a result, not an error)
 *   sim:positions(), sim:velocities() -> flat arrays;  sim:position(i) -> x, y, z
 *   sim:energies() -> {stretch=, shear=, bend=, user=, kinetic=, gravity=, total=}
 *   sim:element_energies(term) -> array (term "stretch", "shear", "bend" or a user condition name)
 *   sim:stats() -> {steps=, rejected=, cg_iterations=, last_cg_iterations=, psd_retries=, multigrid_from=, time=, h=, assembly_s=, solve_s=}
 *   sim:reaction(i) -> fx, fy, fz;   sim:params() -> table;   sim:write_obj(path) -> true | nil, msg
 *   sim:lambda_min([term [, mode]]) -> lambda, m_min   (smallest eigenvalue of the step's matrix on
 *                                                 the free DOFs, sim/model/probe.h)
 *   sim.nv, sim.time
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lua/lcc.h"
#include "sim/model/probe.h"
#include "sim/sim.h"

#define CC_LUA_SIM "clothcheck.sim"

/* One user condition added to a simulation: the Lua condition and each element's rest data. */
typedef struct usercond {
    cc_lcondition *lc;   /* kept alive by the sim's uservalue table */
    cc_rest *rest;       /* nelem rest data */
    int nelem;           /* elements */
} usercond;

typedef struct cc_lsim {
    cc_sim *s;           /* NULL once closed */
    cc_mesh *mesh;       /* a copy of the topology and (u,v), for rest data and OBJ output */
    usercond *uc;        /* user conditions */
    int nuc;             /* their count */
} cc_lsim;

static cc_lsim *checklsim(lua_State *L)
{
    cc_lsim *ls = luaL_checkudata(L, 1, CC_LUA_SIM);
    if (!ls->s) luaL_error(L, "attempt to use a closed simulation");
    return ls;
}

/* a copy of mesh m (positions, (u,v), triangles, hinges) */
static cc_mesh *copy_mesh(const cc_mesh *m)
{
    cc_mesh *c = cc_mesh_new(m->nv, m->nt);
    char err[CC_ERRLEN];
    if (!c) return NULL;
    memcpy(c->x, m->x, sizeof(double) * 3 * m->nv);
    memcpy(c->uv, m->uv, sizeof(double) * 2 * m->nv);
    memcpy(c->tri, m->tri, sizeof(int) * 3 * m->nt);
    if (cc_mesh_build_hinges(c, err) < 0) {
        cc_mesh_free(c);
        return NULL;
    }
    return c;
}

/* the parameter value at the top of the stack as text for cc_sim_param_set */
static const char *param_text(lua_State *L, const char *name, char *buf, size_t cap)
{
    switch (lua_type(L, -1)) {
    case LUA_TNUMBER: snprintf(buf, cap, "%.17g", lua_tonumber(L, -1)); return buf;
    case LUA_TBOOLEAN: snprintf(buf, cap, "%d", lua_toboolean(L, -1)); return buf;
    case LUA_TSTRING: return lua_tostring(L, -1);
    case LUA_TTABLE: {
        size_t used = 0;
        buf[0] = '\0';
        for (lua_Integer i = 1; i <= luaL_len(L, -1) && used < cap; i++) {
            lua_geti(L, -1, i);
            used += (size_t)snprintf(buf + used, cap - used, "%s%.17g", i > 1 ? " " : "", lua_tonumber(L, -1));
            lua_pop(L, 1);
        }
        return buf;
    }
    default: luaL_error(L, "parameter '%s' must be a number, string, boolean or list of numbers", name);
    }
    return NULL;
}

static int l_sim(lua_State *L)
{
    cc_mesh *m = cc_lua_checkmesh(L, 1);
    cc_sim_params p;
    char err[CC_ERRLEN], buf[256];
    const char *preset = "pritchard-table1";
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        if (lua_getfield(L, 2, "preset") == LUA_TSTRING) preset = lua_tostring(L, -1);
        lua_pop(L, 1);
    }
    luaL_argcheck(L, cc_sim_preset(preset, &p, err) == 0, 2, err);
    if (!lua_isnoneornil(L, 2)) {
        lua_pushnil(L);
        while (lua_next(L, 2)) {
            luaL_argcheck(L, lua_type(L, -2) == LUA_TSTRING, 2, "parameter names must be strings");
            const char *name = lua_tostring(L, -2);
            if (strcmp(name, "preset") != 0) {
                const char *val = param_text(L, name, buf, sizeof buf);
                luaL_argcheck(L, cc_sim_param_set(&p, name, val, err) == 0, 2, err);
            }
            lua_pop(L, 1);
        }
    }
    cc_lsim *ls = lua_newuserdatauv(L, sizeof *ls, 1);
    memset(ls, 0, sizeof *ls);
    luaL_setmetatable(L, CC_LUA_SIM);
    lua_newtable(L);                   /* uservalue: keeps Lua conditions alive */
    lua_setiuservalue(L, -2, 1);
    ls->mesh = copy_mesh(m);
    if (!ls->mesh) return luaL_error(L, "out of memory copying the mesh");
    ls->s = cc_sim_new(m, &p, err);
    if (!ls->s) return luaL_error(L, "%s", err);
    return 1;
}

static int l_presets(lua_State *L)
{
    lua_newtable(L);
    int i = 0;
    for (const char *const *n = cc_sim_preset_names(); *n; n++) {
        lua_pushstring(L, *n);
        lua_rawseti(L, -2, ++i);
    }
    return 1;
}

/* 1-based vertex number at arg -> 0-based, checked */
static int checkvertex(lua_State *L, cc_lsim *ls, int arg)
{
    lua_Integer i = luaL_checkinteger(L, arg);
    int n = cc_sim_vertex_count(ls->s);
    luaL_argcheck(L, i >= 1 && i <= n, arg, lua_pushfstring(L, "vertex number out of range 1..%d", n));
    return (int)i - 1;
}

/* a 3-vector at arg: {x, y, z} */
static void checkvec3(lua_State *L, int arg, double *v)
{
    cc_lua_checkpoints(L, arg, 3, 1, v);
}

/* raise a Lua error with err unless rc == 0; return no values */
static int check_rc(lua_State *L, int rc, const char *err)
{
    if (rc < 0) return luaL_error(L, "%s", err);
    return 0;
}

static int l_pin(lua_State *L)
{
    cc_lsim *ls = checklsim(L);
    int v = checkvertex(L, ls, 2);
    double vel[3], *pv = NULL;
    char err[CC_ERRLEN];
    if (!lua_isnoneornil(L, 3)) checkvec3(L, 3, vel), pv = vel;
    return check_rc(L, cc_sim_pin(ls->s, v, pv, err), err);
}

static int l_slide(lua_State *L, int plane)
{
    cc_lsim *ls = checklsim(L);
    int v = checkvertex(L, ls, 2);
    double d[3];
    char err[CC_ERRLEN];
    checkvec3(L, 3, d);
    return check_rc(L, plane ? cc_sim_slide_plane(ls->s, v, d, err) : cc_sim_slide_line(ls->s, v, d, err), err);
}
static int l_slide_plane(lua_State *L) { return l_slide(L, 1); }
static int l_slide_line(lua_State *L) { return l_slide(L, 0); }

static int l_release(lua_State *L)
{
    cc_lsim *ls = checklsim(L);
    char err[CC_ERRLEN];
    return check_rc(L, cc_sim_release(ls->s, checkvertex(L, ls, 2), err), err);
}

static int l_add_plane(lua_State *L)
{
    cc_lsim *ls = checklsim(L);
    double p[3], n[3];
    char err[CC_ERRLEN];
    checkvec3(L, 2, p);
    checkvec3(L, 3, n);
    return check_rc(L, cc_sim_add_plane(ls->s, p, n, err), err);
}

static int l_add_sphere(lua_State *L)
{
    cc_lsim *ls = checklsim(L);
    double c[3];
    char err[CC_ERRLEN];
    checkvec3(L, 2, c);
    return check_rc(L, cc_sim_add_sphere(ls->s, c, luaL_checknumber(L, 3), err), err);
}

static int l_add_table(lua_State *L)
{
    cc_lsim *ls = checklsim(L);
    char err[CC_ERRLEN];
    return check_rc(L, cc_sim_add_table(ls->s, luaL_checknumber(L, 2), luaL_checknumber(L, 3),
                                        luaL_checknumber(L, 4), luaL_checknumber(L, 5),
                                        luaL_checknumber(L, 6), err), err);
}

/* the user condition's eval for element elem: its registered eval or its Lua functions */
static int usercond_eval(void *ctx, int elem, const double *x, int want, cc_eval *out)
{
    usercond *u = ctx;
    if (u->lc->c) return u->lc->c->eval(x, &u->rest[elem], want, out);
    return cc_lua_condition_eval(u->lc, x, &u->rest[elem], want, out);
}

/* rest data of one element of nv vertices idx from the mesh's (u,v) */
static int element_rest(const cc_mesh *m, const cc_sim_params *p, const int *idx, int nv,
                        cc_rest *r, char *err)
{
    if (nv == 4) {   /* the rest hinge at (u, v, 0): flat, rest angle 0 */
        double uv[8];
        for (int c = 0; c < 4; c++) uv[2 * c] = m->uv[2 * idx[c]], uv[2 * c + 1] = m->uv[2 * idx[c] + 1];
        return cc_rest_hinge_flat(r, uv, err);
    }
    if (nv == 2) {
        double du = m->uv[2 * idx[0]] - m->uv[2 * idx[1]], dv = m->uv[2 * idx[0] + 1] - m->uv[2 * idx[1] + 1];
        return cc_rest_spring(r, sqrt(du * du + dv * dv), err);
    }
    double uv[6];
    for (int c = 0; c < 3; c++) uv[2 * c] = m->uv[2 * idx[c]], uv[2 * c + 1] = m->uv[2 * idx[c] + 1];
    return cc_rest_triangle(r, uv, p->area_power, p->bu, p->bv, err);
}

/* the element list at arg as 0-based indices (caller frees); *nelem set */
static int *check_elements(lua_State *L, int arg, const cc_mesh *m, int nv, int *nelem)
{
    int *e = NULL;
    if (lua_type(L, arg) == LUA_TSTRING) {
        const char *what = lua_tostring(L, arg);
        const int *src = NULL;
        if (!strcmp(what, "triangles") && nv == 3) src = m->tri, *nelem = m->nt;
        else if (!strcmp(what, "hinges") && nv == 4) src = m->hinge, *nelem = m->nh;
        else luaL_argerror(L, arg, "use \"triangles\" (3 vertices), \"hinges\" (4) or a list of elements");
        e = malloc(sizeof(int) * (size_t)nv * (size_t)(*nelem + 1));
        if (e) memcpy(e, src, sizeof(int) * (size_t)nv * (size_t)*nelem);
        return e;
    }
    luaL_checktype(L, arg, LUA_TTABLE);
    *nelem = (int)luaL_len(L, arg);
    luaL_argcheck(L, *nelem > 0, arg, "no elements");
    e = malloc(sizeof(int) * (size_t)nv * (size_t)*nelem);
    if (!e) return NULL;
    for (int i = 0; i < *nelem; i++) {
        lua_geti(L, arg, i + 1);
        int ok = lua_istable(L, -1) && luaL_len(L, -1) == nv;
        for (int c = 0; ok && c < nv; c++) {
            lua_geti(L, -1, c + 1);
            lua_Integer v = lua_tointegerx(L, -1, &ok);
            ok = ok && v >= 1 && v <= m->nv;
            e[nv * i + c] = (int)v - 1;
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        if (!ok) {
            free(e);
            luaL_argerror(L, arg, lua_pushfstring(L, "element %d must be %d vertex numbers in 1..%d", i + 1, nv, m->nv));
        }
    }
    return e;
}

static int l_add_condition(lua_State *L)
{
    cc_lsim *ls = checklsim(L);
    cc_lcondition *lc = cc_lua_checkcondition(L, 2);
    int nv = lc->c ? lc->c->nv : lc->nv, nelem = 0;
    double k = luaL_checknumber(L, 4), kd = luaL_optnumber(L, 5, 0.0);
    char err[CC_ERRLEN];
    int *elems = check_elements(L, 3, ls->mesh, nv, &nelem);
    usercond *grown = realloc(ls->uc, sizeof *grown * (size_t)(ls->nuc + 1));
    cc_rest *rest = malloc(sizeof *rest * (size_t)(nelem + 1));
    if (!elems || !grown || !rest) {
        free(elems), free(rest);
        if (grown) ls->uc = grown;
        return luaL_error(L, "out of memory");
    }
    ls->uc = grown;
    for (int i = 0; i < nelem; i++)
        if (element_rest(ls->mesh, cc_sim_get_params(ls->s), elems + nv * i, nv, &rest[i], err) < 0) {
            free(elems), free(rest);
            return luaL_error(L, "element %d: %s", i + 1, err);
        }
    usercond *u = &ls->uc[ls->nuc];
    u->lc = lc, u->rest = rest, u->nelem = nelem;
    cc_sim_condition sc = {lc->c ? lc->c->condition : lc->name, nv, lc->c ? lc->c->ncomp : lc->ncomp,
                           usercond_eval, u};
    int rc = cc_sim_add_condition(ls->s, &sc, elems, nelem, k, kd, err);
    free(elems);
    if (rc < 0) {
        free(rest);
        return luaL_error(L, "%s", err);
    }
    ls->nuc++;
    lua_getiuservalue(L, 1, 1);        /* keep the condition alive with the sim */
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, (lua_Integer)luaL_len(L, -2) + 1);
    return 0;
}

/* Lua conditions call back into the running state; a Lua error inside them is re-raised */
static void bind_state(lua_State *L, cc_lsim *ls)
{
    for (int i = 0; i < ls->nuc; i++) ls->uc[i].lc->L = L, ls->uc[i].lc->err[0] = '\0';
}

static int step_result(lua_State *L, cc_lsim *ls, int rc)
{
    for (int i = 0; i < ls->nuc; i++)
        if (ls->uc[i].lc->err[0]) return luaL_error(L, "%s", ls->uc[i].lc->err);
    if (rc < 0) {
        luaL_pushfail(L);
        lua_pushstring(L, cc_sim_error(ls->s));
        return 2;
    }
    lua_pushboolean(L, 1);
    return 1;
}

static int l_step(lua_State *L)
{
    cc_lsim *ls = checklsim(L);
    lua_Integer n = luaL_optinteger(L, 2, 1);
    luaL_argcheck(L, n >= 1, 2, "number of steps must be positive");
    bind_state(L, ls);
    int rc = 0;
    for (lua_Integer i = 0; i < n && rc == 0 && !cc_lua_stop_asked(); i++) rc = cc_sim_step(ls->s);
    return step_result(L, ls, rc);   /* after a stop, the limits' hook ends the script on return */
}

static int l_advance(lua_State *L)
{
    cc_lsim *ls = checklsim(L);
    double T = luaL_checknumber(L, 2);
    luaL_argcheck(L, T > 0, 2, "time must be positive");
    bind_state(L, ls);
    cc_sim_set_stop(ls->s, cc_lua_stop_asked);   /* between steps: SIGINT, the CPU limit */
    return step_result(L, ls, cc_sim_advance(ls->s, T));
}

static int l_positions(lua_State *L)
{
    cc_lsim *ls = checklsim(L);
    cc_lua_pushnumbers(L, cc_sim_positions(ls->s), 3 * cc_sim_vertex_count(ls->s));
    return 1;
}

static int l_velocities(lua_State *L)
{
    cc_lsim *ls = checklsim(L);
    cc_lua_pushnumbers(L, cc_sim_velocities(ls->s), 3 * cc_sim_vertex_count(ls->s));
    return 1;
}

static int l_position(lua_State *L)
{
    cc_lsim *ls = checklsim(L);
    const double *x = cc_sim_positions(ls->s) + 3 * checkvertex(L, ls, 2);
    for (int s = 0; s < 3; s++) lua_pushnumber(L, x[s]);
    return 3;
}

static int l_reaction(lua_State *L)
{
    cc_lsim *ls = checklsim(L);
    double f[3];
    cc_sim_reaction(ls->s, checkvertex(L, ls, 2), f);
    for (int s = 0; s < 3; s++) lua_pushnumber(L, f[s]);
    return 3;
}

static void setnum(lua_State *L, const char *k, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

static int l_energies(lua_State *L)
{
    cc_lsim *ls = checklsim(L);
    cc_sim_energy e;
    bind_state(L, ls);
    int rc = cc_sim_energies(ls->s, &e);
    for (int i = 0; i < ls->nuc; i++)
        if (ls->uc[i].lc->err[0]) return luaL_error(L, "%s", ls->uc[i].lc->err);
    if (rc < 0) return luaL_error(L, "%s", cc_sim_error(ls->s));
    lua_createtable(L, 0, 7);
    setnum(L, "stretch", e.stretch), setnum(L, "shear", e.shear), setnum(L, "bend", e.bend);
    setnum(L, "user", e.user), setnum(L, "kinetic", e.kinetic), setnum(L, "gravity", e.gravity);
    setnum(L, "total", e.total);
    return 1;
}

static int l_element_energies(lua_State *L)
{
    cc_lsim *ls = checklsim(L);
    const char *term = luaL_checkstring(L, 2);
    bind_state(L, ls);
    int n = cc_sim_element_energies(ls->s, term, NULL, 0);
    luaL_argcheck(L, n >= 0, 2, lua_pushfstring(L, "unknown energy term '%s'", term));
    double *v = malloc(sizeof(double) * (size_t)(n + 1));
    if (!v) return luaL_error(L, "out of memory");
    cc_sim_element_energies(ls->s, term, v, n);
    cc_lua_pushnumbers(L, v, n);
    free(v);
    return 1;
}

/* sim:lambda_min([term [, mode]]) -> lambda, m_min: the smallest eigenvalue of the backward
 * Euler matrix on the free DOFs at the current state (sim/model/probe.h), optionally with term
 * "stretch", "shear" or "bend" assembled with Hessian mode full, clamp, gauss-newton or project */
static int l_lambda_min(lua_State *L)
{
    cc_lsim *ls = checklsim(L);
    static const char *const terms[] = {"stretch", "shear", "bend", NULL};
    static const char *const modes[] = {"full", "clamp", "gauss-newton", "project", NULL};
    const char *term = lua_isnoneornil(L, 2) ? NULL : terms[luaL_checkoption(L, 2, NULL, terms)];
    int mode = luaL_checkoption(L, 3, "full", modes);
    double lambda, mmin;
    char err[CC_ERRLEN];
    if (cc_sim_lambda_min(ls->s, term, (cc_hessian_mode)mode, &lambda, &mmin, err) < 0) return luaL_error(L, "%s", err);
    lua_pushnumber(L, lambda);
    lua_pushnumber(L, mmin);
    return 2;
}

static int l_stats(lua_State *L)
{
    cc_lsim *ls = checklsim(L);
    cc_sim_stats st;
    cc_sim_get_stats(ls->s, &st);
    lua_createtable(L, 0, 9);
    setnum(L, "steps", (double)st.steps), setnum(L, "rejected", (double)st.rejected);
    setnum(L, "cg_iterations", (double)st.cg_iterations);
    setnum(L, "last_cg_iterations", st.last_cg_iterations);
    setnum(L, "psd_retries", (double)st.psd_retries);
    setnum(L, "multigrid_from", (double)st.multigrid_from);
    lua_pushboolean(L, st.last_cg_converged), lua_setfield(L, -2, "last_cg_converged");
    setnum(L, "time", st.time), setnum(L, "h", st.h);
    setnum(L, "assembly_s", st.assembly_s), setnum(L, "solve_s", st.solve_s);
    return 1;
}

static int l_write_obj(lua_State *L)
{
    cc_lsim *ls = checklsim(L);
    char err[CC_ERRLEN];
    const char *path = luaL_checkstring(L, 2);
    cc_lua_checkpath(L, path, 1);
    memcpy(ls->mesh->x, cc_sim_positions(ls->s), sizeof(double) * 3 * ls->mesh->nv);
    if (cc_mesh_write_obj(ls->mesh, path, err) < 0) {
        luaL_pushfail(L);
        lua_pushstring(L, err);
        return 2;
    }
    lua_pushboolean(L, 1);
    return 1;
}

static int l_params(lua_State *L)
{
    const cc_sim_params *p = cc_sim_get_params(checklsim(L)->s);
    lua_newtable(L);
    setnum(L, "k_stretch", p->k_stretch), setnum(L, "k_shear", p->k_shear), setnum(L, "k_bend", p->k_bend);
    setnum(L, "d_stretch", p->d_stretch), setnum(L, "d_shear", p->d_shear), setnum(L, "d_bend", p->d_bend);
    setnum(L, "density", p->density), setnum(L, "air_drag", p->air_drag);
    setnum(L, "area_power", p->area_power), setnum(L, "h", p->h), setnum(L, "cg_tol", p->cg_tol);
    cc_lua_pushnumbers(L, p->gravity, 3), lua_setfield(L, -2, "gravity");
    lua_pushstring(L, p->bend_condition), lua_setfield(L, -2, "bend_condition");
    lua_pushstring(L, p->bend_variant), lua_setfield(L, -2, "bend_variant");
    for (int i = 0; cc_sim_param_enum_name(i); i++) {
        const char *name = cc_sim_param_enum_name(i);
        lua_pushstring(L, cc_sim_param_word(p, name)), lua_setfield(L, -2, name);
    }
    return 1;
}

static int l_index(lua_State *L)
{
    const char *k = luaL_checkstring(L, 2);
    if (!strcmp(k, "nv")) lua_pushinteger(L, cc_sim_vertex_count(checklsim(L)->s));
    else if (!strcmp(k, "time")) {
        cc_sim_stats st;
        cc_sim_get_stats(checklsim(L)->s, &st);
        lua_pushnumber(L, st.time);
    } else {
        luaL_getmetatable(L, CC_LUA_SIM);
        lua_getfield(L, -1, "methods");
        lua_getfield(L, -1, k);
    }
    return 1;
}

static int l_tostring(lua_State *L)
{
    cc_lsim *ls = luaL_checkudata(L, 1, CC_LUA_SIM);
    if (!ls->s) lua_pushliteral(L, "simulation (closed)");
    else {
        const cc_sim_params *p = cc_sim_get_params(ls->s);
        lua_pushfstring(L, "simulation (%d vertices, bend %s/%s, h %f)", cc_sim_vertex_count(ls->s),
                        p->bend_condition, p->bend_variant, p->h);
    }
    return 1;
}

static int l_gc(lua_State *L)
{
    cc_lsim *ls = luaL_checkudata(L, 1, CC_LUA_SIM);
    cc_sim_free(ls->s);
    cc_mesh_free(ls->mesh);
    for (int i = 0; i < ls->nuc; i++) free(ls->uc[i].rest);
    free(ls->uc);
    memset(ls, 0, sizeof *ls);
    return 0;
}

static const luaL_Reg sim_methods[] = {
    {"pin", l_pin}, {"slide_plane", l_slide_plane}, {"slide_line", l_slide_line},
    {"release", l_release}, {"add_plane", l_add_plane}, {"add_sphere", l_add_sphere},
    {"add_table", l_add_table}, {"add_condition", l_add_condition}, {"step", l_step},
    {"advance", l_advance}, {"positions", l_positions}, {"velocities", l_velocities},
    {"position", l_position}, {"reaction", l_reaction}, {"energies", l_energies},
    {"element_energies", l_element_energies}, {"stats", l_stats}, {"write_obj", l_write_obj},
    {"params", l_params}, {"lambda_min", l_lambda_min}, {NULL, NULL}};
static const luaL_Reg sim_meta[] = {
    {"__index", l_index}, {"__tostring", l_tostring}, {"__gc", l_gc}, {"__close", l_gc}, {NULL, NULL}};
static const luaL_Reg sim_funcs[] = {{"sim", l_sim}, {"presets", l_presets}, {NULL, NULL}};

void cc_lua_open_sim(lua_State *L)
{
    luaL_newmetatable(L, CC_LUA_SIM);
    luaL_setfuncs(L, sim_meta, 0);
    luaL_newlib(L, sim_methods);
    lua_setfield(L, -2, "methods");
    lua_pop(L, 1);
    luaL_setfuncs(L, sim_funcs, 0);
}
