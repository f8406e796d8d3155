//! Regular expressions that hold a scheme: `^http://localhost(:\d+)?/`,
//! `"/urn:cid:.+@([^\.]+\.)(.*)$/\2/i"` (an NAPTR rule), written in code
//! and in RFCs. What the scanner takes for a bare URL there is a pattern
//! that matches URLs, not a URL to lint.
//!
//! The evidence is syntax no URL writes: a negated class `[^`, a group's
//! `(?:`, a class escape with a quantifier `\d+`, a quantified group or
//! class `)?` `]+`, two escaped dots (`bugs\.python\.org`). Each weighs
//! [`STRONG`]; weaker signs (an escaped `.`,
//! `.*`, a `^` anchor before the scheme, a `$` anchor at the end, `\d`
//! alone) weigh one each, as a URL may hold one by accident
//! (`?q=.*`, a Windows path's `\d`), and each kind counts once.

/// The weight that makes a URL read as a regular expression.
const THRESHOLD: usize = 2;

/// The weight of syntax only a regular expression writes.
const STRONG: usize = 2;

/// Openings of a regular expression's groups and classes.
const GROUP_OPENINGS: &[&[u8]] = &[b"[^", b"(?:", b"(?=", b"(?!", b"(?<", b"(?P<", b"(?i)"];

/// Letters of class escapes: `\d`, `\w`, `\s` and their negations.
const CLASS_ESCAPES: &[u8] = b"dwsDWS";

/// Quantifiers after an atom.
const QUANTIFIERS: &[u8] = b"+*?{";

/// True when `url`, which starts at `start` in `text`, reads as a regular
/// expression rather than a URL.
pub(super) fn is_regular_expression(text: &str, start: usize, url: &str) -> bool {
    let bytes = url.as_bytes();
    let escaped_dots = memchr::memmem::find_iter(bytes, b"\\.").count();
    let strong = GROUP_OPENINGS
        .iter()
        .any(|opening| memchr::memmem::find(bytes, opening).is_some())
        // A host written as a pattern: `bugs\.python\.org`.
        || escaped_dots >= 2
        || bytes.windows(3).any(|three| {
            three[0] == b'\\'
                && CLASS_ESCAPES.contains(&three[1])
                && QUANTIFIERS.contains(&three[2])
        })
        || bytes.windows(3).any(|three| {
            // A group or class that holds something, then a quantifier:
            // `(:\d+)?`, `[a-z]+`; RFC 3986's `'()*+,` holds nothing.
            matches!(three[1], b')' | b']')
                && !matches!(three[0], b'(' | b'[')
                && QUANTIFIERS.contains(&three[2])
        });
    let weak = [
        memchr::memmem::find(bytes, b"\\.").is_some(),
        bytes
            .windows(2)
            .any(|pair| pair[0] == b'.' && matches!(pair[1], b'*' | b'+')),
        start > 0 && text.as_bytes()[start - 1] == b'^',
        bytes.ends_with(b"$") || memchr::memmem::find(bytes, b"$/").is_some(),
        bytes
            .windows(2)
            .any(|pair| pair[0] == b'\\' && CLASS_ESCAPES.contains(&pair[1])),
    ];
    let weight = usize::from(strong) * STRONG + weak.iter().filter(|&&sign| sign).count();
    weight >= THRESHOLD
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reads_as_pattern(text: &str, url: &str) -> bool {
        let start = text.find(url).expect("the URL is in the text");
        is_regular_expression(text, start, url)
    }

    #[test]
    fn regular_expressions_that_hold_a_scheme_are_not_urls() {
        for (text, url) in [
            (
                "exclude = ['^http://localhost(:\\d+)?/']",
                "http://localhost(:\\d+)?/",
            ),
            (
                "\"/urn:cid:.+@([^\\.]+\\.)(.*)$/\\2/i\"",
                "urn:cid:.+@([^\\.]+\\.)(.*)$/\\2/i",
            ),
            (
                "r'^https://github\\.com/([^/]+)/'",
                "https://github\\.com/([^/]+)/",
            ),
            (
                "'https://(?:www\\.)?example\\.com/'",
                "https://(?:www\\.)?example\\.com/",
            ),
            ("^https://example\\.com/.*", "https://example\\.com/.*"),
            ("'http://host/\\w+/x'", "http://host/\\w+/x"),
            ("'http://[a-z]+.example/'", "http://[a-z]+.example/"),
            (
                "r\"\\* https://bugs\\.python\\.org/issue37179\\n\"",
                "https://bugs\\.python\\.org/issue37179\\n",
            ),
        ] {
            assert!(reads_as_pattern(text, url), "{url}");
        }
    }

    #[test]
    fn urls_with_one_sign_by_accident_stay_urls() {
        for (text, url) in [
            (
                "see https://example.com/search?q=.* now",
                "https://example.com/search?q=.*",
            ),
            ("file://server\\share\\dir", "file://server\\share\\dir"),
            ("http://host.example/a.b", "http://host.example/a.b"),
            ("http://[::1]:8080/", "http://[::1]:8080/"),
            (
                "http://host.example/Foo_(bar)",
                "http://host.example/Foo_(bar)",
            ),
            ("http://host.example/price$", "http://host.example/price$"),
            ("^http://host.example/", "http://host.example/"),
            ("http://host.example/a?b=c", "http://host.example/a?b=c"),
            (
                "xmpp:node@example.com/repulsive%20!%23$%25&'()*+,-.%2F:;%3C=%3E",
                "xmpp:node@example.com/repulsive%20!%23$%25&'()*+,-.%2F:;%3C=%3E",
            ),
        ] {
            assert!(!reads_as_pattern(text, url), "{url}");
        }
    }
}
