//! Validate arbitrary strings and check every diagnostic and fix.
//!
//! The first byte chooses the options (a delimited URL allows a fragment),
//! the rest is the URL, invalid UTF-8 replaced by U+FFFD.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlint::ValidateOptions;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let options = ValidateOptions {
        fragment_allowed: first & 1 == 1,
        ..ValidateOptions::default()
    };
    urlint_fuzz::check_validate(&String::from_utf8_lossy(rest), &options);
});
