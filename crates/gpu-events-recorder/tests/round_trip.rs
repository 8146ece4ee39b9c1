//! What the recorder writes, the core parser reads back: for every current TensorFusion reason,
//! publish typed details, read the written events.k8s.io/v1 Event as a record, and get the same
//! reason, type, action and details.

use std::collections::BTreeSet;

use gpu_events_core::details::Details;
use gpu_events_core::details::tensorfusion::*;
use gpu_events_core::reason::TensorFusionReason;
use gpu_events_core::{EventRecord, Reason};
use gpu_events_recorder::{
    FakeRecorder, GpuNode, GpuPool, IntoEvent, Publishable, TensorFusionConnection, TensorFusionWorkload, fixed,
};
use k8s_openapi::api::batch::v1::Job;
use k8s_openapi::api::core::v1::Pod;
use kube::Resource;
use kube::api::ObjectMeta;

fn pod() -> Pod {
    Pod {
        metadata: ObjectMeta {
            name: Some("llama-train-worker-0".into()),
            namespace: Some("ml".into()),
            uid: Some("0b6c8f8e-7d1e-4a57-9a3c-2f1f7e0d9a10".into()),
            ..ObjectMeta::default()
        },
        ..Pod::default()
    }
}

fn job() -> Job {
    Job {
        metadata: ObjectMeta {
            name: Some("driver-probe-gpu-node-1".into()),
            namespace: Some("tensor-fusion-sys".into()),
            ..ObjectMeta::default()
        },
        ..Job::default()
    }
}

/// One publish of each sample, on an object of the right type; returns what was expected.
struct Samples {
    fake: FakeRecorder,
    expected: Vec<(String, TensorFusionDetails)>,
    fixed: Vec<(String, TensorFusionReason)>,
}

impl Samples {
    fn add<D>(&mut self, object: &D::Regarding, details: D)
    where
        D: Publishable + Clone + Into<TensorFusionDetails>,
    {
        let name = object.meta().name.clone().unwrap();
        self.fake.recorder().publish(details.clone(), object).unwrap();
        self.expected.push((name, details.into()));
    }

    fn add_fixed<D: Publishable>(&mut self, object: &D::Regarding, details: D, reason: TensorFusionReason) {
        let name = object.meta().name.clone().unwrap();
        self.fake.recorder().publish(details, object).unwrap();
        self.fixed.push((name, reason));
    }
}

#[tokio::test]
async fn every_current_tensorfusion_reason_reads_back_to_its_details() {
    let pod = pod();
    let pool = GpuPool::new("pool-a", Some("5d2c1f3e-0000-4000-8000-000000000001".into()));
    let node = GpuNode::new("gpu-node-1", None);
    let workload = TensorFusionWorkload::new("ml", "llama-tf", None);
    let connection = TensorFusionConnection::new("ml", "llama-conn", None);
    let mut s =
        Samples { fake: FakeRecorder::new("tensor-fusion.ai/round-trip").unwrap(), expected: vec![], fixed: vec![] };

    s.add(&pod, PreScheduleDone::new(3));
    s.add(&pod, ScheduleWithNativeGpu::new(2));
    s.add(&pod, GpuDeviceAllocated::new(&["gpu-a100-0", "gpu-a100-1"]));
    s.add(&pod, GpuDeviceAllocatedFailed::new(&["gpu-a100-0"]));
    s.add(&pod, PodIndexAllocationPending::new(4, "gpu-node-1"));
    s.add(&pod, CommitFailed::new("ml/llama-train-worker-0", "gpu gpu-a100-0 not found"));
    s.add(&pod, ContainerGpuAllocationFailed::new("container main requests 2 GPUs but only 1 allocated"));
    s.add(
        &pod,
        GpuQuotaOrCapacityNotEnough::new(
            "quota exceeded in namespace ml for total.max.tflops.request: requested 120, limit 100",
        ),
    );
    s.add(
        &pod,
        PartitionTemplateMatchFailed::new("no suitable partition template found for request: TFLOPs=50, VRAM=20Gi"),
    );
    s.add(&pod, GpuInterconnectTopologyUnsatisfied::new(1));
    s.add(&pod, GangWaitingInGroup::new("ml/llama-train"));
    s.add(&pod, GangMembersWaiting::new(2, 4));
    s.add(&pod, GangMembersReady::new("ml/llama-train"));
    s.add(&pod, PodGroupScheduled::new("ml/llama-train", 4));
    s.add(&pod, GangTimeout::new("ml/llama-train"));
    s.add(&pod, PodGroupTimedOut::new("ml/llama-train", 3, 4));
    s.add(&pod, GangStrictRejected::new("ml/llama-train", "llama-train-worker-3"));
    s.add(&pod, NodeExpansionCheck::new(ExpansionOutcome::NoGpuNodes, None, NoteWording::Main));
    s.add(&pod, NodeExpansionCheck::new(ExpansionOutcome::DelegateToKarpenter, Some("0/3 nodes"), NoteWording::Main));
    s.add(&pod, NodeExpansionCompleted::new(ClaimKind::NodeClaim, "tensor-fusion-abcde12345"));
    s.add(&pod, NodeExpansionFailed::new(ExpansionFailure::CreateGpuNodeClaim, Some("admission webhook denied")));
    s.add(&pod, NodeExpansionFailed::new(ExpansionFailure::NoFittingNodeType, None));
    s.add(&pod, NodeExpansionCandidateFailed::new("tensor-fusion-abcde12345"));
    s.add(&pool, NodeCreated::new("i-0abc1234def567890", "10.0.0.9"));
    s.add(&pool, Compaction::new("gpu-node-7"));
    s.add(
        &pool,
        MaxResourceConstraintReached::new(
            "&{{{2000 0} {<nil>}  DecimalSI} {{1073741824000 0} {<nil>}  BinarySI} {{0 0} {<nil>}  } {{0 0} {<nil>}  }}",
        ),
    );
    s.add(&pool, DefragStarted::new("2026-08-20T03:00:00Z"));
    s.add(&pool, DefragFinished::new([3, 2, 4, 0, 1, 0, 0, 0], false));
    s.add(&pool, DefragPodEvicted::new("ml", "llama-0", "gpu-node-3"));
    s.add(&pool, DefragSkipMissingPdb::new("gpu-node-3", "ml", "llama-0"));
    s.add(
        &pool,
        DefragSkipPdbBlocked::new("gpu-node-3", "pod ml/llama-0 is blocked by PDB ml/llama-pdb: disruptionsAllowed=0"),
    );
    s.add(
        &pool,
        DefragSkipUnschedulable::new(
            "gpu-node-3",
            "pod=ml/llama-0 feasible=1 budgetTargets=2 topRejects=gpu-node-1:monotonicity(targetUtil=0.25 sourceUtil=0.50) budget=gpu-node-1(t=8,u=2,f=6,d=0)",
        ),
    );
    s.add(&pool, DefragPodEvictFailed::mark_source("gpu-node-3", "the object has been modified"));
    s.add(&pool, DefragPodEvictFailed::with_pod(EvictFailureForm::Evict, "ml", "llama-0", "gpu-node-3", "timeout"));
    s.add(
        &pool,
        DefragNodeEvictSkip::new("gpu-node-3", "Cannot evict pod as it would violate the pod's disruption budget."),
    );
    s.add(&pool, DefragAbortNode::new(AbortForm::SimulationError, "gpu-node-3", Some("no fit")));
    s.add(&pool, DefragConfigInvalid::new("invalid defrag schedule \"* *\": expected 5 fields"));
    s.add(&node, HypervisorCrashLoopRecreate::new("hypervisor-gpu-node-1", "hypervisor", 6, 5));
    s.add(&job(), DriverProbeFailed::new(3));
    s.add(&workload, ResourceScaled::new(ScaleDirection::Up, "10", "20", "4Gi", "8Gi"));
    s.add(&workload, ResourceScaled::new(ScaleDirection::Down, "20", "10", "8Gi", "4Gi"));
    s.add(&connection, WorkerSelected::new("llama-tf-worker-x7k2p"));
    s.add(&connection, WorkerSelectionFailed::new("can not list worker pods: connection refused"));
    s.add(&connection, ConnectionReady::new("native+10.244.3.17+8000+llama-tf-worker-x7k2p-1843392"));
    s.add_fixed(&pod, fixed::GPUInterconnectTopologyFallback, TensorFusionReason::GPUInterconnectTopologyFallback);
    s.add_fixed(&pod, fixed::NodeExpansionCandidatesExhausted, TensorFusionReason::NodeExpansionCandidatesExhausted);
    s.add_fixed(&pool, fixed::DefragBlockedBySourceNode, TensorFusionReason::DefragBlockedBySourceNode);
    s.add_fixed(&pool, fixed::DefragBlockedByEvictedPod, TensorFusionReason::DefragBlockedByEvictedPod);
    s.fake.recorder().flush().await;

    let records: Vec<EventRecord> = s.fake.events().iter().map(EventRecord::from).collect();
    assert_eq!(records.len(), s.expected.len() + s.fixed.len(), "one event per distinct publish");
    let mut covered = BTreeSet::new();
    for (object, details) in &s.expected {
        let note = details.render();
        let record = records
            .iter()
            .find(|r| r.note == note && r.regarding.name.as_deref() == Some(object.as_str()))
            .unwrap_or_else(|| panic!("no event with note {note:?}"));
        let emission = details.emission().unwrap();
        assert_eq!(record.reason.reason(), Some(Reason::TensorFusion(emission.reason)), "{note}");
        assert_eq!(record.type_.as_ref(), Some(&emission.event_type), "{note}");
        assert_eq!(record.action.as_deref(), Some(emission.action), "{note}");
        assert_eq!(record.details, Some(Details::TensorFusion(details.clone())), "{note}");
        assert!(record.flags.is_empty(), "{note}: {:?}", record.flags);
        assert!(emission.reason.info().objects.contains(&record.regarding.kind.as_deref().unwrap()));
        covered.insert(emission.reason);
    }
    for (object, reason) in &s.fixed {
        let record = records
            .iter()
            .find(|r| r.reason.as_str() == reason.as_str() && r.regarding.name.as_deref() == Some(object.as_str()))
            .unwrap_or_else(|| panic!("no event for {reason:?}"));
        assert_eq!(record.note, reason.info().note_formats[0]);
        assert_eq!(record.details, None);
        covered.insert(*reason);
    }
    let current: BTreeSet<TensorFusionReason> =
        TensorFusionReason::ALL.iter().copied().filter(|r| !r.info().retired).collect();
    let missing: Vec<_> = current.difference(&covered).collect();
    assert!(missing.is_empty(), "current reasons without a round-trip sample: {missing:?}");
}

#[test]
fn retired_formats_and_data_reasons_are_refused_without_details() {
    let retired = TensorFusionDetails::from(WorkerFailed::new(3, FailedWorkersWording::WorkersNum));
    assert!(retired.into_event().is_err());
    assert!(TensorFusionReason::PreScheduleDone.into_event().is_err());
    assert!(TensorFusionReason::DefragBlockedByEvictedPod.into_event().is_ok());
}
