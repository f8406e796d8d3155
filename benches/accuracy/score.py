#!/usr/bin/env python3
"""Score `urlint extract` and `urlint check` against the accuracy oracle.

Usage: score.py --urlint PATH [--data DIR] [--node-dir DIR]

Reads the files fetch.py unpacked under DATA/files, runs the oracle
(oracle/oracle.mjs, installed with its node modules in NODE_DIR) and urlint
over them, and writes into DATA/results:

  summary.txt          the tables printed at the end
  extraction.md        false positives and false negatives of extraction
  code-urls.tsv        every URL urlint extracts from source files, classified
  findings.tsv         every check finding on the docs, classified
  oracle.jsonl, urlint-*.jsonl   the raw outputs the figures come from

Standard library only. README.md beside this script explains the scope rules
and how to read the figures.
"""

import argparse
import collections
import json
import os
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent

MARKDOWN = (".md", ".markdown")
RST = (".rst",)
HTML = (".html", ".htm")
CODE_SUFFIXES = (".rs", ".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".pl", ".pm")
LOCK_FILES = ("Cargo.lock", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml")

# Oracle kinds per scored category.
CATEGORY_OF_KIND = {
    "destination": "A",
    "definition": "A",
    "autolink": "A",
    "bare": "B",
    "attr": "H",
    "html-text": "H",
}
CATEGORY_NAMES = {
    "A": "(a) link destinations, definitions, autolinks",
    "B": "(b) bare URLs in text",
    "H": "(h) HTML attributes and HTML text",
    "code": "    URLs inside code spans/blocks",
    "C": "(c) other schemes in text (unscored)",
}
# Schemes GFM turns into links in running text; other schemes in text are
# outside what the oracle can judge.
GFM_TEXT_SCHEMES = {"http", "https", "mailto", "xmpp"}
# Schemes whose URLs start with `//` (RFC 1738 section 3.1's common syntax).
IP_SCHEMES = {
    "http", "https", "ftp", "ftps", "sftp", "ws", "wss", "gopher", "telnet", "nntp", "wais",
    "prospero", "ldap", "ldaps", "rtsp", "irc", "ircs", "ssh", "svn", "git", "afs", "nfs",
}

SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
PATH_SEPARATOR = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*::")


def rfc3986_uri():
    """RFC 3986 Appendix A `URI`, as a regular expression (IPv6 loosely: hex, ':' and '.')."""
    unreserved = r"A-Za-z0-9\-._~"
    sub_delims = r"!$&'()*+,;="
    pct = r"%[0-9A-Fa-f]{2}"
    pchar = rf"(?:[{unreserved}{sub_delims}:@]|{pct})"
    userinfo = rf"(?:[{unreserved}{sub_delims}:]|{pct})*"
    reg_name = rf"(?:[{unreserved}{sub_delims}]|{pct})*"
    ip_literal = r"\[(?:[0-9A-Fa-f:.]+|v[0-9A-Fa-f]+\.[" + unreserved + sub_delims + r":]+)\]"
    host = rf"(?:{ip_literal}|{reg_name})"
    authority = rf"(?:{userinfo}@)?{host}(?::[0-9]*)?"
    segment = rf"{pchar}*"
    hier = rf"(?://{authority}(?:/{segment})*|/(?:{pchar}+(?:/{segment})*)?|{pchar}+(?:/{segment})*|)"
    tail = rf"(?:{pchar}|[/?])*"
    return re.compile(rf"^[A-Za-z][A-Za-z0-9+.-]*:{hier}(?:\?{tail})?(?:#{tail})?$")


RFC3986_URI = rfc3986_uri()


def scheme_of(url):
    """Lower-case scheme of `url`, or ''."""
    match = SCHEME.match(url)
    return match.group(1).lower() if match else ""


def code_shaped(url):
    """True for text that only looks like a URL: `Word::Word`, or an IP scheme without `//`."""
    if PATH_SEPARATOR.match(url):
        return True
    scheme = scheme_of(url)
    return scheme in IP_SCHEMES and not url[len(scheme) + 1:].startswith("//")


# --- running things -------------------------------------------------------------


def run_urlint(urlint, command, root, paths, out_file):
    """Runs `urlint COMMAND --format jsonl` over `paths` (relative to root), in chunks; returns records."""
    records = []
    with open(out_file, "w") as out:
        for index in range(0, len(paths), 400):
            chunk = paths[index:index + 400]
            result = subprocess.run(
                [urlint, command, "--format", "jsonl", "--no-ignore", "--hidden", "--", *chunk],
                cwd=root, capture_output=True, text=True,
            )
            if result.returncode not in (0, 1):
                sys.stderr.write(f"urlint {command} exited {result.returncode}: {result.stderr[-500:]}\n")
            out.write(result.stdout)
            for line in result.stdout.splitlines():
                if line.strip():
                    records.append(json.loads(line))
    return records


def run_oracles(node_dir, python_dir, root, markdown_and_html, rst, results):
    """Runs the Node oracle and the docutils oracle side by side; returns {path: record}."""
    jobs = []
    for name, paths, command, environment in (
        ("oracle", markdown_and_html, ["node", str(node_dir / "oracle.mjs")], None),
        ("oracle-rst", rst, [sys.executable, str(HERE / "oracle" / "rst_oracle.py")],
         dict(os.environ, PYTHONPATH=str(python_dir))),
    ):
        listing = results / f"{name}-files.txt"
        listing.write_text("".join(p + "\n" for p in paths))
        out_file = results / f"{name}.jsonl"
        out = open(out_file, "w")
        process = subprocess.Popen([*command, str(root), str(listing)], stdout=out, env=environment)
        jobs.append((process, out, out_file))
    oracle = {}
    for process, out, out_file in jobs:
        if process.wait() != 0:
            raise SystemExit(f"{process.args[1]} failed")
        out.close()
        for line in out_file.read_text().splitlines():
            record = json.loads(line)
            oracle[record["path"]] = record
    return oracle


def doc_type(path):
    """'Markdown', 'reStructuredText' or 'HTML' for a document path."""
    lower = path.lower()
    if lower.endswith(MARKDOWN):
        return "Markdown"
    if lower.endswith(RST):
        return "reStructuredText"
    return "HTML"


def list_files(root):
    """Relative paths of docs and code under root, sorted."""
    docs, code = [], []
    for directory, _, names in os.walk(root):
        for name in names:
            relative = os.path.relpath(os.path.join(directory, name), root)
            lower = name.lower()
            if lower.endswith(MARKDOWN + RST + HTML):
                docs.append(relative)
            elif name in LOCK_FILES or (lower.endswith(CODE_SUFFIXES) and not lower.endswith(".min.js")):
                code.append(relative)
    return sorted(docs), sorted(code)


# --- extraction scoring -----------------------------------------------------------


def span_of(found):
    """(start, end, line) of a urlint record's URL in its source."""
    segments = found["segments"]
    return segments[0]["start"], segments[-1]["end"], segments[0]["line"]


def overlapping(items, start, end):
    """Oracle items whose bytes overlap [start, end)."""
    return [item for item in items if item["start"] < max(end, start + 1) and item["end"] > start]


def inside(regions, offset, kind):
    """True when `offset` lies in a region of `kind`."""
    return any(s <= offset < e and k == kind for s, e, k in regions)


def category_of(found, record):
    """Which scored category a urlint URL in a Markdown/HTML file falls in."""
    start, end, _ = span_of(found)
    near = overlapping(record["items"], start, end)
    kinds = {CATEGORY_OF_KIND[item["kind"]] for item in near}
    if "A" in kinds:
        return "A"
    if "H" in kinds and not record["path"].lower().endswith(MARKDOWN):
        return "H"
    if "H" in kinds:
        return "H"
    if inside(record["regions"], start, "code"):
        return "code"
    if inside(record["regions"], start, "html") or record["path"].lower().endswith(HTML):
        return "H"
    if "B" in kinds:
        return "B"
    if scheme_of(found["url"]) in GFM_TEXT_SCHEMES or code_shaped(found["url"]):
        return "B"
    return "C"


def match(urlint_items, oracle_items, by_line):
    """Multiset matching on the URL (and the line when `by_line`).

    Returns (matched urlint indices, matched oracle indices). Pairs that
    overlap in the source are taken first, then pairs on the same line, then
    any, so that the lists of misses name the right occurrences.
    """
    pool = collections.defaultdict(list)
    for index, item in enumerate(oracle_items):
        for key in {item["url"], item["decoded"]}:
            pool[key].append(index)
    used_oracle, used_urlint = set(), set()
    passes = ("overlap", "line") if by_line else ("overlap", "line", "any")
    for mode in passes:
        for index, found in enumerate(urlint_items):
            if index in used_urlint:
                continue
            start, end, line = span_of(found)
            for candidate in pool.get(found["url"], ()):
                item = oracle_items[candidate]
                if candidate in used_oracle:
                    continue
                if mode == "overlap" and not (item["start"] < max(end, start + 1) and item["end"] > start):
                    continue
                if mode == "line" and item["line"] != line:
                    continue
                used_oracle.add(candidate)
                used_urlint.add(index)
                break
    return used_urlint, used_oracle


def score_extraction(oracle, extracted):
    """Per-category counts and the unmatched URLs on both sides."""
    by_file = collections.defaultdict(list)
    for found in extracted:
        if found.get("url") is not None and "segments" in found:
            by_file[found["path"]].append(found)
    totals = collections.defaultdict(collections.Counter)
    false_positives, false_negatives = [], []
    for path, record in oracle.items():
        if record.get("error"):
            continue
        founds = by_file.get(path, [])
        grouped_urlint = collections.defaultdict(list)
        for found in founds:
            grouped_urlint[category_of(found, record)].append(found)
        grouped_oracle = collections.defaultdict(list)
        for item in record["items"]:
            grouped_oracle[CATEGORY_OF_KIND[item["kind"]]].append(item)
        for category in set(grouped_urlint) | set(grouped_oracle) | {"A", "B"}:
            mine, theirs = grouped_urlint.get(category, []), grouped_oracle.get(category, [])
            matched_urlint, matched_oracle = match(mine, theirs, by_line=False)
            line_urlint, _ = match(mine, theirs, by_line=True)
            counts = totals[(doc_type(path), category)]
            counts["urlint"] += len(mine)
            counts["oracle"] += len(theirs)
            counts["tp"] += len(matched_urlint)
            counts["tp_line"] += len(line_urlint)
            counts["files"] += 1 if mine or theirs else 0
            unmatched_oracle = [item for i, item in enumerate(theirs) if i not in matched_oracle]
            for index, found in enumerate(mine):
                if index in matched_urlint or category == "C":
                    continue
                start, end, line = span_of(found)
                near = [item["url"] for item in overlapping(record["items"], start, end)]
                false_positives.append((category, path, line, found["url"], " | ".join(near)))
            for item in unmatched_oracle:
                near = [f["url"] for f in founds if span_of(f)[0] < max(item["end"], item["start"] + 1) and span_of(f)[1] > item["start"]]
                false_negatives.append((category, path, item["line"], item["url"], item["kind"], " | ".join(near)))
            if category == "C":
                for found in mine:
                    false_positives.append(("C", path, found["line"], found["url"], ""))
    return totals, false_positives, false_negatives


# --- code false positives ------------------------------------------------------------


def plausible_url(url):
    """True when `url` has the shape of a URL a person wrote: `scheme://host`, `file:///`, `mailto:a@b`, ..."""
    scheme = scheme_of(url)
    rest = url[len(scheme) + 1:]
    return bool(
        re.match(r"//[A-Za-z0-9\[%$<{_:]", rest)
        or (rest.startswith("///") and len(rest) > 3)
        or (scheme in ("mailto", "xmpp", "sip", "sips") and "@" in rest)
        or (scheme in ("urn", "tel", "news", "cid", "mid") and re.match(r"[A-Za-z0-9+]", rest))
    )


def classify_code_url(path, url):
    """(verdict, kind) for a URL urlint extracted from a source or lock file."""
    base = os.path.basename(path)
    if PATH_SEPARATOR.match(url):
        return "noise", "Word::Word path"
    scheme = scheme_of(url)
    if base in LOCK_FILES and "+" in scheme:
        return "noise", "scheme+scheme in lock file"
    if scheme in IP_SCHEMES and not url[len(scheme) + 1:].startswith("//"):
        return "noise", "IP scheme without //"
    if not plausible_url(url):
        return "noise", "other non-URL text"
    if base in LOCK_FILES:
        return "real", "lock file URL"
    if re.search(r"\$\{|\{[^}]*\}|%[sd(]|<[A-Za-z_]+>|\$[A-Za-z_]", url):
        return "real", "URL template (placeholder)"
    if re.search(r"\\[nrt\\\"']|['\"`]|[,;]$", url) or (url.endswith(")") and not balanced_tail(url)):
        return "real", "URL with code glued on"
    return "real", "URL"


def score_code(code_urls, code_findings):
    """Counts of code URLs per verdict/kind/language and findings per rule and kind."""
    kinds = collections.Counter()
    languages = collections.Counter()
    rows = []
    for found in code_urls:
        if found.get("url") is None:
            continue
        verdict, kind = classify_code_url(found["path"], found["url"])
        kinds[(verdict, kind)] += 1
        suffix = os.path.basename(found["path"]) if os.path.basename(found["path"]) in LOCK_FILES else os.path.splitext(found["path"])[1]
        languages[(suffix, verdict)] += 1
        rows.append((verdict, kind, found["path"], found["line"], found["url"]))
    by_rule = collections.Counter()
    for finding in code_findings:
        if finding.get("type") != "finding":
            continue
        verdict, kind = classify_code_url(finding["path"], finding["found"]["url"])
        by_rule[(finding["severity"], finding["rule"], verdict)] += 1
    return kinds, languages, rows, by_rule


# --- findings noise --------------------------------------------------------------------


def glued_links(url):
    """True when one extracted URL holds two Markdown links or a link and its label."""
    return bool(re.search(r"\]\(|\)\[|\)\]|\]\[|\]:\s", url)) or len(re.findall(r"[A-Za-z][A-Za-z0-9+.-]*://", url)) > 1


# Rules that report RFC 1738 section 6 advice or the scanner's own doubts:
# they hold under any profile, so a finding of theirs on a well-extracted
# URL is a real one.
ADVICE_RULES = {"password-in-url", "nondefault-port", "encoded-newline", "hyphen-break", "space-in-wrapper",
                "unterminated-wrapper"}
PLACEHOLDER = re.compile(r"\{[^}]*\}|\$\{|\$[A-Za-z_]|%[sd(]|<[A-Za-z_ -]+>|:port\b|:PORT\b|\.\.\.|//\*\.|\bX{3,}")
ENTITY = re.compile(r"&(?:#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);")


def extraction_cause(url, start, end, record):
    """Why urlint's URL differs from the oracle's at the same place, or None when it does not."""
    near = overlapping(record["items"], start, end)
    if any(url in (item["url"], item["decoded"]) for item in near):
        return None
    if inside(record["regions"], start, "code"):
        return "code-shaped text" if code_shaped(url) else "inside code span/block"
    if glued_links(url):
        return "badge/adjacent links glued"
    if code_shaped(url):
        return "code-shaped text"
    if ENTITY.search(url) and near:
        return "HTML entity not decoded"
    for item in near:
        if url.startswith(item["url"]) and len(url) > len(item["url"]):
            return "trailing )/]/}/quote/punctuation"
        if url.endswith(item["url"]) and len(url) > len(item["url"]):
            if re.fullmatch(r"[A-Za-z][A-Za-z0-9.-]*\+", url[:-len(item["url"])]):
                return None  # git+https://: one RFC 3986 scheme, where GFM starts the link at https
            return "text glued before scheme"
        if item["url"].startswith(url):
            return "cut short"
    if near:
        return "other boundary mismatch"
    if inside(record["regions"], start, "html"):
        return "in raw HTML: a comment or no URL attribute"
    if record["path"].lower().endswith(MARKDOWN) and scheme_of(url) not in GFM_TEXT_SCHEMES:
        # GFM links no other scheme in text: a plausible URL is judged by its rule below.
        return None if plausible_url(url) else "not a URL (other scheme)"
    return "not a URL for the oracle"


def heuristic_extraction_cause(url):
    """Extraction mistakes recognisable without an oracle."""
    if glued_links(url):
        return "badge/adjacent links glued"
    if code_shaped(url):
        return "code-shaped text"
    scheme = SCHEME.match(url)
    if scheme and "." in scheme.group(1) and scheme_of(url) != "z39.50":
        return "text glued before scheme"
    if re.search(r"[)\]}'\"*_>`]$", url) and not balanced_tail(url):
        return "trailing )/]/}/quote/punctuation"
    return None


def classify_finding(finding, oracle_record):
    """(class, detail) of one check finding on a document.

    Classes: extraction (urlint's URL is not the document's), fragment (the
    first `#` reported as unsafe), valid-3986 (a syntactically valid RFC 3986
    URI reported under RFC 1738), real (a real RFC 1738 problem, including
    section 6 advice and deliberate placeholders).
    """
    found = finding["found"]
    url = found["url"]
    start, end, _ = span_of(found)
    if oracle_record is not None and not oracle_record.get("error"):
        cause = extraction_cause(url, start, end, oracle_record)
    else:
        cause = heuristic_extraction_cause(url)
    if cause:
        return "extraction", cause
    rule = finding["rule"]
    span = finding.get("url_span") or {}
    flagged = url[span.get("start", 0):span.get("end", 0)]
    if flagged == "#" and url.find("#") == span.get("start"):
        return "fragment", f"first # flagged ({rule})"
    if rule in ADVICE_RULES:
        return "real", f"{rule} (section 6 or scanner advice)"
    if PLACEHOLDER.search(url):
        return "real", "placeholder or template URL"
    scheme = scheme_of(url)
    if scheme in IP_SCHEMES and not url[len(scheme) + 1:].startswith("//"):
        return "real", "no // after an IP-based scheme (RFC 9110 too)"
    if RFC3986_URI.match(url):
        return "valid-3986", why_valid(url, rule, flagged)
    if rule == "non-ascii" and RFC3986_URI.match(re.sub(r"[^\x00-\x7f]", "a", url)):
        return "real", "non-ASCII (a valid IRI)"
    return "real", f"{rule}"


def balanced_tail(url):
    """True when the last bracket of `url` closes one opened inside it."""
    pairs = {")": "(", "]": "[", "}": "{"}
    last = url[-1]
    if last in pairs:
        return url.count(pairs[last]) >= url.count(last)
    return False


def why_valid(url, rule, flagged):
    """A short reason a finding on an RFC 3986-valid URL is one."""
    authority = url.split("/")[2] if url.count("/") >= 2 and "//" in url else ""
    if "[" in authority:
        return "IPv6 literal"
    if scheme_of(url) == "mailto" and "?" in url:
        return "mailto with ?headers"
    if rule == "unsafe-char" and flagged == "~":
        return "~ in path"
    if rule == "unknown-scheme":
        return f"scheme not in RFC 1738 ({scheme_of(url)})" if scheme_of(url) in ("https", "ws", "wss") else "scheme not in RFC 1738"
    if rule == "reserved-char" and flagged in ("/", "?"):
        return f"'{flagged}' in a query"
    if rule == "bad-host":
        return "host name RFC 3986 allows (reg-name)"
    return f"{rule} on {flagged!r}" if len(flagged) == 1 else rule


def score_findings(findings, oracle):
    """Counters of findings by class, detail and rule; and the classified rows."""
    by_class = collections.Counter()
    by_rule = collections.Counter()
    rows = []
    for finding in findings:
        if finding.get("type") != "finding" or finding.get("severity") not in ("error", "warning"):
            continue
        record = oracle.get(finding["path"])
        cls, detail = classify_finding(finding, record)
        by_class[(cls, detail)] += 1
        by_class[(cls, detail, doc_type(finding["path"]))] += 1
        by_rule[(cls, finding["rule"], finding["severity"])] += 1
        rows.append((cls, detail, finding["rule"], finding["severity"], finding["path"], finding["line"], finding["found"]["url"], finding["message"]))
    return by_class, by_rule, rows


# --- output --------------------------------------------------------------------------------


def percent(part, whole):
    """part/whole as a percentage string, or '-' when whole is 0."""
    return f"{100.0 * part / whole:6.2f}%" if whole else "     -"


def write_tsv(path, header, rows):
    """A tab-separated file with a header line; tabs and newlines in fields become spaces."""
    with open(path, "w") as out:
        out.write("\t".join(header) + "\n")
        for row in rows:
            out.write("\t".join(str(field).replace("\t", " ").replace("\n", " ") for field in row) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--urlint", required=True, help="the urlint binary to measure")
    default_data = os.environ.get("URLINT_ACCURACY_DIR") or str(REPO / "target" / "accuracy")
    parser.add_argument("--data", default=default_data, help="data directory (fetch.py's)")
    parser.add_argument("--node-dir", help="where the oracle and its node_modules are (default DATA/node)")
    parser.add_argument("--python-dir", help="where docutils is installed (default DATA/py)")
    parser.add_argument("--skip-code", action="store_true", help="leave out the source-file measure (the slowest)")
    args = parser.parse_args()
    data = pathlib.Path(args.data).resolve()
    urlint = str(pathlib.Path(args.urlint).resolve())
    root = data / "files"
    results = data / "results"
    results.mkdir(parents=True, exist_ok=True)
    node_dir = pathlib.Path(args.node_dir).resolve() if args.node_dir else data / "node"
    python_dir = pathlib.Path(args.python_dir).resolve() if args.python_dir else data / "py"

    docs, code = list_files(root)
    markdown = [p for p in docs if p.lower().endswith(MARKDOWN)]
    html = [p for p in docs if p.lower().endswith(HTML)]
    rst = [p for p in docs if p.lower().endswith(RST)]

    oracle = run_oracles(node_dir, python_dir, root, markdown + html, rst, results)
    extracted = run_urlint(urlint, "extract", root, markdown + html + rst, results / "urlint-extract-docs.jsonl")
    totals, false_positives, false_negatives = score_extraction(oracle, extracted)

    if args.skip_code:
        code = []
    code_urls = run_urlint(urlint, "extract", root, code, results / "urlint-extract-code.jsonl")
    code_findings = run_urlint(urlint, "check", root, code, results / "urlint-check-code.jsonl")
    code_kinds, code_languages, code_rows, code_by_rule = score_code(code_urls, code_findings)

    findings = run_urlint(urlint, "check", root, markdown + rst, results / "urlint-check-docs.jsonl")
    noise_by_class, noise_by_rule, finding_rows = score_findings(findings, oracle)

    lines = []
    say = lines.append
    packages = collections.Counter(p.split("/")[0] for p in {"/".join(d.split("/")[:2]) for d in docs + code})
    say(f"urlint: {urlint}")
    say(f"data: {data}")
    say(f"packages with files: " + ", ".join(f"{k} {v}" for k, v in sorted(packages.items())))
    say(f"files: {len(markdown)} Markdown, {len(html)} HTML, {len(rst)} reStructuredText, {len(code)} code")
    say("")
    say("Extraction against the oracles (micromark+GFM for Markdown, parse5 for HTML, docutils for reST)")
    say(f"{'category':48} {'oracle':>7} {'urlint':>7} {'match':>7} {'precision':>10} {'recall':>8} {'P(line)':>8} {'R(line)':>8}")
    for kind in ("Markdown", "reStructuredText", "HTML"):
        say(f"{kind} files")
        shown = ("A", "B", "H", "code", "C") if kind == "Markdown" else ("A", "B", "code", "C") if kind != "HTML" else ("H",)
        for category in shown:
            counts = totals.get((kind, category), collections.Counter())
            if category in ("code", "C"):
                note = "(all FP)" if category == "code" else "(unscored)"
                say(f"{CATEGORY_NAMES[category]:48} {counts['oracle']:7} {counts['urlint']:7} {'':7} {note:>10}")
                continue
            say(
                f"{CATEGORY_NAMES[category]:48} {counts['oracle']:7} {counts['urlint']:7} {counts['tp']:7} "
                f"{percent(counts['tp'], counts['urlint']):>10} {percent(counts['tp'], counts['oracle']):>8} "
                f"{percent(counts['tp_line'], counts['urlint']):>8} {percent(counts['tp_line'], counts['oracle']):>8}"
            )
        if kind != "HTML":
            b = totals.get((kind, "B"), collections.Counter())
            c = totals.get((kind, "code"), collections.Counter())
            say(f"{'    (b) with code-span/block URLs counted as FPs':48} {b['oracle']:7} {b['urlint'] + c['urlint']:7} "
                f"{b['tp']:7} {percent(b['tp'], b['urlint'] + c['urlint']):>10}")
    say("")
    say("URLs urlint extracts from source files (code false positives)")
    say(f"{'verdict':8} {'kind':32} {'count':>7}")
    for (verdict, kind), count in sorted(code_kinds.items(), key=lambda kv: (kv[0][0], -kv[1])):
        say(f"{verdict:8} {kind:32} {count:7}")
    noise = sum(v for (verdict, _), v in code_kinds.items() if verdict == "noise")
    say(f"{'total':8} {'noise / all':32} {noise:7} / {sum(code_kinds.values())}")
    say("by file type (noise, real): " + ", ".join(
        f"{suffix} {code_languages[(suffix, 'noise')]}/{code_languages[(suffix, 'real')]}"
        for suffix in sorted({s for s, _ in code_languages})))
    say("check findings on source files, by rule:")
    for (severity, rule, verdict), count in sorted(code_by_rule.items(), key=lambda kv: -kv[1]):
        say(f"  {severity:8} {rule:24} on {verdict:6} {count:6}")
    say("")
    say("Findings of `urlint check` on the Markdown and reStructuredText docs, by cause")
    two = {key: value for key, value in noise_by_class.items() if len(key) == 2}
    total_findings = sum(two.values())
    kinds = ("Markdown", "reStructuredText")
    say(f"{'class / cause':48} {'all':>7} {'share':>8} " + " ".join(f"{k:>16}" for k in kinds))
    for cls in ("extraction", "fragment", "valid-3986", "real"):
        subtotal = sum(v for (c2, _), v in two.items() if c2 == cls)
        per_kind = [sum(v for key, v in noise_by_class.items() if len(key) == 3 and key[0] == cls and key[2] == k) for k in kinds]
        say(f"{cls:48} {subtotal:7} {percent(subtotal, total_findings):>8} " + " ".join(f"{n:16}" for n in per_kind))
        for (c2, detail), count in sorted(two.items(), key=lambda kv: -kv[1]):
            if c2 == cls:
                per_kind = [noise_by_class[(cls, detail, k)] for k in kinds]
                say(f"    {detail:44} {count:7} {'':8} " + " ".join(f"{n:16}" for n in per_kind))
    per_kind = [sum(v for key, v in noise_by_class.items() if len(key) == 3 and key[2] == k) for k in kinds]
    say(f"{'total':48} {total_findings:7} {'':8} " + " ".join(f"{n:16}" for n in per_kind))
    real = sum(v for (c2, _), v in two.items() if c2 == "real")
    real_kind = [sum(v for key, v in noise_by_class.items() if len(key) == 3 and key[0] == "real" and key[2] == k) for k in kinds]
    say(f"noise (all but real RFC 1738 problems): {total_findings - real} of {total_findings} "
        f"({percent(total_findings - real, total_findings).strip()}); "
        + ", ".join(f"{k} {percent(n - r, n).strip()}" for k, n, r in zip(kinds, per_kind, real_kind)))
    say("by class and rule:")
    rules = sorted({(rule, sev) for (_, rule, sev) in noise_by_rule})
    classes = ("extraction", "fragment", "valid-3986", "real")
    say(f"  {'rule':24} {'severity':8} " + " ".join(f"{c:>10}" for c in classes) + f" {'total':>7}")
    for rule, sev in sorted(rules, key=lambda rs: -sum(noise_by_rule[(c, rs[0], rs[1])] for c in classes)):
        row = [noise_by_rule[(c, rule, sev)] for c in classes]
        say(f"  {rule:24} {sev:8} " + " ".join(f"{n:10}" for n in row) + f" {sum(row):7}")

    summary = "\n".join(lines) + "\n"
    (results / "summary.txt").write_text(summary)
    with open(results / "extraction.md", "w") as out:
        out.write("# Extraction: false positives and false negatives\n\n")
        out.write("category\tfile:line\turlint\toracle at the same place\n\n## False positives\n\n")
        for category, path, line, url, near in sorted(false_positives):
            out.write(f"- {category} `{path}:{line}` urlint `{url}` oracle `{near}`\n")
        out.write("\n## False negatives\n\n")
        for category, path, line, url, kind, near in sorted(false_negatives):
            out.write(f"- {category} `{path}:{line}` oracle {kind} `{url}` urlint `{near}`\n")
    write_tsv(results / "code-urls.tsv", ("verdict", "kind", "path", "line", "url"), code_rows)
    write_tsv(results / "findings.tsv", ("class", "detail", "rule", "severity", "path", "line", "url", "message"), finding_rows)
    sys.stdout.write(summary)
    print(f"\nreports: {results}/summary.txt, extraction.md, code-urls.tsv, findings.tsv")


if __name__ == "__main__":
    main()
