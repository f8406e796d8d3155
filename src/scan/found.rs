//! What the scanner hands on: each URL found, joined from its source runs,
//! with the map from URL offsets back to source offsets.

use crate::diagnostic::Diagnostic;
use crate::span::{SourceSpan, Span, UrlSpan};

/// How a URL was written in the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Form {
    /// `<URL:scheme:...>`, the RFC 1738 wrapper.
    Wrapped,
    /// `<scheme:...>`, angle brackets without the `URL:` prefix.
    Angle,
    /// `URL:scheme:...` without brackets.
    Prefixed,
    /// `scheme:...` in running text.
    Bare,
    /// A Markdown link or image destination, autolink or reference
    /// definition, or a reStructuredText embedded URI, hyperlink target or
    /// image URI: delimited by the markup's syntax.
    Link,
    /// An HTML attribute value (`href`, `src`, a `srcset` candidate, a
    /// refresh target): delimited by the HTML syntax.
    Attribute,
}

impl Form {
    /// Lower-case name used in machine output.
    pub fn as_str(self) -> &'static str {
        match self {
            Form::Wrapped => "wrapped",
            Form::Angle => "angle",
            Form::Prefixed => "prefixed",
            Form::Bare => "bare",
            Form::Link => "link",
            Form::Attribute => "attribute",
        }
    }
}

/// A run of source bytes and the URL bytes it gives: the same bytes, or,
/// for a piece the markup decodes (a character reference such as `&amp;`,
/// a Markdown escape such as `\(`), the decoded bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Segment {
    /// Where the bytes are in the source.
    pub source: SourceSpan,
    /// Where the bytes it gives start in the joined URL.
    pub url_start: usize,
    /// How many URL bytes a decoded piece gives; `None` for source bytes
    /// copied unchanged. A decoded piece maps only as a whole.
    pub decoded_len: Option<usize>,
}

impl Segment {
    /// Source bytes copied unchanged to the URL at `url_start`.
    pub fn copied(source: SourceSpan, url_start: usize) -> Self {
        Segment {
            source,
            url_start,
            decoded_len: None,
        }
    }

    /// Source bytes decoded into the URL bytes at `url`.
    pub fn decoded(source: SourceSpan, url: UrlSpan) -> Self {
        Segment {
            source,
            url_start: url.start,
            decoded_len: Some(url.len()),
        }
    }

    /// Where the bytes it gives are in the joined URL.
    pub fn url(&self) -> UrlSpan {
        let len = self.decoded_len.unwrap_or(self.source.len());
        UrlSpan::new(self.url_start, self.url_start + len)
    }

    /// True when the URL bytes are a copy of the source bytes.
    pub fn is_copied(&self) -> bool {
        self.decoded_len.is_none()
    }
}

/// Another way to read an ambiguous URL (a hyphen at a line break).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Alternative {
    /// The URL as this reading joins it.
    pub url: String,
    /// Why this reading exists and what evidence weighed for or against it.
    pub reason: String,
}

/// A line break a URL's text was joined across: inside a wrapper, or a
/// bare URL the scanner read as going on (see `broken-bare-url`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Join {
    /// Offset in the joined URL where the text after the break starts.
    pub url_offset: usize,
    /// True when page furniture (a footer, a form feed, a running header
    /// and the blank lines around them) lay between the two lines.
    pub page_break: bool,
    /// True when the text could not be read otherwise: every line break
    /// of a wrapper, and a bare URL's join on a line filled to the right
    /// margin or for a reason that holds whatever follows (the line ends
    /// with `http://` or with a character a URL does not end on, the next
    /// starts with a URL delimiter, a folded line); false for a join the
    /// text makes only likely.
    pub certain: bool,
}

/// One URL found in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Found {
    /// The URL as joined text: wrapper, prefix and whitespace removed.
    pub url: String,
    /// How it was written.
    pub form: Form,
    /// The whole match in the source, delimiters included.
    pub outer: SourceSpan,
    /// Source runs the URL was joined from, in order, covering the URL exactly.
    pub segments: Vec<Segment>,
    /// Other readings of an ambiguous URL.
    pub alternatives: Vec<Alternative>,
    /// The scanner's own findings; their spans index the **source**.
    pub diagnostics: Vec<Diagnostic>,
    /// The line breaks the URL was joined across, in order.
    pub joins: Vec<Join>,
}

impl Found {
    /// A URL written in one piece at `source` (so one segment), with no
    /// alternatives, no scanner findings and no joins: how a bare URL, or a
    /// URL given on its own (`urlint validate`), is placed.
    pub fn unbroken(url: &str, form: Form, source: SourceSpan) -> Self {
        Found {
            url: url.to_string(),
            form,
            outer: source,
            segments: vec![Segment::copied(source, 0)],
            alternatives: Vec::new(),
            diagnostics: Vec::new(),
            joins: Vec::new(),
        }
    }

    /// Map a span of the joined URL to source spans, one per run of source
    /// bytes it touches (a decoded segment it touches maps whole).
    ///
    /// An empty span maps to one empty source span at the matching position, so
    /// that "missing" diagnostics (e.g. an empty host) still point somewhere.
    pub fn source_spans(&self, url_span: UrlSpan) -> Vec<SourceSpan> {
        map_url_span(&self.segments, url_span, self.outer)
    }

    /// True when some of the URL's bytes were decoded from what the source
    /// shows (a character reference, a Markdown escape).
    pub fn is_decoded(&self) -> bool {
        !self.segments.iter().all(Segment::is_copied)
    }
}

/// The URL text the runs `spans` of `text` join to.
pub(super) fn join(text: &str, spans: &[Span]) -> String {
    spans
        .iter()
        .filter_map(|span| text.get(span.range()))
        .collect()
}

/// The URL the runs `spans` of `text` join to, with their segments;
/// `text` is the text the URL is found in, its source.
pub(super) fn joined(text: &str, spans: &[Span]) -> (String, Vec<Segment>) {
    let mut url = String::with_capacity(spans.iter().map(Span::len).sum());
    let mut segments = Vec::with_capacity(spans.len());
    for &source in spans {
        if let Some(piece) = text.get(source.range()) {
            segments.push(Segment::copied(source.of(), url.len()));
            url.push_str(piece);
        }
    }
    (url, segments)
}

/// Map `url_span` through `segments` to source spans; `outer` is the fallback
/// anchor when the URL has no segments at all (an empty wrapper).
fn map_url_span(segments: &[Segment], url_span: UrlSpan, outer: SourceSpan) -> Vec<SourceSpan> {
    if url_span.is_empty() {
        let anchor = segments
            .iter()
            .find(|seg| seg.url().start <= url_span.start && url_span.start <= seg.url().end)
            .map(|seg| match seg.decoded_len {
                None => seg.source.start + (url_span.start - seg.url_start),
                Some(_) => seg.source.start,
            })
            .unwrap_or(outer.start);
        return vec![Span::new(anchor, anchor)];
    }
    let mut spans: Vec<SourceSpan> = Vec::new();
    for seg in segments {
        let url = seg.url();
        let start = url_span.start.max(url.start);
        let end = url_span.end.min(url.end);
        if start >= end {
            continue;
        }
        let source = match seg.decoded_len {
            None => Span::new(
                seg.source.start + (start - url.start),
                seg.source.start + (end - url.start),
            ),
            Some(_) => seg.source,
        };
        // Pieces that follow each other in the source (a decoded reference
        // inside a copied run) label as one.
        match spans.last_mut() {
            Some(last) if last.end == source.start => last.end = source.end,
            _ => spans.push(source),
        }
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn span_over_a_line_break_maps_to_two_source_pieces() {
        // "<URL:http://a.b/\n  cd>": "http://a.b/" at 5..16, "cd" at 19..21.
        let segments = [
            Segment::copied(Span::new(5, 16), 0),
            Segment::copied(Span::new(19, 21), 11),
        ];
        let outer = Span::new(0, 22);
        assert_eq!(
            map_url_span(&segments, Span::new(9, 12), outer),
            vec![Span::new(14, 16), Span::new(19, 20)]
        );
        assert_eq!(
            map_url_span(&segments, Span::new(13, 13), outer),
            vec![Span::new(21, 21)]
        );
        assert_eq!(
            map_url_span(&[], Span::new(0, 0), outer),
            vec![Span::new(0, 0)]
        );
    }

    #[test]
    fn a_span_touching_a_decoded_reference_labels_the_whole_reference() {
        // `a=1&amp;b`: "a=1" copied, "&amp;" decoded to "&", "b" copied.
        let segments = [
            Segment::copied(Span::new(10, 13), 0),
            Segment::decoded(Span::new(13, 18), Span::new(3, 4)),
            Segment::copied(Span::new(18, 19), 4),
        ];
        let outer = Span::new(10, 19);
        let cases = [
            (Span::new(3, 4), vec![Span::new(13, 18)]),
            (Span::new(2, 5), vec![Span::new(12, 19)]),
            (Span::new(4, 5), vec![Span::new(18, 19)]),
            (Span::new(3, 3), vec![Span::new(13, 13)]),
        ];
        for (url_span, expected) in cases {
            assert_eq!(
                map_url_span(&segments, url_span, outer),
                expected,
                "{url_span:?}"
            );
        }
    }
}
