#!/usr/bin/env python3
"""A small mass-spring cloth behind clothcheck's system protocol, and the ways a program can
misbehave, for check-system's tests (tests/test_check_system.c).

    system.py [MODE]
    system.py answer FILE

Springs (k = 50) on every mesh edge at their rest lengths, lumped masses of density 0.1,
gravity 9.81 along -z, no damping (df_dv is empty). MODE: right (default); misbehaviour: exit,
garbage, noprovides, badprovides, shortforce, badindex, error, hang, nothing (provides
nothing). `answer FILE`: provides the JSON list on FILE's first line and answers every state
with its second line, as it is.
"""
import json
import math
import sys
import time

K, DENSITY, G = 50.0, 0.1, 9.81


def edges_of(tris):
    out = set()
    for t in tris:
        for a, b in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0])):
            out.add((min(a, b), max(a, b)))
    return sorted(out)


def masses(X, tris, n):
    m = [0.0] * n
    for t in tris:
        p = [X[3 * v:3 * v + 3] for v in t]
        e1 = [p[1][i] - p[0][i] for i in range(3)]
        e2 = [p[2][i] - p[0][i] for i in range(3)]
        c = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]]
        area = 0.5 * math.sqrt(sum(q * q for q in c))
        for v in t:
            m[v] += DENSITY * area / 3
    return m


class Cloth:
    def __init__(self, mesh):
        self.X = mesh["vertices"]
        self.n = len(self.X) // 3
        tris = mesh["triangles"]
        self.edges = [(a, b, self.dist(self.X, a, b)) for a, b in edges_of(tris)]
        self.m = masses(self.X, tris, self.n)

    @staticmethod
    def dist(x, a, b):
        return math.sqrt(sum((x[3 * a + i] - x[3 * b + i]) ** 2 for i in range(3)))

    def state(self, x, v, h):
        n3 = 3 * self.n
        E = sum(self.m[a] * G * x[3 * a + 2] for a in range(self.n))
        f = [0.0] * n3
        ext = [0.0] * n3
        for a in range(self.n):
            ext[3 * a + 2] = -self.m[a] * G
            f[3 * a + 2] = ext[3 * a + 2]
        I, J, V = [], [], []
        for a, b, L in self.edges:
            d = [x[3 * a + i] - x[3 * b + i] for i in range(3)]
            l = math.sqrt(sum(q * q for q in d))
            u = [q / l for q in d]
            E += 0.5 * K * (l - L) ** 2
            for i in range(3):
                f[3 * a + i] -= K * (l - L) * u[i]
                f[3 * b + i] += K * (l - L) * u[i]
            for i in range(3):
                for j in range(3):
                    blk = -K * (u[i] * u[j] + (l - L) / l * ((i == j) - u[i] * u[j]))
                    for r, c, s in ((a, a, 1), (b, b, 1), (a, b, -1), (b, a, -1)):
                        I.append(3 * r + i), J.append(3 * c + j), V.append(s * blk)
        Jv = [0.0] * n3
        for i, j, val in zip(I, J, V):
            Jv[i] += val * v[j]
        A = {"i": list(range(n3)) + I, "j": list(range(n3)) + J,
             "v": [self.m[k // 3] for k in range(n3)] + [-h * h * val for val in V]}
        b = [h * (f[k] + h * Jv[k]) for k in range(n3)]
        return {"energy": E, "force": f, "external": ext, "df_dx": {"i": I, "j": J, "v": V},
                "df_dv": {"i": [], "j": [], "v": []}, "A": A, "b": b}


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "right"
    cloth = None
    if mode == "answer":
        with open(sys.argv[2]) as f:
            canned = f.read().split("\n")
    for line in sys.stdin:
        req = json.loads(line)
        if mode == "exit":
            sys.exit(4)
        if mode == "hang":
            time.sleep(3600)
        if cloth is None:
            cloth = Cloth(req["mesh"])
            provides = ["energy", "force", "df_dx", "df_dv", "system", "external"]
            if mode == "answer":
                out = {"provides": json.loads(canned[0])}
            elif mode == "noprovides":
                out = {"answer": 1}
            elif mode == "badprovides":
                out = {"provides": ["energy", "hessian"]}
            elif mode == "nothing":
                out = {"provides": []}
            else:
                out = {"provides": provides}
        elif mode == "answer":
            out = None
            sys.stdout.write(canned[1] + "\n")
        elif mode == "garbage":
            out = None
            sys.stdout.write("not json\n")
        elif mode == "error":
            out = {"error": "system.py cannot do that"}
        else:
            st = req["state"]
            ans = cloth.state(st["x"], st["v"], req["h"])
            out = {k: ans[k] for k in req["want"] if k in ans}
            if "system" in req["want"]:
                out["A"], out["b"] = ans["A"], ans["b"]
            if mode == "shortforce" and "force" in out:
                out["force"] = out["force"][:-1]
            if mode == "badindex" and "df_dx" in out:
                out["df_dx"]["i"][0] = 10 ** 6
        if out is not None:
            sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
