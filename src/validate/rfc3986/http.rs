//! http and https (RFC 9110 sections 4.2.1 and 4.2.2):
//! `"http" "://" authority path-abempty [ "?" query ]`, with a non-empty
//! host, a TCP port, and no user information (section 4.2.4).

use std::ops::Range;

use super::authority::split_query;
use super::authority::{self, Authority, AuthorityRules, UserinfoUse};
use super::chars::{self, Component, PATH, QUERY};
use crate::diagnostic::Diagnostic;
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;

/// The path, sent in the request line.
const HTTP_PATH: Component = Component {
    decoded_by: Some("HTTP"),
    ..PATH
};

/// The query, sent in the request line.
const HTTP_QUERY: Component = Component {
    decoded_by: Some("HTTP"),
    ..QUERY
};

const SLASHES_HELP: &str = "RFC 9110 section 4.2.1: http-URI = \"http\" \"://\" authority \
     path-abempty [ \"?\" query ], and https the same; the authority names the origin server";

/// Check the part of an http or https URI after its scheme.
pub(crate) fn check(collector: &mut Collector, scheme: &'static str, range: Range<usize>) {
    let url = collector.url();
    let (hier, query) = split_query(url, range.clone());
    if !url.as_bytes()[hier.clone()].starts_with(b"//") {
        report_missing_slashes(collector, scheme, range.start);
        chars::check(collector, hier, &HTTP_PATH);
        if let Some(query) = query {
            chars::check(collector, query, &HTTP_QUERY);
        }
        return;
    }
    let authority = Authority::split(url, hier.start + 2, hier.end);
    let rules = AuthorityRules {
        scheme,
        host_required: Some(
            "an http or https URI names its origin server (RFC 9110 section 4.2.1)",
        ),
        userinfo: UserinfoUse::Deprecated,
        decoded_by: None,
        default_port: Some(if scheme == "https" { 443 } else { 80 }),
    };
    authority::check(collector, &authority, &rules);
    if authority.host.is_empty() && authority.end() == range.end {
        // "http://" alone: the missing host, already reported, says it all.
        return;
    }
    chars::check(collector, authority.end()..hier.end, &HTTP_PATH);
    if let Some(query) = query {
        chars::check(collector, query, &HTTP_QUERY);
    }
}

/// `http:` without `//`: point at a lone `/` standing where `//` belongs,
/// or where `//` goes.
pub(crate) fn report_missing_slashes(collector: &mut Collector, scheme: &str, start: usize) {
    let bytes = collector.url().as_bytes();
    let end = start + usize::from(bytes.get(start) == Some(&b'/'));
    let message = format!("'{scheme}' URIs need '//' before the host");
    collector.push(
        Diagnostic::new(Rule::MissingSlashes, Span::new(start, end), message)
            .with_help(SLASHES_HELP),
    );
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule::*;
    use crate::validate::test_cases::{assert_rfc3986_cases, Expect};

    /// RFC 9110 sections 4.2.1 to 4.2.4 on top of the generic syntax.
    #[test]
    fn rfc9110_4_2_http_and_https() {
        let cases: &[(&str, Expect)] = &[
            ("http://www.ietf.org/rfc/rfc2396.txt", &[]),
            ("http://h.example", &[]),
            ("http://h.example?q=1", &[]),
            ("http://h.example:/", &[]),
            ("http://h.example:8080/~user/a;b=c/?x=/y?z", &[]),
            ("https://[2001:db8::1]:8443/", &[]),
            ("http://192.0.2.16/", &[]),
            (
                "http://h.example/a%0D%0Ab",
                &[(EncodedNewline, "%0D", None), (EncodedNewline, "%0A", None)],
            ),
            ("http:h.example/", &[(MissingSlashes, "", None)]),
            ("http:/h.example/", &[(MissingSlashes, "/", None)]),
            ("https:", &[(MissingSlashes, "", None)]),
            ("http://", &[(BadHost, "", None)]),
            ("http:///a", &[(BadHost, "", None)]),
            ("https://:443/", &[(BadHost, "", None)]),
            ("http://u@h.example/", &[(DeprecatedUserinfo, "u@", None)]),
            (
                "https://u:pw@h.example/",
                &[(DeprecatedUserinfo, "u:pw@", None)],
            ),
            (
                "http://u v@h.example/",
                &[
                    (DeprecatedUserinfo, "u v@", None),
                    (UnsafeChar, " ", Some("%20")),
                ],
            ),
            ("http://h.example:65535/", &[]),
            ("http://h.example:65536/", &[(BadPort, "65536", None)]),
            ("http://h.example:8o/", &[(BadPort, "8o", None)]),
            ("http://h.example:25/", &[(NondefaultPort, "25", None)]),
            ("https://h.example:80/", &[(NondefaultPort, "80", None)]),
            ("https://h.example:443/", &[]),
            ("http://h x/", &[(BadHost, " ", None)]),
            ("http://host..example/", &[(BadHost, ".", None)]),
            ("http://my_host.example/", &[(BadHost, "_", None)]),
            ("http://192.168.1.256/", &[(BadHost, "192.168.1.256", None)]),
            ("http://h.example./", &[]),
            ("http://xn--caf-dma.example/", &[]),
        ];
        assert_rfc3986_cases(cases);
    }
}
