#!/usr/bin/env python3
"""The register reads of each FFMA in an address range of an `nvdisasm -c` listing.

An FFMA names three source registers; an operand the previous FFMA marked `.reuse` in the
same slot, with the same register, comes from the operand reuse cache instead of the
register file. Registers sit in two banks by their number's parity. Printed: how many
FFMAs read three registers from the file (two of them then share a bank), how many read
all three from one bank, and the first few of the three-read ones with the FFMA before
them, to see where the order lets both operands change at once.
    sass_banks.py listing.sass START END      (hex addresses, a loop from sass_loops.py)
"""
import re
import sys

FFMA = re.compile(r'FFMA R\d+, (R\d+)(\.reuse)?, (R\d+)(\.reuse)?, (R\d+)(\.reuse)?')
LINE = re.compile(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?);')


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    path, start, end = sys.argv[1], int(sys.argv[2], 16), int(sys.argv[3], 16)
    ffmas = three_reads = one_bank = 0
    examples = []
    previous = None  # ((register, reuse) per slot, text) of the FFMA just before
    for line in open(path):
        m = LINE.match(line)
        if not m or not start <= int(m.group(1), 16) <= end:
            continue
        text = m.group(2).strip()
        f = FFMA.match(text)
        if not f:
            previous = None  # the reuse cache holds across FFMAs only
            continue
        slots = [(int(f.group(k)[1:]), f.group(k + 1) is not None) for k in (1, 3, 5)]
        reads = [r for i, (r, _) in enumerate(slots) if not (previous and previous[0][i] == (r, True))]
        ffmas += 1
        if len(reads) == 3:
            three_reads += 1
            if len(examples) < 8:
                examples.append((previous[1] if previous else '(not an FFMA)', text))
        if len(reads) == 3 and len({r % 2 for r in reads}) == 1:
            one_bank += 1
        previous = (slots, text)
    if not ffmas:
        sys.exit(f'no FFMA between {sys.argv[2]} and {sys.argv[3]}')
    print(f'{ffmas} FFMA: {three_reads} read three registers ({100 * three_reads / ffmas:.1f}%), '
          f'{one_bank} all three from one bank')
    for before, text in examples:
        print(f'  {before:40s} -> {text}')


if __name__ == '__main__':
    main()
