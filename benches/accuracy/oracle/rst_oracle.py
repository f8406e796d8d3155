#!/usr/bin/env python3
"""Oracle for reStructuredText: which URLs a .rst file holds, according to docutils.

Usage: rst_oracle.py ROOT LISTFILE > oracle-rst.jsonl   (docutils on PYTHONPATH)

Writes the same JSON lines as oracle.mjs. docutils' parser (without its
transforms, so that a `name_` reference does not inherit its target's URL)
gives reference nodes for embedded URIs (`text <url>`_), standalone URIs in
text, hyperlink targets (`.. _name: url`) and image/figure URIs; literal text
(``code``, `::` blocks, code directives) never holds one.

docutils gives no source offsets for these nodes, so each URL is located by
searching its text in the source after the previous occurrence of the same
URL; literal blocks become "code" regions the same way. Sphinx's directives
and roles are unknown to docutils: code-like directives are read as literal
blocks, the others have their content parsed as reStructuredText, and
unknown roles are read as literal text.
"""

import io
import itertools
import json
import re
import sys

import docutils.frontend
import docutils.nodes
import docutils.parsers.rst
import docutils.parsers.rst.directives
import docutils.parsers.rst.roles
import docutils.statemachine
import docutils.utils

KNOWN_SCHEMES = {
    "afs", "cid", "file", "ftp", "ftps", "git", "gopher", "http", "https", "irc", "ircs", "ldap",
    "ldaps", "mailserver", "mailto", "mid", "news", "nfs", "nntp", "prospero", "rtsp", "sftp", "sip",
    "sips", "ssh", "svn", "tel", "telnet", "tn3270", "urn", "wais", "ws", "wss", "xmpp", "z39.50",
}
CODE_DIRECTIVES = {
    "code-block", "sourcecode", "literalinclude", "highlight", "doctest", "testcode", "testoutput",
    "testsetup", "testcleanup", "ipython", "jupyter-execute", "prompt", "productionlist", "code-tab",
    "console", "shell", "program-output", "command-output", "autoprogram", "mermaid", "graphviz",
    "digraph", "graph", "plot", "math",
}
SKIPPED_DIRECTIVES = {"toctree", "autosummary", "currentmodule", "module", "automodule", "index", "tabularcolumns"}


def in_scope(url):
    """True when `url` is an absolute URL urlint would consider (the README's scope rule)."""
    match = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*):(.*)$", url, re.S)
    if not match:
        return False
    scheme, rest = match.group(1), match.group(2)
    if rest.startswith(":"):
        return False  # `Word::Word` is a code path, not a URL
    if not rest.startswith("//") and scheme.lower() not in KNOWN_SCHEMES:
        return False
    return len(rest.lstrip("/")) > 0


class LiteralDirective(docutils.parsers.rst.Directive):
    """A Sphinx code directive: its content is a literal block."""

    has_content = True
    optional_arguments = 10
    final_argument_whitespace = True
    option_spec = None

    def run(self):
        text = "\n".join(self.content)
        return [docutils.nodes.literal_block(text, text)]


class ContainerDirective(docutils.parsers.rst.Directive):
    """Any other unknown directive: its content is parsed as reStructuredText."""

    has_content = True
    optional_arguments = 10
    final_argument_whitespace = True
    option_spec = None

    def run(self):
        node = docutils.nodes.container()
        if self.arguments:
            # Sphinx directives such as versionadded take their first
            # paragraph as an argument; its text is read too.
            lines = docutils.statemachine.StringList(" ".join(self.arguments).splitlines(), source="arguments")
            self.state.nested_parse(lines, self.content_offset, node)
        if self.content:
            self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


class SkippedDirective(ContainerDirective):
    """A directive whose content lists documents, not text (toctree and the like)."""

    def run(self):
        return []


class AnyOption(dict):
    """An option spec that accepts every option with its raw value."""

    def __getitem__(self, key):
        return docutils.parsers.rst.directives.unchanged

    def __contains__(self, key):
        return True


for directive in (LiteralDirective, ContainerDirective, SkippedDirective):
    directive.option_spec = AnyOption()


def literal_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """An unknown (Sphinx) role: its text is literal."""
    return [docutils.nodes.literal(rawtext, text)], []


_known_directive = docutils.parsers.rst.directives.directive
_known_role = docutils.parsers.rst.roles.role


def any_directive(name, language, document):
    """docutils' directive, or a stand-in for an unknown one."""
    found, messages = _known_directive(name, language, document)
    if found is not None:
        return found, messages
    lower = name.lower().split(":")[-1]
    if lower in CODE_DIRECTIVES:
        return LiteralDirective, []
    if lower in SKIPPED_DIRECTIVES:
        return SkippedDirective, []
    return ContainerDirective, []


def any_role(name, language, lineno, reporter):
    """docutils' role, or a literal stand-in for an unknown one."""
    found, messages = _known_role(name, language, lineno, reporter)
    if found is not None:
        return found, messages
    return literal_role, []


docutils.parsers.rst.directives.directive = any_directive
docutils.parsers.rst.states.directives.directive = any_directive
docutils.parsers.rst.roles.role = any_role
docutils.parsers.rst.states.roles.role = any_role


def settings():
    """Quiet settings: no messages, no file inclusion, no raw passthrough."""
    return docutils.frontend.get_default_settings(docutils.parsers.rst.Parser)


SETTINGS = settings()
SETTINGS.report_level = 5
SETTINGS.halt_level = 5
SETTINGS.warning_stream = io.StringIO()
SETTINGS.file_insertion_enabled = False
SETTINGS.raw_enabled = False
SETTINGS.line_length_limit = 10**7
SETTINGS.character_level_inline_markup = False


def urls_of(document):
    """(url, kind) of every URL node, and the texts of literal nodes, in document order."""
    found, literals = [], []
    for node in document.findall():
        if isinstance(node, docutils.nodes.reference) and "refuri" in node:
            uri = node["refuri"]
            named = node.get("name") or node.get("names")
            kind = "destination" if named or node.next_node(docutils.nodes.image) else "bare"
            found.append((uri, kind))
        elif (isinstance(node, docutils.nodes.target) and "refuri" in node and not node.children
              and not isinstance(node.parent, docutils.nodes.TextElement)):
            # Targets inside text come from `text <url>`_, whose reference is already counted.
            found.append((node["refuri"], "definition"))
        elif isinstance(node, docutils.nodes.image) and "uri" in node:
            found.append((node["uri"], "destination"))
        elif isinstance(node, (docutils.nodes.literal_block, docutils.nodes.literal, docutils.nodes.doctest_block)):
            literals.append(node.astext())
    return found, literals


def line_starts(text):
    """Offsets at which the lines of `text` start."""
    starts = [0]
    for match in re.finditer("\n", text):
        starts.append(match.end())
    return starts


URL_CONTINUES = r"(?![A-Za-z0-9/_%~+=&?#-])(?!\.[A-Za-z0-9])"


def locate(text, url, start):
    """(start, end) of `url` in `text` at or after `start` (or anywhere), ending where a URL would.

    docutils joins an embedded URI broken over lines; such a URL is found with
    any whitespace between its characters.
    """
    exact = re.compile(re.escape(url) + URL_CONTINUES)
    for origin in (start, 0):
        match = exact.search(text, origin)
        if match:
            return match.start(), match.end()
    if len(url) <= 300:
        spread = re.compile(r"\s*".join(re.escape(char) for char in url) + URL_CONTINUES)
        match = spread.search(text, start) or spread.search(text)
        if match:
            return match.start(), match.end()
    return None


def oracle_for(relative, data):
    """The oracle's record for one .rst file."""
    text = data.decode("utf-8", errors="replace")
    document = docutils.utils.new_document(relative, SETTINGS)
    docutils.parsers.rst.Parser().parse(text, document)
    found, literals = urls_of(document)
    if text.isascii():
        to_bytes = int
    else:
        offsets = [0, *itertools.accumulate(len(char.encode("utf-8", errors="replace")) for char in text)]
        to_bytes = offsets.__getitem__

    starts = line_starts(text)

    def line_of(index):
        low, high = 0, len(starts) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if starts[middle] <= index:
                low = middle
            else:
                high = middle - 1
        return low + 1

    items, cursor = [], {}
    for url, kind in found:
        if not in_scope(url):
            continue
        located = locate(text, url, cursor.get(url, 0))
        if located is None and kind == "bare" and url.startswith("mailto:"):
            continue  # a bare e-mail address: out of scope, as in GFM
        if located is None:
            continue  # written by a role (:pep:, :rfc:), not in the source
        at, after = located
        cursor[url] = after
        items.append({"url": url, "decoded": url, "kind": kind, "start": to_bytes(at), "end": to_bytes(after),
                      "line": line_of(at)})
    regions, literal_cursor = [], 0
    for literal in literals:
        if not literal.strip():
            continue
        at = text.find(literal.split("\n")[0], literal_cursor)
        if at < 0:
            continue
        end = at
        for piece in literal.split("\n"):
            position = text.find(piece, end)
            if position < 0:
                break
            end = position + len(piece)
        regions.append([to_bytes(at), to_bytes(end), "code"])
        literal_cursor = at
    return {"path": relative, "items": items, "regions": regions}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: rst_oracle.py ROOT LISTFILE > oracle-rst.jsonl")
    root, listing = sys.argv[1:]
    failed = 0
    names = [line for line in open(listing).read().splitlines() if line]
    for relative in names:
        try:
            with open(f"{root}/{relative}", "rb") as source:
                record = oracle_for(relative, source.read())
        except Exception as error:  # one unparsable file must not stop the rest
            failed += 1
            record = {"path": relative, "error": f"{type(error).__name__}: {error}", "items": [], "regions": []}
            sys.stderr.write(f"rst oracle: {relative}: {record['error']}\n")
        sys.stdout.write(json.dumps(record) + "\n")
    sys.stderr.write(f"rst oracle: {len(names)} files, {failed} failed\n")


if __name__ == "__main__":
    main()
