#!/usr/bin/env python3
"""Generate N mixed benchmark logs (plain, .gz and mbox) from the fixtures.

usage: gen-mixed-logs.py TOP OUTDIR [N]

TOP is the source tree; every fixtures/*/*.txt except fixtures/errors/ is a
source text. Log i (0 <= i < N) goes to OUTDIR/dNN/ (100 per folder, so the
report walks folders) and is, by i % 3:
  0  plain text      logNNNN.txt      the source text i % len(sources)
  1  gzip            logNNNN.txt.gz   the same, gzip-compressed
  2  mbox            logNNNN.mbox     two messages: sources i and i + 1,
                                      "From " body lines escaped as ">From "
Every fifth log starts with a kernel label line "2.4.K-mix" (K = i % 3), so
groups span many files and run numbers must keep counting across them.
Line counts: print "lines TOTAL" on stdout: the physical lines of every
generated file as a reader sees them (LF, CR LF and lone CR end a line; a
last line without an end counts), computed here, not by benchlog.
"""
import glob
import gzip
import os
import re
import sys


def count_lines(data: bytes) -> int:
    n = len(re.findall(rb"\r\n|\r|\n", data))
    if data and not data.endswith((b"\n", b"\r")):
        n += 1
    return n


def mbox_message(idx: int, k: int, body: bytes) -> bytes:
    body = re.sub(rb"(?m)^From ", b">From ", body)
    if not body.endswith(b"\n"):
        body += b"\n"
    head = (
        f"From tester@example.org Mon Jan  7 10:0{k}:00 2002\n"
        f"From: Tester <tester@example.org>\n"
        f"To: list@example.org\n"
        f"Subject: results {idx} part {k} on 2.4.{idx % 4}-mbox\n"
        f"Date: Mon, 7 Jan 2002 10:0{k}:00 -0500\n"
        f"Message-ID: <gen{idx}.{k}@example.org>\n"
        f"MIME-Version: 1.0\n"
        f"Content-Type: text/plain; charset=utf-8\n"
        f"Content-Transfer-Encoding: 8bit\n"
        f"\n"
    ).encode()
    return head + body + b"\n"


def main() -> int:
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    top, out = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) == 4 else 1000
    sources = sorted(
        p for p in glob.glob(os.path.join(top, "fixtures", "*", "*.txt"))
        if os.path.relpath(p, top).split(os.sep)[1] != "errors"
    )
    if not sources:
        print("gen-mixed-logs: no fixtures/*/*.txt found", file=sys.stderr)
        return 1
    texts = [open(p, "rb").read() for p in sources]
    total = 0
    for i in range(n):
        sub = os.path.join(out, f"d{i // 100:02d}")
        os.makedirs(sub, exist_ok=True)
        text = texts[i % len(texts)]
        if i % 5 == 0:
            text = f"2.4.{i % 3}-mix\n".encode() + text
        kind = i % 3
        if kind == 0:
            path, data, raw = os.path.join(sub, f"log{i:04d}.txt"), text, text
        elif kind == 1:
            path = os.path.join(sub, f"log{i:04d}.txt.gz")
            raw, data = text, gzip.compress(text, mtime=0)
        else:
            raw = mbox_message(i, 1, text) + mbox_message(i, 2, texts[(i + 1) % len(texts)])
            path, data = os.path.join(sub, f"log{i:04d}.mbox"), raw
        with open(path, "wb") as f:
            f.write(data)
        total += count_lines(raw)
    print(f"lines {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
