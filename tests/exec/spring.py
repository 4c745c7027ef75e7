#!/usr/bin/env python3
"""A spring C = |x0 - x1| - L in the element protocol's condition contract, and the ways a
program can misbehave, for clothcheck's tests (tests/test_exec.c).

    spring.py [MODE]

MODE: right (default); single (numbers rounded to floats, printed as Python prints their
doubles), single9 (floats printed '%.9g', as C programs print them), single-repr (floats printed
with the fewest digits that read back as the float, as numpy prints a float32), digits9 (doubles
printed '%.9g'), digits6 (doubles printed '%g', C's default), float9 (a float computation: the
positions rounded to floats, every operation's result too, printed '%.9g'), single-force and float9-force (single and float9 in the force contract:
E = k C^2 / 2, f = -k C grad C, J = -k (grad C grad C^T + C H), rounded to floats); mistakes: sign, half
(C/2 and its derivatives), swap (gradient laid out axis-major), and FORMAT-gradsign (the gradient's
and the Hessian's sign wrong, the value right, printed as FORMAT: single9, digits6, float9), and
FORMAT-gradtiny (the gradient and the Hessian a millionth of the right ones);
misbehaviour: exit, crash, garbage, array, noelements, count, entries, hang, error,
twolines, silent, nan, negnan (the NaN printed '-nan', as glibc's printf prints 0.0 / 0.0), stderr, unflushed (never flushes stdout), nonewline (flushes its answer
without the newline).
"""
import json
import math
import os
import signal
import struct
import sys
import time


def spring(x, L):
    d = [x[i] - x[i + 3] for i in range(3)]
    n = math.sqrt(sum(t * t for t in d))
    u = [t / n for t in d]
    g = u + [-t for t in u]
    H = [[0.0] * 6 for _ in range(6)]
    for a in range(3):
        for b in range(3):
            h = ((1.0 if a == b else 0.0) - u[a] * u[b]) / n
            H[a][b] = H[a + 3][b + 3] = h
            H[a][b + 3] = H[a + 3][b] = -h
    return n - L, g, H


def as_float(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def float32_repr(v):
    """the fewest digits that read back as the float v (numpy's repr of a float32)"""
    for p in range(1, 10):
        s = "%.*g" % (p, v)
        if as_float(float(s)) == v:
            return s
    return "%.9g" % v


def dumps(obj, fmt):
    """obj as JSON with its numbers printed by fmt"""
    if isinstance(obj, dict):
        return "{" + ", ".join(json.dumps(k) + ": " + dumps(v, fmt) for k, v in obj.items()) + "}"
    if isinstance(obj, list):
        return "[" + ", ".join(dumps(v, fmt) for v in obj) + "]"
    if isinstance(obj, float) and math.isfinite(obj):
        return fmt(obj)
    return json.dumps(obj)


FORMATS = {"single9": lambda v: "%.9g" % v, "single-repr": float32_repr, "digits9": lambda v: "%.9g" % v,
           "digits6": lambda v: "%g" % v, "float9": lambda v: "%.9g" % v, "float9-force": lambda v: "%.9g" % v}


def spring_float(x, L):
    """spring(x, L) computed in floats: every input and every operation's result rounded"""
    f = as_float
    d = [f(f(x[i]) - f(x[i + 3])) for i in range(3)]
    n = f(math.sqrt(f(f(f(d[0] * d[0]) + f(d[1] * d[1])) + f(d[2] * d[2]))))
    u = [f(t / n) for t in d]
    g = u + [-t for t in u]
    H = [[0.0] * 6 for _ in range(6)]
    for a in range(3):
        for b in range(3):
            h = f(f((1.0 if a == b else 0.0) - f(u[a] * u[b])) / n)
            H[a][b] = H[a + 3][b + 3] = h
            H[a][b + 3] = H[a + 3][b] = -h
    return f(n - f(L)), g, H


def element_force(el, k, computed):
    """the spring's energy, force and Jacobian (the force contract) rounded to floats, of the
    spring computed by `computed`"""
    f = as_float
    C, g, H = computed(el["x"], el["rest"]["length"])
    force = [f(-k * C * t) for t in g]
    J = [[f(-k * f(f(g[a] * g[b]) + f(C * H[a][b]))) for b in range(6)] for a in range(6)]
    return {"energy": f(0.5 * k * C * C), "force": force, "jacobian": J}


def element(el, mode):
    C, g, H = (spring_float if mode.startswith("float9") else spring)(el["x"], el["rest"]["length"])
    if mode.endswith("-gradsign"):
        g, H = [-t for t in g], [[-t for t in r] for r in H]
    if mode.endswith("-gradtiny"):
        g, H = [t * 1e-6 for t in g], [[t * 1e-6 for t in r] for r in H]
    if mode == "sign":
        C, g, H = -C, [-t for t in g], [[-t for t in r] for r in H]
    elif mode == "half":
        C, g, H = C / 2, [t / 2 for t in g], [[t / 2 for t in r] for r in H]
    elif mode == "swap":
        g = [g[3 * m + s] for s in range(3) for m in range(2)]
    elif mode.split("-grad")[0] in ("single", "single9", "single-repr"):
        C, g, H = as_float(C), [as_float(t) for t in g], [[as_float(t) for t in r] for r in H]
    elif mode == "nan":
        C = float("nan")
    return {"value": [C], "gradient": [g], "hessian": [H]}


def reply(req, mode):
    if mode.endswith("-force"):
        computed = spring_float if mode == "float9-force" else spring
        return {"elements": [element_force(el, req["k"], computed) for el in req["elements"]]}
    els = [element(el, mode) for el in req["elements"]]
    if mode == "count":
        els = els[:-1] if len(els) > 1 else els + els
    elif mode == "entries":
        els[0]["gradient"][0] = els[0]["gradient"][0][:5]
    return {"elements": els}


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "right"
    for line in sys.stdin:
        req = json.loads(line)
        if mode == "exit":
            sys.exit(3)
        if mode == "crash":
            os.kill(os.getpid(), signal.SIGSEGV)
        if mode == "hang":
            time.sleep(3600)
        if mode == "silent":
            return
        if mode == "stderr":
            sys.stderr.write("spring.py: a note on stderr\n")
        if mode == "garbage":
            out = "this is not JSON"
        elif mode == "array":
            out = "[1, 2, 3]"
        elif mode == "noelements":
            out = json.dumps({"answers": []})
        elif mode == "negnan":   # as C's printf prints a NaN with its sign bit set
            out = json.dumps(reply(req, "nan")).replace("NaN", "-nan")
        elif mode == "error":
            out = json.dumps({"error": "spring.py cannot do that"})
        elif mode.split("-grad")[0] in FORMATS:
            out = dumps(reply(req, mode), FORMATS[mode.split("-grad")[0]])
        else:
            out = json.dumps(reply(req, mode))
        if mode == "nonewline":
            sys.stdout.write(out)
            sys.stdout.flush()
            continue
        # twolines: the answer twice, printed at once as a program printing two lines does
        sys.stdout.write(out + "\n" + (out + "\n" if mode == "twolines" else ""))
        if mode != "unflushed":
            sys.stdout.flush()


if __name__ == "__main__":
    main()
