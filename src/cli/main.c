/* clothcheck: the command-line front end. One subcommand per file (cmd_*.c). */
#include <stdio.h>
#include <string.h>
#include "api/clothcheck.h"
#include "cli/cli.h"

typedef struct command {
    const char *name;                     /* subcommand */
    int (*run)(int argc, char **argv);    /* argv[0] is the subcommand name */
    const char *summary;                  /* one line for --help */
} command;

static const command commands[] = {
    {"eval", cc_cmd_eval, "evaluate a condition's value, gradient and Hessian on one element"},
    {"derive", cc_cmd_derive, "step through a variant's derivation: a verdict per step, the first departure"},
    {"demo", cc_cmd_demo, "check every condition variant against exact and finite-difference references"},
    {"run", cc_cmd_run, "run a Lua script with the clothcheck module (scenarios, lessons, your own conditions)"},
    {"force", cc_cmd_force, "Bridson's bending force on one hinge, and its Jacobian"},
    {"lesson", cc_cmd_lesson, "list the numbered lessons, or run one (clothcheck lesson 101)"},
    {"bench", cc_cmd_bench, "time the simulator on the standard hanging-cloth scene"},
    {"audit", cc_cmd_audit, "audit derivatives against finite-difference, frozen and exact references (CI gate)"},
    {"check-system", cc_cmd_check_system, "check a whole simulator's forces and matrices through its own program"},
    {"probe", cc_cmd_probe, "look inside the implicit step: the smallest eigenvalue of its matrix, per step"},
};

static void usage(FILE *f)
{
    fputs("usage: clothcheck COMMAND [options]    (clothcheck COMMAND --help for each)\n"
          "       clothcheck --version\n\n"
          "Derivatives of Baraff & Witkin's cloth conditions, checked.\n\nCommands:\n", f);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fputs("\nSources are cited by code: \"001 (57)\" is equation (57) of 001, Pritchard's\n"
          "Implementing Baraff & Witkin's Cloth Simulation (2003); 002 the Freiburg slides, 003\n"
          "Pritchard's thesis chapter, 004 a student's account. docs/sources.md gives each its\n"
          "full reference.\n", f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CC_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return CC_EXIT_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("clothcheck %s\n", clothcheck_version());
        return CC_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "clothcheck: unknown command '%s' (see clothcheck --help)\n", argv[1]);
    return CC_EXIT_USAGE;
}
