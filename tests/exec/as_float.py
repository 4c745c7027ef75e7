#!/usr/bin/env python3
"""as_float.py PROGRAM ARGS...: runs PROGRAM behind clothcheck's system protocol and rounds every
number of its replies to single precision, printed as C's %.9g, as a simulator computing in
floats answers. Requests pass through unchanged; the program's errors go to stderr as its own."""
import json
import struct
import subprocess
import sys


def single(x):
    if isinstance(x, bool) or not isinstance(x, float):
        return x
    if x != x or x in (float("inf"), float("-inf")):
        return x
    return float("%.9g" % struct.unpack("f", struct.pack("f", x))[0])


def rounded(o):
    if isinstance(o, dict):
        return {k: rounded(v) for k, v in o.items()}
    if isinstance(o, list):
        return [rounded(v) for v in o]
    return single(o)


def main():
    child = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for line in sys.stdin:
        child.stdin.write(line)
        child.stdin.flush()
        reply = child.stdout.readline()
        if not reply:
            break
        sys.stdout.write(json.dumps(rounded(json.loads(reply)), separators=(",", ":")) + "\n")
        sys.stdout.flush()
    child.stdin.close()
    sys.exit(child.wait())


if __name__ == "__main__":
    main()
