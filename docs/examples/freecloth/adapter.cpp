// Freecloth 0.7.1's own stretch, shear and bend forces behind clothcheck's element protocol
// (docs/your-code.md), force contract.
//
//   fc_adapter stretch|shear|bend
//
// clothcheck writes one JSON request per line; for each element this program builds the
// smallest Freecloth mesh that holds it (one triangle for stretch and shear, two triangles
// sharing the edge x1-x2 for bend), gives it to Freecloth's SimSimulator with every other
// term switched off (gravity 0, drag 0, all damping constants 0, the stiffness of the other
// conditions 0), lets Freecloth assemble the step (SimSimulator::preSubSteps) and reads back
// what the solver would use:
//   force     the assembled force vector f0                     (SimSimulator::_sd._f0)
//   jacobian  the assembled df/dx, column j = df_dx * e_j by Freecloth's own sparse product
//             (SimMatrix::operator*), so entry [i][j] is what multiplies x_j in row i
//   energy    Freecloth's energy of that term, k/2 C.C           (SimSimulator::_sd._fenergy)
// Velocities are zero, so the damping terms vanish whatever their constants.
//
// Freecloth's conventions, which the request must match (else an "error" answer):
//   - alpha = (u,v) area^0.75 (DO_SCALE_INVARIANT): "area_power" must be 0.75;
//   - no bend rest angle (C = theta): "theta0" must be 0; the rest hinge only lays out the
//     texture coordinates (Freecloth's bend stiffness is interpolated from k_bend_u, k_bend_v
//     along the edge's (u,v) direction; both are set to k);
//   - Freecloth computes in float (Float is a typedef of float); clothcheck recognises the
//     numbers as floats. build.sh's fc_adapter_double reads Float as double (double.h).
//
// Freecloth keeps f0 and df_dx private; this file is compiled with its access labels read as
// public (the #define below, after every standard header) and touches nothing else of it.
//
// Build: build.sh SRC OUT (SRC: an export of github.com/jeske/freecoth).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <fstream>
#include <iomanip>
#include <string>
#include <vector>
#include <list>
#include <map>
#include <set>
#include <algorithm>
#include <functional>
#include <memory>
#include <limits>
#include <typeinfo>

#define private public
#define protected public
#include <freecloth/simulator/simSimulator.h>
#include <freecloth/geom/geMeshBuilder.h>
#undef private
#undef protected

using namespace freecloth;

// ---- a small JSON reader (objects, arrays, numbers incl. NaN/Infinity, strings, literals) ----

struct JV {
    enum T { NUL, BOOL, NUM, STR, ARR, OBJ } t;
    double n;
    std::string s;
    std::vector<JV> a;
    std::vector<std::pair<std::string, JV> > o;
    JV() : t(NUL), n(0) {}
    const JV* get(const char* key) const
    {
        if (t != OBJ) return 0;
        for (size_t i = 0; i < o.size(); i++)
            if (o[i].first == key) return &o[i].second;
        return 0;
    }
};

struct Parser {
    const char* p;
    std::string err;
    void ws() { while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++; }
    bool lit(const char* w)
    {
        size_t n = strlen(w);
        if (strncmp(p, w, n) == 0) { p += n; return true; }
        return false;
    }
    bool str(std::string& out)
    {
        if (*p != '"') { err = "expected a string"; return false; }
        p++;
        out.clear();
        while (*p && *p != '"') {
            if (*p == '\\') {
                p++;
                char c = *p;
                if (c == 'n') out += '\n';
                else if (c == 't') out += '\t';
                else if (c == 'u') { out += '?'; for (int i = 0; i < 4 && p[1]; i++) p++; }
                else if (c) out += c;
                if (*p) p++;
            } else out += *p++;
        }
        if (*p != '"') { err = "unterminated string"; return false; }
        p++;
        return true;
    }
    bool val(JV& v)
    {
        ws();
        if (*p == '{') {
            p++;
            v.t = JV::OBJ;
            ws();
            if (*p == '}') { p++; return true; }
            for (;;) {
                ws();
                std::pair<std::string, JV> kv;
                if (!str(kv.first)) return false;
                ws();
                if (*p != ':') { err = "expected ':'"; return false; }
                p++;
                if (!val(kv.second)) return false;
                v.o.push_back(kv);
                ws();
                if (*p == ',') { p++; continue; }
                if (*p == '}') { p++; return true; }
                err = "expected ',' or '}'";
                return false;
            }
        }
        if (*p == '[') {
            p++;
            v.t = JV::ARR;
            ws();
            if (*p == ']') { p++; return true; }
            for (;;) {
                JV e;
                if (!val(e)) return false;
                v.a.push_back(e);
                ws();
                if (*p == ',') { p++; continue; }
                if (*p == ']') { p++; return true; }
                err = "expected ',' or ']'";
                return false;
            }
        }
        if (*p == '"') { v.t = JV::STR; return str(v.s); }
        if (lit("null")) { v.t = JV::NUL; return true; }
        if (lit("true")) { v.t = JV::BOOL; v.n = 1; return true; }
        if (lit("false")) { v.t = JV::BOOL; v.n = 0; return true; }
        if (lit("NaN")) { v.t = JV::NUM; v.n = NAN; return true; }
        if (lit("Infinity")) { v.t = JV::NUM; v.n = INFINITY; return true; }
        if (lit("-Infinity")) { v.t = JV::NUM; v.n = -INFINITY; return true; }
        char* end;
        v.n = strtod(p, &end);
        if (end == p) { err = "unexpected character"; return false; }
        v.t = JV::NUM;
        p = end;
        return true;
    }
};

static bool numbers(const JV* v, size_t n, std::vector<double>& out)
{
    if (!v || v->t != JV::ARR || v->a.size() != n) return false;
    out.resize(n);
    for (size_t i = 0; i < n; i++) {
        if (v->a[i].t != JV::NUM) return false;
        out[i] = v->a[i].n;
    }
    return true;
}

static bool number(const JV* v, double& out)
{
    if (!v || v->t != JV::NUM) return false;
    out = v->n;
    return true;
}

// ---- writing ----

static void put_num(std::string& o, double d)
{
    char b[40];
    if (d != d) o += "NaN";
    else if (d == INFINITY) o += "Infinity";
    else if (d == -INFINITY) o += "-Infinity";
    else { snprintf(b, sizeof b, "%.17g", d); o += b; }   // a float's value, exactly
}

static void put_escaped(std::string& o, const std::string& s)
{
    o += '"';
    for (size_t i = 0; i < s.size(); i++) {
        if (s[i] == '"' || s[i] == '\\') o += '\\';
        o += (s[i] == '\n') ? ' ' : s[i];
    }
    o += '"';
}

// ---- one element through Freecloth ----

struct Answer {
    std::vector<double> force;                 // 3nv
    std::vector<std::vector<double> > jac;     // 3nv x 3nv, [i][j] = df_i/dx_j
    double energy;
};

static SimSimulator::Params switched_off()
{
    SimSimulator::Params p;   // Freecloth's defaults, then every term off
    p._k_stretch = p._k_shear = 0;
    p._k_bend_u = p._k_bend_v = 0;
    p._k_stretch_damp = p._k_shear_damp = p._k_bend_damp = 0;
    p._k_drag = 0;
    p._g = 0;
    p._b_u = p._b_v = 1;
    return p;
}

// assemble one step's force and df/dx on mesh, reading nv vertices and the energy of `type`
static void assemble(const GeMesh& mesh, const SimSimulator::Params& p, int nv,
                     SimSimulator::ForceType type, Answer& a)
{
    SimSimulator sim(mesh);
    sim.setParams(p);
    sim.setStretchLimit(1e30f);
    sim.preSubSteps();   // stretch, shear (postSubStepsFinale), bend, gravity, drag; A and b
    a.force.assign(3 * nv, 0.0);
    for (int m = 0; m < nv; m++)
        for (int s = 0; s < 3; s++) a.force[3 * m + s] = sim._sd._f0[m][s];
    a.jac.assign(3 * nv, std::vector<double>(3 * nv, 0.0));
    for (int j = 0; j < 3 * nv; j++) {
        SimVector e = SimVector::zero(nv);
        e[j / 3][j % 3] = 1;
        SimVector col = sim._df_dx * e;   // Freecloth's product: col[row] += df_dx(row, c) e[c]
        for (int i = 0; i < 3 * nv; i++) a.jac[i][j] = col[i / 3][i % 3];
    }
    a.energy = sim._sd._fenergy[type];
}

static std::string triangle(const std::string& term, double k, const std::vector<double>& x,
                            const JV* rest, Answer& a)
{
    std::vector<double> uv;
    double bu = 1, bv = 1, ap = 0.75;
    if (!rest || !numbers(rest->get("uv"), 6, uv)) return "rest.uv: 6 numbers expected";
    number(rest->get("bu"), bu);
    number(rest->get("bv"), bv);
    number(rest->get("area_power"), ap);
    if (std::fabs(ap - 0.75) > 1e-12)
        return "Freecloth's alpha is the (u,v) area to the power 0.75 (DO_SCALE_INVARIANT); "
               "audit with --area-power 0.75";
    GeMeshBuilder b;
    for (int m = 0; m < 3; m++) {
        b.addVertex(GePoint(x[3 * m], x[3 * m + 1], x[3 * m + 2]));
        b.addTextureVertex(GePoint(uv[2 * m], uv[2 * m + 1], 0));
    }
    b.addFace(0, 1, 2, 0, 1, 2);
    RCShdPtr<GeMesh> mesh = b.createMesh();
    SimSimulator::Params p = switched_off();
    p._b_u = bu;
    p._b_v = bv;
    if (term == "stretch") p._k_stretch = k;
    else p._k_shear = k;
    assemble(*mesh, p, 3, term == "stretch" ? SimSimulator::F_STRETCH : SimSimulator::F_SHEAR, a);
    return "";
}

static std::string hinge(double k, const std::vector<double>& x, const JV* rest, Answer& a)
{
    std::vector<double> xr;
    double theta0 = 0;
    if (!rest || !numbers(rest->get("x_rest"), 12, xr)) return "rest.x_rest: 12 numbers expected";
    number(rest->get("theta0"), theta0);
    if (std::fabs(theta0) > 1e-12)
        return "Freecloth's bend condition has no rest angle (C = theta): theta0 must be 0";
    // texture coordinates: the rest hinge unfolded flat, the edge x1-x2 along u, x0 on the +v
    // side and x3 on the -v side (Freecloth's Baraff-Witkin rest state is flat)
    double e[3], le = 0;
    for (int s = 0; s < 3; s++) e[s] = xr[3 + s] - xr[6 + s], le += e[s] * e[s];
    le = std::sqrt(le);
    if (!(le > 0)) return "rest hinge with a zero-length edge";
    for (int s = 0; s < 3; s++) e[s] /= le;
    double tu[4], tv[4];
    for (int m = 0; m < 4; m++) {
        double d[3], along = 0, perp = 0;
        for (int s = 0; s < 3; s++) d[s] = xr[3 * m + s] - xr[6 + s], along += d[s] * e[s];
        for (int s = 0; s < 3; s++) { double q = d[s] - along * e[s]; perp += q * q; }
        tu[m] = along;
        tv[m] = (m == 0 ? 1 : m == 3 ? -1 : 0) * std::sqrt(perp);
    }
    GeMeshBuilder b;
    for (int m = 0; m < 4; m++) {
        b.addVertex(GePoint(x[3 * m], x[3 * m + 1], x[3 * m + 2]));
        b.addTextureVertex(GePoint(tu[m], tv[m], 0));
    }
    // face A = (x1, x2, x0) holds the half-edge x1 -> x2, face B = (x2, x1, x3) its twin:
    // Freecloth's calcBend then reads the hinge as vid = {x0, x1, x2, x3} (or its mirror
    // {x3, x2, x1, x0}, the same theta) with e = x1 - x2, the labels of clothcheck's hinge
    b.addFace(1, 2, 0, 1, 2, 0);
    b.addFace(2, 1, 3, 2, 1, 3);
    RCShdPtr<GeMesh> mesh = b.createMesh();
    SimSimulator::Params p = switched_off();
    p._k_bend_u = p._k_bend_v = k;
    assemble(*mesh, p, 4, SimSimulator::F_BEND, a);
    return "";
}

// ---- the request loop ----

static std::string answer_line(const std::string& term, const std::string& line)
{
    JV req;
    Parser ps;
    ps.p = line.c_str();
    std::string out;
    if (!ps.val(req) || req.t != JV::OBJ) {
        out = "{\"error\": ";
        put_escaped(out, "bad request: " + ps.err);
        return out + "}";
    }
    const JV* c = req.get("contract");
    const JV* cond = req.get("condition");
    double k = 1;
    std::string err;
    if (!c || c->t != JV::STR || c->s != "force")
        err = "this adapter speaks the force contract (Freecloth assembles forces): "
              "audit with --contract force";
    else if (!cond || cond->t != JV::STR || cond->s != term)
        err = "this adapter was started for " + term + " and was sent " +
              (cond && cond->t == JV::STR ? cond->s : std::string("no condition"));
    number(req.get("k"), k);
    bool wE = false, wF = false, wJ = false;
    const JV* want = req.get("want");
    if (want && want->t == JV::ARR)
        for (size_t i = 0; i < want->a.size(); i++) {
            if (want->a[i].s == "energy") wE = true;
            if (want->a[i].s == "force") wF = true;
            if (want->a[i].s == "jacobian") wJ = true;
        }
    const JV* els = req.get("elements");
    if (err.empty() && (!els || els->t != JV::ARR)) err = "no elements";
    int nv = term == "bend" ? 4 : 3;
    out = "{\"elements\": [";
    for (size_t ei = 0; err.empty() && ei < els->a.size(); ei++) {
        const JV& el = els->a[ei];
        std::vector<double> x;
        if (!numbers(el.get("x"), 3 * nv, x)) {
            char b[80];
            snprintf(b, sizeof b, "element %d: x must hold %d numbers", (int)ei, 3 * nv);
            err = b;
            break;
        }
        Answer a;
        err = nv == 4 ? hinge(k, x, el.get("rest"), a) : triangle(term, k, x, el.get("rest"), a);
        if (!err.empty()) break;
        out += ei ? ", {" : "{";
        bool first = true;
        if (wF) {
            out += "\"force\": [";
            for (int i = 0; i < 3 * nv; i++) { if (i) out += ", "; put_num(out, a.force[i]); }
            out += "]";
            first = false;
        }
        if (wJ) {
            out += first ? "\"jacobian\": [" : ", \"jacobian\": [";
            for (int i = 0; i < 3 * nv; i++) {
                out += i ? ", [" : "[";
                for (int j = 0; j < 3 * nv; j++) { if (j) out += ", "; put_num(out, a.jac[i][j]); }
                out += "]";
            }
            out += "]";
            first = false;
        }
        if (wE) {
            out += first ? "\"energy\": " : ", \"energy\": ";
            put_num(out, a.energy);
        }
        out += "}";
    }
    if (!err.empty()) {
        out = "{\"error\": ";
        put_escaped(out, err);
        return out + "}";
    }
    return out + "]}";
}

int main(int argc, char** argv)
{
    std::string term = argc > 1 ? argv[1] : "";
    if (argc != 2 || (term != "stretch" && term != "shear" && term != "bend")) {
        fprintf(stderr, "usage: fc_adapter stretch|shear|bend   (clothcheck's element protocol on "
                        "stdin/stdout, force contract)\n");
        return 2;
    }
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.empty()) continue;
        std::string out = answer_line(term, line);
        fputs(out.c_str(), stdout);
        fputc('\n', stdout);
        fflush(stdout);
    }
    return 0;
}
