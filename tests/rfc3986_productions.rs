//! Every production of RFC 3986 Appendix A, valid and invalid, each case a
//! URI that puts the production to work under the generic syntax (scheme
//! `example`, registered by RFC 7595 for documentation, which has no
//! scheme-specific rules). Relative references (`relative-ref`,
//! `relative-part`, `path-noscheme`, `URI-reference`) are not URIs on their
//! own; tests/rfc3986_examples.rs resolves them into URIs (section 5.4).

use urlint::{validate, Profile, Rule, Severity, ValidateOptions};

use Rule::*;

/// The error rules of `url` under the rfc3986 profile (warnings aside).
fn errors(url: &str) -> Vec<Rule> {
    let options = ValidateOptions {
        profile: Profile::Rfc3986,
        ..ValidateOptions::default()
    };
    validate(url, &options)
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.rule)
        .collect()
}

/// One case: the production, a URI, and the error rules it must report
/// (none for a valid one).
type Case = (&'static str, &'static str, &'static [Rule]);

const CASES: &[Case] = &[
    // URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
    ("URI", "example://a/b?c#d", &[]),
    ("URI", "example:", &[]),
    ("URI", "example", &[BadScheme]),
    ("URI", "example:a#b#c", &[ReservedChar]),
    // absolute-URI = scheme ":" hier-part [ "?" query ]
    ("absolute-URI", "example:/a?b", &[]),
    // hier-part = "//" authority path-abempty / path-absolute / path-rootless / path-empty
    ("hier-part", "example://h/p", &[]),
    ("hier-part", "example:/p", &[]),
    ("hier-part", "example:p", &[]),
    ("hier-part", "example:?q", &[]),
    // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
    ("scheme", "a:", &[]),
    ("scheme", "a1+-.:x", &[]),
    ("scheme", "1a:x", &[BadScheme]),
    ("scheme", "-a:x", &[BadScheme]),
    ("scheme", "a_b:x", &[BadScheme]),
    ("scheme", ":x", &[BadScheme]),
    // authority = [ userinfo "@" ] host [ ":" port ]
    ("authority", "example://u@h:1/", &[]),
    ("authority", "example://", &[]),
    ("authority", "example://u@h:1:2/", &[BadPort]),
    // userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
    ("userinfo", "example://@h", &[]),
    ("userinfo", "example://a-._~%41!$&'()*+,;=:b@h", &[]),
    ("userinfo", "example://a@b@h", &[ReservedChar]),
    ("userinfo", "example://a[b@h", &[ReservedChar]),
    ("userinfo", "example://a b@h", &[UnsafeChar]),
    ("userinfo", "example://a%4@h", &[BadEscape]),
    // host = IP-literal / IPv4address / reg-name
    ("host", "example://[::1]/", &[]),
    ("host", "example://192.0.2.1/", &[]),
    ("host", "example://h.example/", &[]),
    // port = *DIGIT
    ("port", "example://h:/", &[]),
    ("port", "example://h:0/", &[]),
    ("port", "example://h:123456789/", &[]),
    ("port", "example://h:8a/", &[BadPort]),
    ("port", "example://h:+8/", &[BadPort]),
    // IP-literal = "[" ( IPv6address / IPvFuture ) "]"
    ("IP-literal", "example://[2001:db8::1]:8080/", &[]),
    ("IP-literal", "example://[2001:db8::1/", &[BadHost]),
    ("IP-literal", "example://[h.example]/", &[BadHost]),
    ("IP-literal", "example://[]/", &[BadHost]),
    ("IP-literal", "example://[::1]h/", &[BadHost]),
    // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
    ("IPvFuture", "example://[v1.a]/", &[]),
    ("IPvFuture", "example://[vFe.a-._~!$&'()*+,;=:]/", &[]),
    ("IPvFuture", "example://[v.a]/", &[BadHost]),
    ("IPvFuture", "example://[v1.]/", &[BadHost]),
    ("IPvFuture", "example://[v1a]/", &[BadHost]),
    ("IPvFuture", "example://[v1.%41]/", &[BadHost]),
    // IPv6address: the nine forms
    ("IPv6address", "example://[1:2:3:4:5:6:7:8]/", &[]),
    ("IPv6address", "example://[1:2:3:4:5:6:1.2.3.4]/", &[]),
    ("IPv6address", "example://[::2:3:4:5:6:7:8]/", &[]),
    ("IPv6address", "example://[1::3:4:5:6:7:8]/", &[]),
    ("IPv6address", "example://[1:2::4:5:6:7:8]/", &[]),
    ("IPv6address", "example://[1:2:3::5:6:7:8]/", &[]),
    ("IPv6address", "example://[1:2:3:4::6:7:8]/", &[]),
    ("IPv6address", "example://[1:2:3:4:5::7:8]/", &[]),
    ("IPv6address", "example://[1:2:3:4:5:6::8]/", &[]),
    ("IPv6address", "example://[1:2:3:4:5:6:7::]/", &[]),
    ("IPv6address", "example://[::]/", &[]),
    ("IPv6address", "example://[1:2:3:4:5:6:7]/", &[BadHost]),
    ("IPv6address", "example://[1:2:3:4:5:6:7:8:9]/", &[BadHost]),
    ("IPv6address", "example://[1::2::3]/", &[BadHost]),
    ("IPv6address", "example://[1:2:3:4:5:6:7::8]/", &[BadHost]),
    ("IPv6address", "example://[:1::]/", &[BadHost]),
    ("IPv6address", "example://[fe80::1%25en0]/", &[BadHost]),
    // h16 = 1*4HEXDIG
    ("h16", "example://[a:bc:def:ABCD::]/", &[]),
    ("h16", "example://[12345::]/", &[BadHost]),
    ("h16", "example://[g::]/", &[BadHost]),
    // ls32 = ( h16 ":" h16 ) / IPv4address
    ("ls32", "example://[::a:b]/", &[]),
    ("ls32", "example://[::255.255.255.255]/", &[]),
    ("ls32", "example://[::1.2.3]/", &[BadHost]),
    ("ls32", "example://[1.2.3.4::]/", &[BadHost]),
    // IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet
    ("IPv4address", "example://[::0.0.0.0]/", &[]),
    ("IPv4address", "example://[::1.2.3.4.5]/", &[BadHost]),
    // dec-octet = 0-255 without leading zeros
    ("dec-octet", "example://[::9.99.199.249]/", &[]),
    ("dec-octet", "example://[::250.255.0.1]/", &[]),
    ("dec-octet", "example://[::256.0.0.1]/", &[BadHost]),
    ("dec-octet", "example://[::01.0.0.1]/", &[BadHost]),
    // reg-name = *( unreserved / pct-encoded / sub-delims )
    ("reg-name", "example://a-._~%C3%A9!$&'()*+,;=/", &[]),
    ("reg-name", "example://1.2.3.256/", &[]),
    ("reg-name", "example://h_.example/", &[]),
    ("reg-name", "example://h e/", &[BadHost]),
    ("reg-name", "example://h{e}/", &[BadHost]),
    ("reg-name", "example://h%e/", &[BadEscape]),
    ("reg-name", "example://h\u{e9}/", &[NonAscii]),
    // path-abempty = *( "/" segment )
    ("path-abempty", "example://h", &[]),
    ("path-abempty", "example://h//a//", &[]),
    ("path-abempty", "example://h/a[", &[ReservedChar]),
    // path-absolute = "/" [ segment-nz *( "/" segment ) ]
    ("path-absolute", "example:/", &[]),
    ("path-absolute", "example:/a//b", &[]),
    ("path-absolute", "example:/a]", &[ReservedChar]),
    // path-rootless = segment-nz *( "/" segment )
    ("path-rootless", "example:a:b//c", &[]),
    ("path-rootless", "example:a b", &[UnsafeChar]),
    // path-empty = 0<pchar>
    ("path-empty", "example:", &[]),
    ("path-empty", "example:#f", &[]),
    // segment = *pchar / segment-nz = 1*pchar
    ("segment", "example:/a-._~%2F!$&'()*+,;=:@/", &[]),
    ("segment", "example:/a%G0", &[BadEscape]),
    // pchar = unreserved / pct-encoded / sub-delims / ":" / "@"
    ("pchar", "example:@:", &[]),
    ("pchar", "example:a\"b", &[UnsafeChar]),
    ("pchar", "example:a\u{1}", &[ControlChar]),
    // query = *( pchar / "/" / "?" )
    ("query", "example:?/?:@!$&'()*+,;=", &[]),
    ("query", "example:??", &[]),
    ("query", "example:?a[1]", &[ReservedChar, ReservedChar]),
    ("query", "example:?a|b", &[UnsafeChar]),
    // fragment = *( pchar / "/" / "?" )
    ("fragment", "example:#/?:@!$&'()*+,;=", &[]),
    ("fragment", "example:#a#", &[ReservedChar]),
    ("fragment", "example:#a^", &[UnsafeChar]),
    // pct-encoded = "%" HEXDIG HEXDIG
    ("pct-encoded", "example:%00%ff%FF", &[]),
    ("pct-encoded", "example:%", &[BadEscape]),
    ("pct-encoded", "example:%f", &[BadEscape]),
    ("pct-encoded", "example:%fg", &[BadEscape]),
    // unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
    ("unreserved", "example:AZaz09-._~", &[]),
    // reserved = gen-delims / sub-delims
    ("gen-delims", "example://u@h:1/:@?/?#/?", &[]),
    ("gen-delims", "example:[", &[ReservedChar]),
    ("sub-delims", "example:!$&'()*+,;=", &[]),
    // characters in no production
    ("(excluded)", "example:\"<>\\^`{|} ", &[UnsafeChar; 10]),
    ("(excluded)", "example:\u{7f}", &[ControlChar]),
    ("(excluded)", "example:\u{e9}", &[NonAscii]),
];

#[test]
fn rfc3986_appendix_a_productions() {
    let mut failures = Vec::new();
    for &(production, url, expected) in CASES {
        let found = errors(url);
        if found != expected {
            failures.push(format!(
                "{production}: {url:?} gave {found:?}, not {expected:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every production of Appendix A that a URI can exercise has cases here,
/// both a valid and an invalid one where the production can be broken.
#[test]
fn every_production_has_cases() {
    let productions = [
        "URI",
        "hier-part",
        "absolute-URI",
        "scheme",
        "authority",
        "userinfo",
        "host",
        "port",
        "IP-literal",
        "IPvFuture",
        "IPv6address",
        "h16",
        "ls32",
        "IPv4address",
        "dec-octet",
        "reg-name",
        "path-abempty",
        "path-absolute",
        "path-rootless",
        "path-empty",
        "segment",
        "pchar",
        "query",
        "fragment",
        "pct-encoded",
        "unreserved",
        "gen-delims",
        "sub-delims",
    ];
    for production in productions {
        assert!(
            CASES.iter().any(|case| case.0 == production),
            "{production} has no case"
        );
    }
}
