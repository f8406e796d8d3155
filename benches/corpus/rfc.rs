//! RFC-style text: indented paragraphs, numbered sections, page breaks, and
//! `<URL:...>` references that are wrapped across lines the way RFC 1738's
//! Appendix describes (after a slash, after a hyphen, after the `URL:`
//! prefix, with continuation lines indented).

use super::prng::Prng;
use super::urls::{url, Shape};
use super::words::{sentence, LineWriter};

const HEADINGS: &[&str] = &[
    "Introduction",
    "Syntax",
    "Specific Schemes",
    "Security",
    "Examples",
];
const LEADS: &[&str] = &[
    "is available as",
    "is described in",
    "see",
    "can be found at",
];
const AFTER: &[&str] = &[">", ">.", ">,", ">;"];
const CONTINUATION_INDENTS: &[&str] = &["   ", "      ", "\t"];

/// Roughly one page of 56 lines at the usual fill.
const PAGE_BYTES: usize = 3_400;

/// Where a `<URL:...>` reference is split across two lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Break {
    /// It fits on one line (or is left long).
    None,
    /// Right after `<URL:`, the URL itself on the next line.
    AfterPrefix,
    /// After the last `/` of the path.
    AfterSlash,
    /// After a hyphen in the path: the ambiguous case of the Appendix.
    AfterHyphen,
}

const BREAKS: &[Break] = &[
    Break::None,
    Break::AfterPrefix,
    Break::AfterSlash,
    Break::AfterHyphen,
];

/// Generates RFC-style sections with a URL reference every 400-1,000 bytes.
#[derive(Debug)]
pub struct RfcText {
    rng: Prng,
    lines: LineWriter,
    until_reference: usize,
    until_page_break: usize,
    section: usize,
    page: usize,
}

impl RfcText {
    /// A document whose whole text is fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        let mut rng = Prng::new(seed);
        let until_reference = rng.between(400, 1_000);
        RfcText {
            rng,
            lines: LineWriter::new(72, "   "),
            until_reference,
            until_page_break: PAGE_BYTES,
            section: 0,
            page: 1,
        }
    }

    /// Append one numbered section of two to four paragraphs.
    pub fn section(&mut self, out: &mut String) {
        self.section += 1;
        let heading = self.rng.pick(HEADINGS);
        out.push_str(&format!("{}.  {heading}\n\n", self.section));
        for _ in 0..self.rng.between(2, 4) {
            self.paragraph(out);
        }
    }

    fn paragraph(&mut self, out: &mut String) {
        let start = out.len();
        for _ in 0..self.rng.between(2, 6) {
            let before = out.len();
            let words = self.rng.between(8, 20);
            sentence(&mut self.rng, &mut self.lines, out, words);
            self.until_reference = self.until_reference.saturating_sub(out.len() - before);
            if self.until_reference == 0 {
                self.reference(out);
                self.until_reference = self.rng.between(400, 1_000);
            }
        }
        self.lines.newline(out);
        self.lines.newline(out);
        // Pages are measured in bytes and checked once per paragraph, so a
        // page runs over by at most one paragraph, as real ones do.
        self.until_page_break = self.until_page_break.saturating_sub(out.len() - start);
        if self.until_page_break == 0 {
            self.page_break(out);
        }
    }

    /// Append "<lead> <URL:...>" with the reference split by a random rule.
    fn reference(&mut self, out: &mut String) {
        let lead = self.rng.pick(LEADS);
        self.lines.word(out, lead);
        let style = self.rng.pick(BREAKS);
        let shape = if style == Break::AfterHyphen {
            Shape::Hyphenated
        } else {
            Shape::Any
        };
        let url = url(&mut self.rng, shape);
        let after = self.rng.pick(AFTER);
        let indent = self.rng.pick(CONTINUATION_INDENTS);
        let wrapped = format!("<URL:{url}");
        match split_point(&wrapped, style) {
            Some(at) => {
                let (head, rest) = wrapped.split_at(at);
                self.lines.word(out, head);
                self.lines.raw(out, &format!("\n{indent}{rest}{after}"));
            }
            None => self.lines.word(out, &format!("{wrapped}{after}")),
        }
    }

    /// Close the page with an RFC footer, a form feed and the next header.
    fn page_break(&mut self, out: &mut String) {
        out.push_str(&format!(
            "\nBench, et al.{:>58}\n\u{c}\nRFC 9999{:>40}{:>24}\n\n",
            format!("[Page {}]", self.page),
            "Generated Corpus",
            "November 2026"
        ));
        self.page += 1;
        self.until_page_break = PAGE_BYTES;
    }
}

/// Byte offset in `<URL:...` after which to break the line, if `style` applies.
fn split_point(wrapped: &str, style: Break) -> Option<usize> {
    // Without "//" (mailto:, news:) there is no path to break in.
    let path_start = wrapped.find("://").map_or(wrapped.len(), |at| at + 3);
    let path = wrapped.get(path_start..)?;
    match style {
        Break::None => None,
        Break::AfterPrefix => Some("<URL:".len()),
        Break::AfterSlash => path.rfind('/').map(|at| path_start + at + 1),
        Break::AfterHyphen => path.rfind('-').map(|at| path_start + at + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc1738_appendix_references_break_after_prefix_slash_and_hyphen() {
        let url = "<URL:http://h.example.org/a/long-name";
        assert_eq!(split_point(url, Break::AfterPrefix), Some(5));
        assert_eq!(
            &url[..split_point(url, Break::AfterSlash).unwrap_or(0)],
            "<URL:http://h.example.org/a/"
        );
        assert_eq!(
            &url[..split_point(url, Break::AfterHyphen).unwrap_or(0)],
            "<URL:http://h.example.org/a/long-"
        );
        assert_eq!(split_point(url, Break::None), None);
        assert_eq!(split_point("<URL:mailto:a@b", Break::AfterSlash), None);
    }
}
