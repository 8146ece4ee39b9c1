//! kubectl's relative ages: `40s`, `4m43s`, `4h48m`, `3d4h`, `2y10d`, `<unknown>`, and the
//! describe form `4m43s (x93 over 24m)` (k8s.io/apimachinery `duration.HumanDuration`,
//! kubectl `describe.go` `translateMicroTimestampSince` and the `(x%d over %s)` suffix).

use chrono::TimeDelta;

/// A kubectl short duration (`4m43s`, `23h`, `400d`, `2y10d`) as a `TimeDelta`; `None` if it is
/// not one. Units: `y` (365 days), `d`, `h`, `m`, `s`.
pub(crate) fn parse_duration(text: &str) -> Option<TimeDelta> {
    if text.is_empty() {
        return None;
    }
    let mut total: i64 = 0;
    let mut number: Option<i64> = None;
    for c in text.chars() {
        if let Some(digit) = c.to_digit(10) {
            number = Some(number.unwrap_or(0).checked_mul(10)?.checked_add(i64::from(digit))?);
            continue;
        }
        let seconds = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            'y' => 365 * 86_400,
            _ => return None,
        };
        total = total.checked_add(number.take()?.checked_mul(seconds)?)?;
    }
    if number.is_some() {
        return None; // Trailing digits without a unit.
    }
    TimeDelta::try_seconds(total)
}

/// The Age column of `kubectl describe` (or LAST SEEN of `kubectl get events`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Age {
    /// How long ago the event was last seen; `None` for `<unknown>`.
    pub(crate) last: Option<TimeDelta>,
    /// How long ago it was first seen, from `(xN over D)`.
    pub(crate) first: Option<TimeDelta>,
    /// N of `(xN over D)`.
    pub(crate) count: Option<i32>,
}

/// Parse an age cell; `None` if the text is not one.
pub(crate) fn parse_age(text: &str) -> Option<Age> {
    let text = text.trim();
    let (head, series) = match text.split_once(" (x") {
        Some((head, tail)) => (head, Some(tail.strip_suffix(')')?)),
        None => (text, None),
    };
    let last = match head {
        "<unknown>" | "<invalid>" => None,
        _ => Some(parse_duration(head)?),
    };
    let (count, first) = match series {
        Some(series) => {
            let (count, over) = series.split_once(" over ")?;
            // `<invalid>` (a first time in the future, clock skew) leaves the first time unknown.
            let first = match over {
                "<invalid>" | "<unknown>" => None,
                over => Some(parse_duration(over)?),
            };
            (Some(count.parse().ok()?), first)
        }
        None => (None, None),
    };
    Some(Age { last, first, count })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_kubectl_durations_and_series() {
        assert_eq!(parse_duration("4m43s"), Some(TimeDelta::seconds(283)));
        assert_eq!(parse_duration("4h48m"), Some(TimeDelta::seconds(4 * 3600 + 48 * 60)));
        assert_eq!(parse_duration("2y10d"), Some(TimeDelta::days(740)));
        for bad in ["", "4", "m", "4x", "4m3", "-4m", "99999999999999999999s"] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
        let age = parse_age("4m43s (x93 over 24m)").unwrap();
        assert_eq!(
            age,
            Age { last: Some(TimeDelta::seconds(283)), first: Some(TimeDelta::minutes(24)), count: Some(93) }
        );
        assert_eq!(parse_age("<unknown>").unwrap().last, None);
        assert_eq!(parse_age("40s").unwrap().count, None);
        assert_eq!(parse_age("kubelet"), None);
        assert_eq!(parse_age("4m (x2 over"), None);
        let skewed = parse_age("3m12s (x2 over <invalid>)").unwrap();
        assert_eq!((skewed.count, skewed.first), (Some(2), None));
    }
}
