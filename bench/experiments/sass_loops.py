#!/usr/bin/env python3
"""Instructions of each loop in a `cuobjdump -sass` or `nvdisasm -c` listing, by opcode.

A loop is the range from a backward branch's target to the branch; nested loops are listed
each (an outer loop's count includes its inner loops). For reading where a kernel variant's
instructions go: the K steps' FFMA share, a stage's copies and address arithmetic.
    sass_loops.py base.sass variant.sass
"""
import collections
import re
import sys


def instructions(path):
    """(address, text) of each instruction; branch targets that nvdisasm writes as labels
    (`(.L_x_3)) are written as the label's address, as cuobjdump writes them."""
    out, labels, pending = [], {}, []
    for line in open(path):
        label = re.match(r'(\.L_x_\d+):', line.strip())
        if label:
            pending.append(label.group(1))
            continue
        m = re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?);', line)
        if m:
            address = int(m.group(1), 16)
            for name in pending:
                labels[name] = address
            pending = []
            out.append((address, m.group(2).strip()))
    # A label nvdisasm never places (a BSSY's, say) stays as it is: no branch to follow.
    resolve = lambda m: f'{labels[m.group(1)]:#x}' if m.group(1) in labels else m.group(0)
    return [(a, re.sub(r'`\((\.L_x_\d+)\)', resolve, t)) for a, t in out]


def opcode(text):
    words = text.split()
    op = words[1] if words[0].startswith('@') else words[0]
    return op.split('.')[0]


def main(paths):
    for path in paths:
        code = instructions(path)
        index = {address: i for i, (address, _) in enumerate(code)}
        print(f'== {path}: {len(code)} instructions')
        for i, (address, text) in enumerate(code):
            m = re.search(r'BRA (?:!?P\d, )?0x([0-9a-f]+)', text)
            if not m:
                continue
            target = int(m.group(1), 16)
            if target >= address or target not in index:
                continue
            body = code[index[target]:i + 1]
            counts = collections.Counter(opcode(t) for _, t in body)
            ffma = counts['FFMA']
            print(f'  loop {target:#x}-{address:#x}: {len(body)} instructions, FFMA {ffma} '
                  f'({100 * ffma / len(body):.1f}%)', dict(counts.most_common(14)))


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
