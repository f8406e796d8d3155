//! Undelimited URLs, `URL:scheme:...` and bare `scheme:...`, and every
//! decision about where such a URL ends.
//!
//! Boundary decisions (each has a row in the tests below):
//! - The URL ends at whitespace of any kind, at a control character and at
//!   `<`, `>`, `"` and `` ` ``, which RFC 1738 section 2.2 names as the usual
//!   delimiters of URLs in text (the backtick quotes code in Markdown).
//! - Other ASCII characters continue it, unsafe ones included (`{ } | \ ^ ~
//!   [ ]`), so that the validator can report them rather than the URL being
//!   silently cut short.
//! - Trailing sentence punctuation `. , ; : ! ? '` is not part of it, nor is
//!   a closing `)` or `]` without its opening partner; balanced pairs stay
//!   (`http://host/Foo_(bar)`).
//! - Non-ASCII letters and digits of scripts written with spaces (Latin,
//!   Greek, Cyrillic...) continue it, so the validator reports `non-ascii` on
//!   `http://host/café`. Letters of scripts written without spaces (CJK,
//!   kana, Hangul, Thai) end it: glued to a URL they are the sentence going
//!   on. Non-ASCII punctuation and symbols (`“ ” « » … —`) end it too.
//! - Only known schemes, or any scheme followed by `//`, make a bare URL
//!   ("Note: this" is not one); after `URL:` any scheme does. A URL needs
//!   something besides slashes after its `scheme:` ("the ftp: prefix" and
//!   `http://<host>` templates are not URLs).

use super::chars::{char_at, is_space, is_spaceless_script};
use super::found::Form;
use super::scheme::{scheme_before, scheme_then_colon, Schemes};
use crate::span::Span;

/// ASCII characters that end a bare URL besides whitespace and controls.
const DELIMITERS: &[u8] = b"<>\"`";

/// Characters that end a sentence rather than a URL when they come last.
const TRAILING_PUNCTUATION: &[u8] = b".,;:!?'";

/// Closing brackets dropped from the end when their opener is missing.
const BRACKET_PAIRS: [(u8, u8); 2] = [(b'(', b')'), (b'[', b']')];

/// Which bytes are ASCII that continues a bare URL, looked up once per byte:
/// URLs are almost all ASCII, and this lookup is most of the time spent on
/// one. Non-ASCII bytes are `false` here and decoded separately.
static ASCII_CONTINUES: [bool; 256] = ascii_continues();

/// Builds [`ASCII_CONTINUES`]: graphic characters other than [`DELIMITERS`].
const fn ascii_continues() -> [bool; 256] {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < table.len() {
        table[byte] = (byte as u8).is_ascii_graphic();
        byte += 1;
    }
    let mut index = 0;
    while index < DELIMITERS.len() {
        table[DELIMITERS[index] as usize] = false;
        index += 1;
    }
    table
}

/// Bytes [`ascii_run`] classifies per step without a branch between them.
const RUN_STEP: usize = 8;

/// Combining diacritical marks continue a URL like the letter they mark.
const COMBINING_MARKS: std::ops::RangeInclusive<char> = '\u{0300}'..='\u{036F}';

/// The prefix that makes a URL [`Form::Prefixed`] (case-insensitive).
const URL_PREFIX: &[u8] = b"URL";

/// An undelimited URL: its form, the whole match and the URL's own bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Undelimited {
    /// Prefixed or bare.
    pub(crate) form: Form,
    /// The match, `URL:` prefix included.
    pub(crate) outer: Span,
    /// The URL itself.
    pub(crate) url: Span,
}

/// The undelimited URL whose scheme ends at the `:` at `colon`, starting no
/// earlier than `floor`.
pub(crate) fn at_colon(
    text: &str,
    colon: usize,
    floor: usize,
    schemes: &Schemes,
) -> Option<Undelimited> {
    let bytes = text.as_bytes();
    // Most colons in prose end a word ("Note: this"). When what follows
    // cannot continue a URL, neither a bare nor a prefixed one has a body,
    // and looking back for a scheme would be wasted.
    if !bytes
        .get(colon + 1)
        .is_some_and(|&byte| may_continue_url(byte))
    {
        return None;
    }
    let start = scheme_before(bytes, colon, floor)?;
    let name = text.get(start..colon)?;
    if name.as_bytes().eq_ignore_ascii_case(URL_PREFIX) {
        if let Some(prefixed) = prefixed(text, start, colon) {
            return Some(prefixed);
        }
    }
    let slashes = bytes.get(colon + 1..)?.starts_with(b"//");
    if !(slashes || schemes.is_known(name)) {
        return None;
    }
    let end = url_end(text, colon + 1);
    has_body(&bytes[colon + 1..end]).then_some(Undelimited {
        form: Form::Bare,
        outer: Span::new(start, end),
        url: Span::new(start, end),
    })
}

/// `URL:scheme:...` whose `URL` starts at `start` and `:` is at `colon`.
fn prefixed(text: &str, start: usize, colon: usize) -> Option<Undelimited> {
    let bytes = text.as_bytes();
    let url_start = colon + 1;
    let scheme_len = scheme_then_colon(bytes.get(url_start..)?);
    if scheme_len == 0 {
        return None;
    }
    let body = url_start + scheme_len + 1;
    let end = url_end(text, body);
    has_body(&bytes[body..end]).then_some(Undelimited {
        form: Form::Prefixed,
        outer: Span::new(start, end),
        url: Span::new(url_start, end),
    })
}

/// True when the part after `scheme:` holds more than slashes.
fn has_body(rest: &[u8]) -> bool {
    rest.iter().any(|&b| b != b'/')
}

/// End of the bare URL whose scheme-specific part starts at `from` (a
/// character boundary).
pub(crate) fn url_end(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    let mut end = from;
    loop {
        end += bytes.get(end..).map_or(0, ascii_run);
        // At the end, at an ASCII byte that ends the URL, or at a non-ASCII
        // character, which is rare enough to decode.
        match char_at(text, end) {
            Some(c) if !c.is_ascii() && continues_url(c) => end += c.len_utf8(),
            _ => break,
        }
    }
    trim_end(bytes, from, end)
}

/// Length of the run of ASCII bytes that continue a URL at the start of
/// `bytes`: [`RUN_STEP`] bytes at a time while all of them do, then one by one.
fn ascii_run(bytes: &[u8]) -> usize {
    let whole = bytes
        .chunks_exact(RUN_STEP)
        .take_while(|step| {
            step.iter()
                .fold(true, |all, &b| all & ASCII_CONTINUES[usize::from(b)])
        })
        .count()
        * RUN_STEP;
    let rest = bytes[whole..]
        .iter()
        .take_while(|&&b| ASCII_CONTINUES[usize::from(b)])
        .count();
    whole + rest
}

/// False for a byte that certainly ends a bare URL: an ASCII byte that
/// does not continue one. A non-ASCII byte starts a character that may.
fn may_continue_url(byte: u8) -> bool {
    !byte.is_ascii() || ASCII_CONTINUES[usize::from(byte)]
}

/// True when `c` can be inside a bare URL (see the module documentation).
fn continues_url(c: char) -> bool {
    if c.is_ascii() {
        return ASCII_CONTINUES[c as usize];
    }
    !is_space(c)
        && ((c.is_alphanumeric() && !is_spaceless_script(c)) || COMBINING_MARKS.contains(&c))
}

/// Drop trailing punctuation and unbalanced closing brackets from
/// `bytes[from..end]`; returns the new end.
fn trim_end(bytes: &[u8], from: usize, mut end: usize) -> usize {
    // Counted when a closing bracket is first met: most URLs end in a letter
    // or a '/', and need no count. Only punctuation, never a bracket, has
    // been dropped by then, so the count is that of the whole URL.
    let mut balance: Option<[isize; BRACKET_PAIRS.len()]> = None;
    while end > from {
        let last = bytes[end - 1];
        match BRACKET_PAIRS.iter().position(|&(_, close)| close == last) {
            Some(index) => {
                let balance = balance.get_or_insert_with(|| bracket_balance(&bytes[from..end]));
                if balance[index] >= 0 {
                    break;
                }
                balance[index] += 1;
            }
            None if TRAILING_PUNCTUATION.contains(&last) => {}
            None => break,
        }
        end -= 1;
    }
    end
}

/// Opening minus closing brackets in `url`, for each of [`BRACKET_PAIRS`].
/// Counted with memchr's vector count: a URL in parentheses is common in
/// prose, and one nested thousands deep must not cost a loop per byte.
fn bracket_balance(url: &[u8]) -> [isize; BRACKET_PAIRS.len()] {
    BRACKET_PAIRS.map(|(open, close)| count(url, open) - count(url, close))
}

fn count(bytes: &[u8], byte: u8) -> isize {
    memchr::memchr_iter(byte, bytes).count() as isize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first undelimited URL in `text` (trying every `:`), as text.
    fn first_url(text: &str) -> Option<&str> {
        let schemes = Schemes::new(&[]);
        text.match_indices(':')
            .find_map(|(colon, _)| at_colon(text, colon, 0, &schemes))
            .map(|found| &text[found.url.range()])
    }

    #[test]
    fn appendix_bare_url_boundaries() {
        let cases: &[(&str, Option<&str>)] = &[
            // Sentence punctuation after the URL is the sentence's.
            ("see http://a.b/c.", Some("http://a.b/c")),
            ("see http://a.b/c, then", Some("http://a.b/c")),
            ("http://a.b/c; or", Some("http://a.b/c")),
            ("at http://a.b/c: the", Some("http://a.b/c")),
            ("http://a.b/c!?", Some("http://a.b/c")),
            ("'http://a.b/c'", Some("http://a.b/c")),
            ("http://a.b/c...", Some("http://a.b/c")),
            // ...but inside the URL it stays.
            (
                "http://a.b/c.html?x=1;y=2",
                Some("http://a.b/c.html?x=1;y=2"),
            ),
            ("http://a.b/it's/x", Some("http://a.b/it's/x")),
            // Brackets: balanced pairs stay, an unbalanced closer goes.
            ("(see http://a.b/c)", Some("http://a.b/c")),
            (
                "http://en.wikipedia.org/wiki/Foo_(bar)",
                Some("http://en.wikipedia.org/wiki/Foo_(bar)"),
            ),
            ("(http://a.b/Foo_(bar))", Some("http://a.b/Foo_(bar)")),
            ("(http://a.b/Foo_(bar)).", Some("http://a.b/Foo_(bar)")),
            ("[http://a.b/c]", Some("http://a.b/c")),
            ("http://a.b/x[1]", Some("http://a.b/x[1]")),
            // Delimiters end it.
            ("\"http://a.b/c\"", Some("http://a.b/c")),
            ("<a href=\"http://a.b/c\">", Some("http://a.b/c")),
            ("`http://a.b/c`", Some("http://a.b/c")),
            ("http://a.b/c<br>", Some("http://a.b/c")),
            ("http://a.b/c\tx", Some("http://a.b/c")),
            ("http://a.b/c\u{A0}x", Some("http://a.b/c")),
            ("http://a.b/c\u{3000}x", Some("http://a.b/c")),
            ("http://a.b/c\u{200B}x", Some("http://a.b/c")),
            ("http://a.b/c\u{7}x", Some("http://a.b/c")),
            // Unsafe ASCII continues it, for the validator to report.
            ("http://a.b/~joe/{x}|y^", Some("http://a.b/~joe/{x}|y^")),
            // A fragment belongs to the URL it follows, a second '#' too.
            ("http://a.b/c#sec-2.", Some("http://a.b/c#sec-2")),
            ("http://a.b/c#x#y z", Some("http://a.b/c#x#y")),
            // Non-ASCII: letters of spaced scripts continue it...
            ("http://a.b/café", Some("http://a.b/café")),
            ("http://a.b/cafe\u{301}", Some("http://a.b/cafe\u{301}")),
            ("http://a.b/путь end", Some("http://a.b/путь")),
            // ...CJK, kana, Hangul and Thai glued to it end it...
            ("请访问http://a.b/c网站", Some("http://a.b/c")),
            ("什么http://a.b.cn什么", Some("http://a.b.cn")),
            ("http://a.b/c。次", Some("http://a.b/c")),
            ("http://a.b/cです", Some("http://a.b/c")),
            ("http://a.b/c에서", Some("http://a.b/c")),
            ("http://a.b/cที่", Some("http://a.b/c")),
            ("http://a.b/c\u{FF09}", Some("http://a.b/c")),
            // ...and so does non-ASCII punctuation.
            ("“http://a.b/c”", Some("http://a.b/c")),
            ("«http://a.b/c»", Some("http://a.b/c")),
            ("http://a.b/c…", Some("http://a.b/c")),
            ("http://a.b/c—next", Some("http://a.b/c")),
            ("http://a.b/c😀", Some("http://a.b/c")),
        ];
        for &(text, expected) in cases {
            assert_eq!(first_url(text), expected, "{text:?}");
        }
    }

    #[test]
    fn appendix_only_known_schemes_or_slashes_make_bare_urls() {
        let cases: &[(&str, Option<&str>)] = &[
            ("Note: this is not a URL", None),
            ("Note:this", None),
            ("the ftp: prefix", None),
            ("mailto:<rfc822-addr-spec>", None),
            ("http://<host>:<port>/<path>", None),
            ("http://", None),
            (
                "mailto:timbl@info.cern.ch.",
                Some("mailto:timbl@info.cern.ch"),
            ),
            (
                "news:comp.infosystems.www",
                Some("news:comp.infosystems.www"),
            ),
            ("HTTP://A.B/", Some("HTTP://A.B/")),
            ("magic://a/b", Some("magic://a/b")),
            ("file:///etc/motd", Some("file:///etc/motd")),
            ("g:a", None),
            ("fxqn:/us/va", None),
            ("12:30 pm", None),
        ];
        for &(text, expected) in cases {
            assert_eq!(first_url(text), expected, "{text:?}");
        }
    }

    #[test]
    fn appendix_url_prefix_without_brackets() {
        let schemes = Schemes::new(&[]);
        let text = "see URL:ftp://a.b/c. Or url:gopher://g/1x, and URL: http://no/";
        let found: Vec<Undelimited> = text
            .match_indices(':')
            .filter_map(|(colon, _)| at_colon(text, colon, 0, &schemes))
            .filter(|found| found.form == Form::Prefixed)
            .collect();
        let urls: Vec<(&str, &str)> = found
            .iter()
            .map(|f| (&text[f.outer.range()], &text[f.url.range()]))
            .collect();
        assert_eq!(
            urls,
            [
                ("URL:ftp://a.b/c", "ftp://a.b/c"),
                ("url:gopher://g/1x", "gopher://g/1x")
            ]
        );
    }

    #[test]
    fn extra_schemes_make_bare_urls() {
        let schemes = Schemes::new(&["doi".to_string()]);
        let text = "doi:10.1000/182.";
        let found = at_colon(text, 3, 0, &schemes).map(|f| &text[f.url.range()]);
        assert_eq!(found, Some("doi:10.1000/182"));
    }
}
