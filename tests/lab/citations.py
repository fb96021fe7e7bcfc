#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The driver table's citations (libnetpolicy/drivers/citations.tsv), checked.

Each row: driver, fact, file, function, since, until, quote (tab-separated;
'#' starts a comment line).  `function` names a function, an object with an
initializer (an ethtool_ops) or a macro defined in `file`; `since` is the
kernel the fact holds from ("<=6.1": older than the lab's 6.1, not pinned
down; "6.1": present in 6.1); `until` is empty while the fact still holds in
the newest source checked, else the last version it was read in; `quote` is
a short fragment of the function (or the macro's definition) the fact rests
on, compared with whitespace squeezed, or empty.

usage: citations.py lint TABLE DRIVERS_C...   rows well formed, every driver
                                             of the table cited, every file
                                             it names cited for it
       citations.py files TABLE VERSION      the files to check in VERSION
       citations.py check TABLE VERSION SRC  check against the tree SRC
       citations.py man TABLE                the man page's table (roff)
       citations.py man-update TABLE MAN     write it into MAN between its
                                             BEGIN and END lines; exit 1
                                             when that changed MAN

check prints one line per failing citation and exits 1 when there is one.
"""
import re
import sys

FIELDS = ('driver', 'fact', 'file', 'function', 'since', 'until', 'quote')
VERSION = re.compile(r'^(<=)?(\d+)\.(\d+)$')


def vkey(v):
    m = VERSION.match(v)
    return (int(m.group(2)), int(m.group(3)))


def load(path):
    rows, errors = [], []
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.startswith('#'):
                continue
            cols = line.split('\t')
            where = '%s:%d' % (path, n)
            # until and quote may be left off
            if 5 <= len(cols) < len(FIELDS):
                cols += [''] * (len(FIELDS) - len(cols))
            if len(cols) != len(FIELDS):
                errors.append('%s: %d fields, not %d' % (where, len(cols), len(FIELDS)))
                continue
            row = dict(zip(FIELDS, (c.strip() for c in cols)))
            row['where'] = where
            for k in ('driver', 'fact', 'file', 'function', 'since'):
                if not row[k]:
                    errors.append('%s: no %s' % (where, k))
            if row['since'] and not VERSION.match(row['since']):
                errors.append('%s: since "%s" is not N.M or <=N.M' % (where, row['since']))
            if row['until'] and (not VERSION.match(row['until']) or row['until'].startswith('<=')):
                errors.append('%s: until "%s" is not N.M' % (where, row['until']))
            if not re.match(r'^[\w.-]+(/[\w.-]+)+$', row['file']):
                errors.append('%s: file "%s" is not a path in the kernel tree' % (where, row['file']))
            if not re.match(r'^\w+$', row['function']):
                errors.append('%s: function "%s" is not a C name' % (where, row['function']))
            rows.append(row)
    return rows, errors


def applies(row, version):
    """Whether the fact is to be found in VERSION's source."""
    v = vkey(version)
    if not row['since'].startswith('<=') and vkey(row['since']) > v:
        return False
    return not row['until'] or v <= vkey(row['until'])


def squeeze(s):
    # a macro's continuation lines read as one line
    return ' '.join(s.replace('\\\n', ' ').split())


def strip_comments(text):
    """Comments and string contents blanked (lengths kept): braces in them
    do not count."""
    def blank(m):
        s = m.group(0)
        if s.startswith('/'):
            return re.sub(r'[^\n]', ' ', s)
        return s[0] + re.sub(r'[^\n]', ' ', s[1:-1]) + s[-1]
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                  blank, text, flags=re.S)


def definition(text, name):
    """The text of NAME's definition in TEXT (a function's signature and
    body, an object's initializer, a macro's logical line), or None."""
    code = strip_comments(text)
    m = re.search(r'^[ \t]*#[ \t]*define[ \t]+%s\b(?:\\\n|[^\n])*' % re.escape(name), code, re.M)
    if m:
        return text[m.start():m.end()]
    # a line that starts at column 0 with a letter and has NAME( or NAME =
    # or NAME[...] = : the return type may be on the line before, the
    # parameters may run over several lines
    for m in re.finditer(r'^(?:[A-Za-z_][^\n;]*?\b)?%s\s*(\(|\[[^\]]*\]\s*=|=)' % re.escape(name),
                         code, re.M):
        i = m.end() - 1
        depth = 0
        # a prototype ends in ';' before any '{' at depth 0
        while i < len(code):
            c = code[i]
            if c in '([':
                depth += 1
            elif c in ')]':
                depth -= 1
            elif c == ';' and depth == 0:
                break
            elif c == '{' and depth == 0:
                end = i
                level = 0
                while end < len(code):
                    if code[end] == '{':
                        level += 1
                    elif code[end] == '}':
                        level -= 1
                        if level == 0:
                            return text[m.start():end + 1]
                    end += 1
                return None
            i += 1
    return None


def check(rows, version, src):
    bad = 0
    for r in rows:
        if not applies(r, version):
            continue
        what = '%s %s: %s %s()' % (version, r['driver'], r['file'], r['function'])
        try:
            with open('%s/%s' % (src, r['file']), encoding='utf-8', errors='replace') as f:
                text = f.read()
        except OSError:
            print('FAIL %s: no such file (%s)' % (what, r['where']))
            bad += 1
            continue
        body = definition(text, r['function'])
        if body is None:
            print('FAIL %s: not defined in the file (%s)' % (what, r['where']))
            bad += 1
        elif r['quote'] and squeeze(r['quote']) not in squeeze(body):
            print('FAIL %s: quote "%s" not in it (%s)' % (what, r['quote'], r['where']))
            bad += 1
    return bad


def roff(s):
    return s.replace('\\', '\\e').replace('-', '\\-').replace("'", "\\(aq")


BEGIN = '.\\" BEGIN citations.tsv (tests/lab/citations.py man-update writes this part)'
END = '.\\" END citations.tsv'


def man(rows):
    """A subsection per driver, an item per fact with its source."""
    out, last = [], None
    for r in rows:
        if r['driver'] != last:
            out.append('.SS %s' % roff(r['driver']))
            last = r['driver']
        fn = r['function']
        # a macro or an ops object defines a value, it is not called
        fn = '\\fB\\%%%s\\fP' % roff(fn) + ('' if fn.isupper() or fn.endswith('_ops') else '()')
        since = r['since'].replace('<=', '\\(<=') + (', until ' + r['until'] if r['until'] else '')
        # \\% : a path is not hyphenated
        out += ['.IP \\(bu 2', roff(r['fact']), '.br',
                '\\fI\\%%%s\\fP, %s (%s)' % (roff(r['file']), fn, since)]
    return '\n'.join(out) + '\n'


def man_update(rows, path):
    """The man page with its generated part replaced: 0 unchanged, 1
    rewritten."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    head, sep, rest = text.partition(BEGIN + '\n')
    _, sep2, tail = rest.partition(END + '\n')
    if not sep or not sep2:
        raise SystemExit('%s: no %s ... %s' % (path, BEGIN, END))
    new = head + BEGIN + '\n' + man(rows) + END + '\n' + tail
    if new == text:
        return 0
    with open(path, 'w', encoding='utf-8') as f:
        f.write(new)
    return 1


def lint(rows, drivers_c, *more):
    """Every driver the C table has (drivers_c and the other files of its
    parts) is cited, every file it names for a driver is one of that
    driver's citations."""
    errors = []
    for path in (drivers_c,) + more:
        errors += lint_file(rows, path)
    return errors


def lint_file(rows, drivers_c):
    """lint() for one file of the table."""
    errors = []
    with open(drivers_c, encoding='utf-8') as f:
        code = f.read()
    macros = dict(re.findall(r'^#define (\w+) "([^"]+)"', code, re.M))
    cited = {}
    for r in rows:
        cited.setdefault(r['driver'], set()).add(r['file'])
    for entry in re.findall(r'^\t\{\n(.*?)^\t\},?$', code, re.M | re.S):
        name = re.search(r'\.name = "([^"]+)"', entry).group(1)
        if name not in cited:
            errors.append('%s: driver %s has no citation' % (drivers_c, name))
            continue
        # the ethtool file names where coalescing facts come from: only
        # an entry with such facts needs it cited
        coal = re.search(r'\.(ranges|specials|switches) =', entry)
        for key, lit, mac in re.findall(r'\.(\w+_file) = (?:"([^"]+)"|(\w+))', entry):
            if key == 'ethtool_file' and not coal:
                continue
            path = lit or macros.get(mac, mac)
            if path not in cited[name]:
                errors.append('%s: %s .%s %s is not among its citations' % (drivers_c, name, key, path))
    return errors


def main(argv):
    if len(argv) < 3 or argv[1] not in ('lint', 'files', 'check', 'man', 'man-update'):
        sys.stderr.write(__doc__)
        return 2
    rows, errors = load(argv[2])
    for e in errors:
        print('FAIL %s' % e)
    if errors:
        return 1
    cmd = argv[1]
    if cmd == 'lint':
        errors = lint(rows, *argv[3:])
        for e in errors:
            print('FAIL %s' % e)
        return 1 if errors else 0
    if cmd == 'files':
        print('\n'.join(sorted({r['file'] for r in rows if applies(r, argv[3])})))
        return 0
    if cmd == 'check':
        n = sum(applies(r, argv[3]) for r in rows)
        bad = check(rows, argv[3], argv[4])
        print('%s: %d of %d citations check' % (argv[3], n - bad, n))
        return 1 if bad else 0
    if cmd == 'man-update':
        return man_update(rows, argv[3])
    sys.stdout.write(man(rows))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
