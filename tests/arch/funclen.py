#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Function and file length, the limits doc/hacking.md gives.

    funclen.py functions MAX FILE.c...   every function body over MAX lines
    funclen.py files MAX FILE...         every file over MAX lines that does
                                         not say why near its top

A function is what the kernel's coding style writes: its header starts at
column 0 and its body is the lines from a '{' alone at column 0 to the next
'}' at column 0; its length counts from the header's first line to that
'}'.  A file says why when one of its first 25 lines holds "Over 600 lines"
(the reason follows in the same comment).  Exit 1 when anything is over.
"""
import re
import sys

HEADER = re.compile(r'^(?=[A-Za-z_])[^;{}]*?\b([A-Za-z_]\w*)\s*\(')


def functions(path):
    """(name, first line, length) of each function definition in path."""
    with open(path, errors='replace') as f:
        lines = f.read().split('\n')
    out = []
    start = None
    name = None
    for i, line in enumerate(lines):
        if start is None:
            m = HEADER.match(line)
            if m and not line.startswith(('#', 'typedef')):
                start, name = i, m.group(1)
            continue
        if line.startswith('{'):
            # the body: to the '}' at column 0
            for j in range(i + 1, len(lines)):
                if lines[j].startswith('}'):
                    out.append((name, start + 1, j - start + 1))
                    break
            start = None
            continue
        # a declaration, a macro use or an initializer: not a definition
        if line.rstrip().endswith(';') or not line.startswith(('\t', ' ')) or i - start > 8:
            start = None
            m = HEADER.match(line)
            if m and not line.rstrip().endswith(';'):
                start, name = i, m.group(1)
    return out


def main(argv):
    if len(argv) < 3 or argv[0] not in ('functions', 'files'):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    limit = int(argv[1])
    over = 0
    count = 0
    for path in argv[2:]:
        if argv[0] == 'functions':
            for name, line, n in functions(path):
                count += 1
                if n > limit:
                    print(f'{path}:{line}: {name} is {n} lines (over {limit})')
                    over += 1
        else:
            count += 1
            with open(path, errors='replace') as f:
                lines = f.read().split('\n')
            n = len(lines) - (1 if lines and lines[-1] == '' else 0)
            if n > limit and not any('Over 600 lines' in l for l in lines[:25]):
                print(f'{path}: {n} lines (over {limit}) and no reason at its top')
                over += 1
    what = 'functions' if argv[0] == 'functions' else 'files'
    print(f'{count} {what}, {over} over {limit} lines')
    return 1 if over else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
