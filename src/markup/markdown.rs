//! Markdown read through pulldown-cmark (CommonMark with GitHub's tables,
//! strikethrough, task lists and footnotes): link and image destinations,
//! autolinks and reference definitions become links; paragraph and heading
//! text becomes prose; code is blanked unless verbatim text is wanted;
//! HTML blocks and inline HTML are read as HTML.
//!
//! Link text is not prose: like GitHub's autolinks, a URL written inside a
//! link's text is not a second link.

use std::cell::OnceCell;
use std::collections::HashMap;

use pulldown_cmark::{BrokenLink, CowStr, Event, LinkType, Options, Parser, Tag, TagEnd};
use unicase::UniCase;

use super::destination;
use super::document::{Document, Link, ProseBuilder};
use super::html;
use super::sections;
use super::unclosed::Unclosed;
use crate::offset_map::OffsetMap;
use crate::span::{line_break_len, Span};

/// Read a Markdown document; `verbatim` makes code spans and code blocks
/// prose too.
pub(crate) fn document(source: &str, verbatim: bool) -> Document {
    let whole = Stretch {
        span: Span::new(0, source.len()),
        empty_line: None,
    };
    read(source, &[whole], &Definitions::default(), verbatim).0
}

/// Read a Markdown document up to `part`'s [`Part::end`], the rest blanked,
/// as the whole document reads it: `None` when what follows may change
/// that, an HTML block that blank lines do not end being open where the
/// part ends.
pub(crate) fn document_part(source: &str, part: Part, verbatim: bool) -> Option<Document> {
    let run = Stretch {
        span: Span::new(0, part.end()),
        empty_line: Some(part.empty_line),
    };
    let (document, open) = read(source, &[run], &Definitions::default(), verbatim);
    (!open.html).then_some(document)
}

/// Read the `runs` of a Markdown document, each alone, the rest blanked:
/// `runs` are sections (starting at `starts`, [`super::sections`]) in
/// source order, adjacent ones joined. A run's links may use the
/// definitions of any section ([`Definitions`]). `None` when a run may
/// read otherwise alone than in the whole document: an HTML block that
/// blank lines do not end is open where one ends, or a code block where
/// one before the last does, or the definitions may not be read alike.
pub(crate) fn document_runs(
    source: &str,
    starts: &[usize],
    runs: &[Span],
    verbatim: bool,
) -> Option<Document> {
    let definitions = Definitions::of(source, starts, runs)?;
    let runs: Vec<Stretch> = runs
        .iter()
        .map(|&span| Stretch {
            span,
            empty_line: last_line(source.as_bytes(), span)
                .filter(|line| span.end < source.len() && is_blank_line(source, *line)),
        })
        .collect();
    let (document, open) = read(source, &runs, &definitions, verbatim);
    let expansions_alike = !open.references || definitions.within_expansion_limit();
    (!open.html && !open.code_before_last && expansions_alike).then_some(document)
}

/// The options urlint reads Markdown with: CommonMark and GitHub's
/// extensions.
const OPTIONS: Options = Options::ENABLE_TABLES
    .union(Options::ENABLE_FOOTNOTES)
    .union(Options::ENABLE_STRIKETHROUGH)
    .union(Options::ENABLE_TASKLISTS)
    .union(Options::ENABLE_GFM);

/// The least number of bytes of destinations and titles pulldown-cmark
/// copies into reference links before it stops resolving them (its
/// `link_ref_expansion_limit`, the text's length when longer).
const EXPANSION_LIMIT: usize = 100_000;

/// The reference definitions of a document read in runs: a reference in
/// one section may use a definition in another, which the run holding it
/// does not read. The sections that hold one are read when a run first
/// needs them.
#[derive(Default)]
struct Definitions<'s, 'a> {
    /// The document and where its sections start; `None` for a document
    /// read whole or in one part, which reads its own definitions.
    document: Option<(&'s str, &'a [usize])>,
    /// What the sections that hold `]:` define, each read alone.
    read: OnceCell<DefinedLabels>,
}

/// The definitions of a document's sections, by label.
#[derive(Default)]
struct DefinedLabels {
    /// The first definition of each label, compared as pulldown-cmark
    /// compares labels (Unicode case folding).
    first: HashMap<UniCase<String>, FirstDefinition>,
    /// The longest destination and title of any definition, the first of
    /// its label or not.
    longest: usize,
}

/// The first definition of a label.
struct FirstDefinition {
    /// Where it starts in the document.
    start: usize,
    /// Its destination, as the parser reads it.
    dest: CowStr<'static>,
    /// Its title, empty when it has none.
    title: CowStr<'static>,
}

impl<'s, 'a> Definitions<'s, 'a> {
    /// The definitions of `source`, cut into sections at `starts`. `None`
    /// when one of `runs` may resolve references otherwise than the whole
    /// document for footnotes: the run holds `[^` and the document a
    /// definition, and the broken-link callback does not see footnote
    /// references. A footnote defined in a section no run holds changes
    /// nothing in the runs.
    fn of(source: &'s str, starts: &'a [usize], runs: &[Span]) -> Option<Self> {
        let footnotes = memchr::memmem::find(source.as_bytes(), b"]:").is_some()
            && runs
                .iter()
                .any(|run| memchr::memmem::find(&source.as_bytes()[run.range()], b"[^").is_some());
        (!footnotes).then_some(Definitions {
            document: Some((source, starts)),
            read: OnceCell::new(),
        })
    }

    /// What the sections that hold `]:` define, each section read alone,
    /// in source order so that the first definition of a label wins.
    fn labels(&self) -> &DefinedLabels {
        self.read.get_or_init(|| {
            let mut labels = DefinedLabels::default();
            let Some((source, starts)) = self.document else {
                return labels;
            };
            let mut read_to = 0;
            for colon in memchr::memmem::find_iter(source.as_bytes(), b"]:") {
                if colon < read_to {
                    continue;
                }
                let index = starts.partition_point(|&start| start <= colon);
                let start = index.checked_sub(1).map_or(0, |before| starts[before]);
                read_to = starts.get(index).copied().unwrap_or(source.len());
                let parser = Parser::new_ext(&source[start..read_to], OPTIONS);
                for (label, definition) in parser.reference_definitions().iter() {
                    let title = definition.title.clone().map(CowStr::into_static);
                    let title = title.unwrap_or(CowStr::Borrowed(""));
                    let dest = definition.dest.clone().into_static();
                    labels.longest = labels.longest.max(dest.len() + title.len());
                    let start = start + definition.span.start;
                    let first = FirstDefinition { start, dest, title };
                    labels
                        .first
                        .entry(UniCase::new(label.to_string()))
                        .or_insert(first);
                }
            }
            labels
        })
    }

    /// True when no reading of the document copies as many bytes into
    /// reference links as pulldown-cmark stops at ([`EXPANSION_LIMIT`]):
    /// fewer references (`]`) times the longest definition. Past it, the
    /// whole document and a run would stop at different references.
    fn within_expansion_limit(&self) -> bool {
        let Some((source, _)) = self.document else {
            return true;
        };
        let references = memchr::memchr_iter(b']', source.as_bytes()).count();
        references.saturating_mul(self.labels().longest) < EXPANSION_LIMIT
    }

    /// The whole document's first definition of `label`.
    fn first(&self, label: &str) -> Option<&FirstDefinition> {
        self.labels().first.get(&UniCase::new(label.to_string()))
    }

    /// The destination and title of the whole document's first
    /// definition of `label`, for a link whose run does not define it.
    fn resolve(&self, label: &str) -> Option<(CowStr<'s>, CowStr<'s>)> {
        let first = self.first(label)?;
        Some((first.dest.clone(), first.title.clone()))
    }
}

/// The first part of a Markdown document that reads as the whole does up
/// to a given place ([`Part::holding`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Part {
    /// The empty line the part ends with.
    empty_line: Span,
}

impl Part {
    /// The part ending with the first empty line after `at`, when there is
    /// one, no reference or footnote definition (no `]:`) follows it and no
    /// line of the document ends with a lone `\r`
    /// ([`sections::has_lone_carriage_return`]).
    ///
    /// Inline content ends at an empty line (a paragraph's, CommonMark
    /// 4.8, a table's rows, a heading's one line), so what comes after
    /// changes how text before it reads only through the definitions its
    /// links may use; a list or block quote that goes on after it adds
    /// blocks of its own. A code block read past the part's end loses only
    /// lines after it. An HTML block may go on past an empty line
    /// ([`document_part`] tells).
    pub(crate) fn holding(source: &str, at: usize) -> Option<Part> {
        let bytes = source.as_bytes();
        if sections::has_lone_carriage_return(bytes) {
            return None;
        }
        let empty_line = first_empty_line(bytes, at)?;
        let definition_after = memchr::memmem::find(&bytes[empty_line.end..], b"]:").is_some();
        (empty_line.end < bytes.len() && !definition_after).then_some(Part { empty_line })
    }

    /// Where the part ends in the source.
    pub(crate) fn end(self) -> usize {
        self.empty_line.end
    }
}

/// The first empty line starting after `from`, line break included.
fn first_empty_line(bytes: &[u8], mut from: usize) -> Option<Span> {
    while let Some(found) = memchr::memchr2(b'\n', b'\r', bytes.get(from..)?) {
        let line_start = from + found + line_break_len(bytes, from + found);
        let empty = line_break_len(bytes, line_start);
        if empty > 0 {
            return Some(Span::new(line_start, line_start + empty));
        }
        from = line_start;
    }
    None
}

/// The last line of `span`, line break included.
fn last_line(bytes: &[u8], span: Span) -> Option<Span> {
    let body = bytes.get(span.range())?;
    let content_end = body.len() - trailing_line_break_len(body);
    let start = memchr::memrchr2(b'\n', b'\r', &body[..content_end]).map_or(0, |at| at + 1);
    (start < body.len()).then(|| Span::new(span.start + start, span.end))
}

/// The length of the line break `bytes` end with.
fn trailing_line_break_len(bytes: &[u8]) -> usize {
    match bytes {
        [.., b'\r', b'\n'] => 2,
        [.., b'\n' | b'\r'] => 1,
        _ => 0,
    }
}

/// True when `line` holds nothing but blanks and its line break.
fn is_blank_line(source: &str, line: Span) -> bool {
    source.as_bytes()[line.range()]
        .iter()
        .all(|byte| matches!(byte, b' ' | b'\t' | b'\n' | b'\r'))
}

/// A stretch of the source parsed alone.
#[derive(Debug, Clone, Copy)]
struct Stretch {
    /// Where the run lies in the source.
    span: Span,
    /// The blank line the run ends with, when more of the document follows.
    empty_line: Option<Span>,
}

/// Blocks open where a run ends that may go on past it in the whole
/// document.
#[derive(Debug, Clone, Copy, Default)]
struct OpenAtRunEnd {
    /// An HTML block that blank lines do not end, without its end on its
    /// last line.
    html: bool,
    /// A code block, at the end of a run that is not the last.
    code_before_last: bool,
    /// Not a block: a reference link or image was read, which may copy a
    /// definition.
    references: bool,
}

/// Read each of `runs` (in source order) alone, the source between and
/// after them blanked; with the blocks open at their ends.
fn read<'s>(
    source: &'s str,
    runs: &[Stretch],
    definitions: &Definitions<'s, '_>,
    verbatim: bool,
) -> (Document, OpenAtRunEnd) {
    let parsed = &source[..runs.last().map_or(0, |run| run.span.end)];
    let mut reader = Reader {
        source: parsed,
        verbatim,
        prose: ProseBuilder::new(parsed),
        links: Vec::new(),
        open_links: Vec::new(),
        in_code_block: false,
        html_block: Vec::new(),
        leaf_blocks: Vec::new(),
        part_end: None,
        html_open_at_part_end: false,
        code_block_end: 0,
        references: false,
        unclosed: None,
    };
    let mut open = OpenAtRunEnd::default();
    for (index, run) in runs.iter().enumerate() {
        reader.part_end = run.empty_line;
        let first_block = reader.leaf_blocks.len();
        let resolve = |link: BrokenLink<'s>| definitions.resolve(&link.reference);
        let mut events = Parser::new_with_broken_link_callback(
            &parsed[run.span.range()],
            OPTIONS,
            Some(resolve),
        )
        .into_offset_iter();
        for (event, range) in &mut events {
            reader.event(event, Span::from(range).shifted(run.span.start));
        }
        let last = index + 1 == runs.len();
        if let (Some(empty_line), false) = (run.empty_line, last) {
            open.code_before_last |= reader.code_block_end > empty_line.start;
        }
        // Definitions are written between leaf blocks; the parser knows the
        // first of each label, which checks what is read here. A run read
        // alone may know a later one of a label defined before it.
        let known: HashMap<usize, &str> = events
            .reference_definitions()
            .iter()
            .map(|(label, definition)| (label, run.span.start + definition.span.start, definition))
            .filter(|&(label, at, _)| {
                definitions
                    .first(label)
                    .is_none_or(|first| first.start == at)
            })
            .map(|(_, at, definition)| (at, definition.dest.as_ref()))
            .collect();
        for gap in gaps(&reader.leaf_blocks[first_block..], run.span) {
            for open in destination::definition_starts(parsed, gap) {
                let dest = known.get(&open).copied();
                reader
                    .links
                    .extend(destination::definition(parsed, open, gap.end, dest));
            }
        }
    }
    open.html = reader.html_open_at_part_end;
    open.references = reader.references;
    let mut links = reader.links;
    links.sort_by_key(|link| link.outer.start);
    let (prose, map, blank_starts) = reader.prose.finish();
    (
        Document {
            prose,
            map,
            blank_starts,
            links,
            plain_text_blocks: Vec::new(),
            unclosed: reader.unclosed,
        },
        open,
    )
}

/// A link or image whose end has not been read yet.
struct OpenLink<'a> {
    /// The whole link in the source.
    span: Span,
    /// How its destination is written, if at all.
    kind: LinkType,
    /// The parser's value of its destination.
    dest: CowStr<'a>,
    /// Where the link text is known to reach: its `]` is at or after this.
    text_end: usize,
}

/// The walk over the parser's events.
struct Reader<'s> {
    source: &'s str,
    verbatim: bool,
    prose: ProseBuilder<'s>,
    links: Vec<Link>,
    /// Links and images being read, innermost last.
    open_links: Vec<OpenLink<'s>>,
    in_code_block: bool,
    /// The lines of the HTML block being read.
    html_block: Vec<Span>,
    /// Leaf blocks (paragraphs, headings, code, HTML, tables, rules) and
    /// inline content in source order: reference definitions are written
    /// outside them.
    leaf_blocks: Vec<Span>,
    /// The empty line a part of the document read alone ends with.
    part_end: Option<Span>,
    /// An HTML block that blank lines do not end reached `part_end`
    /// without its end on its last line.
    html_open_at_part_end: bool,
    /// Where the last code block read ends.
    code_block_end: usize,
    /// A link or image that uses a reference definition was read.
    references: bool,
    /// The first HTML read that left something open at its end.
    unclosed: Option<Unclosed>,
}

impl<'s> Reader<'s> {
    /// Take in one event and the source span it covers.
    fn event(&mut self, event: Event<'s>, span: Span) {
        let closes_link = matches!(event, Event::End(TagEnd::Link | TagEnd::Image));
        if let Some(open) = self.open_links.last_mut().filter(|_| !closes_link) {
            open.text_end = open.text_end.max(span.end);
        }
        if is_leaf_block(&event) || is_inline(&event) {
            self.leaf_blocks.push(span);
        }
        match event {
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            }) => self.open_link(span, link_type, dest_url, 1),
            Event::Start(Tag::Image {
                link_type,
                dest_url,
                ..
            }) => self.open_link(span, link_type, dest_url, 2),
            Event::End(TagEnd::Link | TagEnd::Image) => self.close_link(),
            Event::Start(Tag::CodeBlock(_)) => self.in_code_block = true,
            Event::End(TagEnd::CodeBlock) => {
                self.in_code_block = false;
                self.code_block_end = span.end;
            }
            Event::Start(Tag::HtmlBlock) => self.html_block.clear(),
            Event::End(TagEnd::HtmlBlock) => {
                let lines = std::mem::take(&mut self.html_block);
                self.html_open_at_part_end |= self.reaches_part_end(&lines);
                self.html(&lines);
            }
            Event::Html(_) => self.html_block.push(span),
            Event::InlineHtml(_) => self.html(&[span]),
            Event::Text(text) if self.open_links.is_empty() => {
                if !self.in_code_block {
                    self.text(&text, span);
                } else if self.verbatim {
                    self.prose.copy(span);
                }
            }
            Event::Code(_) if self.open_links.is_empty() && self.verbatim => {
                self.prose.copy(code_content(self.source, span));
            }
            Event::SoftBreak if self.open_links.is_empty() => self.prose.copy(span),
            _ => {}
        }
    }

    /// Start reading a link or image at `span`, whose text starts after
    /// `opener` bytes (`[` or `![`).
    fn open_link(&mut self, span: Span, kind: LinkType, dest: CowStr<'s>, opener: usize) {
        self.references |= !matches!(
            kind,
            LinkType::Inline | LinkType::Autolink | LinkType::Email
        );
        // `<URL:scheme:...>` is an autolink to CommonMark (its scheme is
        // `URL`) and the RFC 1738 wrapper to the scanner, which reads it.
        if kind == LinkType::Autolink && has_url_prefix(&dest) {
            self.prose.copy(span);
        }
        self.open_links.push(OpenLink {
            span,
            kind,
            dest,
            text_end: span.start + opener,
        });
    }

    /// Finish the innermost open link: find its destination, if it has one
    /// of its own.
    fn close_link(&mut self) {
        let Some(open) = self.open_links.pop() else {
            return;
        };
        let link = match open.kind {
            LinkType::Inline => {
                destination::inline(self.source, open.span, open.text_end, &open.dest)
            }
            LinkType::Autolink if !has_url_prefix(&open.dest) => {
                destination::autolink(self.source, open.span, &open.dest)
            }
            // Reference links point at a definition, read where it is
            // written; e-mail autolinks hold an address, not a URL.
            _ => None,
        };
        self.links.extend(link);
        if let Some(outer) = self.open_links.last_mut() {
            outer.text_end = outer.text_end.max(open.span.end);
        }
    }

    /// Text outside links and code: prose. The parser leaves a backslash
    /// escape's `\` out of every event and starts the next text with the
    /// escaped character; the two are one decoded piece.
    fn text(&mut self, text: &str, span: Span) {
        let bytes = self.source.as_bytes();
        // Emphasis and strikethrough markers stay in the prose, where they
        // are for GitHub's autolinks: inside a URL they do not end it, and
        // at its end the scanner's caller leaves them out.
        let gap = bytes
            .get(self.prose.cursor()..span.start)
            .unwrap_or_default();
        if !gap.is_empty() && gap.iter().all(|b| matches!(b, b'*' | b'_' | b'~')) {
            self.prose.copy(Span::new(self.prose.cursor(), span.start));
        }
        let escaped = span.start > self.prose.cursor()
            && bytes[span.start - 1] == b'\\'
            && bytes.get(span.start).is_some_and(u8::is_ascii_punctuation)
            && text.as_bytes().first() == bytes.get(span.start);
        let (text, span) = if escaped {
            self.prose
                .decoded(&text[..1], Span::new(span.start - 1, span.start + 1));
            (&text[1..], Span::new(span.start + 1, span.end))
        } else {
            (text, span)
        };
        if self.source.get(span.range()) == Some(text) {
            self.prose.copy(span);
        } else if !text.is_empty() {
            self.prose.decoded(text, span);
        }
    }

    /// True when the HTML block written on `lines` reaches the empty line
    /// the part read ends with, is one that blank lines do not end
    /// (CommonMark 4.6, kinds 1 to 5: `<pre`, `<script`, `<style`,
    /// `<textarea`, a comment, `<?` or `<!`) and its last line does not
    /// hold its end, so that the lines after the part may be its lines
    /// too. A block its end closed (`-->` after a comment) ends there in
    /// the whole document as well.
    fn reaches_part_end(&self, lines: &[Span]) -> bool {
        let (Some(empty_line), Some(first), Some(last)) =
            (self.part_end, lines.first(), lines.last())
        else {
            return false;
        };
        if last.end < empty_line.start {
            return false;
        }
        let opening = self
            .source
            .get(first.range())
            .unwrap_or_default()
            .trim_start_matches([' ', '\t'])
            .trim_end_matches(['\r', '\n']);
        // The kinds that blank lines do not end are the ones the line
        // follower knows an end for.
        let Some(end) = sections::html_block_end(opening.as_bytes()) else {
            return false;
        };
        // pulldown-cmark may give a line's break as a piece of its own
        // (`\r\n`): the end is looked for in the last piece with text. No
        // line follows the one that holds the end, so a piece with text
        // that holds it is on the block's last line.
        let last_line = lines
            .iter()
            .rev()
            .map(|line| {
                let text = self.source.get(line.range()).unwrap_or_default();
                text.trim_end_matches(['\r', '\n'])
            })
            .find(|text| !text.is_empty())
            .unwrap_or_default();
        memchr::memmem::find(last_line.as_bytes(), end).is_none()
    }

    /// Read the HTML written on `lines` (one span per line of a block, or
    /// one inline tag) as one HTML fragment.
    fn html(&mut self, lines: &[Span]) {
        let (Some(first), Some(last)) = (lines.first(), lines.last()) else {
            return;
        };
        let contiguous = lines.windows(2).all(|pair| pair[0].end == pair[1].start);
        if contiguous {
            let span = Span::new(first.start, last.end);
            let Some(text) = self.source.get(span.range()) else {
                return;
            };
            let map = OffsetMap::identity(span);
            let unclosed =
                html::fragment(text, &map, self.verbatim, &mut self.prose, &mut self.links);
            self.unclosed = self.unclosed.or(unclosed);
            return;
        }
        // A block inside a container: its lines without the container's
        // markers, read as one text.
        let mut text = String::new();
        let mut map = OffsetMap::new();
        for line in lines {
            let at = text.len();
            text.push_str(self.source.get(line.range()).unwrap_or_default());
            map.push(Span::new(at, text.len()), *line, true);
        }
        let unclosed = html::fragment(&text, &map, self.verbatim, &mut self.prose, &mut self.links);
        self.unclosed = self.unclosed.or(unclosed);
    }
}

/// True for the event that opens a leaf block, or is one (a rule).
fn is_leaf_block(event: &Event<'_>) -> bool {
    matches!(
        event,
        Event::Start(
            Tag::Paragraph
                | Tag::Heading { .. }
                | Tag::CodeBlock(_)
                | Tag::HtmlBlock
                | Tag::Table(_)
                | Tag::MetadataBlock(_)
        ) | Event::Rule
    )
}

/// True for inline content: outside a paragraph it is a tight list item's
/// text, which holds no reference definition either (a line that looks like
/// one there is a lazy continuation line, CommonMark section 4.7).
fn is_inline(event: &Event<'_>) -> bool {
    matches!(
        event,
        Event::Text(_)
            | Event::Code(_)
            | Event::InlineMath(_)
            | Event::InlineHtml(_)
            | Event::FootnoteReference(_)
            | Event::SoftBreak
            | Event::HardBreak
            | Event::Start(
                Tag::Link { .. }
                    | Tag::Image { .. }
                    | Tag::Emphasis
                    | Tag::Strong
                    | Tag::Strikethrough
            )
    )
}

/// The source of `within` between `blocks` (in source order, inside it),
/// and after the last one.
fn gaps(blocks: &[Span], within: Span) -> Vec<Span> {
    let mut gaps = Vec::with_capacity(blocks.len() + 1);
    let mut start = within.start;
    for block in blocks {
        if block.start > start {
            gaps.push(Span::new(start, block.start));
        }
        start = start.max(block.end);
    }
    if start < within.end {
        gaps.push(Span::new(start, within.end));
    }
    gaps
}

/// True for an autolink destination that is an RFC 1738 wrapper's inside.
fn has_url_prefix(dest: &str) -> bool {
    dest.get(..4)
        .is_some_and(|prefix| prefix.eq_ignore_ascii_case("url:"))
}

/// A code span's content: `span` without its backtick runs.
fn code_content(source: &str, span: Span) -> Span {
    let code = source.get(span.range()).unwrap_or_default();
    let ticks = code.len() - code.trim_start_matches('`').len();
    let inner = code.len().saturating_sub(2 * ticks);
    Span::new(span.start + ticks, span.start + ticks + inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each link's value and outer source bytes.
    fn links(source: &str) -> Vec<(String, &str)> {
        document(source, false)
            .links
            .iter()
            .map(|link| (link.value.clone(), &source[link.outer.range()]))
            .collect()
    }

    #[test]
    fn gfm_badges_and_adjacent_links_are_separate_destinations() {
        let source = "[![crates.io](https://img.example/v.svg)](https://crates.example/x)\
                      [docs](https://docs.example/x)";
        assert_eq!(
            links(source),
            [
                (
                    "https://img.example/v.svg".to_string(),
                    "https://img.example/v.svg"
                ),
                (
                    "https://crates.example/x".to_string(),
                    "https://crates.example/x"
                ),
                (
                    "https://docs.example/x".to_string(),
                    "https://docs.example/x"
                ),
            ]
        );
        assert!(document(source, false).prose.trim().is_empty());
    }

    #[test]
    fn commonmark_reference_definitions_autolinks_and_html() {
        let source = "See [the spec][s], <https://auto.example/a> and <me@mail.example>.\n\n\
                      [s]: <https://spec.example/> \"Spec\"\n\n\
                      <div><a href=\"https://html.example/?a=1&amp;b=2\">x</a></div>\n";
        assert_eq!(
            links(source),
            [
                (
                    "https://auto.example/a".to_string(),
                    "<https://auto.example/a>"
                ),
                (
                    "https://spec.example/".to_string(),
                    "<https://spec.example/>"
                ),
                (
                    "https://html.example/?a=1&b=2".to_string(),
                    "https://html.example/?a=1&amp;b=2"
                ),
            ]
        );
    }

    #[test]
    fn prose_is_text_and_soft_breaks_only() {
        let source = "Text *http://em.example/*, `http://code.example/` and\n\
                      > <URL:http://q.example/a\n> b>.\n\n```\nhttp://fence.example/\n```\n";
        let prose = document(source, false).prose;
        assert_eq!(prose.len(), source.len());
        assert!(prose.contains("*http://em.example/*"));
        assert!(!prose.contains("code.example"));
        assert!(!prose.contains("fence.example"));
        assert!(prose.contains("<URL:http://q.example/a\n  b>"));
        let verbatim = document(source, true).prose;
        assert!(verbatim.contains(" http://code.example/ "));
        assert!(verbatim.contains("http://fence.example/\n"));
    }

    #[test]
    fn an_escape_is_one_decoded_piece_of_prose() {
        let source = "see http://a.example/x\\_y now";
        let document = document(source, false);
        assert_eq!(document.prose, "see http://a.example/x_y now");
        let underscore = document.prose.find('_').expect("escaped");
        assert_eq!(
            document.map.raw_span(Span::new(underscore, underscore + 1)),
            Some(Span::new(22, 24))
        );
    }

    #[test]
    fn commonmark_4_7_every_definition_of_a_label_is_read() {
        let source = "## 1.1\n\n- fixed [#7]\n\n[#7]: https://a.example/7\n\n\
                      ## 1.0\n\n> - fixed [#7] again\n>\n> [#7]: https://b.example/7\n\n\
                      ```\n[#8]: https://code.example/\n```\n";
        assert_eq!(
            links(source),
            [
                ("https://a.example/7".to_string(), "https://a.example/7"),
                ("https://b.example/7".to_string(), "https://b.example/7"),
            ]
        );
    }

    #[test]
    fn commonmark_4_7_a_lazy_line_in_a_tight_list_item_is_no_definition() {
        // The line continues the item's paragraph, so its autolink is the
        // one link; a definition inside an item is still read.
        let source = "- fixed\n[x]:<ht://lazy.example>\n\n- [y]: https://def.example/\n";
        assert_eq!(
            links(source),
            [
                ("ht://lazy.example".to_string(), "<ht://lazy.example>"),
                ("https://def.example/".to_string(), "https://def.example/"),
            ]
        );
    }

    #[test]
    fn a_wrapper_autolink_is_left_to_the_scanner() {
        let source = "<URL:http://w.example/> and <http://a.example/>";
        let document = document(source, false);
        assert!(document.prose.starts_with("<URL:http://w.example/>"));
        assert_eq!(document.links.len(), 1);
        assert_eq!(document.links[0].value, "http://a.example/");
    }
}
