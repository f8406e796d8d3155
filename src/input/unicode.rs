//! Text in UTF-16 or UTF-32, told by its byte-order mark: what Windows
//! editors save as "Unicode". Its NUL bytes are those of its code units,
//! not of binary data, so it is decoded to UTF-8 for reading, whole or as
//! it streams, and encoded back with its mark for a rewrite.
//!
//! The mark says the encoding and is not part of the text: the decoded
//! text starts after it, so lines and columns are those an editor shows. A
//! code unit that encodes no character (an unpaired surrogate, a value
//! past U+10FFFF, a unit cut short at the end) reads as U+FFFD and is
//! counted; a text with none encodes back to exactly the bytes it was read
//! from. Without a mark, NUL bytes still make a file binary: UTF-16 is not
//! guessed.

#[cfg(feature = "cli")]
use std::io::{self, Read};

#[cfg(feature = "cli")]
use super::notice::Note;
#[cfg(feature = "cli")]
use crate::source::Origin;
use crate::source::BYTE_ORDER_MARK;

/// The encodings told by a byte-order mark, besides UTF-8's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unicode {
    /// UTF-16, little-endian: `FF FE`.
    Utf16Le,
    /// UTF-16, big-endian: `FE FF`.
    Utf16Be,
    /// UTF-32, little-endian: `FF FE 00 00`.
    Utf32Le,
    /// UTF-32, big-endian: `00 00 FE FF`.
    Utf32Be,
}

/// The longest mark, UTF-32's.
#[cfg(feature = "cli")]
pub(crate) const MARK_LEN: usize = 4;

impl Unicode {
    /// The encoding whose byte-order mark `head` starts with. UTF-32 LE's
    /// mark starts as UTF-16 LE's does, and wins: a UTF-16 text does not
    /// open with U+0000.
    pub(crate) fn of(head: &[u8]) -> Option<Unicode> {
        [
            Unicode::Utf32Le,
            Unicode::Utf32Be,
            Unicode::Utf16Le,
            Unicode::Utf16Be,
        ]
        .into_iter()
        .find(|encoding| head.starts_with(&encoding.encode_char(BYTE_ORDER_MARK)))
    }

    /// True when `head` is too short to tell whether it starts with a
    /// mark, and may: more bytes are needed before [`Unicode::of`] can say.
    #[cfg(feature = "cli")]
    pub(crate) fn may_start_mark(head: &[u8]) -> bool {
        head.len() < MARK_LEN
            && [Unicode::Utf32Le, Unicode::Utf32Be, Unicode::Utf16Be]
                .iter()
                .any(|encoding| encoding.encode_char(BYTE_ORDER_MARK).starts_with(head))
    }

    /// How the encoding is named in messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Unicode::Utf16Le => "UTF-16 LE",
            Unicode::Utf16Be => "UTF-16 BE",
            Unicode::Utf32Le => "UTF-32 LE",
            Unicode::Utf32Be => "UTF-32 BE",
        }
    }

    /// Bytes per code unit.
    fn unit_len(self) -> usize {
        match self {
            Unicode::Utf16Le | Unicode::Utf16Be => 2,
            Unicode::Utf32Le | Unicode::Utf32Be => 4,
        }
    }

    /// The code unit of `bytes`, one unit long.
    fn unit(self, bytes: &[u8]) -> u32 {
        match self {
            Unicode::Utf16Le => u32::from(u16::from_le_bytes([bytes[0], bytes[1]])),
            Unicode::Utf16Be => u32::from(u16::from_be_bytes([bytes[0], bytes[1]])),
            Unicode::Utf32Le => u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
            Unicode::Utf32Be => u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
        }
    }

    /// The bytes of one character.
    fn encode_char(self, c: char) -> Vec<u8> {
        let mut units = [0; 2];
        match self {
            Unicode::Utf16Le => c
                .encode_utf16(&mut units)
                .iter()
                .flat_map(|unit| unit.to_le_bytes())
                .collect(),
            Unicode::Utf16Be => c
                .encode_utf16(&mut units)
                .iter()
                .flat_map(|unit| unit.to_be_bytes())
                .collect(),
            Unicode::Utf32Le => u32::from(c).to_le_bytes().to_vec(),
            Unicode::Utf32Be => u32::from(c).to_be_bytes().to_vec(),
        }
    }

    /// `text` in this encoding, after its byte-order mark: the bytes a text
    /// decoded without a replacement was read from.
    #[cfg(any(feature = "cli", test))]
    pub(crate) fn encode(self, text: &str) -> Vec<u8> {
        let mut bytes = Vec::with_capacity((text.len() + 1) * self.unit_len());
        for c in std::iter::once(BYTE_ORDER_MARK).chain(text.chars()) {
            bytes.extend(self.encode_char(c));
        }
        bytes
    }

    /// `bytes`, which start with this encoding's mark, decoded whole: the
    /// text after the mark, and how many code units read as U+FFFD.
    pub(crate) fn decode(self, bytes: &[u8]) -> (String, usize) {
        let mut decoder = Decoder::new(self);
        let mut text = String::with_capacity(bytes.len());
        decoder.decode(bytes, &mut text);
        decoder.finish(&mut text);
        (text, decoder.replaced)
    }
}

/// Decodes code units into UTF-8 across the chunks they come in: a unit
/// or a surrogate pair a chunk cuts is completed by the next.
#[derive(Debug)]
pub(crate) struct Decoder {
    encoding: Unicode,
    /// Bytes of a unit the last chunk cut short.
    partial: Vec<u8>,
    /// A high surrogate waiting for its low one.
    high: Option<u32>,
    /// The byte-order mark is still to be passed over.
    at_start: bool,
    /// Code units that read as U+FFFD.
    replaced: usize,
}

impl Decoder {
    /// A decoder of a text in `encoding` from its first byte, its mark.
    pub(crate) fn new(encoding: Unicode) -> Self {
        Decoder {
            encoding,
            partial: Vec::new(),
            high: None,
            at_start: true,
            replaced: 0,
        }
    }

    /// How many code units read as U+FFFD so far.
    #[cfg(feature = "cli")]
    pub(crate) fn replaced(&self) -> usize {
        self.replaced
    }

    /// How many bytes the unit that the bytes decoded so far cut short
    /// still lacks.
    #[cfg(feature = "cli")]
    pub(crate) fn unit_rest(&self) -> usize {
        match self.partial.len() {
            0 => 0,
            len => self.encoding.unit_len() - len,
        }
    }

    /// Decode the next `bytes` of the text onto `text`.
    pub(crate) fn decode(&mut self, mut bytes: &[u8], text: &mut String) {
        let unit_len = self.encoding.unit_len();
        if !self.partial.is_empty() {
            let wanted = (unit_len - self.partial.len()).min(bytes.len());
            self.partial.extend_from_slice(&bytes[..wanted]);
            bytes = &bytes[wanted..];
            if self.partial.len() < unit_len {
                return;
            }
            let unit = self.encoding.unit(&self.partial);
            self.partial.clear();
            self.unit(unit, text);
        }
        let mut units = bytes.chunks_exact(unit_len);
        for unit in &mut units {
            self.unit(self.encoding.unit(unit), text);
        }
        self.partial.extend_from_slice(units.remainder());
    }

    /// The end of the text: a unit cut short, or a high surrogate left
    /// waiting, reads as U+FFFD.
    pub(crate) fn finish(&mut self, text: &mut String) {
        if self.high.take().is_some() {
            self.replace(text);
        }
        if !std::mem::take(&mut self.partial).is_empty() {
            self.replace(text);
        }
    }

    fn unit(&mut self, unit: u32, text: &mut String) {
        if std::mem::take(&mut self.at_start) && unit == u32::from(BYTE_ORDER_MARK) {
            return;
        }
        let is_utf16 = self.encoding.unit_len() == 2;
        if let Some(high) = self.high.take() {
            if (0xDC00..0xE000).contains(&unit) {
                let scalar = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00);
                match char::from_u32(scalar) {
                    Some(c) => text.push(c),
                    None => self.replace(text),
                }
                return;
            }
            self.replace(text);
        }
        if is_utf16 && (0xD800..0xDC00).contains(&unit) {
            self.high = Some(unit);
            return;
        }
        match char::from_u32(unit) {
            Some(c) => text.push(c),
            None => self.replace(text),
        }
    }

    fn replace(&mut self, text: &mut String) {
        self.replaced += 1;
        text.push(char::REPLACEMENT_CHARACTER);
    }
}

/// A reader of UTF-8 text decoded from a reader of UTF-16 or UTF-32 bytes,
/// from their mark on.
#[cfg(feature = "cli")]
pub(crate) struct Decoding<R> {
    inner: R,
    decoder: Decoder,
    /// Raw bytes read, reused from read to read.
    raw: Vec<u8>,
    /// Text decoded and not read out yet, from `at`.
    text: String,
    at: usize,
    ended: bool,
}

/// Raw bytes decoded at a time.
#[cfg(feature = "cli")]
const RAW_CHUNK: usize = 64 << 10;

#[cfg(feature = "cli")]
impl<R: Read> Decoding<R> {
    /// Decode `inner`, whose bytes are in `encoding` from its mark on.
    pub(crate) fn new(encoding: Unicode, inner: R) -> Self {
        Decoding {
            inner,
            decoder: Decoder::new(encoding),
            raw: vec![0; RAW_CHUNK],
            text: String::new(),
            at: 0,
            ended: false,
        }
    }

    /// How many code units read as U+FFFD so far.
    pub(crate) fn replaced(&self) -> usize {
        self.decoder.replaced()
    }
}

#[cfg(feature = "cli")]
impl<R: Read> Read for Decoding<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.at == self.text.len() && !self.ended {
            self.text.clear();
            self.at = 0;
            let read = match self.inner.read(&mut self.raw) {
                Ok(read) => read,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err),
            };
            match read {
                0 => {
                    self.ended = true;
                    self.decoder.finish(&mut self.text);
                }
                _ => self.decoder.decode(&self.raw[..read], &mut self.text),
            }
        }
        let rest = &self.text.as_bytes()[self.at..];
        let len = rest.len().min(out.len());
        out[..len].copy_from_slice(&rest[..len]);
        self.at += len;
        Ok(len)
    }
}

/// `head`, the first bytes of an input, as its kind is told from them: decoded
/// when a byte-order mark says it is UTF-16 or UTF-32 (a unit the cut ends
/// reads as U+FFFD, which no kind's test looks at), as it is otherwise.
#[cfg(feature = "python")]
pub(crate) fn decoded_head(head: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    match Unicode::of(head) {
        Some(encoding) => encoding.decode(head).0.into_bytes().into(),
        None => head.into(),
    }
}

/// The note for a text decoded from `encoding`, `replaced` of whose code
/// units encode no character.
#[cfg(feature = "cli")]
pub(crate) fn decoded_note(origin: &Origin, encoding: Unicode, replaced: usize) -> Note {
    let mut message = format!(
        "{} text (byte-order mark), decoded to UTF-8 for reading; offsets index the \
         decoded text",
        encoding.name()
    );
    if replaced > 0 {
        message.push_str(&format!(
            "; {replaced} code unit(s) that encode no character (an unpaired surrogate, \
             a value past U+10FFFF, a unit cut short) read as U+FFFD"
        ));
    }
    Note {
        name: origin.to_string(),
        left: None,
        message,
        skipped: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Unicode; 4] = [
        Unicode::Utf16Le,
        Unicode::Utf16Be,
        Unicode::Utf32Le,
        Unicode::Utf32Be,
    ];

    #[test]
    fn the_mark_tells_the_encoding_utf32_before_utf16() {
        let cases: &[(&[u8], Option<Unicode>)] = &[
            (b"\xFF\xFEh\0", Some(Unicode::Utf16Le)),
            (b"\xFE\xFF\0h", Some(Unicode::Utf16Be)),
            (b"\xFF\xFE\0\0h\0\0\0", Some(Unicode::Utf32Le)),
            (b"\0\0\xFE\xFF\0\0\0h", Some(Unicode::Utf32Be)),
            (b"\xEF\xBB\xBFh", None),
            (b"h\0e\0", None),
            (b"\xFF", None),
            (b"", None),
        ];
        for &(head, encoding) in cases {
            assert_eq!(Unicode::of(head), encoding, "{head:?}");
        }
    }

    #[test]
    fn text_decodes_after_its_mark_and_encodes_back_to_its_bytes() {
        let text = "see http://a.example/~x\r\nÿ € 𝄞 \u{FEFF}end\n";
        for encoding in ALL {
            let bytes = encoding.encode(text);
            assert_eq!(Unicode::of(&bytes), Some(encoding));
            assert_eq!(
                encoding.decode(&bytes),
                (text.to_owned(), 0),
                "{encoding:?}"
            );
        }
    }

    #[test]
    fn units_that_encode_no_character_read_as_replacement_characters() {
        let le =
            |units: &[u16]| -> Vec<u8> { units.iter().flat_map(|u| u.to_le_bytes()).collect() };
        let cases: &[(Vec<u8>, &str, usize)] = &[
            // A lone high surrogate, then one at the end.
            (le(&[0xFEFF, 0xD800, 0x61, 0xD83D]), "\u{FFFD}a\u{FFFD}", 2),
            // A lone low surrogate.
            (le(&[0xFEFF, 0xDC00, 0x62]), "\u{FFFD}b", 1),
            // An odd byte at the end.
            ([le(&[0xFEFF, 0x63]), vec![0x64]].concat(), "c\u{FFFD}", 1),
        ];
        for (bytes, text, replaced) in cases {
            assert_eq!(
                Unicode::Utf16Le.decode(bytes),
                ((*text).to_owned(), *replaced)
            );
        }
        let past_unicode = [&b"\0\0\xFE\xFF"[..], b"\0\x11\0\0", b"\0\0\xD8\0"].concat();
        assert_eq!(
            Unicode::Utf32Be.decode(&past_unicode),
            ("\u{FFFD}\u{FFFD}".to_owned(), 2)
        );
    }

    #[cfg(feature = "cli")]
    #[test]
    fn a_stream_decodes_as_the_whole_does_however_it_is_cut() {
        let text = "a 𝄞 surrogate pair, é, and http://a.example/\n".repeat(50);
        for encoding in ALL {
            let bytes = encoding.encode(&text);
            for cut in [1, 3, 5, 7] {
                let chunks: Vec<&[u8]> = bytes.chunks(cut).collect();
                let mut decoded = String::new();
                let mut reader = Decoding::new(encoding, ChunkedReader(chunks));
                reader.read_to_string(&mut decoded).expect("reads");
                assert_eq!(decoded, text, "{encoding:?} in chunks of {cut}");
                assert_eq!(reader.replaced(), 0);
            }
        }
    }

    /// A reader that gives its chunks one read at a time.
    #[cfg(feature = "cli")]
    struct ChunkedReader<'c>(Vec<&'c [u8]>);

    #[cfg(feature = "cli")]
    impl Read for ChunkedReader<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Ok(0);
            }
            let chunk = self.0.remove(0);
            out[..chunk.len()].copy_from_slice(chunk);
            Ok(chunk.len())
        }
    }
}
