//! Multiparts without a body part, which mail-parser misreads.
//!
//! RFC 2046 section 5.1.1 wants at least one body part in a multipart, but
//! a multipart whose first delimiter is its close delimiter (`--b--`)
//! turns up in mail all the same. mail-parser reads the `--` after the
//! boundary as the header of a first part, which then runs on to the next
//! delimiter of *its own* boundary: there is none, so it swallows the rest
//! of every enclosing multipart, and the parts after the empty multipart
//! (a base64 text, a nested message) become one raw text of encoded bytes,
//! their URLs lost without a word.
//!
//! So a message is parsed, its multiparts are checked for this misreading
//! (their parts list is at hand, so it costs nothing on well-formed mail),
//! and each empty one is *parked* like a nested message (see
//! [`super::park`]): in a copy of the bytes its media type `multipart` is
//! overwritten, at the same length, by [`EMPTY_TYPE`], so that mail-parser
//! reads it as an opaque part that ends at the enclosing boundary, and the
//! copy is parsed again. The walk skips parked multiparts: they hold no part.

use std::cell::OnceCell;

use mail_parser::{HeaderName, Message, MessageParser, MessagePart, MimeHeaders, PartType};

use super::nested;

/// What a parked empty multipart's media type reads instead of `multipart`.
pub(super) const EMPTY_TYPE: &str = "x-noparts";

/// Parses after which the bytes are used as they are: each round parks
/// the empty multiparts it sees, and only one swallowed by another stays
/// unseen until the next round, so a few rounds repair any real message.
const MAX_REPAIRS: usize = 4;

/// Parse `bytes` as a message with `parser`, every empty multipart parked
/// first: the message and the bytes it indexes (`bytes`, or its repaired
/// copy, kept in `repaired`; both have the same length and offsets).
pub(super) fn parse<'b>(
    parser: &MessageParser,
    bytes: &'b [u8],
    repaired: &'b OnceCell<Vec<u8>>,
) -> Option<(Message<'b>, &'b [u8])> {
    let message = parser.parse(bytes)?;
    let mut empty = empty_multiparts(&message, bytes);
    if empty.is_empty() {
        return Some((message, bytes));
    }
    nested::dismantle(message);
    let mut copy = bytes.to_vec();
    for _ in 1..MAX_REPAIRS {
        for &at in &empty {
            copy[at..at + EMPTY_TYPE.len()].copy_from_slice(EMPTY_TYPE.as_bytes());
        }
        let Some(message) = parser.parse(&copy[..]) else {
            break;
        };
        empty = empty_multiparts(&message, &copy);
        nested::dismantle(message);
        if empty.is_empty() {
            break;
        }
    }
    let copy = repaired.get_or_init(|| copy);
    Some((parser.parse(&copy[..])?, &copy[..]))
}

/// True when a part's content type is a parked empty multipart.
pub(super) fn is_parked(ctype: &str) -> bool {
    ctype.eq_ignore_ascii_case(EMPTY_TYPE)
}

/// True when mail-parser misread `multipart`, whose boundary is
/// `boundary`, as having a first part: that part's header starts right
/// after `--boundary` with `--`, the rest of a close delimiter.
pub(super) fn misread(
    message: &Message<'_>,
    multipart: &MessagePart<'_>,
    boundary: &str,
    bytes: &[u8],
) -> bool {
    let PartType::Multipart(children) = &multipart.body else {
        return false;
    };
    let Some(first) = children
        .first()
        .and_then(|&id| message.parts.get(id as usize))
    else {
        return false;
    };
    let at = first.offset_header as usize;
    let delimiter = at
        .checked_sub(boundary.len() + 2)
        .and_then(|start| bytes.get(start..at));
    let opened = delimiter.is_some_and(|delimiter| {
        delimiter.starts_with(b"--") && &delimiter[2..] == boundary.as_bytes()
    });
    opened && bytes.get(at..at + 2) == Some(b"--")
}

/// Offsets of the `multipart` type tokens of the multiparts of `message`
/// that mail-parser misread as having a part.
fn empty_multiparts(message: &Message<'_>, bytes: &[u8]) -> Vec<usize> {
    message
        .parts
        .iter()
        .filter(|part| {
            let boundary = part.content_type().and_then(|ct| ct.attribute("boundary"));
            boundary.is_some_and(|boundary| misread(message, part, boundary, bytes))
        })
        .filter_map(|part| type_token(part, bytes))
        .collect()
}

/// Where the media type `multipart` of `part`'s Content-Type field is.
fn type_token(part: &MessagePart<'_>, bytes: &[u8]) -> Option<usize> {
    let field = part
        .headers
        .iter()
        .find(|header| header.name == HeaderName::ContentType)?;
    let value = bytes.get(field.offset_start as usize..field.offset_end as usize)?;
    let skipped = value.iter().position(|byte| !byte.is_ascii_whitespace())?;
    let token = value.get(skipped..skipped + EMPTY_TYPE.len())?;
    token
        .eq_ignore_ascii_case(b"multipart")
        .then_some(field.offset_start as usize + skipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The media types of `text`'s parts, parsed with empty multiparts
    /// parked.
    fn media_types(text: &str) -> Vec<String> {
        let repaired = OnceCell::new();
        let (message, _) =
            parse(&MessageParser::default(), text.as_bytes(), &repaired).expect("parses");
        message
            .parts
            .iter()
            .map(|part| {
                part.content_type().map_or("none".into(), |ct| {
                    format!("{}/{}", ct.ctype(), ct.subtype().unwrap_or_default())
                })
            })
            .collect()
    }

    #[test]
    fn rfc2046_5_1_1_an_empty_multipart_ends_at_its_enclosing_boundary() {
        let text = "Content-Type: multipart/mixed; boundary=\"b1\"\n\n--b1\n\
            Content-Type: multipart/alternative; boundary=\"b2\"\n\n--b2--\n\n--b1\n\
            Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\naGk=\n--b1--\n";
        assert_eq!(
            media_types(text),
            ["multipart/mixed", "x-noparts/alternative", "text/plain"]
        );
    }

    #[test]
    fn rfc2046_5_1_1_empty_multiparts_inside_empty_ones_are_repaired_in_rounds() {
        let text = "Content-Type: multipart/mixed; boundary=a\n\n--a\n\
            Content-Type: multipart/mixed; boundary=b\n\n--b--\n--a\n\
            Content-Type: multipart/mixed; boundary=c\n\n--c--\n--a\n\
            Content-Type: text/plain\n\nhi\n--a--\n";
        assert_eq!(
            media_types(text),
            [
                "multipart/mixed",
                "x-noparts/mixed",
                "x-noparts/mixed",
                "text/plain"
            ]
        );
    }

    #[test]
    fn a_multipart_with_parts_is_read_as_it_is() {
        let text = "Content-Type: multipart/mixed; boundary=b\n\n--b\n\
            Content-Type: text/plain\n\nhello\n--b--\n";
        let repaired = OnceCell::new();
        let (message, bytes) =
            parse(&MessageParser::default(), text.as_bytes(), &repaired).expect("parses");
        assert!(repaired.get().is_none());
        assert_eq!(bytes, text.as_bytes());
        assert_eq!(message.parts.len(), 2);
    }
}
