//! Low-level text helpers shared by the note families.

/// Seconds of a Go duration string (`time.Duration.String`): a sequence of decimal numbers
/// with units `h`, `m`, `s`, `ms`, `us`/`µs`/`μs`, `ns`, optionally signed; `0` alone is zero.
pub(crate) fn go_duration_seconds(text: &str) -> Option<f64> {
    let (negative, mut rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if rest == "0" {
        return Some(0.0);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total = 0.0;
    while !rest.is_empty() {
        let number_len = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
        let number: f64 = rest.get(..number_len)?.parse().ok()?;
        rest = rest.get(number_len..)?;
        let unit_len = rest.find(|c: char| c.is_ascii_digit() || c == '.').unwrap_or(rest.len());
        let scale = match rest.get(..unit_len)? {
            "h" => 3600.0,
            "m" => 60.0,
            "s" => 1.0,
            "ms" => 1e-3,
            "us" | "µs" | "μs" => 1e-6,
            "ns" => 1e-9,
            _ => return None,
        };
        rest = rest.get(unit_len..)?;
        total += number * scale;
    }
    Some(if negative { -total } else { total })
}
