//! The RFC 3986 profile: the generic URI syntax of Appendix A, with the
//! rules of the standards that define http and https (RFC 9110), mailto
//! (RFC 6068), file (RFC 8089) and ftp (RFC 1738 section 3.2's structure,
//! with RFC 3986's characters). Any other scheme is checked by the generic
//! syntax alone.
//!
//! As in the RFC 1738 profile, the URI is split at its delimiters first
//! (scheme, `//` authority, path, `?` query) and each component's
//! characters are checked once, by the component's grammar.

mod authority;
mod chars;
mod file;
mod ftp;
mod host;
mod http;
mod mailto;
mod scheme;

use std::ops::Range;

use self::authority::{split_query, Authority, AuthorityRules};
use self::chars::{FRAGMENT, PATH, QUERY};
use super::collector::Collector;
use crate::validate::options::ValidateOptions;

/// Check `url[..body_end]`, the URI without its fragment; false when the
/// scheme is too broken for the rest, the fragment included, to be read.
pub(super) fn check(collector: &mut Collector, body_end: usize, options: &ValidateOptions) -> bool {
    let Some(scheme) = scheme::parse(collector, body_end, options) else {
        return false;
    };
    let rest = scheme.colon + 1..body_end;
    match scheme.name.as_str() {
        "http" => http::check(collector, "http", rest),
        "https" => http::check(collector, "https", rest),
        "ftp" => ftp::check(collector, rest),
        "mailto" => mailto::check(collector, rest),
        "file" => file::check(collector, rest),
        _ => generic(collector, rest),
    }
    true
}

/// Check the characters of a fragment (without any `#`).
pub(super) fn check_fragment(collector: &mut Collector, range: Range<usize>) {
    chars::check(collector, range, &FRAGMENT);
}

/// `hier-part [ "?" query ]` by the generic syntax alone.
fn generic(collector: &mut Collector, range: Range<usize>) {
    let (hier, query) = split_query(collector.url(), range);
    let mut path = hier.clone();
    if collector.url().as_bytes()[hier.clone()].starts_with(b"//") {
        let authority = Authority::split(collector.url(), hier.start + 2, hier.end);
        authority::check(collector, &authority, &AuthorityRules::GENERIC);
        path.start = authority.end();
    }
    chars::check(collector, path, &PATH);
    if let Some(query) = query {
        chars::check(collector, query, &QUERY);
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule::*;
    use crate::validate::test_cases::{assert_rfc3986_cases, Expect};

    /// Section 3 `hier-part`: the four forms, through schemes with only the
    /// generic syntax.
    #[test]
    fn rfc3986_3_hier_part() {
        let cases: &[(&str, Expect)] = &[
            // "//" authority path-abempty
            (
                "example://example.com:8042/over/there?name=ferret#nose",
                &[],
            ),
            ("example://h.example//a//b/", &[]),
            // path-absolute
            ("example:/a/b:c@d", &[]),
            // path-rootless, a colon in the first segment included
            ("urn:example:animal:ferret:nose", &[]),
            ("example:a:b/c", &[]),
            // path-empty
            ("example:", &[]),
            ("example:?q", &[]),
            ("example:#f", &[]),
        ];
        assert_rfc3986_cases(cases);
    }

    /// Sections 3.3 to 3.5: path, query and fragment characters.
    #[test]
    fn rfc3986_3_3_path_query_fragment() {
        let cases: &[(&str, Expect)] = &[
            ("example:/~user/a;p=1,2/b=c&d", &[]),
            ("example:/p?q=/a?b:@!$&'()*+,;=", &[]),
            ("example:/p?a#f/?:@", &[]),
            ("example:/a]b", &[(ReservedChar, "]", Some("%5D"))]),
            ("example:/a?b]c", &[(ReservedChar, "]", Some("%5D"))]),
            ("example:/a%2x", &[(BadEscape, "%", None)]),
            (
                "example:/a b?c d",
                &[
                    (UnsafeChar, " ", Some("%20")),
                    (UnsafeChar, " ", Some("%20")),
                ],
            ),
        ];
        assert_rfc3986_cases(cases);
    }
}
