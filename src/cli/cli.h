/* The clothcheck command: one function per subcommand, and shared argument helpers.
 * Every subcommand returns the process exit status: 0 success, 1 a check failed,
 * 2 bad input (after printing one line on stderr). */
#ifndef CC_CLI_H
#define CC_CLI_H

#define CC_EXIT_OK      0
#define CC_EXIT_FAIL    1
#define CC_EXIT_USAGE   2
#define CC_EXIT_INTERRUPTED 130   /* a script ended by SIGINT (128 + 2, as shells report it) */

int cc_cmd_eval(int argc, char **argv);
int cc_cmd_demo(int argc, char **argv);
int cc_cmd_run(int argc, char **argv);
int cc_cmd_force(int argc, char **argv);
int cc_cmd_lesson(int argc, char **argv);
int cc_cmd_bench(int argc, char **argv);
int cc_cmd_audit(int argc, char **argv);
int cc_cmd_derive(int argc, char **argv);
int cc_cmd_probe(int argc, char **argv);
int cc_cmd_check_system(int argc, char **argv);

/* Run a Lua script (clothcheck run, clothcheck lesson): arg[0..argc-1] = argv, argv[0] the
 * script. Without unsafe it runs in the sandbox (docs/security.md): it reads its own folder,
 * the lessons and lua folders, `out`, `read_extra` and files named in argv; it writes only
 * in `out` (NULL: out/<script name>). Limits: cpu_limit seconds, memory_limit MB (0: none).
 * The exit status: 0, 1 when the script returns false, 2 on an error or a limit. */
typedef struct cc_run_opts {
    int argc;
    char **argv;
    int unsafe;
    const char *out, *read_extra;
    double cpu_limit, memory_limit;
} cc_run_opts;
#define CC_RUN_CPU_LIMIT    600.0    /* seconds */
#define CC_RUN_MEMORY_LIMIT 4096.0   /* MB */
int cc_run_script(const cc_run_opts *o);
/* the folder holding the lessons ($CLOTHCHECK_LESSONS, else the source tree's lessons/) */
const char *cc_lessons_root(void);

/* clothcheck lesson N --exercise/--solution/--check (lesson_exercise.c): argv[0] is the
 * action; root the lessons folder, lesson the folder name "NNN_name"; the exit status */
int cc_lesson_exercise(const char *root, const char *lesson, int argc, char **argv);
/* 1 if opt is --exercise, --solution or --check */
int cc_lesson_is_exercise_option(const char *opt);

/* clothcheck bench --audit: repeat timed runs of the full audit matrix; the exit status */
int cc_bench_audit(int repeat, int json);

/* Print "clothcheck CMD: message" on stderr; returns CC_EXIT_USAGE. */
int cc_cli_error(const char *cmd, const char *fmt, ...);

/* monotonic wall time in seconds */
double cc_cli_wall(void);
/* median of n values, NAN if n <= 0 (sorts v ascending) */
double cc_cli_median(double *v, int n);

/* A long option parser over argv[first..]: "--name value" or "--name=value".
 * Positional arguments are returned with name NULL. */
typedef struct cc_opt {
    const char *name;   /* option name without "--", or NULL for a positional argument */
    const char *value;  /* its value (NULL for flags) */
} cc_opt;

typedef struct cc_optspec {
    const char *name;   /* option name without "--" */
    int has_value;      /* 1 if it takes a value */
} cc_optspec;

typedef struct cc_optparser {
    int argc;                   /* from main */
    char **argv;
    int i;                      /* next argv index */
    const cc_optspec *specs;    /* terminated by {NULL, 0} */
    const char *cmd;            /* for messages */
} cc_optparser;

/* 1 with *o filled, 0 at the end, -1 after printing an error (unknown option, no value) */
int cc_opt_next(cc_optparser *p, cc_opt *o);

/* Option --name of command cmd as a whole number in lo..hi into *out; 0, or -1 after printing
 * "clothcheck CMD: --NAME needs an integer in LO..HI (got 'VALUE')". */
int cc_int_option(const char *cmd, const char *name, const char *value, int lo, int hi, int *out);

/* Parse a whole string as a finite double; 0 or -1. */
int cc_parse_double(const char *s, double *v);
/* Parse "a b c; d e f; ..." into groups of `dim` numbers; returns the number of groups
 * (at most maxgroups) or -1 with a message in err (CC_ERRLEN bytes). */
int cc_parse_points(const char *s, int dim, double *out, int maxgroups, char *err);

struct cc_condition;
struct cc_rest;

/* The element options shared by eval and derive. */
typedef struct cc_element_opts {
    const char *x;        /* --x "x y z; ..." (NULL: not given) */
    const char *uv;       /* --uv "u v; ..." (NULL: not given) */
    double area_power;    /* --area-power (default 1) */
    double bu, bv;        /* --bu, --bv (default 1) */
    double rest;          /* --rest: bend rest angle or spring rest length */
    int have_rest;        /* 1 if --rest was given */
    const char *x_rest;   /* --x-rest "x y z; ..." (bend: the rest hinge; NULL: not given) */
    const char *triangle_only;   /* the first of --area-power, --bu, --bv given, or NULL */
} cc_element_opts;

/* defaults: area power 1, b_u = b_v = 1, rest 0 not given, no rest hinge */
cc_element_opts cc_element_defaults(void);

/* 1 if option o is an element option, stored into e; -1 after printing an error (a value that
 * is not a finite number); 0 if o is some other option */
int cc_element_option(const char *cmd, const cc_opt *o, cc_element_opts *e);

/* --x-rest VALUE of command cmd: x_rest (12 doubles) and the rest hinge r from 4 points; 0, or
 * the exit status after printing one line (not 4 points, out of range, degenerate) */
struct cc_rest;
int cc_rest_hinge_option(const char *cmd, const char *value, double *x_rest, struct cc_rest *r);

/* x (3*nv), rest data r and the evaluation ev (value, gradient, Hessian) of condition c from
 * e; 0, or the exit status after printing one line (wrong vertex count, degenerate (u,v),
 * non-numbers, C undefined at x, an option that does not apply to c's element: --rest for a
 * triangle, --uv, --area-power, --bu, --bv for a hinge, --x-rest off a hinge, --area-power,
 * --bu, --bv for a spring, and --rest with --uv for a spring) */
struct cc_eval;
int cc_element_build(const char *cmd, const struct cc_condition *c, const cc_element_opts *e,
                     double *x, struct cc_rest *r, struct cc_eval *ev);

#endif
