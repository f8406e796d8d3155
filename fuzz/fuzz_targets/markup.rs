//! Read arbitrary text as Markdown, reStructuredText or HTML with every rule
//! on and check the lint invariants: URLs in order, segments inside their
//! match joining to the URL, findings on char boundaries inside it. The
//! first byte chooses the markup (by its remainder modulo 3: Markdown,
//! reStructuredText, HTML); the rest, lossily decoded, is the document.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlint::Markup;

fuzz_target!(|data: &[u8]| {
    let Some((&choice, document)) = data.split_first() else {
        return;
    };
    let markup = match choice % 3 {
        0 => Markup::Markdown,
        1 => Markup::Rst,
        _ => Markup::Html,
    };
    urlint_fuzz::check_markup(&String::from_utf8_lossy(document), markup);
});
