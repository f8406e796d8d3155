//! Prose with a realistic URL density: one URL every 1-2 KB, written the ways
//! people write them in running text.

use super::prng::Prng;
use super::urls::{url, Shape};
use super::words::{sentence, LineWriter};

/// How a URL sits in a sentence: the word or bracket before it, whether that
/// opener touches the URL, and the text glued after it.
///
/// The trailing punctuation and brackets are what a scanner must strip, so
/// each common case appears.
const CONTEXTS: &[(&str, bool, &str)] = &[
    ("see", false, "."),
    ("at", false, ","),
    ("(", true, ")"),
    ("(see", false, ")."),
    ("\"", true, "\""),
    ("from", false, ";"),
    ("<", true, ">"),
    ("<URL:", true, ">"),
    ("link:", false, "!"),
    ("'", true, "'."),
    ("[", true, "]"),
    ("via", false, "?"),
];

/// Generates prose paragraphs, carrying the distance to the next URL across
/// paragraphs so the density does not depend on paragraph length.
#[derive(Debug)]
pub struct Prose {
    rng: Prng,
    lines: LineWriter,
    paragraph_break: &'static str,
    until_url: usize,
}

impl Prose {
    /// Prose wrapped at 72 columns, paragraphs separated by a blank line.
    pub fn wrapped(seed: u64) -> Self {
        Self::new(seed, LineWriter::new(72, ""), "\n\n")
    }

    /// Prose without a single line break: the "100 MB single line" input.
    pub fn single_line(seed: u64) -> Self {
        Self::new(seed, LineWriter::new(usize::MAX, ""), "  ")
    }

    fn new(seed: u64, lines: LineWriter, paragraph_break: &'static str) -> Self {
        let mut rng = Prng::new(seed);
        let until_url = rng.between(1_024, 2_048);
        Prose {
            rng,
            lines,
            paragraph_break,
            until_url,
        }
    }

    /// Append one paragraph of three to eight sentences.
    pub fn paragraph(&mut self, out: &mut String) {
        for _ in 0..self.rng.between(3, 8) {
            let before = out.len();
            let words = self.rng.between(6, 22);
            sentence(&mut self.rng, &mut self.lines, out, words);
            self.until_url = self.until_url.saturating_sub(out.len() - before);
            if self.until_url == 0 {
                self.url_sentence(out);
                self.until_url = self.rng.between(1_024, 2_048);
            }
        }
        if self.lines.is_unbounded() {
            self.lines.raw(out, self.paragraph_break);
        } else {
            self.lines.newline(out);
            self.lines.newline(out);
        }
    }

    /// Append a short sentence holding one URL in one of the usual contexts.
    fn url_sentence(&mut self, out: &mut String) {
        let (before, touches, after) = self.rng.pick(CONTEXTS);
        let url = url(&mut self.rng, Shape::Any);
        let lead = self.rng.pick(&[
            "More details are",
            "The file is",
            "Ask the list",
            "It moved",
        ]);
        self.lines.word(out, lead);
        if touches {
            self.lines.word(out, &format!("{before}{url}{after}"));
        } else {
            self.lines.word(out, before);
            self.lines.word(out, &format!("{url}{after}"));
        }
    }
}
