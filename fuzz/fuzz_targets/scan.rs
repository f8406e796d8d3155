//! Scan arbitrary bytes, read as the CLI reads undecodable text (invalid
//! UTF-8 replaced by U+FFFD), and check the scanner's invariants.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    urlint_fuzz::check_scan(&String::from_utf8_lossy(data));
});
