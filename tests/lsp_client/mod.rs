//! A language client for the server tests: starts the real `urlint server`
//! and speaks the protocol over its stdin and stdout, with `Content-Length`
//! framing, so the tests see exactly what an editor sees. Every wait has a
//! timeout: a server that hangs fails the test instead of stalling it.

// Each test file uses its own share of the helpers.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// How long any one answer may take. Generous: a debug build on a busy
/// machine lints a large document in seconds.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// A running server and the client's side of the conversation.
pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: Receiver<Result<Value, String>>,
    /// Messages read while waiting for something else, in order.
    unread: VecDeque<Value>,
    next_id: i64,
    stderr: Option<JoinHandle<String>>,
}

impl Client {
    /// Start `urlint server` in `cwd` (which is not the workspace: the
    /// workspace is what `initialize` names).
    pub fn start(cwd: &Path) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_urlint"))
            .arg("server")
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the urlint binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        let (sender, messages) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let message = read_message(&mut reader);
                let end = !matches!(message, Ok(Some(_)));
                let sent = match message {
                    Ok(Some(value)) => sender.send(Ok(value)),
                    Ok(None) => break,
                    Err(err) => sender.send(Err(err)),
                };
                if end || sent.is_err() {
                    break;
                }
            }
        });
        let stderr = thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        Client {
            stdin: child.stdin.take(),
            child,
            messages,
            unread: VecDeque::new(),
            next_id: 1,
            stderr: Some(stderr),
        }
    }

    /// Start a server and initialize it with `params` (merged over an
    /// empty client); returns the client and the `initialize` result.
    pub fn initialized(cwd: &Path, params: Value) -> (Client, Value) {
        let mut client = Client::start(cwd);
        let mut merged = json!({"processId": null, "capabilities": {}});
        if let (Some(into), Some(from)) = (merged.as_object_mut(), params.as_object()) {
            into.extend(from.clone());
        }
        let result = client.request("initialize", merged);
        client.notify("initialized", json!({}));
        (client, result)
    }

    /// Send a framed message.
    pub fn send(&mut self, message: &Value) {
        let body = serde_json::to_vec(message).expect("JSON");
        let stdin = self.stdin.as_mut().expect("stdin open");
        write!(stdin, "Content-Length: {}\r\n\r\n", body.len()).expect("write header");
        stdin.write_all(&body).expect("write body");
        stdin.flush().expect("flush");
    }

    /// Send a notification.
    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Send a request and wait for its result; panics on an error answer.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let response = self.request_raw(method, params);
        assert!(
            response.get("error").is_none(),
            "{method} answered an error: {response}"
        );
        response["result"].clone()
    }

    /// Send a request and wait for its whole response.
    pub fn request_raw(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait_for(&format!("the answer to {method}"), |message| {
            message["id"] == json!(id) && message.get("method").is_none()
        })
    }

    /// The first message, read or still to come, that `wanted` accepts;
    /// the others stay unread, in order.
    pub fn wait_for(&mut self, what: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        if let Some(at) = self.unread.iter().position(&wanted) {
            return self.unread.remove(at).expect("found");
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(Ok(message)) if wanted(&message) => return message,
                Ok(Ok(message)) => self.unread.push_back(message),
                Ok(Err(err)) => panic!("waiting for {what}: bad framing: {err}"),
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no {what} within {TIMEOUT:?}; unread: {:?}", self.unread)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!(
                        "the server closed stdout before {what}; unread: {:?}",
                        self.unread
                    )
                }
            }
        }
    }

    /// Open a document.
    pub fn open(&mut self, uri: &str, language: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {
                "uri": uri, "languageId": language, "version": version, "text": text
            }}),
        );
    }

    /// Change a document with `changes` (content change events).
    pub fn change(&mut self, uri: &str, version: i64, changes: Value) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
        );
    }

    /// The diagnostics published for `uri` at `version`; earlier
    /// publications for it are skipped.
    pub fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let message = self.wait_for(&format!("diagnostics of {uri} v{version}"), |message| {
            message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == uri
                && message["params"]["version"] == json!(version)
        });
        self.unread.retain(|old| {
            !(old["method"] == "textDocument/publishDiagnostics" && old["params"]["uri"] == uri)
        });
        message["params"]["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    /// The messages read but not asked for yet.
    pub fn unread(&self) -> &VecDeque<Value> {
        &self.unread
    }

    /// `shutdown`, then `exit`; the exit status and everything the server
    /// wrote on stderr.
    pub fn shutdown_and_exit(mut self) -> (ExitStatus, String) {
        let result = self.request("shutdown", Value::Null);
        assert_eq!(result, Value::Null, "shutdown answers null");
        self.exit()
    }

    /// `exit` alone; the exit status and stderr.
    pub fn exit(mut self) -> (ExitStatus, String) {
        self.notify("exit", Value::Null);
        self.stdin = None;
        let status = self.wait_exit();
        let stderr = self.stderr.take().and_then(|h| h.join().ok());
        (status, stderr.unwrap_or_default())
    }

    fn wait_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        // A test that failed midway leaves no server behind.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Read one framed message: `Ok(None)` at the end of the stream.
fn read_message(reader: &mut impl BufRead) -> Result<Option<Value>, String> {
    let mut length = None;
    loop {
        let mut line = String::new();
        let read = reader.read_line(&mut line).map_err(|err| err.to_string())?;
        if read == 0 {
            return if length.is_none() {
                Ok(None)
            } else {
                Err("the stream ended inside a header".to_owned())
            };
        }
        let Some(line) = line.strip_suffix("\r\n") else {
            return Err(format!("a header line not ended by CRLF: {line:?}"));
        };
        if line.is_empty() {
            break;
        }
        let (name, value) = line
            .split_once(": ")
            .ok_or_else(|| format!("not a header: {line:?}"))?;
        if name.eq_ignore_ascii_case("Content-Length") {
            length = Some(value.parse::<usize>().map_err(|err| err.to_string())?);
        }
    }
    let length = length.ok_or("no Content-Length")?;
    let mut body = vec![0; length];
    reader
        .read_exact(&mut body)
        .map_err(|err| err.to_string())?;
    let value: Value = serde_json::from_slice(&body).map_err(|err| err.to_string())?;
    if value["jsonrpc"] != "2.0" {
        return Err(format!("not JSON-RPC 2.0: {value}"));
    }
    Ok(Some(value))
}

/// A `file:` URI for `path` (ASCII paths without spaces, as the tests use).
pub fn file_uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// UTF-16 position (line, character) of byte `offset` in `text`, lines
/// ending at `\n`, `\r\n` or `\r`.
pub fn utf16_position(text: &str, offset: usize) -> (u32, u32) {
    let mut line = 0;
    let mut character = 0;
    let bytes = text.as_bytes();
    for (at, c) in text.char_indices() {
        if at >= offset {
            break;
        }
        match c {
            '\n' => (line, character) = (line + 1, 0),
            '\r' if bytes.get(at + 1) == Some(&b'\n') => character += 1,
            '\r' => (line, character) = (line + 1, 0),
            c => character += c.len_utf16() as u32,
        }
    }
    (line, character)
}

/// A range as JSON, from (line, character) pairs.
pub fn range(start: (u32, u32), end: (u32, u32)) -> Value {
    json!({
        "start": {"line": start.0, "character": start.1},
        "end": {"line": end.0, "character": end.1},
    })
}
