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

/// The first `needle` in `text`: memchr on the needle's first byte, then a compare. Why not
/// `str::find`: it builds a two-way searcher per call, which costs more than the search itself
/// for the short separators (`, `, `. `) grammars look for many times per note.
pub(crate) fn find(text: &str, needle: &str) -> Option<usize> {
    let (&first, rest) = needle.as_bytes().split_first()?;
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = memchr::memchr(first, &bytes[from..]) {
        let at = from + at;
        if bytes[at + 1..].starts_with(rest) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// The last `needle` in `text` (see [`find`]).
pub(crate) fn rfind(text: &str, needle: &str) -> Option<usize> {
    let (&first, rest) = needle.as_bytes().split_first()?;
    let bytes = text.as_bytes();
    let mut end = bytes.len();
    while let Some(at) = memchr::memrchr(first, &bytes[..end]) {
        if bytes[at + 1..].starts_with(rest) {
            return Some(at);
        }
        end = at;
    }
    None
}

/// Every non-overlapping `needle` in `text`, left to right, like `str::match_indices` (see
/// [`find`]).
pub(crate) fn find_all<'a>(text: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    let mut from = 0;
    std::iter::from_fn(move || {
        let at = from + find(text.get(from..)?, needle)?;
        from = at + needle.len().max(1);
        Some(at)
    })
}

/// Every non-overlapping `needle` in `text`, right to left, like `str::rmatch_indices`.
pub(crate) fn rfind_all<'a>(text: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    let mut end = text.len();
    std::iter::from_fn(move || {
        let at = rfind(text.get(..end)?, needle)?;
        end = at;
        Some(at)
    })
}

#[cfg(test)]
mod find_tests {
    use super::*;

    #[test]
    fn find_agrees_with_str_find() {
        let texts = ["", ",", ", ", "a, b, c", "a,b, c", ",,  ,", "x. y.. z. ", "é, ü. ,"];
        for text in texts {
            for needle in [", ", ". ", "., ", ",", "preemption: "] {
                assert_eq!(find(text, needle), text.find(needle), "{text:?} {needle:?}");
                assert_eq!(rfind(text, needle), text.rfind(needle), "{text:?} {needle:?}");
                let all: Vec<_> = find_all(text, needle).collect();
                let std: Vec<_> = text.match_indices(needle).map(|(at, _)| at).collect();
                assert_eq!(all, std, "{text:?} {needle:?}");
                let rall: Vec<_> = rfind_all(text, needle).collect();
                let rstd: Vec<_> = text.rmatch_indices(needle).map(|(at, _)| at).collect();
                assert_eq!(rall, rstd, "{text:?} {needle:?}");
            }
        }
    }
}
