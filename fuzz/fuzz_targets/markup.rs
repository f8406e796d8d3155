//! Read arbitrary text as Markdown or HTML with every rule on and check the
//! lint invariants: URLs in order, segments inside their match joining to
//! the URL, findings on char boundaries inside it. The first byte chooses
//! the markup (even Markdown, odd HTML); the rest, lossily decoded, is the
//! document.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlint::Markup;

fuzz_target!(|data: &[u8]| {
    let Some((&choice, document)) = data.split_first() else {
        return;
    };
    let markup = if choice % 2 == 0 { Markup::Markdown } else { Markup::Html };
    urlint_fuzz::check_markup(&String::from_utf8_lossy(document), markup);
});
