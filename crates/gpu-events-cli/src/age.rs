//! kubectl's short human durations (`k8s.io/apimachinery/pkg/util/duration.HumanDuration`).

use chrono::TimeDelta;

/// `4m10s`, `23m`, `5h3m`, `2d4h`, `400d`, `3y`: the same rounding as kubectl's LAST SEEN and AGE.
/// Up to one second in the future (clock skew) prints as `0s`, further as `<invalid>`, as in kubectl.
pub fn human(delta: TimeDelta) -> String {
    let seconds = delta.num_seconds();
    if seconds < -1 {
        return "<invalid>".to_owned();
    }
    if seconds < 0 {
        return "0s".to_owned();
    }
    let minutes = seconds / 60;
    let hours = minutes / 60;
    let days = hours / 24;
    let years = days / 365;
    if seconds < 120 {
        format!("{seconds}s")
    } else if minutes < 10 {
        match seconds % 60 {
            0 => format!("{minutes}m"),
            s => format!("{minutes}m{s}s"),
        }
    } else if minutes < 180 {
        format!("{minutes}m")
    } else if hours < 8 {
        match minutes % 60 {
            0 => format!("{hours}h"),
            m => format!("{hours}h{m}m"),
        }
    } else if hours < 48 {
        format!("{hours}h")
    } else if hours < 24 * 8 {
        match hours % 24 {
            0 => format!("{days}d"),
            h => format!("{days}d{h}h"),
        }
    } else if days < 365 * 2 {
        format!("{days}d")
    } else if days < 365 * 8 {
        match days % 365 {
            0 => format!("{years}y"),
            d => format!("{years}y{d}d"),
        }
    } else {
        format!("{years}y")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_kubectl_rounding() {
        let cases = [
            (-5, "<invalid>"),
            (-1, "0s"),
            (0, "0s"),
            (40, "40s"),
            (119, "119s"),
            (250, "4m10s"),
            (300, "5m"),
            (24 * 60, "24m"),
            (3 * 3600 + 5 * 60, "3h5m"),
            (23 * 3600, "23h"),
            (3 * 86400 + 4 * 3600, "3d4h"),
            (400 * 86400, "400d"),
            (3 * 365 * 86400, "3y"),
        ];
        for (seconds, want) in cases {
            assert_eq!(human(TimeDelta::seconds(seconds)), want, "{seconds}s");
        }
    }
}
