#!/usr/bin/env python3
"""A student's bending force, Bridson et al.'s as seed 004 builds it, in plain Python 3.

    F_i = k |e|^2 / (|nA| + |nB|) (sin(theta/2) - sin(theta0/2)) u_i

on a hinge x0..x3 with the shared edge x1-x2 (the labels of `clothcheck eval`), u_i Bridson's
directions. The Jacobian dF/dx is the derivative of this very code, by forward-mode automatic
differentiation (a dual number carrying the 12 partial derivatives), so it always agrees with
the force: a mistake in the force is in the Jacobian too, and no check of one against the other
can find it. Only a comparison with what the code claims to implement can.

It speaks clothcheck's element protocol (docs/your-code.md), force contract:

    clothcheck audit bend --exec "python3 bridson_bend.py" --contract force --claims bridson-force

--mistake plants one mistake, as students make them:
    sign          the force points the wrong way (theta measured the other way round)
    missing-term  |nB| left out of the denominator |nA| + |nB|
    relabelled    the hinge read with the shared edge x0-x1 (another paper's labels)
    forgot-k      the stiffness k left out
    nan-flat      sin(theta/2) = +-sqrt((1 - nA^.nB^)/2) (004's formula): its derivative is 0/0
                  at the flat hinge
"""
import json
import math
import sys

N = 12  # partial derivatives carried by a dual number


class Dual:
    """v + sum_j d[j] eps_j: a value and its derivatives along the 12 coordinates."""

    __slots__ = ("v", "d")

    def __init__(self, v, d):
        self.v, self.d = v, d

    def __add__(self, o):
        if isinstance(o, Dual):
            return Dual(self.v + o.v, [a + b for a, b in zip(self.d, o.d)])
        return Dual(self.v + o, self.d)

    __radd__ = __add__

    def __neg__(self):
        return Dual(-self.v, [-a for a in self.d])

    def __sub__(self, o):
        return self + (-o)

    def __rsub__(self, o):
        return (-self) + o

    def __mul__(self, o):
        if isinstance(o, Dual):
            return Dual(self.v * o.v, [self.v * b + o.v * a for a, b in zip(self.d, o.d)])
        return Dual(self.v * o, [a * o for a in self.d])

    __rmul__ = __mul__

    def __truediv__(self, o):
        if isinstance(o, Dual):
            q = self.v / o.v
            return Dual(q, [(a - q * b) / o.v for a, b in zip(self.d, o.d)])
        return Dual(self.v / o, [a / o for a in self.d])

    def __rtruediv__(self, o):
        q = o / self.v
        return Dual(q, [-q * a / self.v for a in self.d])


def value(a):
    return a.v if isinstance(a, Dual) else a


def chain(a, f, df):
    """f(a) with the derivative df(a) applied to a's partials"""
    if not isinstance(a, Dual):
        return f(a)
    s = df(a.v)
    return Dual(f(a.v), [s * t for t in a.d])


def sqrt(a):
    # d sqrt(r) = 1 / (2 sqrt(r)): infinite at r = 0, as a derivative tool says
    return chain(a, math.sqrt, lambda r: 0.5 / math.sqrt(r) if r > 0 else math.inf)


def sin(a):
    return chain(a, math.sin, math.cos)


def cos(a):
    return chain(a, math.cos, lambda r: -math.sin(r))


def atan2(y, x):
    if not isinstance(y, Dual) and not isinstance(x, Dual):
        return math.atan2(y, x)
    r2 = value(x) ** 2 + value(y) ** 2
    t = math.atan2(value(y), value(x))
    dy = y.d if isinstance(y, Dual) else [0.0] * N
    dx = x.d if isinstance(x, Dual) else [0.0] * N
    return Dual(t, [(value(x) * b - value(y) * a) / r2 for a, b in zip(dx, dy)])


def sub(a, b):
    return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def scale(a, s):
    return [a[0] * s, a[1] * s, a[2] * s]


def add(a, b):
    return [a[0] + b[0], a[1] + b[1], a[2] + b[2]]


def norm(a):
    return sqrt(dot(a, a))


def bend_force(x, theta0, k, mistake):
    """F (12 numbers, or duals) on the hinge x (12 numbers, or duals)"""
    p = [x[0:3], x[3:6], x[6:9], x[9:12]]
    # which vertex is which: wing A, the shared edge's two ends, wing B
    wa, e1, e2, wb = (2, 0, 1, 3) if mistake == "relabelled" else (0, 1, 2, 3)
    nA = cross(sub(p[e2], p[wa]), sub(p[e1], p[wa]))
    nB = cross(sub(p[e1], p[wb]), sub(p[e2], p[wb]))
    e = sub(p[e1], p[e2])
    le, lA, lB = norm(e), norm(nA), norm(nB)
    eh = scale(e, 1 / le)
    nAh, nBh = scale(nA, 1 / lA), scale(nB, 1 / lB)
    c, s = dot(nAh, nBh), dot(cross(nAh, nBh), eh)
    if mistake == "nan-flat":
        half = sqrt((1 - c) / 2)
        sin_half = half if value(s) >= 0 else -half
    else:
        sin_half = sin(atan2(s, c) / 2)
    if mistake == "sign":
        sin_half = -sin_half
    a, b = scale(nA, 1 / (lA * lA)), scale(nB, 1 / (lB * lB))
    u = {wa: scale(a, le), wb: scale(b, le),
         e1: add(scale(a, -dot(sub(p[wa], p[e2]), eh)), scale(b, -dot(sub(p[wb], p[e2]), eh))),
         e2: add(scale(a, dot(sub(p[wa], p[e1]), eh)), scale(b, dot(sub(p[wb], p[e1]), eh)))}
    area = le * le / (lA if mistake == "missing-term" else lA + lB)
    mag = area * (sin_half - math.sin(theta0 / 2)) * (1 if mistake == "forgot-k" else k)
    return [u[m][r] * mag for m in range(4) for r in range(3)]


def answer(req, mistake):
    want = req["want"]
    k = req["k"]
    out = []
    for el in req["elements"]:
        x, theta0 = el["x"], el["rest"]["theta0"]
        if "jacobian" in want:
            xd = [Dual(x[j], [1.0 if i == j else 0.0 for i in range(N)]) for j in range(N)]
            F = bend_force(xd, theta0, k, mistake)
            out.append({"force": [f.v for f in F], "jacobian": [f.d for f in F]})
        else:
            out.append({"force": bend_force(x, theta0, k, mistake)})
    return {"elements": out}


def main():
    mistake = None
    if len(sys.argv) == 3 and sys.argv[1] == "--mistake":
        mistake = sys.argv[2]
    elif len(sys.argv) != 1:
        sys.exit("usage: bridson_bend.py [--mistake sign|missing-term|relabelled|forgot-k|nan-flat]")
    for line in sys.stdin:
        try:
            reply = answer(json.loads(line), mistake)
        except (KeyError, ValueError, ZeroDivisionError) as err:
            reply = {"error": f"{type(err).__name__}: {err}"}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
