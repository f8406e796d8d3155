//! Which header fields of a message are read for URLs.
//!
//! A header block is mostly addresses, dates and routing. Mailing-list
//! software adds fields that point at the list itself (RFC 2369 `List-*`,
//! RFC 5064 `Archived-At`); they are the same few URLs on every message of a
//! list, written by the software rather than by the message's author. Other
//! fields carry a URL now and then (`Content-Base`, `X-Original-URL`, a
//! `Subject`). An `X-` prefix, the spelling fields had before they were
//! standardised, never changes which group a field falls into.

/// The header fields whose URLs are read, as `--mail-headers` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum HeaderUrls {
    /// No header field: only the message's text parts.
    None,
    /// Mailing-list fields: `List-*` (RFC 2369, RFC 2919), `Archived-At`
    /// (RFC 5064), and the same with an `X-` prefix.
    List,
    /// Every header field, `X-*` ones included.
    All,
}

/// List fields by lower-case name; a trailing `-` matches a prefix.
const LIST_FIELDS: &[&str] = &["list-", "archived-at"];

impl HeaderUrls {
    /// True when the field called `name` (any case) is read for URLs.
    pub fn reads(self, name: &str) -> bool {
        self.reads_name(name.as_bytes())
    }

    /// [`HeaderUrls::reads`] for a name as the header block's bytes, which
    /// need no check as UTF-8 first.
    pub(super) fn reads_name(self, name: &[u8]) -> bool {
        match self {
            HeaderUrls::None => false,
            HeaderUrls::All => true,
            HeaderUrls::List => {
                let name = match name.split_at_checked(2) {
                    Some((prefix, rest)) if prefix.eq_ignore_ascii_case(b"x-") => rest,
                    _ => name,
                };
                LIST_FIELDS.iter().any(|field| is_field(name, field))
            }
        }
    }
}

/// True when the field called `name` (any case) is `field`, written in
/// lower case; a trailing `-` makes `field` a prefix of names.
pub(super) fn is_field(name: &[u8], field: &str) -> bool {
    match field.strip_suffix('-') {
        Some(_) => name
            .get(..field.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(field.as_bytes())),
        None => name.eq_ignore_ascii_case(field.as_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc2369_list_fields_and_their_x_spellings_are_one_group() {
        let cases = [
            ("List-Archive", [false, true, true]),
            ("list-unsubscribe", [false, true, true]),
            ("X-List-Archive", [false, true, true]),
            ("Archived-At", [false, true, true]),
            ("X-Archived-At", [false, true, true]),
            ("Content-Base", [false, false, true]),
            ("X-Original-URL", [false, false, true]),
            ("Subject", [false, false, true]),
            ("Listing", [false, false, true]),
            ("X-Listing", [false, false, true]),
        ];
        for (name, expected) in cases {
            let read = [HeaderUrls::None, HeaderUrls::List, HeaderUrls::All].map(|h| h.reads(name));
            assert_eq!(read, expected, "{name}");
        }
    }
}
