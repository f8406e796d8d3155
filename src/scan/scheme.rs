//! Scheme names: which ones make a bare `scheme:` a URL, and how to find the
//! scheme that ends at a `:`.

/// Schemes recognised in running text without `//`: RFC 1738's own (section
/// 3), the names it and the URI drafts reserve, and common modern ones.
const KNOWN_SCHEMES: &[&str] = &[
    // RFC 1738 section 3.
    "ftp",
    "http",
    "gopher",
    "mailto",
    "news",
    "nntp",
    "telnet",
    "wais",
    "file",
    "prospero",
    // Reserved or proposed alongside it (RFC 1738 section 4, RFC 1630).
    "afs",
    "cid",
    "mid",
    "mailserver",
    "nfs",
    "tn3270",
    "z39.50",
    "urn",
    // Common modern schemes.
    "https",
    "ftps",
    "sftp",
    "ssh",
    "git",
    "svn",
    "irc",
    "ircs",
    "ldap",
    "ldaps",
    "rtsp",
    "sip",
    "sips",
    "tel",
    "ws",
    "wss",
    "xmpp",
];

/// Longest scheme name the scanner looks back for; longer runs are words.
const MAX_SCHEME_LEN: usize = 32;

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
        KNOWN_SCHEMES.iter().any(|k| k.eq_ignore_ascii_case(name))
            || self.extra.iter().any(|k| k.eq_ignore_ascii_case(name))
    }
}

/// True for the bytes RFC 1738 section 2.1 allows in a scheme name, upper
/// case included (the validator reports `scheme-case`).
pub(crate) fn is_scheme_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'-' | b'.')
}

/// Start of the scheme whose `:` is at `colon`, looking back no further than
/// `floor`. The scheme starts with a letter; leading `+-.` and digits are
/// punctuation of the surrounding text ("...http:" gives "http").
pub(crate) fn scheme_before(bytes: &[u8], colon: usize, floor: usize) -> Option<usize> {
    let limit = colon.saturating_sub(MAX_SCHEME_LEN).max(floor);
    let mut start = colon;
    while start > limit && is_scheme_byte(bytes[start - 1]) {
        start -= 1;
    }
    if start > floor && start == limit && is_scheme_byte(bytes[start - 1]) {
        return None; // a run longer than any scheme: a word, not a scheme
    }
    while start < colon && !bytes[start].is_ascii_alphabetic() {
        start += 1;
    }
    (start < colon).then_some(start)
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
        ] {
            let colon = text.rfind(':').unwrap();
            let got = scheme_before(text.as_bytes(), colon, floor).map(|s| &text[s..colon]);
            assert_eq!(got, scheme, "{text:?}");
        }
        let long = format!("{}:", "a".repeat(40));
        assert_eq!(scheme_before(long.as_bytes(), 40, 0), None);
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
    fn rfc1738_2_1_scheme_names_are_case_insensitive() {
        let schemes = Schemes::new(&["Doi".to_string()]);
        assert!(schemes.is_known("HTTP"));
        assert!(schemes.is_known("doi"));
        assert!(!schemes.is_known("note"));
    }
}
