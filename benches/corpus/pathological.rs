//! Inputs built to expose super-linear scanning: each is a block that is
//! repeated to the requested size, so a linear scanner takes the same time
//! per MB at every size.

use super::prng::Prng;

/// Length of each line of colons (every `:` is a scheme candidate).
pub const COLON_LINE: usize = 100_000;

/// Unterminated `<URL:` openings per block.
pub const UNTERMINATED_PER_BLOCK: usize = 10_000;

/// Nesting depth of the parenthesis blocks.
pub const PAREN_DEPTH: usize = 5_000;

/// Bytes from one hyphen break to the next: just over the 256 KiB the
/// evidence searches, shared among the 16 breaks that keep a break from
/// being searched, so that every break is searched.
pub const HYPHEN_BREAK_SPACING: usize = 16_500;

/// Bytes from one bare URL broken at the margin to the next: just over the
/// 256 KiB the search for its cut reaches, shared among the 16 searches
/// that keep a later one from being made, so that every one is made.
pub const LINE_BREAK_SPACING: usize = 16_500;

/// What follows an unterminated `<URL:`: never a `>`, so a scanner that looks
/// ahead for the closing bracket without a bound reads to the end every time.
const UNTERMINATED_TAILS: &[&str] = &[
    "http://a.example.org/path",
    "",
    "ftp://ftp.example.net/pub/long-\n   ",
    "http://www.example.com/ and then more words",
    "\n      ",
    "mailto:someone@example.org",
    "gopher://x.example/ <URL:",
];

/// Text around `<` that never makes a URL.
const LONE_ANGLES: &[&str] = &[
    "<", "<<<<", "a < b", "<tag", "<URL", "<U", "<http", "< URL", "<URL :", "<<URL", "<\n   ",
    "x<y<z",
];

/// One line of [`COLON_LINE`] colons.
pub fn colons(out: &mut String) {
    out.extend(std::iter::repeat_n(':', COLON_LINE));
    out.push('\n');
}

/// [`UNTERMINATED_PER_BLOCK`] `<URL:` openings that are never closed.
pub fn unterminated(rng: &mut Prng, out: &mut String) {
    for _ in 0..UNTERMINATED_PER_BLOCK {
        out.push_str("<URL:");
        out.push_str(rng.pick(UNTERMINATED_TAILS));
        out.push_str(if rng.chance(30) { "\n" } else { " " });
    }
}

/// A line of about 80 bytes of `<` in every non-URL guise.
pub fn angles(rng: &mut Prng, out: &mut String) {
    let start = out.len();
    while out.len() - start < 80 {
        out.push_str(rng.pick(LONE_ANGLES));
        out.push(' ');
    }
    out.push('\n');
}

/// URLs inside, around and before [`PAREN_DEPTH`]-deep parentheses, balanced
/// and not, so that bracket matching must stay linear.
pub fn parens(out: &mut String) {
    let open = "(".repeat(PAREN_DEPTH);
    let close = ")".repeat(PAREN_DEPTH);
    out.push_str(&format!(
        "{open}http://a.example.org/wiki/{open}x{close}{close}\n"
    ));
    out.push_str(&format!("see http://b.example.org/{close}.\n"));
    out.push_str(&format!("{open} no URL here, only brackets\n"));
    out.push_str(&format!("({open}https://c.example.com/a_(b){close}\n"));
}

/// A wrapper broken after a hyphen, then lines of the letters of its parts
/// up to [`HYPHEN_BREAK_SPACING`] bytes: neither reading of the part occurs
/// unbroken, so each search reads its whole reach, and every candidate
/// position of the prose nearly matches.
pub fn hyphen_breaks(out: &mut String) {
    let start = out.len();
    out.push_str("<URL:http://example.org/eeeeeeeeee-\n eeeeeeeeeex>\n");
    let line = format!("{}\n", "eeeeeeeeex".repeat(20));
    while out.len() - start + line.len() <= HYPHEN_BREAK_SPACING {
        out.push_str(&line);
    }
    let rest = HYPHEN_BREAK_SPACING - (out.len() - start);
    out.extend(std::iter::repeat_n('e', rest - 1));
    out.push('\n');
}

/// A prose line of exactly 72 columns: the right margin of
/// [`line_breaks`].
const MARGIN_LINE: &str =
    "   ffffffffff ffffffffff ffffffffff ffffffffff ffffffffff ffffffffff fff";

/// A bare URL broken inside a word at the right margin, then a URL ending
/// with `/` before a blank line and a footer-like line whose neighbours
/// never number on, then margin lines up to [`LINE_BREAK_SPACING`] bytes:
/// the cut URL never appears elsewhere ending where its line does, so each
/// search for it reads its whole reach, and each false footer is looked
/// into on both sides.
pub fn line_breaks(out: &mut String) {
    let start = out.len();
    out.push_str(MARGIN_LINE);
    out.push('\n');
    out.push_str("   ffffffffff http://example.org/ffffffffff/ffffffffff/fffffffffffffffff\n");
    out.push_str("   ffffff_ffffffx.html and on.\n");
    out.push_str("   ffffffffff http://example.org/ffffffffff/\n\n");
    out.push_str("Not a footer                                       [Page 7]\n");
    while out.len() - start + MARGIN_LINE.len() < LINE_BREAK_SPACING {
        out.push_str(MARGIN_LINE);
        out.push('\n');
    }
    let rest = LINE_BREAK_SPACING - (out.len() - start);
    out.extend(std::iter::repeat_n('f', rest - 1));
    out.push('\n');
}

/// A URL's start once, then 64 KiB of `|` per block, with no line break:
/// the whole corpus is one URL with one run of an unsafe character.
pub fn unsafe_run(started: bool, out: &mut String) {
    if !started {
        out.push_str("see http://a.example/");
    }
    out.extend(std::iter::repeat_n('|', 64 * 1024));
}

/// A URL's start once, then 32 Ki `${` per block, with no line break: one
/// URL whose `${` are never closed, so each is a placeholder that runs to
/// the URL's end, and each `{` an unsafe character inside it.
pub fn brace_run(started: bool, out: &mut String) {
    if !started {
        out.push_str("see http://a.example/");
    }
    out.extend(std::iter::repeat_n("${", 32 * 1024));
}

/// A URL's start once, then 16 Ki `{a}` per block, with no line break: one
/// URL whose host is one placeholder after another, read byte by byte to
/// find where the authority ends.
pub fn host_placeholders(started: bool, out: &mut String) {
    if !started {
        out.push_str("see http://");
    }
    out.extend(std::iter::repeat_n("{a}", 16 * 1024));
}
