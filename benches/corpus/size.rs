//! Byte sizes as people type them on a command line (`64M`, `1G`).
//!
//! Sizes are decimal (1M = 1,000,000 bytes) so that they agree with the
//! MB/s and GB/s figures the benchmark prints.

/// Parse `123`, `100K`, `64M` or `1G` (case-insensitive, decimal units).
pub fn parse_size(text: &str) -> Result<usize, String> {
    let text = text.trim();
    let (digits, unit) = match text.find(|c: char| !c.is_ascii_digit()) {
        Some(at) => text.split_at(at),
        None => (text, ""),
    };
    let multiplier: usize = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" => 1_000,
        "M" | "MB" => 1_000_000,
        "G" | "GB" => 1_000_000_000,
        _ => return Err(format!("{text:?}: unknown size unit (use K, M or G)")),
    };
    let count: usize = digits
        .parse()
        .map_err(|_| format!("{text:?}: expected a size such as 64M"))?;
    count
        .checked_mul(multiplier)
        .ok_or_else(|| format!("{text:?}: size too large"))
}

/// Render a byte count with the largest unit that divides it exactly.
pub fn format_size(bytes: usize) -> String {
    const UNITS: [(usize, &str); 3] = [(1_000_000_000, "G"), (1_000_000, "M"), (1_000, "K")];
    UNITS
        .iter()
        .find(|(unit, _)| bytes >= *unit && bytes % unit == 0)
        .map_or_else(
            || bytes.to_string(),
            |(unit, name)| format!("{}{name}", bytes / unit),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_decimal_units() {
        let cases = [
            ("123", 123),
            ("100K", 100_000),
            ("64M", 64_000_000),
            ("64mb", 64_000_000),
            ("1G", 1_000_000_000),
            (" 2g ", 2_000_000_000),
        ];
        for (text, bytes) in cases {
            assert_eq!(parse_size(text), Ok(bytes), "{text}");
        }
    }

    #[test]
    fn malformed_sizes_are_errors() {
        for text in ["", "M", "12X", "1.5G", "-3M", "99999999999999999999G"] {
            assert!(parse_size(text).is_err(), "{text}");
        }
    }

    #[test]
    fn sizes_format_back_to_their_shortest_form() {
        let cases = [
            (64_000_000, "64M"),
            (1_000_000_000, "1G"),
            (1_500, "1500"),
            (7, "7"),
        ];
        for (bytes, text) in cases {
            assert_eq!(format_size(bytes), text);
            assert_eq!(parse_size(text), Ok(bytes));
        }
    }
}
