//! [`ReasonName`]: a reason as received, known or not, that survives a round trip byte for byte.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Reason, ReasonInfo, lookup};
use crate::EventType;

/// The `reason` of an event as received: its catalogue entry when known, and always the exact
/// wire string.
///
/// * A known reason with a fixed wire string stores only the entry.
/// * A family member (`OutOfnvidia.com/gpu` of `OutOf<resource>`) stores the entry and the string.
/// * An unknown reason stores the string only; it is never equal to a known one, because only
///   [`ReasonName::parse`] / [`ReasonName::resolve`] build values, and they check the catalogue first.
///
/// `Display`, [`ReasonName::as_str`] and serde give the wire string unchanged.
///
/// **Equality, hashing and order follow the catalogue row, then the wire string.** Two reasons
/// that print the same can differ: kube-scheduler's and Karpenter's `FailedScheduling` are two
/// rows. To group events by what they print (as `kubectl get events` shows them), key by
/// [`ReasonName::as_str`]; to group by meaning, key by the value (or [`ReasonName::reason`]).
///
/// ```
/// use gpu_events_core::ReasonName;
/// let scheduler = ReasonName::resolve("FailedScheduling", Some("default-scheduler"));
/// let karpenter = ReasonName::resolve("FailedScheduling", Some("karpenter"));
/// assert_ne!(scheduler, karpenter);
/// assert_eq!(scheduler.as_str(), karpenter.as_str());
///
/// // Counting by what `kubectl get events` prints: key by the wire string.
/// let mut by_wire = std::collections::BTreeMap::<&str, u32>::new();
/// for reason in [&scheduler, &karpenter] {
///     *by_wire.entry(reason.as_str()).or_default() += 1;
/// }
/// assert_eq!(by_wire.into_iter().collect::<Vec<_>>(), [("FailedScheduling", 2)]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReasonName {
    known: Option<Reason>,
    /// The wire string when it differs from `known.as_str()` (families and unknown reasons).
    raw: Option<Box<str>>,
}

impl ReasonName {
    /// Parse a wire string without knowing the reporter: the primary entry wins.
    pub fn parse(wire: &str) -> Self {
        Self::resolve(wire, None)
    }

    /// Parse a wire string as recorded by `reporting_controller` (`reportingController`, or
    /// core/v1 `source.component`): when several entries share the string, the one that lists
    /// this controller wins (`FailedScheduling` from `karpenter` is Karpenter's).
    pub fn resolve(wire: &str, reporting_controller: Option<&str>) -> Self {
        Self::resolve_with(wire, reporting_controller, None, None)
    }

    /// Parse a wire string with everything the event says: when several entries share the string
    /// (`Started` from the kubelet on a Pod, or from Kueue on a Job), the reporting controller
    /// decides first (exact name, then wildcard), then the regarding object's kind, then the type.
    pub fn resolve_with(
        wire: &str,
        reporting_controller: Option<&str>,
        regarding_kind: Option<&str>,
        event_type: Option<&EventType>,
    ) -> Self {
        let hints = lookup::Hints { reporting_controller, regarding_kind, event_type };
        match lookup::resolve(wire, hints) {
            Some((reason, false)) => ReasonName { known: Some(reason), raw: None },
            Some((reason, true)) => ReasonName { known: Some(reason), raw: Some(wire.into()) },
            None => ReasonName { known: None, raw: Some(wire.into()) },
        }
    }

    /// A wire string not looked up in the catalogue: a status word that shares its spelling with
    /// a reason (`Pending`, a Pod's phase, is also Kueue's reason about Workloads).
    pub(crate) fn uncatalogued(wire: &str) -> Self {
        ReasonName { known: None, raw: Some(wire.into()) }
    }

    /// The wire string, exactly as received.
    pub fn as_str(&self) -> &str {
        match (&self.raw, self.known) {
            (Some(raw), _) => raw,
            (None, Some(reason)) => reason.as_str(),
            (None, None) => "",
        }
    }

    /// The catalogue entry, when the reason is known.
    pub fn reason(&self) -> Option<Reason> {
        self.known
    }

    /// The catalogue metadata, when the reason is known.
    pub fn info(&self) -> Option<&'static ReasonInfo> {
        self.known.map(Reason::info)
    }

    /// Whether the catalogue knows this reason.
    pub fn is_known(&self) -> bool {
        self.known.is_some()
    }

    /// For a family member, the text in place of the placeholder (`nvidia.com/gpu` of
    /// `OutOfnvidia.com/gpu`); `None` otherwise.
    pub fn family_member(&self) -> Option<&str> {
        let (prefix, suffix) = self.info()?.family_affixes()?;
        let raw = self.raw.as_deref()?;
        raw.strip_prefix(prefix)?.strip_suffix(suffix)
    }
}

impl From<Reason> for ReasonName {
    /// A known reason. For a family, prefer [`ReasonName::parse`] with the full wire string:
    /// this gives the pattern (`OutOf<resource>`) as the wire string.
    fn from(reason: Reason) -> Self {
        ReasonName { known: Some(reason), raw: None }
    }
}

impl FromStr for ReasonName {
    type Err = std::convert::Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(ReasonName::parse(s))
    }
}

impl fmt::Display for ReasonName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl AsRef<str> for ReasonName {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq<str> for ReasonName {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for ReasonName {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<Reason> for ReasonName {
    fn eq(&self, other: &Reason) -> bool {
        self.known == Some(*other)
    }
}

impl Serialize for ReasonName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ReasonName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = <Cow<'de, str>>::deserialize(deserializer)?;
        Ok(ReasonName::parse(&wire))
    }
}

impl schemars::JsonSchema for ReasonName {
    fn schema_name() -> Cow<'static, str> {
        "ReasonName".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        // The known strings are examples, not an `enum`: unknown and newer reasons must validate.
        schemars::json_schema!({
            "type": "string",
            "description": "Event reason exactly as recorded; `gpu-events reasons` lists the catalogued ones.",
            "examples": known_wire_strings()
        })
    }
}

/// Every distinct catalogued wire string, in catalogue order (families left out: their pattern is
/// not a wire string).
pub(super) fn known_wire_strings() -> Vec<&'static str> {
    let mut seen = std::collections::HashSet::new();
    Reason::all()
        .iter()
        .filter(|r| r.info().family_affixes().is_none())
        .map(|r| r.as_str())
        .filter(|w| seen.insert(*w))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashMap, HashSet};

    use super::*;

    /// Equality and hashing follow the catalogue row: two rows of one wire string are two keys; the wire string
    /// (`as_str`) is the key that groups them as kubectl prints them; an unknown reason equals only itself.
    #[test]
    fn equality_follows_the_row_and_the_wire_string_groups() {
        let names = [
            ReasonName::resolve("FailedScheduling", Some("default-scheduler")),
            ReasonName::resolve("FailedScheduling", Some("karpenter")),
            ReasonName::resolve("FailedScheduling", Some("default-scheduler")),
            ReasonName::parse("SomethingNew"),
            ReasonName::parse("SomethingNew"),
        ];
        assert_ne!(names[0], names[1], "kube-scheduler's and Karpenter's rows differ");
        assert_eq!(names[0], names[2]);
        assert_eq!(names[3], names[4]);
        let by_value: HashSet<&ReasonName> = names.iter().collect();
        assert_eq!(by_value.len(), 3, "by row: scheduler, karpenter, unknown");
        let mut by_wire: HashMap<&str, usize> = HashMap::new();
        for name in &names {
            *by_wire.entry(name.as_str()).or_default() += 1;
        }
        assert_eq!(by_wire.len(), 2);
        assert_eq!(by_wire["FailedScheduling"], 3);
        // Owned keys for a map that outlives the records.
        let owned: BTreeMap<String, usize> = names.iter().map(|n| (n.to_string(), 1)).collect();
        assert_eq!(owned.keys().collect::<Vec<_>>(), ["FailedScheduling", "SomethingNew"]);
        // A known reason never equals an unknown one of another string, and comparing with a string compares wires.
        assert!(names[1] == "FailedScheduling" && names[3] != names[0]);
    }
}
