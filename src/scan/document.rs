//! The URLs of a document read through its markup: those the scanner finds
//! in the document's prose, placed back on the source bytes, and the link
//! values the markup delimits that are URLs, merged in source order as they
//! are asked for.

use super::found::{Form, Found, Segment};
use super::scanner::Scanner;
use super::scheme::{scheme_then_colon, Schemes};
use crate::markup::{Link, LinkSyntax};
use crate::offset_map::OffsetMap;
use crate::source::Markup;
use crate::span::{SourceSpan, Span, UrlSpan};

/// Characters GitHub's autolinks leave out at the end of a URL in Markdown
/// text: sentence punctuation and emphasis markers.
const GFM_TRAILING: &[u8] = b"?!.,:*_~";

/// A URL the scanner found in a document's prose: its spans index the
/// prose, not the source, until [`in_source`] places it through the
/// document's map.
struct InProse(Found);

/// Every URL of a document, in source order, each placed in the source as
/// it is asked for: the URLs the scanner finds in the document's prose and
/// its links that are URLs. It owns the document's parts (the prose in its
/// scanner) and holds one URL ahead, not the document's list of URLs.
///
/// Both runs are in source order: the scanner finds a prose URL after the
/// one before it, and the prose's map never runs back in the source (its
/// builder blanks or passes each source byte once, in order); the readers
/// give the links in order. Merged, prose URL first where a link starts at
/// the same byte, they come as a stable sort of the prose URLs followed by
/// the links would put them.
pub(super) struct Placed {
    /// The scan of the document's prose.
    prose: Scanner<'static>,
    /// The document's map from prose to source.
    map: OffsetMap,
    /// The document's links that are URLs, in source order. Those handed
    /// on keep their place: a later prose URL may not overlap them either.
    links: Vec<Link>,
    /// How many of `links` were handed on.
    links_placed: usize,
    /// Where in the prose each run of blanked markup starts.
    blank_starts: Vec<usize>,
    /// The prose's next URL, placed, when it waits for links before it.
    next_in_prose: Option<Found>,
    markup: Markup,
    /// Where the URL handed on last starts: the next starts there or
    /// after, as debug builds check.
    last_start: usize,
}

impl Placed {
    /// The URLs of a document written in `markup`: `prose` scans its prose,
    /// `map` places the prose in the source; of its `links` those with a
    /// scheme are URLs; `blank_starts` are where the prose's runs of blanked
    /// markup start.
    pub(super) fn new(
        prose: Scanner<'static>,
        map: OffsetMap,
        mut links: Vec<Link>,
        blank_starts: Vec<usize>,
        markup: Markup,
        schemes: &Schemes,
    ) -> Placed {
        links.retain(|link| is_url(link, schemes));
        debug_assert!(links.is_sorted_by_key(|link| link.outer.start));
        Placed {
            prose,
            map,
            links,
            links_placed: 0,
            blank_starts,
            next_in_prose: None,
            markup,
            last_start: 0,
        }
    }

    /// The next URL of the prose, placed in the source, that no link
    /// overlaps.
    fn placed_from_prose(&mut self) -> Option<Found> {
        loop {
            let mut found = InProse(self.prose.next()?);
            let kept = cut_at_blank(&mut found, &self.blank_starts)
                && (self.markup != Markup::Markdown || trim_gfm_end(&mut found, self.prose.text()));
            if !kept {
                continue;
            }
            let found = in_source(found, &self.map);
            // A wrapper the prose opens and closes across a link's bytes
            // (which the prose has blank) is not one: the markup's link wins.
            if !overlaps_any(found.outer, &self.links) {
                return Some(found);
            }
        }
    }

    /// The next link as a URL.
    fn placed_link(&mut self) -> Found {
        let link = &mut self.links[self.links_placed];
        self.links_placed += 1;
        let place = Link {
            value: String::new(),
            map: OffsetMap::new(),
            outer: link.outer,
            syntax: link.syntax,
        };
        link_found(std::mem::replace(link, place))
    }
}

impl Iterator for Placed {
    type Item = Found;

    fn next(&mut self) -> Option<Found> {
        if self.next_in_prose.is_none() {
            self.next_in_prose = self.placed_from_prose();
        }
        let link_first = match (&self.next_in_prose, self.links.get(self.links_placed)) {
            (Some(prose), Some(link)) => link.outer.start < prose.outer.start,
            (None, link) => link.is_some(),
            (Some(_), None) => false,
        };
        let found = match link_first {
            true => self.placed_link(),
            false => self.next_in_prose.take()?,
        };
        debug_assert!(found.outer.start >= self.last_start, "out of source order");
        self.last_start = found.outer.start;
        Some(found)
    }
}

/// True when `span` overlaps one of `links` (in source order).
fn overlaps_any(span: SourceSpan, links: &[Link]) -> bool {
    let after = links.partition_point(|link| link.outer.end <= span.start);
    links
        .get(after)
        .is_some_and(|link| link.outer.start < span.end)
}

/// True when a link value is a URL: it has a scheme the scanner would take
/// for a bare URL's (a known one, or any followed by `//`) and more than
/// slashes after it. A relative reference (`docs/a.md`, `#top`) is not a
/// URL, nor is a drive letter (`C:`), a path in code (`crate::io`,
/// rustdoc's links) or a scheme a browser runs (`javascript:`).
fn is_url(link: &Link, schemes: &Schemes) -> bool {
    let bytes = link.value.as_bytes();
    let scheme = scheme_then_colon(bytes);
    let rest = bytes.get(scheme + 1..).unwrap_or_default();
    let slashes = rest.starts_with(b"//");
    scheme >= 2
        && !rest.starts_with(b":")
        && rest.iter().any(|&b| b != b'/')
        && (slashes || schemes.is_known(&link.value[..scheme]))
}

/// A link value that is a URL ([`is_url`]) as the scanner hands it on.
fn link_found(link: Link) -> Found {
    let form = match link.syntax {
        LinkSyntax::Markdown | LinkSyntax::Rst => Form::Link,
        LinkSyntax::Html => Form::Attribute,
    };
    let mut segments = Vec::with_capacity(link.map.pieces().len());
    for piece in link.map.pieces() {
        // A link's map runs from its value (the URL) to the source.
        push(&mut segments, piece.raw.of(), piece.text.of(), piece.exact);
    }
    Found {
        url: link.value,
        form,
        outer: link.outer.of(),
        segments,
        alternatives: Vec::new(),
        diagnostics: Vec::new(),
        joins: Vec::new(),
    }
}

/// `found`'s URL with its spans placed in the source through `map`, the
/// document's map from prose to source.
fn in_source(InProse(mut found): InProse, map: &OffsetMap) -> Found {
    let mut segments = Vec::with_capacity(found.segments.len());
    for segment in &found.segments {
        for piece in map.clipped(segment.source.of()) {
            let url_start = segment.url_start + (piece.text.start - segment.source.start);
            let url = UrlSpan::new(url_start, url_start + piece.text.len());
            push(&mut segments, piece.raw.of(), url, piece.exact);
        }
    }
    found.segments = segments;
    let outer: Span = found.outer.of();
    found.outer = map.raw_span(outer).unwrap_or(outer).of();
    for diagnostic in &mut found.diagnostics {
        diagnostic.span = map.raw_span(diagnostic.span).unwrap_or(diagnostic.span);
    }
    found
}

/// Append a segment: source bytes `source` give the URL bytes `url`,
/// copied (`exact`) or decoded. A copy that continues the previous copy in
/// both merges with it.
fn push(segments: &mut Vec<Segment>, source: SourceSpan, url: UrlSpan, exact: bool) {
    if url.is_empty() {
        return;
    }
    if !exact {
        segments.push(Segment::decoded(source, url));
        return;
    }
    if let Some(last) = segments.last_mut() {
        let continues =
            last.is_copied() && last.source.end == source.start && last.url().end == url.start;
        if continues {
            last.source.end = source.end;
            return;
        }
    }
    segments.push(Segment::copied(source, url.start));
}

/// Leave out of an undelimited URL in Markdown text what GitHub's
/// autolinks leave out at its end: sentence punctuation and emphasis
/// markers (`*`, `_`, `~`), and a would-be character reference
/// (`&hellip;`). False when only the scheme and its colon are left
/// (`**http:**`): no URL at all.
fn trim_gfm_end(InProse(found): &mut InProse, prose: &str) -> bool {
    // Wrappers and the markup's own link values are delimited: their ends
    // are not guesses.
    if !matches!(found.form, Form::Prefixed | Form::Bare) {
        return true;
    }
    let Some(start) = found.segments.first().map(|segment| segment.source.start) else {
        return true;
    };
    let keep = scheme_then_colon(found.url.as_bytes()) + 1;
    let url = found.url.as_bytes();
    let mut len = url.len();
    loop {
        if len > keep && GFM_TRAILING.contains(&url[len - 1]) {
            len -= 1;
            continue;
        }
        let next = prose.as_bytes().get(start + len);
        if next == Some(&b';') {
            let word = url[..len]
                .iter()
                .rev()
                .take_while(|b| b.is_ascii_alphanumeric())
                .count();
            let amp = len - word;
            if word > 0 && amp > keep && url[amp - 1] == b'&' {
                len = amp - 1;
                continue;
            }
        }
        break;
    }
    if len < url.len() {
        truncate(found, len);
    }
    len > keep
}

/// Cut an undelimited URL that the scanner read across blanked markup where
/// the blank starts, with the whitespace before it: only a template
/// placeholder lets whitespace into such a URL, and one whose closer lies
/// past the markup (`<%) <a href="…%>`) holds what a reader sees as separate
/// text, and source bytes the URL does not hold. False when no more than
/// its scheme and colon are left: no URL at all.
fn cut_at_blank(InProse(found): &mut InProse, blank_starts: &[usize]) -> bool {
    if !matches!(found.form, Form::Prefixed | Form::Bare) {
        return true;
    }
    let (Some(first), Some(last)) = (found.segments.first(), found.segments.last()) else {
        return true;
    };
    let after = blank_starts.partition_point(|&start| start <= first.source.start);
    let Some(&blank) = blank_starts
        .get(after)
        .filter(|&&blank| blank < last.source.end)
    else {
        return true;
    };
    let Some(in_url) = found
        .segments
        .iter()
        .find(|segment| segment.source.start <= blank && blank < segment.source.end)
        .map(|segment| segment.url_start + (blank - segment.source.start))
    else {
        return true;
    };
    let Some(before) = found.url.get(..in_url) else {
        return true;
    };
    let len = before.trim_end().len();
    let keep = scheme_then_colon(found.url.as_bytes()) + 1;
    if len <= keep {
        return false;
    }
    truncate(found, len);
    true
}

/// Shorten a URL found in one piece to its first `len` bytes.
fn truncate(found: &mut Found, len: usize) {
    let cut = found.url.len() - len;
    found.url.truncate(len);
    found.segments.retain_mut(|segment| {
        let url = segment.url();
        if url.end > len {
            segment.source.end = segment
                .source
                .end
                .saturating_sub(url.end - len.max(url.start));
        }
        segment.url().start < len
    });
    found.outer.end = found.outer.end.saturating_sub(cut);
    let end = found.outer.end;
    found
        .diagnostics
        .retain(|diagnostic| diagnostic.span.end <= end);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markup::{Document, DocumentPlan};
    use crate::scan::{placed, scan_markup, scan_prose, ScanOptions};
    use std::borrow::Cow;

    /// Every URL of `document` as they were placed before [`Placed`]: all
    /// of them collected, links and prose URLs, then sorted by where they
    /// start.
    fn collected_and_sorted(
        document: &Document,
        markup: Markup,
        options: &ScanOptions,
    ) -> Vec<Found> {
        let schemes = Schemes::new(&options.extra_schemes);
        let links: Vec<Found> = document
            .links
            .iter()
            .filter(|link| is_url(link, &schemes))
            .map(|link| link_found(link.clone()))
            .collect();
        let overlaps_a_link = |span: SourceSpan| {
            let after = links.partition_point(|link| link.outer.end <= span.start);
            links
                .get(after)
                .is_some_and(|link| link.outer.start < span.end)
        };
        let prose = Cow::Borrowed(document.prose.as_str());
        let blocks = Cow::Borrowed(document.plain_text_blocks.as_slice());
        let in_prose: Vec<InProse> = scan_prose(prose, blocks, options).map(InProse).collect();
        let mut urls: Vec<Found> = in_prose
            .into_iter()
            .filter_map(|mut found| {
                let kept = cut_at_blank(&mut found, &document.blank_starts)
                    && (markup != Markup::Markdown || trim_gfm_end(&mut found, &document.prose));
                kept.then(|| in_source(found, &document.map))
            })
            .filter(|found| !overlaps_a_link(found.outer))
            .collect();
        urls.extend(links);
        urls.sort_by_key(|found| found.outer.start);
        urls
    }

    /// The URLs [`Placed`] gives for every reading of `text` (the whole
    /// document and each reading in part), each checked against
    /// [`collected_and_sorted`]; those of the whole document.
    fn placed_as_sorted(text: &str, markup: Markup, options: &ScanOptions) -> Vec<Found> {
        let schemes = Schemes::new(&options.extra_schemes);
        let plan = DocumentPlan::new(text, markup, options.include_verbatim, text.len())
            .expect("a markup");
        let mut readings = vec![plan.whole()];
        readings.extend(plan.in_part(|_| true));
        let mut whole = None;
        for document in readings {
            let sorted = collected_and_sorted(&document, markup, options);
            let lazily: Vec<Found> = placed(document, markup, options, &schemes).0.collect();
            assert_eq!(lazily, sorted, "{markup:?} {text:?}");
            whole.get_or_insert(lazily);
        }
        whole.unwrap_or_default()
    }

    fn urls(text: &str, markup: Markup) -> Vec<(Form, String, &str)> {
        scan_markup(text, markup, &ScanOptions::default())
            .map(|found| {
                let first = found.segments.first().map_or(found.outer, |s| s.source);
                let last = found.segments.last().map_or(found.outer, |s| s.source);
                (found.form, found.url, &text[first.start..last.end])
            })
            .collect()
    }

    #[test]
    fn gfm_6_9_emphasis_and_punctuation_around_a_bare_url_are_left_out() {
        let text = "*http://a.example/x*, _http://b.example/y_ ~~http://c.example/~~ \
                    **http://d.example/z**. http://e.example/&hellip; http://f.example/_x_";
        let found: Vec<String> = urls(text, Markup::Markdown)
            .into_iter()
            .map(|(_, url, _)| url)
            .collect();
        assert_eq!(
            found,
            [
                "http://a.example/x",
                "http://b.example/y",
                "http://c.example/",
                "http://d.example/z",
                "http://e.example/",
                "http://f.example/_x",
            ]
        );
    }

    #[test]
    fn links_and_prose_urls_come_in_source_order_with_their_forms() {
        let text = "[a](http://l.example/) http://p.example/ <http://auto.example/>\n\n\
                    [r]: http://def.example/ \"t\"\n";
        let found = urls(text, Markup::Markdown);
        assert_eq!(
            found,
            [
                (
                    Form::Link,
                    "http://l.example/".to_string(),
                    "http://l.example/"
                ),
                (
                    Form::Bare,
                    "http://p.example/".to_string(),
                    "http://p.example/"
                ),
                (
                    Form::Link,
                    "http://auto.example/".to_string(),
                    "http://auto.example/"
                ),
                (
                    Form::Link,
                    "http://def.example/".to_string(),
                    "http://def.example/"
                ),
            ]
        );
    }

    #[test]
    fn relative_references_code_paths_and_unknown_schemes_are_not_urls() {
        let text = "[a](docs/a.md) [b](#top) [c](C:/x) [d](//h.example/) [e](mailto:x@y.example) \
                    [f](std::io::Read) [g](http::Request) [h](javascript:void(0)) [i](http://) \
                    [j](x-custom://h.example/) **http:** bold";
        let found: Vec<String> = urls(text, Markup::Markdown)
            .into_iter()
            .map(|(_, url, _)| url)
            .collect();
        assert_eq!(found, ["mailto:x@y.example", "x-custom://h.example/"]);
    }

    #[test]
    fn a_template_placeholder_does_not_take_in_blanked_markup() {
        // Whitespace is let into a bare URL only inside a placeholder; one
        // that the prose would close past markup it has blank ends there.
        let text = "http://<%= host %>/p and http://{{ host }}/x and \
                    http://a.example/<% x <b>y</b> %>z and URL:http:<%) <i>t</i> %> end";
        for markup in [Markup::Markdown, Markup::Html] {
            let found = urls(text, markup);
            let as_read: Vec<(&str, &str)> = found
                .iter()
                .map(|(_, url, source)| (url.as_str(), *source))
                .collect();
            assert_eq!(
                as_read,
                [
                    ("http://<%= host %>/p", "http://<%= host %>/p"),
                    ("http://{{ host }}/x", "http://{{ host }}/x"),
                    ("http://a.example/<% x", "http://a.example/<% x"),
                    ("http:<%)", "http:<%)"),
                ],
                "{markup:?}"
            );
        }
    }

    #[test]
    fn html_references_in_text_and_attributes_map_back_piecewise() {
        let text =
            "<a href=\"http://a.example/?x=1&amp;y=2\">see &lt;URL:http://b.example/&gt;</a>";
        let found: Vec<Found> = scan_markup(text, Markup::Html, &ScanOptions::default()).collect();
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].form, Form::Attribute);
        assert_eq!(found[0].url, "http://a.example/?x=1&y=2");
        assert!(found[0].is_decoded());
        let amp = found[0].url.find('&').expect("decoded &");
        let spans = found[0].source_spans(Span::new(amp, amp + 1));
        assert_eq!(
            spans.iter().map(|s| &text[s.range()]).collect::<Vec<_>>(),
            ["&amp;"]
        );
        assert_eq!(found[1].form, Form::Wrapped);
        assert_eq!(found[1].url, "http://b.example/");
        assert_eq!(
            &text[found[1].outer.range()],
            "&lt;URL:http://b.example/&gt;"
        );
    }

    /// A wrapper whose `<URL:` and `>` the prose has around a link.
    const WRAPPER_ACROSS_A_LINK: &str =
        "<URL:http://w.example/a\n[t](http://l.example/)> http://a.example/ [u](http://m.example/)\n";

    #[test]
    fn the_prose_holds_a_wrapper_across_a_link() {
        let text = WRAPPER_ACROSS_A_LINK;
        let plan = DocumentPlan::new(text, Markup::Markdown, false, text.len()).expect("a markup");
        let document = plan.whole();
        let prose = Cow::Borrowed(document.prose.as_str());
        let found = scan_prose(prose, Cow::Borrowed(&[]), &ScanOptions::default());
        let forms: Vec<Form> = found.map(|found| found.form).collect();
        assert_eq!(forms, [Form::Wrapped, Form::Bare]);
    }

    #[test]
    fn prose_urls_and_links_are_merged_as_sorting_them_all_would_place_them() {
        let options = ScanOptions::default();
        for (text, markup, expected) in [
            // A wrapper the prose opens across a link gives way to it; the
            // URLs after it keep their places among the links.
            (
                WRAPPER_ACROSS_A_LINK,
                Markup::Markdown,
                &[
                    "http://l.example/",
                    "http://a.example/",
                    "http://m.example/",
                ][..],
            ),
            // Links before, between and after prose URLs; a definition
            // read at the end of its run; an image inside a link's text.
            (
                "[![i](http://img.example/)](http://l.example/) http://a.example/ [r] \
                 http://b.example/\n\n[r]: http://def.example/\nhttp://c.example/\n",
                Markup::Markdown,
                &[
                    "http://img.example/",
                    "http://l.example/",
                    "http://a.example/",
                    "http://b.example/",
                    "http://def.example/",
                    "http://c.example/",
                ][..],
            ),
            // A decoded reference before a URL moves the prose against the
            // source; a meta refresh's target where its attribute is.
            (
                "<p>&eacute;&amp; http://a.example/ <meta content=\"0; url=http://r.example/\" \
                 http-equiv=refresh src=http://s.example/> http://b.example/</p>",
                Markup::Html,
                &[
                    "http://a.example/",
                    "http://r.example/",
                    "http://s.example/",
                    "http://b.example/",
                ][..],
            ),
            (
                "See http://a.example/ and `t <http://e.example/>`_.\n\n\
                 .. _r: http://t.example/\n\nhttp://b.example/\n",
                Markup::Rst,
                &[
                    "http://a.example/",
                    "http://e.example/",
                    "http://t.example/",
                    "http://b.example/",
                ][..],
            ),
        ] {
            let found = placed_as_sorted(text, markup, &options);
            let urls: Vec<&str> = found.iter().map(|found| found.url.as_str()).collect();
            assert_eq!(urls, expected, "{markup:?} {text:?}");
        }
    }

    #[test]
    fn a_link_is_made_a_url_only_when_it_is_handed_on() {
        let text = "[a](http://a.example/) http://p.example/ [b](http://b.example/) [c](http://c.example/)";
        let options = ScanOptions::default();
        let plan = DocumentPlan::new(text, Markup::Markdown, false, text.len()).expect("a markup");
        let (mut urls, _) = placed(plan.whole(), Markup::Markdown, &options, &Schemes::new(&[]));
        let first = urls.next().map(|found| found.url);
        assert_eq!(first.as_deref(), Some("http://a.example/"));
        assert_eq!(urls.links_placed, 1);
        let waiting: Vec<&str> = urls.links.iter().map(|link| link.value.as_str()).collect();
        assert_eq!(waiting, ["", "http://b.example/", "http://c.example/"]);
        // The prose URL read ahead waits for the links before it.
        assert_eq!(
            urls.next().map(|found| found.url).as_deref(),
            Some("http://p.example/")
        );
        let rest: Vec<String> = urls.map(|found| found.url).collect();
        assert_eq!(rest, ["http://b.example/", "http://c.example/"]);
    }

    /// Lines of generated documents, read as any markup: links of each
    /// markup, prose URLs, wrappers across links and line breaks, hyphen
    /// breaks, references that move the prose against the source, and the
    /// blocks that hide or keep text.
    fn document_line() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        use proptest::sample::select;
        const LINES: &[&str] = &[
            "",
            "See http://a.example/x and [l](http://l.example/) then http://b.example/.",
            "<URL:http://w.example/[t](http://in.example/)y>",
            "<URL:http://hy-",
            "phen.example/> after",
            "<http://auto.example/> <URL:ftp://f.example/> **http://s.example/**.",
            "[r]: http://def.example/ \"t\"",
            "[x][r] and [r] http://after-ref.example/",
            "<a href=\"http://h.example/?a=1&amp;b\">http://t.example/</a>",
            "<meta content=\"0; url=http://m.example/\" http-equiv=refresh src=http://s.example/>",
            "<img srcset=\"http://c.example/1 1x, http://d.example/2 2x\" src=http://e.example/>",
            "&eacute;&amp;&lt;URL:http://ent.example/&gt; http://a.example/&hellip;",
            "`http://code.example/` and ``` http://fence.example/",
            "```",
            "    indented http://i.example/ and-",
            ".. _t: http://rst.example/",
            "`link <http://emb.example/>`_ and http://p.example/",
            ".. image:: http://img.example/x.png",
            "   :target: http://target.example/",
            "::",
            "    literal http://lit.example/a-",
            "    b/ and http://lit2.example/",
            "- item http://li.example/ <URL:http://li-",
            "  w.example/>",
            "> quote [q](http://q.example/) http://qq.example/",
        ];
        let end = prop_oneof![3 => Just("\n"), 1 => Just("\r\n")];
        (select(LINES), end).prop_map(|(line, end)| format!("{line}{end}"))
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        #[test]
        fn urls_placed_as_asked_for_come_as_all_of_them_sorted(
            lines in proptest::collection::vec(document_line(), 0..40),
            markup in proptest::sample::select(&[Markup::Markdown, Markup::Html, Markup::Rst][..]),
            include_verbatim: bool,
        ) {
            let options = ScanOptions { include_verbatim, ..ScanOptions::default() };
            placed_as_sorted(&lines.concat(), markup, &options);
        }
    }
}
