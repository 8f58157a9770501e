#!/usr/bin/python3
"""tests/readme-examples.py - run the README's example sessions and compare.

A session is a code block of README.md (fenced with ``` or indented by four
spaces) whose first line starts with "$ ": each "$ COMMAND" line is run, in
order, by one bash process in WORKDIR (PATH starts with BINDIR, where a
`structfit` stands for the built tool), and the block's other lines are the
standard output it must print, line for line (trailing blanks ignored).
A block the test cannot reproduce says so just before it:

    <!-- readme-test: skip WHY -->

Usage:
    readme-examples.py README WORKDIR BINDIR     run every session
    readme-examples.py README --budget           print the budget block
    readme-examples.py README --quoted PREFIX    print `PREFIX...` spans
    readme-examples.py README --yaml-commands    print the CI YAML commands

Running prints one line per session: "ok LINE", "skip LINE WHY" or
"fail LINE WHAT" followed by an indented diff; exit status 0 when no
session failed and at least one ran.
"""
import difflib
import os
import re
import subprocess
import sys

SKIP = re.compile(r'<!--\s*readme-test:\s*skip\s*(.*?)\s*-->')


def blocks(lines):
    """(first line number, lines, skip reason or None) of each code block."""
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        prev = lines[i - 1] if i else ''
        m = SKIP.search(lines[i - 2]) if i >= 2 and not prev.strip() else SKIP.search(prev)
        skip = m.group(1) or 'no reason given' if m else None
        if line.startswith('```'):
            j = i + 1
            while j < n and not lines[j].startswith('```'):
                j += 1
            yield i + 2, lines[i + 1:j], skip
            i = j + 1
        elif line.startswith('    ') and not prev.strip():
            j = i
            while j < n and (lines[j].startswith('    ') or not lines[j].strip()):
                j += 1
            body = [l[4:] for l in lines[i:j]]
            while body and not body[-1].strip():
                body.pop()
            yield i + 1, body, skip
            i = j
        else:
            i += 1


def sessions(lines):
    for start, body, skip in blocks(lines):
        if body and body[0].startswith('$ '):
            yield start, body, skip


def run_session(body, workdir, bindir):
    cmds = [l[2:] for l in body if l.startswith('$ ')]
    want = [l.rstrip() for l in body if not l.startswith('$ ')]
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get('PATH', ''),
               NO_COLOR='1')
    p = subprocess.run(['bash', '--noprofile', '--norc', '-c', '\n'.join(cmds)],
                       cwd=workdir, env=env, capture_output=True, text=True,
                       timeout=120)
    got = [l.rstrip() for l in p.stdout.split('\n')]
    if got and got[-1] == '':
        got.pop()
    return cmds, want, got, p.stderr


def main(argv):
    readme = argv[1]
    with open(readme, encoding='utf-8') as f:
        text = f.read()
    lines = text.split('\n')
    if argv[2] == '--budget':
        for _, body, _ in blocks(lines):
            if body and body[0].startswith('# structfit.budget'):
                print('\n'.join(body))
                return 0
        return 1
    if argv[2] == '--quoted':
        spans = re.findall('`(' + re.escape(argv[3]) + '[^`]*)`', text)
        print('\n'.join(spans))
        return 0 if spans else 1
    if argv[2] == '--yaml-commands':
        found = 0
        for _, body, _ in blocks(lines):
            for l in body:
                m = re.match(r'\s*(?:run:|-)\s+(structfit .*)$', l)
                if m:
                    print(m.group(1))
                    found += 1
        return 0 if found else 1
    workdir, bindir = argv[2], argv[3]
    failed = ran = 0
    for start, body, skip in sessions(lines):
        if skip:
            print(f'skip {start} {skip}')
            continue
        ran += 1
        cmds, want, got, err = run_session(body, workdir, bindir)
        if want == got:
            print(f'ok {start} {cmds[0]}')
            continue
        failed += 1
        print(f'fail {start} {cmds[0]}: the output differs from the README')
        for d in list(difflib.unified_diff(want, got, 'README', 'structfit', lineterm=''))[:30]:
            print('    ' + d)
        for l in err.splitlines()[:5]:
            print('    stderr: ' + l)
    return 0 if ran and not failed else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
