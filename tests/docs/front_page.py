#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""front_page.py README.md: the front page stays a front page (issue 30): at most
250 lines, and no sentence of its prose (code blocks, tables and headings aside;
a list item starts a sentence) longer than 40 words.  Exit 1 naming the offender."""
import re
import sys

MAX_LINES, MAX_WORDS = 250, 40


def sentences(text):
    paras, cur, code = [], [], False
    for line in text.split("\n"):
        if line.startswith("```"):
            code = not code
            continue
        if code or not line.strip() or line.startswith(("|", "#", "<!--")) or re.match(r"\s*[-*] ", line):
            if cur:
                paras.append(" ".join(cur))
            cur = [re.sub(r"^\s*[-*] ", "", line)] if re.match(r"\s*[-*] ", line) and not code else []
            continue
        cur.append(line.strip())
    if cur:
        paras.append(" ".join(cur))
    for p in paras:
        yield from re.split(r"(?<=[.!?])\s+(?=[A-Z`*\[(])", p)


def main(path):
    text = open(path, encoding="utf-8").read()
    bad = 0
    if text.count("\n") > MAX_LINES:
        print(f"FAIL {path}: {text.count(chr(10))} lines, at most {MAX_LINES}")
        bad = 1
    for s in sentences(text):
        if len(s.split()) > MAX_WORDS:
            print(f"FAIL {path}: a sentence of {len(s.split())} words: {s[:120]}...")
            bad = 1
    if not bad:
        print(f"ok   {path}: {text.count(chr(10))} lines, every sentence within {MAX_WORDS} words")
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
