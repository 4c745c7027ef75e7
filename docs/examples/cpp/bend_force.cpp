// A student's Bridson bending force and its Jacobian (see bend_force.hpp).
//
//   F_i = k A sigma u_i,  A = |e|^2 / (|nA| + |nB|),  sigma = sin(theta/2) - sin(theta0/2)
//   u0 = |e| a,  u3 = |e| b,  a = nA/|nA|^2,  b = nB/|nB|^2                      (004)
//   u1 = -((x0 - x2).e^) a - ((x3 - x2).e^) b,  u2 = ((x0 - x1).e^) a + ((x3 - x1).e^) b
//
// The Jacobian column by column (vertex m moving along axis s), by the product rule:
//   dF_i = k (dA sigma u_i + A dsigma u_i + A sigma du_i)
//   dA = (2 |e| d|e| - A (d|nA| + d|nB|)) / (|nA| + |nB|),  d|n| = n^ . dn
//   da = (dnA - 2 (nA^ . dnA) nA^) / |nA|^2,  de^ = (de - (e^ . de) e^) / |e|
//   dsigma = cos(theta/2)/2 dtheta,  dtheta/dx_{m,s} = -(u_m)_s   (004's +u_i turns the
//   other way in these labels)
#include "bend_force.hpp"

#include <cmath>

namespace student {
namespace {

struct Vec3 {
    double x = 0, y = 0, z = 0;
    double operator[](int s) const { return s == 0 ? x : s == 1 ? y : z; }
};
Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3 operator*(double s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double norm(Vec3 a) { return std::sqrt(dot(a, a)); }
Vec3 axis(int s) { return {double(s == 0), double(s == 1), double(s == 2)}; }

// One hinge and the pieces of its force.
struct Hinge {
    std::array<Vec3, 4> p;           // x0..x3
    Vec3 nA, nB, e;                  // normals and shared edge
    double lA = 0, lB = 0, le = 0;   // their lengths
    Vec3 nAh, nBh, eh;               // and directions
    Vec3 a, b;                       // nA/|nA|^2, nB/|nB|^2
    std::array<double, 4> cA{}, cB{};   // u_i = cA[i] a + cB[i] b
    std::array<Vec3, 4> u;           // Bridson's directions, as the force uses them
    std::array<Vec3, 4> dtheta;      // dtheta/dx_m = -u_m with every term
    double A = 0, c = 0, sin_half = 0, cos_half = 0;

    // (x_i - x_j) . e^
    double proj(int i, int j) const { return dot(p[i] - p[j], eh); }
    // its change when the vertices move by d and e^ by deh
    double dproj(const std::array<Vec3, 4> &d, Vec3 deh, int i, int j) const
    {
        return dot(d[i] - d[j], eh) + dot(p[i] - p[j], deh);
    }
};

// h at positions x; false if a triangle or the edge has zero size
bool make_hinge(const Dofs &x, Mistake mistake, Hinge &h)
{
    for (int m = 0; m < 4; m++) h.p[m] = {x[3 * m], x[3 * m + 1], x[3 * m + 2]};
    h.nA = cross(h.p[2] - h.p[0], h.p[1] - h.p[0]);
    h.nB = cross(h.p[1] - h.p[3], h.p[2] - h.p[3]);
    h.e = h.p[1] - h.p[2];
    h.lA = norm(h.nA), h.lB = norm(h.nB), h.le = norm(h.e);
    if (!(h.lA > 0 && h.lB > 0 && h.le > 0)) return false;
    h.nAh = (1 / h.lA) * h.nA, h.nBh = (1 / h.lB) * h.nB, h.eh = (1 / h.le) * h.e;
    h.a = (1 / (h.lA * h.lA)) * h.nA, h.b = (1 / (h.lB * h.lB)) * h.nB;
    h.cA = {h.le, -h.proj(0, 2), h.proj(0, 1), 0};
    h.cB = {0, -h.proj(3, 2), h.proj(3, 1), h.le};
    for (int i = 0; i < 4; i++) h.dtheta[i] = -1 * (h.cA[i] * h.a + h.cB[i] * h.b);
    if (mistake == Mistake::MissingTerm) h.cB[1] = h.cB[2] = 0;
    for (int i = 0; i < 4; i++) h.u[i] = h.cA[i] * h.a + h.cB[i] * h.b;
    h.A = h.le * h.le / (h.lA + h.lB);
    h.c = dot(h.nAh, h.nBh);
    double s = dot(cross(h.nAh, h.nBh), h.eh), theta = std::atan2(s, h.c);
    h.sin_half = std::sin(theta / 2), h.cos_half = std::cos(theta / 2);
    if (mistake == Mistake::NanFlat) h.sin_half = std::copysign(std::sqrt((1 - h.c) / 2), s);
    return true;
}

// F and J in the hinge's own labels
bool force_in_labels(const BendForce &f, const Dofs &x, double theta0, Dofs &F, Jacobian *J)
{
    Hinge h;
    if (!make_hinge(x, f.mistake, h)) return false;
    double kk = f.mistake == Mistake::ForgotK ? 1.0 : f.k;
    if (f.mistake == Mistake::Sign) kk = -kk;   // as if sigma were sin(theta0/2) - sin(theta/2)
    double sigma = h.sin_half - std::sin(theta0 / 2);
    for (int i = 0; i < 12; i++) F[i] = kk * h.A * sigma * h.u[i / 3][i % 3];
    if (!J) return true;
    for (int j = 0; j < 12; j++) {
        int m = j / 3, s = j % 3;
        std::array<Vec3, 4> d{};
        d[m] = axis(s);
        Vec3 dnA = cross(d[2] - d[0], h.p[1] - h.p[0]) + cross(h.p[2] - h.p[0], d[1] - d[0]);
        Vec3 dnB = cross(d[1] - d[3], h.p[2] - h.p[3]) + cross(h.p[1] - h.p[3], d[2] - d[3]);
        Vec3 de = d[1] - d[2];
        double dle = dot(h.eh, de), dlA = dot(h.nAh, dnA), dlB = dot(h.nBh, dnB);
        Vec3 deh = (1 / h.le) * (de - dle * h.eh);
        Vec3 da = (1 / (h.lA * h.lA)) * (dnA - 2 * dlA * h.nAh);
        Vec3 db = (1 / (h.lB * h.lB)) * (dnB - 2 * dlB * h.nBh);
        double dA = (2 * h.le * dle - h.A * (dlA + dlB)) / (h.lA + h.lB);
        double dsig = h.cos_half / 2 * h.dtheta[m][s];
        if (f.mistake == Mistake::NanFlat) {   // d sqrt((1 - c)/2) = -dc / (4 sqrt((1 - c)/2)): 0/0 when flat
            Vec3 dnAh = (1 / h.lA) * (dnA - dlA * h.nAh), dnBh = (1 / h.lB) * (dnB - dlB * h.nBh);
            double dc = dot(dnAh, h.nBh) + dot(h.nAh, dnBh);
            dsig = -std::copysign(1.0, h.sin_half) * dc / (4 * std::sqrt((1 - h.c) / 2));
        }
        std::array<double, 4> dcA = {dle, -h.dproj(d, deh, 0, 2), h.dproj(d, deh, 0, 1), 0};
        std::array<double, 4> dcB = {0, -h.dproj(d, deh, 3, 2), h.dproj(d, deh, 3, 1), dle};
        if (f.mistake == Mistake::MissingTerm) dcB[1] = dcB[2] = 0;
        for (int i = 0; i < 4; i++) {
            Vec3 du = dcA[i] * h.a + h.cA[i] * da + dcB[i] * h.b + h.cB[i] * db;
            Vec3 dF = (dA * sigma + h.A * dsig) * h.u[i] + (h.A * sigma) * du;
            for (int r = 0; r < 3; r++) (*J)[(3 * i + r) * 12 + j] = kk * dF[r];
        }
    }
    return true;
}

}  // namespace

std::optional<Mistake> parse_mistake(std::string_view s)
{
    if (s == "none") return Mistake::None;
    if (s == "sign") return Mistake::Sign;
    if (s == "missing-term") return Mistake::MissingTerm;
    if (s == "relabelled") return Mistake::Relabelled;
    if (s == "forgot-k") return Mistake::ForgotK;
    if (s == "nan-flat") return Mistake::NanFlat;
    return std::nullopt;
}

bool BendForce::operator()(const Dofs &x, double theta0, Dofs &F, Jacobian *J) const
{
    if (mistake != Mistake::Relabelled) return force_in_labels(*this, x, theta0, F, J);
    // the hinge read as shared edge x0-x1: its vertices 0..3 are our x2, x0, x1, x3
    constexpr std::array<int, 4> ours = {2, 0, 1, 3};
    Dofs y{}, G{};
    Jacobian K{};
    for (int q = 0; q < 4; q++)
        for (int s = 0; s < 3; s++) y[3 * q + s] = x[3 * ours[q] + s];
    if (!force_in_labels(*this, y, theta0, G, J ? &K : nullptr)) return false;
    auto ours_dof = [&](int i) { return 3 * ours[i / 3] + i % 3; };
    for (int i = 0; i < 12; i++) {
        F[ours_dof(i)] = G[i];
        for (int j = 0; J && j < 12; j++) (*J)[ours_dof(i) * 12 + ours_dof(j)] = K[i * 12 + j];
    }
    return true;
}

}  // namespace student
