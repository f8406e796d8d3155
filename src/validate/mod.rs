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

mod collector;
mod rfc1738;
mod rfc3986;
mod text;

use std::fmt;
use std::ops::Range;

use self::collector::Collector;
use crate::diagnostic::Diagnostic;
use crate::rules::Rule;
use crate::span::Span;

/// The standard a URL is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[non_exhaustive]
pub enum Profile {
    /// RFC 1738 (URLs, 1994), with RFC 1808's fragment grammar: strict, the default.
    #[default]
    Rfc1738,
    /// RFC 3986 (URI generic syntax), with the http, https (RFC 9110),
    /// mailto (RFC 6068), file (RFC 8089) and ftp scheme rules.
    Rfc3986,
}

impl Profile {
    /// Every profile, in the order documentation lists them.
    pub const ALL: [Profile; 2] = [Profile::Rfc1738, Profile::Rfc3986];

    /// The profile's name on the command line and in configuration.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Rfc1738 => "rfc1738",
            Profile::Rfc3986 => "rfc3986",
        }
    }

    /// The profile called `name`, if any.
    pub fn from_name(name: &str) -> Option<Profile> {
        Profile::ALL
            .into_iter()
            .find(|profile| profile.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Options for [`validate`].
#[derive(Debug, Clone, Default)]
pub struct ValidateOptions {
    /// The standard URLs are checked against.
    pub profile: Profile,
    /// Schemes to accept without `unknown-scheme`, beyond the profile's own.
    pub extra_schemes: Vec<String>,
}

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
            .with_fix("%23"),
    );
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Expected diagnostics: rule, the exact text under the span, the fix.
    pub(crate) type Expect<'a> = &'a [(Rule, &'a str, Option<&'a str>)];

    /// Rule, spanned text and fix of every diagnostic of `url`.
    pub(crate) fn diagnose_with(
        url: &str,
        options: &ValidateOptions,
    ) -> Vec<(Rule, String, Option<String>)> {
        validate(url, options)
            .into_iter()
            .map(|d| {
                let text = url
                    .get(d.span.range())
                    .unwrap_or("<not on a char boundary>");
                (d.rule, text.to_string(), d.fix.map(|fix| fix.replacement))
            })
            .collect()
    }

    /// Assert that each URL reports exactly its expected diagnostics.
    pub(crate) fn assert_cases_with(options: &ValidateOptions, cases: &[(&str, Expect)]) {
        for (url, expected) in cases {
            let expected: Vec<_> = expected
                .iter()
                .map(|(rule, text, fix)| (*rule, text.to_string(), fix.map(str::to_string)))
                .collect();
            assert_eq!(diagnose_with(url, options), expected, "{url:?}");
        }
    }

    /// [`assert_cases_with`] under the default profile, RFC 1738.
    pub(crate) fn assert_cases(cases: &[(&str, Expect)]) {
        assert_cases_with(&ValidateOptions::default(), cases);
    }

    /// [`assert_cases_with`] under the RFC 3986 profile.
    pub(crate) fn assert_rfc3986_cases(cases: &[(&str, Expect)]) {
        let options = ValidateOptions {
            profile: Profile::Rfc3986,
            ..ValidateOptions::default()
        };
        assert_cases_with(&options, cases);
    }

    #[test]
    fn profiles_have_names() {
        for profile in Profile::ALL {
            assert_eq!(Profile::from_name(profile.name()), Some(profile));
        }
        assert_eq!(Profile::from_name("RFC3986"), Some(Profile::Rfc3986));
        assert_eq!(Profile::from_name("rfc2396"), None);
        assert_eq!(Profile::default(), Profile::Rfc1738);
    }

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
