//! A deterministic corpus generator for urlint's benchmarks.
//!
//! Every corpus is made here from a seed, never downloaded, so that figures
//! are reproducible on any machine and the repository ships no third-party
//! text. Each [`Kind`] produces text block by block; [`stream`] cuts the
//! output at exactly the requested size and hands it over in bounded pieces,
//! so a 2 GB corpus can be piped to `urlint` without being held in memory.

mod dense;
mod pathological;
mod prng;
mod prose;
mod rfc;
mod size;
mod urls;
mod words;

pub use size::{format_size, parse_size};

use dense::Dense;
use prng::Prng;
use prose::Prose;
use rfc::RfcText;

/// The seed used unless one is given, so that default runs compare.
pub const DEFAULT_SEED: u64 = 0x0075_726c_696e_7431;

/// Bytes handed to the sink at a time by [`stream`].
const PIECE: usize = 1 << 20;

/// What a corpus looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Prose wrapped at 72 columns, one URL every 1-2 KB.
    Prose,
    /// RFC-style text with `<URL:...>` references wrapped across lines.
    Rfc,
    /// Link lists, one URL every ~50 bytes.
    Dense,
    /// Prose without a line break: one line as long as the corpus.
    LongLine,
    /// Lines of 100,000 `:`.
    Colons,
    /// `<URL:` openings that are never closed, 10,000 per block.
    Unterminated,
    /// `<` in every guise that is not a URL.
    Angles,
    /// URLs in and around parentheses nested 5,000 deep.
    Parens,
    /// `<URL:` wrappers broken after a hyphen, each searched for evidence
    /// through the whole reach on both sides and never finding any.
    HyphenBreaks,
    /// Bare URLs broken inside a word at the right margin, each searched
    /// for its cut shown whole through the whole reach, and false page
    /// footers after URLs, each looked into on both sides.
    LineBreaks,
    /// One URL whose path is a single run of `|` as long as the corpus: one
    /// finding whose message and fix grow with every character.
    UnsafeRun,
    /// One URL whose path is a single run of `${` as long as the corpus:
    /// placeholders never closed, each holding the rest of the URL.
    BraceRun,
    /// One URL whose host is a run of `{a}` as long as the corpus.
    HostPlaceholders,
}

/// Each kind with its command-line name and whether it is pathological.
const KINDS: &[(Kind, &str, bool)] = &[
    (Kind::Prose, "prose", false),
    (Kind::Rfc, "rfc", false),
    (Kind::Dense, "dense", false),
    (Kind::LongLine, "long-line", true),
    (Kind::Colons, "colons", true),
    (Kind::Unterminated, "unterminated", true),
    (Kind::Angles, "angles", true),
    (Kind::Parens, "parens", true),
    (Kind::HyphenBreaks, "hyphen-breaks", true),
    (Kind::LineBreaks, "line-breaks", true),
    (Kind::UnsafeRun, "unsafe-run", true),
    (Kind::BraceRun, "brace-run", true),
    (Kind::HostPlaceholders, "host-placeholders", true),
];

impl Kind {
    /// Every kind, realistic ones first.
    pub fn all() -> impl Iterator<Item = Kind> {
        KINDS.iter().map(|(kind, _, _)| *kind)
    }

    /// The kinds built to break a scanner rather than to resemble documents.
    pub fn pathological() -> impl Iterator<Item = Kind> {
        KINDS
            .iter()
            .filter(|(_, _, bad)| *bad)
            .map(|(kind, _, _)| *kind)
    }

    /// The name used on command lines and in tables.
    pub fn name(self) -> &'static str {
        KINDS
            .iter()
            .find(|(kind, _, _)| *kind == self)
            .map_or("?", |(_, name, _)| name)
    }

    /// The kind called `name`, or an error listing the valid names.
    pub fn parse(name: &str) -> Result<Kind, String> {
        KINDS
            .iter()
            .find(|(_, known, _)| *known == name)
            .map(|(kind, _, _)| *kind)
            .ok_or_else(|| {
                let names: Vec<&str> = KINDS.iter().map(|(_, name, _)| *name).collect();
                format!(
                    "unknown corpus kind {name:?} (one of: {})",
                    names.join(", ")
                )
            })
    }
}

/// The block-by-block source behind a [`Kind`].
enum Blocks {
    Prose(Prose),
    Rfc(RfcText),
    Dense(Dense),
    Colons,
    Unterminated(Prng),
    Angles(Prng),
    Parens,
    HyphenBreaks,
    LineBreaks,
    /// Whether the URL's start is written yet.
    UnsafeRun(bool),
    /// Whether the URL's start is written yet.
    BraceRun(bool),
    /// Whether the URL's start is written yet.
    HostPlaceholders(bool),
}

impl Blocks {
    fn new(kind: Kind, seed: u64) -> Self {
        match kind {
            Kind::Prose => Blocks::Prose(Prose::wrapped(seed)),
            Kind::LongLine => Blocks::Prose(Prose::single_line(seed)),
            Kind::Rfc => Blocks::Rfc(RfcText::new(seed)),
            Kind::Dense => Blocks::Dense(Dense::new(seed)),
            Kind::Colons => Blocks::Colons,
            Kind::Unterminated => Blocks::Unterminated(Prng::new(seed)),
            Kind::Angles => Blocks::Angles(Prng::new(seed)),
            Kind::Parens => Blocks::Parens,
            Kind::HyphenBreaks => Blocks::HyphenBreaks,
            Kind::LineBreaks => Blocks::LineBreaks,
            Kind::UnsafeRun => Blocks::UnsafeRun(false),
            Kind::BraceRun => Blocks::BraceRun(false),
            Kind::HostPlaceholders => Blocks::HostPlaceholders(false),
        }
    }

    /// Append the next block; every call appends at least one byte.
    fn append_next(&mut self, out: &mut String) {
        match self {
            Blocks::Prose(prose) => prose.paragraph(out),
            Blocks::Rfc(rfc) => rfc.section(out),
            Blocks::Dense(dense) => dense.entry(out),
            Blocks::Colons => pathological::colons(out),
            Blocks::Unterminated(rng) => pathological::unterminated(rng, out),
            Blocks::Angles(rng) => pathological::angles(rng, out),
            Blocks::Parens => pathological::parens(out),
            Blocks::HyphenBreaks => pathological::hyphen_breaks(out),
            Blocks::LineBreaks => pathological::line_breaks(out),
            Blocks::UnsafeRun(started) => {
                pathological::unsafe_run(std::mem::replace(started, true), out)
            }
            Blocks::BraceRun(started) => {
                pathological::brace_run(std::mem::replace(started, true), out)
            }
            Blocks::HostPlaceholders(started) => {
                pathological::host_placeholders(std::mem::replace(started, true), out)
            }
        }
    }
}

/// Produce exactly `size` bytes of `kind` from `seed`, handing them to `sink`
/// in pieces of about 1 MB (each valid UTF-8 on its own).
///
/// The last block is cut at a character boundary and padded with spaces, so
/// the size is exact whatever the block lengths.
pub fn stream<E>(
    kind: Kind,
    size: usize,
    seed: u64,
    mut sink: impl FnMut(&str) -> Result<(), E>,
) -> Result<(), E> {
    let mut blocks = Blocks::new(kind, seed);
    let mut piece = String::with_capacity(PIECE.min(size) + PIECE);
    let mut remaining = size;
    while remaining > 0 {
        blocks.append_next(&mut piece);
        if piece.len() >= remaining {
            truncate_exactly(&mut piece, remaining);
            remaining = 0;
        } else if piece.len() >= PIECE {
            remaining -= piece.len();
        } else {
            continue;
        }
        sink(&piece)?;
        piece.clear();
    }
    Ok(())
}

/// Exactly `size` bytes of `kind` from `seed`, in memory.
pub fn generate(kind: Kind, size: usize, seed: u64) -> String {
    let mut text = String::with_capacity(size);
    let appended: Result<(), std::convert::Infallible> = stream(kind, size, seed, |piece| {
        text.push_str(piece);
        Ok(())
    });
    match appended {
        Ok(()) => text,
        Err(never) => match never {},
    }
}

/// Cut `text` to `size` bytes without splitting a character.
fn truncate_exactly(text: &mut String, size: usize) {
    let mut cut = size.min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text.truncate(cut);
    text.extend(std::iter::repeat_n(' ', size - cut));
}

#[cfg(test)]
mod tests;
