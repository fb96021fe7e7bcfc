#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""References between the library's folders that go against their order.

The folders of libnetpolicy/ are layers (doc/hacking.md); a file may use
what a lower layer defines, or its own folder's, never a higher layer's:

    util < model < drivers < plan < sim < backend < apply < the top (ctx.c,
    compose.c, version.c)

A file uses another when it references a global symbol the other defines
(nm).  Prints every reference against the order, with its symbol, and the
count per pair of folders; exits 1 when there is one.

usage: layers.py NM OBJDIR [OBJECT...]
  OBJDIR is the build's libnetpolicy/ (folders are read relative to it);
  the objects default to every *.o below it.
"""
import collections
import os
import subprocess
import sys

ORDER = ['util', 'model', 'drivers', 'plan', 'sim', 'backend', 'apply', '.']
RANK = {name: i for i, name in enumerate(ORDER)}


def folder(obj, root):
    parts = os.path.relpath(obj, root).split(os.sep)
    return parts[0] if len(parts) > 1 else '.'


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        return 2
    nm, root, objs = argv[1], argv[2], argv[3:]
    if not objs:
        objs = sorted(os.path.join(d, f) for d, _, fs in os.walk(root)
                      for f in fs if f.endswith('.o'))
    unknown = sorted({folder(o, root) for o in objs} - set(RANK))
    if unknown:
        print(f'folders not in the order: {" ".join(unknown)}')
        return 1
    out = subprocess.run([nm, '-A'] + objs, capture_output=True, text=True,
                         check=True).stdout
    defined, used = {}, collections.defaultdict(set)
    for line in out.splitlines():
        name, sep, rest = line.partition('.o:')
        if not sep:
            continue
        fields = rest.split()
        if len(fields) == 3 and fields[1] in 'TDBRVW':
            defined[fields[2]] = name + '.o'
        elif len(fields) == 2 and fields[0] == 'U':
            used[name + '.o'].add(fields[1])
    wrong = collections.Counter()
    for obj in sorted(used):
        for sym in sorted(used[obj]):
            dep = defined.get(sym)
            if not dep:
                continue
            a, b = folder(obj, root), folder(dep, root)
            if RANK[b] > RANK[a]:
                wrong[(a, b)] += 1
                print(f'{os.path.relpath(obj, root)} -> {os.path.relpath(dep, root)}: {sym}')
    for (a, b), n in sorted(wrong.items()):
        print(f'{a} -> {b}: {n} references against the order')
    print(f'{len(objs)} files, {sum(wrong.values())} references against the order')
    return 1 if wrong else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
