//! Code actions: for each finding under the cursor, its fix and a
//! suppression comment for its rule, as `quickfix`es; every fix of the
//! document at once (`source.fixAll.urlint`). Where a fix lands is the
//! `fixes` module's business; here it only becomes an edit the client
//! applies.

use std::collections::HashMap;
use std::ops::ControlFlow;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, DocumentChanges, OneOf,
    OptionalVersionedTextDocumentIdentifier, TextDocumentEdit, TextEdit, Uri, WorkspaceEdit,
};

use super::analysis::{Analysis, PlacedFinding};
use super::comments::{suppression, CommentStyle};
use super::diagnostics::{diagnostic, range};
use super::edit::SourceEdit;
use super::fixes::{fix_all, fix_edits};
use crate::report::fix_instruction;
use crate::rules::Rule;
use crate::span::Span;

/// The kind of the action that applies every fix of a document.
pub(super) const FIX_ALL: &str = "source.fixAll.urlint";

/// What a code action request asks about.
#[derive(Debug)]
pub(super) struct Request<'r> {
    /// The document.
    pub uri: &'r Uri,
    /// Its analysis at its current version.
    pub analysis: &'r Analysis,
    /// The bytes the request's range covers.
    pub span: Span,
    /// The kinds the client asks for, all when `None`.
    pub only: Option<&'r [CodeActionKind]>,
    /// How the document's language writes comments.
    pub style: CommentStyle,
    /// The client takes versioned document edits, which it refuses to
    /// apply to a document that changed since.
    pub versioned: bool,
}

/// The code actions for `request`: for each finding it covers, its fix;
/// for each rule found on each URL it covers, the suppression; then the
/// document's fix-all action.
pub(super) fn code_actions(request: &Request<'_>) -> Vec<CodeActionOrCommand> {
    let analysis = request.analysis;
    let mut actions = Vec::new();
    let mut suppressed: Vec<(usize, Rule)> = Vec::new();
    let urls = analysis.urls_touching(request.span);
    let _ = analysis.visit_findings(urls, &mut |placed| {
        if placed.touches(request.span) {
            actions.extend(finding_actions(request, placed, &mut suppressed));
        }
        ControlFlow::Continue(())
    });
    if wants(request.only, &CodeActionKind::new(FIX_ALL)) {
        if let Some(fixed) = fix_all(analysis) {
            let s = if fixed.fixed == 1 { "" } else { "s" };
            actions.push(CodeAction {
                title: format!("Fix {} URL problem{s} (urlint check --fix)", fixed.fixed),
                kind: Some(CodeActionKind::new(FIX_ALL)),
                edit: Some(workspace_edit(request, &[fixed.edit])),
                ..CodeAction::default()
            });
        }
    }
    actions
        .into_iter()
        .filter(|action| {
            action
                .kind
                .as_ref()
                .is_some_and(|kind| wants(request.only, kind))
        })
        .map(CodeActionOrCommand::CodeAction)
        .collect()
}

/// The quick fixes for one finding the request covers: its fix, and the
/// suppression of its rule on its URL unless `suppressed` already offers
/// it.
fn finding_actions(
    request: &Request<'_>,
    placed: &PlacedFinding<'_>,
    suppressed: &mut Vec<(usize, Rule)>,
) -> Vec<CodeAction> {
    let analysis = request.analysis;
    let mut actions = Vec::new();
    let finding = placed.finding;
    let rule = finding.diagnostic.rule;
    if let Some(edits) = fix_edits(analysis, placed) {
        let instruction =
            fix_instruction(placed.checked, placed.report(), finding).unwrap_or_default();
        actions.push(CodeAction {
            title: format!("Fix {}: {instruction}", rule.name()),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![diagnostic(analysis, request.uri, placed)]),
            edit: Some(workspace_edit(request, &edits)),
            is_preferred: Some(true),
            ..CodeAction::default()
        });
    }
    // A finding about the text itself is about a directive: it is
    // removed or fixed, not suppressed.
    let Some(url) = placed.url else {
        return actions;
    };
    if !suppressed.contains(&(url.index, rule)) {
        suppressed.push((url.index, rule));
        let edit = suppression(analysis, url.extent.start, rule, request.style);
        actions.push(CodeAction {
            title: format!("Ignore {} for this URL (urlint: ignore)", rule.name()),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![diagnostic(analysis, request.uri, placed)]),
            edit: Some(workspace_edit(request, &[edit])),
            ..CodeAction::default()
        });
    }
    actions
}

/// True when the client's `only` list asks for actions of `kind`: it names
/// the kind or a kind it refines (`source.fixAll` covers
/// `source.fixAll.urlint`).
fn wants(only: Option<&[CodeActionKind]>, kind: &CodeActionKind) -> bool {
    let Some(only) = only else {
        return true;
    };
    let kind = kind.as_str();
    only.iter().any(|asked| {
        let asked = asked.as_str();
        kind == asked
            || kind
                .strip_prefix(asked)
                .is_some_and(|rest| rest.starts_with('.'))
    })
}

/// `edits` of the request's document as a workspace edit.
fn workspace_edit(request: &Request<'_>, edits: &[SourceEdit]) -> WorkspaceEdit {
    let edits: Vec<TextEdit> = edits
        .iter()
        .map(|edit| TextEdit::new(range(request.analysis, edit.span), edit.replacement.clone()))
        .collect();
    if request.versioned {
        let edit = TextDocumentEdit {
            text_document: OptionalVersionedTextDocumentIdentifier {
                uri: request.uri.clone(),
                version: Some(request.analysis.version),
            },
            edits: edits.into_iter().map(OneOf::Left).collect(),
        };
        WorkspaceEdit {
            document_changes: Some(DocumentChanges::Edits(vec![edit])),
            ..WorkspaceEdit::default()
        }
    } else {
        WorkspaceEdit {
            changes: Some(HashMap::from([(request.uri.clone(), edits)])),
            ..WorkspaceEdit::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::str::FromStr;
    use std::sync::Arc;

    use crate::server::analysis::DocumentReading;
    use crate::server::position::Encoding;

    #[test]
    fn kinds_asked_for_cover_their_refinements() {
        let quickfix = CodeActionKind::QUICKFIX;
        assert!(wants(None, &quickfix));
        assert!(wants(Some(&[CodeActionKind::QUICKFIX]), &quickfix));
        let fix_all = CodeActionKind::new("source.fixAll.urlint");
        assert!(wants(Some(&[CodeActionKind::SOURCE_FIX_ALL]), &fix_all));
        assert!(wants(Some(&[CodeActionKind::SOURCE]), &fix_all));
        assert!(!wants(Some(&[CodeActionKind::QUICKFIX]), &fix_all));
        assert!(!wants(Some(&[CodeActionKind::new("source.fix")]), &fix_all));
    }

    #[test]
    fn findings_under_the_cursor_offer_fixes_and_one_suppression_per_rule() {
        let text = "a http://h.example/~x{y} b\nc http://k.example/a|b\n";
        let analysis = Analysis::run(
            Some(PathBuf::from("/w/a.md")),
            4,
            Arc::new(text.to_string()),
            DocumentReading::default(),
            Encoding::Utf16,
        );
        let uri = Uri::from_str("file:///w/a.md").expect("a URI");
        let tilde = text.find('~').unwrap();
        let request = Request {
            uri: &uri,
            analysis: &analysis,
            // Both '~' and '{': one rule, one suppression.
            span: Span::new(tilde, tilde + 3),
            only: None,
            style: CommentStyle::of("markdown", None),
            versioned: true,
        };
        let titles: Vec<String> = code_actions(&request)
            .into_iter()
            .map(|action| match action {
                CodeActionOrCommand::CodeAction(action) => action.title,
                CodeActionOrCommand::Command(command) => command.title,
            })
            .collect();
        // '{y}' reads as a template: its fix is only a suggestion.
        assert_eq!(
            titles,
            [
                "Fix unsafe-char: replace `~` with `%7E`",
                "Ignore unsafe-char for this URL (urlint: ignore)",
                "Fix 2 URL problems (urlint check --fix)",
            ]
        );
        let only = [CodeActionKind::SOURCE_FIX_ALL];
        let fix_all_only = Request {
            only: Some(&only),
            ..request
        };
        assert_eq!(code_actions(&fix_all_only).len(), 1);
    }
}
