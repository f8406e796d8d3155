//! The server's framing of messages on stdin and stdout, in place of
//! `lsp-server`'s own (`Connection::stdio`), which trusts its client: it
//! allocates whatever a `Content-Length` header announces before a byte of
//! the body arrives (`Content-Length: 1000000000000` aborted the server),
//! and it ends the session on the first message that does not decode (a
//! lone surrogate escape, `"\ud800"`, which editors built on UTF-16
//! strings do send). Here a frame larger than the limit is refused and its
//! body skipped as it comes; a lone surrogate escape is read as U+FFFD,
//! which counts one UTF-16 unit as the surrogate did; and any other
//! message that does not decode gets a JSON-RPC error when it is a request
//! (a log line otherwise), and the session goes on.

use std::io::{self, BufRead, Read, Write};
use std::thread;

use crossbeam_channel::{bounded, Receiver, Sender};
use lsp_server::{Connection, ErrorCode, Message, RequestId, Response};

/// The largest message read by default: far beyond any document an editor
/// sends (a 50 MB file is a 50 MB message), and a bound on what a broken
/// or hostile client costs.
pub(crate) const DEFAULT_MAX_MESSAGE_BYTES: usize = 64 << 20;

/// The reader and writer threads of a connection.
pub(crate) struct Transport {
    reader: thread::JoinHandle<io::Result<()>>,
    writer: thread::JoinHandle<io::Result<()>>,
}

impl Transport {
    /// Wait for both threads: the reader ends at `exit` or the end of
    /// stdin, the writer once every sender of the connection is dropped.
    pub(crate) fn join(self) -> io::Result<()> {
        let reader = self
            .reader
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the reader thread panicked")));
        let writer = self
            .writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the writer thread panicked")));
        reader.and(writer)
    }
}

/// A connection over stdin and stdout, refusing messages over `max_bytes`.
pub(crate) fn stdio(max_bytes: usize) -> io::Result<(Connection, Transport)> {
    let (to_client, for_writer) = bounded::<Message>(0);
    let (from_client, receiver) = bounded::<Message>(0);
    let answers = to_client.clone();
    let writer = thread::Builder::new()
        .name("urlint-lsp-writer".to_owned())
        .spawn(move || write_messages(&for_writer, &mut io::stdout().lock()))?;
    let reader = thread::Builder::new()
        .name("urlint-lsp-reader".to_owned())
        .spawn(move || {
            read_messages(
                &mut io::stdin().lock(),
                max_bytes,
                &from_client,
                &answers,
                &mut io::stderr(),
            )
        })?;
    let connection = Connection {
        sender: to_client,
        receiver,
    };
    Ok((connection, Transport { reader, writer }))
}

/// Write each message of `messages` to `out` until every sender is gone.
fn write_messages(messages: &Receiver<Message>, out: &mut impl Write) -> io::Result<()> {
    messages.iter().try_for_each(|message| message.write(out))
}

/// Read frames from `input` until `exit` or its end: each message that
/// decodes goes to `to_session`; what does not is answered through
/// `to_client` (a request) or logged on `log`.
fn read_messages(
    input: &mut impl BufRead,
    max_bytes: usize,
    to_session: &Sender<Message>,
    to_client: &Sender<Message>,
    log: &mut dyn Write,
) -> io::Result<()> {
    while let Some(frame) = read_frame(input, max_bytes)? {
        let body = match frame {
            Frame::Body(body) => body,
            Frame::Refused(len) => {
                let _ = writeln!(
                    log,
                    "urlint server: a message of {len} bytes was refused: the limit is \
                     {max_bytes} bytes (urlint server --max-message-bytes)"
                );
                continue;
            }
        };
        match decode(&body) {
            Ok(message) => {
                let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if to_session.send(message).is_err() || exit {
                    return Ok(());
                }
            }
            Err((id, why)) => {
                let _ = writeln!(log, "urlint server: a message did not decode: {why}");
                if let Some(id) = id {
                    let response = Response::new_err(id, ErrorCode::ParseError as i32, why);
                    if to_client.send(Message::Response(response)).is_err() {
                        return Ok(());
                    }
                }
            }
        }
    }
    Ok(())
}

/// One frame read: its body, or the length of one refused.
#[derive(Debug, PartialEq, Eq)]
enum Frame {
    Body(Vec<u8>),
    Refused(u64),
}

/// The next frame of `input` (`None` at its end). A body over `max_bytes`
/// is read and dropped piece by piece, so that the next frame is found and
/// nothing of its size is held.
fn read_frame(input: &mut impl BufRead, max_bytes: usize) -> io::Result<Option<Frame>> {
    let mut length: Option<u64> = None;
    let mut line = Vec::new();
    let mut started = false;
    loop {
        line.clear();
        // A header line is short; one that is not is no header.
        let read = input.by_ref().take(8 * 1024).read_until(b'\n', &mut line)?;
        if read == 0 {
            return match started {
                false => Ok(None),
                true => Err(invalid("the input ended inside a message's header")),
            };
        }
        started = true;
        let text = String::from_utf8_lossy(&line);
        let header = text.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            break;
        }
        let Some((name, value)) = header.split_once(':') else {
            return Err(invalid(&format!("malformed header: {header:?}")));
        };
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            let value = value.trim();
            length = Some(
                value
                    .parse()
                    .map_err(|_| invalid(&format!("Content-Length is not a number: {value:?}")))?,
            );
        }
    }
    let length = length.ok_or_else(|| invalid("a message without Content-Length"))?;
    if length > max_bytes as u64 {
        let skipped = io::copy(&mut input.by_ref().take(length), &mut io::sink())?;
        return match skipped == length {
            true => Ok(Some(Frame::Refused(length))),
            false => Ok(None),
        };
    }
    let body = read_body(input, length)?;
    if body.len() as u64 != length {
        return Err(invalid("the input ended inside a message"));
    }
    Ok(Some(Frame::Body(body)))
}

/// Read up to `length` bytes of a body as they come, so that a header that
/// lies costs about what was sent (each step asks for at most as much room
/// again as was read), and to exactly `length` bytes of room, not the
/// doubling `read_to_end` grows by (a 17 MB document would otherwise hold
/// 32 MB while it is decoded).
fn read_body(input: &mut impl BufRead, length: u64) -> io::Result<Vec<u8>> {
    const FIRST_STEP: u64 = 64 * 1024;
    let mut body = Vec::new();
    loop {
        let left = length - body.len() as u64;
        if left == 0 {
            return Ok(body);
        }
        let step = left.min(FIRST_STEP.max(body.len() as u64));
        // `step` is at most `length`, which is at most the frame cap.
        body.reserve_exact(step as usize);
        if input.by_ref().take(step).read_to_end(&mut body)? == 0 {
            return Ok(body);
        }
    }
}

/// An error of the framing itself, after which no frame can be found.
fn invalid(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("malformed LSP frame: {what}"),
    )
}

/// The message a body holds, or why it holds none (with the request's id
/// when one can be read, so that the request can be answered).
fn decode(body: &[u8]) -> Result<Message, (Option<RequestId>, String)> {
    let text = String::from_utf8_lossy(body);
    let text = without_lone_surrogates(&text);
    serde_json::from_str::<Message>(&text).map_err(|err| {
        let id = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|value| value.get("id").cloned())
            .filter(|_| text.contains("\"method\""))
            .and_then(|id| serde_json::from_value::<RequestId>(id).ok());
        (id, err.to_string())
    })
}

/// `json` with every `\u` escape of a lone UTF-16 surrogate (a high one
/// not followed by a low one, or a low one alone) written as `\ufffd`:
/// serde_json refuses them, JavaScript strings hold them.
fn without_lone_surrogates(json: &str) -> std::borrow::Cow<'_, str> {
    if !json.contains("\\u") {
        return json.into();
    }
    let bytes = json.as_bytes();
    let unit_at = |at: usize| -> Option<u16> {
        let hex = json.get(at + 2..at + 6)?;
        (bytes.get(at) == Some(&b'\\') && bytes.get(at + 1) == Some(&b'u'))
            .then(|| u16::from_str_radix(hex, 16).ok())
            .flatten()
    };
    let mut out = String::with_capacity(json.len());
    let mut copied = 0;
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] != b'\\' {
            at += 1;
            continue;
        }
        let Some(unit) = unit_at(at) else {
            // Another escape: its character is never a `u` to look at.
            at += 2;
            continue;
        };
        let high = (0xD800..0xDC00).contains(&unit);
        let low = (0xDC00..0xE000).contains(&unit);
        let paired = high && unit_at(at + 6).is_some_and(|next| (0xDC00..0xE000).contains(&next));
        if paired {
            at += 12;
        } else if high || low {
            out.push_str(&json[copied..at]);
            out.push_str("\\ufffd");
            at += 6;
            copied = at;
        } else {
            at += 6;
        }
    }
    if copied == 0 {
        return json.into();
    }
    out.push_str(&json[copied..]);
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    /// What the reader makes of `input`: messages for the session, answers
    /// for the client, the log.
    fn read_all(input: &str, max_bytes: usize) -> (Vec<Message>, Vec<Message>, String) {
        let (to_session, session) = crossbeam_channel::unbounded();
        let (to_client, client) = crossbeam_channel::unbounded();
        let mut log = Vec::new();
        read_messages(
            &mut input.as_bytes(),
            max_bytes,
            &to_session,
            &to_client,
            &mut log,
        )
        .expect("the frames are well formed");
        drop((to_session, to_client));
        (
            session.iter().collect(),
            client.iter().collect(),
            String::from_utf8(log).expect("the log is text"),
        )
    }

    #[test]
    fn a_frame_over_the_limit_is_refused_and_the_next_read() {
        let big = format!(
            r#"{{"jsonrpc":"2.0","method":"x","params":"{}"}}"#,
            "a".repeat(200)
        );
        let ping = r#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#;
        let (session, client, log) = read_all(&(frame(&big) + &frame(ping)), 100);
        assert_eq!(session.len(), 1, "{session:?}");
        assert!(client.is_empty());
        assert!(
            log.contains(&format!("a message of {} bytes was refused", big.len())),
            "{log}"
        );
        // A header that announces a terabyte and sends a few bytes costs
        // those bytes, not a terabyte.
        let lie = "Content-Length: 1000000000000\r\n\r\n{}";
        assert_eq!(read_frame(&mut lie.as_bytes(), 100).expect("read"), None);
        let lie = "Content-Length: 1000000000000\r\n\r\n{}";
        let short = read_frame(&mut lie.as_bytes(), usize::MAX);
        assert!(short.is_err());
    }

    #[test]
    fn a_body_is_held_in_as_much_room_as_it_takes() {
        // A document of a few megabytes arrives in many reads; its body
        // ends with no spare room, where doubling would leave up to as
        // much again.
        let length = 3 * 1024 * 1024 + 17;
        let sent = vec![b'x'; length];
        let body = read_body(&mut std::io::BufReader::new(&sent[..]), length as u64).expect("read");
        assert_eq!(body.len(), length);
        assert_eq!(body.capacity(), length);
        // A header that lies about its length costs what was sent and
        // one first step of room, not what it announced.
        let body = read_body(&mut &sent[..1000], 1 << 40).expect("read");
        assert_eq!(body.len(), 1000);
        assert!(body.capacity() <= 1000 + 64 * 1024, "{}", body.capacity());
    }

    #[test]
    fn a_lone_surrogate_is_read_as_a_replacement_character() {
        assert_eq!(without_lone_surrogates(r#""a\ud800b""#), r#""a\ufffdb""#);
        assert_eq!(without_lone_surrogates(r#""\udc00""#), r#""\ufffd""#);
        assert_eq!(
            without_lone_surrogates(r#""\ud83d\ude00""#),
            r#""\ud83d\ude00""#
        );
        assert_eq!(without_lone_surrogates(r#""\\ud800""#), r#""\\ud800""#);
        assert_eq!(without_lone_surrogates(r#""\ud800\n""#), r#""\ufffd\n""#);
        let open = r#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.txt","languageId":"plaintext","version":1,"text":"x\ud800 http://a.example/"}}}"#;
        let (session, client, log) = read_all(&frame(open), DEFAULT_MAX_MESSAGE_BYTES);
        assert_eq!((session.len(), client.len()), (1, 0), "{log}");
        let Message::Notification(open) = &session[0] else {
            panic!("a notification: {session:?}");
        };
        let text = open.params["textDocument"]["text"].as_str().expect("text");
        assert_eq!(text, "x\u{fffd} http://a.example/");
    }

    #[test]
    fn a_request_that_does_not_decode_is_answered_and_reading_goes_on() {
        let bad = r#"{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":"#;
        let odd = r#"{"jsonrpc":"2.0","id":8,"method":3}"#;
        let note = r#"{"jsonrpc":"2.0","method":"#;
        let ping = r#"{"jsonrpc":"2.0","id":9,"method":"shutdown"}"#;
        let input = [bad, odd, note, ping].map(frame).concat();
        let (session, client, log) = read_all(&input, DEFAULT_MAX_MESSAGE_BYTES);
        assert_eq!(session.len(), 1, "{session:?}");
        assert_eq!(
            client.len(),
            1,
            "only the request with a readable id: {client:?}"
        );
        let Message::Response(answer) = &client[0] else {
            panic!("a response: {client:?}");
        };
        assert_eq!(answer.id, RequestId::from(8));
        assert_eq!(log.lines().count(), 3, "{log}");
    }
}
