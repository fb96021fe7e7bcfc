#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Every exported function of a header has a kernel-doc comment.

An exported function is one declared with NP_EXPORT.  Its comment is the
/** ... */ block right above the declaration, and it must have the kernel's
shape (Documentation/doc-guide/kernel-doc.rst): a first line "NAME() -
summary", one "@PARAM:" line for every parameter, and a "Return:" section
unless the function returns void.  Prints one line per problem and exits 1
when there is one.

usage: kerneldoc.py HEADER...
"""
import re
import sys

DECL = re.compile(r'^NP_EXPORT\s+(?P<type>[^;{}]*?)\b(?P<name>np_\w+)\s*\((?P<params>[^)]*)\)\s*;',
                  re.S | re.M)


def params(text):
    names = []
    for p in text.replace('\n', ' ').split(','):
        p = p.strip()
        if not p or p == 'void' or p == '...':
            continue
        m = re.search(r'(\w+)\s*(\[[^]]*\])?$', p)
        names.append(m.group(1))
    return names


def doc_above(src, start):
    """The /** */ block ending right before `start` (blank space between is
    allowed, nothing else), or None."""
    before = src[:start].rstrip()
    if not before.endswith('*/'):
        return None
    open_at = before.rfind('/*')
    if open_at < 0 or not before.startswith('/**', open_at):
        return None
    return before[open_at:]


def check(path):
    src = open(path, encoding='utf-8').read()
    problems, n = [], 0
    for m in DECL.finditer(src):
        n += 1
        name = m.group('name')
        line = src.count('\n', 0, m.start()) + 1
        where = f'{path}:{line}: {name}'
        doc = doc_above(src, m.start())
        if doc is None:
            problems.append(f'{where}: no kernel-doc comment')
            continue
        body = [re.sub(r'^\s*\*? ?', '', l) for l in doc.split('\n')[1:]]
        if not body or not re.match(re.escape(name) + r'\(\) - \S', body[0]):
            problems.append(f'{where}: the comment does not start "{name}() - summary"')
        documented = set(re.findall(r'^@(\w+):', '\n'.join(body), re.M))
        for p in params(m.group('params')):
            if p not in documented:
                problems.append(f'{where}: parameter {p} is not documented (@{p}:)')
        for p in sorted(documented - set(params(m.group('params')))):
            problems.append(f'{where}: @{p} is not a parameter')
        void = re.fullmatch(r'\s*void\s*', m.group('type')) is not None
        has_return = re.search(r'^Return: \S', '\n'.join(body), re.M) is not None
        if not void and not has_return:
            problems.append(f'{where}: no "Return:" section')
    return n, problems


def main(argv):
    total, problems = 0, []
    for path in argv[1:]:
        n, p = check(path)
        total += n
        problems += p
    for p in problems:
        print(p)
    print(f'{total} exported functions, {len(problems)} problems')
    return 1 if problems or total == 0 else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
