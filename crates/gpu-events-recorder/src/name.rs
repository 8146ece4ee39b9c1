//! Event names: `<regarding name>.<unix nanoseconds in lowercase hex>`, as client-go and kube
//! name them, but always a valid DNS-1123 subdomain and unique within the process.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::validate::{DNS_SUBDOMAIN_LIMIT, is_dns_subdomain};

/// The last suffix handed out; suffixes only grow, so two events in one clock tick (or under a
/// manual clock) never share a name (client-go's collision, kubernetes PR #141391).
static LAST: AtomicU64 = AtomicU64::new(0);

fn suffix(nanos: u64) -> u64 {
    let mut last = LAST.load(Ordering::Relaxed);
    loop {
        let next = nanos.max(last + 1);
        match LAST.compare_exchange_weak(last, next, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return next,
            Err(seen) => last = seen,
        }
    }
}

/// A name for a new event about `regarding_name` at `nanos` since the epoch.
///
/// When `<name>.<hex>` is not a DNS subdomain (uppercase, `:`, too long: a ClusterRole
/// `system:controller:Foo`), the name is lowercased, other characters become `-`, it is cut to
/// fit, and `event` stands in when nothing is left.
pub(crate) fn event_name(regarding_name: &str, nanos: u64) -> String {
    let hex = format!("{:x}", suffix(nanos));
    let direct = format!("{regarding_name}.{hex}");
    if is_dns_subdomain(&direct) {
        return direct;
    }
    let room = DNS_SUBDOMAIN_LIMIT - hex.len() - 1;
    let mut base: String = regarding_name
        .chars()
        .map(|c| c.to_ascii_lowercase())
        .map(|c| if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' { c } else { '-' })
        .take(room)
        .collect();
    // Labels must start and end with an alphanumeric: squeeze what the mapping broke.
    while base.contains("..") {
        base = base.replace("..", ".");
    }
    let base = base.split('.').map(|l| l.trim_matches('-')).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(".");
    let candidate = format!("{base}.{hex}");
    if !base.is_empty() && is_dns_subdomain(&candidate) { candidate } else { format!("event.{hex}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_valid_and_unique() {
        let a = event_name("llama-0", 1_000);
        let b = event_name("llama-0", 1_000);
        assert!(a.starts_with("llama-0.") && is_dns_subdomain(&a), "{a}");
        assert_ne!(a, b);
        for odd in ["system:controller:Foo", "Pool_A", "", "--", &"x".repeat(300), "a..b", "é"] {
            let name = event_name(odd, 7);
            assert!(is_dns_subdomain(&name), "{odd:?} -> {name}");
        }
        assert!(event_name("system:controller:Foo", 1).starts_with("system-controller-foo."));
    }
}
