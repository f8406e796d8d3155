//! Scheme names: which ones make a bare `scheme:` a URL, and how to find the
//! scheme that ends at a `:`.

/// Schemes recognised in running text without `//`: RFC 1738's own (section
/// 3), the names it and the URI drafts reserve, and common modern ones.
///
/// Lower case and sorted, so that a name is looked up by binary search (see
/// [`scheme_key`]): the scanner asks once per `word:` in the text, and most
/// words are not schemes.
const KNOWN_SCHEMES: &[&str] = &[
    "afs",        // reserved or proposed alongside RFC 1738
    "cid",        // reserved or proposed alongside RFC 1738
    "file",       // RFC 1738 section 3.10
    "ftp",        // RFC 1738 section 3.2
    "ftps",       // modern
    "git",        // modern
    "gopher",     // RFC 1738 section 3.4
    "http",       // RFC 1738 section 3.3
    "https",      // modern
    "irc",        // modern
    "ircs",       // modern
    "ldap",       // modern
    "ldaps",      // modern
    "mailserver", // reserved or proposed alongside RFC 1738
    "mailto",     // RFC 1738 section 3.5
    "mid",        // reserved or proposed alongside RFC 1738
    "news",       // RFC 1738 section 3.6
    "nfs",        // reserved or proposed alongside RFC 1738
    "nntp",       // RFC 1738 section 3.7
    "prospero",   // RFC 1738 section 3.11
    "rtsp",       // modern
    "sftp",       // modern
    "sip",        // modern
    "sips",       // modern
    "ssh",        // modern
    "svn",        // modern
    "tel",        // modern
    "telnet",     // RFC 1738 section 3.8
    "tn3270",     // reserved or proposed alongside RFC 1738
    "urn",        // reserved or proposed alongside RFC 1738
    "wais",       // RFC 1738 section 3.9
    "ws",         // modern
    "wss",        // modern
    "xmpp",       // modern
    "z39.50",     // reserved or proposed alongside RFC 1738
];

/// Known schemes whose URLs need not start with `/` after the colon
/// (`mailto:`, `news:`, `urn:`...), sorted. The others name a host after
/// `//`, so that a bare `http:` followed by anything but `/` is a word of
/// code or prose (`{http:http}`, `/https:?/`, `svn:ignore`), not a URL.
const OPAQUE_SCHEMES: &[&str] = &[
    "cid",
    "mailserver",
    "mailto",
    "mid",
    "news",
    "sip",
    "sips",
    "tel",
    "urn",
    "xmpp",
    "z39.50",
];

/// True for a byte after `scheme:` or `scheme://` that goes on as code, not
/// as a URL: a quote closing a literal, a regular expression's group,
/// alternation, escape or anchor.
fn is_code_after_scheme(byte: u8) -> bool {
    matches!(byte, b'\'' | b'"' | b'`' | b'(' | b'|' | b'\\' | b'^')
}

/// Longest scheme name the scanner looks back for; longer runs are words.
/// Generous: a reverse-DNS scheme of an app's OAuth redirect holds the
/// client's id (`com.googleusercontent.apps.123456789012-abc...:/cb`).
const MAX_SCHEME_LEN: usize = 256;

/// True for the bytes after which a known scheme glued to the text before
/// it starts the URL: the period of an abbreviation or an ellipsis
/// (`e.g.http://`, `etc.http://`). A `+` glues nothing: it is a scheme
/// character (RFC 1738 section 2.1), and a tool's compound scheme
/// (`svn+ssh://`, `git+https://`, Cargo's `registry+https://`) is one
/// scheme, the URL the tool reads.
fn is_glue(byte: u8) -> bool {
    byte == b'.'
}

/// The set of schemes that count as known, built-in plus configured.
#[derive(Debug, Clone, Default)]
pub(crate) struct Schemes {
    extra: Vec<String>,
}

impl Schemes {
    /// Known schemes plus `extra` (compared case-insensitively).
    pub(crate) fn new(extra: &[String]) -> Self {
        Schemes {
            extra: extra.iter().map(|s| s.to_ascii_lowercase()).collect(),
        }
    }

    /// True when `name` is a known scheme, ignoring case (RFC 1738 section
    /// 2.1: interpreters should treat upper case letters as lower case).
    pub(crate) fn is_known(&self, name: &str) -> bool {
        is_built_in(name) || self.extra.iter().any(|k| k.eq_ignore_ascii_case(name))
    }

    /// True when `name` is a built-in scheme whose URLs start with `/`
    /// after the colon (`http`, `ftp`, `file`...). A configured scheme never
    /// is: the user who names one wants it recognised however it is written.
    pub(crate) fn needs_slash(&self, name: &str) -> bool {
        is_built_in(name)
            && !OPAQUE_SCHEMES
                .iter()
                .any(|opaque| opaque.eq_ignore_ascii_case(name))
            && !self.extra.iter().any(|k| k.eq_ignore_ascii_case(name))
    }

    /// False when `after`, the text after `name:`, starts the way code goes
    /// on after a string or a pattern, never the way a URL does: a quote or
    /// backtick closing the literal (`'http://'+host`), a regular expression's
    /// group, alternation or escape (`mxc://(?P`, `http://|https://`,
    /// `l://\\x01`). An opaque scheme ([`Self::is_opaque`]: `mailto:`,
    /// `news:`) never goes on with a bracket or a placeholder
    /// (`mailto:${to}`, `mid:{id}`), and `mailto:` never with a `/`
    /// (`/^mailto:/i.test(s)`): what follows is no address. (Other opaque
    /// schemes may: early drafts wrote `urn:/iana/...`.)
    pub(crate) fn opens_body(&self, name: &str, after: &[u8]) -> bool {
        // The scheme lists are looked up only for the few bytes that need
        // them: this runs once per URL the scanner finds.
        match after {
            [b'/', b'/', first, ..] | [first, ..] if is_code_after_scheme(*first) => false,
            [b'/', b'/', ..] => true,
            [b'/', ..] => !name.eq_ignore_ascii_case("mailto"),
            [b'[' | b'{' | b'$', ..] => !self.is_opaque(name),
            _ => true,
        }
    }

    /// True when `name` is a built-in scheme whose URLs never start with
    /// `/` (`mailto`, `news`, `urn`...), and the user has not configured it.
    pub(crate) fn is_opaque(&self, name: &str) -> bool {
        is_built_in(name)
            && OPAQUE_SCHEMES
                .iter()
                .any(|opaque| opaque.eq_ignore_ascii_case(name))
            && !self.extra.iter().any(|k| k.eq_ignore_ascii_case(name))
    }

    /// Offset in the scheme-like run `name` of the known scheme glued after
    /// a glue byte ([`is_glue`]) at its end, the longest one: `e.g.http`
    /// gives 4. `None` when `name` is known as a whole or ends in no glued
    /// known one (`git+https` is one scheme).
    #[inline]
    pub(crate) fn glued_known(&self, name: &str) -> Option<usize> {
        // Asked for nearly every `scheme://` in the text: most names hold no
        // glue, and are not looked up at all.
        if !name.bytes().any(is_glue) || self.is_known(name) {
            return None;
        }
        name.bytes()
            .enumerate()
            .filter(|&(_, byte)| is_glue(byte))
            .map(|(at, _)| at + 1)
            .find(|&start| {
                name.as_bytes()
                    .get(start)
                    .is_some_and(u8::is_ascii_alphabetic)
                    && self.is_known(&name[start..])
            })
    }

    /// The last `:` of `text` that may end the scheme of a URL in some
    /// reading of the text, as the scanner or a markup's link value takes
    /// one: followed by `//`, after a known scheme's name, or after `URL`
    /// opening a wrapper (`<URL:`) or a prefixed URL (`URL:` and a letter).
    /// `None` when no `:` may.
    pub(crate) fn last_url_opening(&self, text: &str) -> Option<usize> {
        memchr::memrchr_iter(b':', text.as_bytes()).find(|&colon| self.may_end_scheme(text, colon))
    }

    /// Whether the `:` at `colon` may end a scheme, as
    /// [`Self::last_url_opening`] asks. A reading may start
    /// the name anywhere in the run of scheme bytes before the colon (the
    /// scanner skips the digits and `+-.` opening a run, markup blanked
    /// inside a run cuts it), so a known name the run ends with counts, as
    /// far back as the longest name any reading takes.
    pub(crate) fn may_end_scheme(&self, text: &str, colon: usize) -> bool {
        let bytes = text.as_bytes();
        if bytes[colon + 1..].starts_with(b"//") {
            return true;
        }
        let limit = colon.saturating_sub(MAX_SCHEME_LEN);
        let mut start = colon;
        while start > limit && is_scheme_byte(bytes[start - 1]) {
            start -= 1;
        }
        let run = &text[start..colon];
        if self.ends_in_known(run) {
            return true;
        }
        let Some(url) = colon
            .checked_sub(URL_PREFIX.len())
            .filter(|&url| url >= start)
        else {
            return false;
        };
        let wrapper = url > 0 && bytes[url - 1] == b'<';
        let prefixed = bytes.get(colon + 1).is_some_and(u8::is_ascii_alphabetic);
        bytes[url..colon].eq_ignore_ascii_case(URL_PREFIX) && (wrapper || prefixed)
    }

    /// True when `run`, scheme bytes, ends with a known scheme's name.
    fn ends_in_known(&self, run: &str) -> bool {
        let built_in = match run.as_bytes() {
            // Most words before a colon end as no built-in name does.
            [.., last_but_one, last] if ends_known(*last_but_one, *last) => {
                (2..=run.len().min(KEY_LEN)).any(|len| is_built_in(&run[run.len() - len..]))
            }
            _ => false,
        };
        built_in
            || self.extra.iter().any(|name| {
                run.len() >= name.len() && run[run.len() - name.len()..].eq_ignore_ascii_case(name)
            })
    }
}

/// The scheme-like name that opens a wrapper (`<URL:`) and makes a URL
/// [`Form::Prefixed`](super::found::Form::Prefixed) (`URL:news:...`), in
/// any case.
pub(crate) const URL_PREFIX: &[u8] = b"URL";

/// True when a name ending with the bytes `last_but_one` and `last` may be
/// one of [`KNOWN_SCHEMES`], in any case.
fn ends_known(last_but_one: u8, last: u8) -> bool {
    KNOWN_ENDINGS[usize::from(last_but_one & 31)] & (1 << (last & 31)) != 0
}

/// The last two bytes of every name in [`KNOWN_SCHEMES`], each folded to
/// its five low bits, which tell letters apart in either case: the first
/// picks an entry, the second a bit of it.
static KNOWN_ENDINGS: [u32; 32] = known_endings();

const fn known_endings() -> [u32; 32] {
    let mut endings = [0; 32];
    let mut index = 0;
    while index < KNOWN_SCHEMES.len() {
        let name = KNOWN_SCHEMES[index].as_bytes();
        let (last_but_one, last) = (name[name.len() - 2], name[name.len() - 1]);
        endings[(last_but_one & 31) as usize] |= 1 << (last & 31);
        index += 1;
    }
    endings
}

/// True when the `:` at `colon` is the first of a `::` path separator, as in
/// Rust's `File::create` and `http::Request`, Perl's `Net::FTP` or C++'s
/// `std::fs`: code, never a URL, since no scheme's URLs start with `:`.
pub(crate) fn is_path_separator(bytes: &[u8], colon: usize) -> bool {
    bytes.get(colon + 1) == Some(&b':')
}

/// True when `name`, in any case, is one of [`KNOWN_SCHEMES`].
fn is_built_in(name: &str) -> bool {
    name.len() <= KEY_LEN
        && KNOWN_KEYS
            .binary_search(&scheme_key(name.as_bytes()))
            .is_ok()
}

/// Longest name a [`scheme_key`] holds; longer names are not built in.
const KEY_LEN: usize = 15;

/// [`KNOWN_SCHEMES`] as keys, in the same (sorted) order.
static KNOWN_KEYS: [u128; KNOWN_SCHEMES.len()] = known_keys();

const fn known_keys() -> [u128; KNOWN_SCHEMES.len()] {
    let mut keys = [0; KNOWN_SCHEMES.len()];
    let mut index = 0;
    while index < keys.len() {
        keys[index] = scheme_key(KNOWN_SCHEMES[index].as_bytes());
        index += 1;
    }
    keys
}

/// `name` (at most [`KEY_LEN`] bytes) lower-cased and zero-padded, then its
/// length, as one big-endian number. Comparing keys compares names byte by
/// byte, a shorter name first as zero is below every name byte, so a lookup
/// is a binary search over integers rather than over strings; the length
/// byte keeps a name with trailing NULs from passing for a shorter one.
const fn scheme_key(name: &[u8]) -> u128 {
    let mut bytes = [0; KEY_LEN + 1];
    let mut index = 0;
    while index < name.len() && index < KEY_LEN {
        bytes[index] = name[index].to_ascii_lowercase();
        index += 1;
    }
    bytes[KEY_LEN] = name.len() as u8;
    u128::from_be_bytes(bytes)
}

/// True for the bytes RFC 1738 section 2.1 allows in a scheme name, upper
/// case included (the validator reports `scheme-case`).
pub(crate) fn is_scheme_byte(byte: u8) -> bool {
    SCHEME_BYTES[usize::from(byte)]
}

/// [`is_scheme_byte`] as a table: the scanner looks back over the word
/// before every `:` in the text, a byte at a time.
static SCHEME_BYTES: [bool; 256] = scheme_bytes();

const fn scheme_bytes() -> [bool; 256] {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < table.len() {
        let b = byte as u8;
        table[byte] = b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.');
        byte += 1;
    }
    table
}

/// Start of the scheme whose `:` is at `colon`, looking back no further than
/// `floor`. The scheme starts with a letter; leading `+-.` are punctuation
/// of the surrounding text ("...http:" and "1.http:" give "http"), but a
/// digit right before the letter makes the run a token of its own, no
/// scheme cut out of it ("1abc:" is none), and so does a `printf`
/// conversion's `%` or `%(name)` ("%s://%s" and "%(scheme)s://" name no
/// scheme `s`).
pub(crate) fn scheme_before(bytes: &[u8], colon: usize, floor: usize) -> Option<usize> {
    let limit = colon.saturating_sub(MAX_SCHEME_LEN).max(floor);
    let mut start = colon;
    while start > limit && is_scheme_byte(bytes[start - 1]) {
        start -= 1;
    }
    if start > floor && start == limit && is_scheme_byte(bytes[start - 1]) {
        return None; // a run longer than any scheme: a word, not a scheme
    }
    let run_start = start;
    while start < colon && !bytes[start].is_ascii_alphabetic() {
        start += 1;
    }
    let glued_to_digit = start > run_start && bytes[start - 1].is_ascii_digit();
    let before = start.checked_sub(1).map(|at| bytes[at]);
    let conversion = start == run_start
        && (before == Some(b'%') || (before == Some(b')') && colon - start == 1));
    (start < colon && !glued_to_digit && !conversion).then_some(start)
}

/// Length of a scheme name followed by `:` at the start of `bytes`, or 0.
pub(crate) fn scheme_then_colon(bytes: &[u8]) -> usize {
    if !bytes.first().is_some_and(u8::is_ascii_alphabetic) {
        return 0;
    }
    let len = bytes
        .iter()
        .take(MAX_SCHEME_LEN + 1)
        .take_while(|&&b| is_scheme_byte(b))
        .count();
    if len <= MAX_SCHEME_LEN && bytes.get(len) == Some(&b':') {
        len
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc1738_2_1_scheme_is_found_back_from_its_colon() {
        for (text, floor, scheme) in [
            ("see http://x", 0, Some("http")),
            ("(ftp:", 0, Some("ftp")),
            ("...x-y.z+1:", 0, Some("x-y.z+1")),
            ("什么http:", 0, Some("http")),
            ("Note:", 0, Some("Note")),
            ("12:30", 0, None),
            (":", 0, None),
            ("abchttp:", 3, Some("http")),
            ("1.http:", 0, Some("http")),
            ("1abc:", 0, None),
            ("\"%s:", 0, None),
            ("%(scheme)s:", 0, None),
            ("(http:", 0, Some("http")),
            ("100%http:", 0, None),
        ] {
            let colon = text.rfind(':').unwrap();
            let got = scheme_before(text.as_bytes(), colon, floor).map(|s| &text[s..colon]);
            assert_eq!(got, scheme, "{text:?}");
        }
        let long = format!("{}:", "a".repeat(MAX_SCHEME_LEN));
        assert_eq!(scheme_before(long.as_bytes(), MAX_SCHEME_LEN, 0), Some(0));
        let longer = format!("{}:", "a".repeat(MAX_SCHEME_LEN + 1));
        assert_eq!(
            scheme_before(longer.as_bytes(), MAX_SCHEME_LEN + 1, 0),
            None
        );
    }

    #[test]
    fn rfc1738_2_1_scheme_bytes_are_alphanumerics_plus_hyphen_and_period() {
        let allowed: Vec<u8> = (0..=255).filter(|&b| is_scheme_byte(b)).collect();
        let mut expected: Vec<u8> = b"+-.".to_vec();
        expected.extend(b'0'..=b'9');
        expected.extend(b'A'..=b'Z');
        expected.extend(b'a'..=b'z');
        assert_eq!(allowed, expected);
    }

    #[test]
    fn rfc1738_2_1_scheme_then_colon() {
        for (text, len) in [
            ("http://x", 4),
            ("URL:http:", 3),
            ("1ttp:", 0),
            ("http", 0),
            ("", 0),
        ] {
            assert_eq!(scheme_then_colon(text.as_bytes()), len, "{text:?}");
        }
    }

    #[test]
    fn known_schemes_glued_after_a_period_or_plus() {
        let schemes = Schemes::new(&["svn+ssh".to_string()]);
        for (name, start) in [
            ("e.g.http", Some(4)),
            ("i.e.ftp", Some(4)),
            ("git+https", None),
            ("registry+https", None),
            ("a.b+https", None),
            ("svn+ssh", None),
            ("http", None),
            ("z39.50", None),
            ("com.example.app", None),
            ("coap+tcp", None),
            ("x-http", None),
            ("e.g.", None),
            ("x.1http", None),
        ] {
            assert_eq!(schemes.glued_known(name), start, "{name:?}");
        }
    }

    #[test]
    fn rfc1738_3_hierarchical_schemes_need_a_slash() {
        let schemes = Schemes::new(&["doi".to_string(), "IRC".to_string()]);
        for (name, needs) in [
            ("irc", false),
            ("http", true),
            ("FTP", true),
            ("file", true),
            ("svn", true),
            ("mailto", false),
            ("news", false),
            ("urn", false),
            ("doi", false),
            ("note", false),
        ] {
            assert_eq!(schemes.needs_slash(name), needs, "{name}");
        }
        assert!(OPAQUE_SCHEMES.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(OPAQUE_SCHEMES.iter().all(|name| is_built_in(name)));
    }

    #[test]
    fn rfc1738_2_1_a_colon_may_end_a_scheme_in_some_reading() {
        let schemes = Schemes::new(&["doi".to_string()]);
        for (text, may) in [
            ("Note: this, at 12:30", false),
            ("a::b and std::io", false),
            ("x://", true),
            ("see http:", true),
            ("HTTPS:", true),
            ("doi:", true),
            ("1.ftp:", true),
            // Markup blanked inside a run may start the name anywhere.
            ("as follows: x", true),
            ("x-tel:", true),
            ("z39.50:", true),
            (".50:", false),
            ("the URL: field", false),
            ("URL:x", true),
            ("myurl:x", true),
            ("<URL: x", true),
            ("<url:", true),
            ("a<b URL:", false),
        ] {
            assert_eq!(schemes.last_url_opening(text).is_some(), may, "{text:?}");
        }
        for name in KNOWN_SCHEMES {
            let upper = format!("x{}:", name.to_ascii_uppercase());
            assert!(schemes.last_url_opening(&upper).is_some(), "{upper}");
        }
        let long = format!("{}http:", "a".repeat(40));
        assert!(schemes.last_url_opening(&long).is_some());
        let long = format!("{}:x", "a".repeat(40));
        assert_eq!(schemes.last_url_opening(&long), None);
        let text = "see http://a.example/ and ftp:x, then note: done";
        assert_eq!(schemes.last_url_opening(text), text.find(":x,"));
    }

    #[test]
    fn code_path_separators_are_not_scheme_colons() {
        for (text, colon, separator) in [
            ("File::create", 4, true),
            ("http::Request", 4, true),
            ("http://a", 4, false),
            ("http:", 4, false),
        ] {
            assert_eq!(
                is_path_separator(text.as_bytes(), colon),
                separator,
                "{text:?}"
            );
        }
    }

    #[test]
    fn known_schemes_are_lower_case_sorted_and_short() {
        assert!(KNOWN_SCHEMES.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(KNOWN_KEYS.windows(2).all(|pair| pair[0] < pair[1]));
        for name in KNOWN_SCHEMES {
            assert_eq!(*name, name.to_ascii_lowercase());
            assert!(name.len() <= KEY_LEN, "{name}");
        }
    }

    #[test]
    fn rfc1738_2_1_scheme_names_are_case_insensitive() {
        let schemes = Schemes::new(&["Doi".to_string()]);
        assert!(schemes.is_known("HTTP"));
        assert!(schemes.is_known("Z39.50"));
        assert!(schemes.is_known("doi"));
        assert!(schemes.is_known("DOI"));
        assert!(!schemes.is_known("note"));
        assert!(!schemes.is_known(""));
        assert!(!schemes.is_known("http\0"));
        assert!(!schemes.is_known("httpx"));
        assert!(!schemes.is_known("mailserverxxxxxxxxx"));
    }
}
