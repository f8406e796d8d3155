//! RFC 6570 section 2.2 to 2.4: the grammar of one expression, the text
//! between its `{` and `}`.
//!
//! ```text
//! expression    = "{" [ operator ] variable-list "}"
//! operator      = op-level2 / op-level3 / op-reserve
//! op-level2     = "+" / "#"
//! op-level3     = "." / "/" / ";" / "?" / "&"
//! op-reserve    = "=" / "," / "!" / "@" / "|"
//! variable-list = varspec *( "," varspec )
//! varspec       = varname [ modifier-level4 ]
//! varname       = varchar *( ["."] varchar )
//! varchar       = ALPHA / DIGIT / "_" / pct-encoded
//! modifier-level4 = prefix / explode
//! prefix        = ":" max-length
//! max-length    = %x31-39 0*3DIGIT   ; positive integer < 10000
//! explode       = "*"
//! ```

/// Operators RFC 6570 defines (levels 2 and 3).
const OPERATORS: &[u8] = b"+#./;?&";

/// Operators RFC 6570 reserves for future extensions.
const RESERVED_OPERATORS: &[u8] = b"=,!@|";

/// Most digits of a prefix's max-length (below 10000).
const MAX_LENGTH_DIGITS: usize = 4;

/// What is wrong with an expression: where in its text, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Flaw {
    /// Offset of the offending bytes in the expression's text.
    pub(super) at: usize,
    /// How many bytes are offending (at least one, but for a missing part).
    pub(super) len: usize,
    /// What is wrong.
    pub(super) message: String,
    /// The grammar rule broken, with its section.
    pub(super) help: &'static str,
}

const HELP_OPERATOR: &str = "RFC 6570 section 2.2: '=', ',', '!', '@' and '|' are reserved \
     operators (op-reserve) that no template processor expands; the operators are '+', '#', \
     '.', '/', ';', '?' and '&'";
const HELP_VARSPEC: &str = "RFC 6570 section 2.3: variable-list = varspec *( \",\" varspec ), \
     varname = varchar *( [\".\"] varchar ), varchar = ALPHA / DIGIT / \"_\" / pct-encoded";
const HELP_PREFIX: &str = "RFC 6570 section 2.4.1: prefix = \":\" max-length, a positive \
     integer below 10000 (max-length = %x31-39 0*3DIGIT)";
const HELP_EXPLODE: &str = "RFC 6570 section 2.4: a varspec ends with at most one modifier, \
     a prefix (\":\" max-length) or explode (\"*\")";

/// Check the text between an expression's braces against RFC 6570.
pub(super) fn check_expression(text: &str) -> Result<(), Flaw> {
    let bytes = text.as_bytes();
    let Some(&first) = bytes.first() else {
        return Err(flaw(
            0,
            0,
            "an empty expression '{}' names no variable".into(),
            HELP_VARSPEC,
        ));
    };
    if RESERVED_OPERATORS.contains(&first) {
        let message = format!(
            "operator '{}' is reserved by RFC 6570 for future extensions",
            first as char
        );
        return Err(flaw(0, 1, message, HELP_OPERATOR));
    }
    let mut at = usize::from(OPERATORS.contains(&first));
    loop {
        at = varspec(text, at)?;
        match bytes.get(at) {
            None => return Ok(()),
            Some(b',') => at += 1,
            Some(_) => {
                let c = char_at(text, at);
                let message = format!("character '{c}' is not allowed in a variable name");
                return Err(flaw(at, c.len_utf8(), message, HELP_VARSPEC));
            }
        }
    }
}

/// Read one varspec from `at`; where it ends.
fn varspec(text: &str, at: usize) -> Result<usize, Flaw> {
    let bytes = text.as_bytes();
    let name_end = varname(text, at)?;
    match bytes.get(name_end) {
        Some(b':') => {
            let digits = bytes[name_end + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let length = &text[name_end + 1..name_end + 1 + digits];
            if digits == 0 || digits > MAX_LENGTH_DIGITS || length.starts_with('0') {
                let message = match digits {
                    0 => "a prefix modifier ':' needs a length".to_string(),
                    _ => format!("prefix length '{length}' must be a positive integer below 10000"),
                };
                return Err(flaw(name_end, digits + 1, message, HELP_PREFIX));
            }
            Ok(after_modifier(bytes, name_end + 1 + digits)?)
        }
        Some(b'*') => Ok(after_modifier(bytes, name_end + 1)?),
        _ => Ok(name_end),
    }
}

/// After a modifier only `,` or the end may come.
fn after_modifier(bytes: &[u8], at: usize) -> Result<usize, Flaw> {
    match bytes.get(at) {
        Some(b':' | b'*') => Err(flaw(
            at,
            1,
            "a variable takes one modifier, a prefix or an explode".into(),
            HELP_EXPLODE,
        )),
        _ => Ok(at),
    }
}

/// Read a varname from `at`; where it ends.
fn varname(text: &str, start: usize) -> Result<usize, Flaw> {
    let bytes = text.as_bytes();
    let mut at = start;
    let mut after_dot = true;
    loop {
        match bytes.get(at) {
            Some(b) if b.is_ascii_alphanumeric() || *b == b'_' => {
                at += 1;
                after_dot = false;
            }
            Some(b'%') => {
                let hex = bytes.get(at + 1..at + 3);
                if !hex.is_some_and(|pair| pair.iter().all(u8::is_ascii_hexdigit)) {
                    let message = "'%' in a variable name must start a percent-encoding".into();
                    return Err(flaw(at, 1, message, HELP_VARSPEC));
                }
                at += 3;
                after_dot = false;
            }
            Some(b'.') if !after_dot => {
                at += 1;
                after_dot = true;
            }
            other => {
                if at == start {
                    let message = match other {
                        None | Some(b',') => "an empty variable name".to_string(),
                        Some(_) => format!(
                            "character '{}' cannot start a variable name",
                            char_at(text, at)
                        ),
                    };
                    let len = match other {
                        None | Some(b',') => 0,
                        Some(_) => char_at(text, at).len_utf8(),
                    };
                    return Err(flaw(at, len, message, HELP_VARSPEC));
                }
                if after_dot {
                    let message = "a variable name cannot end with '.' or hold '..'".into();
                    return Err(flaw(at - 1, 1, message, HELP_VARSPEC));
                }
                return Ok(at);
            }
        }
    }
}

fn char_at(text: &str, at: usize) -> char {
    text[at..].chars().next().unwrap_or(' ')
}

fn flaw(at: usize, len: usize, message: String, help: &'static str) -> Flaw {
    Flaw {
        at,
        len,
        message,
        help,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every expression of RFC 6570 sections 1.2 and 3.2, between its braces.
    const RFC_6570_EXPRESSIONS: &[&str] = &[
        "var",
        "hello",
        "+var",
        "+hello",
        "+path",
        "#var",
        "#hello",
        "x,y",
        "x,hello,y",
        "+x,hello,y",
        "+path,x",
        "#x,hello,y",
        "#path,x",
        ".var",
        ".x,y",
        "/var",
        "/var,x",
        ";x,y",
        ";x,y,empty",
        "?x,y",
        "?x,y,empty",
        "&x",
        "var:3",
        "var:30",
        "list",
        "list*",
        "keys",
        "keys*",
        "+path:6",
        "+list",
        "+list*",
        "+keys",
        "+keys*",
        "#path:6",
        "#list*",
        "#keys*",
        "/var:1,var",
        "/list*,path:4",
        ";hello:5",
        "?var:3",
        "?list*",
        "&keys*",
        "count",
        "count*",
        "/count",
        "/count*",
        ";count",
        ";count*",
        "?count",
        "?count*",
        "&count*",
        "who",
        "half",
        "base",
        "dub",
        "v",
        "empty_keys",
        "undef",
        "semi",
        "semi:2",
        "?who",
        "?half",
        "&half",
        ".who",
        ".who,who",
        ".half,who",
        ".dom*",
        "/who,who",
        "/half,who",
        "/who,dub",
        "/var:1,var",
        "/list*",
        ";v,empty,who",
        ";v,bar,who",
        ";x,y,undef",
        "?x,y,undef",
        "?var",
        "?list",
        "&x,empty",
        "&var:3",
        "&list*",
        "x,empty",
        "x,undef",
        "var:20",
        "a.b.c",
        "a%20b",
        "_0",
    ];

    #[test]
    fn rfc6570_examples_are_expressions() {
        for expression in RFC_6570_EXPRESSIONS {
            assert_eq!(check_expression(expression), Ok(()), "{{{expression}}}");
        }
    }

    /// Each bad expression, the text its flaw spans and a word of its message.
    const BAD: &[(&str, &str, &str)] = &[
        ("", "", "empty expression"),
        ("=x", "=", "reserved"),
        ("!x", "!", "reserved"),
        ("@x", "@", "reserved"),
        ("|x", "|", "reserved"),
        (",x", ",", "reserved"),
        ("x,", "", "empty variable name"),
        ("x,,y", "", "empty variable name"),
        ("+", "", "empty variable name"),
        ("a-b", "-", "not allowed"),
        ("-a", "-", "cannot start"),
        ("a b", " ", "not allowed"),
        ("a..b", ".", "'..'"),
        ("a.", ".", "end with '.'"),
        (".a.", ".", "end with '.'"),
        ("a%2", "%", "percent-encoding"),
        ("var:0", ":0", "positive integer"),
        ("var:10000", ":10000", "positive integer"),
        ("var:", ":", "needs a length"),
        ("var:3*", "*", "one modifier"),
        ("var**", "*", "one modifier"),
        ("x:3y", "y", "not allowed"),
    ];

    #[test]
    fn rfc6570_2_grammar_flaws_are_placed_and_named() {
        for &(expression, spanned, word) in BAD {
            let flaw = check_expression(expression).expect_err(expression);
            assert_eq!(
                &expression[flaw.at..flaw.at + flaw.len],
                spanned,
                "{expression:?}"
            );
            assert!(
                flaw.message.contains(word),
                "{expression:?}: {}",
                flaw.message
            );
            assert!(
                flaw.help.starts_with("RFC 6570 section 2."),
                "{expression:?}"
            );
        }
    }
}
