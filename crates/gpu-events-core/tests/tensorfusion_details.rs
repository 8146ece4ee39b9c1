//! TensorFusion note grammars through the public API: catalogue wiring, the reference examples
//! (docs tensorfusion-events.md §2–§4, §8, §12), and round trips both ways
//! (`parse(render(x)) == x` for generated values, `render(parse(s)) == s` for generated notes).
//!
//! No case under tests/fixtures/cases contains a TensorFusion event (see its README), so there is
//! no per-case test here; the reference examples play that role.

use gpu_events_core::details::tensorfusion::*;
use gpu_events_core::details::{Details, Grammar, Note};
use gpu_events_core::reason::TensorFusionReason as R;
use gpu_events_core::{Reason, Source};
use proptest::prelude::*;
use serde_json::{Value, json};

// ----- helpers ----------------------------------------------------------------------------

/// The grammar of a TensorFusion catalogue row.
fn grammar(reason: R) -> &'static Grammar {
    Reason::TensorFusion(reason).info().grammar.unwrap_or_else(|| panic!("{reason:?} has no grammar"))
}

/// Parse `note` with the row's grammar, check it is recognized, renders back byte for byte and
/// goes through JSON; return the details.
fn parse_ok(reason: R, action: Option<&str>, note: &str) -> TensorFusionDetails {
    let details = grammar(reason).parse(&Note::new(note).with_action(action));
    let Details::TensorFusion(tf) = &details else { panic!("{reason:?}: not recognized: {note:?}") };
    assert_eq!(details.render().as_deref(), Some(note), "{reason:?}");
    assert!(grammar(reason).kinds.contains(&tf.kind()), "{reason:?} {}", tf.kind());
    let json = serde_json::to_value(&details).unwrap();
    assert_eq!(json["kind"], tf.kind());
    let back: Details = serde_json::from_value(json).unwrap();
    assert_eq!(back.kind(), tf.kind());
    tf.clone()
}

/// `parse(render(x)) == x` through the row's grammar.
fn round_trip(reason: R, action: Option<&str>, value: impl Into<TensorFusionDetails>) {
    let value: TensorFusionDetails = value.into();
    let note = value.render();
    let parsed = grammar(reason).parse(&Note::new(&note).with_action(action));
    assert_eq!(parsed, Details::TensorFusion(value), "{reason:?}: {note:?}");
}

/// Fill a Go format as `fmt.Sprintf` would: `%d` numbers, `%s`/`%v` names, `%t` booleans,
/// `%q` quoted names, `%%` a percent sign.
fn go_fill(format: &str, names: &[String], numbers: &[u32], flag: bool) -> String {
    let (mut names, mut numbers) = (names.iter().cycle(), numbers.iter().cycle());
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('%') => out.push('%'),
            Some('d') => out.push_str(&numbers.next().unwrap().to_string()),
            Some('s' | 'v') => out.push_str(names.next().unwrap()),
            Some('t') => out.push_str(if flag { "true" } else { "false" }),
            Some('q') => out.push_str(&format!("{:?}", names.next().unwrap())),
            other => panic!("verb {other:?} in {format}"),
        }
    }
    out
}

/// Read a value at a JSON pointer of the details.
fn at(details: &TensorFusionDetails, pointer: &str) -> Value {
    serde_json::to_value(details)
        .unwrap()
        .pointer(pointer)
        .cloned()
        .unwrap_or_else(|| panic!("no {pointer} in {details:?}"))
}

fn tf_rows() -> impl Iterator<Item = R> {
    Reason::all().iter().filter_map(|reason| match reason {
        Reason::TensorFusion(r) => Some(*r),
        _ => None,
    })
}

// ----- catalogue ------------------------------------------------------------------------------

#[test]
fn every_tensorfusion_row_with_a_verb_has_a_grammar() {
    let mut with_grammar = 0;
    for reason in Reason::all().iter().filter(|r| r.info().source == Source::TensorFusion) {
        let info = reason.info();
        if info.note_formats.iter().any(|f| f.contains('%')) {
            assert!(info.grammar.is_some(), "{} has verbs but no grammar", info.id);
        }
        if let Some(grammar) = info.grammar {
            with_grammar += 1;
            for kind in grammar.kinds {
                assert!(
                    TensorFusionDetails::KINDS.contains(kind),
                    "{}: kind {kind} is not a TensorFusion kind",
                    info.id
                );
            }
        }
    }
    assert!(with_grammar >= 50, "{with_grammar}");
    // Fixed texts carry no data and keep no grammar.
    for fixed in [
        R::GPUInterconnectTopologyFallback,
        R::NodeExpansionCandidatesExhausted,
        R::DefragBlockedBySourceNode,
        R::DefragBlockedByEvictedPod,
    ] {
        assert!(fixed.info().grammar.is_none(), "{fixed:?}");
    }
}

#[test]
fn json_schema_names_every_kind() {
    let schema = serde_json::to_string(&schemars::schema_for!(TensorFusionDetails)).unwrap();
    for kind in TensorFusionDetails::KINDS {
        assert!(schema.contains(&format!("\"{kind}\"")), "{kind}");
    }
    // Fields of nested data enums are camelCase too.
    for field in ["budgetTargets", "topRejects", "usagePercent", "disruptionsAllowed", "resourceVersion"] {
        assert!(schema.contains(field), "{field}");
    }
    assert!(!schema.contains("budget_targets"));
}

// ----- reference examples -----------------------------------------------------------------------

/// One reference example: reason row, action, note, kind, and `(JSON pointer, value)` checks.
type Example = (R, Option<&'static str>, &'static str, &'static str, Vec<(&'static str, Value)>);

/// The examples of tensorfusion-events.md (§2–§4, §8, §12).
fn reference_examples() -> Vec<Example> {
    vec![
        // §2.1 GPUResourcesFit plugin
        (
            R::ScheduleWithNativeGPU,
            Some("Scheduling non-TF workload for progressive migration"),
            "use native GPU resources, available native GPU nodes: 4",
            "scheduleWithNativeGpu",
            vec![("/nativeGpuNodes", json!(4))],
        ),
        (
            R::GPUQuotaOrCapacityNotEnough,
            Some("check quota and filter"),
            "TensorFusion schedule failed, no enough resource or quotas: quota exceeded in namespace ml for total.max.tflops.request: requested 120, limit 100",
            "gpuQuotaOrCapacityNotEnough",
            vec![
                ("/cause/kind", json!("quotaExceeded")),
                ("/cause/namespace", json!("ml")),
                ("/cause/resource", json!("total.max.tflops.request")),
                ("/cause/requested/value", json!(120.0)),
                ("/cause/limit/quantity", json!("100")),
            ],
        ),
        (
            R::PartitionTemplateMatchFailed,
            Some("match partition template"),
            "Failed to match partition template: no suitable partition template found for request: TFLOPs=50, VRAM=20Gi",
            "partitionTemplateMatchFailed",
            vec![
                ("/cause/kind", json!("noSuitableTemplate")),
                ("/cause/tflops/value", json!(50.0)),
                ("/cause/vram/value", json!(20.0 * 1024f64.powi(3))),
            ],
        ),
        (
            R::PreScheduleDone,
            Some("pre filter for TensorFusion workload"),
            "TensorFusion pre schedule done, valid GPU node count: 3",
            "preScheduleDone",
            vec![("/validGpuNodes", json!(3))],
        ),
        (
            R::GangStrictRejected,
            Some("Gang strict-rejected"),
            "Gang group ml/llama-train rejected because member llama-train-worker-3 could not be scheduled",
            "gangStrictRejected",
            vec![
                ("/group/key", json!("ml/llama-train")),
                ("/group/namespace", json!("ml")),
                ("/group/workload", json!("llama-train")),
                ("/member", json!("llama-train-worker-3")),
            ],
        ),
        (
            R::GangScheduled,
            Some("Gang scheduling complete"),
            "All gang members ready for group ml/llama-train",
            "gangMembersReady",
            vec![("/group/key", json!("ml/llama-train"))],
        ),
        (
            R::GangWaitingForMembers,
            Some("Waiting for gang members"),
            "Waiting for other members in group ml/llama-train",
            "gangWaitingInGroup",
            vec![("/group/workload", json!("llama-train"))],
        ),
        (
            R::GangSchedulingTimeout,
            Some("Gang scheduling timeout"),
            "Gang scheduling timeout for group ml/llama-train",
            "gangTimeout",
            vec![("/group/namespace", json!("ml"))],
        ),
        (
            R::CommitFailed,
            Some("GPU allocation commit failed"),
            "Commit failed for pod llama-0 after retries: pod 5f0c…-uid has no assumed allocation to commit",
            "commitFailed",
            vec![("/pod", json!("llama-0")), ("/error", json!("pod 5f0c…-uid has no assumed allocation to commit"))],
        ),
        (
            R::ContainerGPUAllocationFailed,
            Some("Failed to allocate GPUs to containers"),
            "Error: not enough GPUs: need 1 more for container sidecar",
            "containerGpuAllocationFailed",
            vec![
                ("/cause/kind", json!("notEnoughGpus")),
                ("/cause/more", json!(1)),
                ("/cause/container", json!("sidecar")),
            ],
        ),
        (
            R::GPUDeviceAllocatedFailed,
            Some("Attach GPU device ID info failed"),
            "Can not add GPU device IDs: gpu-3f2a1b4c-5d6e-7f80-9a1b-2c3d4e5f6a7b",
            "gpuDeviceAllocatedFailed",
            vec![("/gpuIds", json!(["gpu-3f2a1b4c-5d6e-7f80-9a1b-2c3d4e5f6a7b"]))],
        ),
        (
            R::GPUDeviceAllocated,
            Some("Attach GPU device ID info"),
            "Attach TensorFusion GPU device IDs to Pod: gpu-3f2a…,gpu-9c8d…",
            "gpuDeviceAllocated",
            vec![("/gpuIds", json!(["gpu-3f2a…", "gpu-9c8d…"]))],
        ),
        (
            R::PodIndexAllocationPending,
            Some("Pod index allocation pending"),
            "Index 3 will be patched into pod after released by other pod on the same node: gpu-node-a",
            "podIndexAllocationPending",
            vec![("/index", json!(3)), ("/node", json!("gpu-node-a"))],
        ),
        // §2.2 gang manager
        (
            R::GangManagerWaitingForMembers,
            Some("Waiting"),
            "Waiting for gang members: 2/4 ready",
            "gangMembersWaiting",
            vec![("/ready", json!(2)), ("/required", json!(4))],
        ),
        (
            R::GangManagerSchedulingTimeout,
            Some("Timeout"),
            "Pod group ml/llama-train timed out with 3/4 members ready",
            "podGroupTimedOut",
            vec![("/group/key", json!("ml/llama-train")), ("/ready", json!(3)), ("/required", json!(4))],
        ),
        (
            R::GangManagerScheduled,
            Some("Scheduled"),
            "Pod group ml/llama-train scheduled with 4 members",
            "podGroupScheduled",
            vec![("/group/namespace", json!("ml")), ("/members", json!(4))],
        ),
        // §2.3 topology plugin
        (
            R::GPUInterconnectTopologyUnsatisfied,
            Some("topology evaluation"),
            "No node satisfies GPU topology constraint (mode=hard, maxTier=1)",
            "gpuInterconnectTopologyUnsatisfied",
            vec![("/maxTier", json!(1))],
        ),
        // §2.4 node expander
        (
            R::NodeExpansionCheck,
            Some("Scheduled"),
            "new node provisioned and pod scheduled successfully",
            "nodeExpansionCheck",
            vec![("/outcome", json!("scheduled")), ("/error", Value::Null), ("/wording", json!("main"))],
        ),
        (
            R::NodeExpansionCheck,
            Some("DelegateToKarpenter"),
            "can not schedule on any nodes even without GPU constraints, karpenter should take over expansion. error: scheduler framework not found",
            "nodeExpansionCheck",
            vec![("/outcome", json!("delegateToKarpenter")), ("/error", json!("scheduler framework not found"))],
        ),
        (
            R::NodeExpansionCheck,
            Some("DelegateToKarpenter"),
            "can not schedule on any nodes even without GPU constraints, karpenter should take over expansion, 0 fit nodes",
            "nodeExpansionCheck",
            vec![("/outcome", json!("delegateToKarpenter")), ("/error", Value::Null)],
        ),
        (
            R::NodeExpansionCheck,
            Some("NoGPUNodes"),
            "all schedulable nodes are none GPU nodes, manual check required",
            "nodeExpansionCheck",
            vec![("/outcome", json!("noGpuNodes"))],
        ),
        (
            R::NodeExpansionCheck,
            Some("PreScheduled"),
            "fit in-flight GPU resources, pod should be scheduled after new node is provisioned",
            "nodeExpansionCheck",
            vec![("/outcome", json!("preScheduled"))],
        ),
        (
            R::NodeExpansionCheck,
            Some("Schedulable"),
            "fit GPU resources, pod should be scheduled now or a while later on existing/provisioning nodes",
            "nodeExpansionCheck",
            vec![("/outcome", json!("schedulable")), ("/wording", json!("main"))],
        ),
        (
            R::NodeExpansionCheck,
            Some("NonGPUIssue"),
            "pod scheduling failure not due to GPU resources, manual check required",
            "nodeExpansionCheck",
            vec![("/outcome", json!("nonGpuIssue"))],
        ),
        (
            R::NodeExpansionCheck,
            Some("ScheduleTimeout"),
            "failed to schedule pod after 10 minutes",
            "nodeExpansionCheck",
            vec![("/outcome", json!("scheduleTimeout"))],
        ),
        (
            R::NodeExpansionFailed,
            Some("Failed"),
            "failed to satisfy the pending pod, no potential GPU nodes can fit",
            "nodeExpansionFailed",
            vec![("/failure", json!("noFittingNodeType")), ("/error", Value::Null)],
        ),
        (
            R::NodeExpansionFailed,
            Some("CreateFailed"),
            "failed to create new GPUNodeClaim: admission webhook denied",
            "nodeExpansionFailed",
            vec![("/failure", json!("createGpuNodeClaim")), ("/error", json!("admission webhook denied"))],
        ),
        (
            R::NodeExpansionFailed,
            Some("CreateFailed"),
            "failed to create new NodeClaim: nodeclaims.karpenter.sh is forbidden",
            "nodeExpansionFailed",
            vec![("/failure", json!("createNodeClaim"))],
        ),
        (
            R::NodeExpansionCompleted,
            Some("Created"),
            "created new NodeClaim for node expansion: tensor-fusion-x8k2mq9vbt",
            "nodeExpansionCompleted",
            vec![("/claim", json!("nodeClaim")), ("/name", json!("tensor-fusion-x8k2mq9vbt"))],
        ),
        (
            R::NodeExpansionCompleted,
            Some("Created"),
            "created new GPUNodeClaim for node expansion: pool-a-k2j4h5g6",
            "nodeExpansionCompleted",
            vec![("/claim", json!("gpuNodeClaim"))],
        ),
        // §2.5 newer v1-line code
        (
            R::NodeExpansionCandidateFailed,
            None,
            "Karpenter NodeClaim tensor-fusion-x8k2mq9vbt failed due to insufficient capacity; trying the next expansion preference",
            "nodeExpansionCandidateFailed",
            vec![("/nodeClaim", json!("tensor-fusion-x8k2mq9vbt"))],
        ),
        // §8 v1-line wordings (core/v1 recorder: no action)
        (
            R::NodeExpansionCheck,
            None,
            "can not schedule on any nodes even without GPU constraints, manual check required. error: scheduler framework not found",
            "nodeExpansionCheck",
            vec![
                ("/outcome", json!("delegateToKarpenter")),
                ("/wording", json!("v1")),
                ("/error", json!("scheduler framework not found")),
            ],
        ),
        (
            R::NodeExpansionCheck,
            None,
            "can not schedule on any nodes, manual check required, 0 fit nodes",
            "nodeExpansionCheck",
            vec![("/wording", json!("v1")), ("/error", Value::Null)],
        ),
        (
            R::NodeExpansionCheck,
            None,
            "fit GPU resources, pod should be scheduled now or whiles later on existing/provisioning nodes",
            "nodeExpansionCheck",
            vec![("/outcome", json!("schedulable")), ("/wording", json!("v1"))],
        ),
        // §3 GPUPool
        (
            R::ManagedNodeCreated,
            Some("Created"),
            "Created node: i-0a1b2c3d4e5f67890, IP: 10.0.12.34",
            "nodeCreated",
            vec![("/instanceId", json!("i-0a1b2c3d4e5f67890")), ("/ip", json!("10.0.12.34"))],
        ),
        (
            R::Compaction,
            Some("Compacting"),
            "Node gpu-node-7 is empty and deletion won't impact warm-up capacity, try terminating it",
            "compaction",
            vec![("/node", json!("gpu-node-7"))],
        ),
        (
            R::MaxResourceConstraintReached,
            Some("ConstraintReached"),
            "Max resource constraint can not be satisfied, can not scale up: &{{{2000 0} {<nil>}  DecimalSI} {{1073741824000 0} {<nil>}  BinarySI} {{0 0} {<nil>}  } {{0 0} {<nil>}  }}",
            "maxResourceConstraintReached",
            vec![
                ("/maxResources/tflops/value", json!(2000.0)),
                ("/maxResources/vram/value", json!(1_073_741_824_000.0)),
                ("/maxResources/vram/format", json!("BinarySI")),
                ("/maxResources/cpu/value", json!(0.0)),
                ("/maxResources/memory/cached", Value::Null),
            ],
        ),
        (
            R::DefragConfigInvalid,
            Some("DefragConfigInvalid"),
            "defrag disabled: timezone is required (e.g. \"UTC\" or \"Asia/Shanghai\")",
            "defragConfigInvalid",
            vec![("/cause/kind", json!("timezoneRequired"))],
        ),
        (
            R::DefragStarted,
            Some("DefragStarted"),
            "defrag step started at 2026-08-20T03:00:00Z",
            "defragStarted",
            vec![("/startedAt", json!("2026-08-20T03:00:00Z")), ("/time", json!("2026-08-20T03:00:00Z"))],
        ),
        (
            R::DefragFinished,
            Some("DefragFinished"),
            "defrag step finished: candidates=3 processed=2 evicted=4 failed=0 unmovable=1 pdbBlocked=0 missingPdb=0 freshSkip=0 deadline=false",
            "defragFinished",
            vec![
                ("/candidates", json!(3)),
                ("/processed", json!(2)),
                ("/evicted", json!(4)),
                ("/failed", json!(0)),
                ("/unmovable", json!(1)),
                ("/pdbBlocked", json!(0)),
                ("/missingPdb", json!(0)),
                ("/freshSkip", json!(0)),
                ("/deadline", json!(false)),
            ],
        ),
        (
            R::DefragSkipMissingPDB,
            Some("DefragSkipMissingPDB"),
            "node gpu-node-3 skipped from defrag: pod ml/llama-0 has no PodDisruptionBudget covering it; please add a PDB to enable safe defrag",
            "defragSkipMissingPdb",
            vec![("/node", json!("gpu-node-3")), ("/namespace", json!("ml")), ("/pod", json!("llama-0"))],
        ),
        (
            R::DefragAbortNode,
            Some("DefragAbortNode"),
            "node gpu-node-3: eviction aborted",
            "defragAbortNode",
            vec![("/form", json!("evictionAborted")), ("/node", json!("gpu-node-3")), ("/error", Value::Null)],
        ),
        (
            R::DefragSkipUnschedulable,
            Some("DefragSkipUnschedulable"),
            "node gpu-node-3 skipped: pod=ml/llama-0 feasible=1 budgetTargets=2 topRejects=gpu-node-1:monotonicity(targetUtil=0.25 sourceUtil=0.50) budget=gpu-node-1(t=8,u=2,f=6,d=0)",
            "defragSkipUnschedulable",
            vec![
                ("/node", json!("gpu-node-3")),
                ("/placement/form", json!("placement")),
                ("/placement/podNamespace", json!("ml")),
                ("/placement/pod", json!("llama-0")),
                ("/placement/feasible", json!(1)),
                ("/placement/budgetTargets", json!(2)),
                ("/placement/topRejects/0/target", json!("gpu-node-1")),
                ("/placement/topRejects/0/stage", json!("monotonicity")),
                ("/placement/topRejects/0/reason", json!("targetUtil=0.25 sourceUtil=0.50")),
                ("/placement/budget/0", json!({"node": "gpu-node-1", "t": 8, "u": 2, "f": 6, "d": 0})),
                ("/placement/truncated", json!(false)),
            ],
        ),
        (
            R::DefragSkipPDBBlocked,
            Some("DefragSkipPDBBlocked"),
            "node gpu-node-3 skipped before eviction: pod ml/llama-0 is blocked by PDB ml/llama-pdb: disruptionsAllowed=0",
            "defragSkipPdbBlocked",
            vec![(
                "/block",
                json!({"podNamespace": "ml", "pod": "llama-0", "pdbNamespace": "ml", "pdb": "llama-pdb", "disruptionsAllowed": 0}),
            )],
        ),
        (
            R::DefragPodEvictFailed,
            Some("DefragPodEvictFailed"),
            "failed to evict pod ml/llama-0 on node gpu-node-3: Cannot evict pod as it would violate the pod's disruption budget. (node eviction aborted)",
            "defragPodEvictFailed",
            vec![
                ("/form", json!("evict")),
                ("/namespace", json!("ml")),
                ("/pod", json!("llama-0")),
                ("/node", json!("gpu-node-3")),
                ("/error", json!("Cannot evict pod as it would violate the pod's disruption budget.")),
            ],
        ),
        (
            R::DefragPodEvicted,
            Some("DefragPodEvicted"),
            "evicted pod ml/llama-0 on node gpu-node-3 for defrag",
            "defragPodEvicted",
            vec![("/namespace", json!("ml")), ("/pod", json!("llama-0")), ("/node", json!("gpu-node-3"))],
        ),
        (
            R::DefragNodeEvictSkip,
            Some("DefragNodeEvictSkip"),
            "node gpu-node-3 added to defrag evict-skip list after eviction failure: <error>",
            "defragNodeEvictSkip",
            vec![("/node", json!("gpu-node-3")), ("/error", json!("<error>"))],
        ),
        // §4 GPUNode, Job, connection, workload
        (
            R::HypervisorCrashLoopRecreate,
            Some("Recreate"),
            "Hypervisor pod hypervisor-gpu-node-1 deleted for recreation: container hypervisor restarted 6 times (threshold 5)",
            "hypervisorCrashLoopRecreate",
            vec![
                ("/pod", json!("hypervisor-gpu-node-1")),
                ("/container", json!("hypervisor")),
                ("/restarts", json!(6)),
                ("/threshold", json!(5)),
            ],
        ),
        (
            R::DriverProbeFailed,
            Some("Failed"),
            "Driver probe job failed after 3 attempts",
            "driverProbeFailed",
            vec![("/attempts", json!(3))],
        ),
        (
            R::WorkerSelectionFailed,
            Some("SelectionFailed"),
            "Failed to select worker: can not list worker pods: <err>",
            "workerSelectionFailed",
            vec![("/error", json!("can not list worker pods: <err>"))],
        ),
        (
            R::WorkerSelected,
            Some("Selected"),
            "Worker llama-tf-worker-x7k2p successfully selected for connection",
            "workerSelected",
            vec![("/worker", json!("llama-tf-worker-x7k2p"))],
        ),
        (
            R::ConnectionReady,
            Some("Ready"),
            "Connection URL: native+10.244.3.17+8000+llama-tf-worker-x7k2p-1843392",
            "connectionReady",
            vec![
                ("/url", json!("native+10.244.3.17+8000+llama-tf-worker-x7k2p-1843392")),
                (
                    "/parts",
                    json!({"scheme": "native", "ip": "10.244.3.17", "port": 8000,
                                   "workerPod": "llama-tf-worker-x7k2p", "resourceVersion": "1843392"}),
                ),
            ],
        ),
        (
            R::ConnectionReady,
            Some("Ready"),
            "Connection URL: native++8000+llama-tf-worker-x7k2p-0",
            "connectionReady",
            vec![
                ("/url", json!("native++8000+llama-tf-worker-x7k2p-0")),
                (
                    "/parts",
                    json!({"scheme": "native", "ip": "", "port": 8000,
                                   "workerPod": "llama-tf-worker-x7k2p", "resourceVersion": "0"}),
                ),
            ],
        ),
        (
            R::ResourceScaledUp,
            Some("Scaled"),
            "Resources scaled up: Compute 10->20, VRAM 4Gi->8Gi",
            "resourceScaled",
            vec![
                ("/direction", json!("up")),
                ("/computeFrom/value", json!(10.0)),
                ("/computeTo/value", json!(20.0)),
                ("/vramFrom/value", json!(4.0 * 1024f64.powi(3))),
                ("/vramTo/quantity", json!("8Gi")),
            ],
        ),
        (
            R::ResourceScaledDown,
            Some("Scaled"),
            "Resources scaled down: Compute 20->10, VRAM 8Gi->6Gi",
            "resourceScaled",
            vec![("/direction", json!("down")), ("/vramTo/value", json!(6.0 * 1024f64.powi(3)))],
        ),
        // §12 retired reasons
        (
            R::GPUNodeCreated,
            None,
            "Created node: i-0a1b2c3d4e5f67890, IP: ",
            "nodeCreated",
            vec![("/instanceId", json!("i-0a1b2c3d4e5f67890")), ("/ip", Value::Null)],
        ),
        (
            R::OrphanedNode,
            None,
            "provisioned node not found, this could result in orphaned nodes, please check manually: gpu-node-1",
            "orphanedNode",
            vec![("/form", json!("notFound")), ("/node", json!("gpu-node-1"))],
        ),
        (
            R::OrphanedNode,
            None,
            "provisioned node without instanceID, this could result in orphaned nodes, please check manually: gpu-node-1",
            "orphanedNode",
            vec![("/form", json!("withoutInstanceId"))],
        ),
        (
            R::NodeProvisionerNotFound,
            None,
            "GPUNode \"gpu-node-1\" provisioner not found, current Kubernetes node \"node-a\"",
            "nodeProvisionerNotFound",
            vec![("/gpuNode", json!("gpu-node-1")), ("/node", json!("node-a"))],
        ),
        (
            R::NodeProvisionerNotFound,
            None,
            "GPUNode not found for node node-a",
            "nodeProvisionerNotFound",
            vec![("/gpuNode", Value::Null), ("/node", json!("node-a"))],
        ),
        (
            R::NodeNotFound,
            None,
            "Kubernetes node has been disappeared, deleting GPUNode%!(EXTRA string=node-a)",
            "nodeNotFound",
            vec![("/kubernetesNode", json!("node-a"))],
        ),
        (
            R::NodeNotFound,
            None,
            "Kubernetes node has been disappeared, deleting GPUNode",
            "nodeNotFound",
            vec![("/kubernetesNode", Value::Null)],
        ),
        (
            R::CloudVendorParamEmpty,
            None,
            "cloud vendor param is empty, but manage mode is provisioned: gpu-node-1",
            "cloudVendorParamEmpty",
            vec![("/node", json!("gpu-node-1"))],
        ),
        (
            R::SelectingWorker,
            None,
            "Selecting worker for connection llama-conn",
            "selectingWorker",
            vec![("/connection", json!("llama-conn"))],
        ),
        (
            R::ScheduleGPUFailed,
            None,
            "Failed to schedule GPU: no gpus available in pool default",
            "scheduleGpuFailed",
            vec![("/error", json!("no gpus available in pool default"))],
        ),
        (
            R::AlertThresholdReached,
            None,
            "Requests TFlops usage (93%) has reached alert threshold (90%)",
            "alertThresholdReached",
            vec![
                ("/prefixed", json!(false)),
                ("/alerts", json!([{"resource": "Requests TFlops", "usagePercent": 93, "thresholdPercent": 90}])),
            ],
        ),
        (
            R::AlertThresholdReached,
            None,
            "One of the following resources has reached alert threshold: Requests VRAM usage (96%) has reached alert threshold (95%)",
            "alertThresholdReached",
            vec![("/prefixed", json!(true)), ("/alerts/0/resource", json!("Requests VRAM"))],
        ),
        (
            R::WorkerFailed,
            None,
            "Failed workers num: 2",
            "workerFailed",
            vec![("/failed", json!(2)), ("/wording", json!("workersNum"))],
        ),
        (
            R::WorkerFailed,
            None,
            "Failed workers: 1",
            "workerFailed",
            vec![("/failed", json!(1)), ("/wording", json!("workers"))],
        ),
        (
            R::CheckComponentStatusError,
            None,
            "failed to get hypervisor daemonset: not found",
            "rawError",
            vec![("/error", json!("failed to get hypervisor daemonset: not found"))],
        ),
        (
            R::UpdateClusterStatusError,
            None,
            "Operation cannot be fulfilled on tensorfusionclusters",
            "rawError",
            vec![],
        ),
    ]
}

#[test]
fn reference_examples_parse_and_render_back() {
    for (reason, action, note, kind, fields) in reference_examples() {
        let details = parse_ok(reason, action, note);
        assert_eq!(details.kind(), kind, "{note}");
        for (pointer, want) in fields {
            assert_eq!(at(&details, pointer), want, "{note} {pointer}");
        }
    }
}

/// What a recorder would write for a parsed reference note: the reason of its row (same wire
/// string for the rows shared by two reporters), a type the row allows and the action the
/// reference records.
#[test]
fn emission_gives_back_the_row_type_and_action_of_every_reference_note() {
    for (reason, action, note, _, _) in reference_examples() {
        let details = parse_ok(reason, action, note);
        let Some(emission) = details.emission() else {
            assert!(reason.info().retired, "{reason:?} is current but has no emission");
            continue;
        };
        assert!(!emission.reason.info().retired, "{note}: a recorder writes only current reasons");
        if reason.info().retired {
            // A retired row sharing a current format (GPUNodeCreated): the current reason writes it.
            continue;
        }
        assert_eq!(emission.reason.as_str(), reason.as_str(), "{note}");
        let row = emission.reason.info();
        assert!(row.types.contains(&emission.event_type), "{note}: {:?}", emission.event_type);
        if let Some(action) = action {
            assert_eq!(emission.action, action, "{note}");
        }
        assert!(
            row.actions.is_empty() || row.actions.contains(&emission.action),
            "{note}: action {} not in the row",
            emission.action
        );
        assert!(row.grammar.is_some_and(|g| g.kinds.contains(&details.kind())), "{note}");
    }
}

#[test]
fn catalogue_routes_both_gang_reporters() {
    for (wire, controller, note, kind) in [
        ("GangWaitingForMembers", Some("GangScheduler"), "Waiting for gang members: 2/4 ready", "gangMembersWaiting"),
        ("GangWaitingForMembers", None, "Waiting for gang members: 2/4 ready", "gangMembersWaiting"),
        (
            "GangWaitingForMembers",
            Some("tensor-fusion-scheduler"),
            "Waiting for other members in group ml/a",
            "gangWaitingInGroup",
        ),
        (
            "GangScheduled",
            Some("tensor-fusion-scheduler"),
            "Pod group ml/a scheduled with 4 members",
            "podGroupScheduled",
        ),
        ("GangSchedulingTimeout", None, "Pod group ml/a timed out with 3/4 members ready", "podGroupTimedOut"),
    ] {
        let reason = Reason::from_wire_reported_by(wire, controller).unwrap();
        let details = reason.info().grammar.unwrap().parse(&Note::new(note));
        assert_eq!(details.kind(), kind, "{wire} {controller:?}");
        assert_eq!(details.render().as_deref(), Some(note));
    }
}

#[test]
fn near_misses_are_unrecognized() {
    for (reason, action, note) in [
        (R::PreScheduleDone, None, "TensorFusion pre schedule done, valid GPU node count: 03"),
        (R::GangManagerWaitingForMembers, None, "Waiting for gang members: 2 of 4 ready"),
        (R::NodeExpansionCheck, Some("Schedulable"), "failed to schedule pod after 10 minutes"),
        (R::NodeExpansionCheck, None, "fit GPU resources, pod should be scheduled"),
        (
            R::DefragFinished,
            None,
            "defrag run finished: candidates=1 processed=1 evicted=0 failed=0 unmovable=0 freshSkip=0 deadline=false",
        ),
        (R::DefragPodEvictFailed, None, "failed to evict pod ml/a on node n: boom"),
        (R::ConnectionReady, None, "Connection url: native+1.2.3.4+8000+w-1"),
        (R::ResourceScaledUp, None, "Resources scaled down: Compute 20->10, VRAM 8Gi->6Gi"),
        (
            R::HypervisorCrashLoopRecreate,
            None,
            "Hypervisor pod h deleted for recreation: container c restarted 2147483648 times (threshold 5)",
        ),
        (R::AlertThresholdReached, None, "quota nearly full"),
        (R::NodeNotFound, None, "Kubernetes node has been disappeared"),
    ] {
        assert_eq!(
            grammar(reason).parse(&Note::new(note).with_action(action)),
            Details::Unrecognized,
            "{reason:?}: {note}"
        );
    }
}

// ----- snapshots of whole details ---------------------------------------------------------------

#[test]
fn snapshots_of_composite_details() {
    let placement = parse_ok(
        R::DefragSkipUnschedulable,
        None,
        "node gpu-node-3 skipped: pod=ml/llama-0 feasible=0 budgetTargets=3 topRejects=gpu-node-1:scheduler-filter(node(s) didn't match Pod's node affinity, taint x),gpu-node-2:allocator-filter(no gpu (vram) left) budget=gpu-node-1(t=8,u=8,f=0,d=0) excluded=gpu-node-4(empty node (t=4,u=0,f=4,d=0)),gpu-node-5(no pool GPUs (label mismatch))",
    );
    insta::assert_json_snapshot!("defrag_skip_unschedulable", placement);

    let dump = parse_ok(
        R::MaxResourceConstraintReached,
        None,
        "Max resource constraint can not be satisfied, can not scale up: &{{{100 0} {<nil>} 100 DecimalSI} {{1073741824000 0} {<nil>}  BinarySI} {{0 0} {<nil>}  } {{0 0} {<nil>}  }}",
    );
    insta::assert_json_snapshot!("max_resource_constraint_reached", dump);

    let quota = parse_ok(
        R::GPUQuotaOrCapacityNotEnough,
        None,
        "TensorFusion schedule failed, no enough resource or quotas: apply filters: no node has at least 4 available GPUs",
    );
    insta::assert_json_snapshot!("gpu_quota_apply_filters", quota);

    let mangled = parse_ok(
        R::GPUQuotaOrCapacityNotEnough,
        None,
        "TensorFusion schedule failed, no enough resource or quotas: apply filters: compute 50%!u(MISSING)sed",
    );
    insta::assert_json_snapshot!("gpu_quota_mangled_percent", mangled);

    let check = parse_ok(
        R::NodeExpansionCheck,
        None,
        "can not schedule on any nodes even without GPU constraints, manual check required. error: 0/3 nodes are available",
    );
    insta::assert_json_snapshot!("node_expansion_check_v1", check);
}

// ----- random fills of every Go format ------------------------------------------------------------

fn name() -> impl Strategy<Value = String> {
    "[a-z0-9]([-a-z0-9]{0,20}[a-z0-9])?"
}

fn quantity() -> impl Strategy<Value = String> {
    "[0-9]{1,4}(m|Ki|Mi|Gi)?"
}

/// Printable text (any script), for values that end a note or are followed by fixed text that
/// is matched from the end.
fn text() -> impl Strategy<Value = String> {
    "\\PC{0,40}"
}

/// Printable text without `literal`, for values followed by that literal.
fn text_without(literal: &'static str) -> impl Strategy<Value = String> {
    text().prop_filter("contains the next literal", move |t| !t.contains(literal))
}

fn i32_count() -> impl Strategy<Value = i32> {
    0..=i32::MAX
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// `render(parse(s)) == s` for every format of every TensorFusion row, filled at random.
    #[test]
    fn random_fills_of_every_format_round_trip(
        names in prop::collection::vec(name(), 6),
        numbers in prop::collection::vec(0..=(i32::MAX as u32), 9),
        flag in any::<bool>(),
    ) {
        for reason in tf_rows() {
            let info = Reason::TensorFusion(reason).info();
            let Some(grammar) = info.grammar else { continue };
            for format in info.note_formats {
                if format.contains('…') {
                    continue; // An elided format in the reference, not a real note.
                }
                let note = go_fill(format, &names, &numbers, flag);
                let details = grammar.parse(&Note::new(&note));
                prop_assert_ne!(&details, &Details::Unrecognized, "{:?}: {}", reason, note);
                prop_assert_eq!(details.render(), Some(note));
            }
        }
    }

    /// `render(parse(s)) == s` for arbitrary errors and free text where the formats allow it.
    #[test]
    fn free_text_survives(error in text(), reason_text in text_without(" (node eviction aborted)")) {
        for (reason, prefix) in [
            (R::GPUQuotaOrCapacityNotEnough, "TensorFusion schedule failed, no enough resource or quotas: "),
            (R::PartitionTemplateMatchFailed, "Failed to match partition template: "),
            (R::ContainerGPUAllocationFailed, "Error: "),
            (R::CommitFailed, "Commit failed for pod llama-0 after retries: "),
            (R::WorkerSelectionFailed, "Failed to select worker: "),
            (R::DefragConfigInvalid, "defrag disabled: "),
            (R::DefragSkipUnschedulable, "node gpu-node-3 skipped: "),
            (R::DefragSkipPDBBlocked, "node gpu-node-3 skipped before eviction: "),
            (R::DefragNodeEvictSkip, "node n added to defrag evict-skip list after eviction failure: "),
            (R::MaxResourceConstraintReached, "Max resource constraint can not be satisfied, can not scale up: "),
            (R::ConnectionReady, "Connection URL: "),
            (R::DefragStarted, "defrag step started at "),
            (R::ScheduleGPUFailed, "Failed to schedule GPU: "),
            (R::AlertThresholdReached, "One of the following resources has reached alert threshold:"),
            (R::CheckComponentStatusError, ""),
        ] {
            parse_ok(reason, None, &format!("{prefix}{error}"));
        }
        let note = format!("failed to evict pod ml/a on node n: {error} (node eviction aborted)");
        let details = parse_ok(R::DefragPodEvictFailed, None, &note);
        prop_assert_eq!(at(&details, "/error"), json!(error));
        let note = format!("evicted pod ml/a on node n but failed to mark defrag label: {reason_text} (node eviction aborted)");
        parse_ok(R::DefragPodEvictFailed, None, &note);
    }
}

// ----- parse(render(x)) == x for generated values -------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn scheduler_plugin_values_round_trip(
        count in any::<u32>(),
        tier in any::<i64>(),
        ids in prop::collection::vec(name(), 0..4),
        pod in name(),
        node in name(),
        error in text(),
    ) {
        round_trip(R::PreScheduleDone, None, PreScheduleDone::new(count));
        round_trip(R::ScheduleWithNativeGPU, None, ScheduleWithNativeGpu::new(count));
        round_trip(R::GPUDeviceAllocated, None, GpuDeviceAllocated::new(&ids));
        round_trip(R::GPUDeviceAllocatedFailed, None, GpuDeviceAllocatedFailed::new(&ids));
        round_trip(R::PodIndexAllocationPending, None, PodIndexAllocationPending::new(count, &node));
        round_trip(R::CommitFailed, None, CommitFailed::new(&pod, &error));
        round_trip(R::ContainerGPUAllocationFailed, None, ContainerGpuAllocationFailed::new(&error));
        round_trip(R::GPUQuotaOrCapacityNotEnough, None, GpuQuotaOrCapacityNotEnough::new(&error));
        round_trip(R::PartitionTemplateMatchFailed, None, PartitionTemplateMatchFailed::new(&error));
        round_trip(R::GPUInterconnectTopologyUnsatisfied, None, GpuInterconnectTopologyUnsatisfied::new(tier));
    }

    #[test]
    fn typed_errors_round_trip_with_their_parts(
        namespace in name(),
        resource in prop::sample::select(vec![
            "single.max.tflops.limit", "single.max.vram.limit", "single.max.tflops.request",
            "single.max.vram.request", "single.max.gpuCount.limit", "total.max.tflops.limit",
            "total.max.vram.limit", "total.max.tflops.request", "total.max.vram.request",
            "total.max.workers.limit",
        ]),
        requested in quantity(),
        available in prop::option::of(quantity()),
        limit in quantity(),
        pool in name(),
        gpus in any::<u32>(),
        container in name(),
        tflops in quantity(),
        vram in quantity(),
    ) {
        let error = match &available {
            Some(available) => format!("quota exceeded in namespace {namespace} for {resource}: requested {requested}, available {available}, limit {limit}"),
            None => format!("quota exceeded in namespace {namespace} for {resource}: requested {requested}, limit {limit}"),
        };
        let value = GpuQuotaOrCapacityNotEnough::new(&error);
        let CapacityError::QuotaExceeded { namespace: ns, resource: res, requested: req, available: avail, limit: lim } = &value.cause else {
            panic!("{:?}", value.cause)
        };
        prop_assert_eq!((ns, res.as_str()), (&namespace, resource));
        prop_assert_eq!(&req.quantity, &requested);
        prop_assert_eq!(avail.as_ref().map(|q| &q.quantity), available.as_ref());
        prop_assert_eq!(&lim.quantity, &limit);
        prop_assert!(req.value.is_some());
        round_trip(R::GPUQuotaOrCapacityNotEnough, None, value);

        for (error, kind) in [
            (format!("no gpu devices in pool {pool}"), "noGpuDevicesInPool"),
            (format!("no gpus available or valid in pool {pool} after filtering"), "noGpusAfterFiltering"),
            (format!("apply filters: no node has at least {gpus} available GPUs"), "applyFilters"),
        ] {
            let value = GpuQuotaOrCapacityNotEnough::new(&error);
            let json = serde_json::to_value(&value).unwrap();
            prop_assert_eq!(&json["cause"]["kind"], kind);
            if kind == "applyFilters" {
                prop_assert_eq!(&json["cause"]["filter"]["gpus"], &json!(gpus));
            } else {
                prop_assert_eq!(&json["cause"]["pool"], &json!(pool));
            }
            round_trip(R::GPUQuotaOrCapacityNotEnough, None, value);
        }

        let value = ContainerGpuAllocationFailed::new(&format!("not enough GPUs: need {gpus} more for container {container}"));
        prop_assert_eq!(&value.cause, &ContainerAllocationError::NotEnoughGpus { more: gpus, container: container.clone() });
        round_trip(R::ContainerGPUAllocationFailed, None, value);

        let value = PartitionTemplateMatchFailed::new(&format!("no suitable partition template found for request: TFLOPs={tflops}, VRAM={vram}"));
        let PartitionMatchError::NoSuitableTemplate { tflops: t, vram: v } = &value.cause else {
            panic!("{:?}", value.cause)
        };
        prop_assert_eq!((&t.quantity, &v.quantity), (&tflops, &vram));
        round_trip(R::PartitionTemplateMatchFailed, None, value);
    }

    #[test]
    fn gang_values_round_trip(
        group in "[ -~]{0,30}",
        member in name(),
        ready in any::<u32>(),
        required in any::<u32>(),
    ) {
        round_trip(R::GangWaitingForMembers, None, GangWaitingInGroup::new(&group));
        round_trip(R::GangManagerWaitingForMembers, None, GangMembersWaiting::new(ready, required));
        round_trip(R::GangScheduled, None, GangMembersReady::new(&group));
        round_trip(R::GangManagerScheduled, None, PodGroupScheduled::new(&group, ready));
        round_trip(R::GangSchedulingTimeout, None, GangTimeout::new(&group));
        round_trip(R::GangManagerSchedulingTimeout, None, PodGroupTimedOut::new(&group, ready, required));
        round_trip(R::GangStrictRejected, None, GangStrictRejected::new(&group, &member));
        let key = PodGroupKey::new(&group);
        prop_assert_eq!(&key.key, &group);
        let parts = [&key.namespace, &key.workload, &key.pod_group, &key.replica_key];
        if let Some(namespace) = &key.namespace {
            let joined: Vec<&str> = parts.iter().filter_map(|p| p.as_deref()).collect();
            prop_assert_eq!(joined.join("/"), group.clone());
            prop_assert!(!namespace.is_empty());
        }
    }

    #[test]
    fn pod_group_keys_split(namespace in name(), workload in name(), group in name(), replica in name()) {
        let key = PodGroupKey::new(&format!("{namespace}/{workload}/{group}/{replica}"));
        prop_assert_eq!(key.namespace, Some(namespace));
        prop_assert_eq!(key.workload, Some(workload));
        prop_assert_eq!(key.pod_group, Some(group));
        prop_assert_eq!(key.replica_key, Some(replica));
    }

    #[test]
    fn expansion_values_round_trip(
        outcome in prop::sample::select(ExpansionOutcome::ALL.to_vec()),
        v1 in any::<bool>(),
        error in prop::option::of(text()),
        with_action in any::<bool>(),
        claim in name(),
        gpu_node_claim in any::<bool>(),
    ) {
        let wording = if v1 { NoteWording::V1 } else { NoteWording::Main };
        let action = with_action.then(|| outcome.action());
        let value = NodeExpansionCheck::new(outcome, error.as_deref(), wording);
        prop_assert_eq!(value.outcome, outcome);
        round_trip(R::NodeExpansionCheck, action, value);
        let kind = if gpu_node_claim { ClaimKind::GpuNodeClaim } else { ClaimKind::NodeClaim };
        round_trip(R::NodeExpansionCompleted, None, NodeExpansionCompleted::new(kind, &claim));
        for failure in [ExpansionFailure::NoFittingNodeType, ExpansionFailure::CreateGpuNodeClaim, ExpansionFailure::CreateNodeClaim] {
            round_trip(R::NodeExpansionFailed, None, NodeExpansionFailed::new(failure, error.as_deref()));
        }
        round_trip(R::NodeExpansionCandidateFailed, None, NodeExpansionCandidateFailed::new(&claim));
    }

    #[test]
    fn pool_values_round_trip(
        instance in name(),
        ip in prop::option::of("[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}"),
        node in name(),
        quantities in prop::collection::vec(
            (any::<i64>(), -20i32..20, prop::option::of(quantity()), prop::sample::select(vec!["DecimalSI", "BinarySI", "DecimalExponent", ""])),
            1..=4,
        ),
        opaque in text(),
    ) {
        let ip = ip.unwrap_or_default();
        round_trip(R::ManagedNodeCreated, None, NodeCreated::new(&instance, &ip));
        round_trip(R::GPUNodeCreated, None, NodeCreated::new(&instance, &ip));
        round_trip(R::Compaction, None, Compaction::new(&node));

        let dump = format!(
            "&{{{}}}",
            quantities
                .iter()
                .map(|(v, s, cached, f)| format!("{{{{{v} {s}}} {{<nil>}} {} {f}}}", cached.as_deref().unwrap_or("")))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let value = MaxResourceConstraintReached::new(&dump);
        let max = value.max_resources.clone().unwrap();
        let decoded = [&max.tflops, &max.vram, &max.cpu, &max.memory];
        for (i, (v, s, cached, f)) in quantities.iter().enumerate() {
            let q = decoded[i].as_ref().unwrap();
            prop_assert_eq!((q.unscaled, q.scale), (*v, *s));
            prop_assert_eq!(q.cached.as_ref(), cached.as_ref());
            prop_assert_eq!(q.format.as_str(), *f);
            let want = *v as f64 * 10f64.powi(*s);
            prop_assert_eq!(q.value, want.is_finite().then_some(want));
        }
        prop_assert!(decoded[quantities.len()..].iter().all(|q| q.is_none()));
        round_trip(R::MaxResourceConstraintReached, None, value);
        round_trip(R::MaxResourceConstraintReached, None, MaxResourceConstraintReached::new(&opaque));
    }

    #[test]
    fn defrag_values_round_trip(
        seconds in 0i64..4_000_000_000,
        counters in prop::array::uniform8(any::<u32>()),
        deadline in any::<bool>(),
        namespace in name(),
        pod in name(),
        node in name(),
        pdb in name(),
        allowed in 0i32..100,
        error in text(),
        started in text(),
    ) {
        let time = chrono::DateTime::from_timestamp(seconds, 0).unwrap();
        let stamp = time.format("%Y-%m-%dT%H:%M:%SZ").to_string();
        let value = DefragStarted::new(&stamp);
        prop_assert_eq!(value.time, Some(time));
        round_trip(R::DefragStarted, None, value);
        round_trip(R::DefragStarted, None, DefragStarted::new(&started));
        let value = DefragFinished::new(counters, deadline);
        prop_assert_eq!(value.counters(), counters);
        round_trip(R::DefragFinished, None, value);
        round_trip(R::DefragPodEvicted, None, DefragPodEvicted::new(&namespace, &pod, &node));
        round_trip(R::DefragSkipMissingPDB, None, DefragSkipMissingPdb::new(&node, &namespace, &pod));

        let reason = format!("pod {namespace}/{pod} is blocked by PDB {namespace}/{pdb}: disruptionsAllowed={allowed}");
        let value = DefragSkipPdbBlocked::new(&node, &reason);
        let block = value.block.clone().unwrap();
        prop_assert_eq!((&block.pod, &block.pdb, block.disruptions_allowed), (&pod, &pdb, allowed));
        round_trip(R::DefragSkipPDBBlocked, None, value);
        round_trip(R::DefragSkipPDBBlocked, None, DefragSkipPdbBlocked::new(&node, &error));

        for form in [EvictFailureForm::MarkSource, EvictFailureForm::MarkLabel, EvictFailureForm::Evict] {
            round_trip(R::DefragPodEvictFailed, None, DefragPodEvictFailed::with_pod(form, &namespace, &pod, &node, &error));
        }
        round_trip(R::DefragNodeEvictSkip, None, DefragNodeEvictSkip::new(&node, &error));
        for form in [AbortForm::SimulationError, AbortForm::PreflightFailed, AbortForm::EvictionAborted] {
            round_trip(R::DefragAbortNode, None, DefragAbortNode::new(form, &node, Some(&error)));
        }
        round_trip(R::DefragConfigInvalid, None, DefragConfigInvalid::new(&error));
    }

    #[test]
    fn placement_summaries_decode_their_parts(
        node in name(),
        namespace in name(),
        pod in name(),
        feasible in any::<u32>(),
        targets in any::<u32>(),
        rejects in prop::collection::vec((name(), prop::sample::select(vec![
            "not-in-budget", "max-worker-per-node", "monotonicity", "virtual-node-resource",
            "scheduler-filter", "allocator-filter", "allocator-select", "scheduler-infeasible",
        ]), "[ -~&&[^,:]]{0,30}(\\([a-z ]{0,10}\\))?[a-z ,]{0,10}"), 1..=4),
        budget in prop::collection::vec((name(), any::<u32>(), any::<u32>(), any::<u32>(), any::<u32>()), 0..=4),
        excluded in prop::collection::vec((name(), prop::sample::select(vec![
            "not in scheduler snapshot".to_owned(), "nil node in scheduler snapshot".to_owned(),
            "deletion-marked".to_owned(), "defrag-source-marked".to_owned(),
            "no pool GPUs (label mismatch)".to_owned(), "empty node (t=4,u=0,f=4,d=0)".to_owned(),
        ])), 0..=4),
    ) {
        // Reasons must not themselves contain what starts the next part or entry.
        prop_assume!(rejects.iter().all(|(_, _, r)| !r.contains(" budget=") && !r.contains(" excluded=")));
        let mut summary = format!("pod={namespace}/{pod} feasible={feasible} budgetTargets={targets} topRejects=");
        summary += &rejects.iter().map(|(t, s, r)| format!("{t}:{s}({r})")).collect::<Vec<_>>().join(",");
        if !budget.is_empty() {
            summary += " budget=";
            summary += &budget.iter().map(|(n, t, u, f, d)| format!("{n}(t={t},u={u},f={f},d={d})")).collect::<Vec<_>>().join(",");
        }
        if !excluded.is_empty() {
            summary += " excluded=";
            summary += &excluded.iter().map(|(n, why)| format!("{n}({why})")).collect::<Vec<_>>().join(",");
        }
        let value = DefragSkipUnschedulable::new(&node, &summary);
        let p = &value.placement;
        prop_assert_eq!(p.form, SummaryForm::Placement);
        prop_assert_eq!((p.pod_namespace.as_ref(), p.pod.as_ref()), (Some(&namespace), Some(&pod)));
        prop_assert_eq!((p.feasible, p.budget_targets), (Some(feasible), Some(targets)));
        let got: Vec<(String, String, String)> = p.top_rejects.iter().map(|r| (r.target.clone(), r.stage.clone(), r.reason.clone())).collect();
        let want: Vec<(String, String, String)> = rejects.iter().map(|(t, s, r)| (t.clone(), (*s).to_owned(), r.clone())).collect();
        prop_assert_eq!(got, want);
        let got: Vec<_> = p.budget.iter().map(|b| (b.node.clone(), b.t, b.u, b.f, b.d)).collect();
        prop_assert_eq!(got, budget);
        let got: Vec<_> = p.excluded.iter().map(|e| (e.node.clone(), e.why.clone())).collect();
        prop_assert_eq!(got, excluded);
        prop_assert!(!p.truncated);
        round_trip(R::DefragSkipUnschedulable, None, value);

        // Cut at 900 characters with `...`: flagged, still rendered back.
        let cut: String = summary.chars().take(60).collect::<String>() + "...";
        let value = DefragSkipUnschedulable::new(&node, &cut);
        prop_assert!(value.placement.truncated);
        round_trip(R::DefragSkipUnschedulable, None, value);
    }

    #[test]
    fn node_and_connection_values_round_trip(
        pod in name(),
        container in name(),
        restarts in i32_count(),
        threshold in i32_count(),
        direction_up in any::<bool>(),
        q in prop::array::uniform4(quantity()),
        ip in "([0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3})?",
        port in any::<u16>(),
        resource_version in "[0-9]{1,9}",
        error in text(),
    ) {
        round_trip(R::HypervisorCrashLoopRecreate, None, HypervisorCrashLoopRecreate::new(&pod, &container, restarts, threshold));
        round_trip(R::DriverProbeFailed, None, DriverProbeFailed::new(restarts));
        let (reason, direction) = if direction_up {
            (R::ResourceScaledUp, ScaleDirection::Up)
        } else {
            (R::ResourceScaledDown, ScaleDirection::Down)
        };
        let value = ResourceScaled::new(direction, &q[0], &q[1], &q[2], &q[3]);
        prop_assert!(value.vram_to.value.is_some());
        round_trip(reason, None, value);
        round_trip(R::WorkerSelected, None, WorkerSelected::new(&pod));
        round_trip(R::WorkerSelectionFailed, None, WorkerSelectionFailed::new(&error));
        let url = format!("native+{ip}+{port}+{pod}-{resource_version}");
        let value = ConnectionReady::new(&url);
        let parts = value.parts.clone().unwrap();
        prop_assert_eq!((&parts.ip, parts.port, &parts.worker_pod, &parts.resource_version), (&ip, port, &pod, &resource_version));
        round_trip(R::ConnectionReady, None, value);
        round_trip(R::ConnectionReady, None, ConnectionReady::new(&error));
    }

    #[test]
    fn retired_values_round_trip(
        node in name(),
        quoted in "\\PC{0,20}",
        error in text(),
        alerts in prop::collection::vec((prop::sample::select(vec!["Requests TFlops", "Requests VRAM", "Workers"]), 0i64..1000, 0i64..100), 1..4),
        prefixed in any::<bool>(),
        failed in any::<u32>(),
        short_wording in any::<bool>(),
        extra in prop::option::of(name()),
    ) {
        for form in [OrphanForm::NotFound, OrphanForm::WithoutInstanceId] {
            round_trip(R::OrphanedNode, None, OrphanedNode::new(form, &node));
        }
        round_trip(R::NodeProvisionerNotFound, None, NodeProvisionerNotFound::new(Some(&quoted), &quoted));
        round_trip(R::NodeProvisionerNotFound, None, NodeProvisionerNotFound::new(None, &node));
        round_trip(R::NodeNotFound, None, NodeNotFound::new(extra.as_deref()));
        round_trip(R::CloudVendorParamEmpty, None, CloudVendorParamEmpty::new(&node));
        round_trip(R::SelectingWorker, None, SelectingWorker::new(&node));
        round_trip(R::ScheduleGPUFailed, None, ScheduleGpuFailed::new(&error));

        let items = alerts
            .iter()
            .map(|(r, u, t)| format!("{r} usage ({u}%) has reached alert threshold ({t}%)"))
            .collect::<Vec<_>>()
            .join(", ");
        let items = if prefixed { format!(" {items}") } else { items };
        let value = AlertThresholdReached::new(prefixed, &items);
        let got: Vec<_> = value.alerts.iter().map(|a| (a.resource.clone(), a.usage_percent, a.threshold_percent)).collect();
        let want: Vec<_> = alerts.iter().map(|(r, u, t)| ((*r).to_owned(), *u, *t)).collect();
        prop_assert_eq!(got, want);
        round_trip(R::AlertThresholdReached, None, value);
        round_trip(R::AlertThresholdReached, None, AlertThresholdReached::new(true, &error));

        let wording = if short_wording { FailedWorkersWording::Workers } else { FailedWorkersWording::WorkersNum };
        round_trip(R::WorkerFailed, None, WorkerFailed::new(failed, wording));
        round_trip(R::CheckComponentStatusError, None, RawError::new(&error));
        round_trip(R::UpdateClusterStatusError, None, RawError::new(&error));
    }

    /// Parsing never panics, whatever the note and action.
    #[test]
    fn grammars_never_panic(note in "\\PC{0,120}|[a-zA-Z0-9 ,:;=/()%{}&<>.+\\-]{0,200}", action in prop::option::of("[A-Za-z]{0,20}")) {
        for reason in tf_rows() {
            if let Some(grammar) = Reason::TensorFusion(reason).info().grammar {
                let details = grammar.parse(&Note::new(&note).with_action(action.as_deref()));
                if let Some(rendered) = details.render() {
                    prop_assert_eq!(rendered, note.clone(), "{:?}", reason);
                }
            }
        }
    }
}

/// A reporter that neither gang row lists (a user's own controller) leaves the choice to the
/// note's form; a reporter a row lists keeps deciding.
#[test]
fn note_form_decides_the_gang_row_when_the_reporter_does_not() {
    use gpu_events_core::decode::Decoder;
    let event = |controller: &str, note: &str| {
        let json = json!({"apiVersion": "events.k8s.io/v1", "kind": "Event", "reason": "GangWaitingForMembers",
            "type": "Normal", "action": "Waiting", "reportingController": controller, "reportingInstance": "i",
            "regarding": {"kind": "Pod", "namespace": "ml", "name": "p"}, "note": note,
            "eventTime": "2026-11-30T05:40:03.002000Z"});
        Decoder::from_str(&json.to_string()).next().unwrap().unwrap()
    };
    let manager = Reason::TensorFusion(R::GangManagerWaitingForMembers);
    let plugin = Reason::TensorFusion(R::GangWaitingForMembers);
    let mine = event("tensor-fusion.ai/recorder", "Waiting for gang members: 2/4 ready");
    assert_eq!(mine.reason.reason(), Some(manager));
    let mine = event("tensor-fusion.ai/recorder", "Waiting for other members in group ml/a");
    assert_eq!(mine.reason.reason(), Some(plugin));
    // The plugin's reporter with the manager's note: the reporter decides, the note still parses.
    let theirs = event("tensor-fusion-scheduler", "Waiting for gang members: 2/4 ready");
    assert_eq!(theirs.reason.reason(), Some(plugin));
    assert_eq!(theirs.details.unwrap().kind(), "gangMembersWaiting");
}
