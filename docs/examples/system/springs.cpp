// A mass-spring cloth with bending springs, assembled as a student's simulator would, in C++17
// with the standard library only. It computes exactly what springs.py computes and speaks
// clothcheck's system protocol (docs/examples/system/README.md):
//
//     g++ -std=c++17 -O2 -Wall -Wextra -o /tmp/springs docs/examples/system/springs.cpp
//     clothcheck check-system --exec "/tmp/springs" --mesh cloth.obj
//
// The model:
//   - a stretch spring on every mesh edge (stiffness ks) and a bending spring between the two
//     opposite vertices of every interior edge (stiffness kb); rest lengths from the rest mesh;
//     energy k/2 (|d| - L)^2 with d = x_i - x_j, force f_i = -k (|d| - L) d^, f_j = -f_i, and the
//     exact Jacobian df_i/dx_i = -k (d^ d^T + (|d| - L)/|d| (I - d^ d^T));
//   - damping along every spring (stretch and bending): f_i = -kd ((v_i - v_j) . d^) d^,
//     f_j = -f_i, df_i/dv_i = -kd d^ d^T; and its derivative with respect to x, which df_dx
//     includes: df_dx is the full derivative of the total force at the given v,
//     df_i/dx_i += -kd/|d| (d^ (P w)^T + (w . d^) P) with w = v_i - v_j, P = I - d^ d^T.
//     This block is not symmetric, and the (j, i) block equals the (i, j) block (not its
//     transpose): f_j = -f_i and d depends on x_i and x_j with opposite signs;
//   - gravity -g m_a along z on every vertex a; the lumped mass m_a = density * (sum of the rest
//     areas of a's triangles)/3; energy includes the potential m_a g z_a, and "external" is
//     gravity;
//   - "system": A = M - h df_dv - h^2 df_dx and b = h (f + h df_dx v) (Baraff & Witkin (15)-(16)).
//
// Each spring is stored as (i, j) with i < j; a bending spring also remembers its hinge: the
// shared edge (a, b), a < b, and the two opposite vertices (its wings) i < j.
//
// Flags: --ks 100 --kb 1 --kd 0.1 --density 0.1 --gravity 9.81 (the defaults); --damping-dx
// FORM, the damping's x-derivative in df_dx: exact (the default, as above), bw (Baraff & Witkin's
// Section 5.2 form, which leaves the term -kd/|d| d^ (P w)^T out and keeps -kd (w . d^)/|d| P) or
// none (left out: df_dx as at v = 0), three forms a simulator may rightly take; and --mistake
// NAME, which plants one mistake as students make them:
//
//  wrong-vertex    Bending springs only, df_dx only: the off-diagonal block (i, j) (row block of
//                  the wing i, column block of the other wing j) is added at column block a, the
//                  shared edge's lower-numbered vertex, instead of j: the hinge read with a wrong
//                  index. Rows 3i..3i+2 are wrong in the columns of j (block missing) and of a
//                  (block extra). The (j, i) block, the diagonal blocks, the force, energy and
//                  df_dv are right; A and b are built from this df_dx.
//  no-transpose    Stretch springs only, df_dx only: the (j, i) block is added as the transpose of
//                  the (i, j) block, mirrored the way a symmetric Hessian is assembled. For the
//                  spring's conservative part K that is harmless (its blocks are symmetric), so a
//                  missing transpose there could never be seen; the damping's x-derivative G is not
//                  symmetric, and the (j, i) block must be the (i, j) block itself, -(K + G). The
//                  mistake is the same confusion about which off-diagonal block is the transpose of
//                  which: rows 3j..3j+2 (j the larger index), columns 3i..3i+2, hold -(K + G)^T,
//                  off by G - G^T; only where v != 0 (at v = 0, G = 0 and the mistake cannot be
//                  seen). A and b are built from this df_dx.
//  damping-sign    Every spring (stretch and bending), df_dv only: the damping blocks +kd d^ d^T
//                  instead of -kd d^ d^T, all four blocks of every spring. The damping force, df_dx
//                  and the energy are right; A is built from this df_dv, so A agrees with the
//                  program's own df_dv and only the comparison of df_dv with the force shows it.
//  doubled         Bending springs only: the elastic force and its df_dx blocks (all four) are
//                  added twice (a bending pass left in after the bending springs joined the generic
//                  spring loop); the energy counts them once, and their damping is added once.
//                  Force and df_dx agree with each other; force != -grad(energy) at the wings of
//                  every hinge; A and b follow.
//  damping-dx-sign The damping's x-derivative G added with the wrong sign (+kd/|d| (...)), in
//                  df_dx only; seen only where v != 0.
//  missing-bend-jacobian
//                  Bending springs only: their elastic df_dx blocks left out (all four blocks);
//                  their damping's x-derivative, their force and everything else are right; A and b
//                  are built from this df_dx.

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

// ---------------------------------------------------------------- JSON, just what is needed

struct Json {
    enum Type { Null, Bool, Number, String, Array, Object };
    Type type = Null;
    bool boolean = false;
    double number = 0.0;
    bool integer = false;  // a number written without fraction or exponent
    std::string text;
    std::vector<Json> items;
    std::vector<std::pair<std::string, Json>> members;

    const Json* get(const std::string& key) const {
        if (type != Object) return nullptr;
        for (const auto& m : members)
            if (m.first == key) return &m.second;
        return nullptr;
    }
};

struct Refused {  // a request this program cannot answer: it answers {"error": message}
    std::string message;
};

class Parser {
  public:
    explicit Parser(const std::string& s) : s_(s) {}

    Json parse() {
        Json v = value(0);
        space();
        if (p_ != s_.size()) fail("text after the JSON value");
        return v;
    }

  private:
    const std::string& s_;
    size_t p_ = 0;

    [[noreturn]] void fail(const std::string& what) const {
        throw Refused{"not a JSON line: " + what + " at character " + std::to_string(p_)};
    }
    void space() {
        while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\t' || s_[p_] == '\r' ||
                                  s_[p_] == '\n'))
            ++p_;
    }
    bool word(const char* w) {
        size_t n = std::strlen(w);
        if (s_.compare(p_, n, w) == 0) {
            p_ += n;
            return true;
        }
        return false;
    }
    Json value(int depth) {
        if (depth > 64) fail("nested too deeply");
        space();
        if (p_ >= s_.size()) fail("unexpected end");
        Json v;
        char c = s_[p_];
        if (c == '{') {
            v.type = Json::Object;
            ++p_;
            space();
            if (p_ < s_.size() && s_[p_] == '}') {
                ++p_;
                return v;
            }
            for (;;) {
                space();
                if (p_ >= s_.size() || s_[p_] != '"') fail("expected a key");
                std::string key = string();
                space();
                if (p_ >= s_.size() || s_[p_] != ':') fail("expected ':'");
                ++p_;
                v.members.emplace_back(std::move(key), value(depth + 1));
                space();
                if (p_ < s_.size() && s_[p_] == ',') {
                    ++p_;
                    continue;
                }
                if (p_ < s_.size() && s_[p_] == '}') {
                    ++p_;
                    return v;
                }
                fail("expected ',' or '}'");
            }
        }
        if (c == '[') {
            v.type = Json::Array;
            ++p_;
            space();
            if (p_ < s_.size() && s_[p_] == ']') {
                ++p_;
                return v;
            }
            for (;;) {
                v.items.push_back(value(depth + 1));
                space();
                if (p_ < s_.size() && s_[p_] == ',') {
                    ++p_;
                    continue;
                }
                if (p_ < s_.size() && s_[p_] == ']') {
                    ++p_;
                    return v;
                }
                fail("expected ',' or ']'");
            }
        }
        if (c == '"') {
            v.type = Json::String;
            v.text = string();
            return v;
        }
        if (word("true")) {
            v.type = Json::Bool;
            v.boolean = true;
            return v;
        }
        if (word("false")) {
            v.type = Json::Bool;
            return v;
        }
        if (word("null")) return v;
        v.type = Json::Number;
        if (word("NaN")) {  // as Python's json reads and writes them
            v.number = NAN;
            return v;
        }
        if (word("Infinity")) {
            v.number = INFINITY;
            return v;
        }
        if (word("-Infinity")) {
            v.number = -INFINITY;
            return v;
        }
        size_t start = p_;
        if (p_ < s_.size() && s_[p_] == '-') ++p_;
        size_t digits = p_;
        while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) ++p_;
        if (p_ == digits) fail("unexpected character");
        v.integer = true;
        if (p_ < s_.size() && s_[p_] == '.') {
            v.integer = false;
            ++p_;
            size_t frac = p_;
            while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) ++p_;
            if (p_ == frac) fail("a number without digits after '.'");
        }
        if (p_ < s_.size() && (s_[p_] == 'e' || s_[p_] == 'E')) {
            v.integer = false;
            ++p_;
            if (p_ < s_.size() && (s_[p_] == '+' || s_[p_] == '-')) ++p_;
            size_t ex = p_;
            while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_]))) ++p_;
            if (p_ == ex) fail("a number without exponent digits");
        }
        v.number = std::strtod(s_.substr(start, p_ - start).c_str(), nullptr);
        return v;
    }
    std::string string() {
        ++p_;  // the opening quote
        std::string out;
        while (p_ < s_.size() && s_[p_] != '"') {
            char c = s_[p_++];
            if (c != '\\') {
                out += c;
                continue;
            }
            if (p_ >= s_.size()) break;
            char e = s_[p_++];
            switch (e) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'u':  // kept as '?': no key or name this program reads needs it
                    if (p_ + 4 > s_.size()) fail("a short \\u escape");
                    p_ += 4;
                    out += '?';
                    break;
                default: out += e;
            }
        }
        if (p_ >= s_.size()) fail("an unterminated string");
        ++p_;
        return out;
    }
};

void put_number(std::string& out, double x) {
    if (std::isnan(x)) {
        out += "NaN";
        return;
    }
    if (std::isinf(x)) {
        out += x > 0 ? "Infinity" : "-Infinity";
        return;
    }
    char buf[32];
    auto res = std::to_chars(buf, buf + sizeof buf, x);  // shortest text that reads back as x
    out.append(buf, res.ptr);
}

void put_string(std::string& out, const std::string& s) {
    out += '"';
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            unsigned code = static_cast<unsigned char>(c);
            std::snprintf(buf, sizeof buf, "\\u%04x", code);
            out += buf;
        } else {
            out += c;
        }
    }
    out += '"';
}

void put_vector(std::string& out, const std::vector<double>& v) {
    out += '[';
    for (size_t k = 0; k < v.size(); ++k) {
        if (k) out += ',';
        put_number(out, v[k]);
    }
    out += ']';
}

void put_indices(std::string& out, const std::vector<long>& v) {
    out += '[';
    for (size_t k = 0; k < v.size(); ++k) {
        if (k) out += ',';
        out += std::to_string(v[k]);
    }
    out += ']';
}

double number(const Json* v, const std::string& what) {
    if (!v || v->type != Json::Number) throw Refused{what + " is not a number"};
    return v->number;
}

std::vector<double> numbers(const Json* v, long count, const std::string& what) {
    if (!v || v->type != Json::Array) throw Refused{what + " is not a list of numbers"};
    if (count >= 0 && static_cast<long>(v->items.size()) != count)
        throw Refused{what + " has " + std::to_string(v->items.size()) + " numbers, expected " +
                      std::to_string(count)};
    std::vector<double> out;
    out.reserve(v->items.size());
    for (const auto& a : v->items) out.push_back(number(&a, what));
    return out;
}

// ---------------------------------------------------------------- the cloth

const char* const kProvides[] = {"energy", "force", "df_dx", "df_dv", "system", "external"};
const char* const kMistakes[] = {"wrong-vertex", "no-transpose", "damping-sign", "doubled",
                                 "damping-dx-sign", "missing-bend-jacobian"};

struct Options {
    double ks = 100.0, kb = 1.0, kd = 0.1, density = 0.1, gravity = 9.81;
    std::string mistake;  // empty: the right code
    std::string damping_dx = "exact";  // exact, bw or none
};

enum Kind { STRETCH, BEND };

struct Spring {
    long i, j;      // i < j
    double k, L;    // stiffness, rest length
    Kind kind;
    long hinge_a;   // a bending spring's shared edge, lower-numbered vertex; -1 for stretch
};

using Mat3 = std::array<std::array<double, 3>, 3>;

struct Triplets {
    std::vector<long> i, j;
    std::vector<double> v;
    // Adds sign * m as the 3x3 block at row block a, column block b.
    void block(long a, long b, const Mat3& m, double sign) {
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) {
                i.push_back(3 * a + r);
                j.push_back(3 * b + c);
                v.push_back(sign * m[r][c]);
            }
    }
};

class Cloth {
  public:
    Cloth(const Json* mesh, const Options& opts) : opts_(opts) {
        if (!mesh || mesh->type != Json::Object) throw Refused{"mesh is not an object"};
        const Json* verts = mesh->get("vertices");
        if (!verts || verts->type != Json::Array || verts->items.empty() || verts->items.size() % 3)
            throw Refused{"mesh.vertices must be 3n numbers, n > 0"};
        std::vector<double> rest = numbers(verts, -1, "mesh.vertices");
        n_ = static_cast<long>(rest.size() / 3);
        const Json* uv = mesh->get("uv");
        if (uv && uv->type != Json::Null) numbers(uv, 2 * n_, "mesh.uv");  // checked, not used
        const Json* tris = mesh->get("triangles");
        if (!tris || tris->type != Json::Array || tris->items.empty())
            throw Refused{"mesh.triangles must be a non-empty list of [i, j, k]"};
        std::vector<std::array<long, 3>> triangles;
        for (const auto& t : tris->items) {
            if (t.type != Json::Array || t.items.size() != 3)
                throw Refused{"a triangle is not three vertex indices"};
            std::array<long, 3> tri{};
            for (int c = 0; c < 3; ++c) {
                const Json& a = t.items[c];
                if (a.type != Json::Number || !a.integer)
                    throw Refused{"a triangle is not three vertex indices"};
                if (a.number < 0 || a.number >= static_cast<double>(n_))
                    throw Refused{"triangle index " +
                                  std::to_string(static_cast<long long>(a.number)) +
                                  " is out of 0.." + std::to_string(n_ - 1)};
                tri[c] = static_cast<long>(a.number);
            }
            if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2])
                throw Refused{"a triangle repeats a vertex"};
            triangles.push_back(tri);
        }

        // Lumped masses: a third of each triangle's rest area to each of its vertices.
        mass_.assign(n_, 0.0);
        for (const auto& t : triangles) {
            double e1[3], e2[3];
            for (int r = 0; r < 3; ++r) {
                e1[r] = rest[3 * t[1] + r] - rest[3 * t[0] + r];
                e2[r] = rest[3 * t[2] + r] - rest[3 * t[0] + r];
            }
            double cx = e1[1] * e2[2] - e1[2] * e2[1];
            double cy = e1[2] * e2[0] - e1[0] * e2[2];
            double cz = e1[0] * e2[1] - e1[1] * e2[0];
            double area = 0.5 * std::sqrt(cx * cx + cy * cy + cz * cz);
            for (long vtx : t) mass_[vtx] += opts_.density * area / 3.0;
        }

        // Edges (a < b, in sorted order) and the vertices opposite them.
        std::map<std::pair<long, long>, std::vector<long>> opposite;
        for (const auto& t : triangles)
            for (int e = 0; e < 3; ++e) {
                long p = t[e], q = t[(e + 1) % 3], o = t[(e + 2) % 3];
                opposite[{std::min(p, q), std::max(p, q)}].push_back(o);
            }
        auto length = [&](long i, long j) {
            double s = 0.0;
            for (int r = 0; r < 3; ++r) {
                double e = rest[3 * i + r] - rest[3 * j + r];
                s += e * e;
            }
            return std::sqrt(s);
        };
        for (const auto& e : opposite)
            springs_.push_back({e.first.first, e.first.second, opts_.ks,
                                length(e.first.first, e.first.second), STRETCH, -1});
        for (const auto& e : opposite) {
            long a = e.first.first, b = e.first.second;
            const auto& opp = e.second;
            if (opp.size() > 2)
                throw Refused{"edge " + std::to_string(a) + "-" + std::to_string(b) +
                              " is shared by " + std::to_string(opp.size()) +
                              " triangles (not a manifold)"};
            if (opp.size() == 2) {
                long i = std::min(opp[0], opp[1]), j = std::max(opp[0], opp[1]);
                if (i == j)
                    throw Refused{"edge " + std::to_string(a) + "-" + std::to_string(b) +
                                  ": its two triangles are the same"};
                springs_.push_back({i, j, opts_.kb, length(i, j), BEND, a});
            }
        }
    }

    long n() const { return n_; }

    // Writes the answer's members (without braces) for the fields in want, in that order.
    std::string assemble(const std::vector<double>& x, const std::vector<double>& v, double h,
                         const std::vector<std::string>& want) const {
        const std::string& mistake = opts_.mistake;
        const long n3 = 3 * n_;
        bool matrices = false;
        for (const auto& w : want)
            if (w == "df_dx" || w == "df_dv" || w == "system") matrices = true;
        double energy = 0.0;
        std::vector<double> force(n3, 0.0);
        Triplets dfdx, dfdv;  // one entry per contribution (duplicates are summed)

        for (const Spring& sp : springs_) {
            const long i = sp.i, j = sp.j;
            const double k = sp.k, L = sp.L;
            double d[3], u[3], w[3];
            for (int r = 0; r < 3; ++r) d[r] = x[3 * i + r] - x[3 * j + r];
            const double ln = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            if (!(ln > 0.0) || !std::isfinite(ln)) {
                std::string len;
                put_number(len, ln);
                throw Refused{"spring " + std::to_string(i) + "-" + std::to_string(j) +
                              " has length " + len + " at this state: its direction is undefined"};
            }
            for (int r = 0; r < 3; ++r) u[r] = d[r] / ln;
            energy += 0.5 * k * (ln - L) * (ln - L);

            // Elastic force on i (j gets the opposite), and the damping along the spring.
            double fe[3], fd[3];
            for (int r = 0; r < 3; ++r) w[r] = v[3 * i + r] - v[3 * j + r];
            const double s = w[0] * u[0] + w[1] * u[1] + w[2] * u[2];
            for (int r = 0; r < 3; ++r) {
                fe[r] = -k * (ln - L) * u[r];
                fd[r] = -opts_.kd * s * u[r];
                force[3 * i + r] += fe[r] + fd[r];
                force[3 * j + r] -= fe[r] + fd[r];
            }
            if (mistake == "doubled" && sp.kind == BEND)
                for (int r = 0; r < 3; ++r) {  // the old bending pass, still there
                    force[3 * i + r] += fe[r];
                    force[3 * j + r] -= fe[r];
                }
            if (!matrices) continue;

            // df_i/dx_i: elastic K plus the damping's x-derivative G.
            const double ratio = (ln - L) / ln;
            Mat3 P, K, G, J, D;
            double Pw[3];
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c) P[r][c] = (r == c ? 1.0 : 0.0) - u[r] * u[c];
            for (int r = 0; r < 3; ++r) Pw[r] = P[r][0] * w[0] + P[r][1] * w[1] + P[r][2] * w[2];
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c) {
                    K[r][c] = -k * (u[r] * u[c] + ratio * P[r][c]);
                    if (mistake == "missing-bend-jacobian" && sp.kind == BEND) K[r][c] = 0.0;
                    if (mistake == "doubled" && sp.kind == BEND) K[r][c] *= 2.0;
                    const double keep_a = opts_.damping_dx == "exact" ? 1.0 : 0.0;  // d^ (P w)^T
                    const double keep_b = opts_.damping_dx == "none" ? 0.0 : 1.0;   // (w . d^) P
                    const double sign_g = mistake == "damping-dx-sign" ? 1.0 : -1.0;
                    G[r][c] = sign_g * opts_.kd / ln * (keep_a * u[r] * Pw[c] + keep_b * s * P[r][c]);
                    J[r][c] = K[r][c] + G[r][c];
                }

            dfdx.block(i, i, J, 1.0);
            dfdx.block(j, j, J, 1.0);
            if (mistake == "wrong-vertex" && sp.kind == BEND)
                dfdx.block(i, sp.hinge_a, J, -1.0);  // should be column block j
            else
                dfdx.block(i, j, J, -1.0);
            if (mistake == "no-transpose" && sp.kind == STRETCH) {
                Mat3 JT;
                for (int r = 0; r < 3; ++r)
                    for (int c = 0; c < 3; ++c) JT[r][c] = J[c][r];
                dfdx.block(j, i, JT, -1.0);  // should be J itself
            } else {
                dfdx.block(j, i, J, -1.0);
            }

            // df_i/dv_i = -kd d^ d^T.
            const double sign_d = mistake == "damping-sign" ? 1.0 : -1.0;
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c) D[r][c] = sign_d * opts_.kd * u[r] * u[c];
            dfdv.block(i, i, D, 1.0);
            dfdv.block(j, j, D, 1.0);
            dfdv.block(i, j, D, -1.0);
            dfdv.block(j, i, D, -1.0);
        }

        std::vector<double> external(n3, 0.0);
        for (long a = 0; a < n_; ++a) {
            external[3 * a + 2] = -mass_[a] * opts_.gravity;
            force[3 * a + 2] += external[3 * a + 2];
            energy += mass_[a] * opts_.gravity * x[3 * a + 2];
        }

        std::string out;
        auto put_matrix = [&out](const std::string& name, const std::vector<long>& ii,
                                 const std::vector<long>& jj, const std::vector<double>& vv) {
            put_string(out, name);
            out += ":{\"i\":";
            put_indices(out, ii);
            out += ",\"j\":";
            put_indices(out, jj);
            out += ",\"v\":";
            put_vector(out, vv);
            out += '}';
        };
        for (const auto& what : want) {
            if (!out.empty()) out += ',';
            if (what == "energy") {
                out += "\"energy\":";
                put_number(out, energy);
            } else if (what == "force") {
                out += "\"force\":";
                put_vector(out, force);
            } else if (what == "external") {
                out += "\"external\":";
                put_vector(out, external);
            } else if (what == "df_dx") {
                put_matrix("df_dx", dfdx.i, dfdx.j, dfdx.v);
            } else if (what == "df_dv") {
                put_matrix("df_dv", dfdv.i, dfdv.j, dfdv.v);
            } else if (what == "system") {
                Triplets A;
                for (long a = 0; a < n_; ++a)
                    for (int r = 0; r < 3; ++r) {
                        A.i.push_back(3 * a + r);
                        A.j.push_back(3 * a + r);
                        A.v.push_back(mass_[a]);
                    }
                for (size_t e = 0; e < dfdv.v.size(); ++e) {
                    A.i.push_back(dfdv.i[e]);
                    A.j.push_back(dfdv.j[e]);
                    A.v.push_back(-h * dfdv.v[e]);
                }
                for (size_t e = 0; e < dfdx.v.size(); ++e) {
                    A.i.push_back(dfdx.i[e]);
                    A.j.push_back(dfdx.j[e]);
                    A.v.push_back(-h * h * dfdx.v[e]);
                }
                std::vector<double> kv(n3, 0.0);  // df_dx v
                for (size_t e = 0; e < dfdx.v.size(); ++e)
                    kv[dfdx.i[e]] += dfdx.v[e] * v[dfdx.j[e]];
                std::vector<double> b(n3);
                for (long r = 0; r < n3; ++r) b[r] = h * (force[r] + h * kv[r]);
                put_matrix("A", A.i, A.j, A.v);
                out += ",\"b\":";
                put_vector(out, b);
            }
        }
        return out;
    }

  private:
    Options opts_;
    long n_ = 0;
    std::vector<double> mass_;
    std::vector<Spring> springs_;
};

std::string provides_answer() {
    std::string out = "{\"provides\":[";
    for (size_t k = 0; k < sizeof kProvides / sizeof kProvides[0]; ++k) {
        if (k) out += ',';
        put_string(out, kProvides[k]);
    }
    return out + "]}";
}

// One request to one answer line (without the newline).
std::string answer(std::unique_ptr<Cloth>& cloth, const Json& req, const Options& opts) {
    if (req.type != Json::Object) throw Refused{"a request must be a JSON object"};
    if (req.get("mesh") || req.get("protocol")) {
        const Json* protocol = req.get("protocol");
        if (!protocol || protocol->type != Json::Number || protocol->number != 1.0)
            throw Refused{"this protocol is not supported (only 1)"};
        const Json* contract = req.get("contract");
        if (!contract || contract->type != Json::String || contract->text != "system")
            throw Refused{"this contract is not supported (only \"system\")"};
        cloth = std::make_unique<Cloth>(req.get("mesh"), opts);
        return provides_answer();
    }
    if (!cloth)
        throw Refused{"the first request must be "
                      "{\"protocol\": 1, \"contract\": \"system\", \"mesh\": ...}"};
    const Json* state = req.get("state");
    if (!state || state->type != Json::Object) throw Refused{"request has no \"state\" object"};
    std::vector<double> x = numbers(state->get("x"), 3 * cloth->n(), "state.x");
    std::vector<double> v = numbers(state->get("v"), 3 * cloth->n(), "state.v");
    std::vector<std::string> want;
    const Json* w = req.get("want");
    if (!w) {
        for (const char* p : kProvides) want.push_back(p);
    } else {
        if (w->type != Json::Array) throw Refused{"\"want\" must be a list of names"};
        for (const auto& item : w->items) {
            if (item.type != Json::String) throw Refused{"\"want\" must be a list of names"};
            bool known = false;
            for (const char* p : kProvides) known = known || item.text == p;
            if (!known)
                throw Refused{"cannot compute '" + item.text + "': this program provides "
                              "energy, force, df_dx, df_dv, system, external"};
            want.push_back(item.text);
        }
    }
    double h = 0.0;
    bool system = false;
    for (const auto& s : want) system = system || s == "system";
    if (system) {
        if (!req.get("h")) throw Refused{"\"system\" wanted without \"h\""};
        h = number(req.get("h"), "h");
    }
    return "{" + cloth->assemble(x, v, h, want) + "}";
}

[[noreturn]] void usage(int status) {
    (status ? std::cerr : std::cout)
        << "usage: springs [--ks K] [--kb K] [--kd K] [--density RHO] [--gravity G]\n"
           "               [--damping-dx exact|bw|none] [--mistake NAME]\n"
           "mass-spring cloth behind clothcheck's system protocol (JSON lines on stdin/stdout)\n"
           "defaults: --ks 100 --kb 1 --kd 0.1 --density 0.1 --gravity 9.81\n"
           "mistakes: wrong-vertex, no-transpose, damping-sign, doubled, damping-dx-sign,\n"
           "          missing-bend-jacobian\n";
    std::exit(status);
}

Options parse_options(int argc, char** argv) {
    Options o;
    for (int a = 1; a < argc; ++a) {
        std::string arg = argv[a], val;
        if (arg == "-h" || arg == "--help") usage(0);
        size_t eq = arg.find('=');
        if (eq != std::string::npos) {
            val = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
        } else if (a + 1 < argc) {
            val = argv[++a];
        } else {
            std::cerr << "springs: " << arg << " needs a value\n";
            usage(2);
        }
        if (arg == "--mistake") {
            bool known = false;
            for (const char* m : kMistakes) known = known || val == m;
            if (!known) {
                std::cerr << "springs: unknown mistake '" << val << "'\n";
                usage(2);
            }
            o.mistake = val;
            continue;
        }
        if (arg == "--damping-dx") {
            if (val != "exact" && val != "bw" && val != "none") {
                std::cerr << "springs: --damping-dx is exact, bw or none, not '" << val << "'\n";
                usage(2);
            }
            o.damping_dx = val;
            continue;
        }
        double* target = arg == "--ks"        ? &o.ks
                         : arg == "--kb"      ? &o.kb
                         : arg == "--kd"      ? &o.kd
                         : arg == "--density" ? &o.density
                         : arg == "--gravity" ? &o.gravity
                                              : nullptr;
        if (!target) {
            std::cerr << "springs: unknown option " << arg << "\n";
            usage(2);
        }
        char* end = nullptr;
        *target = std::strtod(val.c_str(), &end);
        if (val.empty() || *end != '\0') {
            std::cerr << "springs: " << arg << " needs a number, not '" << val << "'\n";
            usage(2);
        }
    }
    return o;
}

}  // namespace

int main(int argc, char** argv) {
    std::ios::sync_with_stdio(false);
    const Options opts = parse_options(argc, argv);
    std::unique_ptr<Cloth> cloth;
    std::string line;
    while (std::getline(std::cin, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        std::string reply;
        try {
            Json req = Parser(line).parse();
            reply = answer(cloth, req, opts);
        } catch (const Refused& err) {
            reply = "{\"error\":";
            put_string(reply, err.message);
            reply += "}";
        }
        std::cout << reply << '\n' << std::flush;
    }
    return 0;
}
