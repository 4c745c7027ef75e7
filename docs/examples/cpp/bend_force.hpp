// A student's Bridson bending force on one hinge, in C++17, with one mistake planted on request.
//
//   F_i = k |e|^2 / (|nA| + |nB|) (sin(theta/2) - sin(theta0/2)) u_i,   i = 0..3
//
// as seed 004 builds it (Bridson et al. 2003), in the labels of `clothcheck eval`: hinge
// x0..x3, shared edge x1-x2, x0 in triangle A and x3 in triangle B,
//   nA = (x2 - x0) x (x1 - x0),  nB = (x1 - x3) x (x2 - x3),  e = x1 - x2,
//   theta = atan2((nA^ x nB^) . e^, nA^ . nB^).
//
// Positions are 12 doubles, x[3m+s] axis s of vertex m; the force likewise; the Jacobian is
// 12 x 12 row-major, J[12 i + j] = dF_i/dx_j.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace student {

using Dofs = std::array<double, 12>;
using Jacobian = std::array<double, 144>;

// The mistakes one can plant; each but NanFlat keeps the Jacobian the derivative of its force.
enum class Mistake {
    None,
    Sign,          // the force pushes the wrong way (and its Jacobian with it)
    MissingTerm,   // u1, u2 without their triangle-B terms
    Relabelled,    // the hinge read as shared edge x0-x1, wings x2 and x3
    ForgotK,       // the stiffness k left out
    NanFlat,       // sin(theta/2) = sqrt((1 - cos theta)/2) differentiated as written
};

// the mistake named s ("sign", "missing-term", ...), or nothing
std::optional<Mistake> parse_mistake(std::string_view s);

// Bridson's bending force with stiffness k on hinges of rest angle theta0.
struct BendForce {
    double k = 1.0;
    Mistake mistake = Mistake::None;

    // F at x and, if J is not null, dF/dx; false where a triangle or the edge has zero size
    bool operator()(const Dofs &x, double theta0, Dofs &F, Jacobian *J = nullptr) const;
};

}  // namespace student
