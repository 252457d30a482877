#!/bin/sh
# skipped.csv stays small on archives (issue 35 item 3): consecutive mail
# messages that gave no record are one row, from the first one's first
# line to the last one's last, their reasons with their line counts, the
# first and last message id and how many messages; the runs of a message
# that gave records keep a row each. Each line counts under the reason it
# was skipped for, as stderr and report.md count it, also where it joined
# a run of another reason (a blank line, an mbox separator). The mbox
# below, by hand: messages 1 (lines 1-12) and 1b (13-20) have no record:
# 2-6 and 14-18 their headers with the blank line after each (mail header
# 10), 1, 13, and 12 and 20 (the empty line before the next message)
# mbox separator 4, 7, 9 and 19 prose (no format recognised 3), 10-11 the
# signature (2), 8 a blank line (1): one row of 20 lines, 2 messages, and
# stderr says the same for those 20 lines alone. Message 2 (21-30) gave
# an mtest01 record on line 28: a row per run. Message 3 (31-40) gave no
# record, but its vmstat header lines 37-38 were used: its header (31-36)
# is one run alone, a row of its own (a mail header run: its separator
# joined it); its lines 39 (the text the vmstat parser held, then gave
# back), 40 (the empty line before the next separator) and message 4
# after it (41 its separator, 42-46 header, 47 prose) are one row of 9
# lines, 2 messages: mail header 5, mbox separator 2 (40, 41), the held
# text 1, prose 1 (the two of one line in the order met).
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
two.mbox,1,20,20,no record: mail header 10; mbox separator 4; no format recognised 3; signature 2; blank line 1,one@example.org,one-b@example.org,2,
two.mbox,21,26,6,mail header,two@example.org,,,From b@example.org Thu Jan  1 00:00:00 2020
two.mbox,27,27,1,no format recognised,two@example.org,,,Here is my run:
two.mbox,29,30,2,no format recognised,two@example.org,,,Thanks.
two.mbox,31,36,6,mail header,three@example.org,,,From c@example.org Thu Jan  1 00:00:00 2020
two.mbox,39,47,9,no record: mail header 5; mbox separator 2; text after a vmstat table (no row followed) 1; no format recognised 1,three@example.org,four@example.org,2,
CSV
cmp -s "$tmp/want" "$tmp/r/skipped.csv" || { diff "$tmp/want" "$tmp/r/skipped.csv"; exit 1; }
# messages 1 and 1b alone: the row's reasons are stderr's, line for line
head -20 two.mbox > one.mbox
"$BENCHLOG" report -o "$tmp/r1" one.mbox > /dev/null 2> err || [ $? = 1 ]
sed -n 's/^  skipped  *\([0-9]*\)  \(.*\)$/\2 \1/p' err > want
sed -n 2p "$tmp/r1/skipped.csv" | cut -d, -f5 | sed 's/^no record: //' | tr ';' '\n' | sed 's/^ //' > got
cmp -s want got || { echo "one.mbox: skipped.csv's reasons against stderr's:"; diff want got; exit 1; }
exit 0
