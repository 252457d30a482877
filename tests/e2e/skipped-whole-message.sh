#!/bin/sh
# skipped.csv stays small on archives (issue 35 item 3): consecutive mail
# messages that gave no record are one row, from the first one's first
# line to the last one's last, their reasons with their line counts, the
# first and last message id and how many messages; the runs of a message
# that gave records keep a row each. The mbox below, by hand: messages 1
# (lines 1-12) and 1b (13-20) have no record: 1-6 and 13-18 their
# separators and headers (12, the blank line after each header with
# them), 7-9 prose with its blank line and 19-20 the same (5), 10-12 the
# signature and the blank line before the next message (3): one row of
# 20 lines, 2 messages. Message 2 (21-30) gave an mtest01 record on line
# 28: a row per run. Message 3 (31-40) gave no record, but its vmstat
# header lines 37-38 were used: its header (31-36) is one run alone, a
# row of its own; its lines 39 (the text the vmstat parser held, then
# gave back), 40 (the empty line before the next separator) and message
# 4 after it (41-46 header,
# 47 prose) are one row of 9 lines, 2 messages.
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

From a@example.org Thu Jan  1 00:00:00 2020
From: A <a@example.org>
Subject: Re: no numbers here
Message-ID: <one-b@example.org>
Date: Thu, 1 Jan 2020 00:00:00 +0000

Still no numbers.

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

From d@example.org Thu Jan  1 00:00:00 2020
From: D <d@example.org>
Subject: prose again
Message-ID: <four@example.org>
Date: Thu, 1 Jan 2020 00:00:00 +0000

Nothing here either.
MBOX
"$BENCHLOG" report -q -o "$tmp/r" two.mbox
cat > "$tmp/want" <<'CSV'
source,first_line,last_line,lines,reason,message_id,last_message_id,messages,text
two.mbox,1,20,20,no record: mail header 12; no format recognised 5; signature 3,one@example.org,one-b@example.org,2,
two.mbox,21,26,6,mail header,two@example.org,,,From b@example.org Thu Jan  1 00:00:00 2020
two.mbox,27,27,1,no format recognised,two@example.org,,,Here is my run:
two.mbox,29,30,2,no format recognised,two@example.org,,,Thanks.
two.mbox,31,36,6,mail header,three@example.org,,,From c@example.org Thu Jan  1 00:00:00 2020
two.mbox,39,47,9,no record: mail header 6; text after a vmstat table (no row followed) 1; mbox separator 1; no format recognised 1,three@example.org,four@example.org,2,
CSV
cmp -s "$tmp/want" "$tmp/r/skipped.csv" || { diff "$tmp/want" "$tmp/r/skipped.csv"; exit 1; }
exit 0
