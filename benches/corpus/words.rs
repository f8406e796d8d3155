//! The vocabulary the generated text is made of, plus the sentence builder
//! that prose and RFC-style text share.
//!
//! The words are the project's own; the mix of short function words, longer
//! technical words, a few non-ASCII words and a few `:`/`<` that are not URLs
//! gives the scanner the false triggers it meets in real documents.

use super::prng::Prng;

/// Common words, weighted towards the short ones by repetition.
const WORDS: &[&str] = &[
    "the",
    "the",
    "the",
    "of",
    "of",
    "and",
    "and",
    "to",
    "to",
    "a",
    "a",
    "in",
    "in",
    "is",
    "is",
    "that",
    "for",
    "it",
    "as",
    "with",
    "be",
    "on",
    "by",
    "this",
    "are",
    "or",
    "from",
    "at",
    "an",
    "which",
    "not",
    "can",
    "may",
    "should",
    "must",
    "will",
    "each",
    "when",
    "other",
    "some",
    "resource",
    "locator",
    "scheme",
    "host",
    "port",
    "path",
    "server",
    "client",
    "protocol",
    "document",
    "archive",
    "mirror",
    "gateway",
    "directory",
    "message",
    "mailbox",
    "request",
    "response",
    "character",
    "encoding",
    "octet",
    "sequence",
    "syntax",
    "section",
    "example",
    "network",
    "address",
    "transfer",
    "retrieval",
    "interpretation",
    "specification",
    "user",
    "password",
    "reserved",
    "unsafe",
    "escape",
    "printable",
    "software",
    "release",
    "version",
    "maintainer",
    "project",
    "mailing",
    "list",
    "report",
    "build",
    "install",
    "configure",
    "download",
    "package",
    "manual",
    "tutorial",
    "reference",
    "appendix",
    "note",
    "page",
    "café",
    "naïve",
    "résumé",
    "Zürich",
    "über",
    "—",
];

/// Sentence openers that end in a colon but start no URL.
const COLON_OPENERS: &[&str] = &[
    "Note:",
    "Warning:",
    "Example:",
    "See also:",
    "Summary:",
    "Q:",
];

/// Fragments with `:` or `<` in running text that are not URLs.
const FALSE_TRIGGERS: &[&str] = &[
    "10:30",
    "at 09:15:07",
    "ratio 3:1",
    "if a < b",
    "x<y",
    "<--",
    "C:\\TEMP",
    "std::io",
    "key: value",
];

/// One word in this many is a false trigger (a sentence opener with a colon
/// twice as rarely).
const FALSE_TRIGGER_ODDS: usize = 150;

/// Appends words to a text, breaking lines at a column like a text editor.
#[derive(Debug)]
pub struct LineWriter {
    width: usize,
    indent: &'static str,
    column: usize,
}

impl LineWriter {
    /// A writer filling lines up to `width` columns, each starting with
    /// `indent`; `usize::MAX` never breaks.
    pub fn new(width: usize, indent: &'static str) -> Self {
        LineWriter {
            width,
            indent,
            column: 0,
        }
    }

    /// Append `word` after a space, or on a new line when it would not fit.
    pub fn word(&mut self, out: &mut String, word: &str) {
        self.word_of(out, &[word]);
    }

    /// Append one word made of `parts` (a word and its punctuation), without
    /// building it first: the generator's speed bounds the end-to-end runs.
    pub fn word_of(&mut self, out: &mut String, parts: &[&str]) {
        let len: usize = parts.iter().map(|part| part.len()).sum();
        if self.column == 0 {
            out.push_str(self.indent);
            self.column = self.indent.len();
        } else if self.column + 1 + len > self.width {
            self.newline(out);
            out.push_str(self.indent);
            self.column = self.indent.len();
        } else {
            out.push(' ');
            self.column += 1;
        }
        for part in parts {
            out.push_str(part);
        }
        self.column += len;
    }

    /// Append raw text that the caller has already laid out, such as a
    /// wrapped URL whose second part starts a new line.
    pub fn raw(&mut self, out: &mut String, text: &str) {
        out.push_str(text);
        self.column = match text.rfind('\n') {
            Some(at) => text.len() - at - 1,
            None => self.column + text.len(),
        };
    }

    /// Whether no line breaks are ever inserted.
    pub fn is_unbounded(&self) -> bool {
        self.width == usize::MAX
    }

    /// End the current line.
    pub fn newline(&mut self, out: &mut String) {
        out.push('\n');
        self.column = 0;
    }
}

/// Append one sentence of `words` words, with occasional false triggers.
pub fn sentence(rng: &mut Prng, lines: &mut LineWriter, out: &mut String, words: usize) {
    // About one false trigger per KB, as in real documents: dense enough to
    // cost a scanner something, rare enough not to dominate the floor.
    if rng.below(FALSE_TRIGGER_ODDS * 2) == 0 {
        lines.word(out, rng.pick(COLON_OPENERS));
    }
    for index in 0..words {
        let word = rng.pick(WORDS);
        let mut first = [0; 4];
        let [head, tail] = if index == 0 {
            capitalised(word, &mut first)
        } else {
            ["", word]
        };
        if index + 1 == words {
            lines.word_of(out, &[head, tail, "."]);
        } else if index > 0 && rng.below(FALSE_TRIGGER_ODDS) == 0 {
            lines.word(out, rng.pick(FALSE_TRIGGERS));
        } else if rng.chance(7) {
            lines.word_of(out, &[head, tail, ","]);
        } else {
            lines.word_of(out, &[head, tail]);
        }
    }
}

/// `word` as its upper-cased first character (encoded in `buffer`) and the
/// rest, so that no string is allocated per sentence.
fn capitalised<'w>(word: &'w str, buffer: &'w mut [u8; 4]) -> [&'w str; 2] {
    let mut chars = word.chars();
    match chars.next() {
        // Characters that upper-case to several (ß) keep the first; no word
        // in the vocabulary has one.
        Some(first) => {
            let upper = first.to_uppercase().next().unwrap_or(first);
            [upper.encode_utf8(buffer), chars.as_str()]
        }
        None => ["", ""],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_never_exceed_the_width_unless_one_word_is_longer() {
        let mut rng = Prng::new(3);
        let mut lines = LineWriter::new(40, "   ");
        let mut out = String::new();
        for _ in 0..50 {
            sentence(&mut rng, &mut lines, &mut out, 12);
        }
        for line in out.lines() {
            assert!(line.len() <= 40 || !line.trim().contains(' '), "{line:?}");
            assert!(line.starts_with("   "), "{line:?}");
        }
    }

    #[test]
    fn capitalised_handles_non_ascii_and_empty_words() {
        for (word, expected) in [("über", "Über"), ("the", "The"), ("—", "—"), ("", "")] {
            let mut buffer = [0; 4];
            assert_eq!(capitalised(word, &mut buffer).concat(), expected);
        }
    }
}
