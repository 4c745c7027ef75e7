#!/usr/bin/env python3
"""Checks springs.py and springs.cpp from the outside, through the system protocol, in plain
Python 3, before clothcheck check-system exists to do it:

    python3 docs/examples/system/selfcheck.py            # both (builds springs.cpp with g++)
    python3 docs/examples/system/selfcheck.py --only python
    python3 docs/examples/system/selfcheck.py --binary /tmp/springs   # already built

On a 3x3-vertex grid (8 triangles, 16 stretch springs, 8 bending springs), at a random
perturbation of the rest shape with v = 0 and with a random v, by central differences:
  force      force = -grad(energy) at v = 0
  df_dx@v0   df_dx = d force / dx at v = 0
  df_dx@v    df_dx = d force / dx at a random v (the damping's x-derivative included)
  df_dv      df_dv = d force / dv
and by the formulas, with the program's own f, df_dx, df_dv and masses computed here:
  A          A = M - h df_dv - h^2 df_dx
  b          b = h (f + h df_dx v)
  external   external = -m g along z, m = density * (rest areas of the vertex's triangles)/3
  net        the internal forces (force - external) add up to zero force and zero torque
  symmetric  df_dx is symmetric at v = 0 (conservative forces only)
  kernel     df_dx maps every translation to zero (at the random v)
It then runs every --mistake, checks which of these fail (each planted mistake must make at
least one fail; the set that fails must be the one listed in EXPECTED_FAILS), and compares its
answers with the right code's, block by block, against what the header comments of springs.py
and springs.cpp say each mistake changes (the vertex blocks of the springs and hinges computed
here from the mesh). Exit status 0 when everything holds, 1 otherwise.
"""
import argparse
import json
import math
import os
import queue
import random
import shutil
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
ALL = ["energy", "force", "df_dx", "df_dv", "system", "external"]
DEFAULTS = {"ks": 100.0, "kb": 1.0, "kd": 0.1, "density": 0.1, "gravity": 9.81}
CUSTOM = {"ks": 70.0, "kb": 3.0, "kd": 0.4, "density": 0.2, "gravity": 5.0}
CHECKS = ["force", "df_dx@v0", "df_dx@v", "df_dv", "A", "b", "external", "net", "symmetric",
          "kernel"]
EXPECTED_FAILS = {
    None: set(),
    "wrong-vertex": {"df_dx@v0", "df_dx@v", "symmetric"},
    "no-transpose": {"df_dx@v", "kernel"},
    "damping-sign": {"df_dv"},
    "doubled": {"force"},
    "missing-bend-jacobian": {"df_dx@v0", "df_dx@v"},
}
FD_TOL = 1e-6      # relative, for the central differences (they reach about 1e-9 here)
EXACT_TOL = 1e-12  # relative, for the formulas
H = 0.01
EPS = 1e-6
TIMEOUT = 30.0


class Program:
    """A running example: one JSON line in, one JSON line out."""

    def __init__(self, argv):
        self.argv = argv
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def ask(self, request):
        self.proc.stdin.write((request if isinstance(request, str) else json.dumps(request))
                              + "\n")
        self.proc.stdin.flush()
        try:
            line = self.lines.get(timeout=TIMEOUT)
        except queue.Empty:
            raise SystemExit(f"{' '.join(self.argv)}: no answer within {TIMEOUT} s")
        if line is None:
            raise SystemExit(f"{' '.join(self.argv)}: exited before answering")
        return json.loads(line)

    def state(self, x, v, want):
        reply = self.ask({"state": {"x": x, "v": v}, "h": H, "want": want})
        if "error" in reply:
            raise SystemExit(f"{' '.join(self.argv)}: error: {reply['error']}")
        return reply

    def close(self):
        self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return "did not exit when stdin closed"


# ---------------------------------------------------------------- the mesh, computed here

def grid():
    """3x3 vertices, spacing 0.5 in the xy plane, 8 triangles."""
    verts, uv, tris = [], [], []
    for r in range(3):
        for c in range(3):
            verts += [0.5 * c, 0.5 * r, 0.0]
            uv += [0.5 * c, 0.5 * r]
    for r in range(2):
        for c in range(2):
            a = 3 * r + c
            tris += [[a, a + 1, a + 4], [a, a + 4, a + 3]]
    return {"vertices": verts, "uv": uv, "triangles": tris}


def topology(mesh):
    """Stretch springs (i, j), i < j, and hinges (i, j, a): wings i < j, a the shared edge's
    lower-numbered vertex."""
    opposite = {}
    for t in mesh["triangles"]:
        for p, q, o in ((t[0], t[1], t[2]), (t[1], t[2], t[0]), (t[2], t[0], t[1])):
            opposite.setdefault((min(p, q), max(p, q)), []).append(o)
    stretch = sorted(opposite)
    hinges = [(min(o), max(o), e[0]) for e, o in sorted(opposite.items()) if len(o) == 2]
    return stretch, hinges


def masses(mesh, density):
    x = mesh["vertices"]
    m = [0.0] * (len(x) // 3)
    for a, b, c in mesh["triangles"]:
        e1 = [x[3 * b + r] - x[3 * a + r] for r in range(3)]
        e2 = [x[3 * c + r] - x[3 * a + r] for r in range(3)]
        n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
             e1[0] * e2[1] - e1[1] * e2[0]]
        area = 0.5 * math.sqrt(sum(a_ * a_ for a_ in n))
        for vtx in (a, b, c):
            m[vtx] += density * area / 3.0
    return m


# ---------------------------------------------------------------- small dense algebra

def dense(trip, size):
    m = [[0.0] * size for _ in range(size)]
    for i, j, v in zip(trip["i"], trip["j"], trip["v"]):
        m[i][j] += v
    return m


def matvec(m, x):
    return [sum(a * b for a, b in zip(row, x)) for row in m]


def maxabs(values):
    return max((abs(a) for a in values), default=0.0)


def flat(m):
    return [a for row in m for a in row]


def rel(diff, ref):
    """max |diff| / max |ref| (max |diff| when ref is all zero)."""
    scale = maxabs(ref)
    return maxabs(diff) / scale if scale > 0 else maxabs(diff)


def fd_columns(prog, x, v, wrt):
    """Central differences of the force along each coordinate of x or v: a dense matrix."""
    size = len(x)
    cols = []
    for k in range(size):
        xp, xm, vp, vm = list(x), list(x), list(v), list(v)
        if wrt == "x":
            xp[k] += EPS
            xm[k] -= EPS
        else:
            vp[k] += EPS
            vm[k] -= EPS
        fp = prog.state(xp, vp, ["force"])["force"]
        fm = prog.state(xm, vm, ["force"])["force"]
        cols.append([(a - b) / (2 * EPS) for a, b in zip(fp, fm)])
    return [[cols[c][r] for c in range(size)] for r in range(size)]


def grad_energy(prog, x, v):
    g = []
    for k in range(len(x)):
        xp, xm = list(x), list(x)
        xp[k] += EPS
        xm[k] -= EPS
        g.append((prog.state(xp, v, ["energy"])["energy"]
                  - prog.state(xm, v, ["energy"])["energy"]) / (2 * EPS))
    return g


# ---------------------------------------------------------------- the checks

def states(mesh):
    rng = random.Random(4)
    x = [a + rng.uniform(-0.1, 0.1) for a in mesh["vertices"]]
    v0 = [0.0] * len(x)
    v = [rng.uniform(-1.0, 1.0) for _ in x]
    return x, v0, v


def run_checks(prog, mesh, params):
    """Returns {check: (relative error, tolerance)} and the full answers at both states."""
    x, v0, v = states(mesh)
    size = len(x)
    n = size // 3
    m = masses(mesh, params["density"])
    at0 = prog.state(x, v0, ALL)
    atv = prog.state(x, v, ALL)
    res = {}

    f0 = at0["force"]
    g = grad_energy(prog, x, v0)
    res["force"] = (rel([a + b for a, b in zip(f0, g)], f0), FD_TOL)

    J0 = dense(at0["df_dx"], size)
    Jv = dense(atv["df_dx"], size)
    Dv = dense(atv["df_dv"], size)
    res["df_dx@v0"] = (rel([a - b for a, b in zip(flat(J0), flat(fd_columns(prog, x, v0, "x")))],
                           flat(J0)), FD_TOL)
    res["df_dx@v"] = (rel([a - b for a, b in zip(flat(Jv), flat(fd_columns(prog, x, v, "x")))],
                          flat(Jv)), FD_TOL)
    res["df_dv"] = (rel([a - b for a, b in zip(flat(Dv), flat(fd_columns(prog, x, v, "v")))],
                        flat(Dv)), FD_TOL)

    A = dense(atv["A"], size)
    A_ref = [[(m[r // 3] if r == c else 0.0) - H * Dv[r][c] - H * H * Jv[r][c]
              for c in range(size)] for r in range(size)]
    res["A"] = (rel([a - b for a, b in zip(flat(A), flat(A_ref))], flat(A_ref)), EXACT_TOL)
    fv = atv["force"]
    Jvv = matvec(Jv, v)
    b_ref = [H * (fv[r] + H * Jvv[r]) for r in range(size)]
    res["b"] = (rel([a - b for a, b in zip(atv["b"], b_ref)], b_ref), EXACT_TOL)

    ext_ref = [(-m[r // 3] * params["gravity"] if r % 3 == 2 else 0.0) for r in range(size)]
    res["external"] = (rel([a - b for a, b in zip(atv["external"], ext_ref)], ext_ref),
                       EXACT_TOL)

    fint = [a - b for a, b in zip(fv, atv["external"])]
    net = [sum(fint[3 * a + r] for a in range(n)) for r in range(3)]
    torque = [0.0, 0.0, 0.0]
    for a in range(n):
        p, f = x[3 * a:3 * a + 3], fint[3 * a:3 * a + 3]
        torque[0] += p[1] * f[2] - p[2] * f[1]
        torque[1] += p[2] * f[0] - p[0] * f[2]
        torque[2] += p[0] * f[1] - p[1] * f[0]
    res["net"] = (rel(net + torque, fint), 1e-10)

    res["symmetric"] = (rel([J0[r][c] - J0[c][r] for r in range(size) for c in range(size)],
                            flat(J0)), EXACT_TOL)
    kern = []
    for axis in range(3):
        t = [1.0 if r % 3 == axis else 0.0 for r in range(size)]
        kern += matvec(Jv, t)
    res["kernel"] = (rel(kern, flat(Jv)), 1e-10)
    return res, at0, atv


def blocks_differing(trip_a, trip_b, size, scale):
    """The (row vertex, column vertex) blocks where two sparse matrices differ."""
    a, b = dense(trip_a, size), dense(trip_b, size)
    out = set()
    for r in range(size):
        for c in range(size):
            if abs(a[r][c] - b[r][c]) > EXACT_TOL * scale:
                out.add((r // 3, c // 3))
    return out


def expected_changes(mistake, mesh):
    """What the header comments say each mistake changes: fields, and the vertex blocks of
    df_dx / df_dv or the vertices of the force."""
    stretch, hinges = topology(mesh)
    bend = [(i, j) for i, j, _ in hinges]
    four = lambda pairs: {b for i, j in pairs for b in ((i, i), (j, j), (i, j), (j, i))}
    if mistake == "wrong-vertex":
        return {"df_dx": {b for i, j, a in hinges for b in ((i, j), (i, a))}, "A": None,
                "b": None}
    if mistake == "no-transpose":
        return {"df_dx": {(j, i) for i, j in stretch}, "A": None, "b": None}
    if mistake == "damping-sign":
        return {"df_dv": four(stretch + bend), "A": None}
    if mistake == "doubled":
        return {"force": {w for p in bend for w in p}, "df_dx": four(bend), "A": None,
                "b": None}
    if mistake == "missing-bend-jacobian":
        return {"df_dx": four(bend), "A": None, "b": None}
    return {}


def compare_answers(wrong, right, size):
    """Fields of wrong that differ from right, with their blocks / vertices."""
    out = {}
    for field in ("energy", "force", "external", "b"):
        a, b = wrong[field], right[field]
        if field == "energy":
            if abs(a - b) > EXACT_TOL * max(1.0, abs(b)):
                out[field] = None
            continue
        scale = max(1.0, maxabs(b))
        rows = {r // 3 for r in range(size) if abs(a[r] - b[r]) > EXACT_TOL * scale}
        if rows:
            out[field] = rows if field == "force" else None
    for field in ("df_dx", "df_dv", "A"):
        scale = max(1.0, maxabs(right[field]["v"]))
        blocks = blocks_differing(wrong[field], right[field], size, scale)
        if blocks:
            out[field] = blocks if field != "A" else None
    return out


def protocol_checks(argv):
    """Errors for bad requests, answers after them, and exit 0 when stdin closes."""
    problems = []
    p = Program(argv)
    mesh = grid()
    x = list(mesh["vertices"])
    v = [0.0] * len(x)
    cases = [
        ("state before the mesh", {"state": {"x": x, "v": v}, "want": ["force"]}),
        ("wrong contract", {"protocol": 1, "contract": "element", "mesh": mesh}),
    ]
    for name, req in cases:
        if "error" not in p.ask(req):
            problems.append(f"no error for {name}")
    if p.ask({"protocol": 1, "contract": "system", "mesh": mesh}) != {"provides": ALL}:
        problems.append("the mesh request is not answered with the full provides list")
    cases = [
        ("a line that is not JSON", "{not json"),
        ("x of the wrong length", {"state": {"x": x[:-1], "v": v}, "want": ["force"]}),
        ("an unknown want", {"state": {"x": x, "v": v}, "want": ["hessian"]}),
        ("system without h", {"state": {"x": x, "v": v}, "want": ["system"]}),
        ("a triangle out of range", {"protocol": 1, "contract": "system",
                                     "mesh": {"vertices": x, "triangles": [[0, 1, 9]]}}),
    ]
    for name, req in cases:
        if "error" not in p.ask(req):
            problems.append(f"no error for {name}")
    reply = p.ask({"state": {"x": x, "v": v}, "h": H, "want": ["energy"]})
    if set(reply) != {"energy"}:
        problems.append(f"after the errors, 'want: [energy]' answered {sorted(reply)}")
    status = p.close()
    if status != 0:
        problems.append(f"when stdin closed: exit status {status}")
    return problems


def build_cpp(cxx):
    if shutil.which(cxx) is None:
        raise SystemExit(f"{cxx} not found (use --only python, or --cxx BINARY)")
    out = os.path.join(tempfile.mkdtemp(prefix="springs-"), "springs")
    cmd = [cxx, "-std=c++17", "-O2", "-Wall", "-Wextra", "-o", out,
           os.path.join(HERE, "springs.cpp")]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    return out, proc.stderr.strip()


def fmt_blocks(blocks):
    return " ".join(f"({a},{b})" for a, b in sorted(blocks))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", choices=["python", "cpp"])
    ap.add_argument("--cxx", default="g++", help="the C++ compiler (default g++)")
    ap.add_argument("--binary", help="an already built springs.cpp (instead of building it)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every relative error")
    args = ap.parse_args()

    programs = []
    if args.only != "cpp":
        programs.append(("python", [sys.executable, os.path.join(HERE, "springs.py")]))
    if args.only != "python":
        if args.binary:
            binary = args.binary
        else:
            binary, warnings = build_cpp(args.cxx)
            print(f"built springs.cpp with {args.cxx} -std=c++17 -O2 -Wall -Wextra: "
                  + (f"WARNINGS\n{warnings}" if warnings else "no warnings"))
            if warnings:
                return 1
        programs.append(("c++", [binary]))

    mesh = grid()
    size = len(mesh["vertices"])
    stretch, hinges = topology(mesh)
    print(f"mesh: 3x3 grid, {len(mesh['triangles'])} triangles, {len(stretch)} stretch springs, "
          f"{len(hinges)} bending springs; hinges (wing i, wing j, shared-edge vertex a): "
          + " ".join(f"({i},{j},{a})" for i, j, a in hinges))
    ok = True
    right_answers = {}
    for lang, argv in programs:
        print(f"\n== {lang}: {' '.join(os.path.basename(a) for a in argv)}")
        problems = protocol_checks(argv)
        print("  protocol (errors, answers after errors, exit on EOF): "
              + ("ok" if not problems else "; ".join(problems)))
        ok = ok and not problems
        runs = [(None, DEFAULTS, []), ("custom flags", CUSTOM,
                [a for k, val in CUSTOM.items() for a in (f"--{k}", repr(val))])]
        runs += [(m, DEFAULTS, ["--mistake", m]) for m in EXPECTED_FAILS if m]
        for mistake, params, extra in runs:
            prog = Program(argv + extra)
            if prog.ask({"protocol": 1, "contract": "system", "mesh": mesh}) != {"provides": ALL}:
                print(f"  {mistake}: bad answer to the mesh request")
                ok = False
                continue
            res, at0, atv = run_checks(prog, mesh, params)
            prog.close()
            failed = {c for c, (err, tol) in res.items() if not err <= tol}
            key = None if mistake == "custom flags" else mistake
            label = mistake or "right code"
            if args.verbose or key is None:
                errs = "  ".join(f"{c} {res[c][0]:.1e}" for c in CHECKS)
                print(f"  {label:22s} {errs}")
            expected = EXPECTED_FAILS[key]
            verdict = "ok" if failed == expected else f"UNEXPECTED (expected {sorted(expected)})"
            if key is not None and not failed:
                verdict = "NOT DETECTED"
            print(f"  {label:22s} fails: {', '.join(c for c in CHECKS if c in failed) or 'none'}"
                  f"  [{verdict}]")
            ok = ok and failed == expected and (key is None or failed)
            if mistake is None:
                right_answers[lang] = (at0, atv)
            elif key is not None:
                changes = compare_answers(atv, right_answers[lang][1], size)
                want = expected_changes(key, mesh)
                same = changes == want
                parts = []
                for field in sorted(changes):
                    what = changes[field]
                    if what is None:
                        parts.append(field)
                    elif field == "force":
                        parts.append(f"force at vertices {sorted(what)}")
                    else:
                        parts.append(f"{field} blocks {fmt_blocks(what)}")
                print(f"  {'':22s} differs from the right code in: {'; '.join(parts)}"
                      f"  [{'as documented' if same else 'NOT AS DOCUMENTED'}]")
                if not same:
                    print(f"  {'':22s} documented: {want}")
                ok = ok and same

    if len(right_answers) == 2:
        worst = 0.0
        for k in (0, 1):
            a, b = right_answers["python"][k], right_answers["c++"][k]
            for field in ("force", "external", "b"):
                worst = max(worst, rel([p - q for p, q in zip(a[field], b[field])], b[field]))
            worst = max(worst, abs(a["energy"] - b["energy"]) / max(1.0, abs(b["energy"])))
            for field in ("df_dx", "df_dv", "A"):
                da, db = flat(dense(a[field], size)), flat(dense(b[field], size))
                worst = max(worst, rel([p - q for p, q in zip(da, db)], db))
        same = worst <= EXACT_TOL
        print(f"\npython and c++ (right code) agree to {worst:.1e}: "
              + ("ok" if same else "DIFFERENT"))
        ok = ok and same
    print("\nall checks as expected" if ok else "\nSOMETHING IS WRONG (see above)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
