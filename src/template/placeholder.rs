//! What reading a URL's placeholders gives: each placeholder, the language
//! it is written in, and the template's own problems.

use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// The language a placeholder is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Language {
    /// An RFC 6570 expression: `{var}`, `{+path}`, `{/seg}`, `{?q,page}`,
    /// `{#frag}`, with prefix (`{var:3}`) and explode (`{list*}`) modifiers.
    UriTemplate,
    /// A format string's replacement field, as Rust's `format!` and
    /// Python's f-strings and `str.format` write it: `{}`, `{0}`, `{:?}`,
    /// `{name!r:>8}`, and the `{{` and `}}` escapes.
    Format,
    /// A `printf` conversion: `%s`, `%d`, `%08.3f`, `%(name)s`, `%%`.
    Printf,
    /// A shell, Make or JavaScript template-literal substitution: `${VAR}`,
    /// `$(VAR)`, and `$VAR` where a host or port is written.
    Shell,
    /// A tag of Jinja, Django, Mustache, Handlebars or Go templates:
    /// `{{ x }}`, `{{{ x }}}`, `{% if x %}`, `{# note #}`.
    Mustache,
    /// An ERB or EJS tag: `<%= host %>`.
    Erb,
    /// A macro of SPF (RFC 7208 section 7) and of macro languages that
    /// write the same way: `%{d}`, `%{ir}`.
    Macro,
    /// A word standing for a part in a syntax description, where only
    /// digits may stand: the port of `http://host:port/path`.
    Syntax,
}

impl Language {
    /// Every language, in the order of the documentation.
    pub const ALL: [Language; 8] = [
        Language::UriTemplate,
        Language::Format,
        Language::Printf,
        Language::Shell,
        Language::Mustache,
        Language::Erb,
        Language::Macro,
        Language::Syntax,
    ];

    /// Lower-case name used in machine output.
    pub fn as_str(self) -> &'static str {
        match self {
            Language::UriTemplate => "rfc6570",
            Language::Format => "format",
            Language::Printf => "printf",
            Language::Shell => "shell",
            Language::Mustache => "mustache",
            Language::Erb => "erb",
            Language::Macro => "macro",
            Language::Syntax => "syntax",
        }
    }
}

/// One placeholder: where it is in the URL and how it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Placeholder {
    /// The placeholder's bytes in the URL, delimiters included.
    pub span: Span,
    /// The language it is written in.
    pub language: Language,
}

/// A URL read as a template: its placeholders and what is wrong with them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Template {
    /// The placeholders, in URL order, none overlapping another.
    pub placeholders: Vec<Placeholder>,
    /// `bad-template` findings (an unclosed `{`, a reserved operator, a bad
    /// variable name); their spans index the URL.
    pub problems: Vec<Diagnostic>,
}

impl Template {
    /// The languages of the placeholders, each once, in order of first use.
    pub fn languages(&self) -> Vec<Language> {
        let mut languages: Vec<Language> = Vec::new();
        for placeholder in &self.placeholders {
            if !languages.contains(&placeholder.language) {
                languages.push(placeholder.language);
            }
        }
        languages
    }

    /// True when the URL holds neither a placeholder nor a problem.
    pub fn is_empty(&self) -> bool {
        self.placeholders.is_empty() && self.problems.is_empty()
    }

    /// True when `span`, a span of the URL, overlaps a placeholder, or,
    /// empty, lies inside one or at its edge: what the validator says there
    /// is about the stand-in, not the URL.
    pub fn overlaps(&self, span: Span) -> bool {
        self.placeholders.iter().any(|placeholder| {
            let at = placeholder.span;
            match span.is_empty() {
                true => at.start <= span.start && span.start <= at.end,
                false => span.start < at.end && at.start < span.end,
            }
        })
    }

    /// True when `span` overlaps a placeholder or borders one. What the
    /// validator says of a URL's structure right beside a placeholder is
    /// about what the placeholder's value may complete
    /// (`http://testserver{}?q=` has its `/` in the value), while a
    /// character beside one is still the URL's (`/~{user}/`).
    pub fn touches(&self, span: Span) -> bool {
        self.placeholders.iter().any(|placeholder| {
            span.start <= placeholder.span.end && placeholder.span.start <= span.end
        })
    }
}

impl Template {
    /// `url` with each placeholder's bytes replaced by a stand-in that any
    /// part of a URL accepts: digits after a `:` (a port's place), `x`
    /// elsewhere. The stand-in has the placeholder's length, so that the
    /// validator's spans on it index `url` too.
    pub fn stand_in(&self, url: &str) -> String {
        let mut bytes = url.as_bytes().to_vec();
        for placeholder in &self.placeholders {
            let span = placeholder.span;
            let after_colon = span.start > 0 && bytes[span.start - 1] == b':';
            let stand_in = if after_colon { b'0' } else { b'x' };
            bytes[span.range()].fill(stand_in);
        }
        // Placeholders start and end on ASCII bytes and the stand-ins are
        // ASCII, so the bytes stay UTF-8.
        String::from_utf8(bytes).unwrap_or_else(|_| url.to_string())
    }
}
