#!/usr/bin/env python3
"""html-own.py REPORT.html — the report refers to nothing outside itself.

Every src= and href= of every tag is a fragment (#...), a data: URI, or a
relative link to a file or folder of the report (beside REPORT.html); no
script, iframe, object, embed, base or link element; one <h1> (the page's
own title). Prints what is wrong; exit 0 when all is well, 1 when not."""
import os
import sys
from html.parser import HTMLParser
from urllib.parse import unquote

path = sys.argv[1]
top = os.path.dirname(os.path.abspath(path))
bad = []
h1 = 0


class P(HTMLParser):
    def handle_starttag(self, tag, attrs):
        global h1
        if tag in ("script", "iframe", "object", "embed", "base", "link"):
            bad.append("active element <%s>" % tag)
        if tag == "h1":
            h1 += 1
        for k, v in attrs:
            if k not in ("src", "href", "srcset", "action", "poster", "data"):
                continue
            v = v or ""
            if v.startswith("#") or v.startswith("data:"):
                continue
            if ":" in v.split("/")[0] or v.startswith("/") or v == "" or k != "src" and k != "href":
                bad.append("outside reference %s=%r" % (k, v))
                continue
            target = os.path.normpath(os.path.join(top, unquote(v.split("#")[0])))
            if not target.startswith(top) or not os.path.exists(target):
                bad.append("not a file of the report: %s=%r" % (k, v))


with open(path, encoding="utf-8", errors="replace") as f:
    P(convert_charrefs=True).feed(f.read())
if h1 != 1:
    bad.append("%d <h1> elements, want 1" % h1)
for b in bad:
    print("html-own: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
