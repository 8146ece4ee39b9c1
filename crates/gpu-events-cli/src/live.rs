//! Live mode of `explain`: read an object's events (or a namespace's) from the cluster in the
//! kubeconfig, through both Event APIs, and the Pod's status to sharpen the diagnosis.

use std::collections::HashSet;

use gpu_events_core::EventRecord;
use gpu_events_core::diagnose::{Diagnosis, Phase};
use k8s_openapi::api::core::v1::{Event as CoreEvent, Pod};
use k8s_openapi::api::events::v1::Event;
use kube::Client;
use kube::api::{Api, ListParams};

use crate::Error;

/// What to read: an object (`pod/NAME`, any kind) or every object of the namespace(s).
pub struct Target {
    /// Lower-case kind as written (`pod`, `gpupool`).
    pub kind: Option<String>,
    pub name: Option<String>,
    /// `None` for all namespaces (`-A`).
    pub namespace: Option<String>,
    /// Which cluster (`--kubeconfig`, `--context`, `--request-timeout`).
    pub cluster: crate::cluster::ClusterArgs,
}

/// Whether a positional argument names an object (`pod/NAME`) rather than a file.
pub fn parse_object(arg: &str) -> Option<(String, String)> {
    let (kind, name) = arg.split_once('/')?;
    let valid_kind = !kind.is_empty() && kind.chars().all(|c| c.is_ascii_alphanumeric() || c == '.');
    let valid_name = !name.is_empty() && !name.contains('/');
    (valid_kind && valid_name).then(|| (kind.to_ascii_lowercase(), name.to_owned()))
}

/// What the Pod's status says, to correct the phase read from events.
#[derive(Debug, Default)]
pub struct PodStatus {
    namespace: String,
    name: String,
    phase: Option<Phase>,
}

impl PodStatus {
    fn of(pod: &Pod, namespace: &str, name: &str) -> PodStatus {
        let unknown = PodStatus { namespace: namespace.to_owned(), name: name.to_owned(), phase: None };
        let Some(status) = &pod.status else { return unknown };
        let init = status.init_container_statuses.iter().flatten();
        let main = status.container_statuses.iter().flatten();
        let waiting = |s: &k8s_openapi::api::core::v1::ContainerStatus| {
            s.state.as_ref().and_then(|st| st.waiting.as_ref()).and_then(|w| w.reason.clone())
        };
        let oom = |s: &k8s_openapi::api::core::v1::ContainerStatus| {
            s.last_state.as_ref().and_then(|st| st.terminated.as_ref()).and_then(|t| t.reason.as_deref())
                == Some("OOMKilled")
                || s.state.as_ref().and_then(|st| st.terminated.as_ref()).and_then(|t| t.reason.as_deref())
                    == Some("OOMKilled")
        };
        let phase = if status.reason.as_deref() == Some("Evicted") {
            Some(Phase::Evicted)
        } else if init.clone().any(|s| waiting(s).as_deref() == Some("CrashLoopBackOff")) {
            Some(Phase::InitCrashLoopBackOff)
        } else if main.clone().any(oom) {
            Some(Phase::OomKilled)
        } else if main.clone().any(|s| waiting(s).as_deref() == Some("CrashLoopBackOff")) {
            Some(Phase::CrashLoopBackOff)
        } else if main.clone().any(|s| waiting(s).as_deref() == Some("ContainerCreating")) {
            Some(Phase::ContainerCreating)
        } else {
            match status.phase.as_deref() {
                Some("Pending") if status.container_statuses.is_none() => Some(Phase::Pending),
                Some("Failed") => Some(Phase::Failed),
                Some("Running") => Some(Phase::Running),
                _ => None,
            }
        };
        PodStatus { phase, ..unknown }
    }

    /// Put the status's phase on the diagnosis of its Pod: the status is newer than any event.
    pub fn sharpen(&self, diagnoses: &mut [Diagnosis]) {
        let Some(phase) = self.phase else { return };
        let (namespace, name) = (self.namespace.as_str(), self.name.as_str());
        for diagnosis in diagnoses {
            let object = &diagnosis.object;
            if object.kind.as_deref() == Some("Pod")
                && object.name.as_deref() == Some(name)
                && object.namespace.as_deref() == Some(namespace)
            {
                diagnosis.phase = phase;
            }
        }
    }
}

/// The events of the target from both APIs (one record per Event object: the same Event read
/// through both APIs is kept once, from events.k8s.io/v1), and the Pod's status when the target
/// is a Pod.
pub async fn fetch(target: &Target) -> Result<(Vec<EventRecord>, Option<PodStatus>), Error> {
    let config = target.cluster.config().await.map_err(Error::Cluster)?;
    let client = Client::try_from(config).map_err(Error::Kube)?;
    let namespace = match (&target.namespace, target.name.is_some()) {
        (Some(ns), _) => Some(ns.clone()),
        (None, true) => Some(client.default_namespace().to_owned()),
        (None, false) => None,
    };
    let new_api = |ns: &Option<String>| match ns {
        Some(ns) => Api::<Event>::namespaced(client.clone(), ns),
        None => Api::<Event>::all(client.clone()),
    };
    let old_api = |ns: &Option<String>| match ns {
        Some(ns) => Api::<CoreEvent>::namespaced(client.clone(), ns),
        None => Api::<CoreEvent>::all(client.clone()),
    };
    let (new_params, old_params) = match &target.name {
        Some(name) => (
            ListParams::default().fields(&format!("regarding.name={name}")),
            ListParams::default().fields(&format!("involvedObject.name={name}")),
        ),
        None => (ListParams::default(), ListParams::default()),
    };
    let mut records = Vec::new();
    let mut seen = HashSet::new();
    // Cluster-scoped objects' events live in `default`; also look there for them.
    let mut namespaces = vec![namespace.clone()];
    if target.name.is_some() && namespace.as_deref() != Some("default") {
        namespaces.push(Some("default".to_owned()));
    }
    for ns in &namespaces {
        for event in new_api(ns).list(&new_params).await.map_err(Error::Kube)? {
            let record = EventRecord::from(event);
            if wanted(&record, target) && seen.insert(record.event_uid.clone()) {
                records.push(record);
            }
        }
        for event in old_api(ns).list(&old_params).await.map_err(Error::Kube)? {
            let record = EventRecord::from(event);
            if wanted(&record, target) && (record.event_uid.is_none() || seen.insert(record.event_uid.clone())) {
                records.push(record);
            }
        }
    }
    let pod = match (&target.kind, &target.name, &namespace) {
        (Some(kind), Some(name), Some(ns)) if kind == "pod" || kind == "pods" || kind == "po" => {
            Api::<Pod>::namespaced(client.clone(), ns).get_opt(name).await.map_err(Error::Kube)?.map(|p| {
                // What the status says (an OOM kill, an admission failure) is evidence too.
                records.extend(gpu_events_core::decode::pod_status_record(&p, chrono::Utc::now()));
                PodStatus::of(&p, ns, name)
            })
        }
        _ => None,
    };
    Ok((records, pod))
}

/// Field selectors match the name only; the kind is compared here, case-insensitively
/// (`pod/x` matches `Pod`, `gpupool/x` matches `GPUPool`).
fn wanted(record: &EventRecord, target: &Target) -> bool {
    match (&target.kind, &record.regarding.kind) {
        (Some(kind), Some(actual)) => {
            let kind = kind.trim_end_matches('s');
            actual.eq_ignore_ascii_case(kind) || (kind == "po" && actual == "Pod")
        }
        _ => true,
    }
}
