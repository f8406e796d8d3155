//! What reading a document through its markup gives: the prose the scanner
//! reads, and the values the markup itself delimits as links; and whether
//! they may hold URL syntax the source does not.
//!
//! URL syntax is what every URL the scanner or a link value gives is made
//! of where it starts: ASCII letters and digits and [`URL_PUNCTUATION`]. A
//! reader keeps every run of it as a run of the source when all it writes
//! is source bytes, in place or in order, blanks, and decoded pieces that
//! are not URL syntax, with no URL syntax removed between two runs.

use super::facts::{facts, MadeUrlSyntax};
use super::unclosed::Unclosed;
use crate::offset_map::OffsetMap;
use crate::source::Markup;
use crate::span::Span;

/// A document read through its markup.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Document {
    /// The document's prose, character references decoded, with every
    /// other source byte (markup, code, link syntax) blanked to a space and
    /// line breaks kept: the text bare URLs and wrappers are looked for in.
    pub prose: String,
    /// Spans of `prose` to spans of the source.
    pub map: OffsetMap,
    /// Values the markup delimits as links, in source order.
    pub links: Vec<Link>,
    /// Spans of `prose`, in order, that keep the lines of plain text (a
    /// reStructuredText literal block read as verbatim text): a bare URL
    /// there may go on over a line break as in a plain text; elsewhere the
    /// markup's reading ends it at one.
    pub plain_text_blocks: Vec<Span>,
    /// The first thing the markup opened and never closed, which took in
    /// the text after it: the document's own HTML at its end, or an HTML
    /// block or `raw:: html` directive at the block's end.
    pub unclosed: Option<Unclosed>,
    /// Where in `prose` each run of blanked source bytes starts, in order.
    pub blank_starts: Vec<usize>,
}

/// Which markup delimited a link value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LinkSyntax {
    /// A Markdown destination, autolink or reference definition.
    Markdown,
    /// A reStructuredText embedded URI, hyperlink target, image URI or
    /// image `:target:`.
    Rst,
    /// An HTML attribute value.
    Html,
}

/// A value the markup delimits as a link: the reference it holds, decoded,
/// whether it is a URL or a relative reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Link {
    /// The value, escapes and character references decoded.
    pub value: String,
    /// Spans of `value` to spans of the source.
    pub map: OffsetMap,
    /// The value in the source with its delimiters (`<...>` of an angle
    /// destination or autolink), for placing the whole match.
    pub outer: Span,
    /// The markup it was written in.
    pub syntax: LinkSyntax,
}

/// A decoded run of a source: text and its map onto the source.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Decoded {
    /// The decoded text.
    pub text: String,
    /// Spans of `text` to spans of the source it was decoded from.
    pub map: OffsetMap,
}

impl Decoded {
    /// The part `part` of this text, with its map.
    pub(crate) fn slice(&self, part: Span) -> Decoded {
        let mut map = OffsetMap::new();
        for piece in self.map.clipped(part) {
            let text = Span::new(piece.text.start - part.start, piece.text.end - part.start);
            map.push(text, piece.raw, piece.exact);
        }
        Decoded {
            text: self.text.get(part.range()).unwrap_or_default().to_string(),
            map,
        }
    }

    /// The same text placed through `outer` (the map of the text this one
    /// was decoded from onto the source).
    pub(crate) fn through(self, outer: &OffsetMap) -> Decoded {
        Decoded {
            map: self.map.then(outer),
            text: self.text,
        }
    }

    /// This text as a link value, placed on the source bytes it maps to.
    pub(crate) fn into_link(self, syntax: LinkSyntax) -> Link {
        let whole = Span::new(0, self.text.len());
        let outer = self.map.raw_span(whole).unwrap_or_default();
        Link {
            value: self.text,
            map: self.map,
            outer,
            syntax,
        }
    }
}

/// Builds a document's prose in source order: every source byte not given
/// as prose is blanked.
///
/// A parser hands prose over in many small pieces (a text event per line,
/// per emphasis, per entity), most of them right after the one before:
/// such a run is kept as one pending span and copied once, when something
/// else comes.
#[derive(Debug)]
pub(crate) struct ProseBuilder<'s> {
    source: &'s str,
    /// Whole `str` pieces and ASCII blanks: UTF-8, built as bytes so that
    /// blanking a run is one loop the compiler vectorises.
    prose: Vec<u8>,
    map: OffsetMap,
    /// Source bytes before this offset are in the prose already, or in
    /// `pending`.
    cursor: usize,
    /// Source bytes given as prose, unchanged, not yet copied; it ends at
    /// `cursor`.
    pending: Option<Span>,
    /// Where in the prose each blanked run starts.
    blank_starts: Vec<usize>,
}

impl<'s> ProseBuilder<'s> {
    /// A builder for the prose of `source`.
    pub(crate) fn new(source: &'s str) -> Self {
        ProseBuilder {
            source,
            prose: Vec::with_capacity(source.len()),
            map: OffsetMap::new(),
            cursor: 0,
            pending: None,
            blank_starts: Vec::new(),
        }
    }

    /// Where the prose has reached in the source.
    pub(crate) fn cursor(&self) -> usize {
        self.cursor
    }

    /// Where in the prose the source bytes `span`, just given to [`copy`]
    /// whole, will be: `None` when they were not (passed already, or not
    /// on character boundaries).
    ///
    /// [`copy`]: ProseBuilder::copy
    pub(crate) fn copied_at(&self, span: Span) -> Option<Span> {
        let pending = self.pending.filter(|pending| {
            pending.start <= span.start && pending.end == span.end && self.cursor == span.end
        })?;
        let start = self.prose.len() + (span.start - pending.start);
        Some(Span::new(start, start + span.len()))
    }

    /// Source bytes `span` as prose, unchanged. Bytes already passed are
    /// not given twice.
    pub(crate) fn copy(&mut self, span: Span) {
        let start = span.start.max(self.cursor);
        if start >= span.end {
            return;
        }
        if self.source.get(start..span.end).is_none() {
            // Not on character boundaries: nothing given, but what came
            // before is passed, as for any copy.
            self.blank_to(start);
            return;
        }
        match self.pending.as_mut() {
            Some(pending) if start == self.cursor => pending.end = span.end,
            _ => {
                self.blank_to(start);
                self.pending = Some(Span::new(start, span.end));
            }
        }
        self.cursor = span.end;
    }

    /// Copy the pending run of unchanged source bytes.
    fn flush(&mut self) {
        let Some(pending) = self.pending.take() else {
            return;
        };
        let Some(text) = self.source.get(pending.range()) else {
            return;
        };
        let at = self.prose.len();
        self.prose.extend_from_slice(text.as_bytes());
        self.map
            .push(Span::new(at, self.prose.len()), pending, true);
    }

    /// `text`, decoded from the source bytes `raw`, as prose.
    pub(crate) fn decoded(&mut self, text: &str, raw: Span) {
        if raw.start < self.cursor {
            return;
        }
        self.blank_to(raw.start);
        let at = self.prose.len();
        self.prose.extend_from_slice(text.as_bytes());
        self.map.push(Span::new(at, self.prose.len()), raw, false);
        self.cursor = raw.end;
    }

    /// A decoded run whose map points into the source, as prose.
    pub(crate) fn append(&mut self, run: &Decoded) {
        for piece in run.map.pieces() {
            let Some(text) = run.text.get(piece.text.range()) else {
                continue;
            };
            if piece.exact {
                self.copy(piece.raw);
            } else {
                self.decoded(text, piece.raw);
            }
        }
    }

    /// Blank the source up to `end`: spaces for every byte but line breaks,
    /// which keep the prose's lines where the source has them.
    pub(crate) fn blank_to(&mut self, end: usize) {
        self.flush();
        let end = end.min(self.source.len());
        if end <= self.cursor {
            return;
        }
        let bytes = &self.source.as_bytes()[self.cursor..end];
        let at = self.prose.len();
        self.blank_starts.push(at);
        self.prose.extend(bytes.iter().map(|&byte| match byte {
            b'\n' | b'\r' => byte,
            _ => b' ',
        }));
        self.map.push(
            Span::new(at, self.prose.len()),
            Span::new(self.cursor, end),
            true,
        );
        self.cursor = end;
    }

    /// The prose, the rest of the source blanked, its map, and where each
    /// blanked run starts in it.
    pub(crate) fn finish(mut self) -> (String, OffsetMap, Vec<usize>) {
        self.blank_to(self.source.len());
        let prose = String::from_utf8(self.prose).expect("str pieces and ASCII blanks are UTF-8");
        (prose, self.map, self.blank_starts)
    }
}

/// The punctuation of URL syntax: what a scheme name holds besides letters
/// and digits (`+ - .`), the `:` ending it, the `//` after it and the `<`
/// opening a wrapper.
const URL_PUNCTUATION: &[u8] = b"+-.:/<";

/// Where the last run of URL syntax that is not a run of the source may be
/// made when `source` is read as `markup`: the last character reference
/// (Markdown, HTML) or Markdown backslash escape of URL syntax; for
/// reStructuredText, the end of the source. `None` when no reading makes
/// one.
///
/// Otherwise the readers write only source bytes, blanks and bytes that
/// are not URL syntax: Markdown's prose is the source in place with markup
/// blanked, its link values are source bytes as written, and the HTML it
/// holds is read as below, its lines inside a container joined after their
/// line breaks. A backslash escape of other punctuation drops the `\`,
/// which is not URL syntax, and keeps the escaped character, which is not
/// either. HTML's text and attribute values are source bytes. Either may
/// read a line break as `\n` and a NUL as U+FFFD. reStructuredText, in
/// contrast, joins a URI written over several lines, with escaped spaces or
/// across a grid table's borders into one run the source does not hold.
pub(crate) fn last_made_url_syntax(source: &str, markup: Markup) -> Option<usize> {
    let bytes = source.as_bytes();
    match facts(markup).made_url_syntax {
        MadeUrlSyntax::AtReferencesAndEscapes => {
            memchr::memrchr2_iter(b'&', b'\\', bytes).find(|&at| {
                let next = bytes.get(at + 1);
                if bytes[at] == b'&' {
                    may_decode_to_url_syntax(&bytes[at + 1..])
                } else {
                    next.is_some_and(|next| URL_PUNCTUATION.contains(next))
                }
            })
        }
        MadeUrlSyntax::AtCharacterReferences => {
            memchr::memrchr_iter(b'&', bytes).find(|&at| may_decode_to_url_syntax(&bytes[at + 1..]))
        }
        MadeUrlSyntax::Anywhere => Some(source.len()),
        MadeUrlSyntax::Nowhere => None,
    }
}

/// The named character references of HTML (which Markdown reads too)
/// whose value holds URL syntax, with their semicolon: `:`, `fj`, `<`,
/// `<` and a combining mark, `.`, `+` and `/`.
const NAMED_URL_SYNTAX: [&[u8]; 6] = [
    b"colon;", b"fjlig;", b"nvlt;", b"period;", b"plus;", b"sol;",
];

/// True when the text after an `&` may make a character reference decode
/// to URL syntax: a numeric reference, which may be any character, or a
/// named one whose value holds it ([`NAMED_URL_SYNTAX`], and `lt` and `LT`,
/// which HTML decodes without a semicolon and before any text, as no other
/// name of URL syntax). `&mut`, `&nbsp;` or `&amp;` never do.
fn may_decode_to_url_syntax(after: &[u8]) -> bool {
    after.first() == Some(&b'#')
        || after.starts_with(b"lt")
        || after.starts_with(b"LT")
        || NAMED_URL_SYNTAX.iter().any(|name| after.starts_with(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_keeps_line_breaks_and_maps_every_byte_to_its_place() {
        let source = "# Head\r\n*em* &amp; x";
        let mut builder = ProseBuilder::new(source);
        builder.copy(Span::new(2, 6));
        builder.copy(Span::new(9, 11));
        builder.decoded("&", Span::new(13, 18));
        builder.copy(Span::new(4, 6)); // already given: ignored
        let (prose, map, _) = builder.finish();
        assert_eq!(prose, "  Head\r\n em  &  ");
        assert_eq!(map.raw_span(Span::new(9, 11)), Some(Span::new(9, 11)));
        let amp = prose.find('&').expect("decoded");
        assert_eq!(
            map.raw_span(Span::new(amp, amp + 1)),
            Some(Span::new(13, 18))
        );
        assert_eq!(
            map.raw_span(Span::new(0, prose.len())),
            Some(Span::new(0, 20))
        );
    }

    #[test]
    fn pieces_given_one_after_another_are_one_run_of_the_map() {
        let source = "see http://a.example/x and **more**\nhttp://b.example/ end";
        let mut builder = ProseBuilder::new(source);
        // As a parser gives them: a text, then one after it, a gap of
        // markup (`**`), a text, a gap with a line break, and the rest.
        builder.copy(Span::new(0, 10));
        builder.copy(Span::new(10, 27));
        builder.copy(Span::new(29, 33));
        builder.copy(Span::new(36, source.len()));
        let (prose, map, _) = builder.finish();
        assert_eq!(
            prose,
            "see http://a.example/x and   more  \nhttp://b.example/ end"
        );
        assert_eq!(prose.len(), source.len());
        // Unchanged bytes and blanks are all exact: one piece, byte for byte.
        assert_eq!(map.pieces().len(), 1);
        assert_eq!(map.raw_span(Span::new(36, 53)), Some(Span::new(36, 53)));
    }

    #[test]
    fn refused_overlapping_and_decoded_pieces_between_copies() {
        let source = "a é b &amp; c";
        let mut builder = ProseBuilder::new(source);
        builder.copy(Span::new(0, 1));
        // Starts inside `é`: refused, but the bytes before it are passed...
        builder.copy(Span::new(3, 6));
        // ...so a piece starting there comes too late.
        builder.decoded("é", Span::new(2, 4));
        builder.copy(Span::new(4, 7));
        builder.decoded("&", Span::new(7, 12));
        // Overlaps the entity: only what follows it is new.
        builder.copy(Span::new(10, 14));
        let (prose, map, _) = builder.finish();
        assert_eq!(prose, "a    b & c");
        let amp = prose.find('&').expect("decoded");
        assert_eq!(
            map.raw_span(Span::new(amp, amp + 1)),
            Some(Span::new(7, 12))
        );
        let c = prose.find('c').expect("copied");
        assert_eq!(map.raw_span(Span::new(c, c + 1)), Some(Span::new(13, 14)));
    }

    #[test]
    fn a_slice_keeps_its_part_of_the_map() {
        let mut map = OffsetMap::new();
        map.push(Span::new(0, 3), Span::new(10, 13), true);
        map.push(Span::new(3, 4), Span::new(13, 18), false);
        map.push(Span::new(4, 6), Span::new(18, 20), true);
        let decoded = Decoded {
            text: "a=1&bc".to_string(),
            map,
        };
        let slice = decoded.slice(Span::new(2, 5));
        assert_eq!(slice.text, "1&b");
        assert_eq!(slice.map.raw_span(Span::new(0, 1)), Some(Span::new(12, 13)));
        assert_eq!(slice.map.raw_span(Span::new(1, 2)), Some(Span::new(13, 18)));
        let link = slice.into_link(LinkSyntax::Html);
        assert_eq!(link.outer, Span::new(12, 19));
    }

    #[test]
    fn references_and_escapes_of_url_syntax_may_make_it() {
        for (source, markdown, html) in [
            ("plain words: a & b, 1\\2", false, false),
            ("http&#58;//x.example", true, true),
            ("&colon; &amp", true, true),
            ("& #, &; &&", false, false),
            // Only references whose value may be URL syntax.
            ("&mut self, &str, &nbsp; &amp; &copy; &Tab;", false, false),
            ("&sol;", true, true),
            ("&PLUS; &Sol;", false, false),
            ("&ltp", true, true),
            ("[a](http\\://x.example)", true, false),
            ("http:\\/\\/x.example \\<URL:x:y>", true, false),
            ("ht\\-tp \\+ \\. ", true, false),
            ("\\* \\_ \\` \\\\ \\[ \\( \\# \\a \\\n", false, false),
        ] {
            assert_eq!(
                last_made_url_syntax(source, Markup::Markdown).is_some(),
                markdown,
                "Markdown {source:?}"
            );
            assert_eq!(
                last_made_url_syntax(source, Markup::Html).is_some(),
                html,
                "HTML {source:?}"
            );
        }
    }

    #[test]
    fn rst_joins_uris_and_plain_text_is_read_as_written() {
        assert_eq!(last_made_url_syntax("no markup", Markup::Rst), Some(9));
        assert_eq!(last_made_url_syntax("&#58; \\: &amp;", Markup::Plain), None);
    }

    #[test]
    fn url_syntax_is_last_made_at_the_last_reference_or_escape_of_it() {
        let source = "&lt; \\: then \\/ and \\* &amp;";
        assert_eq!(
            last_made_url_syntax(source, Markup::Markdown),
            source.find("\\/")
        );
        assert_eq!(last_made_url_syntax(source, Markup::Html), Some(0));
    }
}
