//! The scheme: its syntax (section 2.1), and which schemes urlint knows and
//! by which grammar it checks them.
//!
//! Known schemes are RFC 1738's ten (section 3), the names section 4 asks
//! IANA to reserve (checked with `genericurl`, their syntax being undefined),
//! and `https`. `https` is not in RFC 1738, but it is HTTP over TLS with
//! exactly the `httpurl` syntax, and flagging the most common scheme in use as
//! unknown would bury real problems; it is checked as `http` with default
//! port 443. Other modern schemes are accepted only when configured
//! (`extra_schemes`), so that the tool stays a strict RFC 1738 checker.

use crate::diagnostic::Diagnostic;
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;
use crate::validate::compound;
use crate::validate::options::ValidateOptions;
use crate::validate::scheme_name::{self, SchemeSyntax};

/// The section 5 production a scheme-specific part is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Grammar {
    /// `httpurl` (3.3).
    Http,
    /// `ftpurl` (3.2).
    Ftp,
    /// `fileurl` (3.10).
    File,
    /// `gopherurl` (3.4).
    Gopher,
    /// `mailtourl` (3.5).
    Mailto,
    /// `newsurl` (3.6).
    News,
    /// `nntpurl` (3.7).
    Nntp,
    /// `telneturl` (3.8).
    Telnet,
    /// `waisurl` (3.9).
    Wais,
    /// `prosperourl` (3.11).
    Prospero,
    /// `genericurl`: any other scheme.
    Generic,
}

/// One known scheme.
#[derive(Debug)]
pub(crate) struct SchemeSpec {
    /// Lower-case name.
    pub name: &'static str,
    /// The grammar its scheme-specific part follows.
    pub grammar: Grammar,
    /// The port used when none is given, for the section 6 port warning.
    pub default_port: Option<u16>,
}

const fn spec(name: &'static str, grammar: Grammar, default_port: Option<u16>) -> SchemeSpec {
    SchemeSpec {
        name,
        grammar,
        default_port,
    }
}

/// Every scheme urlint knows.
pub(crate) static SCHEMES: &[SchemeSpec] = &[
    // Section 3, with the default ports it gives.
    spec("ftp", Grammar::Ftp, Some(21)),
    spec("http", Grammar::Http, Some(80)),
    spec("gopher", Grammar::Gopher, Some(70)),
    spec("mailto", Grammar::Mailto, None),
    spec("news", Grammar::News, None),
    spec("nntp", Grammar::Nntp, Some(119)),
    spec("telnet", Grammar::Telnet, Some(23)),
    spec("wais", Grammar::Wais, Some(210)),
    spec("file", Grammar::File, None),
    spec("prospero", Grammar::Prospero, Some(1525)),
    // Section 4: proposed, syntax not defined, so `genericurl`.
    spec("afs", Grammar::Generic, None),
    spec("mid", Grammar::Generic, None),
    spec("cid", Grammar::Generic, None),
    spec("nfs", Grammar::Generic, None),
    spec("tn3270", Grammar::Generic, None),
    spec("mailserver", Grammar::Generic, None),
    spec("z39.50", Grammar::Generic, None),
    // Not RFC 1738: HTTP over TLS (RFC 2818), the `httpurl` syntax.
    spec("https", Grammar::Http, Some(443)),
];

/// The scheme of a URL, once its syntax is known to be right.
#[derive(Debug)]
pub(crate) struct Scheme {
    /// The known scheme, `None` for `genericurl`.
    pub spec: Option<&'static SchemeSpec>,
    /// Byte offset of the `:` that ends the scheme.
    pub colon: usize,
}

impl Scheme {
    /// The grammar of the scheme-specific part.
    pub(super) fn grammar(&self) -> Grammar {
        self.spec.map_or(Grammar::Generic, |spec| spec.grammar)
    }

    /// The scheme's name as messages print it.
    pub(super) fn name(&self) -> &'static str {
        self.spec.map_or("generic", |spec| spec.name)
    }
}

const SCHEME_HELP: &str = "RFC 1738 section 2.1: a URL starts with a scheme of lower-case \
     letters, digits, '+', '-' and '.', followed by ':'";
/// Section 2.1: `scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]`, any
/// of them first.
const SYNTAX: SchemeSyntax = SchemeSyntax {
    noun: "URL",
    fragment_alone: "a fragment alone is not a URL",
    letter_first: false,
    help: SCHEME_HELP,
};
const CASE_HELP: &str = "RFC 1738 section 5 writes schemes in lower case; interpreters \
     must ignore case (section 2.1), but other tools may not";
const UNKNOWN_HELP: &str = "RFC 1738 sections 3 and 4 define ftp, http, gopher, mailto, news, \
     nntp, telnet, wais, file and prospero and reserve afs, mid, cid, nfs, tn3270, mailserver \
     and z39.50 (urlint also accepts https); names starting with 'x-' are for experiments; \
     configure other schemes you rely on as extra schemes";

/// Parse and check the scheme of `url[..end]`; `None` when it is too broken
/// for the rest of the URL to be read.
pub(crate) fn parse(
    collector: &mut Collector,
    end: usize,
    options: &ValidateOptions,
) -> Option<Scheme> {
    let colon = scheme_name::colon(collector, end, &SYNTAX)?;
    let url = collector.url();
    let name = &url[..colon];
    let known = |name: &str| {
        SCHEMES
            .iter()
            .find(|spec| spec.name.eq_ignore_ascii_case(name))
    };
    let spec = known(name).or_else(|| compound::transport(name).and_then(known));
    let configured = options
        .extra_schemes
        .iter()
        .any(|extra| extra.eq_ignore_ascii_case(name));
    scheme_name::check(collector, name, spec.is_some() || configured, CASE_HELP);
    if spec.is_none() && !configured {
        report_unknown(collector, name);
    }
    Some(Scheme { spec, colon })
}

fn report_unknown(collector: &mut Collector, name: &str) {
    let lower = name.to_ascii_lowercase();
    let message = if lower.starts_with("x-") {
        format!("scheme '{name}' is experimental: 'x-' names are for use by mutual agreement")
    } else {
        format!("scheme '{name}' is not defined by RFC 1738")
    };
    collector.push(
        Diagnostic::new(Rule::UnknownScheme, Span::new(0, name.len()), message)
            .with_help(UNKNOWN_HELP),
    );
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule::*;
    use crate::validate::options::ValidateOptions;
    use crate::validate::test_cases::{assert_cases, assert_cases_with, Expect};

    /// Section 2.1 and the `scheme` production of section 5, where RFC
    /// 1738 differs from RFC 3986 (the rest is in `scheme_name`): any scheme
    /// character may come first.
    #[test]
    fn rfc1738_2_1_scheme_syntax() {
        let cases: &[(&str, Expect)] = &[
            (
                "x-my.scheme+1:opaque",
                &[(UnknownScheme, "x-my.scheme+1", None)],
            ),
            ("9p:x", &[(UnknownScheme, "9p", None)]),
        ];
        assert_cases(cases);
    }

    /// Section 4: reserved names and `x-` schemes; https is a documented extra.
    #[test]
    fn rfc1738_4_known_reserved_and_experimental_schemes() {
        let cases: &[(&str, Expect)] = &[
            ("mid:960830.1639@xyzzy.example", &[]),
            ("z39.50:db", &[]),
            ("tn3270://h.example/", &[]),
            ("https://h.example/a", &[]),
            ("https://h.example:443/", &[]),
            ("ssh://h.example/", &[(UnknownScheme, "ssh", None)]),
            ("x-local:thing", &[(UnknownScheme, "x-local", None)]),
        ];
        assert_cases(cases);
    }

    /// Section 2.1 allows `+` in a scheme: a tool's compound scheme is read
    /// as the scheme it fetches over.
    #[test]
    fn rfc1738_2_1_a_compound_scheme_is_read_as_its_transport() {
        let cases: &[(&str, Expect)] = &[
            ("git+https://github.example/a/b.git", &[]),
            ("registry+https://github.example/index", &[]),
            ("git+http://h.example:99999/", &[(BadPort, "99999", None)]),
            (
                "svn+ssh://h.example/repo",
                &[(UnknownScheme, "svn+ssh", None)],
            ),
        ];
        assert_cases(cases);
    }

    /// Configured schemes are known, in any case.
    #[test]
    fn extra_schemes_are_not_unknown() {
        let options = ValidateOptions {
            extra_schemes: vec!["SSH".to_string()],
            ..ValidateOptions::default()
        };
        assert_cases_with(&options, &[("ssh://h.example/", &[])]);
    }
}
