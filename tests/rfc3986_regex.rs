//! The rfc3986 profile agrees with an independent statement of RFC 3986's
//! grammar: a regular expression built here, production by production,
//! from Appendix A, sharing no code with the validator.
//!
//! For URIs of schemes with only the generic syntax, the profile reports no
//! error exactly when the expression matches. For schemes with their own
//! rules (http, https, ftp, mailto, file), which only narrow the generic
//! syntax, every URI the profile accepts matches the expression.

use std::sync::OnceLock;

use proptest::prelude::*;
use regex::Regex;
use urlint::{validate, Profile, Severity, ValidateOptions};

/// `URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]`, anchored.
fn uri_grammar() -> &'static Regex {
    static GRAMMAR: OnceLock<Regex> = OnceLock::new();
    GRAMMAR.get_or_init(|| {
        let unreserved = r"[A-Za-z0-9\-._~]";
        let pct_encoded = r"%[0-9A-Fa-f]{2}";
        let sub_delims = r"[!$&'()*+,;=]";
        let pchar = format!("(?:{unreserved}|{pct_encoded}|{sub_delims}|[:@])");
        let scheme = r"[A-Za-z][A-Za-z0-9+\-.]*";
        let userinfo = format!("(?:{unreserved}|{pct_encoded}|{sub_delims}|:)*");
        let h16 = "[0-9A-Fa-f]{1,4}";
        let dec_octet = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])";
        let ipv4 = format!(r"{dec_octet}\.{dec_octet}\.{dec_octet}\.{dec_octet}");
        let ls32 = format!("(?:{h16}:{h16}|{ipv4})");
        let ipv6 = [
            format!("(?:{h16}:){{6}}{ls32}"),
            format!("::(?:{h16}:){{5}}{ls32}"),
            format!("(?:{h16})?::(?:{h16}:){{4}}{ls32}"),
            format!("(?:(?:{h16}:){{0,1}}{h16})?::(?:{h16}:){{3}}{ls32}"),
            format!("(?:(?:{h16}:){{0,2}}{h16})?::(?:{h16}:){{2}}{ls32}"),
            format!("(?:(?:{h16}:){{0,3}}{h16})?::{h16}:{ls32}"),
            format!("(?:(?:{h16}:){{0,4}}{h16})?::{ls32}"),
            format!("(?:(?:{h16}:){{0,5}}{h16})?::{h16}"),
            format!("(?:(?:{h16}:){{0,6}}{h16})?::"),
        ]
        .join("|");
        let ipv_future = format!(r"[vV][0-9A-Fa-f]+\.(?:{unreserved}|{sub_delims}|:)+");
        let ip_literal = format!(r"\[(?:{ipv6}|{ipv_future})\]");
        let reg_name = format!("(?:{unreserved}|{pct_encoded}|{sub_delims})*");
        let host = format!("(?:{ip_literal}|{ipv4}|{reg_name})");
        let port = "[0-9]*";
        let authority = format!("(?:{userinfo}@)?{host}(?::{port})?");
        let segment = format!("{pchar}*");
        let segment_nz = format!("{pchar}+");
        let path_abempty = format!("(?:/{segment})*");
        let path_absolute = format!("/(?:{segment_nz}(?:/{segment})*)?");
        let path_rootless = format!("{segment_nz}(?:/{segment})*");
        let hier_part = format!("(?://{authority}{path_abempty}|{path_absolute}|{path_rootless}|)");
        let query = format!("(?:{pchar}|[/?])*");
        let fragment = query.clone();
        let uri = format!("^{scheme}:{hier_part}(?:\\?{query})?(?:#{fragment})?$");
        Regex::new(&uri).expect("the grammar is a valid expression")
    })
}

/// True when the rfc3986 profile reports no error for `url`.
fn accepted(url: &str) -> bool {
    let options = ValidateOptions {
        profile: Profile::Rfc3986,
        ..ValidateOptions::default()
    };
    validate(url, &options)
        .iter()
        .all(|diagnostic| diagnostic.severity != Severity::Error)
}

/// Schemes checked by the generic syntax alone (any case; `1x` is not a scheme).
const GENERIC_SCHEMES: &[&str] = &["example", "urn", "foo", "x-y", "a+b.c", "Z9", "ldap", "1x"];

/// Schemes with rules of their own on top of the generic syntax.
const SPECIFIC_SCHEMES: &[&str] = &["http", "https", "ftp", "mailto", "file"];

/// `*pchar`-like runs for the given extra characters, with percent-encodings.
fn run_of(extra: &'static str, max: usize) -> BoxedStrategy<String> {
    let pattern = format!("(?:[A-Za-z0-9._~!$&'()*+,;=-]|[{extra}]|%[0-9A-Fa-f]{{2}}){{0,{max}}}");
    proptest::string::string_regex(&pattern)
        .expect("a valid pattern")
        .boxed()
}

/// An `IPv6address` of any of the nine forms: eight groups, or six and an
/// IPv4 address, with a run of groups possibly compressed to `::`. An
/// octet of the IPv4 address sometimes gets a leading zero, which
/// `dec-octet` does not allow.
fn ipv6() -> impl Strategy<Value = String> {
    (
        prop::collection::vec("[0-9a-fA-F]{1,4}", 8),
        prop::option::of((prop::array::uniform4(any::<u8>()), 0usize..12)),
        prop::option::of((0usize..8, 1usize..9)),
    )
        .prop_map(|(groups, ipv4, compress)| {
            let mut units: Vec<String> = groups;
            if let Some((octets, zero_at)) = ipv4 {
                let mut octets = octets.map(|octet| octet.to_string());
                if let Some(octet) = octets.get_mut(zero_at) {
                    octet.insert(0, '0');
                }
                units.truncate(6);
                units.push(octets.join("."));
            }
            let h16_units = if ipv4.is_some() { 6 } else { 8 };
            match compress {
                Some((start, len)) if start < h16_units => {
                    let end = (start + len).min(h16_units);
                    format!("{}::{}", units[..start].join(":"), units[end..].join(":"))
                }
                _ => units.join(":"),
            }
        })
}

/// A valid `host`: an IP literal, an IPv4 address or a registered name.
fn host() -> impl Strategy<Value = String> {
    prop_oneof![
        ipv6().prop_map(|address| format!("[{address}]")),
        "\\[[vV][0-9a-fA-F]{1,2}\\.[a-z0-9:!$=]{1,4}\\]",
        prop::array::uniform4(any::<u8>())
            .prop_map(|o| format!("{}.{}.{}.{}", o[0], o[1], o[2], o[3])),
        run_of("-", 8),
    ]
}

/// A valid URI of `schemes`, by Appendix A, production by production.
fn valid_uri(schemes: &'static [&'static str]) -> impl Strategy<Value = String> {
    let authority = (
        prop::option::of(run_of(":", 5)),
        host(),
        prop::option::of("[0-9]{0,5}"),
    )
        .prop_map(|(userinfo, host, port)| {
            let userinfo = userinfo.map(|u| format!("{u}@")).unwrap_or_default();
            let port = port.map(|p| format!(":{p}")).unwrap_or_default();
            format!("{userinfo}{host}{port}")
        });
    let segments = prop::collection::vec(run_of(":@", 4), 0..4);
    let hier_part = prop_oneof![
        (authority, segments.clone()).prop_map(|(a, s)| format!(
            "//{a}{}",
            s.iter().map(|s| format!("/{s}")).collect::<String>()
        )),
        segments
            .clone()
            .prop_map(|s| format!("/{}", s.join("/").trim_start_matches('/'))),
        (run_of(":@", 4), segments).prop_map(|(first, rest)| {
            let first = if first.is_empty() {
                "a".to_string()
            } else {
                first
            };
            format!(
                "{first}{}",
                rest.iter().map(|s| format!("/{s}")).collect::<String>()
            )
        }),
        Just(String::new()),
    ];
    (
        prop::sample::select(schemes),
        hier_part,
        prop::option::of(run_of(":@/?", 6)),
        prop::option::of(run_of(":@/?", 6)),
    )
        .prop_map(|(scheme, hier, query, fragment)| {
            let query = query.map(|q| format!("?{q}")).unwrap_or_default();
            let fragment = fragment.map(|f| format!("#{f}")).unwrap_or_default();
            format!("{scheme}:{hier}{query}{fragment}")
        })
}

/// Characters and strings that break a URI, or are delimiters that may.
fn trouble() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "/", "//", "?", "#", "@", ":", "::", "[", "]", "%", "%g", "%4", " ", "\"", "<", ">", "\\",
        "^", "`", "{", "|", "}", "\t", "\u{7f}", "\u{e9}", ".", "0", "v", "1.2.3.4", "256",
    ])
}

/// A valid URI of `schemes`, sometimes with one insertion or deletion.
fn uri_like(schemes: &'static [&'static str]) -> impl Strategy<Value = String> {
    (
        valid_uri(schemes),
        any::<prop::sample::Index>(),
        prop::option::of(trouble()),
        any::<bool>(),
    )
        .prop_map(|(uri, at, insert, delete)| {
            let at = at.index(uri.len() + 1);
            match (insert, delete && at < uri.len()) {
                (Some(piece), _) => format!("{}{piece}{}", &uri[..at], &uri[at..]),
                (None, true) => format!("{}{}", &uri[..at], &uri[at + 1..]),
                (None, false) => uri,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Generic schemes: the profile and the grammar agree both ways.
    #[test]
    fn generic_syntax_agrees_with_the_grammar(url in uri_like(GENERIC_SCHEMES)) {
        let profile = accepted(&url);
        let grammar = uri_grammar().is_match(&url);
        prop_assert_eq!(profile, grammar, "{:?}: profile {}, grammar {}", url, profile, grammar);
    }

    /// Scheme rules only narrow: what the profile accepts, the grammar does.
    #[test]
    fn scheme_rules_accept_only_grammatical_uris(url in uri_like(SPECIFIC_SCHEMES)) {
        if accepted(&url) {
            prop_assert!(uri_grammar().is_match(&url), "{:?} accepted off the grammar", url);
        }
    }

    /// Arbitrary text after a generic scheme: agreement both ways.
    #[test]
    fn arbitrary_text_agrees_with_the_grammar(rest in any::<String>()) {
        let url = format!("example:{rest}");
        prop_assert_eq!(accepted(&url), uri_grammar().is_match(&url), "{:?}", url);
    }
}

/// The expression itself, on the cases that tell its alternatives apart.
#[test]
fn the_grammar_reads_appendix_a() {
    for valid in [
        "example://[2001:db8::7]/c=GB?objectClass?one",
        "example://[::ffff:192.0.2.1]",
        "example://[v7.a:b]",
        "example://u:p@h:80/a/b?c#d",
        "example:a:b",
        "example:",
    ] {
        assert!(uri_grammar().is_match(valid), "{valid}");
    }
    for invalid in [
        "example://[1::2::3]",
        "example://[::1.2.3.256]",
        "example://h:8x",
        "example:a#b#c",
        "example:%zz",
        "1example:a",
    ] {
        assert!(!uri_grammar().is_match(invalid), "{invalid}");
    }
}
