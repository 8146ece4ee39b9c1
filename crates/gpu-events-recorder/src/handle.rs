//! Minimal typed handles for the TensorFusion custom resources that events are about, so that a
//! controller without generated CRD types can still publish on them with the kind checked by the
//! compiler. Only `metadata` is kept: an event needs the reference (name, namespace, uid), nothing
//! of the spec. Group `tensor-fusion.ai`, version `v1` (TensorFusion api/v1/groupversion_info.go).

use std::borrow::Cow;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::core::{ClusterResourceScope, NamespaceResourceScope};
use serde::{Deserialize, Serialize};

/// The API group of TensorFusion's custom resources.
pub const TENSOR_FUSION_GROUP: &str = "tensor-fusion.ai";

macro_rules! handles {
    ($($(#[doc = $doc:literal])+ $Name:ident($kind:literal, $plural:literal, $Scope:ty, $namespaced:tt);)+) => {
        $(
            $(#[doc = $doc])+
            ///
            /// Deserializes from the full object (unknown fields are ignored), so `Api<Self>` can
            /// also `get`/`list` the real resource.
            #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
            pub struct $Name {
                /// The object's metadata; `name` and `uid` identify it in events.
                pub metadata: ObjectMeta,
            }

            impl kube::Resource for $Name {
                type DynamicType = ();
                type Scope = $Scope;

                fn kind(_: &()) -> Cow<'_, str> {
                    Cow::Borrowed($kind)
                }
                fn group(_: &()) -> Cow<'_, str> {
                    Cow::Borrowed(TENSOR_FUSION_GROUP)
                }
                fn version(_: &()) -> Cow<'_, str> {
                    Cow::Borrowed("v1")
                }
                fn api_version(_: &()) -> Cow<'_, str> {
                    Cow::Borrowed("tensor-fusion.ai/v1")
                }
                fn plural(_: &()) -> Cow<'_, str> {
                    Cow::Borrowed($plural)
                }
                fn meta(&self) -> &ObjectMeta {
                    &self.metadata
                }
                fn meta_mut(&mut self) -> &mut ObjectMeta {
                    &mut self.metadata
                }
            }

            handles!(@ctor $Name $namespaced);
        )+
    };
    (@ctor $Name:ident cluster) => {
        impl $Name {
            /// A handle on the object `name` (cluster-scoped), with its `uid` when known.
            pub fn new(name: impl Into<String>, uid: Option<String>) -> Self {
                $Name { metadata: ObjectMeta { name: Some(name.into()), uid, ..ObjectMeta::default() } }
            }
        }
    };
    (@ctor $Name:ident namespaced) => {
        impl $Name {
            /// A handle on the object `namespace/name`, with its `uid` when known.
            pub fn new(namespace: impl Into<String>, name: impl Into<String>, uid: Option<String>) -> Self {
                $Name {
                    metadata: ObjectMeta {
                        name: Some(name.into()),
                        namespace: Some(namespace.into()),
                        uid,
                        ..ObjectMeta::default()
                    },
                }
            }
        }
    };
}

handles! {
    /// A TensorFusion `GPUPool` (cluster-scoped): capacity, compaction and defragmentation events.
    GpuPool("GPUPool", "gpupools", ClusterResourceScope, cluster);
    /// A TensorFusion `GPUNode` (cluster-scoped): hypervisor events.
    GpuNode("GPUNode", "gpunodes", ClusterResourceScope, cluster);
    /// A TensorFusion `TensorFusionWorkload` (namespaced): autoscaling events.
    TensorFusionWorkload("TensorFusionWorkload", "tensorfusionworkloads", NamespaceResourceScope, namespaced);
    /// A TensorFusion `TensorFusionConnection` (namespaced): worker selection events.
    TensorFusionConnection("TensorFusionConnection", "tensorfusionconnections", NamespaceResourceScope, namespaced);
}
