#!/usr/bin/env python3
"""A mass-spring cloth with bending springs, assembled as a student's simulator would, in plain
Python 3 (no numpy). It speaks clothcheck's system protocol (docs/examples/system/README.md):

    clothcheck check-system --exec "python3 springs.py" --mesh cloth.obj

The model (springs.cpp computes exactly the same):
  - a stretch spring on every mesh edge (stiffness ks) and a bending spring between the two
    opposite vertices of every interior edge (stiffness kb); rest lengths from the rest mesh;
    energy k/2 (|d| - L)^2 with d = x_i - x_j, force f_i = -k (|d| - L) d^, f_j = -f_i, and the
    exact Jacobian df_i/dx_i = -k (d^ d^T + (|d| - L)/|d| (I - d^ d^T));
  - damping along every spring (stretch and bending): f_i = -kd ((v_i - v_j) . d^) d^, f_j = -f_i,
    df_i/dv_i = -kd d^ d^T; and its derivative with respect to x, which df_dx includes:
    df_dx is the full derivative of the total force at the given v,
    df_i/dx_i += -kd/|d| (d^ (P w)^T + (w . d^) P) with w = v_i - v_j, P = I - d^ d^T.
    This block is not symmetric, and the (j, i) block equals the (i, j) block (not its transpose):
    f_j = -f_i and d depends on x_i and x_j with opposite signs;
  - gravity -g m_a along z on every vertex a; the lumped mass m_a = density * (sum of the rest
    areas of a's triangles)/3; energy includes the potential m_a g z_a, and "external" is gravity;
  - "system": A = M - h df_dv - h^2 df_dx and b = h (f + h df_dx v) (Baraff & Witkin (15)-(16)).

Each spring is stored as (i, j) with i < j; a bending spring also remembers its hinge: the shared
edge (a, b), a < b, and the two opposite vertices (its wings) i < j.

Flags: --ks 100 --kb 1 --kd 0.1 --density 0.1 --gravity 9.81 (the defaults); --damping-dx FORM,
the damping's x-derivative in df_dx: exact (the default, as above), bw (Baraff & Witkin's Section
5.2 form, which leaves the term -kd/|d| d^ (P w)^T out and keeps -kd (w . d^)/|d| P) or none (left
out: df_dx as at v = 0), three forms a simulator may rightly take; and --mistake NAME, which plants
one mistake as students make them:

  wrong-vertex    Bending springs only, df_dx only: the off-diagonal block (i, j) (row block of the
                  wing i, column block of the other wing j) is added at column block a, the shared
                  edge's lower-numbered vertex, instead of j: the hinge read with a wrong index.
                  Rows 3i..3i+2 are wrong in the columns of j (block missing) and of a (block
                  extra). The (j, i) block, the diagonal blocks, the force, energy and df_dv are
                  right; A and b are built from this df_dx.
  no-transpose    Stretch springs only, df_dx only: the (j, i) block is added as the transpose of
                  the (i, j) block, mirrored the way a symmetric Hessian is assembled. For the
                  spring's conservative part K that is harmless (its blocks are symmetric), so a
                  missing transpose there could never be seen; the damping's x-derivative G is not
                  symmetric, and the (j, i) block must be the (i, j) block itself, -(K + G). The
                  mistake is the same confusion about which off-diagonal block is the transpose of
                  which: rows 3j..3j+2 (j the larger index), columns 3i..3i+2, hold -(K + G)^T, off
                  by G - G^T; only where v != 0 (at v = 0, G = 0 and the mistake cannot be seen). A
                  and b are built from this df_dx.
  damping-sign    Every spring (stretch and bending), df_dv only: the damping blocks +kd d^ d^T
                  instead of -kd d^ d^T, all four blocks of every spring. The damping force, df_dx
                  and the energy are right; A is built from this df_dv, so A agrees with the
                  program's own df_dv and only the comparison of df_dv with the force shows it.
  doubled         Bending springs only: the elastic force and its df_dx blocks (all four) are added
                  twice (a bending pass left in after the bending springs joined the generic spring
                  loop); the energy counts them once, and their damping is added once. Force and
                  df_dx agree with each other; force != -grad(energy) at the wings of every hinge; A
                  and b follow.
  damping-dx-sign The damping's x-derivative G added with the wrong sign (+kd/|d| (...)), in df_dx
                  only; seen only where v != 0.
  missing-bend-jacobian
                  Bending springs only: their elastic df_dx blocks left out (all four blocks); their
                  damping's x-derivative, their force and everything else are right; A and b are
                  built from this df_dx.
"""
import argparse
import json
import math
import sys

PROVIDES = ["energy", "force", "df_dx", "df_dv", "system", "external"]
MISTAKES = ["wrong-vertex", "no-transpose", "damping-sign", "doubled", "damping-dx-sign", "missing-bend-jacobian"]
STRETCH, BEND = 0, 1


class Refused(Exception):
    """A request this program cannot answer: it answers {"error": message}."""


def number(value, what):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Refused(f"{what} is not a number")
    return float(value)


def numbers(value, count, what):
    if not isinstance(value, list):
        raise Refused(f"{what} is not a list of numbers")
    if count is not None and len(value) != count:
        raise Refused(f"{what} has {len(value)} numbers, expected {count}")
    return [number(a, what) for a in value]


class Cloth:
    """The rest mesh's springs and masses, and the assembly at a state."""

    def __init__(self, mesh, opts):
        if not isinstance(mesh, dict):
            raise Refused("mesh is not an object")
        verts = mesh.get("vertices")
        if not isinstance(verts, list) or len(verts) == 0 or len(verts) % 3:
            raise Refused("mesh.vertices must be 3n numbers, n > 0")
        rest = numbers(verts, None, "mesh.vertices")
        n = len(rest) // 3
        if "uv" in mesh and mesh["uv"] is not None:
            numbers(mesh["uv"], 2 * n, "mesh.uv")  # checked, not used: the model is 3D springs
        tris = mesh.get("triangles")
        if not isinstance(tris, list) or not tris:
            raise Refused("mesh.triangles must be a non-empty list of [i, j, k]")
        triangles = []
        for t in tris:
            if (not isinstance(t, list) or len(t) != 3
                    or any(isinstance(a, bool) or not isinstance(a, int) for a in t)):
                raise Refused(f"triangle {t!r} is not three vertex indices")
            if any(a < 0 or a >= n for a in t) or len(set(t)) != 3:
                raise Refused(f"triangle {t!r} has an index out of 0..{n - 1} or a repeated one")
            triangles.append(tuple(t))
        self.n = n
        self.opts = opts

        # Lumped masses: a third of each triangle's rest area to each of its vertices.
        self.mass = [0.0] * n
        for a, b, c in triangles:
            e1 = [rest[3 * b + r] - rest[3 * a + r] for r in range(3)]
            e2 = [rest[3 * c + r] - rest[3 * a + r] for r in range(3)]
            cx = e1[1] * e2[2] - e1[2] * e2[1]
            cy = e1[2] * e2[0] - e1[0] * e2[2]
            cz = e1[0] * e2[1] - e1[1] * e2[0]
            area = 0.5 * math.sqrt(cx * cx + cy * cy + cz * cz)
            for vtx in (a, b, c):
                self.mass[vtx] += opts.density * area / 3.0

        # Edges and the vertices opposite them.
        opposite = {}
        for a, b, c in triangles:
            for p, q, o in ((a, b, c), (b, c, a), (c, a, b)):
                opposite.setdefault((min(p, q), max(p, q)), []).append(o)

        def length(i, j):
            return math.sqrt(sum((rest[3 * i + r] - rest[3 * j + r]) ** 2 for r in range(3)))

        # A spring: (i, j, stiffness, rest length, kind, hinge edge vertex a or -1).
        self.springs = []
        for (a, b) in sorted(opposite):
            self.springs.append((a, b, opts.ks, length(a, b), STRETCH, -1))
        for (a, b) in sorted(opposite):
            opp = opposite[(a, b)]
            if len(opp) > 2:
                raise Refused(f"edge {a}-{b} is shared by {len(opp)} triangles (not a manifold)")
            if len(opp) == 2:
                i, j = min(opp), max(opp)
                if i == j:
                    raise Refused(f"edge {a}-{b}: its two triangles are the same")
                self.springs.append((i, j, opts.kb, length(i, j), BEND, a))

    def assemble(self, x, v, h, want):
        o = self.opts
        mistake = o.mistake
        n3 = 3 * self.n
        matrices = any(w in want for w in ("df_dx", "df_dv", "system"))
        energy = 0.0
        force = [0.0] * n3
        # Triplets of df_dx and df_dv, one entry per contribution (duplicates are summed).
        xi_, xj_, xv_ = [], [], []
        vi_, vj_, vv_ = [], [], []

        def block(rows, cols, vals, a, b, m, sign):
            for r in range(3):
                for c in range(3):
                    rows.append(3 * a + r)
                    cols.append(3 * b + c)
                    vals.append(sign * m[r][c])

        for (i, j, k, L, kind, hinge_a) in self.springs:
            d = [x[3 * i + r] - x[3 * j + r] for r in range(3)]
            ln = math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2])
            if not ln > 0.0 or not math.isfinite(ln):
                raise Refused(f"spring {i}-{j} has length {ln} at this state: its direction is "
                              "undefined")
            u = [d[r] / ln for r in range(3)]
            energy += 0.5 * k * (ln - L) ** 2

            # Elastic force on i (j gets the opposite).
            fe = [-k * (ln - L) * u[r] for r in range(3)]
            # Damping along the spring.
            w = [v[3 * i + r] - v[3 * j + r] for r in range(3)]
            s = w[0] * u[0] + w[1] * u[1] + w[2] * u[2]
            fd = [-o.kd * s * u[r] for r in range(3)]
            for r in range(3):
                force[3 * i + r] += fe[r] + fd[r]
                force[3 * j + r] -= fe[r] + fd[r]
            if mistake == "doubled" and kind == BEND:
                for r in range(3):  # the old bending pass, still there
                    force[3 * i + r] += fe[r]
                    force[3 * j + r] -= fe[r]
            if not matrices:
                continue

            # df_i/dx_i: elastic K plus the damping's x-derivative G.
            ratio = (ln - L) / ln
            P = [[(1.0 if r == c else 0.0) - u[r] * u[c] for c in range(3)] for r in range(3)]
            Pw = [P[r][0] * w[0] + P[r][1] * w[1] + P[r][2] * w[2] for r in range(3)]
            K = [[-k * (u[r] * u[c] + ratio * P[r][c]) for c in range(3)] for r in range(3)]
            if mistake == "missing-bend-jacobian" and kind == BEND:
                K = [[0.0] * 3 for _ in range(3)]
            if mistake == "doubled" and kind == BEND:
                K = [[2.0 * K[r][c] for c in range(3)] for r in range(3)]
            keep_a = 1.0 if o.damping_dx == "exact" else 0.0  # the term d^ (P w)^T
            keep_b = 0.0 if o.damping_dx == "none" else 1.0   # the term (w . d^) P
            sign_g = 1.0 if mistake == "damping-dx-sign" else -1.0
            G = [[sign_g * o.kd / ln * (keep_a * u[r] * Pw[c] + keep_b * s * P[r][c]) for c in range(3)]
                 for r in range(3)]
            J = [[K[r][c] + G[r][c] for c in range(3)] for r in range(3)]

            block(xi_, xj_, xv_, i, i, J, 1.0)
            block(xi_, xj_, xv_, j, j, J, 1.0)
            if mistake == "wrong-vertex" and kind == BEND:
                block(xi_, xj_, xv_, i, hinge_a, J, -1.0)  # should be column block j
            else:
                block(xi_, xj_, xv_, i, j, J, -1.0)
            if mistake == "no-transpose" and kind == STRETCH:
                JT = [[J[c][r] for c in range(3)] for r in range(3)]
                block(xi_, xj_, xv_, j, i, JT, -1.0)  # should be J itself
            else:
                block(xi_, xj_, xv_, j, i, J, -1.0)

            # df_i/dv_i = -kd d^ d^T.
            sign_d = 1.0 if mistake == "damping-sign" else -1.0
            D = [[sign_d * o.kd * u[r] * u[c] for c in range(3)] for r in range(3)]
            block(vi_, vj_, vv_, i, i, D, 1.0)
            block(vi_, vj_, vv_, j, j, D, 1.0)
            block(vi_, vj_, vv_, i, j, D, -1.0)
            block(vi_, vj_, vv_, j, i, D, -1.0)

        external = [0.0] * n3
        for a in range(self.n):
            external[3 * a + 2] = -self.mass[a] * o.gravity
            force[3 * a + 2] += external[3 * a + 2]
            energy += self.mass[a] * o.gravity * x[3 * a + 2]

        out = {}
        for what in want:
            if what == "energy":
                out["energy"] = energy
            elif what == "force":
                out["force"] = force
            elif what == "external":
                out["external"] = external
            elif what == "df_dx":
                out["df_dx"] = {"i": xi_, "j": xj_, "v": xv_}
            elif what == "df_dv":
                out["df_dv"] = {"i": vi_, "j": vj_, "v": vv_}
            elif what == "system":
                ai, aj, av = [], [], []
                for a in range(self.n):
                    for r in range(3):
                        ai.append(3 * a + r)
                        aj.append(3 * a + r)
                        av.append(self.mass[a])
                ai += vi_
                aj += vj_
                av += [-h * val for val in vv_]
                ai += xi_
                aj += xj_
                av += [-h * h * val for val in xv_]
                kv = [0.0] * n3  # df_dx v
                for r, c, val in zip(xi_, xj_, xv_):
                    kv[r] += val * v[c]
                out["A"] = {"i": ai, "j": aj, "v": av}
                out["b"] = [h * (force[r] + h * kv[r]) for r in range(n3)]
        return out


def answer(cloth, req, opts):
    """One request to one answer; returns (cloth, answer)."""
    if not isinstance(req, dict):
        raise Refused("a request must be a JSON object")
    if "mesh" in req or "protocol" in req:
        if isinstance(req.get("protocol"), bool) or req.get("protocol") != 1:
            raise Refused(f"protocol {req.get('protocol')!r} is not supported (only 1)")
        if req.get("contract") != "system":
            raise Refused(f"contract {req.get('contract')!r} is not supported (only \"system\")")
        return Cloth(req.get("mesh"), opts), {"provides": PROVIDES}
    if cloth is None:
        raise Refused("the first request must be {\"protocol\": 1, \"contract\": \"system\", "
                      "\"mesh\": ...}")
    state = req.get("state")
    if not isinstance(state, dict):
        raise Refused("request has no \"state\" object")
    x = numbers(state.get("x"), 3 * cloth.n, "state.x")
    v = numbers(state.get("v"), 3 * cloth.n, "state.v")
    want = req.get("want", PROVIDES)
    if not isinstance(want, list) or any(not isinstance(w, str) for w in want):
        raise Refused("\"want\" must be a list of names")
    for w in want:
        if w not in PROVIDES:
            raise Refused(f"cannot compute {w!r}: this program provides {', '.join(PROVIDES)}")
    h = 0.0
    if "system" in want:
        if "h" not in req:
            raise Refused("\"system\" wanted without \"h\"")
        h = number(req["h"], "h")
    return cloth, cloth.assemble(x, v, h, want)


def main():
    ap = argparse.ArgumentParser(description="mass-spring cloth behind clothcheck's system "
                                 "protocol (JSON lines on stdin/stdout)")
    ap.add_argument("--ks", type=float, default=100.0, help="stretch spring stiffness")
    ap.add_argument("--kb", type=float, default=1.0, help="bending spring stiffness")
    ap.add_argument("--kd", type=float, default=0.1, help="damping along every spring")
    ap.add_argument("--density", type=float, default=0.1, help="mass per rest area")
    ap.add_argument("--gravity", type=float, default=9.81, help="g, along -z")
    ap.add_argument("--damping-dx", choices=["exact", "bw", "none"], default="exact",
                    help="the damping's x-derivative in df_dx (see the header)")
    ap.add_argument("--mistake", choices=MISTAKES, help="plant one mistake (see the header)")
    opts = ap.parse_args()

    cloth = None
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            cloth, reply = answer(cloth, req, opts)
        except Refused as err:
            reply = {"error": str(err)}
        except ValueError as err:  # not JSON
            reply = {"error": f"not a JSON line: {err}"}
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
