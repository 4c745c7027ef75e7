// Audit a student's Bridson bending force (bend_force.cpp) with the installed clothcheck
// library, from C++17: is it Bridson's force with stiffness k, and is its Jacobian its
// derivative?
//
//   audit_bend_cpp [--mistake sign|missing-term|relabelled|forgot-k|nan-flat] [--k K] [--samples N]
//
// Prints clothcheck's table (a line starting '^' under a failing row names the kind of
// mistake) and exits 0 when the force holds its claim, 1 when it does not, 2 on bad usage.
#include <clothcheck/clothcheck.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "bend_force.hpp"

namespace {

// clothcheck's callbacks on a student::BendForce (the user pointer)
int force_cb(void *user, const double *x, const clothcheck_rest *rest, double *F)
{
    student::Dofs xs{}, Fs{};
    std::copy(x, x + 12, xs.begin());
    if (!(*static_cast<const student::BendForce *>(user))(xs, rest->theta0, Fs)) return 1;
    std::copy(Fs.begin(), Fs.end(), F);
    return 0;
}

int jacobian_cb(void *user, const double *x, const clothcheck_rest *rest, double *dFdx)
{
    student::Dofs xs{}, Fs{};
    student::Jacobian J{};
    std::copy(x, x + 12, xs.begin());
    if (!(*static_cast<const student::BendForce *>(user))(xs, rest->theta0, Fs, &J)) return 1;
    std::copy(J.begin(), J.end(), dFdx);
    return 0;
}

int usage(const char *why)
{
    std::fprintf(stderr, "audit_bend_cpp: %s\nusage: audit_bend_cpp [--mistake sign|missing-term|relabelled|"
                         "forgot-k|nan-flat] [--k K] [--samples N]\n", why);
    return 2;
}

}  // namespace

int main(int argc, char **argv)
{
    student::BendForce force;
    force.k = 2.5;
    int samples = 300;   // as ../c/audit_bend.c
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc) return usage("every option takes a value");
        std::string_view name = argv[i];
        std::string value = argv[i + 1];
        if (name == "--mistake") {
            auto m = student::parse_mistake(value);
            if (!m) return usage("unknown mistake");
            force.mistake = *m;
        } else if (name == "--k") {
            force.k = std::strtod(value.c_str(), nullptr);
        } else if (name == "--samples") {
            samples = static_cast<int>(std::strtol(value.c_str(), nullptr, 10));
        } else {
            return usage("unknown option");
        }
    }
    clothcheck_model model{};
    model.name = "student-bend-cpp";
    model.nv = 4;
    model.user = &force;
    model.force = force_cb;
    model.jacobian = jacobian_cb;
    clothcheck_options opts{};
    opts.samples = samples;
    opts.seed = 1;
    opts.claims = "bridson-force";
    opts.k = force.k;
    std::unique_ptr<clothcheck_result, decltype(&clothcheck_free)> result(clothcheck_audit(&model, &opts),
                                                                        clothcheck_free);
    if (!result) return usage(clothcheck_error());
    clothcheck_print(stdout, result.get());
    bool holds = clothcheck_verdict(result.get()) == 0;
    std::printf("audit_bend_cpp: %s\n", holds ? "the force is Bridson's and its Jacobian is its derivative"
                                              : "the force fails its claim (rows marked FAIL above)");
    return holds ? 0 : 1;
}
