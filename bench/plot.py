#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Draw bench/results/results.tsv as an SVG (stdlib only): program length,
# max instructions executed and compile time per rule set and engine.
import csv
import math
import sys

ENGINES = ['ours', 'libseccomp opt=1', 'libseccomp opt=2']
COLORS = ['#2b6cb0', '#dd6b20', '#a0aec0']
PANELS = [('length', 'program length (instructions)'),
          ('max', 'max instructions executed (syscall mix)'),
          ('compile_us', 'compile time, CPU µs (log)')]
W, PH, M = 760, 220, 60


def load(path):
    rows = {}
    sets = []
    with open(path) as f:
        for r in csv.DictReader(f, delimiter='\t'):
            if r['set'] == 'system-service':
                continue
            if r['set'] not in sets:
                sets.append(r['set'])
            rows[(r['set'], r['engine'])] = r
    return sets, rows


def value(r, key):
    if r is None or (r['error'] and key != 'compile_us'):
        return None
    v = float(r[key])
    return v if v > 0 else None


def panel(out, y0, sets, rows, key, title, log):
    vals = [value(rows.get((s, e)), key) for s in sets for e in ENGINES]
    vals = [v for v in vals if v]
    top = max(vals) if vals else 1
    lo = min(vals) if vals else 1
    scale_lo = 10 ** math.floor(math.log10(lo)) if log else 0
    scale_hi = 10 ** math.ceil(math.log10(top)) if log else top * 1.15

    def ypos(v):
        if log:
            f = (math.log10(v) - math.log10(scale_lo)) / (math.log10(scale_hi) - math.log10(scale_lo))
        else:
            f = v / scale_hi
        return y0 + PH - f * (PH - 30)

    out.append('<text x="%d" y="%d" font-size="13" font-weight="bold">%s</text>' % (M, y0 + 14, title))
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>' % (M, y0 + PH, W - 20, y0 + PH))
    if log:
        e = math.log10(scale_lo)
        while e <= math.log10(scale_hi) + 1e-9:
            y = ypos(10 ** e)
            out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (M, y, W - 20, y))
            out.append('<text x="%d" y="%.1f" font-size="10" text-anchor="end">1e%d</text>' % (M - 4, y + 3, e))
            e += 1
    group = (W - 20 - M) / len(sets)
    bw = group / (len(ENGINES) + 1.5)
    for i, s in enumerate(sets):
        gx = M + i * group + bw * 0.75
        out.append('<text x="%.1f" y="%d" font-size="12" text-anchor="middle">%s</text>'
                   % (gx + bw * len(ENGINES) / 2, y0 + PH + 15, s))
        for j, e in enumerate(ENGINES):
            r = rows.get((s, e))
            v = value(r, key)
            x = gx + j * bw
            if v is None:
                note = 'over 4096' if r is not None and r['error'] else 'n/a'
                out.append('<text x="%.1f" y="%d" font-size="9" text-anchor="middle" fill="%s" '
                           'transform="rotate(-90 %.1f %d)">%s</text>'
                           % (x + bw / 2, y0 + PH - 4, COLORS[j], x + bw / 2, y0 + PH - 4, note))
                continue
            y = ypos(v)
            out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>'
                       % (x, y, bw - 2, y0 + PH - y, COLORS[j]))
            label = ('%.0f' % v) if v >= 10 else ('%.1f' % v)
            out.append('<text x="%.1f" y="%.1f" font-size="9" text-anchor="middle">%s</text>'
                       % (x + bw / 2 - 1, y - 2, label))


def main():
    sets, rows = load(sys.argv[1])
    height = len(PANELS) * (PH + 40) + 50
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif">' % (W, height),
           '<rect width="100%" height="100%" fill="white"/>']
    for k, (key, title) in enumerate(PANELS):
        panel(out, 10 + k * (PH + 40), sets, rows, key, title, log=True)
    ly = height - 20
    for j, e in enumerate(ENGINES):
        out.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>' % (M + j * 190, ly - 10, COLORS[j]))
        out.append('<text x="%d" y="%d" font-size="12">%s</text>' % (M + j * 190 + 16, ly, e))
    out.append('</svg>')
    print('\n'.join(out))


if __name__ == '__main__':
    main()
