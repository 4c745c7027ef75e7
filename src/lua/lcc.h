/* The clothcheck Lua 5.4 module: shared declarations of its parts (lcondition.c, lmesh.c, ...).
 * Style of Lua's own libraries: one luaL_Reg table per part, userdata with named metatables. */
#ifndef CC_LCC_H
#define CC_LCC_H

#include <lauxlib.h>
#include <lua.h>
#include "conditions/condition.h"
#include "mesh/mesh.h"

#define CC_LUA_CONDITION "clothcheck.condition"
#define CC_LUA_MESH      "clothcheck.mesh"
#define CC_LUA_OUTDIR    "clothcheck.outdir"   /* registry: the script's output folder */

/* A condition as seen from Lua: a registered C variant, or one defined in Lua. */
typedef struct cc_lcondition {
    const cc_condition *c;   /* the registered variant, or NULL for a Lua-defined one */
    /* Lua-defined only: */
    lua_State *L;            /* the state holding the definition */
    int def;                 /* registry reference to the definition table */
    char name[32];           /* condition name */
    char variant[32];        /* variant name */
    int nv, ncomp;           /* vertices, components */
    cc_claim claim;          /* what its derivatives claim */
    int frozen;              /* 1 if it gives value_frozen(x, xf, rest): C with magnitudes frozen at xf */
    char err[256];           /* the last error raised inside a Lua callback */
    int nonfinite_ok;        /* 1 while an audit runs: numbers that are not finite are passed on
                                (its row "finite" names them), not errors */
} cc_lcondition;

typedef struct cc_lmesh {
    cc_mesh *m;              /* owned; NULL once closed */
} cc_lmesh;

int luaopen_clothcheck(lua_State *L);
/* A state with Lua's standard libraries and clothcheck preloaded for require; without the
 * debug library unless unsafe (then cc_lua_sandbox and cc_lua_limits finish the set-up of an
 * untrusted script). NULL when out of memory. */
lua_State *cc_lua_newstate(int unsafe);

/* ---- the sandbox and limits of untrusted scripts (lsandbox.c, docs/security.md) ---- */
#include <limits.h>
#include <signal.h>
#define CC_SANDBOX_READS 16
typedef struct cc_sandbox {
    char out[PATH_MAX];                      /* resolved output folder: writes only inside */
    char out_given[1024];                    /* the output folder as given, for messages */
    char read[CC_SANDBOX_READS][PATH_MAX];   /* resolved folders and files that may be read */
    int nread;
    double cpu_limit;                        /* seconds of CPU allowed (0: none) */
    volatile sig_atomic_t cpu_hit;           /* 1 once the CPU limit ended the script */
    volatile sig_atomic_t interrupted;       /* 1 once SIGINT ended the script */
    size_t mem_limit, mem_used;              /* bytes of Lua memory allowed (0: none), in use */
    long mem_refused;                        /* allocations refused by the memory limit */
} cc_sandbox;

/* out = path made absolute with symbolic links, "." and ".." resolved; components after the
 * first that does not exist are kept as written. 0, or -1 (a ".." below a missing folder, a
 * dangling link, a path too long). out holds PATH_MAX bytes. */
int cc_sandbox_resolve(const char *path, char *out);
/* write = 1: make path the output folder; write = 0: let the script read path (a folder
 * and everything under it, or one file). 0, or -1 if it cannot be resolved or too many. */
int cc_sandbox_allow(cc_sandbox *sb, const char *path, int write);
/* 0 if the sandbox lets the script read (write = 0) or write (write = 1) path, else -1 */
int cc_sandbox_check(const cc_sandbox *sb, const char *path, int write);
/* Put L in the sandbox sb (which must outlive L): wrapped io, os, load, loadfile, dofile and
 * require; no debug, no programs, no C modules, no environment; package.path as given. */
void cc_lua_sandbox(lua_State *L, cc_sandbox *sb, const char *package_path);
/* Enforce sb's CPU and memory limits on L (with or without the sandbox), and end the script
 * at its next instruction on SIGINT (a second SIGINT ends the process). */
void cc_lua_limits(lua_State *L, cc_sandbox *sb);
/* the limit (or the SIGINT) that ended the script, as one line in buf, or NULL if none did */
const char *cc_lua_limit_hit(const cc_sandbox *sb, char *buf, size_t n);
/* 1 once SIGINT or the CPU limit has asked the running script to stop: a C function that loops
 * for long (sim:step(n)) checks it between iterations and returns to Lua, where the hook ends
 * the script; 0 otherwise (and always in a state without limits) */
int cc_lua_stop_asked(void);
/* Raise a Lua error naming path unless L's sandbox (if any) lets it be read or written:
 * every toolkit function that opens a path calls this first. */
void cc_lua_checkpath(lua_State *L, const char *path, int write);

/* parts: each adds its functions to the module table at the top of the stack */
void cc_lua_open_condition(lua_State *L);
void cc_lua_open_mesh(lua_State *L);
void cc_lua_open_sim(lua_State *L);
void cc_lua_open_io(lua_State *L);
void cc_lua_open_plot(lua_State *L);
void cc_lua_open_audit(lua_State *L);
void cc_lua_open_system(lua_State *L);

cc_lcondition *cc_lua_checkcondition(lua_State *L, int arg);
cc_mesh *cc_lua_checkmesh(lua_State *L, int arg);

/* Read n numbers from the table at arg: flat {x0, y0, z0, x1, ...} or nested {{x0,y0,z0}, ...}
 * with `dim` per point; raises a Lua argument error on anything else. */
void cc_lua_checkpoints(lua_State *L, int arg, int dim, int npoints, double *out);
/* Raise an argument error (argument arg) unless every key of the table at index t is a string
 * in valid (NULL-terminated): "WHERE: unknown parameter 'k'; valid: a, b, c" (where may be
 * NULL), so that a misspelt option is never silently ignored. Nothing when t is none/nil. */
void cc_lua_checkkeys(lua_State *L, int arg, int t, const char *where, const char *const *valid);
/* the number field `key` of the options table at arg (none or nil: no table), or def when absent */
double cc_lua_optfield(lua_State *L, int arg, const char *key, double def);
/* rest data for condition cond from the options table at arg (may be none/nil); the table may
 * hold only the rest options of the condition's element (uv, area_power, bu, bv for a
 * triangle; rest, x_rest for a hinge; rest for a spring) and, if extra is not NULL, the key
 * extra */
void cc_lua_checkrest(lua_State *L, int arg, const cc_lcondition *lc, cc_rest *r, const char *extra);
/* push the rest data as a table (du1, ..., alpha, bu, bv, rest_length, rest_angle, dwu, dwv) */
void cc_lua_pushrest(lua_State *L, const cc_rest *r);
/* append the numbers of the value at idx (a number, or tables of them nested in any way,
 * row-major) to out[*got..n); 0, or -1 on anything else or more than n numbers */
int cc_lua_readnumbers(lua_State *L, int idx, double *out, int n, int *got);
/* raise an argument error unless field `steps` of the definition table at arg is absent or a
 * list of {name=string, value=function, derivative=function[, equations=, formula=, note=,
 * order=1|2]} (lderive.c) */
void cc_lua_checksteps(lua_State *L, int arg);
/* cond:derive and clothcheck.derivation (lderive.c) */
int cc_lua_derive(lua_State *L);
int cc_lua_derivation(lua_State *L);
/* call the function below its nargs arguments on lc's stack under pcall, leaving its one
 * result; 0, or -1 with lc->err set to the error (file:line of the script) */
int cc_lua_callback(cc_lcondition *lc, int nargs);
/* "nan", "inf" or "-inf": the name of a number that is not finite, for messages */
const char *cc_lua_nonfinite_name(double v);
/* push a Lua array of n numbers */
void cc_lua_pushnumbers(lua_State *L, const double *v, int n);

/* Evaluate a Lua-defined condition (want bits as cc_condition.eval); -1 with lc->err set on
 * a Lua error or malformed result. The callbacks run through lua_pcall. */
int cc_lua_condition_eval(cc_lcondition *lc, const double *x, const cc_rest *r, int want, cc_eval *out);
int cc_lua_condition_value(cc_lcondition *lc, const double *x, const cc_rest *r, double *C);
/* C with magnitudes frozen at xf through the definition's value_frozen; -1 with lc->err set */
int cc_lua_condition_value_frozen(cc_lcondition *lc, const double *x, const double *xf, const cc_rest *r,
                                  double *C);

#endif
