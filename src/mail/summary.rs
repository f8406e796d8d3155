//! A message's summary (its Message-ID, Date and Subject), kept as the
//! header block wrote the fields and parsed the first time it is read: by
//! the worker that read the message when the report will show it, or not
//! at all.
//!
//! Why: parsing the three fields is 7% of reading a list archive, and most
//! runs show few summaries or none: plain `extract` and `--count` print
//! URLs only, and `check` shows a message's summary only beside a finding.
//! The values are mail-parser's, from its own field parsers on the same
//! bytes. Only located, the Date field also ends at its line: mail-parser's
//! date parser reads a zone of one or two letters at a line's end by taking
//! two more bytes, and when it parsed the field with the header block, it
//! took the line break and the next field (a `Content-Type`, say) into the
//! date.

use std::fmt;
use std::sync::OnceLock;

use mail_parser::parsers::MessageStream;
use mail_parser::{DateTime, HeaderName, Message};

/// The summary fields of one message, parsed when first read.
#[derive(Clone, Default)]
pub(super) struct Summary {
    raw: RawFields,
    parsed: OnceLock<Parsed>,
}

/// The bytes of each field's value, from after its colon to the end of its
/// last line, as mail-parser located them.
#[derive(Clone, Default, PartialEq, Eq)]
struct RawFields {
    message_id: Option<Box<[u8]>>,
    date: Option<Box<[u8]>>,
    subject: Option<Box<[u8]>>,
}

/// The values a report shows.
#[derive(Clone, Default)]
struct Parsed {
    message_id: Option<String>,
    date: Option<String>,
    subject: Option<String>,
}

impl Summary {
    /// The summary fields of `message`, which mail-parser located but did
    /// not parse: of a field written more than once, the last, as
    /// mail-parser's own accessors read it.
    pub(super) fn of(message: &Message<'_>) -> Summary {
        let field = |name: HeaderName<'_>| {
            let header = message.headers().iter().rev().find(|h| h.name == name)?;
            let value = header.offset_start as usize..header.offset_end as usize;
            message.raw_message.get(value).map(Box::from)
        };
        Summary {
            raw: RawFields {
                message_id: field(HeaderName::MessageId),
                date: field(HeaderName::Date),
                subject: field(HeaderName::Subject),
            },
            parsed: OnceLock::new(),
        }
    }

    /// See [`super::MessageInfo::message_id`].
    pub(super) fn message_id(&self) -> Option<&str> {
        self.parsed().message_id.as_deref()
    }

    /// See [`super::MessageInfo::date`].
    pub(super) fn date(&self) -> Option<&str> {
        self.parsed().date.as_deref()
    }

    /// See [`super::MessageInfo::subject`].
    pub(super) fn subject(&self) -> Option<&str> {
        self.parsed().subject.as_deref()
    }

    /// Parse the fields now, if they have not been.
    pub(super) fn parse(&self) {
        self.parsed();
    }

    fn parsed(&self) -> &Parsed {
        self.parsed.get_or_init(|| {
            let raw = &self.raw;
            Parsed {
                message_id: raw.message_id.as_deref().and_then(|value| {
                    let id = MessageStream::new(value).parse_id();
                    id.as_text().map(str::to_owned)
                }),
                date: raw.date.as_deref().and_then(|value| {
                    let date = MessageStream::new(value).parse_date();
                    date.as_datetime().map(rfc3339).or_else(|| {
                        let written = std::str::from_utf8(value).ok()?;
                        Some(written.trim().to_owned())
                    })
                }),
                subject: raw.subject.as_deref().and_then(|value| {
                    let subject = MessageStream::new(value).parse_unstructured();
                    subject.as_text().map(str::to_owned)
                }),
            }
        })
    }
}

/// Summaries are equal when their fields are: the parsed values follow
/// from the fields, whether or not they have been parsed yet.
impl PartialEq for Summary {
    fn eq(&self, other: &Self) -> bool {
        self.raw == other.raw
    }
}

impl Eq for Summary {}

/// Shown as the values a report would show.
impl fmt::Debug for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Summary")
            .field("message_id", &self.message_id())
            .field("date", &self.date())
            .field("subject", &self.subject())
            .finish()
    }
}

/// `date` in RFC 3339, written as mail-parser's `DateTime::to_rfc3339`
/// writes it, without its `format!` of nine padded fields: a JSON report of
/// a list archive writes one per message.
fn rfc3339(date: &DateTime) -> String {
    let mut out = String::with_capacity(25);
    push_padded(&mut out, date.year.into(), 4);
    out.push('-');
    push_padded(&mut out, date.month.into(), 2);
    out.push('-');
    push_padded(&mut out, date.day.into(), 2);
    out.push('T');
    push_padded(&mut out, date.hour.into(), 2);
    out.push(':');
    push_padded(&mut out, date.minute.into(), 2);
    out.push(':');
    push_padded(&mut out, date.second.into(), 2);
    if date.tz_hour == 0 && date.tz_minute == 0 {
        out.push('Z');
        return out;
    }
    out.push(if date.tz_before_gmt { '-' } else { '+' });
    push_padded(&mut out, date.tz_hour.into(), 2);
    out.push(':');
    push_padded(&mut out, date.tz_minute.into(), 2);
    out
}

/// Append `value` in decimal, zero-padded to at least `width` digits.
fn push_padded(out: &mut String, value: u32, width: usize) {
    let mut digits = [b'0'; 10];
    let mut at = digits.len();
    let mut rest = value;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let start = at.min(digits.len() - width);
    out.extend(digits[start..].iter().map(|&digit| char::from(digit)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::walk;
    use mail_parser::MessageParser;
    use proptest::prelude::*;

    /// The summary as mail-parser gives it when it parses the three fields
    /// with the header block: read through its accessors.
    fn parsed_with_the_header_block(message: &[u8]) -> Parsed {
        let parser = MessageParser::new()
            .default_header_ignore()
            .with_mime_headers()
            .header_date(HeaderName::Date)
            .header_id(HeaderName::MessageId)
            .header_text(HeaderName::Subject);
        let message = parser.parse(message).expect("a header block");
        Parsed {
            message_id: message.message_id().map(str::to_owned),
            date: message.date().map(rfc3339).or_else(|| {
                message
                    .header_raw("Date")
                    .map(|date| date.trim().to_owned())
            }),
            subject: message.subject().map(str::to_owned),
        }
    }

    fn summary_of(message: &[u8]) -> Summary {
        Summary::of(&walk::parser().parse(message).expect("a header block"))
    }

    fn assert_same_as_parsed_with_the_block(message: &[u8]) -> Result<(), TestCaseError> {
        let summary = summary_of(message);
        let expected = parsed_with_the_header_block(message);
        prop_assert_eq!(summary.message_id(), expected.message_id.as_deref());
        prop_assert_eq!(summary.date(), expected.date.as_deref());
        prop_assert_eq!(summary.subject(), expected.subject.as_deref());
        Ok(())
    }

    /// A field value: words, encoded words, comments, angle brackets,
    /// folds and stray bytes, as list mail writes them.
    fn value() -> impl Strategy<Value = Vec<u8>> {
        let text = |piece: &str| Just(piece.as_bytes().to_vec());
        let piece = prop_oneof![
            text("Mon, 1 Jan 2001 10:00:00 +0100"),
            text("21 Nov 97 09:55:06 GMT"),
            text("Tue, 30 Feb 2024 25:61:00 -0800 (PST)"),
            text("<id-1@example.org>"),
            text("<a@b> <c@d>"),
            text("no-brackets@example.org"),
            text("=?UTF-8?Q?Caf=C3=A9?="),
            text("=?ISO-8859-1?B?SGVsbG8=?="),
            text("=?broken"),
            text("(comment (nested))"),
            text("\n\t"),
            text("\r\n "),
            text(" "),
            "[a-zA-Z0-9:<>@.,;+-]{1,12}".prop_map(String::into_bytes),
            "[\u{e9}\u{4e2d}]{1,3}".prop_map(String::into_bytes),
            // Bytes of no charset, and any other: never a line break,
            // which would end the field.
            proptest::collection::vec(any::<u8>().prop_filter("no break", |&b| b != b'\n'), 1..4),
        ];
        proptest::collection::vec(piece, 0..6).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #[test]
        fn rfc3339_writes_any_date_as_mail_parser_does(
            year: u16, month: u8, day: u8, hour: u8, minute: u8, second: u8,
            tz_before_gmt: bool, tz_hour in prop_oneof![Just(0u8), any::<u8>()],
            tz_minute in prop_oneof![Just(0u8), any::<u8>()],
        ) {
            let date = DateTime {
                year, month, day, hour, minute, second, tz_before_gmt, tz_hour, tz_minute,
            };
            prop_assert_eq!(rfc3339(&date), date.to_rfc3339());
        }

        /// Parsed when read, the fields give what parsing them with the
        /// header block gave, in any order, written any number of times,
        /// among other fields.
        #[test]
        fn a_summary_reads_as_the_fields_parsed_with_the_header_block(
            fields in proptest::collection::vec(
                (prop_oneof![
                    Just("Message-ID"), Just("message-id"), Just("Date"), Just("DATE"),
                    Just("Subject"), Just("Content-Type"), Just("Received"), Just("X-Other"),
                ], value()),
                0..6,
            ),
            line_end in prop_oneof![Just("\n"), Just("\r\n")],
        ) {
            let mut message = Vec::new();
            for (name, value) in &fields {
                // A date that may end in a short zone is left out: see
                // a_short_zone_ends_the_date_at_its_line.
                if name.eq_ignore_ascii_case("date") && ends_near_a_letter(value) {
                    continue;
                }
                message.extend_from_slice(format!("{name}: ").as_bytes());
                message.extend_from_slice(value);
                message.extend_from_slice(line_end.as_bytes());
            }
            message.extend_from_slice(format!("{line_end}body{line_end}").as_bytes());
            assert_same_as_parsed_with_the_block(&message)?;
        }
    }

    /// Whether a letter is among the last two bytes of `value`: mail-parser's
    /// date parser reads a letter where the zone goes as a zone of up to
    /// three letters, taking the two bytes after it, line break or not.
    fn ends_near_a_letter(value: &[u8]) -> bool {
        let tail = &value[value.len().saturating_sub(2)..];
        tail.iter().any(u8::is_ascii_alphabetic)
    }

    #[test]
    fn rfc5322_3_6_the_summary_is_the_fields_values_as_a_report_shows_them() {
        let message = b"Message-ID: <one@example.org>\n\
            Date: Mon, 1 Jan 2001 10:00:00 +0100\n\
            Subject: =?UTF-8?Q?Caf=C3=A9?= menu\n\
            \n\
            body\n";
        let summary = summary_of(message);
        assert_eq!(summary.message_id(), Some("one@example.org"));
        assert_eq!(summary.date(), Some("2001-01-01T10:00:00+01:00"));
        assert_eq!(summary.subject(), Some("Café menu"));
    }

    /// Zones as list mail writes them, each ending the field: the same
    /// values both ways (the proptest leaves dates ending near a letter to
    /// a_short_zone_ends_the_date_at_its_line).
    #[test]
    fn rfc5322_3_3_common_zones_read_as_parsed_with_the_header_block() {
        for date in [
            "Mon, 1 Jan 2001 10:00:00 GMT",
            "Mon, 1 Jan 2001 10:00:00 EST",
            "Mon, 1 Jan 2001 10:00:00 EDT",
            "Tue, 2 Jan 2001 10:00:00 -0800 (PST)",
            "2 Jan 2001 10:00 +0530",
            "Mon, 1 Jan 2001 10:00:00 +0000 (UTC)",
        ] {
            for line_end in ["\n", "\r\n"] {
                let message = format!("Date: {date}{line_end}Subject: s{line_end}{line_end}body");
                let expected = parsed_with_the_header_block(message.as_bytes());
                let summary = summary_of(message.as_bytes());
                assert_eq!(summary.date(), expected.date.as_deref(), "{date}");
                assert_eq!(summary.subject(), Some("s"), "{date}");
            }
        }
    }

    #[test]
    fn a_date_that_does_not_parse_is_shown_as_written() {
        let summary = summary_of(b"Date:  sometime soon \n\nbody\n");
        assert_eq!(summary.date(), Some("sometime soon"));
        let summary = summary_of(b"Date:\n\nbody\n");
        assert_eq!(summary.date(), Some(""));
        assert_eq!(summary.message_id(), None);
        assert_eq!(summary.subject(), None);
    }

    #[test]
    fn of_a_field_written_twice_the_last_is_read() {
        let summary = summary_of(b"Subject: first\nSubject: second\n\nbody\n");
        assert_eq!(summary.subject(), Some("second"));
    }

    /// mail-parser's date parser reads a zone of one or two letters by
    /// taking two more bytes, so parsed with the header block such a date
    /// took the line break and the next field into its value. Located only,
    /// the field ends at its line, and the next field is read as a field.
    #[test]
    fn a_short_zone_ends_the_date_at_its_line() {
        let message = b"Date: Mon, 1 Jan 2001 10:00:00 UT\nSubject: kept\n\nbody\n";
        let summary = summary_of(message);
        assert_eq!(summary.date(), Some("2001-01-01T10:00:00Z"));
        assert_eq!(summary.subject(), Some("kept"));
        assert_eq!(parsed_with_the_header_block(message).subject, None);
    }

    #[test]
    fn summaries_are_equal_whether_or_not_they_were_read() {
        let message = b"Subject: same\n\nbody\n";
        let (read, unread) = (summary_of(message), summary_of(message));
        assert_eq!(read.subject(), Some("same"));
        assert_eq!(read, unread);
        assert_ne!(read, summary_of(b"Subject: other\n\nbody\n"));
    }
}
