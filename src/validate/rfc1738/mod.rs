//! The RFC 1738 profile: the product's strictness, and the default.
//!
//! The URL is read once, structure first: the scheme picks a section 5
//! grammar, and the grammar splits its parts at their delimiters and checks
//! each part's characters (`chars`). Delimiters are never characters that
//! must be encoded, so a bad character never changes how the URL is split,
//! and each problem is reported once: a part judged as a whole (a host, a
//! newsgroup name) does not also report its characters one by one.

mod chars;
mod file;
pub(super) mod ftp;
mod gopher;
mod host;
mod http;
mod login;
mod mailto;
mod news;
mod prospero;
mod scheme;
mod telnet;
mod wais;

use std::ops::Range;

use self::chars::Part;
use self::login::{Login, LoginRules};
use self::scheme::{Grammar, Scheme};
use super::collector::Collector;
use crate::diagnostic::Diagnostic;
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::options::ValidateOptions;

/// Check `url[..body_end]`, the URL without its fragment; false when the
/// scheme is too broken for the rest, the fragment included, to be read.
pub(super) fn check(collector: &mut Collector, body_end: usize, options: &ValidateOptions) -> bool {
    let Some(scheme) = scheme::parse(collector, body_end, options) else {
        return false;
    };
    scheme_part(collector, &scheme, scheme.colon + 1..body_end);
    true
}

/// A fragment identifier, RFC 1808 section 2.2: `fragment = *( uchar |
/// reserved )`, the same characters as RFC 1738's `xchar`.
const FRAGMENT: Part = Part::xchar("fragment identifier");

/// Check the characters of a fragment identifier (without any `#`).
pub(super) fn check_fragment(collector: &mut Collector, range: Range<usize>) {
    chars::check(collector, range, &FRAGMENT);
}

/// Check the scheme-specific part `range` by the scheme's grammar.
fn scheme_part(collector: &mut Collector, scheme: &Scheme, range: Range<usize>) {
    let grammar = scheme.grammar();
    if let Some(ip) = IP_SCHEMES.iter().find(|ip| ip.grammar == grammar) {
        return ip_based(collector, scheme, ip, range);
    }
    match grammar {
        Grammar::Mailto => mailto::check(collector, range),
        Grammar::News => news::check_news(collector, range),
        Grammar::File => file::check(collector, range),
        _ => generic(collector, scheme, range),
    }
}

/// How an IP-based scheme's login is checked, and the function for its path.
struct IpScheme {
    grammar: Grammar,
    userinfo: bool,
    decoded_by: Option<&'static str>,
    /// Checks what follows the login.
    path: fn(&mut Collector, Range<usize>),
}

/// The IP-based schemes of section 3 that follow section 3.1's syntax.
static IP_SCHEMES: &[IpScheme] = &[
    IpScheme {
        grammar: Grammar::Http,
        userinfo: false,
        decoded_by: None,
        path: http::check_path,
    },
    IpScheme {
        grammar: Grammar::Ftp,
        userinfo: true,
        decoded_by: Some("FTP"),
        path: ftp::check_path,
    },
    IpScheme {
        grammar: Grammar::Gopher,
        userinfo: false,
        decoded_by: None,
        path: gopher::check_path,
    },
    IpScheme {
        grammar: Grammar::Nntp,
        userinfo: false,
        decoded_by: None,
        path: news::check_nntp_path,
    },
    IpScheme {
        grammar: Grammar::Telnet,
        userinfo: true,
        decoded_by: Some("Telnet"),
        path: telnet::check_path,
    },
    IpScheme {
        grammar: Grammar::Wais,
        userinfo: false,
        decoded_by: None,
        path: wais::check_path,
    },
    IpScheme {
        grammar: Grammar::Prospero,
        userinfo: false,
        decoded_by: None,
        path: prospero::check_path,
    },
];

const SLASHES_HELP: &str = "RFC 1738 section 3.1: the scheme-specific part of an IP-based \
     scheme starts with '//' to show that it follows the common Internet scheme syntax \
     //<user>:<password>@<host>:<port>/<url-path>";

/// An IP-based scheme: `//` login, then the scheme's own path.
fn ip_based(collector: &mut Collector, scheme: &Scheme, ip: &IpScheme, range: Range<usize>) {
    let Some(login) = slashes_login(collector, &range, ip.grammar == Grammar::Http) else {
        report_missing_slashes(collector, scheme, &range);
        chars::check(collector, range, &Part::xchar("scheme-specific part"));
        return;
    };
    let rules = LoginRules {
        scheme: scheme.name(),
        userinfo: ip.userinfo,
        decoded_by: ip.decoded_by,
        default_port: scheme.spec.and_then(|spec| spec.default_port),
    };
    login::check(collector, &login, &rules);
    let host = login.host(collector.url());
    if host.is_empty() && login.end() == range.end {
        // "scheme://" alone: the missing host, already reported, says it all.
        return;
    }
    (ip.path)(collector, login.end()..range.end);
}

/// The login of a scheme-specific part that starts with `//`.
fn slashes_login(
    collector: &Collector,
    range: &Range<usize>,
    query_ends_host: bool,
) -> Option<Login> {
    let url = collector.url();
    url.as_bytes()[range.clone()]
        .starts_with(b"//")
        .then(|| login::split(url, range.start, range.end, query_ends_host))
}

fn report_missing_slashes(collector: &mut Collector, scheme: &Scheme, range: &Range<usize>) {
    let bytes = collector.url().as_bytes();
    // Point at a lone '/' standing where '//' belongs, or where '//' goes.
    let end = range.start + usize::from(bytes.get(range.start) == Some(&b'/'));
    let span = Span::new(range.start, end);
    let message = format!("'{}' URLs need '//' before the host", scheme.name());
    collector.push(Diagnostic::new(Rule::MissingSlashes, span, message).with_help(SLASHES_HELP));
}

/// `genericurl`: `*xchar`, or an `ip-schemepart` when it starts with `//`.
fn generic(collector: &mut Collector, scheme: &Scheme, range: Range<usize>) {
    let Some(login) = slashes_login(collector, &range, false) else {
        chars::check(collector, range, &Part::xchar("scheme-specific part"));
        return;
    };
    let rules = LoginRules {
        scheme: scheme.name(),
        userinfo: true,
        decoded_by: None,
        default_port: None,
    };
    login::check(collector, &login, &rules);
    chars::check(collector, login.end()..range.end, &Part::xchar("url-path"));
}

#[cfg(test)]
mod tests {
    use crate::span::Span;
    use crate::validate::options::ValidateOptions;
    use crate::validate::test_cases::{assert_cases, Expect};
    use crate::validate::{collector, validate};

    /// Messages name the character and its encoding (the example).
    #[test]
    fn messages_name_the_character() {
        let diagnostics = validate("http://host.example/~user", &ValidateOptions::default());
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(
            diagnostics[0].message,
            "unsafe character '~' must be encoded as %7E"
        );
        assert!(diagnostics[0].help.contains("section 2.2"));
    }

    /// Section 3.1: IP-based schemes need `//`.
    #[test]
    fn rfc1738_3_1_missing_slashes() {
        let cases: &[(&str, Expect)] = &[
            ("http:h.example/", &[(MissingSlashes, "", None)]),
            ("http:/h.example/", &[(MissingSlashes, "/", None)]),
            ("http:", &[(MissingSlashes, "", None)]),
            ("telnet:h.example", &[(MissingSlashes, "", None)]),
            (
                "gopher:/h~",
                &[(MissingSlashes, "/", None), (UnsafeChar, "~", Some("%7E"))],
            ),
        ];
        assert_cases(cases);
    }

    /// Section 5 `genericurl`: other schemes, opaque or with a login.
    #[test]
    fn rfc1738_5_genericurl() {
        let cases: &[(&str, Expect)] = &[
            ("cid:part1.x@h.example", &[]),
            ("mid:", &[]),
            ("afs://cell.example/user/x", &[]),
            (
                "afs://u:pw@cell.example:7000/a",
                &[(PasswordInUrl, "pw", None)],
            ),
            (
                "afs://cell..example/a b",
                &[(BadHost, ".", None), (UnsafeChar, " ", Some("%20"))],
            ),
            ("nfs:opaque/with:reserved;chars?&=@", &[]),
            ("nfs:a b", &[(UnsafeChar, " ", Some("%20"))]),
        ];
        assert_cases(cases);
    }

    /// Precision: many bad characters are capped, linearly, into one summary.
    #[test]
    fn character_problems_are_capped() {
        // Two characters in turn, so that no run joins them.
        let url = format!("ftp://h.example/{}", "~{".repeat(500));
        let diagnostics = validate(&url, &ValidateOptions::default());
        assert_eq!(diagnostics.len(), collector::CHAR_DIAGNOSTIC_LIMIT + 1);
        let summary = diagnostics.last().map(|d| (d.span, d.fix.is_none()));
        let first_unlisted = 16 + collector::CHAR_DIAGNOSTIC_LIMIT;
        assert_eq!(summary, Some((Span::new(first_unlisted, url.len()), true)));
    }

    use crate::rules::Rule::*;
}
