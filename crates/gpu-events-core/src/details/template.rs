//! Go format strings (`fmt.Sprintf` templates) used both ways: match a note against a format and
//! capture the verbs' text, or fill a format with values. No regex and no allocation when matching:
//! the format is walked as it is, captures are slices of the note.
//!
//! Supported verbs: `%s`, `%v`, `%d`, `%t`, `%q` (all captured as text) and the escape `%%`.
//! A verb captures up to the first occurrence of the literal text that follows it in the format
//! (the last verb of a format captures the rest of the note), which is right for every
//! TensorFusion and Kubernetes format in the catalogue: the literal after a verb never occurs in
//! the values it is matched against (names, numbers, quantities).

use std::fmt::Write;

/// One piece of a format: literal text or a verb.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Piece<'f> {
    Literal(&'f str),
    /// `%%` inside a literal run.
    Percent,
    Verb(u8),
}

/// Iterates the pieces of a format string.
fn pieces(format: &str) -> impl Iterator<Item = Piece<'_>> {
    let mut rest = format;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        match rest.find('%') {
            Some(0) => {
                let verb = rest.as_bytes().get(1).copied().unwrap_or(b'%');
                rest = rest.get(2..).unwrap_or("");
                Some(if verb == b'%' { Piece::Percent } else { Piece::Verb(verb) })
            }
            Some(at) => {
                let (literal, tail) = rest.split_at(at);
                rest = tail;
                Some(Piece::Literal(literal))
            }
            None => {
                let literal = rest;
                rest = "";
                Some(Piece::Literal(literal))
            }
        }
    })
}

/// Match `note` against `format`; on success, the text of each verb in order.
///
/// Returns `None` when the note does not have the format's shape, or when the format has a
/// number of verbs other than `N`.
pub(crate) fn captures<'n, const N: usize>(format: &str, note: &'n str) -> Option<[&'n str; N]> {
    let mut out = [""; N];
    let mut count = 0;
    let mut rest = note;
    let mut pending_verb = false;
    for piece in pieces(format) {
        let literal: &str = match piece {
            Piece::Literal(text) => text,
            Piece::Percent => "%",
            Piece::Verb(_) => {
                if pending_verb {
                    return None; // Two verbs back to back cannot be split.
                }
                pending_verb = true;
                continue;
            }
        };
        if pending_verb {
            let at = rest.find(literal)?;
            *out.get_mut(count)? = &rest[..at];
            count += 1;
            rest = &rest[at + literal.len()..];
            pending_verb = false;
        } else {
            rest = rest.strip_prefix(literal)?;
        }
    }
    if pending_verb {
        *out.get_mut(count)? = rest;
        count += 1;
        rest = "";
    }
    (rest.is_empty() && count == N).then_some(out)
}

/// A value for [`fill`]: text for `%s`/`%v`/`%t` (booleans as `true`/`false`), quoted Go-style for `%q`.
pub(crate) enum Arg<'a> {
    /// Text printed as is (`%s`, `%v`, and numbers and booleans already formatted).
    Text(&'a str),
    /// An integer (`%d`).
    Int(i64),
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(text: &'a str) -> Self {
        Arg::Text(text)
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(text: &'a String) -> Self {
        Arg::Text(text)
    }
}

/// Fill `format` with `args` as Go's `fmt.Sprintf` would for these verbs. Missing arguments
/// print as Go does, `%!v(MISSING)`.
pub(crate) fn fill(format: &str, args: &[Arg<'_>]) -> String {
    let mut out = String::with_capacity(format.len() + 16 * args.len());
    let mut args = args.iter();
    for piece in pieces(format) {
        match piece {
            Piece::Literal(text) => out.push_str(text),
            Piece::Percent => out.push('%'),
            Piece::Verb(verb) => match args.next() {
                Some(Arg::Text(text)) if verb == b'q' => go_quote(text, &mut out),
                Some(Arg::Text(text)) => out.push_str(text),
                Some(Arg::Int(n)) => {
                    let _ = write!(out, "{n}");
                }
                None => {
                    let _ = write!(out, "%!{}(MISSING)", verb as char);
                }
            },
        }
    }
    out
}

/// Go `strconv.Quote` for the characters event values contain.
fn go_quote(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Undo [`go_quote`] for a `%q` capture (`"nvidia"` → `nvidia`); `None` if it is not quoted.
pub(crate) fn go_unquote(quoted: &str) -> Option<String> {
    let inner = quoted.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'u' => {
                let hex: String = chars.by_ref().take(4).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
            }
            other => out.push(other),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captures_each_verb_between_literals() {
        let format = "Pod group %s timed out with %d/%d members ready";
        let [group, ready, required] = captures(format, "Pod group ml/llama timed out with 3/4 members ready").unwrap();
        assert_eq!((group, ready, required), ("ml/llama", "3", "4"));
        assert_eq!(captures::<3>(format, "Pod group ml/llama timed out with 3/4 members"), None);
        assert_eq!(captures::<2>(format, "Pod group ml/llama timed out with 3/4 members ready"), None, "wrong arity");
        let [rest] = captures("Error: %v", "Error: a: b: c").unwrap();
        assert_eq!(rest, "a: b: c");
        let [] = captures("defrag step paused", "defrag step paused").unwrap();
        assert!(captures::<0>("defrag step paused", "defrag step paused!").is_none());
    }

    #[test]
    fn percent_escapes_and_fill_are_inverse() {
        let format = "usage (%d%%) reached (%d%%)";
        let note = fill(format, &[Arg::Int(93), Arg::Int(90)]);
        assert_eq!(note, "usage (93%) reached (90%)");
        assert_eq!(captures(format, &note), Some(["93", "90"]));
        assert_eq!(fill("a %s b %t", &[Arg::Text("x")]), "a x b %!t(MISSING)");
    }

    #[test]
    fn go_quoting_round_trips() {
        let mut quoted = String::new();
        go_quote("a \"b\"\\\n", &mut quoted);
        assert_eq!(quoted, r#""a \"b\"\\\n""#);
        assert_eq!(go_unquote(&quoted).unwrap(), "a \"b\"\\\n");
        assert_eq!(fill("GPUNode %q", &[Arg::Text("n-1")]), "GPUNode \"n-1\"");
        assert_eq!(go_unquote("nvidia"), None);
    }
}
