//! The lazy scan over one text: the `memchr` loop for trigger bytes and
//! what each one starts (a wrapper, a bare URL, one continued on the next
//! line), finished into [`Found`]s.

use super::bare;
use super::continued::{self, Continued};
use super::crowd::Crowd;
use super::found::{joined, Form, Found, Join, Segment};
use super::hyphen;
use super::options::ScanOptions;
use super::pages;
use super::pattern;
use super::rfc_style::RfcMarks;
use super::scheme::Schemes;
use super::wrapper;
use crate::span::Span;
use std::borrow::Cow;

/// Where a bare URL may be joined with the next line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum LineJoins<'t> {
    /// Plain text: wherever the text says the URL goes on.
    Everywhere,
    /// A markup's prose, whose line breaks end a bare URL.
    Nowhere,
    /// A markup's prose, but for these blocks of plain text, in order.
    Within(Cow<'t, [Span]>),
}

impl LineJoins<'_> {
    /// How much of `text` a bare URL starting at `start` may be joined
    /// over, if any.
    fn reach<'t>(&self, text: &'t str, start: usize) -> Option<&'t str> {
        match self {
            LineJoins::Everywhere => Some(text),
            LineJoins::Nowhere => None,
            LineJoins::Within(blocks) => {
                let after = blocks.partition_point(|block| block.end <= start);
                let block = blocks.get(after).filter(|block| block.start <= start)?;
                text.get(..block.end)
            }
        }
    }
}

/// Where in the URL the source byte `source` lands, for a byte that starts
/// one of its `segments` or lies in one.
fn url_offset_of(segments: &[Segment], source: usize) -> Option<usize> {
    segments
        .iter()
        .find(|segment| segment.source.end > source)
        .map(|segment| segment.url_start + source.saturating_sub(segment.source.start))
}

/// The lazy scan over one text: where to look next and what it may not overlap.
pub(super) struct Scanner<'t> {
    /// The text scanned: the source of the URLs found (for a document,
    /// its prose, whose URLs `document.rs` marks as `InProse` until they
    /// are placed). Owned when the scan must outlive its caller's hold on
    /// the text: a document's URLs are placed as they are found.
    text: Cow<'t, str>,
    schemes: Schemes,
    /// Where the search for the next trigger byte resumes.
    pos: usize,
    /// End of the last URL returned; no later URL starts before it.
    floor: usize,
    host_invalid: fn(&str) -> bool,
    /// Hyphen breaks met so far that may still crowd a later one's search.
    earlier_breaks: Crowd,
    /// Lines looked into as page footers in vain, that may crowd later ones.
    footer_looks: Crowd,
    /// Searches for a cut URL shown whole elsewhere, that may crowd later ones.
    cut_searches: Crowd,
    /// Where the text shows it is written the RFC way.
    rfc_marks: RfcMarks,
    joins: LineJoins<'t>,
    /// Whether template tags and regular expressions are recognised
    /// ([`ScanOptions::no_templates`] unset).
    templates: bool,
}

impl<'t> Scanner<'t> {
    pub(super) fn new(
        text: impl Into<Cow<'t, str>>,
        options: &ScanOptions,
        host_invalid: fn(&str) -> bool,
        joins: LineJoins<'t>,
    ) -> Self {
        Scanner {
            text: text.into(),
            schemes: Schemes::new(&options.extra_schemes),
            pos: 0,
            floor: 0,
            host_invalid,
            earlier_breaks: hyphen::earlier_breaks(),
            footer_looks: pages::footer_looks(),
            cut_searches: continued::cut_searches(),
            rfc_marks: RfcMarks::default(),
            joins,
            templates: !options.no_templates,
        }
    }

    /// The text scanned, which the spans of the URLs found index.
    pub(super) fn text(&self) -> &str {
        &self.text
    }

    /// The URL recognised at the trigger byte at `at`, if any.
    fn found_at(&mut self, at: usize) -> Option<Found> {
        if self.text.as_bytes()[at] == b'<' {
            let parsed = wrapper::parse(&self.text, at, &self.schemes, &mut self.footer_looks)?;
            return Some(self.wrapped(parsed));
        }
        let url = bare::at_colon(&self.text, at, self.floor, &self.schemes, self.templates)?;
        let continued = self
            .joins
            .reach(&self.text, url.url.start)
            .and_then(|reach| {
                continued::follow(
                    reach,
                    &url,
                    &self.schemes,
                    &mut continued::Looks {
                        footers: &mut self.footer_looks,
                        cut_searches: &mut self.cut_searches,
                    },
                )
            });
        match continued {
            Some(continued) => Some(self.continued(url, continued)),
            None if url.scheme_only => None,
            None => Some(self.undelimited(url)),
        }
    }

    /// Finish a wrapper: resolve its hyphen breaks and join its runs.
    fn wrapped(&mut self, parsed: wrapper::Wrapper) -> Found {
        let mut evidence = hyphen::Evidence {
            text: &self.text,
            outer: parsed.outer,
            host_invalid: &self.host_invalid,
            earlier: &mut self.earlier_breaks,
        };
        let resolved = hyphen::resolve(parsed.spans, &parsed.hyphens, &mut evidence);
        let mut diagnostics = parsed.diagnostics;
        diagnostics.extend(resolved.diagnostics);
        diagnostics.sort_by_key(|diagnostic| diagnostic.span);
        let (url, segments) = joined(&self.text, &resolved.spans);
        let joins = parsed
            .breaks
            .iter()
            .filter_map(|&(next, page_break)| {
                Some(Join {
                    url_offset: url_offset_of(&segments, next)?,
                    page_break,
                    certain: true,
                })
            })
            .collect();
        Found {
            url,
            form: parsed.form,
            outer: parsed.outer.of(),
            segments,
            alternatives: resolved.alternatives,
            diagnostics,
            joins,
        }
    }

    /// Finish a prefixed or bare URL: one run, nothing to report.
    fn undelimited(&self, url: bare::Undelimited) -> Found {
        let (joined_url, segments) = joined(&self.text, &[url.url]);
        Found {
            url: joined_url,
            form: url.form,
            outer: url.outer.of(),
            segments,
            alternatives: Vec::new(),
            diagnostics: Vec::new(),
            joins: Vec::new(),
        }
    }

    /// Finish a prefixed or bare URL joined across line breaks: resolve
    /// its hyphen breaks, and report the join with the reading cut at the
    /// first line's end as the other.
    fn continued(&mut self, url: bare::Undelimited, continued: Continued) -> Found {
        let end = continued
            .spans
            .last()
            .map_or(url.outer.end, |last| last.end);
        let outer = Span::new(url.outer.start, end);
        let mut evidence = hyphen::Evidence {
            text: &self.text,
            outer,
            host_invalid: &self.host_invalid,
            earlier: &mut self.earlier_breaks,
        };
        let resolved = hyphen::resolve(continued.spans.clone(), &continued.hyphens, &mut evidence);
        let (joined_url, segments) = joined(&self.text, &resolved.spans);
        let rfc_style = self.rfc_marks.near(&self.text, outer);
        let (broken, cut) = continued::finding(&self.text, &url, &continued, outer, rfc_style);
        let mut diagnostics = vec![broken];
        diagnostics.extend(resolved.diagnostics);
        diagnostics.sort_by_key(|diagnostic| diagnostic.span);
        let mut alternatives = vec![cut];
        alternatives.extend(resolved.alternatives);
        let joins = continued
            .breaks
            .iter()
            .filter_map(|each| {
                let url_offset = url_offset_of(&segments, each.piece.start)?;
                Some(Join {
                    url_offset,
                    page_break: each.page,
                    certain: each.is_certain(),
                })
            })
            .collect();
        Found {
            url: joined_url,
            form: url.form,
            outer: outer.of(),
            segments,
            alternatives,
            diagnostics,
            joins,
        }
    }
}

impl Scanner<'_> {
    /// True when `found`, a bare or prefixed URL, is a regular expression
    /// that holds a scheme: passed over whole, so that nothing inside it is
    /// taken for a URL either.
    fn is_pattern(&self, found: &Found) -> bool {
        self.templates
            && matches!(found.form, Form::Bare | Form::Prefixed)
            && pattern::is_regular_expression(&self.text, found.outer.start, &found.url)
    }
}

impl Iterator for Scanner<'_> {
    type Item = Found;

    fn next(&mut self) -> Option<Found> {
        while let Some(offset) = memchr::memchr2(b'<', b':', self.text.as_bytes().get(self.pos..)?)
        {
            let at = self.pos + offset;
            match self.found_at(at) {
                Some(found) => {
                    self.pos = found.outer.end.max(at + 1);
                    self.floor = found.outer.end;
                    if !self.is_pattern(&found) {
                        return Some(found);
                    }
                }
                None => self.pos = at + 1,
            }
        }
        self.pos = self.text.len();
        None
    }
}
