//! Nested messages, hidden from mail-parser (see [`super::park`]) and
//! parsed by the walk one level at a time, and dropped without recursion.

use mail_parser::{Message, PartType};

/// Drop a parsed message without recursion: mail-parser nests each
/// message/rfc822 part's message inside its parent, and the compiler's drop
/// of a deep nest would recurse once per level.
pub(super) fn dismantle(message: Message<'_>) {
    let mut pending = vec![message];
    while let Some(mut message) = pending.pop() {
        for part in &mut message.parts {
            if let PartType::Message(_) = part.body {
                let body = std::mem::replace(&mut part.body, PartType::Binary(Default::default()));
                if let PartType::Message(nested) = body {
                    pending.push(nested);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deep_nest_is_dropped_without_recursion() {
        // Deep enough to overflow a test thread's stack if dropped recursively.
        let depth = 200_000;
        let raw = "Content-Type: message/rfc822\n\n".repeat(depth) + "Subject: x\n\nbody\n";
        let message = mail_parser::MessageParser::default()
            .parse(raw.as_bytes())
            .expect("parses");
        dismantle(message);
    }
}
