//! Lint arbitrary text with every rule on and check that every finding's
//! source spans are char ranges inside the input that spell what the
//! validator saw.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    urlint_fuzz::check_lint(&String::from_utf8_lossy(data));
});
