//! The validator: one URL in, precise diagnostics out, under a profile.
//!
//! It knows nothing of files or of where the URL was found; spans index the
//! URL text it was given.
//!
//! Two profiles say what a correct URL is: [`Profile::Rfc1738`], the strict
//! default, and [`Profile::Rfc3986`], the generic URI syntax with the
//! scheme rules of today's standards. In both, the first `#` ends the URL
//! and starts a fragment identifier (RFC 1738 section 2.2: `#` delimits a
//! URL from a fragment identifier that may follow it), whose characters
//! are checked by the profile's fragment grammar; a second `#` is an error.

mod chars;
mod collector;
mod compound;
mod idna;
mod literal;
mod options;
mod rfc1738;
mod rfc3986;
mod scheme_name;
#[cfg(test)]
mod test_cases;
mod text;

use std::ops::Range;

use self::collector::Collector;
use crate::diagnostic::{Applicability, Diagnostic};
use crate::rules::Rule;
use crate::span::Span;

pub use crate::profile::Profile;
pub use options::ValidateOptions;

/// Check `url` against the profile of `options` and return every problem
/// found, in URL order.
///
/// Spans are byte ranges of `url` on character boundaries, on exactly the
/// offending characters; a missing part (a host, an `@domain`) gets an empty
/// span where it belongs. Each problem is reported once; past a cap, further
/// character problems are summed up in one diagnostic.
pub fn validate(url: &str, options: &ValidateOptions) -> Vec<Diagnostic> {
    let mut collector = Collector::new(url);
    let hash = memchr::memchr(b'#', url.as_bytes());
    let body_end = hash.unwrap_or(url.len());
    let readable = match options.profile {
        Profile::Rfc1738 => rfc1738::check(&mut collector, body_end, options),
        Profile::Rfc3986 => rfc3986::check(&mut collector, body_end, options),
    };
    if let (true, Some(hash)) = (readable, hash) {
        check_fragment(&mut collector, hash + 1..url.len(), options.profile);
    }
    collector.finish()
}

/// Check the fragment identifier `range` (after the first `#`): each piece
/// between further `#`s by the profile's grammar, and each further `#`.
fn check_fragment(collector: &mut Collector, range: Range<usize>, profile: Profile) {
    let mut start = range.start;
    let hashes = memchr::memchr_iter(b'#', &collector.url().as_bytes()[range.clone()]);
    for at in hashes
        .map(|offset| range.start + offset)
        .collect::<Vec<_>>()
    {
        check_fragment_piece(collector, start..at, profile);
        report_second_hash(collector, at, profile);
        start = at + 1;
    }
    check_fragment_piece(collector, start..range.end, profile);
}

fn check_fragment_piece(collector: &mut Collector, range: Range<usize>, profile: Profile) {
    match profile {
        Profile::Rfc1738 => rfc1738::check_fragment(collector, range),
        Profile::Rfc3986 => rfc3986::check_fragment(collector, range),
    }
}

/// A `#` inside the fragment: only the first `#` delimits, so any other is
/// data that must be encoded.
fn report_second_hash(collector: &mut Collector, at: usize, profile: Profile) {
    let (rule, help) = match profile {
        Profile::Rfc1738 => (
            Rule::UnsafeChar,
            "RFC 1808 section 2.4.1: the fragment identifier is everything after the \
             first '#', and its grammar (fragment = *( uchar | reserved )) has no '#'; \
             RFC 1738 section 2.2 lists '#' among the unsafe characters",
        ),
        Profile::Rfc3986 => (
            Rule::ReservedChar,
            "RFC 3986 section 3.5: the fragment is everything after the first '#', and \
             '#' is a delimiter (gen-delims) that fragment = *( pchar / \"/\" / \"?\" ) \
             does not include",
        ),
    };
    let message = "a second '#': the fragment identifier started at the first one and \
                   cannot contain '#'; encode it as %23";
    collector.push_char(
        Diagnostic::new(rule, Span::new(at, at + 1), message)
            .with_help(help)
            // The fragment began at the first '#', so this one can only be data.
            .with_fix("%23", Applicability::MachineApplicable),
    );
}

#[cfg(test)]
mod tests {
    use super::test_cases::{assert_cases, assert_rfc3986_cases, Expect};

    /// RFC 1738 section 2.2 and RFC 1808 section 2.4.1: the first `#` starts
    /// the fragment wherever the URL was found; a second `#` is data.
    #[test]
    fn rfc1808_2_4_1_fragment_after_first_hash() {
        let cases: &[(&str, Expect)] = &[
            ("http://h.example/a#sec-1", &[]),
            ("http://h.example/a#", &[]),
            ("http://h.example/a#x/y?z:@;&=", &[]),
            ("http://h.example/a#b#c", &[(UnsafeChar, "#", Some("%23"))]),
            ("http://h.example/a##", &[(UnsafeChar, "#", Some("%23"))]),
            ("http://h.example/a#b c", &[(UnsafeChar, " ", Some("%20"))]),
            ("http://h.example/a#~x", &[(UnsafeChar, "~", Some("%7E"))]),
            ("http://h.example/a#%zz", &[(BadEscape, "%", None)]),
            (
                "http://h.example/a#\u{e9}",
                &[(NonAscii, "\u{e9}", Some("%C3%A9"))],
            ),
            ("news:comp.lang#x", &[]),
            ("#section", &[(BadScheme, "#", None)]),
            (
                "x-y:z#~",
                &[(UnknownScheme, "x-y", None), (UnsafeChar, "~", Some("%7E"))],
            ),
            // The fragment is not part of the path: its characters are the
            // fragment's, and the path before it is checked alone.
            (
                "ftp://h.example/a;b#;type=x",
                &[(ReservedChar, ";", Some("%3B"))],
            ),
        ];
        assert_cases(cases);
    }

    /// RFC 3986 section 3.5: the same split, with the RFC 3986 grammar.
    #[test]
    fn rfc3986_3_5_fragment_after_first_hash() {
        let cases: &[(&str, Expect)] = &[
            ("http://h.example/a#sec-1", &[]),
            ("http://h.example/a#~x/y?z:@!$&'()*+,;=", &[]),
            (
                "http://h.example/a#b#c",
                &[(ReservedChar, "#", Some("%23"))],
            ),
            (
                "http://h.example/a#[x]",
                &[
                    (ReservedChar, "[", Some("%5B")),
                    (ReservedChar, "]", Some("%5D")),
                ],
            ),
            ("http://h.example/a#b c", &[(UnsafeChar, " ", Some("%20"))]),
            ("http://h.example/a#%zz", &[(BadEscape, "%", None)]),
        ];
        assert_rfc3986_cases(cases);
    }

    use crate::rules::Rule::*;
}
