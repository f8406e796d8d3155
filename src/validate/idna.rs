//! The ASCII form of an internationalised host name, to tell the author
//! how to write a host that neither profile allows as it stands: each
//! label with a character outside ASCII becomes `xn--` and its Punycode
//! (RFC 3492, the A-label of RFC 5891). Labels are lower-cased but not
//! otherwise mapped (UTS 46 normalisation is the resolver's), so the form
//! is the one to write for a name already in its normal form.

/// Punycode's parameters (RFC 3492 section 5).
const BASE: u32 = 36;
const T_MIN: u32 = 1;
const T_MAX: u32 = 26;
const SKEW: u32 = 38;
const DAMP: u32 = 700;
const INITIAL_BIAS: u32 = 72;
const INITIAL_N: u32 = 128;

/// The prefix of an A-label (RFC 5890 section 2.3.2.1).
const ACE_PREFIX: &str = "xn--";

/// `host` with each non-ASCII label written as an A-label; `None` when the
/// host is ASCII already, or holds a character no label may (a space, a
/// `_`, punctuation of any script).
pub(crate) fn ascii_form(host: &str) -> Option<String> {
    if host.is_ascii() {
        return None;
    }
    let labels: Option<Vec<String>> = host
        .split('.')
        .map(|label| {
            let lower = label.to_lowercase();
            if lower.is_ascii() {
                let ldh = lower
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-');
                return ldh.then_some(lower);
            }
            let letters = lower
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || is_mark(c));
            if !letters {
                return None;
            }
            punycode(&lower).map(|encoded| format!("{ACE_PREFIX}{encoded}"))
        })
        .collect();
    labels.map(|labels| labels.join("."))
}

/// True for a combining mark, which a label may hold after a letter
/// (Devanagari vowel signs, Arabic harakat).
fn is_mark(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036F}' | '\u{0900}'..='\u{0DFF}' | '\u{064B}'..='\u{065F}' | '\u{200C}' | '\u{200D}')
}

/// The Punycode of `input` (RFC 3492 section 6.3), `None` on overflow.
fn punycode(input: &str) -> Option<String> {
    let code_points: Vec<u32> = input.chars().map(u32::from).collect();
    let mut output: String = input.chars().filter(char::is_ascii).collect();
    let basic = output.len() as u32;
    if basic > 0 {
        output.push('-');
    }
    let (mut n, mut delta, mut bias, mut handled) = (INITIAL_N, 0u32, INITIAL_BIAS, basic);
    while (handled as usize) < code_points.len() {
        let next = *code_points.iter().filter(|&&c| c >= n).min()?;
        delta = delta.checked_add((next - n).checked_mul(handled + 1)?)?;
        n = next;
        for &c in &code_points {
            if c < n {
                delta = delta.checked_add(1)?;
            }
            if c == n {
                let mut q = delta;
                let mut k = BASE;
                loop {
                    let t = threshold(k, bias);
                    if q < t {
                        break;
                    }
                    output.push(digit(t + (q - t) % (BASE - t)));
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                output.push(digit(q));
                bias = adapt(delta, handled + 1, handled == basic);
                delta = 0;
                handled += 1;
            }
        }
        delta = delta.checked_add(1)?;
        n = n.checked_add(1)?;
    }
    Some(output)
}

fn threshold(k: u32, bias: u32) -> u32 {
    if k <= bias {
        T_MIN
    } else if k >= bias + T_MAX {
        T_MAX
    } else {
        k - bias
    }
}

/// RFC 3492 section 6.1.
fn adapt(delta: u32, points: u32, first: bool) -> u32 {
    let mut delta = if first { delta / DAMP } else { delta / 2 };
    delta += delta / points;
    let mut k = 0;
    while delta > ((BASE - T_MIN) * T_MAX) / 2 {
        delta /= BASE - T_MIN;
        k += BASE;
    }
    k + (BASE - T_MIN + 1) * delta / (delta + SKEW)
}

fn digit(d: u32) -> char {
    let byte = if d < 26 {
        b'a' + d as u8
    } else {
        b'0' + (d - 26) as u8
    };
    char::from(byte)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3492_7_1_sample_strings_encode() {
        // Section 7.1, (A) Arabic (Egyptian), (B) Chinese (simplified) and
        // (L) 3<nen>B<gumi><kinpachi><sensei>, case kept.
        let arabic = "\u{0644}\u{064A}\u{0647}\u{0645}\u{0627}\u{0628}\u{062A}\u{0643}\u{0644}\
                      \u{0645}\u{0648}\u{0634}\u{0639}\u{0631}\u{0628}\u{064A}\u{061F}";
        assert_eq!(punycode(arabic).as_deref(), Some("egbpdaj6bu4bxfgehfvwxn"));
        let chinese = "\u{4ED6}\u{4EEC}\u{4E3A}\u{4EC0}\u{4E48}\u{4E0D}\u{8BF4}\u{4E2D}\u{6587}";
        assert_eq!(
            punycode(chinese).as_deref(),
            Some("ihqwcrb4cv8a8dqg056pqjye")
        );
        let japanese = "3\u{5E74}B\u{7D44}\u{91D1}\u{516B}\u{5148}\u{751F}";
        assert_eq!(
            punycode(japanese).as_deref(),
            Some("3B-ww4c5e180e575a65lsy2b")
        );
    }

    #[test]
    fn hosts_are_written_label_by_label() {
        assert_eq!(
            ascii_form("bücher.example").as_deref(),
            Some("xn--bcher-kva.example")
        );
        assert_eq!(
            ascii_form("München.DE").as_deref(),
            Some("xn--mnchen-3ya.de")
        );
        assert_eq!(
            ascii_form("北京.中国").as_deref(),
            Some("xn--1lq90i.xn--fiqs8s")
        );
        assert_eq!(ascii_form("example.org"), None);
        assert_eq!(
            ascii_form("北京大学.cn").as_deref(),
            Some("xn--1lq90ic7fzpc.cn")
        );
        assert_eq!(ascii_form("a b.例え"), None);
        assert_eq!(ascii_form("☃.net"), None);
    }
}
