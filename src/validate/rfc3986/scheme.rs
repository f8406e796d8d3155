//! The scheme (RFC 3986 section 3.1) and whether IANA registers it.
//!
//! Any syntactically valid scheme is checked with the generic syntax; the
//! registry only decides the `unknown-scheme` warning. The list is the
//! registry's permanent entries, shipped as data (`iana-schemes.txt`).

use std::sync::OnceLock;

use crate::diagnostic::Diagnostic;
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;
use crate::validate::compound;
use crate::validate::options::ValidateOptions;
use crate::validate::scheme_name::{self, SchemeSyntax};

/// The IANA registry's permanent URI schemes, one per line.
const REGISTRY: &str = include_str!("iana-schemes.txt");

/// The schemes of [`REGISTRY`], sorted for binary search.
fn registered() -> &'static [&'static str] {
    static SCHEMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    SCHEMES.get_or_init(|| {
        let mut schemes: Vec<&str> = REGISTRY
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .collect();
        schemes.sort_unstable();
        schemes
    })
}

/// True when IANA registers `name` (any case) as a permanent scheme.
fn is_registered(name: &str) -> bool {
    let lower;
    let name = if name.bytes().any(|b| b.is_ascii_uppercase()) {
        lower = name.to_ascii_lowercase();
        lower.as_str()
    } else {
        name
    };
    registered().binary_search(&name).is_ok()
}

/// The scheme of a URI whose scheme syntax is right.
#[derive(Debug)]
pub(crate) struct Scheme {
    /// The name in lower case.
    pub name: String,
    /// Byte offset of the `:` that ends the scheme.
    pub colon: usize,
}

const SCHEME_HELP: &str = "RFC 3986 section 3.1: a URI starts with a scheme, a letter \
     followed by letters, digits, '+', '-' and '.', then ':'";
/// Section 3.1: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
const SYNTAX: SchemeSyntax = SchemeSyntax {
    noun: "URI",
    fragment_alone: "a fragment alone is a relative reference, not a URI",
    letter_first: true,
    help: SCHEME_HELP,
};
const CASE_HELP: &str = "RFC 3986 section 3.1: schemes are case-insensitive, but URIs \
     should be produced with lower-case schemes for consistency";
const UNKNOWN_HELP: &str = "RFC 7595 section 3: schemes in use on the Internet are \
     registered with IANA; provisional registrations, private and mistyped schemes are not \
     in the permanent registry. Configure the schemes you rely on as extra schemes";

/// Parse and check the scheme of `url[..end]`; `None` when it is too broken
/// for the rest of the URI to be read.
pub(crate) fn parse(
    collector: &mut Collector,
    end: usize,
    options: &ValidateOptions,
) -> Option<Scheme> {
    let colon = scheme_name::colon(collector, end, &SYNTAX)?;
    let url = collector.url();
    let name = &url[..colon];
    let configured = options
        .extra_schemes
        .iter()
        .any(|extra| extra.eq_ignore_ascii_case(name));
    // A tool's compound scheme is read as the registered scheme it fetches
    // over (`git+https` as `https`).
    let read_as = match compound::transport(name).filter(|_| !is_registered(name)) {
        Some(transport) if is_registered(transport) => transport,
        _ => name,
    };
    let known = configured || is_registered(read_as);
    scheme_name::check(collector, name, known, CASE_HELP);
    if !known {
        let message = format!("scheme '{name}' is not in IANA's permanent URI scheme registry");
        collector.push(
            Diagnostic::new(Rule::UnknownScheme, Span::new(0, colon), message)
                .with_help(UNKNOWN_HELP),
        );
    }
    Some(Scheme {
        name: read_as.to_ascii_lowercase(),
        colon,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;
    use crate::rules::Rule::*;
    use crate::validate::scheme_name::is_scheme_byte;
    use crate::validate::test_cases::{assert_cases_with, assert_rfc3986_cases, Expect};

    /// Section 3.1 `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`,
    /// where it differs from RFC 1738 (the rest is in `scheme_name`).
    #[test]
    fn rfc3986_3_1_scheme() {
        let cases: &[(&str, Expect)] = &[
            ("urn:isbn:0451450523", &[]),
            ("coap+tcp://h.example/", &[]),
            ("iris.beep:x", &[]),
            ("z39.50s://h.example/", &[]),
            ("9p:x", &[(BadScheme, "9", None)]),
            ("+x:y", &[(BadScheme, "+", None)]),
        ];
        assert_rfc3986_cases(cases);
    }

    /// RFC 7595: schemes outside the permanent registry warn, configured
    /// ones do not, in any case.
    #[test]
    fn rfc7595_permanent_registry() {
        let cases: &[(&str, Expect)] = &[
            ("ssh://h.example/", &[(UnknownScheme, "ssh", None)]),
            ("sftp://h.example/", &[(UnknownScheme, "sftp", None)]),
            ("x-local:thing", &[(UnknownScheme, "x-local", None)]),
            ("wais://h.example/db", &[(UnknownScheme, "wais", None)]),
            ("ws://h.example/chat", &[]),
            ("wss://h.example/chat", &[]),
            ("ldap://h.example/dc=example", &[]),
            ("data:,Hello", &[]),
            ("tel:+1-816-555-1212", &[]),
            (
                "IRC://h.example/",
                &[
                    (SchemeCase, "IRC", Some("irc")),
                    (UnknownScheme, "IRC", None),
                ],
            ),
        ];
        assert_rfc3986_cases(cases);
        let options = ValidateOptions {
            profile: Profile::Rfc3986,
            extra_schemes: vec!["SSH".to_string()],
        };
        assert_cases_with(&options, &[("ssh://h.example/", &[])]);
    }

    /// The shipped registry is sorted, without duplicates, lower case, and
    /// every name is a valid scheme.
    #[test]
    fn registry_is_sorted_lower_case_schemes() {
        let schemes: Vec<&str> = REGISTRY
            .lines()
            .filter(|line| !line.starts_with('#'))
            .collect();
        assert!(schemes.windows(2).all(|pair| pair[0] < pair[1]));
        for name in &schemes {
            assert!(name.starts_with(|c: char| c.is_ascii_lowercase()), "{name}");
            assert!(name
                .bytes()
                .all(|b| is_scheme_byte(b) && !b.is_ascii_uppercase()));
        }
        assert_eq!(registered().len(), schemes.len());
        assert!(is_registered("https") && is_registered("HTTPS") && !is_registered("ssh"));
    }
}
