//! The example URIs of RFC 3986 are valid under the rfc3986 profile: those
//! of sections 1.1.2 and 3, and every target of section 5.4's reference
//! resolution examples, resolved here against the section's base URI by a
//! small implementation of section 5.2 and compared with the targets the
//! RFC lists.

use urlint::{validate, Profile, Rule, Severity, ValidateOptions};

fn rfc3986() -> ValidateOptions {
    ValidateOptions {
        profile: Profile::Rfc3986,
        ..ValidateOptions::default()
    }
}

/// The rules `url` reports under the rfc3986 profile.
fn rules(url: &str) -> Vec<Rule> {
    validate(url, &rfc3986()).iter().map(|d| d.rule).collect()
}

/// Section 1.1.2: URIs of several schemes and their common syntax.
#[test]
fn rfc3986_1_1_2_examples_have_no_findings() {
    let examples = [
        "ftp://ftp.is.co.za/rfc/rfc1808.txt",
        "http://www.ietf.org/rfc/rfc2396.txt",
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "mailto:John.Doe@example.com",
        "news:comp.infosystems.www.servers.unix",
        "tel:+1-816-555-1212",
        "telnet://192.0.2.16:80/",
        "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
    ];
    for url in examples {
        assert_eq!(rules(url), [], "{url}");
    }
}

/// Section 3: the two URIs split into their components. `foo` is not a
/// registered scheme, which is only a warning.
#[test]
fn rfc3986_3_examples_are_valid() {
    assert_eq!(
        rules("foo://example.com:8042/over/there?name=ferret#nose"),
        [Rule::UnknownScheme]
    );
    assert_eq!(rules("urn:example:animal:ferret:nose"), []);
}

/// Section 5.4's base URI.
const BASE: &str = "http://a/b/c/d;p?q";

/// Sections 5.4.1 and 5.4.2: each reference and the target the RFC gives.
const RESOLUTIONS: &[(&str, &str)] = &[
    // 5.4.1 Normal examples
    ("g:h", "g:h"),
    ("g", "http://a/b/c/g"),
    ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"),
    ("//g", "http://g"),
    ("?y", "http://a/b/c/d;p?y"),
    ("g?y", "http://a/b/c/g?y"),
    ("#s", "http://a/b/c/d;p?q#s"),
    ("g#s", "http://a/b/c/g#s"),
    ("g?y#s", "http://a/b/c/g?y#s"),
    (";x", "http://a/b/c/;x"),
    ("g;x", "http://a/b/c/g;x"),
    ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    ("", "http://a/b/c/d;p?q"),
    (".", "http://a/b/c/"),
    ("./", "http://a/b/c/"),
    ("..", "http://a/b/"),
    ("../", "http://a/b/"),
    ("../g", "http://a/b/g"),
    ("../..", "http://a/"),
    ("../../", "http://a/"),
    ("../../g", "http://a/g"),
    // 5.4.2 Abnormal examples
    ("../../../g", "http://a/g"),
    ("../../../../g", "http://a/g"),
    ("/./g", "http://a/g"),
    ("/../g", "http://a/g"),
    ("g.", "http://a/b/c/g."),
    (".g", "http://a/b/c/.g"),
    ("g..", "http://a/b/c/g.."),
    ("..g", "http://a/b/c/..g"),
    ("./../g", "http://a/b/g"),
    ("./g/.", "http://a/b/c/g/"),
    ("g/./h", "http://a/b/c/g/h"),
    ("g/../h", "http://a/b/c/h"),
    ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
    ("g;x=1/../y", "http://a/b/c/y"),
    ("g?y/./x", "http://a/b/c/g?y/./x"),
    ("g?y/../x", "http://a/b/c/g?y/../x"),
    ("g#s/./x", "http://a/b/c/g#s/./x"),
    ("g#s/../x", "http://a/b/c/g#s/../x"),
    ("http:g", "http:g"),
];

#[test]
fn rfc3986_5_4_references_resolve_to_the_listed_targets() {
    for (reference, target) in RESOLUTIONS {
        assert_eq!(resolve(BASE, reference), *target, "{reference:?}");
    }
}

/// Every target is a URI with no error under the rfc3986 profile, except
/// the strict parser's reading of "http:g" (section 5.4.2), an http URI
/// without its "//" authority.
#[test]
fn rfc3986_5_4_every_target_is_a_valid_uri() {
    for (reference, target) in RESOLUTIONS {
        let errors: Vec<Rule> = validate(target, &rfc3986())
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.rule)
            .collect();
        let expected: &[Rule] = match *reference {
            "http:g" => &[Rule::MissingSlashes],
            _ => &[],
        };
        assert_eq!(errors, expected, "{reference:?} -> {target:?}");
    }
    assert_eq!(rules(BASE), []);
}

/// The five components of a URI reference (section 3, Appendix B's split).
#[derive(Debug, Default, Clone)]
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

/// Appendix B: `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`.
fn parse(reference: &str) -> Parts<'_> {
    let (rest, fragment) = match reference.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (reference, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((rest, query)) => (rest, Some(query)),
        None => (rest, None),
    };
    let (scheme, rest) = match rest.split_once(':') {
        Some((scheme, rest)) if !scheme.is_empty() && !scheme.contains('/') => (Some(scheme), rest),
        _ => (None, rest),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(rest) => {
            let end = rest.find('/').unwrap_or(rest.len());
            (Some(&rest[..end]), &rest[end..])
        }
        None => (None, rest),
    };
    Parts {
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}

/// Section 5.2.2, strict: transform `reference` against `base`.
fn resolve(base: &str, reference: &str) -> String {
    let (base, r) = (parse(base), parse(reference));
    let mut target = Parts {
        fragment: r.fragment,
        ..Parts::default()
    };
    let path;
    if r.scheme.is_some() {
        path = remove_dot_segments(r.path);
        target = Parts {
            scheme: r.scheme,
            authority: r.authority,
            query: r.query,
            ..target
        };
    } else if r.authority.is_some() {
        path = remove_dot_segments(r.path);
        target = Parts {
            authority: r.authority,
            query: r.query,
            ..target
        };
    } else if r.path.is_empty() {
        path = base.path.to_string();
        target.query = r.query.or(base.query);
    } else {
        path = match r.path.starts_with('/') {
            true => remove_dot_segments(r.path),
            false => remove_dot_segments(&merge(&base, r.path)),
        };
        target.query = r.query;
    }
    if r.scheme.is_none() {
        target.scheme = base.scheme;
        if r.authority.is_none() {
            target.authority = base.authority;
        }
    }
    recompose(&target, &path)
}

/// Section 5.2.3.
fn merge(base: &Parts, path: &str) -> String {
    if base.authority.is_some() && base.path.is_empty() {
        return format!("/{path}");
    }
    match base.path.rfind('/') {
        Some(slash) => format!("{}{path}", &base.path[..=slash]),
        None => path.to_string(),
    }
}

/// Section 5.2.4.
fn remove_dot_segments(path: &str) -> String {
    let mut input = path.to_string();
    let mut output = String::new();
    while !input.is_empty() {
        if let Some(rest) = input.strip_prefix("../") {
            input = rest.to_string();
        } else if let Some(rest) = input.strip_prefix("./") {
            input = rest.to_string();
        } else if input.starts_with("/./") {
            input.replace_range(..3, "/");
        } else if input == "/." {
            input = "/".to_string();
        } else if input.starts_with("/../") || input == "/.." {
            let cut = if input == "/.." { 3 } else { 4 };
            input.replace_range(..cut, "/");
            output.truncate(output.rfind('/').unwrap_or(0));
        } else if input == "." || input == ".." {
            input.clear();
        } else {
            let start = usize::from(input.starts_with('/'));
            let end = input[start..]
                .find('/')
                .map_or(input.len(), |at| start + at);
            output.push_str(&input[..end]);
            input.replace_range(..end, "");
        }
    }
    output
}

/// Section 5.3.
fn recompose(parts: &Parts, path: &str) -> String {
    let mut uri = String::new();
    if let Some(scheme) = parts.scheme {
        uri.push_str(scheme);
        uri.push(':');
    }
    if let Some(authority) = parts.authority {
        uri.push_str("//");
        uri.push_str(authority);
    }
    uri.push_str(path);
    if let Some(query) = parts.query {
        uri.push('?');
        uri.push_str(query);
    }
    if let Some(fragment) = parts.fragment {
        uri.push('#');
        uri.push_str(fragment);
    }
    uri
}
