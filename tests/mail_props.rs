//! Invariants of the mail reader on arbitrary input: maps stay ordered and
//! inside the raw bytes, and no byte sequence makes anything panic.

use proptest::prelude::*;

use urlint::mail::{self, decode_quoted_printable, MailKind, OffsetMap, RawMessage};
use urlint::span::Span;

/// Bytes biased towards what quoted-printable and MIME are made of.
fn mail_bytes() -> impl Strategy<Value = Vec<u8>> {
    let token = prop_oneof![
        Just(b"=".to_vec()),
        Just(b"=\n".to_vec()),
        Just(b"=\r\n".to_vec()),
        Just(b"=3D".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\nFrom a 00:00\n".to_vec()),
        Just(b"\n>From x\n".to_vec()),
        Just(b"Content-Type: multipart/mixed; boundary=b\n".to_vec()),
        Just(b"Content-Transfer-Encoding: quoted-printable\n".to_vec()),
        Just(b"Content-Transfer-Encoding: base64\n".to_vec()),
        Just(b"\n--b\n".to_vec()),
        Just(b"<a href=\"http://x.example/?a&amp;b\">".to_vec()),
        prop::collection::vec(any::<u8>(), 0..8),
    ];
    prop::collection::vec(token, 0..40).prop_map(|tokens| tokens.concat())
}

/// Pieces are in text order, non-overlapping, inside `text_len` and `raw`.
fn assert_map_sane(map: &OffsetMap, text_len: usize, raw: Span) {
    let mut text_end = 0;
    let mut raw_end = raw.start;
    for piece in map.pieces() {
        assert!(
            piece.text.start >= text_end && piece.text.end <= text_len,
            "{piece:?}"
        );
        assert!(
            piece.raw.start >= raw.start && piece.raw.end <= raw.end,
            "{piece:?}"
        );
        if piece.exact {
            assert!(
                piece.raw.start >= raw_end,
                "exact runs move forward: {piece:?}"
            );
            raw_end = piece.raw.end;
        }
        text_end = piece.text.end;
    }
}

proptest! {
    #[test]
    fn qp_map_is_monotonic_and_in_range(raw in mail_bytes()) {
        let (out, map) = decode_quoted_printable(&raw);
        assert_map_sane(&map, out.len(), Span::new(0, raw.len()));
        let mut last = 0;
        for piece in map.pieces() {
            prop_assert!(piece.raw.start >= last);
            last = piece.raw.end;
        }
        if !out.is_empty() {
            let whole = map.raw_span(Span::new(0, out.len())).unwrap();
            prop_assert!(whole.end <= raw.len());
        }
    }

    #[test]
    fn parsing_arbitrary_bytes_never_panics(bytes in mail_bytes(), offset in 0usize..1000) {
        let raw = RawMessage { number: 1, offset, line: 1, bytes: bytes.clone(), truncated: false, kind: MailKind::Mbox };
        let message = mail::parse_message(raw);
        let archive = Span::new(offset, offset + bytes.len());
        for text in &message.texts {
            assert_map_sane(&text.map, text.text.len(), archive);
            for piece in text.map.pieces() {
                prop_assert!(text.text.is_char_boundary(piece.text.start));
                prop_assert!(message.line_col(piece.raw.start).is_some());
            }
        }
    }

    #[test]
    fn splitting_arbitrary_bytes_keeps_offsets_in_order(bytes in mail_bytes(), cap in 1usize..300) {
        let mut next = 0;
        for message in mail::messages(&bytes[..], MailKind::Mbox).max_message_bytes(cap) {
            let message = message.unwrap();
            prop_assert!(message.offset >= next);
            prop_assert!(message.bytes.len() <= cap);
            prop_assert_eq!(&bytes[message.offset..message.offset + message.bytes.len()], &message.bytes[..]);
            next = message.offset + message.bytes.len();
        }
    }

}
