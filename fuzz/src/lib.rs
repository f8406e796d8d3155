//! The invariants urlint keeps on every input, as panicking checks.
//!
//! The fuzz targets call these on whatever libFuzzer generates, and
//! `tests/robust_properties.rs` includes this file to check the same
//! invariants on proptest's inputs in every `cargo test`: one statement of
//! each invariant, two ways of searching for a counterexample.
//!
//! Each check panics with a message naming the broken invariant and the
//! offending values, so that a fuzz crash report reads on its own.

use urlint::mail::{self, MailKind, MailText, ParsedMessage};
use urlint::validate::Profile;
use urlint::{
    lint_markup, scan, validate, At, Diagnostic, Found, Level, LintOptions, Linted, Markup, Rule,
    ScanOptions, SourceSpan, Span, UrlSpan, ValidateOptions,
};

/// True when `span` is a well-formed range inside `text` whose ends fall on
/// char boundaries, so that `&text[span.range()]` cannot panic.
pub fn span_in<In>(text: &str, span: Span<In>) -> bool {
    span.start <= span.end
        && span.end <= text.len()
        && text.is_char_boundary(span.start)
        && text.is_char_boundary(span.end)
}

/// Scan `text` with default options and check every URL found: in source
/// order, without overlaps, each one consistent with the text.
pub fn check_scan(text: &str) -> Vec<Found> {
    let found: Vec<Found> = scan(text, &ScanOptions::default()).collect();
    check_found_in_order(text, &found);
    found
}

/// Check that `found`, scanned from `text`, is in order without overlaps
/// and that each URL is consistent with the text.
pub fn check_found_in_order<'a>(text: &str, found: impl IntoIterator<Item = &'a Found>) {
    let mut previous_end = 0;
    for url in found {
        assert!(
            url.outer.start >= previous_end,
            "URL at {:?} starts before the previous one ended at {previous_end}",
            url.outer
        );
        previous_end = url.outer.end;
        check_found(text, url);
    }
}

/// Check one scanned URL: its outer span is a non-empty char range of the
/// text, its segments lie in order inside it and join to exactly the URL
/// (a copied segment with its own bytes, a decoded one, a reference or an
/// escape in markup, with the URL bytes it claims), and the scanner's
/// diagnostics point inside it.
pub fn check_found(text: &str, found: &Found) {
    let outer = found.outer;
    assert!(
        span_in(text, outer) && !outer.is_empty(),
        "outer span {outer:?} is not a non-empty char range of the {}-byte text",
        text.len()
    );
    let mut joined = String::new();
    let mut previous_end = outer.start;
    for segment in &found.segments {
        let source = segment.source;
        assert!(
            span_in(text, source) && previous_end <= source.start && source.end <= outer.end,
            "segment {source:?} is out of order, outside {outer:?} or off a char boundary"
        );
        assert_eq!(
            segment.url_start,
            joined.len(),
            "segment {source:?} claims the wrong URL offset"
        );
        if segment.is_copied() {
            joined.push_str(&text[source.range()]);
        } else {
            let piece = found.url.get(segment.url().range());
            assert!(
                piece.is_some_and(|piece| !piece.is_empty()),
                "decoded segment {source:?} claims {:?}, not a char range of the URL",
                segment.url()
            );
            joined.push_str(piece.unwrap_or_default());
        }
        previous_end = source.end;
    }
    assert_eq!(joined, found.url, "segments do not join to the URL");
    for diagnostic in &found.diagnostics {
        assert!(
            span_in(text, diagnostic.span) && inside(diagnostic.span.of(), outer),
            "scanner {:?} span {:?} is not a char range inside {outer:?}",
            diagnostic.rule,
            diagnostic.span
        );
    }
}

/// Validate `url` and check every diagnostic: in URL order, spans on char
/// boundaries inside the URL, and every fix well-formed and effective.
pub fn check_validate(url: &str, options: &ValidateOptions) -> Vec<Diagnostic> {
    let diagnostics = validate(url, options);
    let starts: Vec<usize> = diagnostics.iter().map(|d| d.span.start).collect();
    assert!(
        starts.is_sorted(),
        "diagnostics are not in URL order: {starts:?}"
    );
    for diagnostic in &diagnostics {
        assert!(
            span_in(url, diagnostic.span),
            "{:?} span {:?} is not a char range of the {}-byte URL",
            diagnostic.rule,
            diagnostic.span,
            url.len()
        );
        assert!(
            !diagnostic.message.is_empty(),
            "{:?} has no message",
            diagnostic.rule
        );
        if let Some(fix) = &diagnostic.fix {
            check_fix(url, &diagnostics, diagnostic, &fix.replacement, options);
        }
    }
    diagnostics
}

/// Check that a fix changes something, writes only characters a URL may
/// hold literally, and, applied, removes its diagnostic: the fixed URL has
/// no diagnostic of the same rule where the fix wrote, other than one the
/// URL already had elsewhere and the edit merely moved (the property issue 7
/// asks of every fix). `all` is every diagnostic of `url`.
fn check_fix(
    url: &str,
    all: &[Diagnostic],
    diagnostic: &Diagnostic,
    replacement: &str,
    options: &ValidateOptions,
) {
    let span = diagnostic.span;
    let rule = diagnostic.rule;
    assert_ne!(
        replacement,
        &url[span.range()],
        "{rule:?} fix at {span:?} changes nothing"
    );
    assert!(
        replacement.bytes().all(|b| b.is_ascii_graphic()),
        "{rule:?} fix {replacement:?} writes characters a URL must encode"
    );
    let fixed = format!("{}{replacement}{}", &url[..span.start], &url[span.end..]);
    let edit = Edit {
        removed: span,
        written: Span::new(span.start, span.start + replacement.len()),
    };
    let before: Vec<&Diagnostic> = all
        .iter()
        .filter(|d| d.rule == rule && *d != diagnostic)
        .collect();
    let after = validate(&fixed, options);
    let left = after.iter().find(|d| {
        d.rule == rule
            && touches(d.span, edit.written)
            && !before
                .iter()
                .any(|b| b.message == d.message && edit.moved(b.span) == Some(d.span))
    });
    if let Some(left) = left {
        panic!(
            "{rule:?} fix {replacement:?} at {span:?} of {url:?} gives {fixed:?}, \
             which still has {rule:?} at {:?}: {}",
            left.span, left.message
        );
    }
}

/// One replacement in a URL: the bytes `removed` from the original and the
/// bytes `written` in their place in the result (both starting at the same
/// offset).
struct Edit {
    removed: Span,
    written: Span,
}

impl Edit {
    /// Where a span of the original lies after the edit, if the edit leaves
    /// it standing: before the edit it stays put, after it it moves with the
    /// length change, and around it (the validator's summary of the
    /// character problems past its cap) it stretches or shrinks with it.
    fn moved(&self, span: Span) -> Option<Span> {
        let (removed, written) = (self.removed, self.written);
        if span.end <= removed.start {
            Some(span)
        } else if span.start >= removed.end {
            let start = span.start - removed.end + written.end;
            Some(Span::new(start, start + span.len()))
        } else if span.start <= removed.start && removed.end <= span.end {
            let end = span.end - removed.len() + written.len();
            Some(Span::new(span.start, end))
        } else {
            None
        }
    }
}

/// True when `span` lies within `outer`.
fn inside<In>(span: Span<In>, outer: Span<In>) -> bool {
    outer.start <= span.start && span.end <= outer.end
}

/// True when a diagnostic at `span` is about the bytes a fix wrote at
/// `written`. An empty span is a point: an empty diagnostic touches the
/// written bytes when it points into them, and a deletion (empty `written`)
/// is touched by a diagnostic that spans across the join or points at it.
fn touches(span: Span, written: Span) -> bool {
    match (span.is_empty(), written.is_empty()) {
        (false, false) => span.start < written.end && written.start < span.end,
        (true, false) => written.start <= span.start && span.start < written.end,
        (false, true) => span.start < written.start && written.start < span.end,
        (true, true) => span.start == written.start,
    }
}

/// Lint options with every rule on, so that no finding is filtered out
/// before its spans are checked.
pub fn every_rule_on() -> LintOptions {
    let mut options = LintOptions::default();
    for rule in Rule::all() {
        options.levels.set(rule, Level::Warning);
    }
    options
}

/// Read `archive` as mail of `kind` and check every decoded text: it lints
/// with the invariants of [`check_lint`], and every finding's source span
/// maps to archive bytes inside the message it came from, which have a line
/// and column.
pub fn check_mail(archive: &[u8], kind: MailKind) {
    let options = every_rule_on();
    for message in mail::read(archive, kind) {
        // Reading from memory performs no I/O that could fail.
        let Ok(message) = message else {
            panic!("reading mail from memory failed: {message:?}");
        };
        let end = message.raw.offset + message.raw.bytes.len();
        assert!(
            end <= archive.len(),
            "message {} ends at {end}, past the {}-byte archive",
            message.info.number,
            archive.len()
        );
        // The summary is parsed when first read: read it as a report would.
        let info = &message.info;
        let _ = (info.message_id(), info.date(), info.subject());
        for text in &message.texts {
            check_markup(&text.text, text.markup);
            check_text_maps_into_message(&message, text, &options);
        }
    }
}

/// Check that every finding in `text` maps to archive bytes of `message`
/// that [`ParsedMessage::line_col`] can place.
fn check_text_maps_into_message(message: &ParsedMessage, text: &MailText, options: &LintOptions) {
    let start = message.raw.offset;
    let end = start + message.raw.bytes.len();
    for findings in lint_markup(&text.text, text.markup, options).map(Linted::into_findings) {
        let spans = findings.iter().flat_map(|f| &f.source_spans);
        for raw in spans.flat_map(|&span| text.map.raw_spans(span.of())) {
            assert!(
                start <= raw.start && raw.start <= raw.end && raw.end <= end,
                "part {} maps to {raw:?}, outside its message's bytes {start}..{end}",
                text.part.path
            );
            assert!(
                message.line_col(raw.start).is_some(),
                "archive offset {} of message {} has no line",
                raw.start,
                message.info.number
            );
        }
    }
}

/// Lint `text` with every rule on, under each profile, and check the span
/// mapping: items come in source order; every finding of a URL points at a
/// char range inside the URL's match, and a validator finding's source
/// pieces spell exactly the URL bytes it is about; a finding of the text's
/// own is an `unused-suppression` or `unknown-rule` at a `urlint:` directive. Each URL is
/// also validated on its own, so that fixes are checked on URLs as the
/// scanner joins them.
pub fn check_lint(text: &str) {
    check_markup(text, Markup::Plain);
}

/// [`check_lint`] for a text written in `markup`, under each profile: in
/// Markdown, reStructuredText and HTML a finding on a decoded URL (`&amp;`, `\(`) labels the
/// source bytes it was decoded from, which spell the URL bytes only where
/// they were copied.
pub fn check_markup(text: &str, markup: Markup) {
    for profile in Profile::ALL {
        check_markup_under(text, markup, profile);
    }
}

fn check_markup_under(text: &str, markup: Markup, profile: Profile) {
    let options = LintOptions {
        profile,
        ..every_rule_on()
    };
    let linted: Vec<Linted> = lint_markup(text, markup, &options).collect();
    let starts: Vec<usize> = linted.iter().map(Linted::start).collect();
    assert!(starts.is_sorted(), "lint items out of order: {starts:?}");
    let mut reports = Vec::new();
    for item in linted {
        match item {
            Linted::Url(report) => reports.push(report),
            Linted::Text(finding) => check_own_finding(text, &finding),
            Linted::Unclosed(unclosed) => {
                let swallowed = unclosed.swallowed;
                assert!(
                    swallowed.start < swallowed.end && text.get(swallowed.range()).is_some(),
                    "markup left open at {swallowed:?}, not a run of the text"
                );
            }
            other => panic!("unknown lint item {other:?}"),
        }
    }
    check_found_in_order(text, reports.iter().map(|report| &report.found));
    for report in &reports {
        let found = &report.found;
        for finding in &report.findings {
            let rule = finding.diagnostic.rule;
            assert!(
                !finding.source_spans.is_empty(),
                "{rule:?} finding has no source span"
            );
            for &span in &finding.source_spans {
                assert!(
                    span_in(text, span) && inside(span, found.outer),
                    "{rule:?} source span {span:?} is not a char range inside {:?}",
                    found.outer
                );
            }
            match finding.at {
                At::Url(url_span) if !found.is_decoded() => {
                    check_mapping(text, found, url_span, &finding.source_spans, rule)
                }
                At::Url(url_span) => assert!(
                    span_in(&found.url, url_span),
                    "{rule:?} URL span {url_span:?} is not a char range of {:?}",
                    found.url
                ),
                At::Source(span) => assert_eq!(
                    span,
                    finding.diagnostic.span.of(),
                    "{rule:?} is placed apart from its diagnostic"
                ),
            }
        }
        let validate_options = ValidateOptions {
            profile,
            extra_schemes: options.extra_schemes.clone(),
        };
        check_validate(&found.url, &validate_options);
    }
}

/// Check a finding about the text itself: an `unused-suppression` or an
/// `unknown-rule` whose one span is a char range of the text on a
/// `urlint:` directive (a directive, or a rule name in its list).
fn check_own_finding(text: &str, finding: &urlint::Finding) {
    let span = finding.diagnostic.span;
    let rule = finding.diagnostic.rule;
    assert!(
        matches!(rule, Rule::UnusedSuppression | Rule::UnknownRule),
        "a finding outside any URL is not about a suppression: {rule:?}"
    );
    assert!(
        span_in(text, span)
            && finding.source_spans == [span.of()]
            && finding.at == At::Source(span.of()),
        "{rule:?} span {span:?} is not a char range of the {}-byte text",
        text.len()
    );
    let line_start = text[..span.start]
        .rfind(['\n', '\r'])
        .map_or(0, |at| at + 1);
    assert!(
        text[line_start..span.end].contains("urlint:"),
        "{rule:?} at {span:?} is on no directive's line"
    );
}

/// Check that the source pieces of a validator finding spell exactly the
/// URL bytes under `url_span`.
fn check_mapping(text: &str, found: &Found, url_span: UrlSpan, pieces: &[SourceSpan], rule: Rule) {
    assert!(
        span_in(&found.url, url_span),
        "{rule:?} URL span {url_span:?} is not a char range of {:?}",
        found.url
    );
    if url_span.is_empty() {
        return;
    }
    let spelled: String = pieces.iter().map(|span| &text[span.range()]).collect();
    assert_eq!(
        spelled,
        &found.url[url_span.range()],
        "{rule:?} source pieces {pieces:?} do not spell URL span {url_span:?}"
    );
}

/// A message whose MIME structure was built from fuzz bytes, and the URLs
/// its text parts hold.
#[derive(Debug)]
pub struct NestedMail {
    /// The archive: one message, as an `.eml` or an mbox of one.
    pub archive: Vec<u8>,
    /// Read it as this kind.
    pub kind: MailKind,
    /// One URL per text part, each different.
    pub urls: Vec<String>,
}

/// Build a message of nested multiparts, message/rfc822 parts and text
/// parts from `bytes`: each byte read chooses the next part's kind, its
/// transfer encoding, charset, boundary and whether it is closed, so that
/// libFuzzer explores deep and broken structures (shared and empty
/// boundaries, unclosed multiparts, encoded messages inside messages, more
/// levels than the reader descends).
pub fn nested_mail(bytes: &[u8]) -> NestedMail {
    let mut builder = MimeBuilder {
        bytes,
        at: 0,
        urls: Vec::new(),
        boundaries: 0,
        size: 0,
        late_closes: Vec::new(),
    };
    let mbox = builder.byte() & 1 == 1;
    let mut archive = Vec::new();
    if mbox {
        archive.extend_from_slice(b"From a@example.org Mon Jan  1 00:00:00 2024\n");
    }
    archive.extend_from_slice(b"From: a@example.org\nSubject: nested\nMIME-Version: 1.0\n");
    archive.extend(builder.part(0, 0, None));
    NestedMail {
        archive,
        kind: if mbox { MailKind::Mbox } else { MailKind::Eml },
        urls: builder.urls,
    }
}

/// Levels the builder may nest: more than the reader descends (64).
const MAX_BUILT_DEPTH: usize = 80;

/// Messages encoded inside encoded messages: each base64 level grows the
/// message by a third, so a few are all a fuzz input may ask for.
const MAX_ENCODED_MESSAGES: usize = 3;

/// Bytes a built message may reach before every further part is a leaf.
const MAX_BUILT_BYTES: usize = 1 << 20;

/// Writes one MIME part at a time from the fuzz bytes.
struct MimeBuilder<'b> {
    bytes: &'b [u8],
    at: usize,
    urls: Vec<String>,
    boundaries: usize,
    size: usize,
    /// Close delimiters held back, to be written after the next close
    /// delimiter of a multipart around them (closed out of order).
    late_closes: Vec<String>,
}

impl MimeBuilder<'_> {
    /// The next byte; zeros once the input is used up, which make leaves.
    fn byte(&mut self) -> u8 {
        let byte = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        byte
    }

    /// One part: its header fields, a blank line and its body. `parent` is
    /// the boundary of the multipart it is in, which a child may reuse.
    fn part(&mut self, depth: usize, encoded: usize, parent: Option<&str>) -> Vec<u8> {
        let choice = self.byte();
        let room = depth < MAX_BUILT_DEPTH && self.size < MAX_BUILT_BYTES;
        let part = match choice % 8 {
            5 | 6 if room => self.multipart(choice, depth, encoded, parent),
            7 if room => self.message(choice, depth, encoded),
            4 => self.text(choice, true),
            _ => self.text(choice, false),
        };
        self.size += part.len();
        part
    }

    /// A text part holding a URL of its own, in one of the transfer
    /// encodings and charsets.
    fn text(&mut self, choice: u8, html: bool) -> Vec<u8> {
        let url = format!("http://p{}.example/~x", self.urls.len());
        let body = if html {
            format!("<p>see <a href=\"{url}\">{url}</a> now</p>\n")
        } else {
            format!("first line\nsee {url} now\n")
        };
        self.urls.push(url);
        let media = if html { "text/html" } else { "text/plain" };
        let charset = match (choice >> 3) % 6 {
            0 => "",
            1 => "; charset=utf-8",
            2 => "; charset=iso-8859-1",
            3 => "; charset=us-ascii",
            4 => "; charset=utf-16",
            _ => "; charset=iso-2022-kr",
        };
        let (encoding, body) = match (choice >> 6) % 3 {
            0 => ("7bit", body.into_bytes()),
            1 => ("quoted-printable", body.into_bytes()),
            _ => ("base64", base64(body.as_bytes())),
        };
        let mut part =
            format!("Content-Type: {media}{charset}\nContent-Transfer-Encoding: {encoding}\n\n")
                .into_bytes();
        part.extend(body);
        part
    }

    /// A multipart of up to three parts: boundary new, shared with the
    /// multipart around it, or empty; closed, closed only after the
    /// multipart around it, or not.
    fn multipart(
        &mut self,
        choice: u8,
        depth: usize,
        encoded: usize,
        parent: Option<&str>,
    ) -> Vec<u8> {
        let shape = self.byte();
        let boundary = match (shape >> 2) % 8 {
            0 => String::new(),
            1 => parent.unwrap_or("b").to_string(),
            _ => {
                self.boundaries += 1;
                format!("b{}", self.boundaries)
            }
        };
        let subtype = ["mixed", "alternative", "related", "digest"][usize::from(choice >> 6)];
        let mut part =
            format!("Content-Type: multipart/{subtype}; boundary=\"{boundary}\"\n\npreamble\n")
                .into_bytes();
        let held_back = self.late_closes.len();
        for _ in 0..shape % 4 {
            part.extend(format!("--{boundary}\n").into_bytes());
            part.extend(self.part(depth + 1, encoded, Some(&boundary)));
            part.push(b'\n');
        }
        let close = format!("--{boundary}--\nepilogue\n");
        let closed = shape & 0x80 == 0;
        let late = closed && parent.is_some() && shape & 0x60 == 0x60;
        if late {
            self.late_closes.push(close);
        } else if closed {
            part.extend(close.into_bytes());
        }
        // Held-back closes follow the first close written after them, and
        // never leave the message they belong to.
        if (closed && !late) || parent.is_none() {
            for held in self.late_closes.drain(held_back..) {
                part.extend(held.into_bytes());
            }
        }
        part
    }

    /// A message/rfc822 part: a nested message, as it is or encoded.
    fn message(&mut self, choice: u8, depth: usize, encoded: usize) -> Vec<u8> {
        let encoding = match (choice >> 3) % 4 {
            _ if encoded >= MAX_ENCODED_MESSAGES => "7bit",
            1 => "base64",
            2 => "quoted-printable",
            _ => "7bit",
        };
        let deeper = encoded + usize::from(encoding != "7bit");
        let mut inner = format!("Subject: level {depth}\n").into_bytes();
        inner.extend(self.part(depth + 1, deeper, None));
        let body = if encoding == "base64" {
            base64(&inner)
        } else {
            inner
        };
        let mut part =
            format!("Content-Type: message/rfc822\nContent-Transfer-Encoding: {encoding}\n\n")
                .into_bytes();
        part.extend(body);
        part
    }
}

/// `bytes` in base64, in lines of 76 characters.
fn base64(bytes: &[u8]) -> Vec<u8> {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut encoded = Vec::with_capacity(bytes.len() * 4 / 3 + bytes.len() / 57 + 4);
    for (index, chunk) in bytes.chunks(3).enumerate() {
        if index > 0 && index % 19 == 0 {
            encoded.push(b'\n');
        }
        let word = chunk.iter().enumerate().fold(0u32, |word, (at, &byte)| {
            word | u32::from(byte) << (16 - 8 * at)
        });
        for at in 0..4 {
            encoded.push(if at <= chunk.len() {
                ALPHABET[(word >> (18 - 6 * at)) as usize & 63]
            } else {
                b'='
            });
        }
    }
    encoded.push(b'\n');
    encoded
}

/// Build a nested message from `bytes` ([`nested_mail`]) and check it: the
/// mail invariants of [`check_mail`]; every text part's URL is found in the
/// decoded texts unless the message has a warning (no part is dropped
/// silently); and a URL found where the map is byte-for-byte spells, in
/// the archive, exactly the URL (every URL maps back into the archive).
pub fn check_nested_mail(bytes: &[u8]) {
    let built = nested_mail(bytes);
    check_mail(&built.archive, built.kind);
    let options = LintOptions::default();
    let mut messages = mail::read(&built.archive[..], built.kind);
    let Some(Ok(message)) = messages.next() else {
        panic!("a built message read as none");
    };
    assert!(
        messages.next().is_none(),
        "one built message read as several"
    );
    let mut found = Vec::new();
    for text in &message.texts {
        for report in lint_markup(&text.text, text.markup, &options).filter_map(Linted::into_url) {
            check_spelled_in_archive(&built.archive, text, &report.found);
            found.push(report.found.url);
        }
    }
    if message.warnings.is_empty() {
        for url in &built.urls {
            assert!(
                found.contains(url),
                "{url} of a text part is in no decoded text, without a warning"
            );
        }
    }
}

/// Check that `found`, a URL of `text`, is written as itself in the
/// archive when its text maps there byte for byte.
fn check_spelled_in_archive(archive: &[u8], text: &MailText, found: &Found) {
    let outer = found.outer;
    let exact = text
        .map
        .pieces()
        .iter()
        .filter(|piece| piece.text.start < outer.end && outer.start < piece.text.end)
        .all(|piece| piece.exact);
    if !exact {
        return;
    }
    let raw: Vec<u8> = text
        .map
        .raw_spans(outer.of())
        .iter()
        .flat_map(|span| archive[span.range()].iter().copied())
        .collect();
    assert_eq!(
        String::from_utf8_lossy(&raw),
        &text.text[outer.range()],
        "part {} maps its URL to other archive bytes",
        text.part.path
    );
}
