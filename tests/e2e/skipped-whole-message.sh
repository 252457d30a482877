#!/bin/sh
# skipped.csv stays small on archives (issue 35 item 3): a mail message
# that gave no record is one row, its lines from first to last and its
# reasons with their line counts; the runs of a message that gave records
# keep a row each. The mbox below, by hand: message 1
# (lines 1-12) has no record: lines 1-6 its separator and header (6, the
# blank line after the header with them), 7-9 prose with its blank line
# (3), 10-12 the signature and the blank line before the next message
# (3). Message 2 (13-22) gave an mtest01 record on line 20: a row per
# run. Message 3 (23-31) gave no record, but its vmstat header lines
# 29-30 were used: the lines before and after them are a range each, and
# a range of one run keeps its own row (23-28, 31).
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cat > two.mbox <<'MBOX'
From a@example.org Thu Jan  1 00:00:00 2020
From: A <a@example.org>
Subject: no numbers here
Message-ID: <one@example.org>
Date: Thu, 1 Jan 2020 00:00:00 +0000

Hello,

this message has prose only.
-- 
A

From b@example.org Thu Jan  1 00:00:00 2020
From: B <b@example.org>
Subject: a result
Message-ID: <two@example.org>
Date: Thu, 1 Jan 2020 00:00:00 +0000

Here is my run:
PASS ... 1000 bytes allocated.
Thanks.

From c@example.org Thu Jan  1 00:00:00 2020
From: C <c@example.org>
Subject: a header only
Message-ID: <three@example.org>
Date: Thu, 1 Jan 2020 00:00:00 +0000

procs -----------memory---------- ---swap-- -----io---- --system-- ----cpu----
 r  b   swpd   free   buff  cache   si   so    bi    bo   in    cs us sy id wa
no rows came.
MBOX
"$BENCHLOG" report -q -o "$tmp/r" two.mbox
cat > "$tmp/want" <<'CSV'
source,first_line,last_line,lines,reason,message_id,text
two.mbox,1,12,12,no record: mail header 6; no format recognised 3; signature 3,one@example.org,
two.mbox,13,18,6,mail header,two@example.org,From b@example.org Thu Jan  1 00:00:00 2020
two.mbox,19,19,1,no format recognised,two@example.org,Here is my run:
two.mbox,21,22,2,no format recognised,two@example.org,Thanks.
two.mbox,23,28,6,mail header,three@example.org,From c@example.org Thu Jan  1 00:00:00 2020
two.mbox,31,31,1,text after a vmstat table (no row followed),three@example.org,no rows came.
CSV
cmp -s "$tmp/want" "$tmp/r/skipped.csv" || { diff "$tmp/want" "$tmp/r/skipped.csv"; exit 1; }
exit 0
