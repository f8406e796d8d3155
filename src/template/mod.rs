//! Templates and placeholders in a URL's text: RFC 6570 expressions
//! (`{var}`, `{?q,page}`) and the placeholders of format and template
//! languages (`format!`'s `{}`, `%s`, `${VAR}`, `{{ x }}`, `<%= x %>`,
//! SPF's `%{d}`, a syntax description's `host:port`).
//!
//! It knows nothing of files or of the validator: the lint stage reads a
//! URL here, reports the template's problems (`bad-template`), validates
//! the URL with each placeholder's bytes replaced by a stand-in
//! ([`Template::stand_in`]), and drops what the validator says about the
//! stand-ins ([`Template::touches`]): the literal parts are checked against
//! the profile, the placeholders against their language.

mod languages;
mod placeholder;
mod read;
mod rfc6570;

pub use placeholder::{Language, Placeholder, Template};

/// The length of a template tag at the start of `bytes` that a bare URL
/// reads through, spaces and all (`{{ host }}`, `{% if x %}`, `<%= x %>`),
/// when it closes on the same line; `None` otherwise.
pub(crate) fn tag_len(bytes: &[u8]) -> Option<usize> {
    let len = languages::mustache_tag(bytes).or_else(|| languages::erb_tag(bytes))?;
    let one_line = !bytes[..len].iter().any(|&b| b == b'\n' || b == b'\r');
    one_line.then_some(len)
}

/// Read `url`'s placeholders, and the problems of its RFC 6570
/// expressions: a `{` never closed, a reserved operator, a bad variable
/// name or prefix.
pub fn read(url: &str) -> Template {
    read::read(url)
}
