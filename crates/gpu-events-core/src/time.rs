//! The one place where k8s-openapi's `jiff` timestamps become the `chrono` values of our API.

use chrono::{DateTime, Utc};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, Time};

const NANOS_PER_SECOND: i128 = 1_000_000_000;

/// A k8s-openapi `Time` (seconds precision on the wire) as `DateTime<Utc>`.
pub(crate) fn from_time(time: &Time) -> Option<DateTime<Utc>> {
    from_nanos(time.0.as_nanosecond())
}

/// A k8s-openapi `MicroTime` (microseconds precision on the wire) as `DateTime<Utc>`.
pub(crate) fn from_micro_time(time: &MicroTime) -> Option<DateTime<Utc>> {
    from_nanos(time.0.as_nanosecond())
}

/// Nanoseconds since the Unix epoch; `None` outside chrono's range.
fn from_nanos(nanos: i128) -> Option<DateTime<Utc>> {
    let seconds = i64::try_from(nanos.div_euclid(NANOS_PER_SECOND)).ok()?;
    let subsec = u32::try_from(nanos.rem_euclid(NANOS_PER_SECOND)).ok()?;
    DateTime::from_timestamp(seconds, subsec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_time_and_micro_time_exactly() {
        let time: Time = serde_json::from_str("\"2026-08-20T03:00:00Z\"").unwrap();
        assert_eq!(from_time(&time).unwrap().to_rfc3339(), "2026-08-20T03:00:00+00:00");
        let micro: MicroTime = serde_json::from_str("\"2026-08-20T03:00:00.123456Z\"").unwrap();
        let converted = from_micro_time(&micro).unwrap();
        assert_eq!(converted.timestamp_subsec_micros(), 123_456);
        assert_eq!(converted.timestamp(), 1_787_194_800);
    }

    #[test]
    fn pre_epoch_instants_keep_their_fraction() {
        let time: MicroTime = serde_json::from_str("\"1969-12-31T23:59:59.5Z\"").unwrap();
        let converted = from_micro_time(&time).unwrap();
        assert_eq!(converted.timestamp(), -1);
        assert_eq!(converted.timestamp_subsec_millis(), 500);
    }
}

/// Serde for `Option<DateTime<Utc>>` as RFC 3339 in UTC with exactly six fractional digits
/// (`2026-11-30T05:46:10.500000Z`, Kubernetes' MicroTime shape), so every timestamp of a record
/// has the same length and sorts as text. Reading accepts any RFC 3339 time.
pub(crate) mod micros {
    use chrono::{DateTime, SecondsFormat, Utc};
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(time: &Option<DateTime<Utc>>, serializer: S) -> Result<S::Ok, S::Error> {
        match time {
            Some(time) => serializer.serialize_str(&time.to_rfc3339_opts(SecondsFormat::Micros, true)),
            None => serializer.serialize_none(),
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<DateTime<Utc>>, D::Error> {
        let text: Option<std::borrow::Cow<'de, str>> = Option::deserialize(deserializer)?;
        text.map(|t| DateTime::parse_from_rfc3339(&t).map(|t| t.to_utc()).map_err(serde::de::Error::custom)).transpose()
    }
}
