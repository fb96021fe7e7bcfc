#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Import cycles between the object files of an archive or a set of objects.

File A imports file B when A references a global symbol B defines.  The
files of the library (and of the CLI) must form a DAG: a cycle means two
files that cannot be understood, tested or split apart one without the other
(issue 11).  Prints each strongly connected component of more than one file
with the symbols on its edges, and exits 1 when there is one.

usage: cycles.py NM FILE.o...
"""
import collections
import os
import subprocess
import sys


def symbols(nm, paths):
    """{object: (defined, undefined)} from `nm -A` of object files.  An
    archive would not do: its members are named by basename, and the
    library has several steer.o."""
    out = subprocess.run([nm, "-A"] + paths, capture_output=True, text=True,
                         check=True).stdout
    files = {p: (set(), set()) for p in paths}
    for line in out.splitlines():
        name, sep, rest = line.partition(".o:")
        if not sep:
            continue
        fields = rest.split()
        if len(fields) == 3 and fields[1] in "TDBRVW":
            files[name + ".o"][0].add(fields[2])
        elif len(fields) == 2 and fields[0] == "U":
            files[name + ".o"][1].add(fields[1])
    return files


def sccs(graph):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(100000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    files = symbols(sys.argv[1], sys.argv[2:])
    owner = {}
    for f, (defined, _) in files.items():
        for s in defined:
            owner.setdefault(s, f)
    graph = collections.defaultdict(set)
    edges = collections.defaultdict(set)
    for f, (_, undefined) in files.items():
        graph[f]
        for s in undefined:
            t = owner.get(s)
            if t and t != f:
                graph[f].add(t)
                edges[(f, t)].add(s)
    found = sccs(graph)
    for comp in found:
        print("cycle: " + " ".join(comp))
        for a in comp:
            for b in comp:
                if (a, b) in edges:
                    print("  %s -> %s: %s" % (a, b, " ".join(sorted(edges[(a, b)]))))
    print("%d files, %d cycles" % (len(graph), len(found)))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
