//! The API server's rules for events.k8s.io/v1 creates, checked before anything is sent
//! (kubernetes `pkg/apis/core/validation/events.go` `ValidateEventCreate`, and the apimachinery
//! name validators it calls). Every length is in **bytes**, as Go's `len()` counts.

use crate::error::InvalidEvent;

/// Most bytes of `reason`, `action` and `reportingInstance` (`ReasonLengthLimit`,
/// `ActionLengthLimit`, `ReportingInstanceLengthLimit`).
pub const FIELD_LIMIT: usize = 128;

/// Most bytes of a DNS-1123 subdomain (event and namespace names).
pub const DNS_SUBDOMAIN_LIMIT: usize = 253;

/// Most bytes of the name part of a qualified name.
const QUALIFIED_NAME_LIMIT: usize = 63;

/// Whether `name` is a DNS-1123 subdomain: at most 253 bytes of dot-separated labels of lowercase
/// alphanumerics and `-`, each starting and ending with an alphanumeric
/// (`k8s.io/apimachinery/pkg/util/validation.IsDNS1123Subdomain`).
pub fn is_dns_subdomain(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= DNS_SUBDOMAIN_LIMIT
        && name.split('.').all(|label| {
            let bytes = label.as_bytes();
            let alnum = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
            match (bytes.first(), bytes.last()) {
                (Some(first), Some(last)) => {
                    alnum(first) && alnum(last) && bytes.iter().all(|b| alnum(b) || *b == b'-')
                }
                _ => false,
            }
        })
}

/// Whether `name` is a DNS-1123 label (namespace names): at most 63 lowercase alphanumerics or
/// `-`, starting and ending with an alphanumeric (`IsDNS1123Label`).
pub fn is_dns_label(name: &str) -> bool {
    name.len() <= 63 && !name.contains('.') && is_dns_subdomain(name)
}

/// Checks a Kubernetes qualified name (`IsQualifiedName`): an optional DNS-1123 subdomain prefix
/// and `/`, then a name of at most 63 bytes matching `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`.
/// Returns what is wrong, in the API server's words.
pub fn qualified_name_problem(value: &str) -> Option<String> {
    let (prefix, name) = match value.split_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, value),
    };
    if let Some(prefix) = prefix {
        if prefix.is_empty() {
            return Some("prefix part must be non-empty".into());
        }
        if !is_dns_subdomain(prefix) {
            return Some(format!(
                "prefix part {prefix:?} must be a DNS-1123 subdomain (lowercase alphanumerics, '-' and '.', at most 253)"
            ));
        }
    }
    if name.is_empty() {
        return Some("name part must be non-empty".into());
    }
    if name.len() > QUALIFIED_NAME_LIMIT {
        return Some(format!("name part must be no more than 63 bytes, not {}", name.len()));
    }
    let bytes = name.as_bytes();
    let alnum = |b: &u8| b.is_ascii_alphanumeric();
    let ok = alnum(&bytes[0])
        && alnum(&bytes[bytes.len() - 1])
        && bytes.iter().all(|b| alnum(b) || matches!(b, b'-' | b'_' | b'.'));
    if !ok {
        return Some(format!(
            "name part {name:?} must consist of alphanumerics, '-', '_' or '.', and start and end with an alphanumeric"
        ));
    }
    None
}

/// Checks a required short field (`reason`, `action`, `reportingInstance`): non-empty and at most
/// [`FIELD_LIMIT`] bytes.
pub(crate) fn short_field(field: &'static str, value: &str) -> Result<(), InvalidEvent> {
    if value.is_empty() {
        return Err(InvalidEvent::Missing { field });
    }
    if value.len() > FIELD_LIMIT {
        return Err(InvalidEvent::TooLong { field, bytes: value.len(), limit: FIELD_LIMIT });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dns_subdomains() {
        for good in ["a", "llama-0.18ecbb6678335234", "x.y-z.0", &"a".repeat(253)] {
            assert!(is_dns_subdomain(good), "{good}");
        }
        for bad in ["", "A", "a..b", "-a", "a-", "system:controller:foo", "a_b", ".a", &"a".repeat(254)] {
            assert!(!is_dns_subdomain(bad), "{bad}");
        }
    }

    #[test]
    fn qualified_names() {
        for good in ["tensor-fusion.ai/recorder-scenario", "GangScheduler", "kubernetes.io/kubelet", "a", "A_b.c"] {
            assert_eq!(qualified_name_problem(good), None, "{good}");
        }
        for bad in ["", "/x", "Example.com/x", "a/", "my controller", "a/b/c", "-x", "x-", &"n".repeat(64)] {
            assert!(qualified_name_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn short_fields_count_bytes() {
        assert!(short_field("reason", &"a".repeat(128)).is_ok());
        // 64 two-byte characters are 128 bytes; 65 are 130.
        assert!(short_field("reason", &"é".repeat(64)).is_ok());
        assert_eq!(
            short_field("reason", &"é".repeat(65)),
            Err(InvalidEvent::TooLong { field: "reason", bytes: 130, limit: 128 })
        );
        assert_eq!(short_field("action", ""), Err(InvalidEvent::Missing { field: "action" }));
    }
}
