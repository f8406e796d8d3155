//! Undelimited URLs, `URL:scheme:...` and bare `scheme:...`, and every
//! decision about where such a URL starts and ends.
//!
//! Boundary decisions (each has rows named after it in the tests below):
//! - **Delimiters.** The URL ends at whitespace of any kind, at a control
//!   character and at `<`, `>`, `"` and `` ` ``: RFC 1738 section 2.2 names
//!   `<`, `>` and `"` as the usual delimiters of URLs in text, and the
//!   backtick quotes code in Markdown.
//! - **Unsafe ASCII.** Other ASCII characters continue it, unsafe ones
//!   included (`| \ ^ ~`, and brackets in pairs, below), so that the
//!   validator can report them rather than the URL being silently cut short.
//! - **Trailing punctuation.** `. , ; : ! ?` at the end are the sentence's,
//!   not the URL's; inside the URL they stay. So is a string escape of code
//!   at the end (`"http://host/\n"`, `href=\"http://host/\"`): a final
//!   backslash, or one before `n`, `r` or `t`.
//! - **Brackets, in order.** `(`, `[` and `{` inside the URL are matched
//!   with a stack: a closer that matches the innermost open one is the
//!   URL's (`http://host/Foo_(bar)`, `http://[::1]/`); one that does not,
//!   or that has no opener inside the URL, ends it, so `(see http://a/x)`,
//!   `{http://a/x}` and `[![b](http://a/x.svg)](http://b/y)` give URLs
//!   without the brackets of the text around them. An opener left at the
//!   end is dropped: nothing inside the URL closes it.
//! - **Quotes.** `'` is a URL character (RFC 1738 `extra`), `"` is not (it
//!   is unsafe, and a delimiter above), and typographic quotes are non-ASCII
//!   punctuation (below). A URL that follows a `'` ends at the next `'`, its
//!   closing quote; otherwise a final `'` that closes one opened inside the
//!   URL stays (`?q='a'`) and an unmatched one is the sentence's.
//! - **Non-ASCII.** Letters and numbers of every script (Latin, Greek,
//!   Cyrillic, Devanagari, Arabic, CJK ideographs, kana, Hangul, Thai...)
//!   continue it as Latin letters do, so the validator reports `non-ascii`
//!   on `http://host/café` and `https://ja.wikipedia.org/wiki/東京都` is
//!   found whole; combining marks and joiners continue it whatever their
//!   script, as they belong to the character before them
//!   (`http://host/हिन्दी` is one word). Non-ASCII punctuation and symbols
//!   (`“ ” « » … —`, CJK punctuation `。，、）「`, emoji) end it.
//! - **Schemes.** Only known schemes, or any scheme followed by `//`, make a
//!   bare URL ("Note: this" is not one); after `URL:` any scheme does. A URL
//!   needs something besides slashes after its `scheme:` ("the ftp:
//!   prefix" and `http://<host>` templates are not URLs), but for a
//!   `scheme://` at a line's end, which the next line may go on with its
//!   host (see `continued.rs`).
//! - **Glue before the scheme.** Punctuation before a scheme is the text's
//!   (`1.http://`, `...http://`, `see:http://`). Before a known scheme
//!   followed by `//`, text glued by a period is too: `e.g.http://` starts
//!   at `http`. A scheme is never cut out of a longer token: a tool's
//!   compound scheme (`svn+ssh://`, `git+https://`, Cargo's
//!   `registry+https://`) is one scheme, and a digit glued before one
//!   (`1abc://`) makes no URL, nor does a `printf` conversion whose letter
//!   stands where the scheme would (`"%s://%s%s"`, `%(scheme)s://`). A
//!   scheme may be long (an app's reverse-DNS
//!   redirect scheme holds its client id).
//! - **Code.** A scheme-like word followed by `::` is a path in code
//!   (`File::create`, `http::Request`, `Net::FTP`), never a URL. A known
//!   scheme whose URLs name a host after `//` (`http`, `ftp`, `file`, `svn`
//!   ...) makes a bare URL only when a `/` follows its colon: `{http:http}`,
//!   `/https:?/` and `svn:ignore` are code, while `http:/host/` is a URL
//!   with a slash missing, for the validator to report. `file:///` alone
//!   is one (the root); an unknown scheme whose query follows its colon
//!   (`magnet:?xt=urn:...`) is one too, its query whole.
//! - **Lists of settings.** A `;` or `,` followed by another `scheme://`,
//!   perhaps after `name=` (`http=http://a:8888;https=https://b:8888`),
//!   ends the URL: a new one starts there.

use super::chars::{char_at, is_letter_or_number, joins_previous};
use super::found::Form;
use super::scheme::{is_path_separator, scheme_before, scheme_then_colon, Schemes, URL_PREFIX};
use crate::span::is_line_break;
use crate::span::Span;
use crate::template::tag_len;

/// ASCII characters that end a bare URL besides whitespace and controls.
const DELIMITERS: &[u8] = b"<>\"`";

/// Characters that end a sentence rather than a URL when they come last.
const TRAILING_PUNCTUATION: &[u8] = b".,;:!?";

/// The quote that may open and close a URL or a part of one.
const QUOTE: u8 = b'\'';

/// Bytes that separate the URLs of a list of settings.
const LIST_SEPARATORS: &[u8] = b";,";

/// The backslash of string escapes in code: at the end of a URL, it and the
/// letter after it are the string's (`"http://host/\n"`, `\"` before
/// the closing quote), not the URL's.
const ESCAPE: u8 = b'\\';

/// Letters that make a string escape with [`ESCAPE`] at the end of a URL.
const ESCAPED: &[u8] = b"nrt";

/// Brackets matched in order inside a URL, opener then closer.
const BRACKET_PAIRS: [(u8, u8); 3] = [(b'(', b')'), (b'[', b']'), (b'{', b'}')];

/// How an ASCII byte takes part in a bare URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ascii {
    /// It ends the URL (and is not part of it).
    Ends,
    /// It continues the URL, whatever came before it.
    Continues,
    /// An opening bracket: it continues the URL and waits for its closer.
    Opens,
    /// The closer of the opening bracket it holds: it continues the URL
    /// only when that opener is the innermost open one.
    Closes(u8),
    /// A [`QUOTE`]: see [`Pairs::continues`].
    Quote,
    /// A [`LIST_SEPARATORS`] byte: it continues the URL unless another
    /// URL of a list starts after it.
    Separator,
}

/// How each ASCII byte takes part in a bare URL, looked up once per byte:
/// URLs are almost all ASCII, and this lookup is most of the time spent on
/// one. Non-ASCII bytes are [`Ascii::Ends`] here and decoded separately.
static ASCII: [Ascii; 256] = ascii_classes();

/// Builds [`ASCII`]: graphic characters continue a URL, except
/// [`DELIMITERS`], and brackets and quotes, which pair.
const fn ascii_classes() -> [Ascii; 256] {
    let mut table = [Ascii::Ends; 256];
    let mut byte = 0;
    while byte < table.len() {
        if (byte as u8).is_ascii_graphic() {
            table[byte] = Ascii::Continues;
        }
        byte += 1;
    }
    let mut index = 0;
    while index < DELIMITERS.len() {
        table[DELIMITERS[index] as usize] = Ascii::Ends;
        index += 1;
    }
    let mut index = 0;
    while index < BRACKET_PAIRS.len() {
        let (open, close) = BRACKET_PAIRS[index];
        table[open as usize] = Ascii::Opens;
        table[close as usize] = Ascii::Closes(open);
        index += 1;
    }
    table[QUOTE as usize] = Ascii::Quote;
    let mut index = 0;
    while index < LIST_SEPARATORS.len() {
        table[LIST_SEPARATORS[index] as usize] = Ascii::Separator;
        index += 1;
    }
    table
}

/// Bytes [`ascii_run`] classifies per step without a branch between them.
const RUN_STEP: usize = 8;

/// An undelimited URL: its form, the whole match and the URL's own bytes,
/// and how its characters ran on, for a join with the next line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Undelimited {
    /// Prefixed or bare.
    pub(crate) form: Form,
    /// The match, `URL:` prefix included.
    pub(crate) outer: Span,
    /// The URL itself.
    pub(crate) url: Span,
    /// Where the URL's characters stop before the sentence's punctuation
    /// is trimmed from its end (`http://ds.` at a line's end runs on past
    /// the URL `http://ds`).
    pub(crate) run_end: usize,
    /// The brackets and quotes open at `run_end`.
    pub(crate) pairs: Pairs,
    /// True when a quote opened the URL: it ends at the next one.
    pub(crate) quoted: bool,
    /// True for a `scheme://` with nothing after it, at a line's end: a
    /// URL only if the next line goes on with its host.
    pub(crate) scheme_only: bool,
    /// True when template tags are read through, spaces and all.
    pub(crate) tags: bool,
}

/// The undelimited URL whose scheme ends at the `:` at `colon`, starting no
/// earlier than `floor`. One that is [`Undelimited::scheme_only`] is no URL
/// unless the next line goes on with its host: the caller joins or drops it.
pub(crate) fn at_colon(
    text: &str,
    colon: usize,
    floor: usize,
    schemes: &Schemes,
    tags: bool,
) -> Option<Undelimited> {
    let bytes = text.as_bytes();
    // Most colons in prose end a word ("Note: this"). When what follows
    // cannot continue a URL, neither a bare nor a prefixed one has a body,
    // and looking back for a scheme would be wasted.
    if !bytes
        .get(colon + 1)
        .is_some_and(|&byte| may_continue_url(byte))
        || is_path_separator(bytes, colon)
    {
        return None;
    }
    let run = scheme_before(bytes, colon, floor)?;
    let name = text.get(run..colon)?;
    if name.as_bytes().eq_ignore_ascii_case(URL_PREFIX) {
        if let Some(prefixed) = prefixed(text, run, colon, tags) {
            return Some(prefixed);
        }
    }
    // Most URLs have their `//`, and then whether their scheme is known
    // matters only when text is glued before it.
    let after = &bytes[colon + 1..];
    let start = if after.starts_with(b"//") {
        run + schemes.glued_known(name).unwrap_or(0)
    } else if (schemes.is_known(name) && (after[0] == b'/' || !schemes.needs_slash(name)))
        || opens_query(after)
    {
        run
    } else {
        return None;
    };
    if !schemes.opens_body(name, after) {
        return None;
    }
    undelimited(text, Form::Bare, start, start, colon + 1, tags)
}

/// `URL:scheme:...` whose `URL` starts at `start` and `:` is at `colon`.
fn prefixed(text: &str, start: usize, colon: usize, tags: bool) -> Option<Undelimited> {
    let bytes = text.as_bytes();
    let url_start = colon + 1;
    let scheme_len = scheme_then_colon(bytes.get(url_start..)?);
    if scheme_len == 0 || is_path_separator(bytes, url_start + scheme_len) {
        return None;
    }
    undelimited(
        text,
        Form::Prefixed,
        start,
        url_start,
        url_start + scheme_len + 1,
        tags,
    )
}

/// The undelimited URL of `form` whose match starts at `start`, the URL
/// itself at `url_start` and its scheme-specific part at `body`; `None`
/// when that part holds nothing but slashes, unless it is a `scheme://`
/// at a line's end, which the next line may go on; `tags` when template
/// tags are read through.
fn undelimited(
    text: &str,
    form: Form,
    start: usize,
    url_start: usize,
    body: usize,
    tags: bool,
) -> Option<Undelimited> {
    let bytes = text.as_bytes();
    let quoted = follows_quote(bytes, start);
    let mut pairs = Pairs::default();
    let run_end = run_end(text, body, quoted, &mut pairs, tags);
    let end = trimmed_end(bytes, body, run_end, &pairs);
    let file_root =
        bytes[body..end] == *b"///" && bytes[url_start..body].eq_ignore_ascii_case(b"file:");
    let scheme_only = !has_body(&bytes[body..end]) && !file_root;
    if scheme_only && !(bytes[body..run_end] == *b"//" && line_follows(bytes, run_end)) {
        return None;
    }
    Some(Undelimited {
        form,
        outer: Span::new(start, end),
        url: Span::new(url_start, end),
        run_end,
        pairs,
        quoted,
        scheme_only,
        tags,
    })
}

/// True when nothing but spaces comes before a line break at `at`: the
/// next line may go on with what ends here.
fn line_follows(bytes: &[u8], at: usize) -> bool {
    bytes[at..]
        .iter()
        .find(|&&byte| byte != b' ' && byte != b'\t')
        .is_some_and(|&byte| is_line_break(byte))
}

/// True when `after`, the text after an unknown scheme's colon, starts
/// with a query's first parameter (`?xt=`): a URL whose body is its query,
/// as magnet links are written.
fn opens_query(after: &[u8]) -> bool {
    let Some(query) = after.strip_prefix(b"?") else {
        return false;
    };
    let name = query
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || b"_.-".contains(&b))
        .count();
    name > 0 && query.get(name) == Some(&b'=')
}

/// True when a setting's URL starts at `at`, after a `;` or `,` in a
/// list: `scheme://`, perhaps after `name=` (`https=https://`).
fn starts_listed_url(bytes: &[u8], at: usize) -> bool {
    let rest = bytes.get(at..).unwrap_or_default();
    let scheme_at = |from: usize| {
        let len = scheme_then_colon(rest.get(from..).unwrap_or_default());
        (len > 0 && rest[from + len + 1..].starts_with(b"//")).then_some(len)
    };
    if scheme_at(0).is_some() {
        return true;
    }
    let name = rest
        .iter()
        .take(MAX_SETTING_NAME)
        .take_while(|b| b.is_ascii_alphanumeric() || b"_.-+".contains(b))
        .count();
    name > 0 && rest.get(name) == Some(&b'=') && scheme_at(name + 1).is_some()
}

/// Longest setting name looked for before `=` in a list of URLs.
const MAX_SETTING_NAME: usize = 32;

/// True when a [`QUOTE`] comes right before `start`: the URL is quoted.
fn follows_quote(bytes: &[u8], start: usize) -> bool {
    start > 0 && bytes[start - 1] == QUOTE
}

/// True when the part after `scheme:` holds more than slashes.
fn has_body(rest: &[u8]) -> bool {
    rest.iter().any(|&b| b != b'/')
}

/// Where the characters of a bare URL that go on from `from` (a character
/// boundary) stop, before [`trimmed_end`] drops the sentence's punctuation;
/// `quoted` when a [`QUOTE`] opened the URL, `pairs` the brackets and
/// quotes open before `from`, updated; `tags` when a template tag is read
/// through whole, spaces and all (`{{ host }}`, `<%= x %>`).
pub(crate) fn run_end(
    text: &str,
    from: usize,
    quoted: bool,
    pairs: &mut Pairs,
    tags: bool,
) -> usize {
    let bytes = text.as_bytes();
    let mut end = from;
    loop {
        end += bytes.get(end..).map_or(0, ascii_run);
        // At the end, at an ASCII byte that ends the URL or takes part in a
        // pair, or at a non-ASCII character: all rare enough to look at.
        let Some(&byte) = bytes.get(end) else { break };
        if tags && matches!(byte, b'{' | b'<') {
            if let Some(len) = tag_len(&bytes[end..]) {
                end += len;
                continue;
            }
        }
        let len = if byte.is_ascii() {
            let class = ASCII[usize::from(byte)];
            if class == Ascii::Separator && starts_listed_url(bytes, end + 1) {
                break;
            }
            if !pairs.continues(class, byte, quoted) {
                break;
            }
            1
        } else {
            match char_at(text, end) {
                Some(c) if continues_url(c) => c.len_utf8(),
                _ => break,
            }
        };
        end += len;
    }
    end
}

/// The end of the URL whose characters run from `from` to `end`, once
/// its trailing punctuation, unmatched closing quote, unclosed openers and
/// string escapes are dropped; `pairs` are those open at `end`.
pub(crate) fn trimmed_end(bytes: &[u8], from: usize, end: usize, pairs: &Pairs) -> usize {
    trim_end(bytes, from, end, pairs.quotes)
}

/// Brackets still open and quotes seen inside a URL, as far as it is read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Pairs {
    /// Openers not yet closed, innermost last. A `Vec` rather than counts:
    /// a closer must match the innermost opener, and nesting has no limit.
    open: Vec<u8>,
    /// Quotes seen.
    quotes: usize,
}

impl Pairs {
    /// Take in the ASCII `byte` of class `class` that [`ascii_run`] stopped
    /// at; false when it ends the URL: a delimiter, a closer that does not
    /// match the innermost opener, or the closing quote of a `quoted` URL.
    fn continues(&mut self, class: Ascii, byte: u8, quoted: bool) -> bool {
        match class {
            Ascii::Opens => self.open.push(byte),
            Ascii::Closes(opener) if self.open.last() == Some(&opener) => {
                self.open.pop();
            }
            Ascii::Quote if !quoted => self.quotes += 1,
            Ascii::Separator => {}
            _ => return false,
        }
        true
    }
}

/// Length of the run of ASCII bytes that continue a URL whatever came
/// before them, at the start of `bytes`: [`RUN_STEP`] bytes at a time while
/// all of them do, then one by one.
fn ascii_run(bytes: &[u8]) -> usize {
    let continues = |b: &u8| matches!(ASCII[usize::from(*b)], Ascii::Continues);
    // Brackets nested deep come one after the other: no run to step over.
    if !bytes.first().is_some_and(continues) {
        return 0;
    }
    let whole = bytes
        .chunks_exact(RUN_STEP)
        .take_while(|step| step.iter().fold(true, |all, b| all & continues(b)))
        .count()
        * RUN_STEP;
    let rest = bytes[whole..].iter().take_while(|b| continues(b)).count();
    whole + rest
}

/// False for a byte that certainly ends a bare URL: an ASCII byte that
/// does not continue one. A non-ASCII byte starts a character that may.
fn may_continue_url(byte: u8) -> bool {
    !byte.is_ascii() || ASCII[usize::from(byte)] != Ascii::Ends
}

/// True when the non-ASCII character `c` continues a URL (see the module
/// documentation).
fn continues_url(c: char) -> bool {
    joins_previous(c) || is_letter_or_number(c)
}

/// Drop trailing punctuation, an unmatched closing quote, unclosed openers
/// and string escapes from `bytes[from..end]`, where `quotes` quotes were
/// seen; returns the new end. Closers need no look: every one inside the
/// URL is matched.
fn trim_end(bytes: &[u8], from: usize, mut end: usize, mut quotes: usize) -> usize {
    while end > from {
        let last = bytes[end - 1];
        let dropped = if TRIMMED[usize::from(last)] {
            1
        } else if last == QUOTE && quotes % 2 == 1 {
            quotes -= 1;
            1
        } else if end - from >= 2 && bytes[end - 2] == ESCAPE && ESCAPED.contains(&last) {
            2
        } else {
            break;
        };
        end -= dropped;
    }
    end
}

/// Bytes [`trim_end`] drops from the end of a URL whatever came before
/// them, as a table: it is asked once per URL found.
static TRIMMED: [bool; 256] = trimmed();

/// Builds [`TRIMMED`]: [`TRAILING_PUNCTUATION`], the openers of
/// [`BRACKET_PAIRS`] and [`ESCAPE`].
const fn trimmed() -> [bool; 256] {
    let mut table = [false; 256];
    let mut index = 0;
    while index < TRAILING_PUNCTUATION.len() {
        table[TRAILING_PUNCTUATION[index] as usize] = true;
        index += 1;
    }
    let mut index = 0;
    while index < BRACKET_PAIRS.len() {
        table[BRACKET_PAIRS[index].0 as usize] = true;
        index += 1;
    }
    table[ESCAPE as usize] = true;
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first undelimited URL in `text` (trying every `:`), as text.
    fn first_url(text: &str) -> Option<&str> {
        let schemes = Schemes::new(&[]);
        text.match_indices(':')
            .find_map(|(colon, _)| at_colon(text, colon, 0, &schemes, true))
            .map(|found| &text[found.url.range()])
    }

    /// Every undelimited URL in `text`, found as the scanner finds them: at
    /// each `:` after the last URL, none starting before its end.
    fn all_urls(text: &str) -> Vec<&str> {
        let schemes = Schemes::new(&[]);
        let mut floor = 0;
        let mut urls = Vec::new();
        for (colon, _) in text.match_indices(':') {
            if colon < floor {
                continue;
            }
            if let Some(found) = at_colon(text, colon, floor, &schemes, true) {
                urls.push(&text[found.url.range()]);
                floor = found.outer.end;
            }
        }
        urls
    }

    /// One row per boundary decision of the module documentation, named
    /// after it: the rule, the text, every URL found in it.
    #[rustfmt::skip]
    const BOUNDARIES: &[(&str, &str, &[&str])] = &[
        ("delimiter: double quote", "\"http://a.b/c\"", &["http://a.b/c"]),
        ("delimiter: html attribute", "<a href=\"http://a.b/c\">", &["http://a.b/c"]),
        ("delimiter: backtick", "`http://a.b/c`", &["http://a.b/c"]),
        ("delimiter: angle bracket", "http://a.b/c<br>", &["http://a.b/c"]),
        ("delimiter: tab", "http://a.b/c\tx", &["http://a.b/c"]),
        ("delimiter: no-break space", "http://a.b/c\u{A0}x", &["http://a.b/c"]),
        ("delimiter: ideographic space", "http://a.b/c\u{3000}x", &["http://a.b/c"]),
        ("delimiter: zero width space", "http://a.b/c\u{200B}x", &["http://a.b/c"]),
        ("delimiter: control", "http://a.b/c\u{7}x", &["http://a.b/c"]),
        ("unsafe ascii: continues", "http://a.b/~joe/{x}|y^", &["http://a.b/~joe/{x}|y^"]),
        ("fragment: belongs to the url", "http://a.b/c#sec-2.", &["http://a.b/c#sec-2"]),
        ("fragment: a second '#' too", "http://a.b/c#x#y z", &["http://a.b/c#x#y"]),
        ("trailing punctuation: escaped quote", "s = \"<a href=\\\"https://a.b/c\\\">\"", &["https://a.b/c"]),
        ("trailing punctuation: newline escape", "printf(\"see http://a.b/c\\n\");", &["http://a.b/c"]),
        ("trailing punctuation: crlf escapes", "\"http://a.b/c\\r\\n\"", &["http://a.b/c"]),
        ("trailing punctuation: escape inside stays", "\"http://a.b/c\\nd\"", &["http://a.b/c\\nd"]),
        ("unsafe ascii: backslash", "http://a.b/c\\d", &["http://a.b/c\\d"]),
        ("trailing punctuation: period", "see http://a.b/c.", &["http://a.b/c"]),
        ("trailing punctuation: comma", "see http://a.b/c, then", &["http://a.b/c"]),
        ("trailing punctuation: semicolon", "http://a.b/c; or", &["http://a.b/c"]),
        ("trailing punctuation: colon", "at http://a.b/c: the", &["http://a.b/c"]),
        ("trailing punctuation: several", "http://a.b/c!?", &["http://a.b/c"]),
        ("trailing punctuation: ellipsis", "http://a.b/c...", &["http://a.b/c"]),
        ("trailing punctuation: inside stays", "http://a.b/c.html?x=1;y=2", &["http://a.b/c.html?x=1;y=2"]),
        ("brackets in order: parentheses around", "(see http://a.b/c)", &["http://a.b/c"]),
        ("brackets in order: balanced pair stays", "http://en.example/wiki/Foo_(bar)", &["http://en.example/wiki/Foo_(bar)"]),
        ("brackets in order: pair inside parentheses", "(http://a.b/Foo_(bar)).", &["http://a.b/Foo_(bar)"]),
        ("brackets in order: square brackets around", "[http://a.b/c]", &["http://a.b/c"]),
        ("brackets in order: square pair stays", "http://a.b/x[1]", &["http://a.b/x[1]"]),
        ("brackets in order: ipv6 host", "http://[::1]:80/x", &["http://[::1]:80/x"]),
        ("brackets in order: braces around", "{http://c.example/z}", &["http://c.example/z"]),
        ("brackets in order: template braces stay", "http://a.b/{id}/x", &["http://a.b/{id}/x"]),
        ("brackets in order: adjacent groups", "(see http://a.example/x)(and http://b.example/y)", &["http://a.example/x", "http://b.example/y"]),
        ("brackets in order: markdown badge", "[![b](https://img.example/x.svg)](https://crates.example/x)", &["https://img.example/x.svg", "https://crates.example/x"]),
        ("brackets in order: markdown links", "[a](http://a.b/1) and [b](http://a.b/2).", &["http://a.b/1", "http://a.b/2"]),
        ("brackets in order: mismatched closer ends", "(http://a.b/(x]y)", &["http://a.b/(x"]),
        ("brackets in order: closer inside ends", "http://a.b/x)y", &["http://a.b/x"]),
        ("brackets in order: unclosed opener at end", "http://a.b/c( and", &["http://a.b/c"]),
        ("brackets in order: unclosed opener inside stays", "http://a.b/(c.d", &["http://a.b/(c.d"]),
        ("quotes: single quotes around", "'http://a.b/c'", &["http://a.b/c"]),
        ("quotes: quoted list", "['http://a.b/1','http://a.b/2']", &["http://a.b/1", "http://a.b/2"]),
        ("quotes: quoted call", "get('http://a.b/c').", &["http://a.b/c"]),
        ("quotes: pair inside stays", "http://x.example/?q='a'", &["http://x.example/?q='a'"]),
        ("quotes: pair inside then punctuation", "see http://x.example/?q='a'.", &["http://x.example/?q='a'"]),
        ("quotes: space inside a pair ends", "http://x.example/?q='a b'", &["http://x.example/?q='a"]),
        ("quotes: apostrophe inside stays", "http://a.b/it's/x", &["http://a.b/it's/x"]),
        ("quotes: unmatched closing quote", "the http://a.b/c' page", &["http://a.b/c"]),
        ("quotes: typographic quotes", "“http://a.b/c”", &["http://a.b/c"]),
        ("non-ascii word: latin letter", "http://a.b/café", &["http://a.b/café"]),
        ("non-ascii word: combining accent", "http://a.b/cafe\u{301}", &["http://a.b/cafe\u{301}"]),
        ("non-ascii word: cyrillic", "http://a.b/путь end", &["http://a.b/путь"]),
        ("non-ascii word: devanagari virama", "http://e.example/हिन्दी", &["http://e.example/हिन्दी"]),
        ("non-ascii word: bengali marks", "http://e.example/বাংলা.", &["http://e.example/বাংলা"]),
        ("non-ascii word: arabic harakat", "http://e.example/عَرَبِيّ x", &["http://e.example/عَرَبِيّ"]),
        ("non-ascii word: persian zwnj", "http://e.example/می\u{200C}خواهم", &["http://e.example/می\u{200C}خواهم"]),
        ("non-ascii word: enclosing mark", "http://e.example/1\u{20E3}", &["http://e.example/1\u{20E3}"]),
        ("non-ascii word: digits of other scripts", "http://e.example/٣٤", &["http://e.example/٣٤"]),
        ("non-ascii word: cjk path", "https://ja.wikipedia.org/wiki/東京都 と", &["https://ja.wikipedia.org/wiki/東京都"]),
        ("non-ascii word: cjk host", "see http://北京大学.cn/ now", &["http://北京大学.cn/"]),
        ("non-ascii word: chinese before", "什么http://a.b.cn/x", &["http://a.b.cn/x"]),
        ("non-ascii word: kana", "http://a.b/cです", &["http://a.b/cです"]),
        ("non-ascii word: hangul", "http://a.b/c에서", &["http://a.b/c에서"]),
        ("non-ascii word: thai with its marks", "http://a.b/cที่", &["http://a.b/cที่"]),
        ("non-ascii punctuation: ideographic full stop", "http://a.b/c。次", &["http://a.b/c"]),
        ("non-ascii punctuation: ideographic comma", "http://a.b/東京、大阪", &["http://a.b/東京"]),
        ("non-ascii punctuation: corner bracket", "「http://a.b/c」と", &["http://a.b/c"]),
        ("non-ascii punctuation: fullwidth parenthesis", "http://a.b/c\u{FF09}", &["http://a.b/c"]),
        ("non-ascii punctuation: guillemets", "«http://a.b/c»", &["http://a.b/c"]),
        ("non-ascii punctuation: ellipsis", "http://a.b/c…", &["http://a.b/c"]),
        ("non-ascii punctuation: em dash", "http://a.b/c—next", &["http://a.b/c"]),
        ("non-ascii punctuation: emoji", "http://a.b/c😀", &["http://a.b/c"]),
        ("non-ascii punctuation: right-to-left mark", "http://a.b/c\u{200F}", &["http://a.b/c"]),
        ("glue before scheme: number", "1.http://x.example/", &["http://x.example/"]),
        ("glue before scheme: ellipsis", "...http://x.example/", &["http://x.example/"]),
        ("glue before scheme: colon", "see:http://x.example/", &["http://x.example/"]),
        ("glue before scheme: e.g.", "e.g.http://x.example/", &["http://x.example/"]),
        ("glue before scheme: i.e.", "(i.e.https://x.example/)", &["https://x.example/"]),
        ("glue before scheme: abbreviation without slashes", "e.g.mailto:a@b.example", &[]),
        ("glue before scheme: compound scheme stays", "git+https://github.example/a/b.git", &["git+https://github.example/a/b.git"]),
        ("glue before scheme: cargo registry stays", "source = \"registry+https://github.com/rust-lang/crates.io-index\"", &["registry+https://github.com/rust-lang/crates.io-index"]),
        ("glue before scheme: svn over ssh stays", "svn+ssh://svn.example/repo", &["svn+ssh://svn.example/repo"]),
        ("glue before scheme: digit glued makes no url", "1abc://foo and 2http://x.example/", &[]),
        ("glue before scheme: a printf conversion makes no url", "\"%s://%s%s\" % (a, b, c) and \"%(scheme)s://[::1]:%(port)d/\"", &[]),
        ("glue before scheme: long scheme", "com.googleusercontent.apps.123456789012-abcdefghijklmnopqrstuvwxyz://oauth2redirect", &["com.googleusercontent.apps.123456789012-abcdefghijklmnopqrstuvwxyz://oauth2redirect"]),
        ("glue before scheme: unknown compound stays", "coap+tcp://c.example/x", &["coap+tcp://c.example/x"]),
        ("glue before scheme: dotted scheme stays", "com.example.app://callback", &["com.example.app://callback"]),
        ("glue before scheme: letters stay", "xhttp://x.example/", &["xhttp://x.example/"]),
        ("code: rust path", "File::create(path)", &[]),
        ("code: rust crate path", "let r = http::Request::new(());", &[]),
        ("code: perl module", "use Net::FTP; IO::File->new", &[]),
        ("code: c++ namespace", "std::fs::File f; ftp::client", &[]),
        ("code: url prefix path", "URL::parse(s) and url::Url", &[]),
        ("code: object literal", "const t = {http:http, https:https, file:null};", &[]),
        ("code: regular expression", "const isHttps = /https:?/;", &[]),
        ("code: property name", "svn:ignore and git:master", &[]),
        ("code: one slash is a url", "proxy http:/proxy.example:3128 here", &["http:/proxy.example:3128"]),
        ("code: opaque scheme without slash", "mailto:a@b.example", &["mailto:a@b.example"]),
        ("code: url after code", "File::open(\"http://a.b/c\")", &["http://a.b/c"]),
        ("file url: empty host", "see file:///etc/hosts.", &["file:///etc/hosts"]),
        ("file url: host", "file://host.example/path", &["file://host.example/path"]),
        ("file url: upper case", "FILE:///etc/hosts", &["FILE:///etc/hosts"]),
        ("file url: drive letter", "file:///C:/Windows/x", &["file:///C:/Windows/x"]),
        ("file url: in parentheses", "(file:///etc/hosts)", &["file:///etc/hosts"]),
        ("file url: the root", "see file:/// here", &["file:///"]),
        ("file url: nothing after the scheme", "see file:// here", &[]),
        ("unknown scheme: its query whole", "magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a&dn=file", &["magnet:?xt=urn:btih:c12fe1c06bba254a9dc9f519b335aa7c1367a88a&dn=file"]),
        ("unknown scheme: no query", "what:?that", &[]),
        ("list of settings: named urls", "proxy http=http://127.0.0.1:8888;https=https://127.0.0.2:8888", &["http://127.0.0.1:8888", "https://127.0.0.2:8888"]),
        ("list of settings: comma", "mirrors: ftp://a.example/pub,ftp://b.example/pub", &["ftp://a.example/pub", "ftp://b.example/pub"]),
        ("list of settings: a parameter stays", "http://a.example/x;type=d,y?u=http://b.example/", &["http://a.example/x;type=d,y?u=http://b.example/"]),
    ];

    #[test]
    fn bare_url_boundary_table() {
        for &(rule, text, expected) in BOUNDARIES {
            assert_eq!(all_urls(text), expected, "{rule}: {text:?}");
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
            ("var u = 'http://'+host+'/x';", None),
            ("const re = /^mailto:/i.test(href)", None),
            ("`mailto:${to}`", None),
            ("format!(\"mid:{id}\")", None),
            ("mailto:[^@]+", None),
            ("r'package://(\\w+)/'", None),
            ("re.compile(r'mxc://(?P<server>[^/]+)')", None),
            ("'http://|https://'", None),
            ("`https://${host}/api`", Some("https://${host}/api")),
            ("mailto:'joe'@a.example", None),
            ("file:/etc/motd", Some("file:/etc/motd")),
            ("urn:/iana/dns/ch/cern", Some("urn:/iana/dns/ch/cern")),
            ("fxqn:/us/va", None),
            ("12:30 pm", None),
        ];
        for &(text, expected) in cases {
            assert_eq!(first_url(text), expected, "{text:?}");
        }
    }

    #[test]
    fn compound_schemes_configured_as_such_stay_whole() {
        let schemes = Schemes::new(&["registry+https".to_string()]);
        let text = "registry+https://github.example/index";
        let found = at_colon(text, 14, 0, &schemes, true).map(|f| &text[f.url.range()]);
        assert_eq!(found, Some(text));
    }

    #[test]
    fn appendix_url_prefix_without_brackets() {
        let schemes = Schemes::new(&[]);
        let text = "see URL:ftp://a.b/c. Or url:gopher://g/1x, and URL: http://no/";
        let found: Vec<Undelimited> = text
            .match_indices(':')
            .filter_map(|(colon, _)| at_colon(text, colon, 0, &schemes, true))
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
        let found = at_colon(text, 3, 0, &schemes, true).map(|f| &text[f.url.range()]);
        assert_eq!(found, Some("doi:10.1000/182"));
    }
}
