//! The object part of an event key (a leaf: the series cache and the spam filter both key on it).

use k8s_openapi::api::core::v1::ObjectReference;

/// An object as the key sees it: never `resourceVersion` or `fieldPath`, which change without
/// the object changing (kube-rs's key includes them, so a changed resourceVersion breaks a series).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ObjectKey {
    pub(crate) kind: String,
    pub(crate) api_version: Option<String>,
    pub(crate) namespace: Option<String>,
    pub(crate) name: String,
    pub(crate) uid: Option<String>,
}

impl ObjectKey {
    pub(crate) fn of(reference: &ObjectReference) -> Option<ObjectKey> {
        let text = |s: &Option<String>| s.as_deref().filter(|s| !s.is_empty()).map(str::to_owned);
        Some(ObjectKey {
            kind: text(&reference.kind)?,
            api_version: text(&reference.api_version),
            namespace: text(&reference.namespace),
            name: text(&reference.name)?,
            uid: text(&reference.uid),
        })
    }

    pub(crate) fn reference(&self, field_path: Option<&str>) -> ObjectReference {
        ObjectReference {
            kind: Some(self.kind.clone()),
            api_version: self.api_version.clone(),
            namespace: self.namespace.clone(),
            name: Some(self.name.clone()),
            uid: self.uid.clone(),
            field_path: field_path.map(str::to_owned),
            resource_version: None,
        }
    }
}
