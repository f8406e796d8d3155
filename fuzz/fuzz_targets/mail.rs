//! Read arbitrary bytes as mail and check that every decoded text lints
//! within the invariants and maps its findings back into its message.
//!
//! The first byte chooses the kind (even: mbox, odd: a single message), the
//! rest is the archive.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlint::mail::MailKind;

fuzz_target!(|data: &[u8]| {
    let Some((&first, archive)) = data.split_first() else {
        return;
    };
    let kind = if first & 1 == 0 {
        MailKind::Mbox
    } else {
        MailKind::Eml
    };
    urlint_fuzz::check_mail(archive, kind);
});
