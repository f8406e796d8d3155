//! Build deep and broken MIME structures from arbitrary bytes (nested
//! multiparts and message/rfc822 parts, shared, empty and unclosed
//! boundaries, encoded messages inside messages) and check that no text
//! part is lost without a warning and every URL maps back into the archive.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    urlint_fuzz::check_nested_mail(data);
});
