//! Which Event API a document follows, from its `apiVersion`: a leaf the readers share.

/// Which Event schema an item follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Api {
    Core,
    Events,
}

/// The Event API an `apiVersion` names: `v1` is core/v1, `events.k8s.io/*` is events.k8s.io/v1.
pub(super) fn api_of_version(api_version: &str) -> Option<Api> {
    match api_version {
        "v1" => Some(Api::Core),
        v if v.starts_with("events.k8s.io/") => Some(Api::Events),
        _ => None,
    }
}
