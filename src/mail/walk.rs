//! The walk over one parsed message's MIME tree: each text part decoded with
//! a map onto the bytes mail-parser read, each problem a warning.
//!
//! The walk keeps its own stack and stops descending [`MAX_DEPTH`] levels
//! down, so no nest of multiparts or message/rfc822 parts can exhaust the
//! thread's stack, and part paths (and so warnings and texts) stay short.
//! Below the cap a part is read as raw text, so its URLs are still found.
//!
//! Its invariants: every text's map leads into the archive (a nested message
//! decoded from base64 or quoted-printable, which the walk parses itself, see
//! [`super::park`], maps as a whole onto the part it was decoded from), and
//! no part that may hold text is passed over without a warning.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::rc::Rc;
use std::sync::OnceLock;

use mail_parser::decoders::base64::base64_decode;
use mail_parser::decoders::quoted_printable::quoted_printable_decode;
use mail_parser::{Encoding, Message, MessageParser, MessagePart, MimeHeaders, PartType};

use super::charset::{self, CharsetProblem};
use super::empty;
use super::headers::HeaderUrls;
use super::nested;
use super::park;
use super::part::{MailText, MailWarning, PartInfo, TransferEncoding, WarningKind};
use super::transfer::decode_quoted_printable;
use crate::offset_map::OffsetMap;
use crate::source::Markup;
use crate::span::Span;

/// The message parser: MIME fields parsed; every other field only located
/// (its offsets are what the header URLs and a message's summary, see
/// [`super::summary`], are read from). Parsing all fields (trace fields,
/// address lists) cost more than the rest of reading a list archive, for
/// values urlint never reads.
pub(super) fn parser() -> &'static MessageParser {
    static PARSER: OnceLock<MessageParser> = OnceLock::new();
    PARSER.get_or_init(|| {
        MessageParser::new()
            .default_header_ignore()
            .with_mime_headers()
    })
}

/// How many multiparts and messages may enclose a part before the walk
/// stops descending: far beyond what mail programs write (a forward of a
/// forward of a reply is a handful of levels), far below what a worker
/// thread's stack or a terminal full of part paths can take.
pub(super) const MAX_DEPTH: usize = 64;

/// Warnings of one kind shown per message; the rest are counted in one
/// last warning, so that a message of many broken parts cannot flood stderr.
const MAX_WARNINGS_PER_KIND: usize = 8;

/// The texts and warnings of one message.
pub(super) struct MessageTexts {
    /// Text-bearing units, headers first, then parts in order.
    pub texts: Vec<MailText>,
    /// Problems, at most [`MAX_WARNINGS_PER_KIND`] of a kind plus a count.
    pub warnings: Vec<MailWarning>,
}

/// Walk `message`, which mail-parser parsed from `buffer`; `archive` maps
/// `buffer` offsets to archive offsets. `warnings` are those found before
/// the walk (a truncated message), kept first.
pub(super) fn walk(
    message: &Message<'_>,
    buffer: &[u8],
    archive: &OffsetMap,
    headers: HeaderUrls,
    warnings: Vec<MailWarning>,
) -> MessageTexts {
    let mut walker = Walker {
        archive,
        headers,
        texts: Vec::new(),
        warnings: Warnings::default(),
    };
    for warning in warnings {
        walker.warnings.push(warning);
    }
    walker.run(Visit {
        message,
        origin: Origin {
            bytes: buffer,
            place: Place::At(0),
        },
        target: Target::Root,
        path: String::new(),
        depth: 0,
        enclosing: None,
    });
    MessageTexts {
        texts: walker.texts,
        warnings: walker.warnings.finish(),
    }
}

/// The bytes a message's offsets index.
#[derive(Clone, Copy)]
struct Origin<'m> {
    bytes: &'m [u8],
    place: Place,
}

/// Where an origin's bytes are in the buffer (the bytes of the whole
/// message, which the archive map starts from).
#[derive(Clone, Copy)]
enum Place {
    /// A stretch of the buffer from this offset, mapping byte for byte.
    At(usize),
    /// A decoded copy of this span of the buffer (a base64 message/rfc822
    /// part), onto which they map only as a whole.
    Whole(Span),
}

impl<'m> Origin<'m> {
    /// The map of `span` of these bytes (as a text of its own) onto the buffer.
    fn map(&self, span: Span) -> OffsetMap {
        match self.place {
            Place::At(at) => OffsetMap::identity(span.shifted(at)),
            Place::Whole(raw) => OffsetMap::whole(span.len(), raw),
        }
    }

    /// The origin of `span` of these bytes as bytes of their own.
    fn within(&self, span: Span) -> Origin<'m> {
        Origin {
            bytes: &self.bytes[span.range()],
            place: match self.place {
                Place::At(at) => Place::At(at + span.start),
                whole => whole,
            },
        }
    }

    /// The origin of `decoded`, decoded from `span` of these bytes.
    fn decoded<'d>(&self, decoded: &'d [u8], span: Span) -> Origin<'d> {
        let raw = match self.place {
            Place::At(at) => span.shifted(at),
            Place::Whole(raw) => raw,
        };
        Origin {
            bytes: decoded,
            place: Place::Whole(raw),
        }
    }

    /// The bytes of `part`'s body and their span, clamped to these bytes.
    fn body(&self, part: &MessagePart<'_>) -> (&[u8], Span) {
        let end = (part.offset_end as usize).min(self.bytes.len());
        let start = (part.offset_body as usize).min(end);
        (&self.bytes[start..end], Span::new(start, end))
    }
}

/// A boundary of a multipart that encloses a part, and the ones outside it.
struct Enclosing {
    boundary: String,
    outer: Option<Rc<Enclosing>>,
}

/// What a visit reads.
#[derive(Clone, Copy)]
enum Target {
    /// A message's header fields and its top part.
    Root,
    /// One part of the message, by mail-parser's id.
    Part(u32),
    /// Bytes of the message that mail-parser left out of every part,
    /// read raw.
    Unread(Span),
}

/// One step of the walk.
struct Visit<'m> {
    message: &'m Message<'m>,
    origin: Origin<'m>,
    target: Target,
    /// The part's path, or the message's prefix for [`Target::Root`].
    path: String,
    /// Multiparts and messages around this one.
    depth: usize,
    /// Boundaries of the multiparts around this one, innermost first.
    enclosing: Option<Rc<Enclosing>>,
}

impl<'m> Visit<'m> {
    /// A visit of `target` at `path` in the same message, at this depth.
    fn beside(&self, target: Target, path: String) -> Visit<'m> {
        Visit {
            message: self.message,
            origin: self.origin,
            target,
            path,
            depth: self.depth,
            enclosing: self.enclosing.clone(),
        }
    }

    /// A visit of `target` at `path` in the same message, one level down.
    fn below(&self, target: Target, path: String) -> Visit<'m> {
        let mut visit = self.beside(target, path);
        visit.depth += 1;
        visit
    }

    /// The path when it names a part, `None` for the top of the message.
    fn part_path(&self) -> Option<&str> {
        Some(self.path.as_str()).filter(|path| !path.is_empty())
    }
}

/// Warnings of one message, capped per kind.
#[derive(Default)]
struct Warnings {
    kept: Vec<MailWarning>,
    /// (kind, warnings seen), in order of first appearance.
    seen: Vec<(WarningKind, usize)>,
}

impl Warnings {
    fn push(&mut self, warning: MailWarning) {
        let index = match self.seen.iter().position(|(kind, _)| *kind == warning.kind) {
            Some(index) => index,
            None => {
                self.seen.push((warning.kind, 0));
                self.seen.len() - 1
            }
        };
        self.seen[index].1 += 1;
        if self.seen[index].1 <= MAX_WARNINGS_PER_KIND {
            self.kept.push(warning);
        }
    }

    /// The kept warnings, then one per kind that had more.
    fn finish(mut self) -> Vec<MailWarning> {
        for (kind, seen) in self.seen {
            if seen > MAX_WARNINGS_PER_KIND {
                self.kept.push(MailWarning {
                    kind,
                    part: None,
                    message: format!(
                        "{} more warnings of this kind ({}) not shown",
                        seen - MAX_WARNINGS_PER_KIND,
                        kind.describe()
                    ),
                });
            }
        }
        self.kept
    }
}

/// How a body was transfer-encoded, as its header declares it.
fn declared_encoding(part: &MessagePart<'_>) -> TransferEncoding {
    match part
        .content_transfer_encoding()
        .map(park::unparked_encoding)
    {
        Some(name) if name.eq_ignore_ascii_case("base64") => TransferEncoding::Base64,
        Some(name) if name.eq_ignore_ascii_case("quoted-printable") => {
            TransferEncoding::QuotedPrintable
        }
        _ => TransferEncoding::Identity,
    }
}

/// A text decoded from a body: the text, and its map onto the body bytes.
struct BodyText {
    encoding: TransferEncoding,
    text: String,
    map: OffsetMap,
}

/// Collects one message's texts and warnings.
struct Walker<'a> {
    /// `buffer` offsets to archive offsets.
    archive: &'a OffsetMap,
    /// The header fields read for URLs.
    headers: HeaderUrls,
    texts: Vec<MailText>,
    warnings: Warnings,
}

impl Walker<'_> {
    /// Walk the message of `start` to its end.
    fn run(&mut self, start: Visit<'_>) {
        let mut stack = vec![start];
        while let Some(visit) = stack.pop() {
            match visit.target {
                Target::Root => self.root(&visit, &mut stack),
                Target::Part(id) => self.part(&visit, id, &mut stack),
                Target::Unread(span) => self.reread(&visit, span),
            }
        }
    }

    /// Read `span` of the visited bytes, which mail-parser left out of
    /// every part or ran a part on over: it starts at a delimiter line of a
    /// multipart around the part (or of one whose parts it stopped reading).
    /// The parts after that line are parsed again as the body of a
    /// multipart with the line's boundary, so that an encoded part among
    /// them is decoded as a whole message would decode it; what does not
    /// parse into parts is read raw.
    fn reread(&mut self, visit: &Visit<'_>, span: Span) {
        let raw = &visit.origin.bytes[span.range()];
        if visit.depth < MAX_DEPTH && self.reparse_parts(visit, span) {
            return;
        }
        self.push_text(visit, raw_part(visit), raw_text(raw), span);
    }

    /// Parse the bytes at `span`, which open with a delimiter line, as the
    /// parts of a multipart with that line's boundary, and walk them; false
    /// when they hold no part (a close delimiter, no boundary, no parts).
    fn reparse_parts(&mut self, visit: &Visit<'_>, span: Span) -> bool {
        let raw = &visit.origin.bytes[span.range()];
        let Some(boundary) = opening_boundary(raw) else {
            return false;
        };
        // A header line of our own before the bytes; offsets past it map
        // onto the visited bytes one for one.
        let header = format!("Content-Type: multipart/mixed; boundary=\"{boundary}\"\n\n");
        let place = match visit.origin.place {
            Place::At(at) => match (at + span.start).checked_sub(header.len()) {
                Some(start) => Place::At(start),
                None => return false,
            },
            whole => whole,
        };
        let mut bytes = header.into_bytes();
        bytes.extend_from_slice(raw);
        let repaired = OnceCell::new();
        let Some((message, parsed)) = empty::parse(parser(), &bytes, &repaired) else {
            return false;
        };
        let has_parts = message.parts.first().is_some_and(|root| {
            matches!(&root.body, PartType::Multipart(children) if !children.is_empty())
                && !empty::misread(&message, root, &boundary, parsed)
        });
        if has_parts {
            self.run(Visit {
                message: &message,
                origin: Origin {
                    bytes: parsed,
                    place,
                },
                // The multipart itself: its header fields are ours.
                target: Target::Part(0),
                path: visit.path.clone(),
                depth: visit.depth + 1,
                enclosing: visit.enclosing.clone(),
            });
        }
        nested::dismantle(message);
        has_parts
    }

    /// Record a problem.
    fn warn(&mut self, kind: WarningKind, part: Option<&str>, message: String) {
        self.warnings.push(MailWarning {
            kind,
            part: part.map(str::to_owned),
            message,
        });
    }

    /// A message (the top one or a nested one): its URL-bearing header
    /// fields, then its body.
    fn root<'m>(&mut self, visit: &Visit<'m>, stack: &mut Vec<Visit<'m>>) {
        let Some(root) = visit.message.parts.first() else {
            return;
        };
        let header_path = match visit.part_path() {
            None => "header".to_owned(),
            Some(prefix) => format!("{prefix}.header"),
        };
        self.url_headers(visit, root, &header_path);
        match &root.body {
            PartType::Multipart(children) => self.children(visit, root, children, stack),
            _ => stack.push(visit.beside(Target::Part(0), join(&visit.path, 1))),
        }
    }

    /// Part `id` of the visited message.
    fn part<'m>(&mut self, visit: &Visit<'m>, id: u32, stack: &mut Vec<Visit<'m>>) {
        let Some(part) = visit.message.part(id) else {
            return;
        };
        if park::is_parked_message(part.content_type()) {
            let decoded = match &part.body {
                PartType::Binary(bytes) | PartType::InlineBinary(bytes) => Some(bytes.as_ref()),
                _ => None,
            };
            return self.parked_message(visit, part, decoded);
        }
        if park::is_parked_text(part.content_type()) {
            // Its Content-Type names its subtype, HTML or not.
            let decoded = park::text_as_parsed(part);
            return self.text(visit, part, decoded.as_deref(), false);
        }
        match &part.body {
            PartType::Multipart(children) => {
                if !self.too_deep(visit, part) {
                    self.children(visit, part, children, stack);
                }
            }
            PartType::Message(nested) => {
                if !self.too_deep(visit, part) {
                    stack.push(nested_visit(visit, part, nested));
                }
            }
            PartType::Text(text) => {
                self.check_multipart_read_as_text(visit, part);
                self.text(visit, part, Some(text), false);
            }
            PartType::Html(text) => self.text(visit, part, Some(text), true),
            PartType::Binary(_) | PartType::InlineBinary(_) => self.binary(visit, part),
        }
    }

    /// Past [`MAX_DEPTH`], read a container part's body as raw text instead
    /// of descending into it; true when it was.
    fn too_deep(&mut self, visit: &Visit<'_>, part: &MessagePart<'_>) -> bool {
        if visit.depth < MAX_DEPTH {
            return false;
        }
        self.warn(
            WarningKind::TooDeep,
            visit.part_path(),
            format!(
                "MIME parts nested more than {MAX_DEPTH} levels deep; the rest read as raw text"
            ),
        );
        let (raw, span) = visit.origin.body(part);
        self.push_text(visit, raw_part(visit), raw_text(raw), span);
        true
    }

    /// Queue the children of the multipart `part`, in order.
    fn children<'m>(
        &mut self,
        visit: &Visit<'m>,
        part: &MessagePart<'_>,
        children: &[u32],
        stack: &mut Vec<Visit<'m>>,
    ) {
        let boundary = part
            .content_type()
            .and_then(|ct| ct.attribute("boundary"))
            .unwrap_or_default();
        self.check_closing_delimiter(visit, part, boundary);
        if empty::misread(visit.message, part, boundary, visit.origin.bytes) {
            // Left by the repair rounds: say so, as its one "part" holds
            // whatever followed it, read raw.
            self.warn(
                WarningKind::UnterminatedMultipart,
                visit.part_path(),
                format!(
                    "multipart has no part before its closing '--{boundary}--'; \
                     what follows it read as one text part"
                ),
            );
        }
        let unread = unread_parts(visit, part, children, boundary);
        if let Some(unread) = unread {
            self.warn(
                WarningKind::UnterminatedMultipart,
                visit.part_path(),
                format!(
                    "parts after a '--{boundary}' line were not parsed (a boundary used \
                     by two nested multiparts ends both); read again from that line"
                ),
            );
            // Below the children on the stack: read after them, in text order.
            let path = join(&visit.path, children.len() + 1);
            stack.push(visit.below(Target::Unread(unread), path));
        }
        let stray = stray_delimiter(visit, part, children, boundary, unread);
        let stray_first = stray.is_some_and(|stray| {
            first_header(visit, children).is_none_or(|first| stray.start < first)
        });
        if let Some(stray) = stray {
            self.warn_enclosing_delimiter(visit);
            if !stray_first {
                // In the epilogue: read after the children.
                stack.push(visit.beside(Target::Unread(stray), visit.path.clone()));
            }
        }
        let enclosing = Some(Rc::new(Enclosing {
            boundary: boundary.to_owned(),
            outer: visit.enclosing.clone(),
        }));
        for (index, &child) in children.iter().enumerate().rev() {
            let mut child = visit.below(Target::Part(child), join(&visit.path, index + 1));
            child.enclosing = enclosing.clone();
            stack.push(child);
        }
        if let Some(stray) = stray.filter(|_| stray_first) {
            // In the preamble, or a multipart without parts: read first.
            stack.push(visit.beside(Target::Unread(stray), visit.path.clone()));
        }
    }

    /// Warn about a part or a multipart's preamble or epilogue that holds a
    /// delimiter line of a multipart around it.
    fn warn_enclosing_delimiter(&mut self, visit: &Visit<'_>) {
        self.warn(
            WarningKind::UnterminatedMultipart,
            visit.part_path(),
            "part holds a delimiter line of a multipart around it, which RFC 2046 forbids: \
             parts after it may be misread or read raw"
                .into(),
        );
    }

    /// Warn about a multipart that mail-parser read as text: no delimiter
    /// line of its boundary follows its header, so its body runs on, over
    /// the delimiters of the multiparts around it and the parts they hold.
    fn check_multipart_read_as_text(&mut self, visit: &Visit<'_>, part: &MessagePart<'_>) {
        let Some(content_type) = part.content_type() else {
            return;
        };
        if !content_type.ctype().eq_ignore_ascii_case("multipart") {
            return;
        }
        let boundary = content_type.attribute("boundary").unwrap_or_default();
        self.warn(
            WarningKind::UnterminatedMultipart,
            visit.part_path(),
            format!(
                "multipart whose boundary '{boundary}' delimits no part; its body read as \
                 one text part"
            ),
        );
    }

    /// Warn when a multipart lacks its closing delimiter (RFC 2046 section
    /// 5.1.1), the usual sign of a cut message.
    fn check_closing_delimiter(
        &mut self,
        visit: &Visit<'_>,
        part: &MessagePart<'_>,
        boundary: &str,
    ) {
        let closing = format!("--{boundary}--");
        // Search the part itself (plus a delimiter's length, should the part
        // end be placed before it), from its end, where a closed part has
        // it: only an unclosed one is read through, so a nest costs at most
        // MAX_DEPTH passes over the message.
        let bytes = visit.origin.bytes;
        let end = (part.offset_end as usize + closing.len() + 2).min(bytes.len());
        let start = (part.offset_body as usize).min(end);
        if memchr::memmem::rfind(&bytes[start..end], closing.as_bytes()).is_none() {
            self.warn(
                WarningKind::UnterminatedMultipart,
                visit.part_path(),
                format!(
                    "multipart has no closing '{closing}' line; read up to the end of the message"
                ),
            );
        }
    }

    /// A part mail-parser kept as bytes: skipped unless it may hold text. A
    /// multipart without a usable boundary and a nested message that did
    /// not parse are read as one text part with a warning; the other
    /// message types (delivery-status, disposition-notification,
    /// external-body, ...) are header-like text and read as such.
    fn binary(&mut self, visit: &Visit<'_>, part: &MessagePart<'_>) {
        let Some(content_type) = part.content_type() else {
            return;
        };
        let ctype = content_type.ctype().to_ascii_lowercase();
        let subtype = content_type
            .subtype()
            .unwrap_or_default()
            .to_ascii_lowercase();
        if empty::is_parked(&ctype) {
            return self.parked_empty_multipart(visit, part);
        }
        let problem = match (ctype.as_str(), subtype.as_str()) {
            ("multipart", _) => Some("multipart without a usable boundary parameter"),
            ("message", "rfc822" | "global") => Some("nested message does not parse"),
            ("message", _) => None,
            _ => return,
        };
        if let Some(problem) = problem {
            self.warn(
                WarningKind::UnterminatedMultipart,
                visit.part_path(),
                format!("{problem}; its body read as one text part"),
            );
        }
        self.text(visit, part, None, false);
    }

    /// A multipart without parts (parked, see [`empty`]): nothing to read,
    /// unless mail-parser ran it on past a delimiter line of a multipart
    /// around it, which it does not look for inside an opaque part: what
    /// follows that line (the parts after it) is read raw.
    fn parked_empty_multipart(&mut self, visit: &Visit<'_>, part: &MessagePart<'_>) {
        let (body, body_span) = visit.origin.body(part);
        let own = part
            .content_type()
            .and_then(|ct| ct.attribute("boundary"))
            .unwrap_or_default();
        let cut = enclosing_delimiter(body, visit.enclosing.as_deref(), own)
            .filter(|&cut| !body[cut..].iter().all(u8::is_ascii_whitespace));
        if let Some(cut) = cut {
            self.warn_enclosing_delimiter(visit);
            self.reread(visit, Span::new(body_span.start + cut, body_span.end));
        }
    }

    /// A message/rfc822 part (parked, see [`park`]): its body parsed as
    /// a message of its own, in place, or as a decoded copy that maps as a
    /// whole onto the part. `decoded` is mail-parser's decoding of the body,
    /// when it decoded it.
    fn parked_message(
        &mut self,
        visit: &Visit<'_>,
        part: &MessagePart<'_>,
        decoded: Option<&[u8]>,
    ) {
        if self.too_deep(visit, part) {
            return;
        }
        let (body, body_span) = visit.origin.body(part);
        // A delimiter line of a multipart around the part ends it (RFC 2046
        // section 5.1.1), but mail-parser looks for its own multipart's
        // lines only and ran on: the message is what comes before the line,
        // the rest is read raw.
        let cut = enclosing_delimiter(body, visit.enclosing.as_deref(), "")
            .filter(|&cut| !body[cut..].iter().all(u8::is_ascii_whitespace));
        let Some(cut) = cut else {
            return self.nested_message(visit, part, body, body_span, decoded);
        };
        self.warn_enclosing_delimiter(visit);
        let span = Span::new(body_span.start, body_span.start + cut);
        self.nested_message(visit, part, &body[..cut], span, None);
        self.reread(visit, Span::new(span.end, body_span.end));
    }

    /// The nested message of a message/rfc822 part, whose body is `raw` at
    /// `span` of the visited bytes; `decoded` is mail-parser's decoding of
    /// it, when it decoded all of it.
    fn nested_message(
        &mut self,
        visit: &Visit<'_>,
        part: &MessagePart<'_>,
        raw: &[u8],
        span: Span,
        decoded: Option<&[u8]>,
    ) {
        let copy = match (decoded, declared_encoding(part)) {
            (_, TransferEncoding::Identity) => None,
            (Some(decoded), _) if part.encoding != Encoding::None => Some(decoded.to_vec()),
            // mail-parser gave up on the encoding (no closing boundary).
            (_, declared) => {
                let copy = transfer_decode(raw, declared);
                if copy.is_none() {
                    self.warn_bad_encoding(visit, declared);
                }
                copy
            }
        };
        let copy = copy.map(|mut bytes| {
            park::park_content_types(&mut bytes);
            bytes
        });
        let origin = match &copy {
            Some(bytes) => visit.origin.decoded(bytes, span),
            None => visit.origin.within(span),
        };
        let repaired = OnceCell::new();
        let Some((message, bytes)) = empty::parse(parser(), origin.bytes, &repaired) else {
            if origin.bytes.iter().all(u8::is_ascii_whitespace) {
                return; // an empty attachment: nothing lost
            }
            self.warn(
                WarningKind::Unparseable,
                visit.part_path(),
                "nested message does not parse; its body read as one text part".into(),
            );
            let (text, map) = charset::decode_utf8_lossy(origin.bytes);
            let map = match copy {
                Some(_) => OffsetMap::whole(text.len(), Span::new(0, span.len())),
                None => map,
            };
            let body = BodyText {
                encoding: TransferEncoding::Identity,
                text,
                map,
            };
            return self.push_text(visit, raw_part(visit), body, span);
        };
        // Recursion here is bounded: each level is one more level of depth.
        self.run(Visit {
            message: &message,
            origin: Origin { bytes, ..origin },
            target: Target::Root,
            path: visit.path.clone(),
            depth: visit.depth + 1,
            enclosing: None,
        });
        nested::dismantle(message);
    }

    /// A text or HTML part; `decoded` is mail-parser's decoding of it.
    fn text(
        &mut self,
        visit: &Visit<'_>,
        part: &MessagePart<'_>,
        decoded: Option<&str>,
        is_html: bool,
    ) {
        let (raw, span) = visit.origin.body(part);
        let declared = declared_encoding(part);
        let charset = part.content_type().and_then(|ct| ct.attribute("charset"));
        let mut info = PartInfo {
            path: visit.path.clone(),
            content_type: media_type(part, is_html),
            charset: charset.map(str::to_owned),
            encoding: declared,
        };
        // mail-parser may run a part on over a delimiter line of a
        // multipart around it (RFC 2046 section 5.1.1 ends the part there):
        // the part is what comes before the line, and the parts after it
        // are read again.
        let cut = enclosing_delimiter(raw, visit.enclosing.as_deref(), "");
        if cut.is_some() {
            self.warn_enclosing_delimiter(visit);
        }
        let head = &raw[..cut.unwrap_or(raw.len())];
        // What mail-parser made of the transfer encoding, parked or not.
        let (parsed, is_problem) = park::encoding_as_parsed(part, raw);
        let (encoding, decoded) = if !is_problem || declared == TransferEncoding::Identity {
            let encoding = match parsed {
                Encoding::Base64 => TransferEncoding::Base64,
                Encoding::QuotedPrintable => TransferEncoding::QuotedPrintable,
                Encoding::None => TransferEncoding::Identity,
            };
            // mail-parser's decoding is of the whole part, run on or not.
            (encoding, decoded.filter(|_| cut.is_none()))
        } else if transfer_decode(head, declared).is_some() {
            // mail-parser gives up on an encoded part whose boundary
            // never comes (a cut message): it is decoded here.
            (declared, None)
        } else {
            self.warn_bad_encoding(visit, declared);
            (TransferEncoding::Identity, None)
        };
        let body = self.decode_body(visit, head, encoding, charset, decoded);
        info.encoding = body.encoding;
        self.push_text(
            visit,
            info,
            body,
            Span::new(span.start, span.start + head.len()),
        );
        if let Some(cut) = cut {
            self.reread(visit, Span::new(span.start + cut, span.end));
        }
    }

    /// Decode the body bytes `raw` of a part transfer-encoded as
    /// `encoding`; `decoded` is mail-parser's decoding, used where bytes
    /// cannot map back anyway (base64) and its charset decoding is ours.
    fn decode_body(
        &mut self,
        visit: &Visit<'_>,
        raw: &[u8],
        encoding: TransferEncoding,
        charset: Option<&str>,
        decoded: Option<&str>,
    ) -> BodyText {
        let transferred = match encoding {
            TransferEncoding::Identity => None,
            TransferEncoding::Base64 => {
                if let Some(text) = decoded.filter(|_| charset::is_ascii_compatible(charset)) {
                    if !charset::is_known(charset) {
                        self.warn_charset(visit, charset, CharsetProblem::Unknown);
                    }
                    let map = OffsetMap::whole(text.len(), Span::new(0, raw.len()));
                    return BodyText {
                        encoding,
                        text: text.to_owned(),
                        map,
                    };
                }
                base64_decode(raw).map(|bytes| {
                    let map = OffsetMap::whole(bytes.len(), Span::new(0, raw.len()));
                    (bytes, map)
                })
            }
            TransferEncoding::QuotedPrintable => Some(decode_quoted_printable(raw)),
        };
        let (bytes, transfer_map, encoding) = match transferred {
            Some((bytes, map)) => (Cow::Owned(bytes), Some(map), encoding),
            None => {
                if encoding != TransferEncoding::Identity {
                    self.warn_bad_encoding(visit, encoding);
                }
                (Cow::Borrowed(raw), None, TransferEncoding::Identity)
            }
        };
        let decoded = charset::decode(&bytes, charset);
        if let Some(problem) = decoded.problem {
            self.warn_charset(visit, charset, problem);
        }
        let map = match transfer_map {
            Some(transfer) => decoded.map.then(&transfer).char_aligned(&decoded.text),
            None => decoded.map,
        };
        BodyText {
            encoding,
            text: decoded.text,
            map,
        }
    }

    /// Warn that a body did not decode as `encoding` says.
    fn warn_bad_encoding(&mut self, visit: &Visit<'_>, encoding: TransferEncoding) {
        self.warn(
            WarningKind::BadEncoding,
            visit.part_path(),
            format!("{} body does not decode; read as raw text", encoding.name()),
        );
    }

    /// Warn about a charset that was not decoded as labelled.
    fn warn_charset(&mut self, visit: &Visit<'_>, charset: Option<&str>, problem: CharsetProblem) {
        let label = charset.unwrap_or_default();
        let (kind, message) = match problem {
            CharsetProblem::Unknown => (
                WarningKind::UnknownCharset,
                format!("unknown charset '{label}'; read as UTF-8"),
            ),
            CharsetProblem::Undecodable => (
                WarningKind::UndecodableCharset,
                format!(
                    "charset '{label}' cannot be decoded (it would erase the text); \
                     read as ASCII, other bytes as Latin-1"
                ),
            ),
            CharsetProblem::Mislabelled => (
                WarningKind::UndecodableCharset,
                format!(
                    "charset '{label}' does not fit the text (no byte order mark, \
                     no NUL byte); read as ASCII, other bytes as Latin-1"
                ),
            ),
        };
        self.warn(kind, visit.part_path(), message);
    }

    /// Add the text decoded from the body bytes at `span` of the visited
    /// message's bytes; an HTML part stays HTML, for the HTML reader.
    fn push_text(&mut self, visit: &Visit<'_>, part: PartInfo, body: BodyText, span: Span) {
        let markup = if part.content_type == "text/html" {
            Markup::Html
        } else {
            Markup::Plain
        };
        let map = body.map.then(&visit.origin.map(span)).then(self.archive);
        self.texts.push(MailText {
            text: body.text,
            markup,
            part,
            map,
        });
    }

    /// The header fields of `part` read for URLs, raw, as one text.
    fn url_headers(&mut self, visit: &Visit<'_>, part: &MessagePart<'_>, path: &str) {
        let mut text = String::new();
        let mut map = OffsetMap::new();
        let bytes = visit.origin.bytes;
        for header in &part.headers {
            let wanted = self.headers.reads(header.name());
            let field: Span = Span::new(header.offset_field as usize, header.offset_end as usize);
            let Some(raw) = bytes.get(field.range()).filter(|_| wanted) else {
                continue;
            };
            let (field_text, field_map) = charset::decode_utf8_lossy(raw);
            for piece in field_map.pieces() {
                map.push(
                    piece.text.shifted(text.len()),
                    piece.raw.shifted(field.start),
                    piece.exact,
                );
            }
            text.push_str(&field_text);
            if !text.ends_with('\n') {
                text.push('\n');
            }
        }
        if text.is_empty() {
            return;
        }
        let all = Span::new(0, bytes.len());
        let map = map.then(&visit.origin.map(all)).then(self.archive);
        self.texts.push(MailText {
            text,
            markup: Markup::Plain,
            part: PartInfo {
                path: path.to_owned(),
                content_type: "text/rfc822-headers".into(),
                charset: None,
                encoding: TransferEncoding::Identity,
            },
            map,
        });
    }
}

/// The visit of the message nested in `part` (a message/rfc822 part).
fn nested_visit<'m>(
    visit: &Visit<'m>,
    part: &MessagePart<'_>,
    nested: &'m Message<'m>,
) -> Visit<'m> {
    let bytes: &[u8] = nested.raw_message.as_ref();
    let origin = if std::ptr::eq(bytes, visit.origin.bytes) {
        visit.origin
    } else {
        // mail-parser parsed a decoded copy of the part's body.
        visit.origin.decoded(bytes, visit.origin.body(part).1)
    };
    let mut nested_visit = visit.below(Target::Root, visit.path.clone());
    nested_visit.message = nested;
    nested_visit.origin = origin;
    nested_visit
}

/// `raw` decoded from `encoding` by mail-parser's strict decoders; `None`
/// when it is not well-formed.
fn transfer_decode(raw: &[u8], encoding: TransferEncoding) -> Option<Vec<u8>> {
    match encoding {
        TransferEncoding::Identity => Some(raw.to_vec()),
        TransferEncoding::Base64 => base64_decode(raw),
        TransferEncoding::QuotedPrintable => quoted_printable_decode(raw),
    }
}

/// The part info of bytes read as raw text at the visited path.
fn raw_part(visit: &Visit<'_>) -> PartInfo {
    PartInfo {
        path: visit.path.clone(),
        content_type: "text/plain".into(),
        charset: None,
        encoding: TransferEncoding::Identity,
    }
}

/// The bytes after the last part of `multipart` that mail-parser left
/// unread although they hold one of its delimiter lines (RFC 2046 section
/// 5.1.1) that opens a part: parts lost when boundaries collide (a nested
/// multipart with its parent's boundary closes both at once). From that
/// line to the next delimiter line of a multipart around it, or the
/// message's end: mail-parser may have ended `multipart` itself at such a
/// close, before lines of its own.
fn unread_parts(
    visit: &Visit<'_>,
    multipart: &MessagePart<'_>,
    children: &[u32],
    boundary: &str,
) -> Option<Span> {
    let bytes = visit.origin.bytes;
    let end = match visit.target {
        Target::Root => bytes.len(),
        _ => {
            let part_end = (multipart.offset_end as usize).min(bytes.len());
            let enclosing = visit.enclosing.as_deref();
            enclosing_delimiter(&bytes[part_end..], enclosing, "")
                .map_or(bytes.len(), |at| part_end + at)
        }
    };
    let after = children
        .iter()
        .filter_map(|&id| visit.message.part(id))
        .map(|child| child.offset_end as usize)
        .max()
        .unwrap_or(multipart.offset_body as usize)
        .min(end);
    let delimiter = format!("--{boundary}");
    memchr::memmem::find_iter(&bytes[after..end], delimiter.as_bytes())
        .map(|at| after + at)
        .find(|&at| {
            let line_start = at == 0 || bytes[at - 1] == b'\n';
            let rest = &bytes[at + delimiter.len()..end];
            let line = memchr::memchr(b'\n', rest).map_or(rest, |eol| &rest[..eol]);
            line_start && line.trim_ascii().is_empty()
        })
        .map(|at| Span::new(at, end))
}

/// The boundary of the delimiter line (`--boundary`, not a close
/// delimiter) that opens `raw`, when it is one a Content-Type field can
/// carry quoted.
fn opening_boundary(raw: &[u8]) -> Option<String> {
    let line = raw.split(|&byte| byte == b'\n').next()?.trim_ascii_end();
    let boundary = std::str::from_utf8(line.strip_prefix(b"--")?).ok()?;
    let usable = !boundary.is_empty()
        && !boundary.ends_with("--")
        && !boundary.contains(['"', '\\'])
        && boundary.chars().all(|c| c.is_ascii_graphic() || c == ' ');
    usable.then(|| boundary.to_owned())
}

/// `raw` read as text: UTF-8, each invalid sequence one U+FFFD.
fn raw_text(raw: &[u8]) -> BodyText {
    let (text, map) = charset::decode_utf8_lossy(raw);
    BodyText {
        encoding: TransferEncoding::Identity,
        text,
        map,
    }
}

/// The bytes of `multipart` outside its parts, from a delimiter line of a
/// multipart around it on: in its preamble (up to its first part), in its
/// epilogue (up to its end, or to `unread`), or anywhere in its body when
/// it has no part. RFC 2046 section 5.1.1 forbids such a line there;
/// mail-parser, which ends a part only at its own multipart's delimiters,
/// ran over it (boundaries shared or closed out of order), and the parts
/// after it are in these bytes. A multipart without parts is read whole, as
/// one that mail-parser read as text is.
fn stray_delimiter(
    visit: &Visit<'_>,
    multipart: &MessagePart<'_>,
    children: &[u32],
    boundary: &str,
    unread: Option<Span>,
) -> Option<Span> {
    let (_, body) = visit.origin.body(multipart);
    let bytes = visit.origin.bytes;
    let enclosing = visit.enclosing.as_deref();
    let stray_in = |region: Span| {
        enclosing_delimiter(&bytes[region.range()], enclosing, boundary)
            .map(|at| Span::new(region.start + at, region.end))
    };
    let Some(first) = first_header(visit, children) else {
        return stray_in(body).map(|_| body);
    };
    let preamble = Span::new(body.start, first.clamp(body.start, body.end));
    let last = children
        .iter()
        .filter_map(|&id| visit.message.part(id))
        .map(|child| child.offset_end as usize)
        .max()
        .unwrap_or(body.end)
        .clamp(preamble.end, body.end);
    let end = unread.map_or(body.end, |unread| unread.start.clamp(last, body.end));
    stray_in(preamble).or_else(|| stray_in(Span::new(last, end)))
}

/// Where the header of the first of `children` starts.
fn first_header(visit: &Visit<'_>, children: &[u32]) -> Option<usize> {
    let first = visit.message.part(*children.first()?)?;
    Some(first.offset_header as usize)
}

/// The offset in `raw` of the first delimiter line (RFC 2046 section
/// 5.1.1: `--boundary`, `--` if closing, transport padding) of an enclosing
/// multipart, if any; a boundary equal to `own` (that of the multipart
/// whose bytes these are, whose own lines they may hold) does not count.
fn enclosing_delimiter(raw: &[u8], enclosing: Option<&Enclosing>, own: &str) -> Option<usize> {
    // Only lines that start with `--` can be delimiters: found with memmem,
    // so that an ordinary body costs one fast pass.
    let starts = raw.starts_with(b"--").then_some(0);
    let later = memchr::memmem::find_iter(raw, b"\n--").map(|at| at + 1);
    starts.into_iter().chain(later).find(|&line_start| {
        let line_end =
            memchr::memchr(b'\n', &raw[line_start..]).map_or(raw.len(), |i| line_start + i);
        let rest = &raw[line_start + 2..line_end];
        let mut outer = enclosing;
        while let Some(node) = outer {
            let after = rest.strip_prefix(node.boundary.as_bytes());
            let after = after.map(|after| after.strip_prefix(b"--").unwrap_or(after));
            if !node.boundary.is_empty()
                && node.boundary != own
                && after.is_some_and(|after| after.trim_ascii().is_empty())
            {
                return true;
            }
            outer = node.outer.as_deref();
        }
        false
    })
}

/// The media type of a part, lower case; mail-parser's default when the
/// part declares none.
fn media_type(part: &MessagePart<'_>, is_html: bool) -> String {
    match part.content_type() {
        Some(ct) => match ct.subtype() {
            Some(subtype) => {
                format!("{}/{}", park::unparked(ct.ctype()), subtype).to_ascii_lowercase()
            }
            None => park::unparked(ct.ctype()).to_ascii_lowercase(),
        },
        None if is_html => "text/html".into(),
        None => "text/plain".into(),
    }
}

/// The path of child `number` (1-based) under `prefix`.
fn join(prefix: &str, number: usize) -> String {
    if prefix.is_empty() {
        number.to_string()
    } else {
        format!("{prefix}.{number}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc2046_5_1_1_an_enclosing_delimiter_ends_a_body() {
        let outer = Enclosing {
            boundary: "out".into(),
            outer: None,
        };
        let inner = Enclosing {
            boundary: "in".into(),
            outer: Some(Rc::new(outer)),
        };
        let body = b"aGk=\n--inside text\n--out\nrest\n";
        assert_eq!(enclosing_delimiter(body, Some(&inner), ""), Some(19));
        assert_eq!(enclosing_delimiter(b"aGk=\n", Some(&inner), ""), None);
        assert_eq!(enclosing_delimiter(body, None, ""), None);
        assert_eq!(enclosing_delimiter(body, Some(&inner), "out"), None);
    }

    #[test]
    fn warnings_past_the_cap_are_counted_in_one() {
        let mut warnings = Warnings::default();
        let warning = |kind| MailWarning {
            kind,
            part: Some("1".into()),
            message: "m".into(),
        };
        for _ in 0..MAX_WARNINGS_PER_KIND + 3 {
            warnings.push(warning(WarningKind::BadEncoding));
        }
        warnings.push(warning(WarningKind::TooDeep));
        let kept = warnings.finish();
        assert_eq!(kept.len(), MAX_WARNINGS_PER_KIND + 2);
        assert_eq!(kept[MAX_WARNINGS_PER_KIND].kind, WarningKind::TooDeep);
        let last = kept.last().expect("a count");
        assert_eq!(
            (last.kind, last.message.as_str()),
            (
                WarningKind::BadEncoding,
                "3 more warnings of this kind (undecodable body) not shown"
            )
        );
    }
}
