//! Realistic URLs: the schemes of RFC 1738 plus https, with ports, escapes,
//! queries, fragments, hyphens and parentheses in the places they occur.

use super::prng::Prng;

const LABELS: &[&str] = &[
    "www", "ftp", "mail", "docs", "lists", "news", "archive", "mirror", "cs", "info", "dev",
];
const DOMAINS: &[&str] = &[
    "example",
    "example-univ",
    "acme",
    "widgets",
    "netlab",
    "openbits",
    "hyphen-ated",
    "zeta",
];
const TLDS: &[&str] = &["com", "org", "net", "edu", "de", "co.uk", "fr", "io"];
const SEGMENTS: &[&str] = &[
    "pub",
    "doc",
    "docs",
    "papers",
    "rfc",
    "software",
    "releases",
    "2024",
    "index.html",
    "README.txt",
    "user-guide",
    "long-file-name.txt",
    "v1.2.3",
    "a%20b",
    "~jdoe",
    "faq.html",
    "archive.tar.gz",
    "Main_Page",
    "Wiki_(disambiguation)",
    "img",
    "x86_64",
];
const QUERIES: &[&str] = &[
    "?q=urls",
    "?id=42&lang=en",
    "?a=1;b=2",
    "?search=rfc+1738",
    "?p=%7E",
];
const FRAGMENTS: &[&str] = &["#top", "#section-3.3", "#faq", "#L10-L20"];
const USERS: &[&str] = &[
    "jdoe",
    "info",
    "webmaster",
    "first.last",
    "list-request",
    "bob+bench",
];
const NEWSGROUPS: &[&str] = &[
    "comp.infosystems.www",
    "comp.lang.rust",
    "news.answers",
    "alt.test",
];

/// Which URL shapes to draw from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// The full mix with long paths, queries and fragments, as in prose.
    Any,
    /// Short URLs (about 25-45 bytes), as in link lists.
    Short,
    /// An http URL whose path holds a hyphen, for hyphen line breaks.
    Hyphenated,
}

/// A URL of the given shape.
pub fn url(rng: &mut Prng, shape: Shape) -> String {
    match shape {
        Shape::Any => any_url(rng),
        Shape::Short => format!(
            "{}://{}/{}",
            rng.pick(&["http", "https"]),
            host(rng),
            rng.pick(SEGMENTS)
        ),
        Shape::Hyphenated => format!(
            "http://{}/{}/{}",
            host(rng),
            rng.pick(SEGMENTS),
            rng.pick(&["user-guide", "long-file-name.txt", "read-me-first"])
        ),
    }
}

/// One URL from the full mix, weighted like links in real documents.
fn any_url(rng: &mut Prng) -> String {
    match rng.below(20) {
        0..=7 => format!("http://{}{}{}", host_port(rng), path(rng), tail(rng)),
        8..=12 => format!("https://{}{}{}", host(rng), path(rng), tail(rng)),
        13..=15 => format!("ftp://{}{}", host(rng), path(rng)),
        16 | 17 => format!("mailto:{}@{}", rng.pick(USERS), host(rng)),
        18 => format!("news:{}", rng.pick(NEWSGROUPS)),
        _ => format!(
            "{}://{}/",
            rng.pick(&["gopher", "telnet", "wais"]),
            host_port(rng)
        ),
    }
}

/// A host name such as `www.example.org`.
fn host(rng: &mut Prng) -> String {
    format!(
        "{}.{}.{}",
        rng.pick(LABELS),
        rng.pick(DOMAINS),
        rng.pick(TLDS)
    )
}

/// A host, sometimes with a port.
fn host_port(rng: &mut Prng) -> String {
    let host = host(rng);
    if rng.chance(10) {
        format!("{host}:{}", rng.pick(&[80, 8080, 70, 21, 443]))
    } else {
        host
    }
}

/// A path of zero to four segments.
fn path(rng: &mut Prng) -> String {
    let mut path = String::new();
    for _ in 0..rng.below(5) {
        path.push('/');
        path.push_str(rng.pick(SEGMENTS));
    }
    if path.is_empty() || rng.chance(20) {
        path.push('/');
    }
    path
}

/// An optional query or fragment.
fn tail(rng: &mut Prng) -> &'static str {
    match rng.below(10) {
        0 | 1 => rng.pick(QUERIES),
        2 => rng.pick(FRAGMENTS),
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_yields_a_scheme_and_no_whitespace() {
        let mut rng = Prng::new(11);
        for shape in [Shape::Any, Shape::Short, Shape::Hyphenated] {
            for _ in 0..500 {
                let url = url(&mut rng, shape);
                assert!(url.contains(':'), "{url}");
                assert!(!url.contains(char::is_whitespace), "{url}");
                assert!(url.is_ascii(), "{url}");
            }
        }
    }

    #[test]
    fn short_urls_stay_short_and_hyphenated_ones_hold_a_hyphen_in_the_path() {
        let mut rng = Prng::new(12);
        for _ in 0..500 {
            let short = url(&mut rng, Shape::Short);
            assert!(short.len() <= 60, "{short}");
            let hyphenated = url(&mut rng, Shape::Hyphenated);
            let path = &hyphenated["http://".len()..];
            assert!(
                path[path.find('/').unwrap_or(0)..].contains('-'),
                "{hyphenated}"
            );
        }
    }
}
