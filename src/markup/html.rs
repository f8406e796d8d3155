//! HTML read through html5gum, a WHATWG-conformant tokenizer: the visible
//! text (scripts and styles left out) becomes prose, URL-bearing attribute
//! values become links, and both keep a map onto the source bytes through
//! character-reference decoding.
//!
//! The tokenizer decodes references itself, with the full HTML5 table and
//! the specification's rules for references without `;` and in attributes.
//! It reports the byte offset of the text and value starts, and every
//! decoded piece is handed to the emitter right after the input bytes it
//! came from were consumed, so following the input position piece by piece
//! places each decoded byte: a piece equal to its input bytes maps byte for
//! byte, a reference maps as a whole.

use std::convert::Infallible;

use html5gum::emitters::callback::{Callback, CallbackEmitter, CallbackEvent};
use html5gum::{Emitter, ForwardingEmitter, Span as TokenSpan, Tokenizer};

use super::attribute::{self, Attribute};
use super::document::{Decoded, Document, Link, LinkSyntax, ProseBuilder};
use super::unclosed::{Construct, Unclosed};
use crate::offset_map::OffsetMap;
use crate::span::Span;

/// Elements whose content is not visible text.
const HIDDEN_ELEMENTS: &[&[u8]] = &[b"script", b"style"];

/// Elements whose content is code or program output: read as prose only
/// when verbatim text is wanted, as Markdown's code is. `tt` is HTML 4's
/// teletype text, which docutils' HTML writer gives reST's inline
/// literals.
const VERBATIM_ELEMENTS: &[&[u8]] = &[b"code", b"pre", b"kbd", b"samp", b"tt"];

/// Read a whole HTML document; `verbatim` reads code elements as prose too.
pub(crate) fn document(source: &str, verbatim: bool) -> Document {
    let tokens = tokenize(source, verbatim);
    let mut prose = ProseBuilder::new(source);
    for text in &tokens.texts {
        prose.append(text);
    }
    let (prose, map, blank_starts) = prose.finish();
    Document {
        prose,
        map,
        blank_starts,
        links: tokens.links,
        plain_text_blocks: Vec::new(),
        unclosed: tokens.unclosed.map(|(construct, swallowed)| Unclosed {
            construct,
            swallowed: swallowed.of(),
        }),
    }
}

/// Read an HTML fragment of a larger document (an HTML block or inline tag
/// in Markdown): `fragment` is its text and `map` places it in the source.
/// Its visible text joins `prose`, its link values `links`; `verbatim`
/// reads code elements as prose too. Returns what the fragment left open
/// at its end, placed in the source.
pub(crate) fn fragment(
    fragment: &str,
    map: &OffsetMap,
    verbatim: bool,
    prose: &mut ProseBuilder<'_>,
    links: &mut Vec<Link>,
) -> Option<Unclosed> {
    let tokens = tokenize(fragment, verbatim);
    let unclosed = tokens.unclosed.and_then(|(construct, swallowed)| {
        let swallowed = map.raw_span(swallowed)?;
        Some(Unclosed {
            construct,
            swallowed: swallowed.of(),
        })
    });
    for text in tokens.texts {
        prose.append(&text.through(map));
    }
    links.extend(tokens.links.into_iter().map(|link| {
        let placed = Decoded {
            text: link.value,
            map: link.map,
        }
        .through(map);
        placed.into_link(LinkSyntax::Html)
    }));
    unclosed
}

/// The text a character reference stands for, when `reference` (`&name;`,
/// `&#38;`, `&#x26;`) is one reference and nothing else, decoded as the
/// tokenizer decodes references in text.
pub(crate) fn decode_reference(reference: &str) -> Option<String> {
    let tokens = tokenize(reference, true);
    let [text] = tokens.texts.as_slice() else {
        return None;
    };
    let [piece] = text.map.pieces() else {
        return None;
    };
    let whole = piece.raw == Span::new(0, reference.len()) && !piece.exact;
    whole.then(|| text.text.clone())
}

/// What tokenizing an HTML text gives, in its own offsets.
#[derive(Debug, Default)]
struct Tokens {
    /// Runs of visible text, decoded.
    texts: Vec<Decoded>,
    /// URL-bearing attribute values, decoded and cut to each URL.
    links: Vec<Link>,
    /// What the text ended inside of, from its opening to the end.
    unclosed: Option<(Construct, Span)>,
}

/// Quoted attribute values in one tag past which the tokenizer runs on a
/// thread of its own with [`TOKENIZER_STACK`]: html5gum's state machine
/// recurses once per quoted attribute of a tag, and a few hundred of them
/// overflow a worker thread's stack in a debug build (8,000 in a release
/// build aborted the whole run).
const CROWDED_TAG: usize = 64;

/// Quoted attribute values in one tag past which the tag is read as blank
/// space (its bytes, not its offsets, dropped): no stack holds the
/// recursion of an unbounded tag.
const MAX_QUOTED_ATTRIBUTES: usize = 20_000;

/// The stack of the thread that tokenizes a document with a crowded tag:
/// room for [`MAX_QUOTED_ATTRIBUTES`] levels of the tokenizer's recursion,
/// reserved, not used, by the tags that do not need it.
const TOKENIZER_STACK: usize = 256 << 20;

/// Tokenize `html`; `verbatim` keeps the text of code elements. A document
/// with a crowded tag is tokenized on a thread with a deep stack, and a tag
/// beyond any stack is blanked first (see [`MAX_QUOTED_ATTRIBUTES`]).
fn tokenize(html: &str, verbatim: bool) -> Tokens {
    let (most, beyond) = crowded_tags(html);
    if most <= CROWDED_TAG {
        return tokenize_here(html, verbatim);
    }
    let blanked;
    let html = match beyond.is_empty() {
        true => html,
        false => {
            let mut bytes = html.as_bytes().to_vec();
            for tag in beyond {
                bytes[tag].fill(b' ');
            }
            // Only whole tags, from `<` to `>`, became spaces.
            blanked = String::from_utf8(bytes).unwrap_or_default();
            blanked.as_str()
        }
    };
    let on_own_stack = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("urlint-html".to_owned())
            .stack_size(TOKENIZER_STACK)
            .spawn_scoped(scope, || tokenize_here(html, verbatim))
            .ok()
            .and_then(|handle| handle.join().ok())
    });
    on_own_stack.unwrap_or_else(|| tokenize_here(html, verbatim))
}

/// The most quoted attribute values any tag of `html` holds, and the byte
/// ranges of the tags holding more than [`MAX_QUOTED_ATTRIBUTES`], by a
/// scan of the bytes (a quote opens a value only inside a tag).
fn crowded_tags(html: &str) -> (usize, Vec<std::ops::Range<usize>>) {
    let bytes = html.as_bytes();
    let (mut most, mut beyond) = (0, Vec::new());
    let mut at = 0;
    while let Some(open) = memchr::memchr(b'<', &bytes[at..]).map(|found| at + found) {
        at = open + 1;
        if !bytes.get(at).is_some_and(u8::is_ascii_alphabetic) {
            continue;
        }
        let (mut quoted, mut quote) = (0, None);
        while at < bytes.len() {
            match (quote, bytes[at]) {
                (None, b'>') => break,
                (None, b @ (b'"' | b'\'')) => {
                    quote = Some(b);
                    quoted += 1;
                }
                (Some(q), b) if b == q => quote = None,
                _ => {}
            }
            at += 1;
        }
        most = most.max(quoted);
        if quoted > MAX_QUOTED_ATTRIBUTES {
            beyond.push(open..(at + 1).min(bytes.len()));
        }
    }
    (most, beyond)
}

/// [`tokenize`] on this thread's stack.
fn tokenize_here(html: &str, verbatim: bool) -> Tokens {
    let mut tokens = Tokens::default();
    let collector = Collector {
        html,
        tokens: &mut tokens,
        text_pieces: Vec::new(),
        value_pieces: Vec::new(),
        tag: Vec::new(),
        attribute: Vec::new(),
        attributes: Vec::new(),
        hidden: false,
        verbatim,
        in_code: 0,
    };
    let mut emitter = CallbackEmitter::new(collector);
    // Script and style content is raw text: `<` in it opens no tag.
    emitter.naively_switch_states(true);
    let tracked = Tracked {
        inner: emitter,
        position: 0,
        markup_start: 0,
        open: None,
        hidden_since: None,
    };
    let Ok(()) = Tokenizer::new_with_emitter(html, tracked).finish();
    tokens
}

/// A decoded piece as handed to the emitter: where the input bytes it came
/// from end, and its length.
type PieceEnd = (usize, usize);

/// Collects the tokenizer's events into [`Tokens`].
struct Collector<'t> {
    html: &'t str,
    tokens: &'t mut Tokens,
    /// Pieces of the text run being read.
    text_pieces: Vec<PieceEnd>,
    /// Pieces of the attribute value being read.
    value_pieces: Vec<PieceEnd>,
    /// The name of the start tag being read.
    tag: Vec<u8>,
    /// The name of the attribute being read.
    attribute: Vec<u8>,
    /// The attributes of the start tag being read.
    attributes: Vec<Attribute>,
    /// Inside an element whose content is not visible.
    hidden: bool,
    /// Keep the text of code elements.
    verbatim: bool,
    /// How many code elements are open around the text being read.
    in_code: usize,
}

impl Callback<Infallible, usize> for Collector<'_> {
    fn handle_event(
        &mut self,
        event: CallbackEvent<'_>,
        span: TokenSpan<usize>,
    ) -> Option<Infallible> {
        match event {
            CallbackEvent::OpenStartTag { name } => {
                self.tag = name.to_vec();
                self.attributes.clear();
            }
            CallbackEvent::AttributeName { name } => self.attribute = name.to_vec(),
            CallbackEvent::AttributeValue { value } => {
                if self.tokens.unclosed.is_none() {
                    self.tokens.unclosed = overrun_value(self.html, span.start, span.end);
                }
                let pieces = std::mem::take(&mut self.value_pieces);
                let value = decoded(self.html, value, span.start, &pieces);
                self.attributes.push(Attribute {
                    name: std::mem::take(&mut self.attribute),
                    value,
                });
            }
            CallbackEvent::CloseStartTag { self_closing } => {
                let links = attribute::links(&self.tag, &self.attributes);
                self.tokens.links.extend(links);
                self.attributes.clear();
                self.hidden = HIDDEN_ELEMENTS.contains(&self.tag.as_slice());
                if VERBATIM_ELEMENTS.contains(&self.tag.as_slice()) && !self_closing {
                    self.in_code += 1;
                }
            }
            CallbackEvent::EndTag { name } => {
                if HIDDEN_ELEMENTS.contains(&name) {
                    self.hidden = false;
                }
                if VERBATIM_ELEMENTS.contains(&name) {
                    self.in_code = self.in_code.saturating_sub(1);
                }
            }
            CallbackEvent::String { value } => {
                let pieces = std::mem::take(&mut self.text_pieces);
                if !self.hidden && (self.verbatim || self.in_code == 0) {
                    let text = decoded(self.html, value, span.start, &pieces);
                    self.tokens.texts.push(text);
                }
            }
            CallbackEvent::Comment { .. }
            | CallbackEvent::Doctype { .. }
            | CallbackEvent::Error(_) => {}
        }
        None
    }
}

/// The quoted attribute value at `start..end` of `html`, from its quote
/// to its closing one, when it runs over a line break and an end tag: what
/// a value meant as text does not hold, and a quote left unclosed gives,
/// the value running on to the quote that opens a later one.
fn overrun_value(html: &str, start: usize, end: usize) -> Option<(Construct, Span)> {
    let quote = start.checked_sub(1)?;
    let bytes = html.as_bytes();
    let value = bytes.get(start..end)?;
    let quoted = matches!(bytes[quote], b'"' | b'\'') && bytes.get(end) == Some(&bytes[quote]);
    let end_tag = memchr::memmem::find_iter(value, b"</")
        .any(|at| value.get(at + 2).is_some_and(u8::is_ascii_alphabetic));
    let overrun = quoted && memchr::memchr2(b'\n', b'\r', value).is_some() && end_tag;
    overrun.then(|| (Construct::OverrunValue, Span::new(quote, end + 1)))
}

/// The tokenizer's emitter, with the input position followed, every
/// decoded piece noted where its input bytes end, and what is open that
/// only a closing delimiter ends, for the end of the text to tell.
struct Tracked<'t> {
    inner: CallbackEmitter<Collector<'t>, Infallible, usize>,
    position: usize,
    /// Where the `<` of the tag or comment being read (or the last one) is.
    markup_start: usize,
    /// The tag, quoted attribute value or comment being read, and where it
    /// opened: a tag or a comment at its `<`, a value at its quote.
    open: Option<(Construct, usize)>,
    /// The hidden element whose content is being read, at its tag's `<`.
    hidden_since: Option<(Construct, usize)>,
}

impl Tracked<'_> {
    /// What the text ended inside of, once the tokenizer reached its end.
    fn left_open(&mut self) -> Option<(Construct, Span)> {
        let html = self.inner.callback_mut().html.as_bytes();
        let (construct, at) = match self.open {
            // Only its own quote ends a quoted value: one after it means
            // the value closed and the tag around it did not.
            Some((Construct::QuotedValue, quote))
                if memchr::memchr(html[quote], &html[quote + 1..]).is_some() =>
            {
                (Construct::Tag, self.markup_start)
            }
            Some(open) => open,
            None => self.hidden_since?,
        };
        Some((construct, Span::new(at, html.len())))
    }
}

impl ForwardingEmitter for Tracked<'_> {
    type Token = Infallible;

    fn inner(&mut self) -> &mut impl Emitter<Token = Infallible> {
        &mut self.inner
    }

    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn move_position(&mut self, offset: isize) {
        self.position = self.position.saturating_add_signed(offset);
        self.inner.move_position(offset);
    }

    // The `<` has been read.
    fn start_open_tag(&mut self) {
        self.markup_start = self.position.saturating_sub(1);
        self.inner.start_open_tag();
    }

    fn init_start_tag(&mut self) {
        self.open = Some((Construct::Tag, self.markup_start));
        self.inner.init_start_tag();
    }

    fn init_end_tag(&mut self) {
        self.open = Some((Construct::Tag, self.markup_start));
        self.inner.init_end_tag();
    }

    // The value before this attribute, if quoted, was closed.
    fn init_attribute(&mut self) {
        self.open = Some((Construct::Tag, self.markup_start));
        self.inner.init_attribute();
    }

    // A quoted value starts after its quote; an unquoted one at its first
    // byte, after `=` or a space.
    fn init_attribute_value(&mut self) {
        let html = self.inner.callback_mut().html.as_bytes();
        let quote = self.position.checked_sub(1);
        if let Some(quote) = quote.filter(|&at| matches!(html.get(at), Some(b'"' | b'\''))) {
            self.open = Some((Construct::QuotedValue, quote));
        }
        self.inner.init_attribute_value();
    }

    fn emit_current_tag(&mut self) -> Option<html5gum::State> {
        self.open = None;
        let state = self.inner.emit_current_tag();
        let collector = self.inner.callback_mut();
        self.hidden_since = match (collector.hidden, self.hidden_since) {
            (false, _) => None,
            (true, None) => {
                let construct = match collector.tag.as_slice() {
                    b"style" => Construct::Style,
                    _ => Construct::Script,
                };
                Some((construct, self.markup_start))
            }
            (true, since) => since,
        };
        state
    }

    fn init_comment(&mut self) {
        self.open = Some((Construct::Comment, self.markup_start));
        self.inner.init_comment();
    }

    // A comment is emitted at its end and at the end of the text alike;
    // only after its end does the text go on, from a new string.
    fn init_string(&mut self) {
        if matches!(self.open, Some((Construct::Comment, _))) {
            self.open = None;
        }
        self.inner.init_string();
    }

    fn emit_eof(&mut self) {
        self.inner.emit_eof();
        let unclosed = self.left_open();
        let tokens = &mut self.inner.callback_mut().tokens;
        tokens.unclosed = tokens.unclosed.or(unclosed);
    }

    fn emit_string(&mut self, piece: &[u8]) {
        let end = (self.position, piece.len());
        self.inner.callback_mut().text_pieces.push(end);
        self.inner.emit_string(piece);
    }

    fn push_attribute_value(&mut self, piece: &[u8]) {
        let end = (self.position, piece.len());
        self.inner.callback_mut().value_pieces.push(end);
        self.inner.push_attribute_value(piece);
    }
}

/// A decoded text or value starting at `start` of `html`, from the pieces
/// it was handed in. A piece equal to its input bytes is copied; one that
/// is not (a reference, a line break normalised to `\n`) maps as a whole.
/// Should the pieces not add up to the value, the value maps as a whole.
fn decoded(html: &str, value: &[u8], start: usize, pieces: &[PieceEnd]) -> Decoded {
    let text = String::from_utf8_lossy(value).into_owned();
    let mut map = OffsetMap::new();
    let end = pieces.last().map_or(start, |&(end, _)| end.max(start));
    let consistent = text.len() == value.len()
        && pieces.iter().map(|&(_, len)| len).sum::<usize>() == value.len()
        && pieces.windows(2).all(|pair| pair[0].0 <= pair[1].0)
        && end <= html.len();
    if !consistent {
        map.push(Span::new(0, text.len()), Span::new(start, end), false);
        return Decoded { text, map };
    }
    // (text, raw, exact) per piece, before they go into the map: the `\n`
    // of a `\r\n` pair is consumed with the next piece and belongs to the
    // `\r` that became `\n`.
    let mut placed: Vec<(Span, Span, bool)> = Vec::with_capacity(pieces.len());
    let (mut raw_start, mut text_start) = (start.min(end), 0);
    for &(raw_end, len) in pieces {
        let mut raw = Span::new(raw_start, raw_end.max(raw_start));
        let piece = Span::new(text_start, text_start + len);
        let input = &html.as_bytes()[raw.range()];
        let output = &value[piece.range()];
        let after_cr = placed
            .last()
            .is_some_and(|&(_, last, _)| html.as_bytes()[last.range()] == *b"\r");
        if after_cr && input.first() == Some(&b'\n') && &input[1..] == output {
            if let Some(last) = placed.last_mut() {
                last.1.end += 1;
            }
            raw.start += 1;
        }
        raw.start += dropped_end_tag(&html.as_bytes()[raw.range()], output);
        let exact = &html.as_bytes()[raw.range()] == output;
        placed.push((piece, raw, exact));
        raw_start = raw_end.max(raw_start);
        text_start = piece.end;
    }
    for (piece, raw, exact) in placed {
        map.push(piece, raw, exact);
    }
    Decoded { text, map }
}

/// The length of an end tag without a name (`</>`) that opens `input`
/// and that the tokenizer dropped, going on with the text after it in the
/// same piece (`output`); 0 when there is none. The piece is then the
/// input's tail, byte for byte: mapped as a whole, two URLs in it would
/// share one span.
fn dropped_end_tag(input: &[u8], output: &[u8]) -> usize {
    let Some(dropped) = input.len().checked_sub(output.len()) else {
        return 0;
    };
    let (tag, tail) = input.split_at(dropped);
    let is_empty_end_tag = tag.starts_with(b"</") && tag.ends_with(b">");
    if is_empty_end_tag && tail == output {
        dropped
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crowded_tags_are_counted_and_the_unbounded_ones_found() {
        assert_eq!(crowded_tags("<p a=\"1\" b='2' c=3>x</p>"), (2, vec![]));
        // A quote in text or a '>' inside a value does not end or start a tag.
        assert_eq!(crowded_tags("it's <a title=\"a>b\" x=\"y\">"), (2, vec![]));
        let many: String = (0..=MAX_QUOTED_ATTRIBUTES)
            .map(|n| format!(" a{n}=\"\""))
            .collect();
        let html = format!("x <p{many}>y");
        let (most, beyond) = crowded_tags(&html);
        assert_eq!(most, MAX_QUOTED_ATTRIBUTES + 1);
        assert_eq!(beyond, vec![2..html.len() - 1]);
    }

    /// Each link value with the source bytes each of its pieces maps to.
    fn links(html: &str) -> Vec<(String, Vec<&str>)> {
        document(html, false)
            .links
            .iter()
            .map(|link| {
                let pieces = link
                    .map
                    .pieces()
                    .iter()
                    .map(|piece| &html[piece.raw.range()])
                    .collect();
                (link.value.clone(), pieces)
            })
            .collect()
    }

    #[test]
    fn whatwg_attribute_values_decode_named_references_piece_by_piece() {
        let html = r#"<p><a href="http://a.example/?x=1&amp;y=2&eacute;z" title=t>a</a>"#;
        assert_eq!(
            links(html),
            [(
                "http://a.example/?x=1&y=2éz".to_string(),
                vec!["http://a.example/?x=1", "&amp;", "y=2", "&eacute;", "z"]
            )]
        );
    }

    #[test]
    fn whatwg_unquoted_single_quoted_and_spaced_values() {
        let html = "<img src=http://a.example/i.png alt='x'><a HREF=' ftp://b.example/ '>";
        let values: Vec<String> = links(html).into_iter().map(|(value, _)| value).collect();
        assert_eq!(values, ["http://a.example/i.png", "ftp://b.example/"]);
        let document = document(html, false);
        let ftp = &document.links[1];
        assert_eq!(&html[ftp.outer.range()], "ftp://b.example/");
    }

    #[test]
    fn a_tags_links_come_in_the_order_of_its_attributes() {
        // A refresh target, a srcset's candidates and URL attributes, each
        // where its attribute is: the document's links are in source order.
        let html = "<meta content=\"0; url=http://a.example/\" http-equiv=refresh \
                    src=http://b.example/ content=\"1; url=http://not.example/\">\
                    <img srcset=\"http://c.example/1 1x, http://d.example/2 2x\" \
                    src=http://e.example/>";
        let values: Vec<String> = links(html).into_iter().map(|(value, _)| value).collect();
        assert_eq!(
            values,
            [
                "http://a.example/",
                "http://b.example/",
                "http://c.example/1",
                "http://d.example/2",
                "http://e.example/",
            ]
        );
        let links = document(html, false).links;
        assert!(links.is_sorted_by_key(|link| link.outer.start));
    }
    #[test]
    fn whatwg_visible_text_is_decoded_and_scripts_and_styles_are_blank() {
        let html = "<p>see &lt;URL:http://a.example/&gt;&nbsp;now</p>\
                    <script>var u = \"http://s.example/\";</script>\
                    <style>a{background:url(http://c.example/)}</style><!-- http://m.example/ -->";
        let document = document(html, false);
        assert!(document
            .prose
            .contains("see <URL:http://a.example/>\u{a0}now"));
        assert!(!document.prose.contains("s.example"));
        assert!(!document.prose.contains("c.example"));
        assert!(!document.prose.contains("m.example"));
        let lt = document.prose.find('<').expect("decoded");
        assert_eq!(
            document.map.raw_span(Span::new(lt, lt + 1)),
            Some(Span::new(7, 11))
        );
        let url = document.prose.find("http").expect("url");
        let raw = document.map.raw_span(Span::new(url, url + 17));
        assert_eq!(raw.map(|raw| &html[raw.range()]), Some("http://a.example/"));
    }

    #[test]
    fn code_elements_are_prose_only_when_verbatim() {
        let html = "<p>see http://a.example/</p><pre>curl http://b.example/</pre>\
                    <p><code>http://c.example/</code> and <samp>http://d.example/</samp></p>\
                    <p><tt class=\"docutils literal\"><span class=\"pre\">base=\"http://e.example/\"\
                    </span></tt> then http://f.example/</p>";
        let prose = document(html, false).prose;
        assert!(prose.contains("http://a.example/"));
        assert!(
            prose.contains("http://f.example/"),
            "text after a tt element"
        );
        let code = ["b.example", "c.example", "d.example", "e.example"];
        for hidden in code {
            assert!(!prose.contains(hidden), "{hidden}");
        }
        let verbatim = document(html, true).prose;
        assert!(code.iter().all(|url| verbatim.contains(url)));
    }

    #[test]
    fn whatwg_crlf_and_references_without_semicolons_keep_their_places() {
        let html = "a\r\nb &copy x &notit; y";
        let document = document(html, false);
        assert_eq!(document.prose, "a\nb © x ¬it; y");
        let b = document.prose.find('b').expect("b");
        assert_eq!(
            document.map.raw_span(Span::new(b, b + 1)),
            Some(Span::new(3, 4))
        );
        let y = document.prose.find('y').expect("y");
        assert_eq!(
            &html[document
                .map
                .raw_span(Span::new(y, y + 1))
                .expect("y")
                .range()],
            "y"
        );
    }

    #[test]
    fn whatwg_an_end_tag_without_a_name_is_dropped_and_the_text_after_it_keeps_its_place() {
        // Blanked like any other tag, it parts the text around it.
        let html = "<p>k</>://i>mailto:d http://a.example/</p>";
        let document = document(html, false);
        assert_eq!(document.prose.trim(), "k   ://i>mailto:d http://a.example/");
        for text in ["://i", "mailto:d", "http://a.example/"] {
            let at = document.prose.find(text).expect(text);
            let raw = document.map.raw_span(Span::new(at, at + text.len()));
            assert_eq!(raw.map(|raw| &html[raw.range()]), Some(text));
        }
    }

    #[test]
    fn a_single_reference_decodes_alone() {
        assert_eq!(decode_reference("&amp;").as_deref(), Some("&"));
        assert_eq!(decode_reference("&eacute;").as_deref(), Some("é"));
        assert_eq!(decode_reference("&#x26;").as_deref(), Some("&"));
        assert_eq!(decode_reference("&notit;"), None);
        assert_eq!(decode_reference("&bogus;"), None);
        assert_eq!(decode_reference("&amp;x"), None);
    }

    /// What `html` left open, as (construct, the text from its opening).
    fn left_open(html: &str) -> Option<(Construct, &str)> {
        let unclosed = document(html, false).unclosed?;
        Some((unclosed.construct, &html[unclosed.swallowed.range()]))
    }

    #[test]
    fn whatwg_a_text_that_ends_inside_a_value_tag_comment_or_script_says_where_it_opened() {
        use Construct::*;
        let cases: &[(&str, Option<(Construct, &str)>)] = &[
            // 13.2.5.36-37: only its own quote ends a quoted value.
            (
                "<p title=\"oops>see http://a.example/</p>\n",
                Some((QuotedValue, "\"oops>see http://a.example/</p>\n")),
            ),
            ("<p a=\"1\" b='it\"s>x", Some((QuotedValue, "'it\"s>x"))),
            // The value closed, the tag did not.
            (
                "<p a=\"1\" b\nhttp://a.example/",
                Some((Tag, "<p a=\"1\" b\nhttp://a.example/")),
            ),
            (
                "x <a href=http://a.example/",
                Some((Tag, "<a href=http://a.example/")),
            ),
            ("x </p\n", Some((Tag, "</p\n"))),
            (
                "<p>x</p><!-- to do\n<a href=\"http://a.example/\">",
                Some((Comment, "<!-- to do\n<a href=\"http://a.example/\">")),
            ),
            ("<?php echo 1\n", Some((Comment, "<?php echo 1\n"))),
            ("<!-- a>", Some((Comment, "<!-- a>"))),
            (
                "<script>var a = 1;\n<p>http://a.example/",
                Some((Script, "<script>var a = 1;\n<p>http://a.example/")),
            ),
            (
                "<style type=\"text/css\">p {}",
                Some((Style, "<style type=\"text/css\">p {}")),
            ),
            // A value that runs over lines and end tags to a later quote.
            (
                "<p title=\"oops>x</p>\n<a href=\"http://a.example/\">a</a>",
                Some((OverrunValue, "\"oops>x</p>\n<a href=\"")),
            ),
            // Closed, each of them, however near the end.
            ("<p title=\"a\">x</p><!-- c -->", None),
            ("<!-->x<!--->y<!-- a --!>z<!---->", None),
            ("<a href=\"http://a.example/\">", None),
            ("<script>if (a < b) {}</script>http://a.example/", None),
            ("<script src=x></script><style>p{}</style>", None),
            ("<p>a < b, x <3</p>", None),
            // A value may run over lines, or hold an end tag on one line.
            ("<p title=\"one\ntwo\">x</p>", None),
            ("<p data-html=\"<b>x</b>\">y</p>", None),
            ("<p title=\"&lt;/p&gt;\n\">y</p>", None),
        ];
        for (html, expected) in cases {
            assert_eq!(left_open(html), *expected, "{html:?}");
        }
    }

    #[test]
    fn only_the_first_thing_left_open_is_told() {
        let html = "<p title=\"a>x</p>\n<b class=\"c\">d</b><!-- open";
        assert_eq!(
            left_open(html).map(|(construct, _)| construct),
            Some(Construct::OverrunValue)
        );
    }

    #[test]
    fn what_a_fragment_left_open_is_placed_through_its_map() {
        let source = "> <div title=\"x>\n> http://a.example/";
        let map = OffsetMap::identity(Span::new(2, source.len()));
        let mut prose = ProseBuilder::new(source);
        let unclosed = fragment(&source[2..], &map, false, &mut prose, &mut Vec::new());
        let unclosed = unclosed.expect("left open");
        assert_eq!(unclosed.construct, Construct::QuotedValue);
        assert_eq!(
            &source[unclosed.swallowed.range()],
            "\"x>\n> http://a.example/"
        );
    }

    #[test]
    fn a_fragment_is_placed_through_its_map() {
        // `> <a href="http://q.example/">` in a block quote: the fragment
        // is the tag, which starts at offset 2 of the source.
        let source = "> <a href=\"http://q.example/\">";
        let fragment_text = &source[2..];
        let map = OffsetMap::identity(Span::new(2, source.len()));
        let mut prose = ProseBuilder::new(source);
        let mut found = Vec::new();
        fragment(fragment_text, &map, false, &mut prose, &mut found);
        assert_eq!(found.len(), 1);
        assert_eq!(&source[found[0].outer.range()], "http://q.example/");
    }
}
