//! The placeholders of format and template languages, each measured where
//! it starts in a URL's bytes: how many bytes it takes, or `None` when
//! what starts there is not one.

/// Longest placeholder read: a tag or substitution runs no further.
const MAX_PLACEHOLDER: usize = 256;

/// `printf` conversion characters (C, Python, Go) that URLs are built
/// with: strings, integers, a float. The rarer ones that are hex digits
/// (`%a`, `%e`, `%c`, `%b`) would read a broken percent-encoding
/// (`%a.com`) as a conversion.
const CONVERSIONS: &[u8] = b"diouxXsfrvq";

/// `printf` flags.
const FLAGS: &[u8] = b"-+ #0'";

/// `printf` length modifiers, longest first.
const LENGTHS: &[&[u8]] = &[b"hh", b"ll", b"h", b"l", b"L", b"j", b"z"];

/// A tag of Jinja, Django, Mustache, Handlebars or Go templates at the
/// start of `bytes`: `{{ x }}`, `{{{ x }}}`, `{% stmt %}`, `{# note #}`.
pub(super) fn mustache_tag(bytes: &[u8]) -> Option<usize> {
    let closer: &[u8] = match bytes {
        [b'{', b'{', b'{', ..] => b"}}}",
        [b'{', b'{', ..] => b"}}",
        [b'{', b'%', ..] => b"%}",
        [b'{', b'#', ..] => b"#}",
        _ => return None,
    };
    let open = closer.len();
    let end = find(bytes, open, closer)?;
    // `{#frag}` is RFC 6570's fragment expansion, and `{%41}` a variable
    // name percent-encoded: a tag holds more than its delimiters.
    (end > open).then_some(end + closer.len())
}

/// An ERB or EJS tag at the start of `bytes`: `<%= host %>`, `<% x %>`.
pub(super) fn erb_tag(bytes: &[u8]) -> Option<usize> {
    if !bytes.starts_with(b"<%") {
        return None;
    }
    let end = find(bytes, 2, b"%>")?;
    (end > 2).then_some(end + 2)
}

/// A shell, Make or JavaScript substitution at the start of `bytes`:
/// `${VAR}`, `${a:-b}`, `$(VAR)`, brackets nested inside counted.
pub(super) fn shell_substitution(bytes: &[u8]) -> Option<usize> {
    let (open, close) = match bytes {
        [b'$', b'{', ..] => (b'{', b'}'),
        [b'$', b'(', ..] => (b'(', b')'),
        _ => return None,
    };
    let mut depth = 0usize;
    for (at, &byte) in bytes.iter().enumerate().take(MAX_PLACEHOLDER).skip(1) {
        if byte == open {
            depth += 1;
        } else if byte == close {
            depth -= 1;
            if depth == 0 {
                return (at > 2).then_some(at + 1);
            }
        }
    }
    None
}

/// A shell variable at the start of `bytes`: `$HOST`, `$host_name`.
pub(super) fn shell_variable(bytes: &[u8]) -> Option<usize> {
    let name = bytes.get(1..)?;
    if !name
        .first()
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
    {
        return None;
    }
    let len = name
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    Some(1 + len)
}

/// A macro at the start of `bytes`: `%{d}`, `%{ir}`, `%{l1r+-}`.
pub(super) fn percent_macro(bytes: &[u8]) -> Option<usize> {
    if !bytes.starts_with(b"%{") {
        return None;
    }
    let end = find(bytes, 2, b"}")?;
    let body = &bytes[2..end];
    let plain = !body.is_empty() && !body.contains(&b'{');
    plain.then_some(end + 1)
}

/// A `printf` conversion at the start of `bytes`, which starts with a `%`
/// that begins no percent-encoding: `%s`, `%d`, `%-08.3lf`, `%1$s`,
/// `%(name)s`, `%%`, `%*d`.
pub(super) fn printf_conversion(bytes: &[u8]) -> Option<usize> {
    if bytes.starts_with(b"%%") {
        return Some(2);
    }
    // `%u` then four hex digits is the old `escape()` encoding of a
    // character, a real encoding mistake, not a conversion.
    if bytes.len() >= 6 && bytes[1] == b'u' && bytes[2..6].iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    let mut at = 1;
    if bytes.get(at) == Some(&b'(') {
        let close = find(bytes, at, b")")?;
        let name = &bytes[at + 1..close];
        if name.is_empty() || !name.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_') {
            return None;
        }
        at = close + 1;
    } else {
        let digits = count(bytes, at, u8::is_ascii_digit);
        if digits > 0 && bytes.get(at + digits) == Some(&b'$') {
            at += digits + 1;
        }
    }
    at += count(bytes, at, |b| FLAGS.contains(b));
    at += star_or_digits(bytes, at);
    if bytes.get(at) == Some(&b'.') {
        at += 1 + star_or_digits(bytes, at + 1);
    }
    if let Some(length) = LENGTHS
        .iter()
        .find(|length| bytes[at.min(bytes.len())..].starts_with(length))
    {
        at += length.len();
    }
    // A conversion ends a word: `%s.example`, `/%d/`; a `%` before a word
    // (`100%sure`, `100%+tides`) is a literal percent sign left unencoded.
    let ends_word = !bytes
        .get(at + 1)
        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
    (bytes.get(at).is_some_and(|b| CONVERSIONS.contains(b)) && ends_word).then_some(at + 1)
}

/// True when `text`, between a `{` and its `}`, is a replacement field of
/// a format string: Rust's `format!` (`{}`, `{0}`, `{name}`, `{:?}`,
/// `{0:>width$}`) or Python's `str.format` and f-strings, whose fields may
/// hold an expression (`{self.host}`, `{quote(name)}`, `{d['k']}`) and end
/// with a conversion and a spec (`{x!r:>8}`). What starts with an RFC 6570
/// operator is left to RFC 6570's grammar.
pub(super) fn is_format_field(text: &str) -> bool {
    let bytes = text.as_bytes();
    match bytes.first() {
        None | Some(b':') => true,
        Some(b'!') => {
            matches!(bytes.get(1), Some(b'r' | b's' | b'a'))
                && matches!(bytes.get(2), None | Some(b':'))
        }
        Some(b) => !b"+#./;?&=,@|".contains(b),
    }
}

/// Where `needle` first occurs in `bytes` at or after `from`, within
/// [`MAX_PLACEHOLDER`].
fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    let window = &bytes[..bytes.len().min(MAX_PLACEHOLDER)];
    memchr::memmem::find(window.get(from..)?, needle).map(|at| from + at)
}

/// How many bytes from `at` satisfy `test`.
fn count(bytes: &[u8], at: usize, test: impl Fn(&u8) -> bool) -> usize {
    bytes
        .get(at..)
        .map_or(0, |rest| rest.iter().take_while(|b| test(b)).count())
}

/// A width or precision at `at`: `*` or digits.
fn star_or_digits(bytes: &[u8], at: usize) -> usize {
    match bytes.get(at) {
        Some(b'*') => 1,
        _ => count(bytes, at, u8::is_ascii_digit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(measure: fn(&[u8]) -> Option<usize>, text: &str) -> Option<&str> {
        measure(text.as_bytes()).map(|len| &text[..len])
    }

    #[test]
    fn mustache_jinja_handlebars_and_go_tags_run_to_their_closer() {
        assert_eq!(measured(mustache_tag, "{{ host }}/x"), Some("{{ host }}"));
        assert_eq!(measured(mustache_tag, "{{host}}"), Some("{{host}}"));
        assert_eq!(measured(mustache_tag, "{{{ raw }}}/x"), Some("{{{ raw }}}"));
        assert_eq!(measured(mustache_tag, "{% if x %}a"), Some("{% if x %}"));
        assert_eq!(measured(mustache_tag, "{# note #}a"), Some("{# note #}"));
        assert_eq!(measured(mustache_tag, "{{ .Host }}/"), Some("{{ .Host }}"));
        // RFC 6570 expressions and an unclosed tag are not tags.
        assert_eq!(measured(mustache_tag, "{#frag}"), None);
        assert_eq!(measured(mustache_tag, "{%41}"), None);
        assert_eq!(measured(mustache_tag, "{{ host"), None);
        assert_eq!(measured(mustache_tag, "{{}}"), None);
        assert_eq!(measured(mustache_tag, "{host}"), None);
    }

    #[test]
    fn erb_tags_run_to_their_closer() {
        assert_eq!(measured(erb_tag, "<%= host %>/x"), Some("<%= host %>"));
        assert_eq!(measured(erb_tag, "<%- x -%>"), Some("<%- x -%>"));
        assert_eq!(measured(erb_tag, "<%= host"), None);
        assert_eq!(measured(erb_tag, "<host>"), None);
    }

    #[test]
    fn shell_and_make_substitutions_pair_their_brackets() {
        assert_eq!(measured(shell_substitution, "${HOST}/x"), Some("${HOST}"));
        assert_eq!(
            measured(shell_substitution, "${A:-${B}}/x"),
            Some("${A:-${B}}")
        );
        assert_eq!(measured(shell_substitution, "$(PORT)/x"), Some("$(PORT)"));
        assert_eq!(measured(shell_substitution, "${host}"), Some("${host}"));
        assert_eq!(measured(shell_substitution, "${}"), None);
        assert_eq!(measured(shell_substitution, "${HOST"), None);
        assert_eq!(measured(shell_substitution, "$HOST"), None);
        assert_eq!(measured(shell_variable, "$HOST:80"), Some("$HOST"));
        assert_eq!(measured(shell_variable, "$_h1/x"), Some("$_h1"));
        assert_eq!(measured(shell_variable, "$1"), None);
        assert_eq!(measured(shell_variable, "$"), None);
    }

    #[test]
    fn spf_macros_are_one_placeholder() {
        assert_eq!(measured(percent_macro, "%{d}/why"), Some("%{d}"));
        assert_eq!(measured(percent_macro, "%{ir}.%{v}"), Some("%{ir}"));
        assert_eq!(measured(percent_macro, "%{l1r+-}"), Some("%{l1r+-}"));
        assert_eq!(measured(percent_macro, "%{}"), None);
        assert_eq!(measured(percent_macro, "%{d"), None);
    }

    #[test]
    fn printf_conversions_of_c_python_and_go() {
        for conversion in [
            "%s", "%d", "%i", "%u", "%x", "%X", "%08d", "%-5s", "%.3f", "%5.2lf", "%ld", "%llu",
            "%zu", "%1$s", "%(host)s", "%(port)d", "%%", "%*d", "%v", "%q", "%r",
        ] {
            let text = format!("{conversion}/rest");
            assert_eq!(
                measured(printf_conversion, &text),
                Some(conversion),
                "{text:?}"
            );
        }
        for not_one in [
            "%zz", "%", "%(x", "%()s", "%(a b)s", "%u00e9", "%-", "%5", "%y", "%sure", "%+tides",
            "%done",
        ] {
            assert_eq!(measured(printf_conversion, not_one), None, "{not_one:?}");
        }
    }

    #[test]
    fn format_fields_of_rust_and_python() {
        for field in [
            "",
            "0",
            "name",
            ":?",
            ":#?",
            "0:>8",
            "name:>width$",
            "!r",
            "!s:>8",
            "x!r",
            "self.host",
            "d['k']",
            "quote(name)",
            "a-b",
            "port+1",
            "x=",
        ] {
            assert!(is_format_field(field), "{{{field}}}");
        }
        for operator in [
            "+path", "?q,page", "#frag", "/seg", ";x", "&y", ".dom", "=x", "@x", "|x", ",x", "!x",
        ] {
            assert!(!is_format_field(operator), "{{{operator}}}");
        }
    }
}
