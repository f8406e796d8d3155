//! How far a document is read: no further than its URLs need.
//!
//! Parsing a whole document to find the few URLs of one section costs
//! most of a run on large Markdown files. A Markdown document may instead
//! be read only in the sections that may hold a URL ([`super::sections`]),
//! or as far as the empty line after the last place one may be
//! ([`super::markdown::Part`]), each when it reads there as the whole
//! document does. Other markups are read whole. The scanner, which knows
//! what may hold a URL and whether a reading in part is safe for its own
//! searches (a hyphen break looks at text around it), takes the first
//! reading in part it can use, else the whole.

use super::document::Document;
use super::markdown::{self, Part};
use super::{html, rst, sections};
use crate::source::Markup;
use crate::span::Span;

/// A document in a markup, and where the last URL it holds may hold URL
/// syntax.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DocumentPlan<'t> {
    text: &'t str,
    reader: Reader,
    verbatim: bool,
    last: usize,
}

/// The markups that have a reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reader {
    Markdown,
    Html,
    Rst,
}

impl<'t> DocumentPlan<'t> {
    /// The plan for `text` in `markup`, whose last URL may hold URL syntax
    /// at `last` and nowhere after; `verbatim` reads code as prose too.
    /// `None` for plain text, which has no markup to read.
    pub(crate) fn new(
        text: &'t str,
        markup: Markup,
        verbatim: bool,
        last: usize,
    ) -> Option<DocumentPlan<'t>> {
        let reader = match markup {
            Markup::Plain => return None,
            Markup::Markdown => Reader::Markdown,
            Markup::Html => Reader::Html,
            Markup::Rst => Reader::Rst,
        };
        Some(DocumentPlan {
            text,
            reader,
            verbatim,
            last,
        })
    }

    /// The readings in part worth trying, cheapest first, each made only
    /// when asked for: the sections that `may_hold_url` does not rule out,
    /// then the part up to the empty line after the last URL. None for a
    /// markup whose parts need what came before them.
    pub(crate) fn in_part<'p>(
        &'p self,
        may_hold_url: impl Fn(&str) -> bool + 'p,
    ) -> impl Iterator<Item = Document> + 'p {
        let sections = std::iter::once_with(move || self.in_sections(may_hold_url));
        let part = std::iter::once_with(move || self.up_to_last());
        sections.chain(part).flatten()
    }

    /// The whole document.
    pub(crate) fn whole(&self) -> Document {
        match self.reader {
            Reader::Markdown => markdown::document(self.text, self.verbatim),
            Reader::Html => html::document(self.text, self.verbatim),
            Reader::Rst => rst::document(self.text, self.verbatim),
        }
    }

    /// A Markdown document read only in its sections that `may_hold_url`
    /// does not rule out, and the one holding the last URL; in most
    /// documents they are a small part. `None` when the document is one
    /// section or a section may read otherwise alone.
    pub(crate) fn in_sections(&self, may_hold_url: impl Fn(&str) -> bool) -> Option<Document> {
        if self.reader != Reader::Markdown {
            return None;
        }
        let (text, last) = (self.text, self.last);
        let starts = sections::fresh_starts(text, last);
        if starts.is_empty() {
            return None;
        }
        let mut runs: Vec<Span> = Vec::new();
        let ends = starts.iter().copied().chain([text.len()]);
        let sections = [0].into_iter().chain(starts.iter().copied()).zip(ends);
        for (start, end) in sections.take_while(|&(start, _)| start <= last) {
            let holds_last = end > last;
            if !holds_last && !may_hold_url(&text[start..end]) {
                continue;
            }
            match runs.last_mut() {
                Some(run) if run.end == start => run.end = end,
                _ => runs.push(Span::new(start, end)),
            }
        }
        markdown::document_runs(text, &starts, &runs, self.verbatim)
    }

    /// A Markdown document read only as far as the empty line after the
    /// last URL: the rest holds none, and is often most of it. `None` when
    /// that part may read otherwise alone than in the whole document.
    pub(crate) fn up_to_last(&self) -> Option<Document> {
        if self.reader != Reader::Markdown {
            return None;
        }
        let part = Part::holding(self.text, self.last)?;
        markdown::document_part(self.text, part, self.verbatim)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_has_no_plan_and_other_markups_but_markdown_are_read_whole() {
        assert!(DocumentPlan::new("http://a.example/", Markup::Plain, false, 0).is_none());
        for (markup, text) in [
            (Markup::Html, "<p>http://a.example/</p>\n\n<p>b</p>\n"),
            (Markup::Rst, "Title\n=====\n\nhttp://a.example/\n\nb\n"),
        ] {
            let plan = DocumentPlan::new(text, markup, false, 10).expect("a markup");
            assert_eq!(plan.in_part(|_| true).count(), 0, "{markup:?}");
            assert!(plan.whole().prose.contains("http://a.example/"));
        }
    }

    #[test]
    fn a_markdown_document_is_read_in_the_sections_that_may_hold_a_url() {
        let text =
            "# One\n\nhttp://a.example/\n\n# Two\n\nno link here\n\n# Three\n\nhttp://c.example/\n";
        let last = text.find("http://c").expect("a URL");
        let plan = DocumentPlan::new(text, Markup::Markdown, false, last).expect("a markup");
        let document = plan
            .in_sections(|section| section.contains("http:"))
            .expect("read in sections");
        assert!(document.prose.contains("http://a.example/"));
        assert!(document.prose.contains("http://c.example/"));
        assert!(!document.prose.contains("no link here"));
        assert_eq!(document.prose.len(), text.len());
        let first = plan.in_part(|section| section.contains("http:")).next();
        assert_eq!(first.map(|reading| reading.prose), Some(document.prose));
        assert!(plan.whole().prose.contains("no link here"));
    }

    #[test]
    fn a_markdown_document_is_read_as_far_as_the_empty_line_after_its_last_url() {
        let text = "See http://a.example/ and
more.

plain words after
";
        let last = text.find("http").expect("a URL");
        let plan = DocumentPlan::new(text, Markup::Markdown, false, last).expect("a markup");
        let document = plan.up_to_last().expect("read in part");
        assert!(document.prose.contains("http://a.example/"));
        assert!(!document.prose.contains("plain words"));
        // After the sections that may hold a URL, the part.
        let readings: Vec<Document> = plan.in_part(|_| true).collect();
        assert_eq!(readings.len(), 2);
        assert_eq!(readings[1].prose, document.prose);
    }
}
