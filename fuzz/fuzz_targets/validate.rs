//! Validate arbitrary strings and check every diagnostic and fix.
//!
//! The first byte chooses the options (its low bit the profile), the rest
//! is the URL, invalid UTF-8 replaced by U+FFFD.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlint::validate::Profile;
use urlint::ValidateOptions;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let options = ValidateOptions {
        profile: Profile::ALL[usize::from(first & 1)],
        ..ValidateOptions::default()
    };
    urlint_fuzz::check_validate(&String::from_utf8_lossy(rest), &options);
});
