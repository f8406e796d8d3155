//! One client session: the handshake, then the message loop until `exit`.
//!
//! The loop waits on three things at once: the client's next message, the
//! lint worker's next result, and the deadline of the next document due
//! for linting. Edits only mark a document due (a burst of typing is linted
//! once per [`DEBOUNCE`]); opening, saving and configuration changes make
//! it due at once. Every handler runs under `catch_unwind`: a bug answers
//! one request with an error and is logged, and the session goes on.

use std::collections::HashMap;
use std::fmt;
use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{after, never, select};
use lsp_server::{
    Connection, ErrorCode, Message, Notification, ProtocolError, Request, RequestId, Response,
};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidChangeWorkspaceFolders, DidCloseTextDocument,
    DidOpenTextDocument, DidSaveTextDocument, Notification as _, PublishDiagnostics, ShowMessage,
};
use lsp_types::request::{CodeActionRequest, HoverRequest, RegisterCapability, Request as _};
use lsp_types::{
    ClientCapabilities, CodeActionKind, CodeActionOptions, CodeActionParams,
    CodeActionProviderCapability, DidChangeWatchedFilesRegistrationOptions, FileSystemWatcher,
    GlobPattern, HoverParams, HoverProviderCapability, InitializeParams, InitializeResult,
    MarkupKind, MessageType, OneOf, PublishDiagnosticsParams, Registration, RegistrationParams,
    SaveOptions, ServerCapabilities, ServerInfo, ShowMessageParams, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Uri,
    WorkspaceFoldersServerCapabilities, WorkspaceServerCapabilities,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::actions::{self, FIX_ALL};
use super::analysis::Analysis;
use super::comments::CommentStyle;
use super::diagnostics::MAX_DIAGNOSTICS;
use super::document::Document;
use super::hover::hover;
use super::position::Encoding;
use super::settings::{is_configuration, ClientChoices, Said, Workspace};
use super::uri::file_path;
use super::worker::{Done, Job, Worker};
use crate::input::Compression;
use crate::span::Span;

/// How long after an edit its document is linted: edits in the meantime
/// join the same lint, so latency stays bounded while typing.
pub(super) const DEBOUNCE: Duration = Duration::from_millis(150);

/// How a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ended {
    /// `exit` after `shutdown`, as the protocol asks.
    Exit,
    /// `exit` without `shutdown` first: the protocol's exit code 1.
    ExitWithoutShutdown,
}

/// Why a session could not go on.
#[derive(Debug)]
pub(crate) enum ServerError {
    /// The client broke the protocol (no `initialize` first, bad framing).
    Protocol(ProtocolError),
    /// The client's end closed without `exit`.
    Disconnected,
    /// A thread could not be started, or stdio failed.
    Io(std::io::Error),
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerError::Protocol(err) => write!(f, "protocol error: {err}"),
            ServerError::Disconnected => {
                f.write_str("the client closed the connection without `exit`")
            }
            ServerError::Io(err) => write!(f, "{err}"),
        }
    }
}

impl std::error::Error for ServerError {}

impl From<ProtocolError> for ServerError {
    fn from(err: ProtocolError) -> Self {
        if err.channel_is_disconnected() {
            ServerError::Disconnected
        } else {
            ServerError::Protocol(err)
        }
    }
}

impl From<std::io::Error> for ServerError {
    fn from(err: std::io::Error) -> Self {
        ServerError::Io(err)
    }
}

/// Serve one client on `connection` until it says `exit`.
pub(crate) fn serve(connection: &Connection) -> Result<Ended, ServerError> {
    let (id, params) = match wait_for_initialize(connection)? {
        Handshake::Initialize(id, params) => (id, params),
        Handshake::Exit => return Ok(Ended::ExitWithoutShutdown),
    };
    let mut problems = Vec::new();
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_else(|err| {
        problems.push(format!(
            "initialize: {err}; going on without the client's capabilities"
        ));
        InitializeParams::default()
    });
    let client = Client::of(&params.capabilities);
    let roots = roots(&params);
    let (choices, choice_problems) = ClientChoices::read(params.initialization_options);
    problems.extend(choice_problems);
    let result = InitializeResult {
        capabilities: capabilities(client.encoding),
        server_info: Some(ServerInfo {
            name: "urlint".to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        }),
    };
    send(connection, Response::new_ok(id, result).into())?;
    let (workspace, said) = Workspace::new(roots, choices);
    let mut session = Session {
        connection,
        client,
        documents: HashMap::new(),
        workspace,
        worker: Worker::start(client.encoding)?,
        due: HashMap::new(),
        shutdown: false,
    };
    for problem in problems {
        session.say(&Said::Error(problem))?;
    }
    session.tell(said)?;
    session.run()
}

/// How the client opened the session.
enum Handshake {
    /// With `initialize`: its id and parameters.
    Initialize(RequestId, Value),
    /// With `exit`, before any `initialize`.
    Exit,
}

/// Wait for the client's `initialize`, as the protocol says a server does
/// before it: a request is answered with `ServerNotInitialized` (-32002),
/// a notification dropped, and `exit` ends the session (exit code 1, as
/// there was no `shutdown`). `lsp_server`'s own handshake ends the server
/// on the first notification instead, and answers a request with its
/// debug dump.
fn wait_for_initialize(connection: &Connection) -> Result<Handshake, ServerError> {
    loop {
        let message = connection
            .receiver
            .recv()
            .map_err(|_| ServerError::Disconnected)?;
        match message {
            Message::Request(request) if request.method == "initialize" => {
                return Ok(Handshake::Initialize(request.id, request.params));
            }
            Message::Request(request) => {
                let message = format!(
                    "the server is not initialized: `{}` must wait for `initialize`",
                    request.method
                );
                let error =
                    Response::new_err(request.id, ErrorCode::ServerNotInitialized as i32, message);
                send(connection, error.into())?;
            }
            Message::Notification(notification) if notification.method == "exit" => {
                return Ok(Handshake::Exit);
            }
            Message::Notification(_) | Message::Response(_) => {}
        }
    }
}

/// What the client can do, as far as the server cares.
#[derive(Debug, Clone, Copy)]
struct Client {
    encoding: Encoding,
    /// Hover text may be Markdown.
    markdown: bool,
    /// Workspace edits may name the document version they apply to.
    versioned_edits: bool,
    /// File watchers may be registered after initialization.
    watches: bool,
}

impl Client {
    fn of(capabilities: &ClientCapabilities) -> Client {
        let offered = capabilities
            .general
            .as_ref()
            .and_then(|general| general.position_encodings.as_deref());
        let markdown = capabilities
            .text_document
            .as_ref()
            .and_then(|text| text.hover.as_ref())
            .and_then(|hover| hover.content_format.as_ref())
            .is_some_and(|formats| formats.contains(&MarkupKind::Markdown));
        let workspace = capabilities.workspace.as_ref();
        Client {
            encoding: Encoding::negotiate(offered),
            markdown,
            versioned_edits: workspace
                .and_then(|workspace| workspace.workspace_edit.as_ref())
                .and_then(|edit| edit.document_changes)
                .unwrap_or(false),
            watches: workspace
                .and_then(|workspace| workspace.did_change_watched_files.as_ref())
                .and_then(|watched| watched.dynamic_registration)
                .unwrap_or(false),
        }
    }
}

/// The workspace roots the client names: its folders, else its root.
fn roots(params: &InitializeParams) -> Vec<PathBuf> {
    if let Some(folders) = &params.workspace_folders {
        return folders
            .iter()
            .filter_map(|folder| file_path(&folder.uri))
            .collect();
    }
    #[allow(deprecated)] // Older clients name only a root.
    let root = params
        .root_uri
        .as_ref()
        .and_then(file_path)
        .or_else(|| params.root_path.as_ref().map(PathBuf::from));
    root.into_iter().collect()
}

/// What the server offers.
fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, CodeActionKind::new(FIX_ALL)]),
            resolve_provider: Some(false),
            ..CodeActionOptions::default()
        })),
        workspace: Some(WorkspaceServerCapabilities {
            workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..ServerCapabilities::default()
    }
}

/// An open document and what the server knows of it.
#[derive(Debug)]
struct Open {
    document: Document,
    /// The latest analysis; current when its version is the document's.
    analysis: Option<Analysis>,
    /// Diagnostics were published for it, and must be cleared if it stops
    /// being linted.
    published: bool,
}

impl Open {
    /// The analysis of the document's current text, if the worker has
    /// caught up with it.
    fn current(&self) -> Option<&Analysis> {
        self.analysis
            .as_ref()
            .filter(|analysis| analysis.version == self.document.version)
    }
}

/// The state of one session.
struct Session<'c> {
    connection: &'c Connection,
    client: Client,
    documents: HashMap<Uri, Open>,
    workspace: Workspace,
    worker: Worker,
    /// When each document is due for linting.
    due: HashMap<Uri, Instant>,
    /// `shutdown` was requested: only `exit` is left to do.
    shutdown: bool,
}

/// What handling a message came to.
enum Next {
    Continue,
    End(Ended),
}

impl Session<'_> {
    /// The message loop.
    fn run(&mut self) -> Result<Ended, ServerError> {
        loop {
            let deadline = match self.due.values().min() {
                Some(&at) => after(at.saturating_duration_since(Instant::now())),
                None => never(),
            };
            select! {
                recv(self.connection.receiver) -> message => {
                    let message = message.map_err(|_| ServerError::Disconnected)?;
                    if let Next::End(ended) = self.guarded(message)? {
                        return Ok(ended);
                    }
                }
                recv(self.worker.results) -> done => {
                    if let Ok(done) = done {
                        self.linted(done)?;
                    }
                }
                recv(deadline) -> _ => {}
            }
            self.submit_due()?;
        }
    }

    /// Handle `message`; a panic becomes an error answer and a log line.
    fn guarded(&mut self, message: Message) -> Result<Next, ServerError> {
        let request = match &message {
            Message::Request(request) => Some((request.id.clone(), request.method.clone())),
            _ => None,
        };
        let method = match &message {
            Message::Request(request) => request.method.clone(),
            Message::Notification(notification) => notification.method.clone(),
            Message::Response(_) => String::new(),
        };
        match panic::catch_unwind(AssertUnwindSafe(|| self.handle(message))) {
            Ok(next) => next,
            Err(_) => {
                let text = format!("internal error handling {method}; please report it");
                self.say(&Said::Error(text.clone()))?;
                if let Some((id, _)) = request {
                    self.respond(Response::new_err(id, ErrorCode::InternalError as i32, text))?;
                }
                Ok(Next::Continue)
            }
        }
    }

    fn handle(&mut self, message: Message) -> Result<Next, ServerError> {
        match message {
            Message::Request(request) => self.request(request).map(|()| Next::Continue),
            Message::Notification(notification) if notification.method == "exit" => {
                Ok(Next::End(if self.shutdown {
                    Ended::Exit
                } else {
                    Ended::ExitWithoutShutdown
                }))
            }
            Message::Notification(notification) => {
                self.notification(notification).map(|()| Next::Continue)
            }
            // Only the watcher registration is ever asked of the client.
            Message::Response(response) => match response.response_result {
                Err(error) => self
                    .say(&Said::Info(format!(
                        "the client did not register the configuration file watchers: {}",
                        error.message
                    )))
                    .map(|()| Next::Continue),
                Ok(_) => Ok(Next::Continue),
            },
        }
    }

    fn request(&mut self, request: Request) -> Result<(), ServerError> {
        let id = request.id.clone();
        if self.shutdown {
            return self.respond(Response::new_err(
                id,
                ErrorCode::InvalidRequest as i32,
                "the server is shutting down".to_owned(),
            ));
        }
        let response = match request.method.as_str() {
            "shutdown" => {
                self.shutdown = true;
                Response::new_ok(id, ())
            }
            HoverRequest::METHOD => match params::<HoverParams>(request.params) {
                Ok(params) => Response::new_ok(id, self.hover(&params)),
                Err(err) => invalid(id, &err),
            },
            CodeActionRequest::METHOD => match params::<CodeActionParams>(request.params) {
                Ok(params) => Response::new_ok(id, self.code_actions(&params)),
                Err(err) => invalid(id, &err),
            },
            method => Response::new_err(
                id,
                ErrorCode::MethodNotFound as i32,
                format!("urlint does not answer {method}"),
            ),
        };
        self.respond(response)
    }

    fn notification(&mut self, notification: Notification) -> Result<(), ServerError> {
        let method = notification.method.clone();
        let outcome = match method.as_str() {
            "initialized" => return self.watch_configuration(),
            DidOpenTextDocument::METHOD => params(notification.params).map(|p| self.opened(p)),
            DidChangeTextDocument::METHOD => params(notification.params).map(|p| self.changed(p)),
            DidSaveTextDocument::METHOD => params(notification.params).map(|p| self.saved(p)),
            DidCloseTextDocument::METHOD => params(notification.params).map(|p| self.closed(p)),
            DidChangeWatchedFiles::METHOD => params(notification.params).map(|p| self.watched(p)),
            DidChangeWorkspaceFolders::METHOD => {
                params(notification.params).map(|p| self.folders(p))
            }
            // Cancellation, tracing, settings pushed by the client: nothing
            // to do (answers are never slow enough to cancel).
            _ => return Ok(()),
        };
        match outcome {
            Ok(done) => done,
            // The client's bug, which the user can do nothing about.
            Err(err) => self.say(&Said::Info(format!("{method}: {err}"))),
        }
    }

    fn opened(&mut self, params: lsp_types::DidOpenTextDocumentParams) -> Result<(), ServerError> {
        let item = params.text_document;
        let document = Document::new(
            &item.uri,
            item.language_id,
            item.version,
            item.text,
            self.client.encoding,
        );
        let open = Open {
            document,
            analysis: None,
            published: false,
        };
        self.documents.insert(item.uri.clone(), open);
        self.due.insert(item.uri, Instant::now());
        Ok(())
    }

    fn changed(
        &mut self,
        params: lsp_types::DidChangeTextDocumentParams,
    ) -> Result<(), ServerError> {
        let uri = params.text_document.uri;
        let Some(open) = self.documents.get_mut(&uri) else {
            return self.say(&Said::Info(format!(
                "change to a document not open: {}",
                uri.as_str()
            )));
        };
        // An analysis of an older version is never used again (`current`
        // checks the version), and kept it would hold every finding of the
        // old text, and the text itself, which the edit must then copy,
        // through the next lint: a large document's memory doubled.
        open.analysis = None;
        open.document
            .change(params.text_document.version, params.content_changes);
        self.due
            .entry(uri)
            .or_insert_with(|| Instant::now() + DEBOUNCE);
        Ok(())
    }

    fn saved(&mut self, params: lsp_types::DidSaveTextDocumentParams) -> Result<(), ServerError> {
        let uri = params.text_document.uri;
        if file_path(&uri).is_some_and(|path| is_configuration(&path)) {
            return self.reload();
        }
        if let Some(open) = self.documents.get_mut(&uri) {
            if let Some(text) = params.text {
                open.document.replace_all(text);
            }
            self.due.insert(uri, Instant::now());
        }
        Ok(())
    }

    fn closed(&mut self, params: lsp_types::DidCloseTextDocumentParams) -> Result<(), ServerError> {
        let uri = params.text_document.uri;
        self.due.remove(&uri);
        match self.documents.remove(&uri) {
            Some(open) if open.published => self.publish(uri, None, Vec::new()),
            _ => Ok(()),
        }
    }

    fn watched(
        &mut self,
        params: lsp_types::DidChangeWatchedFilesParams,
    ) -> Result<(), ServerError> {
        let configuration = params
            .changes
            .iter()
            .any(|change| file_path(&change.uri).is_some_and(|path| is_configuration(&path)));
        if configuration {
            self.reload()?;
        }
        Ok(())
    }

    fn folders(
        &mut self,
        params: lsp_types::DidChangeWorkspaceFoldersParams,
    ) -> Result<(), ServerError> {
        let paths = |folders: Vec<lsp_types::WorkspaceFolder>| -> Vec<PathBuf> {
            folders
                .iter()
                .filter_map(|folder| file_path(&folder.uri))
                .collect()
        };
        self.workspace.remove_roots(&paths(params.event.removed));
        let said = self.workspace.add_roots(paths(params.event.added));
        self.tell(said)?;
        self.relint_all();
        Ok(())
    }

    /// Read the configurations again and lint every open document with them.
    fn reload(&mut self) -> Result<(), ServerError> {
        let said = self.workspace.reload();
        self.tell(said)?;
        self.relint_all();
        Ok(())
    }

    fn relint_all(&mut self) {
        let now = Instant::now();
        for uri in self.documents.keys() {
            self.due.insert(uri.clone(), now);
        }
    }

    /// Ask the client to tell the server about configuration files that
    /// change on disk, when it can be asked.
    fn watch_configuration(&mut self) -> Result<(), ServerError> {
        if !self.client.watches {
            return Ok(());
        }
        let watchers = ["**/urlint.toml", "**/pyproject.toml"]
            .into_iter()
            .map(|glob| FileSystemWatcher {
                glob_pattern: GlobPattern::String(glob.to_owned()),
                kind: None,
            })
            .collect();
        let options = DidChangeWatchedFilesRegistrationOptions { watchers };
        let registration = Registration {
            id: "urlint-configuration-files".to_owned(),
            method: DidChangeWatchedFiles::METHOD.to_owned(),
            register_options: serde_json::to_value(options).ok(),
        };
        let request = Request::new(
            RequestId::from("urlint-watch".to_owned()),
            RegisterCapability::METHOD.to_owned(),
            RegistrationParams {
                registrations: vec![registration],
            },
        );
        send(self.connection, request.into())
    }

    /// Hand every document that is due to the worker.
    fn submit_due(&mut self) -> Result<(), ServerError> {
        let now = Instant::now();
        let due: Vec<Uri> = self
            .due
            .iter()
            .filter(|(_, &at)| at <= now)
            .map(|(uri, _)| uri.clone())
            .collect();
        for uri in due {
            self.due.remove(&uri);
            let Some(open) = self.documents.get(&uri) else {
                continue;
            };
            if is_compressed(&uri) {
                // The text an editor shows for `notes.md.gz` is its own
                // inflated copy; edits are not written back as they are
                // read, so fixes and spans would not hold.
                continue;
            }
            let document = &open.document;
            let (reading, said) = self
                .workspace
                .reading(document.path.as_deref(), &document.language);
            let job = reading.map(|reading| Job {
                uri: uri.clone(),
                path: document.path.clone(),
                version: document.version,
                text: Arc::clone(document.text()),
                reading,
            });
            let clear = job.is_none() && open.published;
            self.tell(said)?;
            match job {
                Some(job) => self.worker.submit(job),
                None if clear => {
                    if let Some(open) = self.documents.get_mut(&uri) {
                        open.published = false;
                        open.analysis = None;
                    }
                    self.publish(uri, None, Vec::new())?;
                }
                None => {}
            }
        }
        Ok(())
    }

    /// Take a worker's result: publish it if the document is still at the
    /// version linted, drop it if the document has moved on.
    fn linted(&mut self, done: Done) -> Result<(), ServerError> {
        let Some(open) = self.documents.get_mut(&done.uri) else {
            return Ok(());
        };
        if open.document.version != done.version {
            return Ok(());
        }
        let (analysis, diagnostics) = match done.result {
            Ok(result) => result,
            Err(err) => return self.say(&Said::Error(format!("{}: {err}", done.uri.as_str()))),
        };
        let problems = analysis.problems.clone();
        let total = analysis.finding_count;
        open.analysis = Some(analysis);
        open.published = true;
        for problem in problems {
            self.say(&Said::Error(problem))?;
        }
        if total > MAX_DIAGNOSTICS {
            self.say(&Said::Info(format!(
                "{}: {total} findings; showing the first {MAX_DIAGNOSTICS}",
                done.uri.as_str()
            )))?;
        }
        self.publish(done.uri, Some(done.version), diagnostics)
    }

    fn hover(&mut self, params: &HoverParams) -> Option<lsp_types::Hover> {
        let at = &params.text_document_position_params;
        let analysis = self.documents.get(&at.text_document.uri)?.current()?;
        let offset = analysis.index.offset(&analysis.text, at.position);
        hover(analysis, offset, self.client.markdown)
    }

    fn code_actions(&mut self, params: &CodeActionParams) -> Vec<lsp_types::CodeActionOrCommand> {
        let uri = &params.text_document.uri;
        let Some(open) = self.documents.get(uri) else {
            return Vec::new();
        };
        let Some(analysis) = open.current() else {
            return Vec::new();
        };
        let start = analysis.index.offset(&analysis.text, params.range.start);
        let end = analysis.index.offset(&analysis.text, params.range.end);
        let document = &open.document;
        let request = actions::Request {
            uri,
            analysis,
            span: Span::new(start.min(end), start.max(end)),
            only: params.context.only.as_deref(),
            style: CommentStyle::of(&document.language, document.path.as_deref()),
            versioned: self.client.versioned_edits,
        };
        actions::code_actions(&request)
    }

    fn publish(
        &self,
        uri: Uri,
        version: Option<i32>,
        diagnostics: Vec<lsp_types::Diagnostic>,
    ) -> Result<(), ServerError> {
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        };
        let notification = Notification::new(PublishDiagnostics::METHOD.to_owned(), params);
        send(self.connection, notification.into())
    }

    fn respond(&self, response: Response) -> Result<(), ServerError> {
        send(self.connection, response.into())
    }

    /// Log everything said; show errors too.
    fn tell(&self, said: Vec<Said>) -> Result<(), ServerError> {
        said.iter().try_for_each(|said| self.say(said))
    }

    /// Log `said` on stderr; an error is also shown to the user
    /// (`window/showMessage`).
    fn say(&self, said: &Said) -> Result<(), ServerError> {
        let (typ, message) = match said {
            Said::Info(message) => (MessageType::INFO, message),
            Said::Error(message) => (MessageType::ERROR, message),
        };
        let message = format!("urlint: {message}");
        // A log that cannot be written is no reason to stop serving.
        let _ = writeln!(io::stderr().lock(), "{message}");
        if typ == MessageType::ERROR {
            let show = ShowMessageParams { typ, message };
            send(
                self.connection,
                Notification::new(ShowMessage::METHOD.to_owned(), show).into(),
            )?;
        }
        Ok(())
    }
}

/// Send `message`; failing means the client's end is gone.
fn send(connection: &Connection, message: Message) -> Result<(), ServerError> {
    connection
        .sender
        .send(message)
        .map_err(|_| ServerError::Disconnected)
}

/// A message's parameters as `P`.
fn params<P: DeserializeOwned>(params: Value) -> Result<P, serde_json::Error> {
    serde_json::from_value(params)
}

/// The answer to a request whose parameters do not read.
fn invalid(id: RequestId, err: &serde_json::Error) -> Response {
    Response::new_err(id, ErrorCode::InvalidParams as i32, err.to_string())
}

/// True for a document whose name says it is compressed (`.gz`, `.bz2`,
/// `.xz`, `.zst`): the server leaves it alone, as `fmt` and `--fix` do.
fn is_compressed(uri: &Uri) -> bool {
    Compression::from_name(std::path::Path::new(uri.path().as_str())).is_some()
}
