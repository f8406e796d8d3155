//! `urlint server` over its real stdio: framing, the handshake, diagnostics
//! on open, save and incremental and full changes, positions in UTF-16 (and
//! UTF-8 when offered), a wrapped URL's ranges, hover, the code actions
//! (fixes, fix-all as `check --fix` does it, suppressions), configuration
//! from the workspace root and its reload, and shutdown and exit.

mod lsp_client;

use std::path::Path;

use lsp_client::{file_uri, range, utf16_position, Client};
use serde_json::{json, Value};

/// The diagnostics with `code`.
fn with_code<'d>(diagnostics: &'d [Value], code: &str) -> Vec<&'d Value> {
    diagnostics
        .iter()
        .filter(|diagnostic| diagnostic["code"] == code)
        .collect()
}

/// The UTF-16 range of the `len` bytes at byte `start` of `text`.
fn utf16_range(text: &str, start: usize, len: usize) -> Value {
    range(
        utf16_position(text, start),
        utf16_position(text, start + len),
    )
}

/// `text` with a protocol text edit applied (UTF-16 positions).
fn apply_edit(text: &str, edit: &Value) -> String {
    let offset = |position: &Value| {
        let line = position["line"].as_u64().expect("line") as u32;
        let character = position["character"].as_u64().expect("character") as u32;
        (0..=text.len())
            .filter(|&at| text.is_char_boundary(at))
            .find(|&at| utf16_position(text, at) == (line, character))
            .expect("a position in the text")
    };
    let start = offset(&edit["range"]["start"]);
    let end = offset(&edit["range"]["end"]);
    let mut edited = text.to_owned();
    edited.replace_range(start..end, edit["newText"].as_str().expect("newText"));
    edited
}

/// What `urlint explain RULE` prints.
fn explanation(rule: &str) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_urlint"))
        .args(["explain", rule])
        .output()
        .expect("urlint explain runs");
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// A workspace with `config` as its urlint.toml, and a directory elsewhere
/// to start the server in.
fn workspace(config: &str) -> (tempfile::TempDir, tempfile::TempDir) {
    let root = tempfile::tempdir().expect("temp dir");
    std::fs::write(root.path().join("urlint.toml"), config).expect("write urlint.toml");
    let elsewhere = tempfile::tempdir().expect("temp dir");
    (root, elsewhere)
}

fn initialize_params(root: &Path) -> Value {
    json!({
        "rootUri": file_uri(root),
        "workspaceFolders": [{"uri": file_uri(root), "name": "w"}],
    })
}

#[test]
fn a_session_lints_on_open_and_change_hovers_suppresses_and_exits() {
    let (root, elsewhere) = workspace("[rules]\nbare-url = \"warning\"\n");
    let (mut client, init) = Client::initialized(elsewhere.path(), initialize_params(root.path()));
    let capabilities = &init["capabilities"];
    assert_eq!(capabilities["positionEncoding"], "utf-16");
    assert_eq!(capabilities["textDocumentSync"]["change"], 2, "incremental");
    assert_eq!(capabilities["hoverProvider"], true);
    assert_eq!(init["serverInfo"]["name"], "urlint");

    let uri = file_uri(&root.path().join("docs/notes.txt"));
    // Two non-BMP characters (two UTF-16 units each) before the first URL.
    let text = "\u{1F600}\u{1D11E} see http://h.example/~x today\n\
                <URL:http://w.example:8x/a~\n     ~b/>\n";
    client.open(&uri, "plaintext", 1, text);
    let diagnostics = client.diagnostics(&uri, 1);

    // The workspace's urlint.toml turned bare-url on, though the server
    // runs elsewhere.
    let bare = with_code(&diagnostics, "bare-url");
    assert_eq!(bare.len(), 1, "{diagnostics:#?}");
    assert_eq!(bare[0]["severity"], 2, "warning");
    assert_eq!(
        bare[0]["range"]["start"],
        json!({"line": 0, "character": 9})
    );

    let unsafe_chars = with_code(&diagnostics, "unsafe-char");
    assert_eq!(unsafe_chars.len(), 2, "{diagnostics:#?}");
    let first_tilde = text.find('~').expect("a tilde");
    assert_eq!(unsafe_chars[0]["range"], utf16_range(text, first_tilde, 1));
    assert_eq!(unsafe_chars[0]["range"], range((0, 26), (0, 27)));
    assert_eq!(unsafe_chars[0]["severity"], 1, "error");
    assert_eq!(
        unsafe_chars[0]["codeDescription"]["href"],
        "https://www.rfc-editor.org/rfc/rfc1738#section-2.2"
    );
    assert_eq!(unsafe_chars[0]["source"], "urlint");

    // The wrapped URL: '~' on each line, each piece exact.
    let wrapped = unsafe_chars[1];
    let line_one_tilde = text.find("a~").expect("a~") + 1;
    let line_two_tilde = text.rfind('~').expect("a tilde");
    assert_eq!(wrapped["range"], utf16_range(text, line_one_tilde, 1));
    assert_eq!(wrapped["range"], range((1, 26), (1, 27)));
    assert_eq!(
        wrapped["relatedInformation"],
        json!([{
            "location": {"uri": uri, "range": range((2, 5), (2, 6))},
            "message": "unsafe-char continues here",
        }])
    );
    assert_eq!(utf16_position(text, line_two_tilde), (2, 5));
    let port = with_code(&diagnostics, "bad-port");
    assert_eq!(port.len(), 1);
    assert_eq!(port[0]["range"], range((1, 22), (1, 24)));
    assert_eq!(
        port[0]["relatedInformation"][0]["location"]["range"],
        range((2, 5), (2, 8)),
        "the URL's second line"
    );
    assert!(port[0]["message"]
        .as_str()
        .is_some_and(|m| m.starts_with("port '8x' is not a decimal number\nRFC 1738 section 3.1")));

    // Hover on the wrapped URL's second line: the joined URL, its form, and
    // `urlint explain` for each rule found.
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 6}}),
    );
    let shown = hover["contents"]["value"].as_str().expect("hover text");
    assert_eq!(hover["contents"]["kind"], "plaintext");
    assert!(
        shown.starts_with("URL http://w.example:8x/a~~b/\n"),
        "{shown}"
    );
    assert!(shown.contains("RFC 1738 Appendix wrapper"), "{shown}");
    for rule in ["bad-port", "unsafe-char"] {
        let explained = explanation(rule);
        assert!(explained.len() > 100, "{rule}: {explained}");
        assert!(shown.contains(explained.trim_end()), "{rule} in {shown}");
    }
    assert_eq!(hover["range"], range((2, 5), (2, 8)));
    let nothing = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 5}}),
    );
    assert_eq!(nothing, Value::Null, "no URL at 'see'");

    // The suppression action on the first URL's '~', applied through an
    // incremental change.
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": range((0, 26), (0, 26)),
            "context": {"diagnostics": []},
        }),
    );
    let actions = actions.as_array().expect("actions");
    let titles: Vec<&str> = actions
        .iter()
        .filter_map(|action| action["title"].as_str())
        .collect();
    // bare-url is about the whole URL, so the cursor is on it too.
    assert_eq!(
        titles,
        [
            "Ignore bare-url for this URL (urlint: ignore)",
            "Fix unsafe-char: replace `~` with `%7E`",
            "Ignore unsafe-char for this URL (urlint: ignore)",
            "Fix 2 URL problems (urlint check --fix)",
        ]
    );
    let action = &actions[2];
    assert_eq!(action["kind"], "quickfix");
    assert_eq!(action["diagnostics"][0]["code"], "unsafe-char");
    let edits = &action["edit"]["changes"][&uri];
    assert_eq!(edits.as_array().map(Vec::len), Some(1), "{actions:#?}");
    let edit = &edits[0];
    let suppressed = apply_edit(text, edit);
    assert!(
        suppressed.starts_with(
            "\u{1F600}\u{1D11E} see http://h.example/~x today urlint: ignore[unsafe-char]\n"
        ),
        "{suppressed}"
    );
    client.change(
        &uri,
        2,
        json!([{"range": edit["range"], "text": edit["newText"]}]),
    );
    let diagnostics = client.diagnostics(&uri, 2);
    let codes: Vec<&str> = diagnostics
        .iter()
        .filter_map(|diagnostic| diagnostic["code"].as_str())
        .collect();
    assert_eq!(codes, ["bare-url", "bad-port", "unsafe-char"]);

    // Full sync: the whole text replaced.
    client.change(
        &uri,
        3,
        json!([{"text": "fine <URL:http://a.example:99999/>\n"}]),
    );
    let diagnostics = client.diagnostics(&uri, 3);
    let codes: Vec<&str> = diagnostics
        .iter()
        .filter_map(|diagnostic| diagnostic["code"].as_str())
        .collect();
    assert_eq!(codes, ["bad-port"]);
    assert_eq!(diagnostics[0]["range"], range((0, 27), (0, 32)));

    // Closing clears what was published.
    client.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    let cleared = client.wait_for("cleared diagnostics", |message| {
        message["method"] == "textDocument/publishDiagnostics"
            && message["params"]["uri"] == uri
            && message["params"]["diagnostics"] == json!([])
    });
    assert_eq!(cleared["params"]["version"], Value::Null);

    let (status, stderr) = client.shutdown_and_exit();
    assert_eq!(status.code(), Some(0), "{stderr}");
    let config = root.path().join("urlint.toml");
    assert!(
        stderr.contains(&format!("configuration {}", config.display())),
        "the log names the workspace's configuration: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn fixes_are_quick_fixes_and_fix_all_is_check_fix() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut params = initialize_params(dir.path());
    params["capabilities"] = json!({"workspace": {"workspaceEdit": {"documentChanges": true}}});
    let (mut client, init) = Client::initialized(dir.path(), params);
    let kinds = &init["capabilities"]["codeActionProvider"]["codeActionKinds"];
    assert_eq!(kinds, &json!(["quickfix", "source.fixAll.urlint"]));
    let uri = file_uri(&dir.path().join("a.txt"));
    // A wrapped URL's '~' on two lines, a '|', and a template's '{id/c'
    // never closed, whose encoding is only a suggestion (the '}' may have
    // been lost).
    let text = "\u{1F600} <URL:http://h.example/a~\n     ~b/{id/c> http://k.example/a|b\n";
    client.open(&uri, "plaintext", 1, text);
    assert_eq!(client.diagnostics(&uri, 1).len(), 3);

    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": range((1, 5), (1, 6)),
            "context": {"diagnostics": [], "only": ["quickfix"]},
        }),
    );
    let fix = &actions[0];
    assert_eq!(fix["title"], "Fix unsafe-char: replace `~~` with `%7E%7E`");
    assert_eq!(fix["isPreferred"], true);
    let change = &fix["edit"]["documentChanges"][0];
    assert_eq!(change["textDocument"], json!({"uri": uri, "version": 1}));
    // One edit per line piece: the break and the indentation stay.
    let edits = change["edits"].as_array().expect("edits");
    let fixed = edits
        .iter()
        .rev()
        .fold(text.to_owned(), |text, edit| apply_edit(&text, edit));
    assert_eq!(
        fixed,
        "\u{1F600} <URL:http://h.example/a%7E\n     %7Eb/{id/c> http://k.example/a|b\n"
    );
    let titles: Vec<&str> = actions
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|action| action["title"].as_str())
        .collect();
    assert!(
        !titles.iter().any(|title| title.contains("`{`")),
        "a suggestion is no quick fix: {titles:?}"
    );

    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": range((0, 0), (0, 0)),
            "context": {"diagnostics": [], "only": ["source.fixAll"]},
        }),
    );
    assert_eq!(actions.as_array().map(Vec::len), Some(1), "{actions:#?}");
    assert_eq!(actions[0]["kind"], "source.fixAll.urlint");
    assert_eq!(
        actions[0]["title"],
        "Fix 2 URL problems (urlint check --fix)"
    );
    let edit = &actions[0]["edit"]["documentChanges"][0]["edits"][0];
    let fixed = apply_edit(text, edit);
    let saved = dir.path().join("b.txt");
    std::fs::write(&saved, text).expect("write");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_urlint"))
        .args(["check", "--fix", "--quiet"])
        .arg(&saved)
        .output()
        .expect("urlint check --fix runs");
    assert_eq!(
        fixed,
        std::fs::read_to_string(&saved).expect("read"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    client.change(
        &uri,
        2,
        json!([{"range": edit["range"], "text": edit["newText"]}]),
    );
    let codes: Vec<Value> = client
        .diagnostics(&uri, 2)
        .iter()
        .map(|diagnostic| diagnostic["code"].clone())
        .collect();
    assert_eq!(
        codes,
        [json!("bad-template")],
        "the '{{id/c' suggestion remains"
    );
    let (status, _) = client.shutdown_and_exit();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn utf8_positions_are_bytes_when_the_client_offers_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let params = json!({
        "rootUri": file_uri(dir.path()),
        "capabilities": {"general": {"positionEncodings": ["utf-8", "utf-16"]}},
    });
    let (mut client, init) = Client::initialized(dir.path(), params);
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-8");
    let uri = file_uri(&dir.path().join("a.txt"));
    let text = "\u{e9}\u{1F600} http://h.example/~x\n\u{1F600} <URL:http://k.example/\n  a~b>\n";
    client.open(&uri, "plaintext", 1, text);
    let diagnostics = client.diagnostics(&uri, 1);
    let ranges: Vec<&Value> = diagnostics
        .iter()
        .map(|diagnostic| &diagnostic["range"])
        .collect();
    // 'é' is two bytes and the emoji four: the first '~' is at byte 24.
    let first = text.find('~').expect("a tilde");
    assert_eq!(first, 24);
    assert_eq!(ranges, [&range((0, 24), (0, 25)), &range((2, 3), (2, 4))]);
    let (status, _) = client.shutdown_and_exit();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn initialization_options_choose_the_profile_and_rules_over_the_configuration() {
    let (root, elsewhere) = workspace("[rules]\nnondefault-port = \"error\"\n");
    let mut params = initialize_params(root.path());
    params["initializationOptions"] = json!({"profile": "rfc3986", "ignore": ["bad-port"]});
    let (mut client, _) = Client::initialized(elsewhere.path(), params);
    let uri = file_uri(&root.path().join("a.txt"));
    // Under rfc3986 '~' is unreserved; '^' and '|' never are; bad-port is
    // ignored, and the configuration's nondefault-port still applies.
    let text = "http://h.example:8x/~a^b| and http://k.example:25/\n";
    client.open(&uri, "plaintext", 1, text);
    let diagnostics = client.diagnostics(&uri, 1);
    let codes: Vec<&str> = diagnostics
        .iter()
        .filter_map(|diagnostic| diagnostic["code"].as_str())
        .collect();
    assert_eq!(codes, ["unsafe-char", "unsafe-char", "nondefault-port"]);
    assert_eq!(
        diagnostics[0]["codeDescription"]["href"],
        "https://www.rfc-editor.org/rfc/rfc3986#section-2"
    );
    let (status, _) = client.shutdown_and_exit();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn an_unused_suppression_in_a_text_without_urls_is_a_diagnostic() {
    let (root, elsewhere) = workspace("[rules]\nunused-suppression = \"warning\"\n");
    let (mut client, _) = Client::initialized(elsewhere.path(), initialize_params(root.path()));
    let uri = file_uri(&root.path().join("notes.txt"));
    // No URL in the document: the directive is a finding of the text's own.
    let text = "Notes.\n# urlint: ignore-next-line\nplain\n";
    client.open(&uri, "plaintext", 1, text);
    let diagnostics = client.diagnostics(&uri, 1);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    let unused = &diagnostics[0];
    assert_eq!(unused["code"], "unused-suppression");
    assert_eq!(
        unused["range"],
        range((1, 2), (1, 2 + "urlint: ignore-next-line".len() as u32))
    );
    assert_eq!(unused["tags"], json!([1]), "drawn as unnecessary");
    // A directive is removed, not suppressed: no action offers to ignore
    // the rule "for this URL".
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri},
            "range": range((1, 4), (1, 4)),
            "context": {"diagnostics": []},
        }),
    );
    assert_eq!(actions, json!([]), "{actions:#?}");
    let (status, _) = client.shutdown_and_exit();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn a_changed_or_saved_configuration_file_relints_open_documents() {
    let (root, elsewhere) = workspace("[rules]\nunsafe-char = \"off\"\n");
    let mut params = initialize_params(root.path());
    params["capabilities"] =
        json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}});
    let (mut client, _) = Client::initialized(elsewhere.path(), params);
    let registration = client.wait_for("the watcher registration", |message| {
        message["method"] == "client/registerCapability"
    });
    let watchers = &registration["params"]["registrations"][0]["registerOptions"]["watchers"];
    assert_eq!(watchers[0]["globPattern"], "**/urlint.toml");
    client.send(&json!({"jsonrpc": "2.0", "id": registration["id"], "result": null}));

    let uri = file_uri(&root.path().join("a.md"));
    client.open(&uri, "markdown", 1, "[x](http://h.example/~x)\n");
    assert_eq!(client.diagnostics(&uri, 1), Vec::<Value>::new());

    let config = root.path().join("urlint.toml");
    std::fs::write(&config, "[rules]\nunsafe-char = \"warning\"\n").expect("write");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(&config), "type": 2}]}),
    );
    let diagnostics = client.diagnostics(&uri, 1);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!(diagnostics[0]["severity"], 2, "warning now");

    // A configuration that stops reading is shown, and the last good one kept.
    std::fs::write(&config, "[rules]\nunsafe-char = \"loud\"\n").expect("write");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(&config), "type": 2}]}),
    );
    let shown = client.wait_for("the configuration error", |message| {
        message["method"] == "window/showMessage"
    });
    assert_eq!(shown["params"]["type"], 1, "an error");
    let text = shown["params"]["message"].as_str().unwrap_or_default();
    assert!(text.contains("unknown level 'loud'"), "{text}");
    assert!(
        text.contains("keeping the last settings that read"),
        "{text}"
    );
    assert_eq!(client.diagnostics(&uri, 1)[0]["severity"], 2);

    // A client without file watchers still says when it saves the file.
    std::fs::write(&config, "[rules]\nunsafe-char = \"error\"\n").expect("write");
    client.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": file_uri(&config)}}),
    );
    assert_eq!(client.diagnostics(&uri, 1)[0]["severity"], 1, "error now");
    // Saving a document lints it again.
    client.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(client.diagnostics(&uri, 1).len(), 1);
    let (status, _) = client.shutdown_and_exit();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn markdown_and_html_are_read_as_the_command_line_reads_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut client, _) = Client::initialized(dir.path(), initialize_params(dir.path()));
    let markdown = file_uri(&dir.path().join("README.md"));
    let text = "See [docs](http://h.example/~x) and `http://code.example/~y`.\n";
    client.open(&markdown, "markdown", 1, text);
    let diagnostics = client.diagnostics(&markdown, 1);
    assert_eq!(
        diagnostics.len(),
        1,
        "code spans are not read: {diagnostics:#?}"
    );
    assert_eq!(
        diagnostics[0]["range"],
        utf16_range(text, text.find('~').unwrap_or(0), 1)
    );
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": markdown},
            "range": diagnostics[0]["range"],
            "context": {"diagnostics": [diagnostics[0]], "only": ["quickfix"]},
        }),
    );
    let edit = |k: usize| actions[k]["edit"]["changes"][&markdown][0]["newText"].clone();
    assert_eq!(edit(0), "%7E");
    assert_eq!(edit(1), " <!-- urlint: ignore[unsafe-char] -->");

    let html = file_uri(&dir.path().join("page.html"));
    let page = "<p><a href=\"http://h.example/&#126;x\">it</a></p>\n";
    client.open(&html, "html", 1, page);
    let diagnostics = client.diagnostics(&html, 1);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    let entity = page.find("&#126;").unwrap_or(0);
    assert_eq!(diagnostics[0]["range"], utf16_range(page, entity, 6));
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": html}, "position": {"line": 0, "character": 20}}),
    );
    let shown = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(shown.starts_with("URL http://h.example/~x\n"), "{shown}");
    assert!(shown.contains("as an HTML attribute value"), "{shown}");

    // Source code is linted only when the configuration includes it: the
    // worker lints in order, so a result for main.rs would come before
    // the one for notes.txt, opened after it.
    let code = file_uri(&dir.path().join("main.rs"));
    client.open(&code, "rust", 1, "// see http://h.example/~x\n");
    client.request_raw("textDocument/definition", json!({}));
    let notes = file_uri(&dir.path().join("notes.txt"));
    client.open(&notes, "plaintext", 1, "see http://h.example/~x\n");
    assert_eq!(client.diagnostics(&notes, 1).len(), 1);
    assert!(
        client
            .unread()
            .iter()
            .all(|message| message["params"]["uri"] != code),
        "{:?}",
        client.unread()
    );
    let (status, _) = client.shutdown_and_exit();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn compressed_documents_are_left_alone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut client, _) = Client::initialized(dir.path(), initialize_params(dir.path()));
    // An editor that opens notes.md.gz shows its own inflated copy: the
    // server neither lints nor fixes it, as fmt and --fix leave it.
    let compressed = file_uri(&dir.path().join("notes.md.gz"));
    client.open(&compressed, "markdown", 1, "see http://h.example/~x\n");
    let notes = file_uri(&dir.path().join("notes.txt"));
    client.open(&notes, "plaintext", 1, "see http://h.example/~x\n");
    assert_eq!(client.diagnostics(&notes, 1).len(), 1);
    assert!(
        client
            .unread()
            .iter()
            .all(|message| message["params"]["uri"] != compressed),
        "{:?}",
        client.unread()
    );
    let (status, _) = client.shutdown_and_exit();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn exit_without_shutdown_exits_1_and_requests_after_shutdown_are_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (client, _) = Client::initialized(dir.path(), json!({}));
    let (status, stderr) = client.exit();
    assert_eq!(status.code(), Some(1), "{stderr}");

    let (mut client, _) = Client::initialized(dir.path(), json!({}));
    assert_eq!(client.request("shutdown", Value::Null), Value::Null);
    let refused = client.request_raw(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///a.txt"}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    let (status, _) = client.exit();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn unknown_requests_are_answered_and_bad_params_do_not_end_the_session() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut client, _) = Client::initialized(dir.path(), json!({}));
    let unknown = client.request_raw("textDocument/definition", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let bad = client.request_raw("textDocument/hover", json!({"position": "nowhere"}));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    client.notify("textDocument/didOpen", json!({"textDocument": 7}));
    let uri = file_uri(&dir.path().join("a.txt"));
    client.open(&uri, "plaintext", 1, "http://h.example/~x\n");
    assert_eq!(client.diagnostics(&uri, 1).len(), 1);
    let (status, stderr) = client.shutdown_and_exit();
    assert_eq!(status.code(), Some(0));
    assert!(stderr.contains("textDocument/didOpen: "), "{stderr}");
}

/// A 10 MB document dense with URLs: the server answers requests while it
/// lints, publishes the latest version after a burst of edits, and caps
/// the diagnostics it sends.
#[test]
fn a_ten_megabyte_document_keeps_the_server_answering() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut client, _) = Client::initialized(dir.path(), json!({}));
    let mut text = String::with_capacity(10 << 20);
    let mut line = 0;
    while text.len() < 10 << 20 {
        text.push_str(&format!(
            "Line {line}: see http://h{line}.example/~u{line}/ and <URL:ftp://f.example/p{line}>\n"
        ));
        line += 1;
    }
    let uri = file_uri(&dir.path().join("big.txt"));
    client.open(&uri, "plaintext", 1, &text);
    let last = line as u32;
    for version in 2..=6 {
        client.change(
            &uri,
            version,
            json!([{"range": range((last, 0), (last, 0)), "text": "x"}]),
        );
    }
    // Answered while the worker lints.
    let answer = client.request_raw("textDocument/definition", json!({}));
    assert!(answer.get("error").is_some());
    // Results of versions the document has moved past are dropped: what is
    // published comes in version order and ends with the latest.
    let mut versions = Vec::new();
    let diagnostics = loop {
        let published = client.wait_for("diagnostics of the large document", |message| {
            message["method"] == "textDocument/publishDiagnostics"
        });
        let version = published["params"]["version"].as_i64().unwrap_or(0);
        versions.push(version);
        if version == 6 {
            break published["params"]["diagnostics"].clone();
        }
    };
    assert!(versions.windows(2).all(|w| w[0] < w[1]), "{versions:?}");
    assert_eq!(diagnostics.as_array().map(Vec::len), Some(5000), "capped");
    let (status, stderr) = client.shutdown_and_exit();
    assert_eq!(status.code(), Some(0));
    assert!(stderr.contains("showing the first 5000"), "{stderr}");
}

#[test]
fn a_connection_closed_without_exit_or_broken_ends_with_2() {
    let run = |input: &[u8]| {
        let (code, _, stderr) = serve_bytes(input, &[]);
        (code, stderr)
    };
    let (code, stderr) = run(b"");
    assert_eq!(code, Some(2));
    assert_eq!(
        stderr,
        "urlint: server: the client closed the connection without `exit`\n"
    );
    // A body that does not decode is logged, and the server reads on.
    let (code, stderr) = run(b"Content-Length: 5\r\n\r\n{\"a\":");
    assert_eq!(code, Some(2));
    assert!(
        stderr.starts_with("urlint server: a message did not decode: "),
        "{stderr}"
    );
    assert!(stderr.ends_with("without `exit`\n"), "{stderr}");
    // Framing that is lost ends the session.
    let (code, stderr) = run(b"Content-Length: x\r\n\r\n{}");
    assert_eq!(code, Some(2));
    assert!(stderr.contains("malformed LSP frame"), "{stderr}");
}

/// Before `initialize`, as the protocol says: a request is answered with
/// -32002 and a message naming it, a notification is dropped, and `exit`
/// ends the server with 1 (no `shutdown` came); a session then starts as
/// usual.
#[test]
fn before_initialize_requests_are_refused_notifications_dropped_and_exit_exits() {
    let frame = |body: &str| format!("Content-Length: {}\r\n\r\n{body}", body.len());
    let exit = frame(r#"{"jsonrpc":"2.0","method":"exit"}"#);
    let (code, stdout, stderr) = serve_bytes(exit.as_bytes(), &[]);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (Some(1), "", ""));

    let input = [
        frame(r#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{}}"#),
        frame(r#"{"jsonrpc":"2.0","id":7,"method":"textDocument/hover","params":{}}"#),
        frame(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#),
        frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#),
        frame(r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#),
        exit,
    ]
    .concat();
    let (code, stdout, stderr) = serve_bytes(input.as_bytes(), &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains(
            r#""id":7,"error":{"code":-32002,"message":"the server is not initialized: `textDocument/hover` must wait for `initialize`"}"#
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(r#""id":1,"result":{"capabilities""#),
        "{stdout}"
    );
    assert!(stdout.contains(r#""id":2,"result":null"#), "{stdout}");
    assert_eq!(stderr, "");
}

/// No client can take the server down: a frame larger than the limit is
/// refused with a log line and its body skipped, a header announcing a
/// terabyte allocates nothing, a lone surrogate escape is read as U+FFFD,
/// and a request that does not decode is answered with an error; each
/// time the next request is answered.
#[test]
fn hostile_frames_are_refused_and_the_session_goes_on() {
    let frame = |body: &str| format!("Content-Length: {}\r\n\r\n{body}", body.len());
    let initialize =
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#;
    let big = format!(
        r#"{{"jsonrpc":"2.0","method":"x","params":"{}"}}"#,
        "a".repeat(5000)
    );
    let open = r#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/a.txt","languageId":"plaintext","version":1,"text":"\ud800 http://a.example/~x"}}}"#;
    let broken = r#"{"jsonrpc":"2.0","id":2,"method":7}"#;
    let shutdown = r#"{"jsonrpc":"2.0","id":3,"method":"shutdown"}"#;
    let exit = r#"{"jsonrpc":"2.0","method":"exit"}"#;
    let input = [
        frame(initialize),
        frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#),
        frame(&big),
        frame(open),
        frame(broken),
        frame(shutdown),
        frame(exit),
    ]
    .concat();
    let (code, stdout, stderr) = serve_bytes(input.as_bytes(), &["--max-message-bytes", "4096"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("bytes was refused: the limit is 4096 bytes"),
        "{stderr}"
    );
    assert!(
        stdout.contains(r#""id":2,"error":{"code":-32700"#),
        "{stdout}"
    );
    assert!(stdout.contains(r#""id":3,"result":null"#), "{stdout}");
    // The document with the surrogate ended nothing (what it reads as is
    // tested in server::transport).
    assert_eq!(stderr.matches("did not decode").count(), 1, "{stderr}");
    // A terabyte announced, a few bytes sent: nothing is allocated for it.
    let lie = format!(
        "{}Content-Length: 1000000000000\r\n\r\n{{}}",
        frame(initialize)
    );
    let (code, _, stderr) = serve_bytes(lie.as_bytes(), &[]);
    assert_eq!(code, Some(2), "{stderr}");
}

/// Run `urlint server ARGS` on `input` to its end: (exit code, stdout, stderr).
fn serve_bytes(input: &[u8], args: &[&str]) -> (Option<i32>, String, String) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_urlint"))
        .arg("server")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("urlint server starts");
    let mut stdin = child.stdin.take().expect("piped");
    std::io::Write::write_all(&mut stdin, input).expect("write");
    drop(stdin);
    let deadline = std::time::Instant::now() + lsp_client::TIMEOUT;
    while child.try_wait().expect("wait").is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server did not end");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let output = child.wait_with_output().expect("the server ended");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_page_left_open_is_a_warning_where_it_opened_not_a_message_on_every_edit() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut client, _) = Client::initialized(dir.path(), initialize_params(dir.path()));
    let html = file_uri(&dir.path().join("page.html"));
    let page = "<p title=\"oops>see http://h.example/~x</p>\n<p>more</p>\n";
    client.open(&html, "html", 1, page);
    let diagnostics = client.diagnostics(&html, 1);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    let warning = &diagnostics[0];
    let quote = page.find('"').unwrap_or(0);
    assert_eq!(warning["range"], utf16_range(page, quote, 1));
    assert_eq!(warning["severity"], 2);
    assert_eq!(
        warning["message"],
        "the attribute value quoted at line 1, column 10 is never closed: the rest of the \
         input (to line 2) was read as that value, as a browser reads it, so its URLs were \
         not checked"
    );
    let end = warning["relatedInformation"][0]["location"]["range"].clone();
    assert_eq!(end, utf16_range(page, page.len() - 1, 1));
    // The quote typed, the warning goes and the URL is read.
    let closed = page.replacen("oops", "oops\"", 1);
    client.change(&html, 2, json!([{"text": closed}]));
    let diagnostics = client.diagnostics(&html, 2);
    assert_eq!(
        with_code(&diagnostics, "unsafe-char").len(),
        1,
        "{diagnostics:#?}"
    );
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert!(
        client
            .unread()
            .iter()
            .all(|message| message["method"] != "window/showMessage"),
        "{:?}",
        client.unread()
    );
    let (status, _) = client.shutdown_and_exit();
    assert_eq!(status.code(), Some(0));
}
