//! Kubernetes resource quantities (`500m`, `4Gi`, `1k`, `2e3`), kept as written plus a number.
//!
//! Grammar: `k8s.io/apimachinery/pkg/api/resource/quantity.go` (sign, digits with an optional
//! fraction, then a binary suffix `Ki Mi Gi Ti Pi Ei`, a decimal suffix `n u m k M G T P E`, or a
//! decimal exponent `e<int>`/`E<int>`). Written here because the kept crate (`kube_quantity`)
//! pins its own k8s-openapi version and exact decimals, while events need only the text and a float.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A quantity as written in a note, and its value in base units.
///
/// The unit of `value` is the field's unit, documented on each field: bytes for memory and VRAM,
/// cores for CPU, TFLOPS for TensorFusion compute, a count for devices. `value` is `None` when the
/// text is not a valid quantity (it is kept anyway).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct Quantity {
    /// The text exactly as written, e.g. `4Gi`.
    pub quantity: String,
    /// The value in base units (`4Gi` → 4294967296, `500m` → 0.5).
    pub value: Option<f64>,
}

impl Quantity {
    /// Keep `text` and parse its value.
    pub fn parse(text: &str) -> Quantity {
        Quantity { quantity: text.to_owned(), value: parse_value(text) }
    }
}

impl std::fmt::Display for Quantity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(&self.quantity)
    }
}

/// The value of a quantity string in base units, `None` if it is not one.
pub fn parse_value(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    let mut end = 0;
    if matches!(bytes.first(), Some(b'+' | b'-')) {
        end = 1;
    }
    let digits_start = end;
    while end < bytes.len() && (bytes[end].is_ascii_digit() || bytes[end] == b'.') {
        end += 1;
    }
    if end == digits_start || bytes[digits_start..end].iter().filter(|b| **b == b'.').count() > 1 {
        return None;
    }
    let number: f64 = text[..end].parse().ok()?;
    let suffix = &text[end..];
    let multiplier = match suffix {
        "" => 1.0,
        "n" => 1e-9,
        "u" => 1e-6,
        "m" => 1e-3,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "E" => 1e18,
        "Ki" => 1024f64,
        "Mi" => 1024f64.powi(2),
        "Gi" => 1024f64.powi(3),
        "Ti" => 1024f64.powi(4),
        "Pi" => 1024f64.powi(5),
        "Ei" => 1024f64.powi(6),
        exponent => {
            let digits = exponent.strip_prefix(['e', 'E'])?;
            let power: i32 = digits.parse().ok()?;
            10f64.powi(power)
        }
    };
    Some(number * multiplier)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_suffixes_kubernetes_writes() {
        let cases = [
            ("10", 10.0),
            ("500m", 0.5),
            ("4Gi", 4_294_967_296.0),
            ("16000Mi", 16_000.0 * 1_048_576.0),
            ("1k", 1000.0),
            ("2e3", 2000.0),
            ("1.5Gi", 1.5 * 1_073_741_824.0),
            ("23608Ki", 23608.0 * 1024.0),
            ("-1", -1.0),
        ];
        for (text, want) in cases {
            let q = Quantity::parse(text);
            assert_eq!(q.quantity, text);
            assert_eq!(q.value, Some(want), "{text}");
        }
        for bad in ["", "Gi", "1.2.3", "4GB", "x", "1e", "--1"] {
            assert_eq!(parse_value(bad), None, "{bad}");
        }
    }
}
