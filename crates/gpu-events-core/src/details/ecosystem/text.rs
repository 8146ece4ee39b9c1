//! Slicing helpers shared by the ecosystem grammars: bracket and quote aware splitting, Go quoted
//! strings, JSON resource maps, Go durations and `serrors` key/value suffixes. None of them panics
//! on any input; every byte index they slice at is the index of an ASCII byte.

use std::collections::BTreeMap;

use crate::details::Quantity;
use crate::details::template::go_unquote;
pub(super) use crate::details::text::go_duration_seconds;

/// What Kueue and kube-scheduler append to a note they cut at 1024 bytes.
const TRUNCATION_MARKER: &str = " ...";

/// The note without a trailing truncation marker ` ...`, and whether it had one.
pub(super) fn strip_truncation(text: &str) -> (&str, bool) {
    match text.strip_suffix(TRUNCATION_MARKER) {
        Some(rest) => (rest, true),
        None => (text, false),
    }
}

/// Double-quoted strings (with backslash escapes) seen byte by byte, for the bracket scanners.
#[derive(Default)]
struct Quotes {
    in_string: bool,
    escaped: bool,
}

impl Quotes {
    /// Feed one byte; `true` when it is outside any string (an opening quote counts as outside,
    /// its content and closing quote as inside).
    fn step(&mut self, b: u8) -> bool {
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
            }
            return false;
        }
        if b == b'"' {
            self.in_string = true;
        }
        true
    }
}

/// Index just past the bracket that closes the one opening `text` (`{`, `[` or `(`), counting
/// every kind of bracket and skipping double-quoted strings (with backslash escapes).
pub(super) fn closing_bracket(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let close = match bytes.first()? {
        b'{' => b'}',
        b'[' => b']',
        b'(' => b')',
        _ => return None,
    };
    let mut depth = 0usize;
    let mut quotes = Quotes::default();
    for (i, &b) in bytes.iter().enumerate() {
        if !quotes.step(b) {
            continue;
        }
        match b {
            b'{' | b'[' | b'(' => depth += 1,
            b'}' | b']' | b')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return (b == close).then_some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Splits `text` at each `sep` that is outside brackets and double quotes and for which
/// `accept(rest_after_sep)` holds. `sep` must start with an ASCII byte.
pub(super) struct TopLevelSplit<'a, F> {
    rest: Option<&'a str>,
    sep: &'static str,
    accept: F,
}

impl<'a, F: Fn(&str) -> bool> Iterator for TopLevelSplit<'a, F> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let text = self.rest?;
        let bytes = text.as_bytes();
        let sep = self.sep.as_bytes();
        let mut depth = 0usize;
        let mut quotes = Quotes::default();
        for (i, &b) in bytes.iter().enumerate() {
            if !quotes.step(b) {
                continue;
            }
            match b {
                b'{' | b'[' | b'(' => depth += 1,
                b'}' | b']' | b')' => depth = depth.saturating_sub(1),
                _ => {}
            }
            if depth == 0
                && bytes.get(i..).is_some_and(|tail| tail.starts_with(sep))
                && let (Some(piece), Some(after)) = (text.get(..i), text.get(i + sep.len()..))
                && (self.accept)(after)
            {
                self.rest = Some(after);
                return Some(piece);
            }
        }
        self.rest = None;
        Some(text)
    }
}

/// [`TopLevelSplit`] at every top-level `sep`.
pub(super) fn split_top_level<'a>(text: &'a str, sep: &'static str) -> TopLevelSplit<'a, fn(&str) -> bool> {
    split_top_level_where(text, sep, |_| true)
}

/// [`TopLevelSplit`] at the top-level `sep`s followed by text that `accept` takes.
pub(super) fn split_top_level_where<'a, F: Fn(&str) -> bool>(
    text: &'a str,
    sep: &'static str,
    accept: F,
) -> TopLevelSplit<'a, F> {
    TopLevelSplit { rest: Some(text), sep, accept }
}

/// A Go `%q` string at the start of `text`: its unquoted value and the text after it.
pub(super) fn quoted_prefix(text: &str) -> Option<(String, &str)> {
    let bytes = text.as_bytes();
    if bytes.first() != Some(&b'"') {
        return None;
    }
    let mut escaped = false;
    for (i, &b) in bytes.iter().enumerate().skip(1) {
        if escaped {
            escaped = false;
        } else if b == b'\\' {
            escaped = true;
        } else if b == b'"' {
            let quoted = text.get(..=i)?;
            return Some((go_unquote(quoted)?, text.get(i + 1..)?));
        }
    }
    None
}

/// `text` unquoted when it is one whole Go quoted string, else as written.
pub(super) fn unquote_or_keep(text: &str) -> String {
    match quoted_prefix(text) {
        Some((value, "")) => value,
        _ => text.to_owned(),
    }
}

/// A flat JSON object of resource names to quantities (`{"cpu":"1566m","pods":"11"}`, Karpenter's
/// `resources.String`). Numbers are accepted as quantities too; other values are skipped.
pub(super) fn quantity_map(json: &str) -> Option<BTreeMap<String, Quantity>> {
    let map: BTreeMap<String, serde_json::Value> = serde_json::from_str(json).ok()?;
    Some(
        map.into_iter()
            .filter_map(|(name, value)| match value {
                serde_json::Value::String(text) => Some((name, Quantity::parse(&text))),
                serde_json::Value::Number(number) => Some((name, Quantity::parse(&number.to_string()))),
                _ => None,
            })
            .collect(),
    )
}

/// Whether `text` starts with `key=` where the key is a label-like identifier
/// (`[A-Za-z0-9_./-]+`), as in `serrors` values (`NodePool=gpu`) and Karpenter's
/// `requirements=`/`resources=`.
pub(super) fn starts_with_key(text: &str) -> bool {
    let key_len =
        text.bytes().take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'/' | b'-')).count();
    key_len > 0 && text.as_bytes().get(key_len) == Some(&b'=')
}

/// `key=value` pairs joined by `, ` (a new pair starts only where a key and `=` follow).
pub(super) fn key_values(text: &str) -> impl Iterator<Item = (&str, &str)> {
    split_top_level_where(text, ", ", starts_with_key).filter_map(|pair| pair.split_once('='))
}

/// Splits a sentence from its trailing `serrors` values, `sentence (key=value, key=value)`
/// (awslabs/operatorpkg `serrors.Error`, used by Karpenter since v1.1). Returns the sentence and
/// the text inside the parentheses, or `None` when there is no such suffix.
///
/// The suffix is the first ` (` whose group, read as [`closing_bracket`] reads it (from that `(`,
/// outside double quotes), closes exactly at the final `)` and starts with `key=`. Rather than
/// rescanning from every ` (` (quadratic), one backward pass computes, for each byte and each
/// string state a scan could be in there, the bracket sum `sum` from that byte to the end and
/// whether every such suffix sum on the way is negative (`ends_first`). A scan from `(` at `p`
/// closes exactly at the end iff its sum is 0 (its depth ends at 0) and every later suffix sum is
/// negative (its depth stays above 0 until then).
pub(super) fn structured_suffix(text: &str) -> Option<(&str, &str)> {
    let bytes = text.as_bytes();
    let last = bytes.len().checked_sub(1)?;
    if bytes.get(last) != Some(&b')') {
        return None;
    }
    let mut sum = [0isize; 3];
    let mut ends_first = [true; 3];
    let mut open = None;
    for (i, &b) in bytes.iter().enumerate().rev() {
        let mut sum_here = [0isize; 3];
        let mut ends_first_here = [false; 3];
        for state in [OUTSIDE, INSIDE, ESCAPED] {
            let next = next_string_state(state, b);
            let step = match (state, b) {
                (OUTSIDE, b'{' | b'[' | b'(') => 1,
                (OUTSIDE, b'}' | b']' | b')') => -1,
                _ => 0,
            };
            sum_here[state] = step + sum[next];
            ends_first_here[state] = sum_here[state] < 0 && ends_first[next];
        }
        if b == b'('
            && sum_here[OUTSIDE] == 0
            && ends_first[OUTSIDE]
            && i > 0
            && bytes.get(i - 1) == Some(&b' ')
            && text.get(i + 1..).is_some_and(starts_with_key)
        {
            open = Some(i);
        }
        sum = sum_here;
        ends_first = ends_first_here;
    }
    let open = open?;
    Some((text.get(..open - 1)?, text.get(open + 1..last)?))
}

/// String states of a [`closing_bracket`] scan: outside quotes, inside, just after a backslash inside.
const OUTSIDE: usize = 0;
const INSIDE: usize = 1;
const ESCAPED: usize = 2;

/// The string state after reading `b` in `state`.
fn next_string_state(state: usize, b: u8) -> usize {
    match (state, b) {
        (OUTSIDE, b'"') => INSIDE,
        (OUTSIDE, _) => OUTSIDE,
        (INSIDE, b'\\') => ESCAPED,
        (INSIDE, b'"') => OUTSIDE,
        _ => INSIDE,
    }
}

/// `items` joined by `, ` with Karpenter's `pretty.Slice` tail ` and N other(s)`: the items and N.
pub(super) fn pretty_slice(text: &str) -> (Vec<String>, Option<u32>) {
    let (list, others) = match text.rsplit_once(" and ") {
        Some((list, tail)) => {
            match tail.strip_suffix(" other(s)").or_else(|| tail.strip_suffix(" others")).and_then(|n| n.parse().ok()) {
                Some(n) => (list, Some(n)),
                None => (text, None),
            }
        }
        None => (text, None),
    };
    let items = list.split(", ").filter(|item| !item.is_empty()).map(str::to_owned).collect();
    (items, others)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_close_past_quoted_text() {
        assert_eq!(closing_bracket(r#"{"a":"}"}, rest"#), Some(9));
        assert_eq!(closing_bracket("[a [b] c] d"), Some(9));
        assert_eq!(closing_bracket("{unclosed"), None);
        assert_eq!(closing_bracket("(a]"), None);
        assert_eq!(closing_bracket("x"), None);
    }

    #[test]
    fn splits_only_at_top_level() {
        let parts: Vec<_> = split_top_level(r#"a; {"x":"1; 2"}; "q; r"; (s; t)"#, "; ").collect();
        assert_eq!(parts, ["a", r#"{"x":"1; 2"}"#, r#""q; r""#, "(s; t)"]);
        let parts: Vec<_> =
            split_top_level_where("1 a, 2 b, c, 3 d", ", ", |rest| rest.starts_with(|c: char| c.is_ascii_digit()))
                .collect();
        assert_eq!(parts, ["1 a", "2 b, c", "3 d"]);
        assert_eq!(split_top_level("", "; ").collect::<Vec<_>>(), [""]);
    }

    #[test]
    fn quoted_strings_and_structured_values() {
        assert_eq!(quoted_prefix(r#""spot-pool", rest"#), Some(("spot-pool".to_owned(), ", rest")));
        assert_eq!(quoted_prefix(r#""unterminated"#), None);
        assert_eq!(unquote_or_keep(r#""a\"b""#), "a\"b");
        assert_eq!(unquote_or_keep("plain"), "plain");
        assert_eq!(
            structured_suffix("all available instance types exceed limits for nodepool (NodePool=gpu)"),
            Some(("all available instance types exceed limits for nodepool", "NodePool=gpu"))
        );
        assert_eq!(
            structured_suffix("no instance type has enough resources (CPU request >= 1 Million, m vs M typo?)"),
            None
        );
        let pairs: Vec<_> = key_values("requirements=a In [x], b Exists, resources={\"cpu\":\"1\"}").collect();
        assert_eq!(pairs, [("requirements", "a In [x], b Exists"), ("resources", "{\"cpu\":\"1\"}")]);
    }

    /// The former quadratic `structured_suffix`: [`closing_bracket`] from every ` (`.
    fn structured_suffix_by_rescanning(text: &str) -> Option<(&str, &str)> {
        if !text.ends_with(')') {
            return None;
        }
        for (at, _) in text.match_indices(" (") {
            let Some(group) = text.get(at + 1..) else {
                continue;
            };
            if closing_bracket(group) == Some(group.len())
                && let (Some(sentence), Some(inner)) = (text.get(..at), group.get(1..group.len() - 1))
                && starts_with_key(inner)
            {
                return Some((sentence, inner));
            }
        }
        None
    }

    #[test]
    fn structured_suffix_agrees_with_rescanning_from_every_parenthesis() {
        const ALPHABET: &[u8] = b"  ((())[]{}\"\\k=x,";
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for round in 0..20_000 {
            let mut text = String::new();
            for _ in 0..(round % 24) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                text.push(char::from(ALPHABET[(state % ALPHABET.len() as u64) as usize]));
            }
            text.push(')');
            assert_eq!(structured_suffix(&text), structured_suffix_by_rescanning(&text), "{text:?}");
        }
        for text in [
            r#"a (k="(") (k=v)"#,
            r#"a (k=") (k=v)"#,
            r#"a "x (k=v)"#,
            r#"a "\" (k=v)"#,
            r#"a (k=") (j=\") (k=v))"#,
            "a (k=b (c=d))",
            "a (k=v) (j=w)",
            "a (k=v]",
        ] {
            assert_eq!(structured_suffix(text), structured_suffix_by_rescanning(text), "{text:?}");
        }
        assert_eq!(structured_suffix("a (k=b (c=d))"), Some(("a", "k=b (c=d)")));
        assert_eq!(structured_suffix("a (k=v) (j=w)"), Some(("a (k=v)", "j=w")));
        assert_eq!(structured_suffix(r#"a (k=") (k=v)"#), Some(("a (k=\")", "k=v")));
    }

    #[test]
    fn structured_suffix_of_deeply_nested_parentheses() {
        // Formerly quadratic: every ` (` rescanned to the end (5 s at 98 KB).
        let n = 250_000;
        let text = format!("x{}{}", " (".repeat(n), ")".repeat(n));
        assert_eq!(text.len(), 750_001);
        assert_eq!(structured_suffix(&text), None);
        let text = format!("x{}{}", " (k=".repeat(n), ")".repeat(n));
        let (sentence, inner) = structured_suffix(&text).unwrap();
        assert_eq!(sentence, "x");
        assert_eq!(inner.len(), text.len() - 4);
        assert!(inner.starts_with("k= (k="));
        // Balanced noise before a real suffix.
        let text = format!("x{}{} (k=v)", " (".repeat(n), ")".repeat(n));
        assert_eq!(structured_suffix(&text), Some((&text[..text.len() - 6], "k=v")));
        // Half of the groups open inside the strings of the other half: nothing closes at the end.
        for n in [1, 2, 3, 50, 51] {
            let text = format!("x{}{}", " (k=\"".repeat(n), ")".repeat(n));
            assert_eq!(structured_suffix(&text), structured_suffix_by_rescanning(&text), "{n}");
        }
        let text = format!("x{}{}", " (k=\"".repeat(n), ")".repeat(n));
        assert_eq!(structured_suffix(&text), None);
        let text = format!("x{}{}", r#" (k=\" (k="#.repeat(n / 2), ")".repeat(n));
        assert_eq!(structured_suffix(&text), None);
    }

    #[test]
    fn parses_go_durations_and_resource_maps() {
        assert_eq!(go_duration_seconds("5m0s"), Some(300.0));
        assert_eq!(go_duration_seconds("1h2m3.5s"), Some(3723.5));
        assert_eq!(go_duration_seconds("300ms"), Some(0.3));
        assert_eq!(go_duration_seconds("0"), Some(0.0));
        for bad in ["", "5", "ns/wl", "1x", "m"] {
            assert_eq!(go_duration_seconds(bad), None, "{bad}");
        }
        let map = quantity_map(r#"{"cpu":"1566m","memory":"930Mi","pods":11}"#).unwrap();
        assert_eq!(map["cpu"].value, Some(1.566));
        assert_eq!(map["memory"].value, Some(930.0 * 1_048_576.0));
        assert_eq!(map["pods"].quantity, "11");
        assert_eq!(quantity_map("{broken"), None);
    }

    #[test]
    fn pretty_slices_with_others() {
        assert_eq!(pretty_slice("a, b and 3 other(s)"), (vec!["a".to_owned(), "b".to_owned()], Some(3)));
        assert_eq!(pretty_slice("a"), (vec!["a".to_owned()], None));
        assert_eq!(pretty_slice("rock and roll"), (vec!["rock and roll".to_owned()], None));
    }
}
