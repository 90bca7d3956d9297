#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tables.py: the raw CSV of a benchmark table and the Markdown made from it.

    tables.py collect OUT.csv META REP1.md [REP2.md ...]
        one CSV from the Markdown each repetition of a table printed (in run order)
        and META, a file of key=value lines (machine, loads, peers, command)
    tables.py render IN.csv OUT.md
        the published table: every cell is the median of its repetitions, with
        [min-max] after each number that differed between them

A repetition is one whole run of the table's script, so every cell of a table
comes from the same runs (bench/README.md: a cell is never re-run alone).
CSV columns: rep, line, cell, text.  rep is 1, 2, ... for a repetition's output
(line: its line number; cell: 0 for a prose line, 1.. for a table cell) or
"meta" (line: the key; text: the value).  Python 3 standard library only.
"""
import csv
import os
import re
import sys

# A number: not glued to a word or to another number before it ("k=2" and "1e-8"
# are numbers, "L2" and the "-0.63" of "0.39-0.63" keep their letters/sign apart).
NUM = re.compile(r"(?<![\w.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|(?<=[\w.])(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def die(msg):
    print(f"tables.py: {msg}", file=sys.stderr)
    sys.exit(2)


def split_row(line):
    """Cells of a Markdown table line (| a | b |), '\\|' kept inside a cell."""
    body = line.strip()[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [c.strip() for c in re.split(r"(?<!\\)\|", body)]


def is_row(line):
    return line.lstrip().startswith("|")


def write_atomic(path, write, inputs):
    """Writes path through a temporary file; refuses to write over an input."""
    if os.path.exists(path) and any(os.path.exists(i) and os.path.samefile(path, i) for i in inputs):
        die(f"{path} is one of the inputs: not overwritten")
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            write(f)
        os.replace(tmp, path)
    except OSError as e:
        if os.path.exists(tmp):
            os.unlink(tmp)
        die(f"{path}: {e.strerror}")


def read_text(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        die(f"{path}: {getattr(e, 'strerror', None) or e}")


def collect(out, meta_path, reps):
    meta = []
    for n, line in enumerate(read_text(meta_path).splitlines(), 1):
        if not line.strip():
            continue
        key, eq, value = line.partition("=")
        if not eq or not key.strip():
            die(f"{meta_path}:{n}: not key=value: {line!r}")
        meta.append((key.strip(), value.strip()))
    texts = [read_text(p) for p in reps]
    for p, t in zip(reps, texts):
        if not t.strip():
            die(f"{p}: empty: the repetition printed nothing")

    def write(f):
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["rep", "line", "cell", "text"])
        for key, value in meta:
            w.writerow(["meta", key, "", value])
        for r, text in enumerate(texts, 1):
            for ln, line in enumerate(text.rstrip("\n").split("\n"), 1):
                if is_row(line):
                    for c, cell in enumerate(split_row(line), 1):
                        w.writerow([r, ln, c, cell])
                else:
                    w.writerow([r, ln, 0, line])

    write_atomic(out, write, [meta_path] + list(reps))


def load(path):
    """(meta dict in file order, {rep: [line, ...]}) where a line is a str
    (prose) or a list of cells."""
    meta, reps = {}, {}
    try:
        with open(path, encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        die(f"{path}: {getattr(e, 'strerror', None) or e}")
    if not rows or rows[0] != ["rep", "line", "cell", "text"]:
        die(f"{path}: not a results CSV (header rep,line,cell,text)")
    for n, row in enumerate(rows[1:], 2):
        if len(row) != 4:
            die(f"{path}:{n}: {len(row)} fields, expected 4")
        rep, line, cell, text = row
        if rep == "meta":
            meta[line] = text
            continue
        try:
            r, ln, c = int(rep), int(line), int(cell)
        except ValueError:
            die(f"{path}:{n}: rep, line and cell must be integers")
        lines = reps.setdefault(r, {})
        if c == 0:
            lines[ln] = text
        else:
            lines.setdefault(ln, []).append(text)
    if not reps:
        die(f"{path}: no repetition")
    out = {}
    for r, lines in reps.items():
        if sorted(lines) != list(range(1, len(lines) + 1)):
            die(f"{path}: repetition {r} has gaps in its line numbers")
        out[r] = [lines[i] for i in range(1, len(lines) + 1)]
    return meta, out


def skeleton(text):
    return NUM.sub("#", text.replace("**", ""))


def pick(tokens):
    """(median, min, max) tokens: the lower middle of the sorted values, so the
    median shown is one that was measured."""
    order = sorted(tokens, key=float)
    return order[(len(order) - 1) // 2], order[0], order[-1]


def with_ranges(template, numbers):
    """template with each of its numbers replaced by the median of that number over
    the runs, and [min–max] after it when the runs differ."""
    parts, pos = [], 0
    for k, m in enumerate(NUM.finditer(template)):
        parts.append(template[pos:m.start()])
        column = [nums[k] for nums in numbers]
        if len({float(v) for v in column}) == 1:
            parts.append(m.group())
        else:
            med, lo, hi = pick(column)
            parts.append(f"{med} [{lo}–{hi}]")
        pos = m.end()
    parts.append(template[pos:])
    return "".join(parts)


def aggregate(texts):
    """One cell (or prose line) from its repetitions."""
    if all(t == texts[0] for t in texts):
        return texts[0]
    numbers = [NUM.findall(t) for t in texts]
    if len({skeleton(t) for t in texts}) == 1:
        # template: the most common text with numbers blanked (bold kept), so a
        # bold mark stays when most repetitions had it
        full = [NUM.sub("#", t) for t in texts]
        template = texts[max(range(len(texts)), key=lambda i: (full.count(full[i]), -i))]
        return with_ranges(template, numbers)
    # different words (e.g. yes / no): the run whose first number is the median
    # speaks, the others' texts follow in brackets
    if all(numbers):
        order = sorted(range(len(texts)), key=lambda i: float(numbers[i][0]))
        mid = order[(len(order) - 1) // 2]
    else:
        mid = 0
    shown = texts[mid]
    if len({len(n) for n in numbers}) == 1 and numbers[0]:
        shown = with_ranges(shown, numbers)
    others = [t for i, t in enumerate(texts) if i != mid]
    return f"{shown} [other runs: {'; '.join(others)}]"


def header_block(meta, nreps):
    out = [
        "",
        "Generated by `bench/tables.py render` from the raw runs in the CSV beside this file; do not"
        " edit.  Re-run the whole table (never single cells): `bench/run_all.sh BUILD_DIR TABLE`"
        " (bench/README.md).",
        "",
    ]
    if nreps > 1:
        out.append(f"- repetitions: {nreps}, each a whole run of the table; a cell shows the median"
                   " of its runs (for an even count the lower middle run) and, after each number"
                   " that differed, [min–max]; where the runs' words differ (yes / no), the median run's"
                   " text, the others' in [other runs: ...].  Ratios are medians of the ratio within"
                   " each run.")
    else:
        out.append("- repetitions: 1 (no spread known: every figure is a single run's)")
    for key, label in [("source", "source"), ("command", "command"), ("date", "date"),
                       ("commit", "commit"), ("cpu", "CPU"), ("caches", "caches"),
                       ("triad", "triad"), ("compiler", "compiler"), ("peers", "peers")]:
        if meta.get(key):
            out.append(f"- {label}: {meta[key]}")
        elif key == "triad" and not meta.get("exact"):  # tables published before the driver measured it
            out.append("- triad: not recorded with this table (kernels.md has this machine's)")
    before = [meta[f"rep{r}.load_before"] for r in range(1, nreps + 1) if f"rep{r}.load_before" in meta]
    after = [meta[f"rep{r}.load_after"] for r in range(1, nreps + 1) if f"rep{r}.load_after" in meta]
    if before or after:
        wait = ("no wait: the figures do not depend on it" if meta.get("exact") else
                f"the driver waited for a load below {meta.get('quiet_load', '?')}")
        out.append(f"- 1-minute load average before each run: {', '.join(before) or '?'}; after: "
                   f"{', '.join(after) or '?'} ({wait})")
    if meta.get("note"):
        out.append(f"- note: {meta['note']}")
    return out


def render(src, out):
    meta, reps = load(src)
    order = sorted(reps)
    if order != list(range(1, len(order) + 1)):
        die(f"{src}: repetitions {order}: expected 1..{len(order)}")
    first = reps[1]
    for r in order[1:]:
        if len(reps[r]) != len(first):
            die(f"{src}: repetition {r} has {len(reps[r])} lines, repetition 1 {len(first)}: "
                "the runs differ in shape; re-run the whole table")
        for i, (a, b) in enumerate(zip(first, reps[r]), 1):
            if isinstance(a, str) != isinstance(b, str) or (
                    not isinstance(a, str) and len(a) != len(b)):
                die(f"{src}: line {i} of repetition {r} differs in shape from repetition 1; "
                    "re-run the whole table")
    lines = []
    for i, line in enumerate(first):
        column = [reps[r][i] for r in order]
        if isinstance(line, str):
            lines.append(aggregate(column))
        else:
            cells = [aggregate([c[k] for c in column]) for k in range(len(line))]
            lines.append("| " + " | ".join(cells) + " |")
    if lines and lines[0].startswith("# "):
        block = header_block(meta, len(order))
        if len(lines) > 1 and lines[1].strip():
            block.append("")
        lines[1:1] = block
    else:
        lines[0:0] = header_block(meta, len(order))[1:] + [""]

    write_atomic(out, lambda f: f.write("\n".join(lines).rstrip("\n") + "\n"), [src])


def doc_section(csv_path, begin, end, missing=None):
    """A docs page's generated section: csv_path rendered, its run's date, commit,
    CPU and load, its prose, then its tables one heading level down (the section
    sits under a heading of the page).  missing: the text while there is no CSV."""
    if missing is not None and not os.path.exists(csv_path):
        return "\n".join([begin, "", missing, end])
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        md = os.path.join(tmp, "table.md")
        render(csv_path, md)
        lines = read_text(md).split("\n")
    first = next(k for k, line in enumerate(lines) if line.startswith("## "))
    meta = ("- repetitions", "- date", "- commit", "- CPU", "- 1-minute load")
    keep = [line for line in lines[1:first] if line.startswith(meta)]
    prose = [line for line in lines[1:first]
             if line.strip() and not line.startswith(("- ", "Generated by"))]
    body = ["#" + line if line.startswith("## ") else line for line in lines[first:]]
    return "\n".join([begin, ""] + keep + [""] + prose + [""] + body).rstrip("\n") + "\n" + end


def doc_update(path, section, begin, end, check, tool):
    """Writes section between path's begin and end lines, or (check) fails when it
    differs from what is there; tool names the script for the messages."""
    text = read_text(path)
    if text.count(begin) != 1 or text.count(end) != 1:
        raise SystemExit(f"{tool}: {path} needs one '{begin}' and one '{end}' line")
    new = text[:text.index(begin)] + section + text[text.index(end) + len(end):]
    if check:
        if new != text:
            raise SystemExit(f"{tool}: {path}'s generated section differs from the results: "
                             f"run bench/{tool} doc --write")
        print(f"ok: {path} matches the results")
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(new)
    print(f"wrote {path}")


def add_doc_command(sub, page):
    """The `doc` subcommand of a model script: --results, --doc and --write|--check."""
    d = sub.add_parser("doc", help=f"docs/{page}'s generated section from the results CSV")
    d.add_argument("--results", default="bench/results")
    d.add_argument("--doc", default=f"docs/{page}")
    mode = d.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true")
    mode.add_argument("--check", action="store_true")


def main(argv):
    if len(argv) >= 4 and argv[1] == "collect":
        collect(argv[2], argv[3], argv[4:] if len(argv) > 4 else die("collect: no repetition given"))
    elif len(argv) == 4 and argv[1] == "render":
        render(argv[2], argv[3])
    else:
        die("usage: tables.py collect OUT.csv META REP1.md [REP2.md ...] | render IN.csv OUT.md")


if __name__ == "__main__":
    main(sys.argv)
