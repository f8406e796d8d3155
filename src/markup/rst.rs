//! reStructuredText read by a line-based recognizer of the constructs that
//! decide where its URLs are, as the reStructuredText Markup Specification
//! (and docutils and Sphinx, which implement it) reads them: embedded URIs,
//! hyperlink targets and image URIs become links; paragraph, list, table
//! and directive text becomes prose; literal blocks, code directives,
//! doctest blocks, inline literals, interpreted text and comments are
//! verbatim, blanked unless verbatim text is wanted; `raw:: html` content
//! is read as HTML.
//!
//! Blocks are told apart by indentation, as the specification does: an
//! explicit markup block (`.. `) and a literal block after `::` take every
//! following line that is blank or indented more than their own start. No
//! well-kept Rust parser of reStructuredText gives source offsets, and
//! these constructs need no document tree.

use memchr::{memchr, memchr2, memmem};

use super::document::{Decoded, Document, Link, LinkSyntax, ProseBuilder};
use super::html;
use super::unclosed::Unclosed;
use crate::offset_map::OffsetMap;
use crate::source::BYTE_ORDER_MARK;
use crate::span::Span;

/// Directives whose arguments, options and content are code or data, not
/// text: docutils' own and those of Sphinx and its common extensions.
const CODE_DIRECTIVES: &[&str] = &[
    "autoprogram",
    "code",
    "code-block",
    "code-cell",
    "code-tab",
    "command-output",
    "console",
    "digraph",
    "doctest",
    "graph",
    "graphviz",
    "highlight",
    "ipython",
    "jupyter-execute",
    "literalinclude",
    "math",
    "mermaid",
    "parsed-literal",
    "plot",
    "productionlist",
    "program-output",
    "prompt",
    "raw",
    "shell",
    "sourcecode",
    "testcleanup",
    "testcode",
    "testoutput",
    "testsetup",
];

/// Directives whose argument is an image's URI and whose `:target:` option
/// is a link.
const IMAGE_DIRECTIVES: &[&str] = &["image", "figure"];

/// docutils expands tabs to stops every eight columns.
const TAB_STOP: usize = 8;

/// True when `head`, the first bytes of a text, holds a line of explicit
/// markup that only reStructuredText writes: a directive (`.. note::`), a
/// hyperlink target (`.. _name: https://...`) or a substitution definition
/// (`.. |name| image:: ...`), opening a line. A comment or a footnote
/// (`.. [1]`) is not evidence: free text may start a line with two dots.
pub(crate) fn looks_like_rst(head: &[u8]) -> bool {
    let mut mark = [0; 3];
    let mark = BYTE_ORDER_MARK.encode_utf8(&mut mark).as_bytes();
    let head = head.strip_prefix(mark).unwrap_or(head);
    head.split(|&b| b == b'\n').any(|line| {
        let Some(rest) = line.strip_prefix(b".. ") else {
            return false;
        };
        let rest = rest.strip_suffix(b"\r").unwrap_or(rest);
        // The head may end inside a character; a line that is not UTF-8
        // is no evidence either way.
        let Ok(rest) = std::str::from_utf8(rest) else {
            return false;
        };
        let rest = rest.trim_start_matches([' ', '\t']);
        target_uri_start(rest).is_some()
            || substitution_directive(rest).is_some()
            || directive(rest).is_some()
    })
}

/// Read a reStructuredText document; `verbatim` makes literal blocks, code
/// directives, doctest blocks, inline literals, interpreted text and
/// comments prose too.
pub(crate) fn document(source: &str, verbatim: bool) -> Document {
    let mut reader = Reader {
        source,
        lines: lines(source),
        verbatim,
        prose: ProseBuilder::new(source),
        links: Vec::new(),
        borders: Vec::new(),
        no_close_after: [usize::MAX; 3],
        plain_text_blocks: Vec::new(),
        unclosed: None,
    };
    reader.read();
    let mut links = reader.links;
    links.sort_by_key(|link| link.outer.start);
    let plain_text_blocks = std::mem::take(&mut reader.plain_text_blocks);
    let (prose, map, blank_starts) = reader.prose.finish();
    Document {
        prose,
        map,
        blank_starts,
        links,
        plain_text_blocks,
        unclosed: reader.unclosed,
    }
}

/// One line of the source.
#[derive(Debug, Clone, Copy)]
struct Line {
    /// Its first byte.
    start: usize,
    /// Its first byte after the indentation (`end` when it is blank).
    text: usize,
    /// Where its content ends, before the line break.
    end: usize,
    /// Its indentation in columns.
    indent: usize,
}

impl Line {
    /// True for a line of whitespace only.
    fn is_blank(&self) -> bool {
        self.text == self.end
    }
}

/// The lines of `source`, ended by `\n`, `\r\n` or a lone `\r` as
/// everywhere else in urlint.
fn lines(source: &str) -> Vec<Line> {
    let bytes = source.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let (end, next) = match memchr2(b'\n', b'\r', &bytes[start..]) {
            Some(found) => {
                let end = start + found;
                let crlf = bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n');
                (end, end + if crlf { 2 } else { 1 })
            }
            None => (bytes.len(), bytes.len()),
        };
        let mut text = start;
        let mut indent = 0;
        while text < end {
            match bytes[text] {
                b' ' => indent += 1,
                b'\t' => indent = (indent / TAB_STOP + 1) * TAB_STOP,
                _ => break,
            }
            text += 1;
        }
        let trailing = bytes[text..end]
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
        lines.push(Line {
            start,
            text,
            end: end - trailing,
            indent,
        });
        start = next;
    }
    lines
}

/// A construct of inline markup found in a run of text.
struct Inline {
    /// Its first byte (a role's `:`, or the opening backquote).
    start: usize,
    /// Its text between the backquotes.
    content: Span,
    /// One past its last byte (closing backquote, `_`, `__` or role).
    end: usize,
    /// What it is.
    kind: InlineKind,
}

/// The kinds of backquoted inline markup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum InlineKind {
    /// ``` ``code`` ```.
    Literal,
    /// `` `text` ``, `` :role:`text` ``, `` `text`:role: ``.
    Interpreted,
    /// `` `text`_ `` or `` `text`__ ``, perhaps with an embedded URI.
    Reference,
}

/// The walk over the lines.
struct Reader<'s> {
    source: &'s str,
    lines: Vec<Line>,
    verbatim: bool,
    prose: ProseBuilder<'s>,
    links: Vec<Link>,
    /// The border bytes of the grid table being read, ascending: blanks
    /// between cell text, never part of it.
    borders: Vec<usize>,
    /// Per kind of opening ([`CloseKind`]), where a search of the current
    /// run found no closing backquotes: a later opening of that kind finds
    /// none either, since whether backquotes close does not depend on where
    /// the markup opened. Keeps a run full of lone backquotes linear.
    no_close_after: [usize; 3],
    /// The prose spans of literal blocks read as verbatim text.
    plain_text_blocks: Vec<Span>,
    /// The first `raw:: html` directive that left something open at its end.
    unclosed: Option<Unclosed>,
}

/// The kinds of search for closing backquotes, as indices.
#[derive(Debug, Clone, Copy)]
enum CloseKind {
    /// ``` `` ``` of an inline literal.
    Literal = 0,
    /// `` ` `` of interpreted text or a reference.
    Plain = 1,
    /// `` ` `` after a role, which no reference suffix may follow.
    Role = 2,
}

impl<'s> Reader<'s> {
    /// Read every block of the document.
    fn read(&mut self) {
        let mut at = 0;
        while at < self.lines.len() {
            let line = self.lines[at];
            at = if line.is_blank() {
                at + 1
            } else if is_grid_border(&self.bytes()[line.text..line.end]) {
                self.grid_table(at)
            } else if self.is_explicit(line) {
                self.explicit(at)
            } else {
                self.text_block(at, line.text, None)
            };
        }
    }

    /// The source as bytes, for the byte-wise tests of the syntax.
    fn bytes(&self) -> &'s [u8] {
        self.source.as_bytes()
    }

    /// True when `line` starts an explicit markup block: `..` followed by
    /// whitespace or nothing.
    fn is_explicit(&self, line: Line) -> bool {
        let text = &self.bytes()[line.text..line.end];
        text.starts_with(b"..") && text.get(2).is_none_or(|&b| b == b' ' || b == b'\t')
    }

    /// The first line from `from` on that is not blank and is indented no
    /// more than `indent`: where a block indented past `indent` ends.
    fn indented_end(&self, from: usize, indent: usize) -> usize {
        (from..self.lines.len())
            .find(|&at| !self.lines[at].is_blank() && self.lines[at].indent <= indent)
            .unwrap_or(self.lines.len())
    }

    /// The end of the last non-blank line of `from..to`.
    fn last_text_end(&self, from: usize, to: usize) -> Option<usize> {
        self.lines[from..to]
            .iter()
            .rev()
            .find(|line| !line.is_blank())
            .map(|line| line.end)
    }

    /// Source bytes that are verbatim text: prose only when it is wanted.
    fn verbatim(&mut self, span: Span) {
        if self.verbatim && span.start < span.end {
            self.copy_prose(span);
        }
    }

    /// A grid table whose top border is line `at`, up to a blank line: its
    /// cell text is read as one run in which the borders (`|` at the top
    /// border's `+` columns, and separator lines) are blanks, so that a
    /// reference wrapped inside a cell is read whole. Returns the line
    /// after it.
    fn grid_table(&mut self, at: usize) -> usize {
        let top = self.lines[at];
        let columns: Vec<usize> = self.source[top.text..top.end]
            .char_indices()
            .filter(|&(_, c)| c == '+')
            .map(|(column, _)| column)
            .collect();
        let mut end = at;
        let mut borders = Vec::new();
        while let Some(&line) = self.lines.get(end) {
            let first = self.bytes().get(line.text).copied();
            if line.is_blank() || !matches!(first, Some(b'+' | b'|')) {
                break;
            }
            if first == Some(b'+') {
                borders.extend(line.text..line.end);
            } else {
                let cells = self.source[line.text..line.end].char_indices();
                for (column, (offset, c)) in cells.enumerate() {
                    if matches!(c, '|' | '+') && columns.binary_search(&column).is_ok() {
                        borders.push(line.text + offset);
                    }
                }
            }
            end += 1;
        }
        self.borders = borders;
        let last = self.lines[end - 1];
        self.inline(Span::new(top.text, last.end));
        self.borders.clear();
        end
    }

    /// True for a blank byte of the text being read: whitespace, or a grid
    /// table's border.
    fn is_blank_at(&self, at: usize) -> bool {
        self.bytes().get(at).is_none_or(u8::is_ascii_whitespace)
            || (!self.borders.is_empty() && self.borders.binary_search(&at).is_ok())
    }

    /// Source bytes `span` as prose, a grid table's borders blanked.
    fn copy_prose(&mut self, span: Span) {
        let mut start = span.start;
        if !self.borders.is_empty() {
            let first = self.borders.partition_point(|&border| border < span.start);
            let inside = self.borders[first..]
                .iter()
                .take_while(|&&border| border < span.end)
                .count();
            for index in first..first + inside {
                let border = self.borders[index];
                self.prose.copy(Span::new(start, border));
                start = border + 1;
            }
        }
        self.prose.copy(Span::new(start.min(span.end), span.end));
    }

    /// `span` without a grid table's borders, in pieces.
    fn without_borders(&self, span: Span) -> Vec<Span> {
        let mut pieces = Vec::new();
        let mut start = span.start;
        for at in span.range() {
            if !self.borders.is_empty() && self.borders.binary_search(&at).is_ok() {
                pieces.push(Span::new(start, at));
                start = at + 1;
            }
        }
        pieces.push(Span::new(start, span.end));
        pieces
    }

    /// A paragraph-like block starting at line `at`, its text from byte
    /// `from`: the lines up to a blank line, an explicit markup start or,
    /// when it is the body of explicit markup indented by `within`, a line
    /// indented no more than that. Returns the line after it, or after the
    /// literal block it opens.
    fn text_block(&mut self, at: usize, from: usize, within: Option<usize>) -> usize {
        let first = self.lines[at];
        let text = &self.bytes()[from..first.end];
        if from == first.text && (text == b"__" || text.starts_with(b"__ ")) {
            return self.target(at, from + 2);
        }
        let mut end = at + 1;
        while let Some(&line) = self.lines.get(end) {
            let outside = within.is_some_and(|indent| line.indent <= indent);
            if line.is_blank() || outside || self.is_explicit(line) {
                break;
            }
            end += 1;
        }
        let last = self.lines[end - 1];
        let run = Span::new(from, last.end);
        if from == first.text && is_doctest(text) {
            self.verbatim(run);
            return end;
        }
        self.inline(run);
        let ended_by_blank = self.lines.get(end).is_none_or(Line::is_blank);
        let marked = ends_with_literal_marker(&self.bytes()[last.text.max(from)..last.end]);
        if !(ended_by_blank && marked) {
            return end;
        }
        let marker = list_marker_width(&self.source[last.text.max(from)..last.end]);
        self.literal_block(end, last.indent + marker)
    }

    /// The literal block a paragraph ending in `::` opens, at or after line
    /// `from`: indented past `base`, or quoted (every line starting with
    /// the same punctuation at `base`). Returns the line after it.
    fn literal_block(&mut self, from: usize, base: usize) -> usize {
        let Some(start) = (from..self.lines.len()).find(|&at| !self.lines[at].is_blank()) else {
            return self.lines.len();
        };
        let first = self.lines[start];
        let end = if first.indent > base {
            self.indented_end(start, base)
        } else {
            let quote = self.bytes()[first.text];
            if first.indent < base || !quote.is_ascii_punctuation() {
                return start;
            }
            (start..self.lines.len())
                .find(|&at| {
                    let line = self.lines[at];
                    line.is_blank() || line.indent != base || self.bytes()[line.text] != quote
                })
                .unwrap_or(self.lines.len())
        };
        if let Some(text_end) = self.last_text_end(start, end) {
            let block = Span::new(first.text, text_end);
            self.verbatim(block);
            // A literal block is plain text laid out in lines.
            if self.verbatim {
                self.plain_text_blocks.extend(self.prose.copied_at(block));
            }
        }
        end
    }

    /// An explicit markup block at line `at`: a hyperlink target, a
    /// footnote or citation, a directive (perhaps in a substitution
    /// definition) or a comment. Returns the line after what it read.
    fn explicit(&mut self, at: usize) -> usize {
        let line = self.lines[at];
        let after = skip_blanks(self.bytes(), line.text + 2, line.end);
        let rest = &self.source[after..line.end];
        if rest.is_empty() {
            // An empty comment followed by a blank line holds nothing: the
            // indented text after it is a block quote.
            if self.lines.get(at + 1).is_none_or(Line::is_blank) {
                return at + 1;
            }
        } else if let Some(uri) = target_uri_start(rest) {
            return self.target(at, after + uri);
        } else if let Some(body) = footnote_body_start(rest) {
            return self.text_block(at, after + body, Some(line.indent));
        } else if let Some((name, arguments)) = substitution_directive(rest) {
            return self.directive(at, name, after + arguments);
        } else if let Some((name, arguments)) = directive(rest) {
            return self.directive(at, name, after + arguments);
        }
        let end = self.indented_end(at + 1, line.indent);
        if let Some(text_end) = self.last_text_end(at, end) {
            self.verbatim(Span::new(after, text_end));
        }
        end
    }

    /// The directive `name` at line `at`, its arguments from byte
    /// `arguments`. Code takes its whole block; the body of any other
    /// directive is read as the text it is.
    fn directive(&mut self, at: usize, name: &str, arguments: usize) -> usize {
        let kind = name.rsplit(':').next().unwrap_or(name).to_ascii_lowercase();
        let line = self.lines[at];
        let html = kind == "raw" && is_html_format(&self.source[arguments..line.end]);
        if html || CODE_DIRECTIVES.contains(&kind.as_str()) {
            let end = self.indented_end(at + 1, line.indent);
            if html {
                self.raw_html(at, end);
            } else if let Some(text_end) = self.last_text_end(at, end) {
                self.verbatim(Span::new(arguments, text_end));
            }
            return end;
        }
        if IMAGE_DIRECTIVES.contains(&kind.as_str()) {
            return self.image(at, arguments);
        }
        self.text_block(at, arguments, Some(line.indent))
    }

    /// The content of a `raw:: html` directive, after its options, read as
    /// HTML.
    fn raw_html(&mut self, at: usize, end: usize) {
        let Some(blank) = (at + 1..end).find(|&k| self.lines[k].is_blank()) else {
            return;
        };
        let Some(first) = (blank..end).find(|&k| !self.lines[k].is_blank()) else {
            return;
        };
        let Some(text_end) = self.last_text_end(first, end) else {
            return;
        };
        let span = Span::new(self.lines[first].start, text_end);
        let map = OffsetMap::identity(span);
        let source = self.source;
        let fragment = &source[span.range()];
        let unclosed = html::fragment(
            fragment,
            &map,
            self.verbatim,
            &mut self.prose,
            &mut self.links,
        );
        self.unclosed = self.unclosed.or(unclosed);
    }

    /// An image or figure directive: its URI (the argument, continued on
    /// the lines before its options), and its options, of which `:target:`
    /// is a link; the others (`:alt:` text too, like a Markdown image's) are
    /// not prose. A figure's caption and legend after them are read as any
    /// other text.
    fn image(&mut self, at: usize, arguments: usize) -> usize {
        let indent = self.lines[at].indent;
        let inside = |line: &&Line| !line.is_blank() && line.indent > indent;
        let mut uri = vec![Span::new(arguments, self.lines[at].end)];
        let mut next = at + 1;
        while let Some(line) = self.lines.get(next).filter(inside) {
            if self.bytes()[line.text] == b':' {
                break;
            }
            uri.push(Span::new(line.text, line.end));
            next += 1;
        }
        self.push_uri(&uri, None);
        while let Some(&option) = self.lines.get(next).filter(inside) {
            let Some((name, value)) = field_marker(&self.source[option.text..option.end]) else {
                break;
            };
            let mut value_lines = vec![Span::new(option.text + value, option.end)];
            next += 1;
            while let Some(line) = self.lines.get(next) {
                if line.is_blank() || line.indent <= option.indent {
                    break;
                }
                value_lines.push(Span::new(line.text, line.end));
                next += 1;
            }
            if name == "target" {
                self.push_uri(&value_lines, None);
            }
        }
        next
    }

    /// A hyperlink target at line `at` whose URI starts at byte `uri` and
    /// may continue on the indented lines up to a blank line. Returns the
    /// line after it.
    fn target(&mut self, at: usize, uri: usize) -> usize {
        let indent = self.lines[at].indent;
        let mut spans = vec![Span::new(uri, self.lines[at].end)];
        let mut next = at + 1;
        while let Some(line) = self.lines.get(next) {
            if line.is_blank() || line.indent <= indent {
                break;
            }
            spans.push(Span::new(line.text, line.end));
            next += 1;
        }
        self.push_uri(&spans, None);
        next
    }

    /// The URI written over `spans`, whitespace removed and escapes
    /// decoded, as a link; nothing when it is empty or a reference name
    /// (ends with an unescaped `_`). `outer` is the whole match when the
    /// URI has delimiters.
    fn push_uri(&mut self, spans: &[Span], outer: Option<Span>) {
        let value = uri_value(self.source, spans);
        let escaped_end = value.map.pieces().last().is_some_and(|piece| !piece.exact);
        if value.text.is_empty() || (is_reference_name(&value.text) && !escaped_end) {
            return;
        }
        let mut link = value.into_link(LinkSyntax::Rst);
        if let Some(outer) = outer {
            link.outer = outer;
        }
        self.links.push(link);
    }

    /// Read a run of text: prose, but for backquoted inline markup (not
    /// prose; interpreted text and inline literals verbatim), embedded
    /// URIs (links) and backslash escapes (decoded).
    fn inline(&mut self, run: Span) {
        self.no_close_after = [usize::MAX; 3];
        let mut copied = run.start;
        let mut at = run.start;
        while let Some(found) = memchr2(b'`', b'\\', &self.bytes()[at..run.end]) {
            let here = at + found;
            if self.bytes()[here] == b'\\' {
                at = self.escape(here, run.end, &mut copied);
                continue;
            }
            let Some(markup) = self.inline_markup(here, run) else {
                at = here
                    + 1
                    + self.bytes()[here + 1..run.end]
                        .iter()
                        .take_while(|&&b| b == b'`')
                        .count();
                continue;
            };
            self.copy_prose(Span::new(copied, markup.start.max(copied)));
            match markup.kind {
                InlineKind::Literal | InlineKind::Interpreted => self.verbatim(markup.content),
                InlineKind::Reference => {
                    if let Some(angle) = self.embedded_uri(markup.content) {
                        let inner = Span::new(angle.start + 1, angle.end - 1);
                        let pieces = self.without_borders(inner);
                        self.push_uri(&pieces, Some(angle));
                    }
                }
            }
            copied = markup.end;
            at = markup.end;
        }
        self.copy_prose(Span::new(copied, run.end));
    }

    /// A backslash at `at`: an escaped punctuation character is prose of
    /// its own, an escaped space is nothing, and other backslashes stay.
    /// Returns where to read on.
    fn escape(&mut self, at: usize, end: usize, copied: &mut usize) -> usize {
        let Some(next) = self.source[at + 1..end].chars().next() else {
            return at + 1;
        };
        if next.is_ascii_punctuation() {
            self.copy_prose(Span::new(*copied, at));
            let raw = Span::new(at, at + 2);
            self.prose.decoded(&self.source[at + 1..at + 2], raw);
            *copied = at + 2;
            return at + 2;
        }
        if next == ' ' || next == '\t' {
            self.copy_prose(Span::new(*copied, at));
            *copied = at + 2;
            return at + 2;
        }
        at + 1
    }

    /// The backquoted inline markup whose first backquote is at `at`, if
    /// the markup is well formed there (start- and end-strings where the
    /// specification's recognition rules allow them).
    fn inline_markup(&mut self, at: usize, run: Span) -> Option<Inline> {
        let bytes = self.bytes();
        if bytes.get(at + 1) == Some(&b'`') {
            return self.inline_literal(at, run);
        }
        let role = (at > run.start && bytes[at - 1] == b':')
            .then(|| role_start(bytes, at - 1, run.start))
            .flatten();
        let start = role.unwrap_or(at);
        if !self.opens_markup(start, run.start) {
            return None;
        }
        if at + 1 >= run.end || self.is_blank_at(at + 1) {
            return None;
        }
        let search = if role.is_some() {
            CloseKind::Role
        } else {
            CloseKind::Plain
        };
        if at >= self.no_close_after[search as usize] {
            return None;
        }
        let mut from = at + 1;
        loop {
            let Some(found) = memchr(b'`', &bytes[from..run.end]) else {
                self.no_close_after[search as usize] = at;
                return None;
            };
            let close = from + found;
            let after = close + 1;
            from = after;
            if bytes[close - 1] == b'\\' || self.is_blank_at(close - 1) {
                continue;
            }
            if bytes.get(after) == Some(&b'`') {
                from = after + 1;
                continue;
            }
            let (kind, end) = match bytes.get(after) {
                Some(b'_') if role.is_none() => {
                    let anonymous = bytes.get(after + 1) == Some(&b'_');
                    (InlineKind::Reference, after + 1 + usize::from(anonymous))
                }
                Some(b':') if role.is_none() => (
                    InlineKind::Interpreted,
                    role_end(bytes, after, run.end).unwrap_or(after),
                ),
                _ => (InlineKind::Interpreted, after),
            };
            if self.closes_markup(end, run.end) {
                return Some(Inline {
                    start,
                    content: Span::new(at + 1, close),
                    end,
                    kind,
                });
            }
        }
    }

    /// The inline literal whose ``` `` ``` starts at `at`.
    fn inline_literal(&mut self, at: usize, run: Span) -> Option<Inline> {
        let bytes = self.bytes();
        let content = at + 2;
        if !self.opens_markup(at, run.start) || content >= run.end || self.is_blank_at(content) {
            return None;
        }
        if at >= self.no_close_after[CloseKind::Literal as usize] {
            return None;
        }
        let mut from = content;
        loop {
            let Some(found) = memmem::find(&bytes[from..run.end], b"``") else {
                self.no_close_after[CloseKind::Literal as usize] = at;
                return None;
            };
            let close = from + found;
            from = close + 1;
            if close > content
                && !self.is_blank_at(close - 1)
                && self.closes_markup(close + 2, run.end)
            {
                return Some(Inline {
                    start: at,
                    content: Span::new(content, close),
                    end: close + 2,
                    kind: InlineKind::Literal,
                });
            }
        }
    }

    /// The embedded URI of a reference whose text is `content`: the `<...>`
    /// that ends it, after a blank or alone; a `<` escaped with a backslash
    /// is part of the URI.
    fn embedded_uri(&self, content: Span) -> Option<Span> {
        let text = &self.bytes()[content.range()];
        if text.last() != Some(&b'>') || text.get(text.len().wrapping_sub(2)) == Some(&b'\\') {
            return None;
        }
        let mut open = text.len() - 1;
        loop {
            open = memchr::memrchr(b'<', &text[..open])?;
            if open == 0 || text[open - 1] != b'\\' {
                break;
            }
        }
        let separated = open == 0 || self.is_blank_at(content.start + open - 1);
        let inside = &text[open + 1..text.len() - 1];
        (separated && !inside.is_empty()).then(|| Span::new(content.start + open, content.end))
    }

    /// True when inline markup may start at `at`: after whitespace, an
    /// opening bracket, a quote or other punctuation, or at the run's start.
    fn opens_markup(&self, at: usize, run_start: usize) -> bool {
        if at == run_start || self.is_blank_at(at - 1) {
            return true;
        }
        match self.source[..at].chars().next_back() {
            Some(c) if c.is_ascii() => {
                c.is_ascii_whitespace()
                    || matches!(c, '\'' | '"' | '(' | '[' | '{' | '<' | '-' | '/' | ':')
            }
            Some(c) => !c.is_alphanumeric(),
            None => true,
        }
    }

    /// True when inline markup may end before `at`: before whitespace, a
    /// closing bracket, a quote or sentence punctuation, or at the run's end.
    fn closes_markup(&self, at: usize, run_end: usize) -> bool {
        if at >= run_end || self.is_blank_at(at) {
            return true;
        }
        match self.source[at..].chars().next() {
            Some(c) if c.is_ascii() => {
                c.is_ascii_whitespace()
                    || matches!(
                        c,
                        '\'' | '"'
                            | ')'
                            | ']'
                            | '}'
                            | '>'
                            | '-'
                            | '/'
                            | ':'
                            | '.'
                            | ','
                            | ';'
                            | '!'
                            | '?'
                            | '\\'
                    )
            }
            Some(c) => !c.is_alphanumeric(),
            None => true,
        }
    }
}

/// True for a grid table's top border: `+`, then runs of `-` each closed
/// by `+`.
fn is_grid_border(text: &[u8]) -> bool {
    text.len() > 2
        && text.starts_with(b"+-")
        && text.ends_with(b"+")
        && text.iter().all(|&b| b == b'+' || b == b'-')
}

/// True for text that opens a doctest block: `>>>` and a space, or alone.
fn is_doctest(text: &[u8]) -> bool {
    text.strip_prefix(b">>>")
        .is_some_and(|rest| rest.is_empty() || rest[0] == b' ' || rest[0] == b'\t')
}

/// True when a paragraph's last line `text` ends with `::`, which makes
/// the next block a literal block; a title adornment of colons does not.
fn ends_with_literal_marker(text: &[u8]) -> bool {
    text.ends_with(b"::") && !(text.len() > 2 && text.iter().all(|&b| b == b':'))
}

/// The width of the bullet or enumerator opening `text` with the blanks
/// after it (`- `, `12. `, `(a) `, `#. `); 0 when none does. A literal
/// block in a list item is indented past the item's text.
fn list_marker_width(text: &str) -> usize {
    let (len, width) = match text.chars().next() {
        Some(bullet @ ('-' | '*' | '+' | '\u{2022}' | '\u{2023}' | '\u{2043}')) => {
            (bullet.len_utf8(), 1)
        }
        _ => {
            let bytes = text.as_bytes();
            let open = usize::from(bytes.first() == Some(&b'('));
            let digits = bytes[open..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let label = if digits > 0 {
                digits
            } else {
                usize::from(
                    bytes
                        .get(open)
                        .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'#'),
                )
            };
            let close = match bytes.get(open + label) {
                Some(b')') if label > 0 => 1,
                Some(b'.') if label > 0 && open == 0 => 1,
                _ => return 0,
            };
            (open + label + close, open + label + close)
        }
    };
    let blanks = text[len..].bytes().take_while(|&b| b == b' ').count();
    if blanks == 0 && len < text.len() {
        return 0;
    }
    width + blanks
}

/// The index of `bytes[at..end]`'s first non-blank byte, or `end`.
fn skip_blanks(bytes: &[u8], mut at: usize, end: usize) -> usize {
    while at < end && matches!(bytes[at], b' ' | b'\t') {
        at += 1;
    }
    at
}

/// Where the URI of a hyperlink target starts in `rest` (the text after
/// `.. `): after `_name:`, `` _`name`: `` or `__:`.
fn target_uri_start(rest: &str) -> Option<usize> {
    let bytes = rest.as_bytes();
    if bytes.first() != Some(&b'_') {
        return None;
    }
    let colon = if bytes.starts_with(b"__:") {
        2
    } else if bytes.get(1) == Some(&b'`') {
        let close = 2 + unescaped(&bytes[2..], b'`')?;
        (bytes.get(close + 1) == Some(&b':')).then_some(close + 1)?
    } else {
        let colon = 1 + unescaped(&bytes[1..], b':')?;
        (colon > 1).then_some(colon)?
    };
    let after = colon + 1;
    bytes
        .get(after)
        .is_none_or(|&b| b == b' ' || b == b'\t')
        .then_some(after)
}

/// The index of the first `wanted` in `bytes` not escaped by a backslash.
fn unescaped(bytes: &[u8], wanted: u8) -> Option<usize> {
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b if b == wanted => return Some(at),
            _ => at += 1,
        }
    }
    None
}

/// Where the body of a footnote or citation starts in `rest` (the text
/// after `.. `): after `[label]` and a blank.
fn footnote_body_start(rest: &str) -> Option<usize> {
    let bytes = rest.as_bytes();
    if bytes.first() != Some(&b'[') {
        return None;
    }
    let close = memchr(b']', bytes)?;
    let label = &bytes[1..close];
    let valid = !label.is_empty() && !label.iter().any(u8::is_ascii_whitespace);
    let separated = bytes
        .get(close + 1)
        .is_none_or(|&b| b == b' ' || b == b'\t');
    (valid && separated).then_some(close + 1)
}

/// The directive name and where its arguments start in `rest` (the text
/// after `.. `), for `name:: arguments`.
fn directive(rest: &str) -> Option<(&str, usize)> {
    let marker = rest.find("::")?;
    let name = &rest[..marker];
    let mut chars = name.chars();
    let valid = chars.next().is_some_and(char::is_alphanumeric)
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | '+'))
        && !name.ends_with(':');
    let after = marker + 2;
    let separated = rest
        .as_bytes()
        .get(after)
        .is_none_or(|&b| b == b' ' || b == b'\t');
    (valid && separated).then_some((name, after))
}

/// The directive of a substitution definition `|text| name:: arguments`
/// in `rest` (the text after `.. `), and where its arguments start.
fn substitution_directive(rest: &str) -> Option<(&str, usize)> {
    let inner = rest.strip_prefix('|')?;
    let close = inner.find("| ").or_else(|| inner.find("|\t"))?;
    if close == 0 {
        return None;
    }
    let after = 1 + close + 1;
    let start = after + (rest.len() - after - rest[after..].trim_start().len());
    let (name, arguments) = directive(&rest[start..])?;
    Some((name, start + arguments))
}

/// The field marker `:name:` opening `text` (a directive option), with
/// where its value starts.
fn field_marker(text: &str) -> Option<(&str, usize)> {
    let inner = text.strip_prefix(':')?;
    let close = inner.find(':')?;
    let name = &inner[..close];
    let after = close + 2;
    let separated = text
        .as_bytes()
        .get(after)
        .is_none_or(|&b| b == b' ' || b == b'\t');
    (!name.is_empty() && separated)
        .then_some((name, skip_blanks(text.as_bytes(), after, text.len())))
}

/// True when a `raw` directive's arguments name HTML among its formats.
fn is_html_format(arguments: &str) -> bool {
    arguments
        .split_whitespace()
        .any(|format| format.eq_ignore_ascii_case("html"))
}

/// Where the role whose closing `:` is at `colon` starts (`:name:` before
/// a backquote), when a role name is there.
fn role_start(bytes: &[u8], colon: usize, run_start: usize) -> Option<usize> {
    let mut start = colon;
    while start > run_start && is_role_byte(bytes[start - 1]) {
        start -= 1;
    }
    let open = start + memchr(b':', &bytes[start..colon])?;
    let name = &bytes[open + 1..colon];
    name.first()
        .is_some_and(u8::is_ascii_alphanumeric)
        .then_some(open)
}

/// Where the role after interpreted text ends (`` `text`:name: ``), given
/// the `:` at `colon`.
fn role_end(bytes: &[u8], colon: usize, run_end: usize) -> Option<usize> {
    let mut end = colon + 1;
    while end < run_end && is_role_byte(bytes[end]) {
        end += 1;
    }
    let close = colon + 1 + memchr::memrchr(b':', &bytes[colon + 1..end])?;
    (close > colon + 1).then_some(close + 1)
}

/// True for a byte a role name may hold (`py:func`, `rst:dir`).
fn is_role_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'+' | b':')
}

/// True for `name_` or `` `phrase`_ ``: a reference to another target
/// where a URI could stand (an indirect target, an embedded alias).
fn is_reference_name(text: &str) -> bool {
    let Some(name) = text.strip_suffix('_') else {
        return false;
    };
    if name.len() >= 2 && name.starts_with('`') && name.ends_with('`') {
        return true;
    }
    let mut after_mark = true;
    for c in name.chars() {
        if c.is_alphanumeric() {
            after_mark = false;
        } else if matches!(c, '-' | '.' | '_' | '+' | ':') && !after_mark {
            after_mark = true;
        } else {
            return false;
        }
    }
    !after_mark
}

/// The URI written over `spans` of `source`: whitespace removed, escaped
/// whitespace removed, other escapes decoded.
fn uri_value(source: &str, spans: &[Span]) -> Decoded {
    let bytes = source.as_bytes();
    let mut decoded = Decoded::default();
    let copy = |decoded: &mut Decoded, raw: Span| {
        if raw.start < raw.end {
            let at = decoded.text.len();
            decoded.text.push_str(&source[raw.range()]);
            decoded
                .map
                .push(Span::new(at, decoded.text.len()), raw, true);
        }
    };
    for span in spans {
        let mut run = span.start;
        let mut at = span.start;
        while at < span.end {
            let byte = bytes[at];
            if byte.is_ascii_whitespace() {
                copy(&mut decoded, Span::new(run, at));
                at += 1;
                run = at;
            } else if byte == b'\\' {
                copy(&mut decoded, Span::new(run, at));
                let escaped = source[at + 1..span.end].chars().next();
                let after = at + 1 + escaped.map_or(0, char::len_utf8);
                if let Some(escaped) = escaped.filter(|c| !c.is_whitespace()) {
                    let text_at = decoded.text.len();
                    decoded.text.push(escaped);
                    decoded.map.push(
                        Span::new(text_at, decoded.text.len()),
                        Span::new(at, after),
                        false,
                    );
                }
                at = after;
                run = at;
            } else {
                at += 1;
            }
        }
        copy(&mut decoded, Span::new(run, span.end));
    }
    decoded
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each link's value and the source bytes its map covers.
    fn links(source: &str) -> Vec<(String, &str)> {
        document(source, false)
            .links
            .iter()
            .map(|link| (link.value.clone(), &source[link.outer.range()]))
            .collect()
    }

    /// The prose's words: what the scanner gets to read.
    fn words(source: &str, verbatim: bool) -> Vec<String> {
        let document = document(source, verbatim);
        assert_eq!(document.prose.len(), source.len(), "prose keeps offsets");
        document
            .prose
            .split_whitespace()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn rst_explicit_markup_opening_a_line_tells_rst_from_free_text() {
        let cases: &[(&str, bool)] = &[
            ("Title\n=====\n\n.. note::\n\n   Read this.\n", true),
            (".. code-block:: python\n\n    x = 1\n", true),
            (".. sourcecode:: pycon\r\n", true),
            (".. py:function:: f(x)\n", true),
            ("See the site_.\n\n.. _site: https://docs.example/\n", true),
            (".. _`the site`: https://docs.example/\n", true),
            (".. __: https://docs.example/\n", true),
            (".. _internal-target:\n\nText.\n", true),
            (".. |logo| image:: https://img.example/logo.png\n", true),
            ("\u{feff}.. contents::\n", true),
            (".. \t_site: https://docs.example/\n", true),
            // Free text: two dots opening a line, a comment, a footnote,
            // markup that does not open its line, a name with a space.
            ("Network Working Group\n\n   1. Introduction\n", false),
            (".. and so on, as above.\n", false),
            (".. [1] A footnote that plain text could write.\n", false),
            ("   .. note:: indented, as a quoted example\n", false),
            ("text .. note:: inside a line\n", false),
            (".. see also:: https://docs.example/\n", false),
            (".. note::that runs on\n", false),
            ("", false),
        ];
        for &(head, rst) in cases {
            assert_eq!(looks_like_rst(head.as_bytes()), rst, "{head:?}");
        }
        // A head cut inside a character still finds the markup before it.
        let mut cut = b".. note::\n\nCaf".to_vec();
        cut.push(0xC3);
        assert!(looks_like_rst(&cut));
        assert!(!looks_like_rst(b".. \xC3"));
    }

    #[test]
    fn rst_literal_blocks_after_double_colon_are_verbatim() {
        let cases: &[(&str, &str, &[&str])] = &[
            (
                "paragraph ending in ::",
                "Install it::\n\n    pip install http://code.example/x\n\nThen http://after.example/\n",
                &["Install", "it::", "Then", "http://after.example/"],
            ),
            (
                "expanded form, several blank-separated chunks",
                "Text.\n\n::\n\n  http://a.example/\n\n  http://b.example/\n\nhttp://c.example/\n",
                &["Text.", "::", "http://c.example/"],
            ),
            (
                "quoted literal block",
                "Mail::\n\n> http://quoted.example/\n> more\n\nhttp://d.example/\n",
                &["Mail::", "http://d.example/"],
            ),
            (
                "in a list item, indented past the item's text",
                "- Run::\n\n    curl http://e.example/\n\n- http://f.example/\n",
                &["-", "Run::", "-", "http://f.example/"],
            ),
            (
                "no blank line: a definition list, not a literal block",
                "Term::\n    http://g.example/\n",
                &["Term::", "http://g.example/"],
            ),
            (
                "next block not indented: no literal block",
                "Note::\n\nhttp://h.example/\n",
                &["Note::", "http://h.example/"],
            ),
            (
                "a title adorned with colons",
                "Title\n:::::\n\n    http://i.example/\n",
                &["Title", ":::::", "http://i.example/"],
            ),
        ];
        for (name, source, expected) in cases {
            assert_eq!(words(source, false), *expected, "{name}");
        }
        let verbatim = words(cases[0].1, true);
        assert!(verbatim.contains(&"http://code.example/x".to_string()));
    }

    #[test]
    fn rst_doctest_blocks_are_verbatim() {
        let source = "Use it:\n\n>>> get('http://doc.example/')\n'http://out.example/'\n\nhttp://t.example/\n";
        assert_eq!(words(source, false), ["Use", "it:", "http://t.example/"]);
        assert!(words(source, true).contains(&"'http://out.example/'".to_string()));
    }

    #[test]
    fn rst_code_directives_are_verbatim_and_other_directives_are_text() {
        let source = "\
.. code-block:: python
   :caption: http://caption.example/

   get('http://code.example/')

.. sourcecode:: text

   http://src.example/

.. py:function:: fetch(url)

   Fetches http://doc.example/ for you.

.. note:: See http://note.example/ and ``http://lit.example/``.

after http://after.example/
";
        assert_eq!(
            words(source, false),
            [
                "fetch(url)",
                "Fetches",
                "http://doc.example/",
                "for",
                "you.",
                "See",
                "http://note.example/",
                "and",
                ".",
                "after",
                "http://after.example/"
            ]
        );
        let verbatim = words(source, true);
        for code in [
            "http://caption.example/",
            "get('http://code.example/')",
            "http://src.example/",
            "http://lit.example/",
        ] {
            assert!(verbatim.contains(&code.to_string()), "{code}");
        }
    }

    #[test]
    fn rst_comments_hold_their_indented_block_but_an_empty_comment_does_not() {
        let source = "\
.. Licensed under http://license.example/
   and http://notice.example/

.. this comment

   goes on http://still.example/

..

   A block quote with http://quote.example/

..
   comment http://comment.example/
";
        assert_eq!(
            words(source, false),
            ["A", "block", "quote", "with", "http://quote.example/"]
        );
        assert!(words(source, true).contains(&"http://still.example/".to_string()));
    }

    #[test]
    fn rst_hyperlink_targets_are_links_on_their_exact_bytes() {
        let source = "\
.. _Python: https://www.python.example/
.. _`a phrase: with colon`: https://phrase.example/a
.. __: https://anonymous.example/
__ https://short.example/
.. _continued:
   https://long.example/a/
   b/c
.. _indirect: Python_
.. _internal:
.. _escaped: https://esc.example/x\\_
";
        assert_eq!(
            links(source),
            [
                (
                    "https://www.python.example/".to_string(),
                    "https://www.python.example/"
                ),
                (
                    "https://phrase.example/a".to_string(),
                    "https://phrase.example/a"
                ),
                (
                    "https://anonymous.example/".to_string(),
                    "https://anonymous.example/"
                ),
                (
                    "https://short.example/".to_string(),
                    "https://short.example/"
                ),
                (
                    "https://long.example/a/b/c".to_string(),
                    "https://long.example/a/\n   b/c"
                ),
                (
                    "https://esc.example/x_".to_string(),
                    "https://esc.example/x\\_"
                ),
            ]
        );
        assert!(document(source, false).prose.trim().is_empty());
    }

    #[test]
    fn rst_embedded_uris_are_links_and_reference_text_is_not_prose() {
        let source = "See `the docs <https://docs.example/a>`_, `<https://self.example/>`__ \
                      and `a wrapped\n   link <https://wrap.example/a\n   /b>`_; \
                      `alias <Python_>`_ and `Python`_ are names, \
                      `escaped <https://lt.example/\\<x\\>>`_ is not.\n";
        assert_eq!(
            links(source),
            [
                (
                    "https://docs.example/a".to_string(),
                    "<https://docs.example/a>"
                ),
                (
                    "https://self.example/".to_string(),
                    "<https://self.example/>"
                ),
                (
                    "https://wrap.example/a/b".to_string(),
                    "<https://wrap.example/a\n   /b>"
                ),
                (
                    "https://lt.example/<x>".to_string(),
                    "<https://lt.example/\\<x\\>>"
                ),
            ]
        );
        assert_eq!(
            words(source, false),
            ["See", ",", "and", ";", "and", "are", "names,", "is", "not."]
        );
        let document = document(source, false);
        let wrapped = &document.links[2];
        let slash = wrapped.value.rfind('/').expect("slash");
        let raw = wrapped.map.raw_span(Span::new(slash, slash + 1));
        assert_eq!(raw.map(|span| &source[span.range()]), Some("/"));
    }

    #[test]
    fn rst_inline_literals_and_interpreted_text_are_verbatim() {
        let source = "Use ``http://lit.example/`` or :code:`http://role.example/`, \
                      `http://title.example/`:title: and `http://default.example/`; \
                      not a``b`` nor ``  spaced``, but http://text.example/.\n";
        assert_eq!(
            words(source, false),
            [
                "Use",
                "or",
                ",",
                "and",
                ";",
                "not",
                "a``b``",
                "nor",
                "``",
                "spaced``,",
                "but",
                "http://text.example/."
            ]
        );
        let verbatim = words(source, true);
        for code in [
            "http://lit.example/",
            "http://role.example/",
            "http://title.example/",
            "http://default.example/",
        ] {
            assert!(verbatim.contains(&code.to_string()), "{code}");
        }
    }

    #[test]
    fn rst_escapes_are_decoded_in_prose() {
        let source = "see http://a.example/x\\_y\\ z now";
        let document = document(source, false);
        assert_eq!(document.prose, "see http://a.example/x_y  z now");
        let underscore = document.prose.find('_').expect("escaped");
        assert_eq!(
            document.map.raw_span(Span::new(underscore, underscore + 1)),
            Some(Span::new(22, 24))
        );
    }

    #[test]
    fn rst_image_and_figure_uris_and_targets_are_links() {
        let source = "\
.. image:: https://img.example/badge.svg
   :alt: build at http://alt.example/
   :target: https://ci.example/job

.. |pypi| image:: https://img.example/pypi.svg
   :target: https://pypi.example/p/

.. figure:: images/local.png
   :target: https://big.example/
             full.png

   Caption with http://caption.example/.
";
        assert_eq!(
            links(source),
            [
                (
                    "https://img.example/badge.svg".to_string(),
                    "https://img.example/badge.svg"
                ),
                (
                    "https://ci.example/job".to_string(),
                    "https://ci.example/job"
                ),
                (
                    "https://img.example/pypi.svg".to_string(),
                    "https://img.example/pypi.svg"
                ),
                (
                    "https://pypi.example/p/".to_string(),
                    "https://pypi.example/p/"
                ),
                ("images/local.png".to_string(), "images/local.png"),
                (
                    "https://big.example/full.png".to_string(),
                    "https://big.example/\n             full.png"
                ),
            ]
        );
        assert_eq!(
            words(source, false),
            ["Caption", "with", "http://caption.example/."]
        );
    }

    #[test]
    fn rst_footnotes_and_substitution_replacements_are_text() {
        let source = "\
.. [1] See http://footnote.example/.
.. [#note] And http://auto.example/
   on two lines.
__ https://anonymous.example/
.. |name| replace:: http://replace.example/
";
        let words = words(source, false);
        for url in [
            "http://footnote.example/.",
            "http://auto.example/",
            "http://replace.example/",
        ] {
            assert!(words.contains(&url.to_string()), "{url}");
        }
        assert_eq!(
            links(source),
            [(
                "https://anonymous.example/".to_string(),
                "https://anonymous.example/"
            )]
        );
    }

    #[test]
    fn rst_grid_table_cells_hold_references_wrapped_inside_them() {
        let source = "\
+------------+------------------------------+
| Old        | New                          |
+============+==============================+
| ``a.b``    | `client <https://h.example/a |
|            | /b/c>`_ and http://t.example |
+------------+------------------------------+
";
        assert_eq!(
            links(source),
            [(
                "https://h.example/a/b/c".to_string(),
                "<https://h.example/a |\n|            | /b/c>"
            )]
        );
        assert_eq!(
            words(source, false),
            ["Old", "New", "and", "http://t.example"]
        );
        let document = document(source, false);
        let slash = document.links[0].value.rfind('/').expect("slash");
        let raw = document.links[0].map.raw_span(Span::new(slash, slash + 1));
        assert_eq!(raw.map(|span| &source[span.range()]), Some("/"));
    }

    #[test]
    fn rst_raw_html_is_read_as_html() {
        let source = "\
.. raw:: html

   <p align=\"center\"><a href=\"https://raw.example/?a=1&amp;b=2\">http://text.example/</a></p>

.. raw:: latex

   \\url{http://latex.example/}
";
        assert_eq!(
            links(source),
            [(
                "https://raw.example/?a=1&b=2".to_string(),
                "https://raw.example/?a=1&amp;b=2"
            )]
        );
        assert_eq!(words(source, false), ["http://text.example/"]);
    }

    #[test]
    fn rst_nesting_follows_indentation() {
        let source = "\
.. note::

   In a note::

       http://nested-code.example/

   Back in the note: http://note.example/

* Item with a comment:

  .. http://item-comment.example/

  and text http://item.example/
";
        assert_eq!(
            words(source, false),
            [
                "In",
                "a",
                "note::",
                "Back",
                "in",
                "the",
                "note:",
                "http://note.example/",
                "*",
                "Item",
                "with",
                "a",
                "comment:",
                "and",
                "text",
                "http://item.example/"
            ]
        );
    }

    #[test]
    fn tabs_and_crlf_line_breaks_count_as_docutils_counts_them() {
        let source = "Code::\r\n\r\n\thttp://tab.example/\r\n\r\nText http://t.example/\r\n";
        assert_eq!(
            words(source, false),
            ["Code::", "Text", "http://t.example/"]
        );
        let lines = lines("a\r\n\tb\rc");
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[1].indent, TAB_STOP);
    }

    #[test]
    fn list_markers_set_a_literal_blocks_indentation() {
        for (text, width) in [
            ("- x::", 2),
            ("12. x::", 4),
            ("(a) x::", 4),
            ("#. x::", 3),
            ("\u{2022}  x::", 3),
            ("x::", 0),
            ("-x", 0),
            ("2000.x", 0),
        ] {
            assert_eq!(list_marker_width(text), width, "{text}");
        }
    }
}
