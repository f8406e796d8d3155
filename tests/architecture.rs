//! The source tree's import graph, checked: file to file, from every `use`
//! line (`crate::`, `super::`, `self::` and child modules) and every inline
//! `crate::`, `super::` or child-module path, with no import running back up
//! the layers docs/architecture.md describes, and no circle.
//!
//! Unit tests (`#[cfg(test)]` modules and files) must respect the layers
//! too, but are left out of the circle check: a grammar file's tests may run
//! the whole validator that the grammar file is part of.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The layers, lowest first: a file may import files of its own top-level
/// module and of modules on lower layers only. Modules on one layer do not
/// import each other (the reading side and the reporters, for example).
const LAYERS: &[&[&str]] = &[
    &["span", "source", "profile", "escape"],
    &["rules", "offset_map"],
    &["diagnostic", "markup"],
    &["mail"],
    &["validate", "template"],
    &["scan"],
    &["lint"],
    &["checked", "rewrite"],
    &["input", "report", "write"],
    &["config"],
    &["server", "python"],
    &["app"],
    &["crate"],
];

/// The layer of a top-level module.
fn layer(top: &str) -> usize {
    LAYERS
        .iter()
        .position(|layer| layer.contains(&top))
        .unwrap_or_else(|| panic!("module `{top}` is on no layer: add it to LAYERS and docs"))
}

/// One source file and the module path it defines (`crate::lint::finding`).
#[derive(Debug)]
struct File {
    module: Vec<String>,
    /// The path from the crate root, `src/lint/finding.rs`.
    path: String,
    text: String,
}

/// A reference from one file: the module it was written in, the path, and
/// whether it is test code.
struct Reference {
    here: Vec<String>,
    path: Vec<String>,
    test: bool,
}

/// Every file under src/ except the binary's root, by module path.
fn source_files() -> BTreeMap<Vec<String>, File> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = BTreeMap::new();
    let mut pending = vec![root.clone()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).expect("src/ is readable") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs") && !path.ends_with("main.rs")
            {
                let module = module_path(&root, &path);
                let text = fs::read_to_string(&path).expect("source is UTF-8");
                let relative = path.strip_prefix(root.parent().expect("crate root"));
                let path = relative.expect("under the crate").display().to_string();
                files.insert(module.clone(), File { module, path, text });
            }
        }
    }
    files
}

/// `src/lint/mod.rs` -> `[crate, lint]`, `src/lint/finding.rs` -> `[crate, lint, finding]`.
fn module_path(root: &Path, path: &Path) -> Vec<String> {
    let relative: PathBuf = path.strip_prefix(root).expect("under src").into();
    let mut module = vec!["crate".to_string()];
    for component in relative.with_extension("").components() {
        let name = component.as_os_str().to_string_lossy().into_owned();
        if name != "mod" && name != "lib" {
            module.push(name);
        }
    }
    module
}

/// The code of `text` without comments (line comments, doc comments and
/// the tail of a line after `//` outside a string).
fn code_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(|line| {
            let mut in_string = false;
            let mut previous = ' ';
            for (at, c) in line.char_indices() {
                match c {
                    '"' if previous != '\\' => in_string = !in_string,
                    '/' if !in_string && previous == '/' => return line[..at - 1].to_string(),
                    _ => {}
                }
                previous = c;
            }
            line.to_string()
        })
        .collect()
}

/// Module paths a file refers to, each as written with the module it was
/// written in (inline `mod tests { ... }` blocks change what `super` means).
/// `children` are the file's own submodules, whose paths (`human::X`) are
/// references too.
fn references(file: &File, children: &[String], test_file: bool) -> Vec<Reference> {
    let lines = code_lines(&file.text);
    let mut found = Vec::new();
    // Inline modules open around the current line: (name, indentation, test).
    let mut inline: Vec<(String, usize, bool)> = Vec::new();
    let mut statement = String::new();
    let mut previous = String::new();
    for line in &lines {
        let after_cfg_test = previous.trim() == "#[cfg(test)]";
        if !line.trim().is_empty() {
            previous = line.clone();
        }
        let test = test_file || inline.iter().any(|(_, _, test)| *test);
        let indent = line.len() - line.trim_start().len();
        let trimmed = line.trim();
        if let Some((_, open, _)) = inline.last() {
            if trimmed == "}" && indent == *open {
                inline.pop();
                continue;
            }
        }
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        let mod_at = words.iter().position(|word| *word == "mod");
        if let Some(at) = mod_at {
            if words.get(at + 2) == Some(&"{") {
                inline.push((words[at + 1].to_string(), indent, after_cfg_test));
                continue;
            }
        }
        let mut here = file.module.clone();
        here.extend(inline.iter().map(|(name, _, _)| name.clone()));
        let is_use = words
            .iter()
            .take_while(|word| word.starts_with("pub"))
            .count();
        if !statement.is_empty() || words.get(is_use) == Some(&"use") {
            statement.push_str(trimmed);
            statement.push(' ');
            if trimmed.ends_with(';') {
                let body = statement
                    .split_once("use ")
                    .map_or("", |(_, body)| body)
                    .trim_end_matches([';', ' ']);
                for path in expand_use(body) {
                    found.push(Reference {
                        here: here.clone(),
                        path,
                        test,
                    });
                }
                statement.clear();
            }
            continue;
        }
        let prefixes = ["crate::".to_string(), "super::".to_string()]
            .into_iter()
            .chain(children.iter().map(|child| format!("{child}::")));
        for prefix in prefixes {
            let prefix = prefix.as_str();
            let mut rest = line.as_str();
            while let Some(at) = rest.find(prefix) {
                let before = rest[..at].chars().last();
                let tail = &rest[at..];
                rest = &rest[at + prefix.len()..];
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                let end = tail
                    .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .unwrap_or(tail.len());
                let path: Vec<String> = tail[..end]
                    .split("::")
                    .filter(|segment| !segment.is_empty())
                    .map(str::to_string)
                    .collect();
                found.push(Reference {
                    here: here.clone(),
                    path,
                    test,
                });
            }
        }
    }
    found
}

/// True when `file` is compiled for tests only (`#[cfg(test)] mod name;` in
/// its parent).
fn is_test_file(files: &BTreeMap<Vec<String>, File>, file: &File) -> bool {
    let Some((name, parent)) = file.module.split_last() else {
        return false;
    };
    let Some(parent) = files.get(parent) else {
        return false;
    };
    let declaration = format!("mod {name};");
    let lines: Vec<&str> = parent.text.lines().map(str::trim).collect();
    lines.windows(2).any(|pair| {
        pair[0] == "#[cfg(test)]" && pair[1].trim_start_matches("pub(crate) ") == declaration
    })
}

/// The paths a `use` body names: `a::{b, c::{d, e}}` -> `a::b`, `a::c::d`, `a::c::e`.
fn expand_use(body: &str) -> Vec<Vec<String>> {
    let alias = regex::Regex::new(r"\s+as\s+\w+").expect("valid pattern");
    let body: String = alias
        .replace_all(body, "")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let Some(open) = body.find('{') else {
        return vec![body.split("::").map(str::to_string).collect()];
    };
    let prefix = body[..open].trim_end_matches("::");
    let inner = &body[open + 1..body.len() - 1];
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|part| !part.is_empty())
        .flat_map(|part| {
            expand_use(part).into_iter().map(|mut path| {
                let mut full: Vec<String> = prefix.split("::").map(str::to_string).collect();
                if path.first().is_some_and(|first| first != "self") {
                    full.append(&mut path);
                }
                full
            })
        })
        .collect()
}

/// The file a path refers to, written in module `here`: the deepest module
/// with a file of its own that the path names. `None` for other crates.
fn resolve(
    files: &BTreeMap<Vec<String>, File>,
    here: &[String],
    path: &[String],
) -> Option<Vec<String>> {
    let mut absolute: Vec<String> = here.to_vec();
    let mut segments = path.iter().peekable();
    match segments.peek().map(|segment| segment.as_str()) {
        Some("crate") => {
            absolute = vec!["crate".to_string()];
            segments.next();
        }
        Some("self") => {
            segments.next();
        }
        Some("super") => {
            while segments.peek().is_some_and(|segment| *segment == "super") {
                absolute.pop();
                segments.next();
            }
        }
        Some(first) => {
            let mut child = here.to_vec();
            child.push(first.to_string());
            if !files.contains_key(&child) {
                return None;
            }
        }
        None => return None,
    }
    absolute.extend(segments.cloned());
    (1..=absolute.len())
        .rev()
        .map(|len| absolute[..len].to_vec())
        .find(|prefix| files.contains_key(prefix))
}

/// An import of one file by another.
type Edge = (Vec<String>, Vec<String>);

/// The file-to-file import edges of the tree: all of them, and those of
/// the library's own code (no test code).
fn edges(files: &BTreeMap<Vec<String>, File>) -> (BTreeSet<Edge>, BTreeSet<Edge>) {
    let mut all = BTreeSet::new();
    let mut library = BTreeSet::new();
    for file in files.values() {
        let children: Vec<String> = files
            .keys()
            .filter(|module| module.len() == file.module.len() + 1)
            .filter(|module| module.starts_with(&file.module))
            .filter_map(|module| module.last().cloned())
            .collect();
        for reference in references(file, &children, is_test_file(files, file)) {
            let Some(target) = resolve(files, &reference.here, &reference.path) else {
                continue;
            };
            if target != file.module {
                let edge = (file.module.clone(), target);
                if !reference.test {
                    library.insert(edge.clone());
                }
                all.insert(edge);
            }
        }
    }
    (all, library)
}

fn name(module: &[String]) -> String {
    module.join("::")
}

/// The top-level module a file belongs to (`crate` for lib.rs).
fn top(module: &[String]) -> &str {
    module.get(1).map_or("crate", String::as_str)
}

#[test]
fn imports_never_run_up_a_layer() {
    let files = source_files();
    let upward: Vec<String> = edges(&files)
        .0
        .into_iter()
        .filter(|(from, to)| {
            let (from_top, to_top) = (top(from), top(to));
            from_top != to_top && layer(from_top) <= layer(to_top)
        })
        .map(|(from, to)| format!("{} -> {}", name(&from), name(&to)))
        .collect();
    assert!(
        upward.is_empty(),
        "imports up or across a layer:\n{upward:#?}"
    );
}

#[test]
fn imports_form_no_circle() {
    let files = source_files();
    let mut graph: BTreeMap<Vec<String>, Vec<Vec<String>>> = BTreeMap::new();
    for (from, to) in edges(&files).1 {
        graph.entry(from).or_default().push(to);
    }
    // Depth-first search; a grey node met again closes a circle.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Grey,
        Black,
    }
    fn visit(
        node: &Vec<String>,
        graph: &BTreeMap<Vec<String>, Vec<Vec<String>>>,
        marks: &mut BTreeMap<Vec<String>, Mark>,
        stack: &mut Vec<Vec<String>>,
    ) -> Option<Vec<String>> {
        match marks.get(node) {
            Some(Mark::Black) => return None,
            Some(Mark::Grey) => {
                let start = stack.iter().position(|entry| entry == node).unwrap_or(0);
                let mut circle: Vec<String> = stack[start..].iter().map(|m| name(m)).collect();
                circle.push(name(node));
                return Some(circle);
            }
            None => {}
        }
        marks.insert(node.clone(), Mark::Grey);
        stack.push(node.clone());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(circle) = visit(next, graph, marks, stack) {
                return Some(circle);
            }
        }
        stack.pop();
        marks.insert(node.clone(), Mark::Black);
        None
    }
    let mut marks = BTreeMap::new();
    for node in files.keys() {
        let circle = visit(node, &graph, &mut marks, &mut Vec::new());
        assert!(
            circle.is_none(),
            "import circle: {}",
            circle.unwrap_or_default().join(" -> ")
        );
    }
}

#[test]
fn the_checker_sees_what_it_must() {
    let files = source_files();
    let (edges, library) = edges(&files);
    let has = |from: &str, to: &str| edges.iter().any(|(a, b)| name(a) == from && name(b) == to);
    // A `use crate::` line, a `super::` sibling, a child re-export, and an
    // inline path each make an edge.
    assert!(has("crate::lint::finding", "crate::scan"));
    assert!(has("crate::lint::suppress", "crate::lint::finding"));
    assert!(has("crate::lint", "crate::lint::levels"));
    assert!(has("crate::app", "crate::app::commands"));
    // Test code is seen, and kept out of the library's own graph.
    let test_edge = (
        vec![
            "crate".to_string(),
            "validate".to_string(),
            "test_cases".to_string(),
        ],
        vec!["crate".to_string(), "validate".to_string()],
    );
    assert!(edges.contains(&test_edge));
    assert!(!library.contains(&test_edge));
    assert_eq!(
        expand_use("crate::a::{self, b, c::{d, e as f}}"),
        [
            vec!["crate", "a"],
            vec!["crate", "a", "b"],
            vec!["crate", "a", "c", "d"],
            vec!["crate", "a", "c", "e"],
        ]
    );
}

/// The checklist of docs/architecture.md under `heading`: from it to the
/// next heading.
fn checklist<'a>(doc: &'a str, heading: &str) -> &'a str {
    let start = doc
        .find(heading)
        .unwrap_or_else(|| panic!("docs/architecture.md has no '{heading}'"));
    let body = &doc[start + heading.len()..];
    &body[..body.find("\n#").unwrap_or(body.len())]
}

/// The code of `file` before its tests (test modules close each file).
fn code_before_tests(file: &File) -> String {
    let text = match file.text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &file.text[..at],
        None => &file.text,
    };
    code_lines(text).join("\n")
}

#[test]
fn each_checklist_names_every_place_that_matches_on_its_enum() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("docs/architecture.md")).expect("readable");
    let files = source_files();
    let checks = [
        ("### A new markup", "Markup::Rst"),
        ("### A new input kind", "Content::Mail"),
        ("### A new input kind", "InputKind::Eml"),
        ("### A new output format", "Format::Sarif"),
        ("### A new output format", "ExtractFormat::Json"),
    ];
    let mut missing = Vec::new();
    for (heading, variant) in checks {
        let list = checklist(&doc, heading);
        let places = files.values().filter(|file| {
            !is_test_file(&files, file)
                && code_before_tests(file)
                    .split(variant)
                    .skip(1)
                    .any(|after| !after.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
        });
        let named = |file: &&File| {
            let short = file.path.trim_start_matches("src/");
            list.contains(&file.path) || list.contains(&format!("`{short}`"))
        };
        let mut count = 0;
        for file in places {
            count += 1;
            if !named(&file) {
                missing.push(format!("{heading}: {} names {variant}", file.path));
            }
        }
        assert!(
            count > 0,
            "no file names {variant}: is the checker reading the code?"
        );
    }
    assert!(
        missing.is_empty(),
        "not in docs/architecture.md:\n{}",
        missing.join("\n")
    );
}

/// Layers above `lint`, which place findings made below them.
const PLACING_LAYERS: &[&str] = &[
    "checked", "rewrite", "input", "report", "write", "config", "server", "python", "app",
];

#[test]
fn findings_are_placed_by_their_typed_place_not_their_diagnostic_span() {
    // A diagnostic's span indexes the URL or the source depending on who
    // made it; past the linter, `Finding::at` says which, as a typed span.
    let files = source_files();
    let mut readers = Vec::new();
    let mut placing = 0;
    for file in files.values() {
        if is_test_file(&files, file) || !PLACING_LAYERS.contains(&top(&file.module)) {
            continue;
        }
        let code = code_before_tests(file);
        placing += usize::from(code.contains(".at"));
        for line in code.lines().filter(|line| line.contains("diagnostic.span")) {
            readers.push(format!("{}: {}", file.path, line.trim()));
        }
    }
    assert!(
        placing > 0,
        "no file places a finding: is the checker reading the code?"
    );
    assert!(
        readers.is_empty(),
        "place findings with `Finding::at` (a UrlSpan or a SourceSpan):\n{}",
        readers.join("\n")
    );
}
