//! OOM kills on the node: node-problem-detector `OOMKilling` (the kernel's `Killed process`
//! line; kubernetes/node-problem-detector config/kernel-monitor.json @6632ca67, kernel
//! mm/oom_kill.c) and kubelet `SystemOOM` (kubernetes/kubernetes pkg/kubelet/oom/oom_watcher_linux.go).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::after;
use crate::details::template::captures;

/// The kernel OOM killer killed a process (`OOMKilling`). The note is the kernel line:
/// `Killed process <pid> (<name>) total-vm:<n>kB, anon-rss:<n>kB, file-rss:<n>kB[, shmem-rss:<n>kB][, UID:<uid> pgtables:<n>kB oom_score_adj:<n>]`,
/// possibly after `Out of memory: ` or `Memory cgroup out of memory: `, and possibly followed by
/// NPD's `; <suffix>` or more log lines. The kernel's `kB` is KiB; sizes here are in bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct OomKill {
    /// The killed process ID.
    pub pid: u32,
    /// The process name (`comm`, at most 15 bytes in the kernel).
    pub process: String,
    /// Virtual memory size, in bytes.
    pub total_vm_bytes: u64,
    /// Resident anonymous memory, in bytes.
    pub anon_rss_bytes: u64,
    /// Resident file-backed memory, in bytes.
    pub file_rss_bytes: u64,
    /// Resident shared memory, in bytes (kernels ≥4.x).
    pub shmem_rss_bytes: Option<u64>,
    /// The process's UID (kernels ≥5.x).
    pub uid: Option<u32>,
    /// Page-table memory, in bytes (kernels ≥5.x).
    pub pgtables_bytes: Option<u64>,
    /// The process's `oom_score_adj` (kernels ≥5.x); Kubernetes sets it by QoS class.
    pub oom_score_adj: Option<i32>,
    /// Whether a memory cgroup's limit or the whole node ran out of memory, when the note says.
    pub scope: Option<OomScope>,
    /// The UID of the Pod whose memory cgroup the process was in, from the kernel's
    /// `task_memcg=` / `oom_memcg=` path (`/kubepods/burstable/pod<uid>/...` or the systemd
    /// `kubepods-burstable-pod<uid>.slice`), when the note has it.
    pub pod_uid: Option<String>,
}

/// What ran out of memory when the kernel killed a process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum OomScope {
    /// A memory cgroup hit its limit (`Memory cgroup out of memory: ...`,
    /// `constraint=CONSTRAINT_MEMCG`): for a container, its memory limit.
    MemoryCgroup,
    /// The node itself (`Out of memory: ...`, `constraint=CONSTRAINT_NONE`, or a cpuset or
    /// memory policy constraint).
    System,
}

impl OomScope {
    /// The scope named in a kernel OOM note.
    pub fn of(note: &str) -> Option<OomScope> {
        if note.contains("Memory cgroup out of memory") || note.contains("CONSTRAINT_MEMCG") {
            Some(OomScope::MemoryCgroup)
        } else if note.contains("Out of memory:")
            || ["CONSTRAINT_NONE", "CONSTRAINT_CPUSET", "CONSTRAINT_MEMORY_POLICY"].iter().any(|c| note.contains(c))
        {
            Some(OomScope::System)
        } else {
            None
        }
    }
}

/// The Pod UID in a kernel memcg path of the note: `pod` followed by a UUID (dashes, or the
/// underscores of systemd slice names).
fn pod_uid(note: &str) -> Option<String> {
    let path = after(note, "task_memcg=").or_else(|| after(note, "oom_memcg="))?;
    let path = path.split([',', ' ', '\n']).next()?;
    path.match_indices("pod").find_map(|(at, _)| {
        let uid = path.get(at + 3..at + 3 + 36)?;
        let shape = uid.char_indices().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == '-' || c == '_',
            _ => c.is_ascii_hexdigit(),
        });
        shape.then(|| uid.replace('_', "-"))
    })
}

impl OomKill {
    /// Parse the first `Killed process` line in the note.
    pub fn parse(note: &str) -> Option<Self> {
        let line = after(note, "Killed process ")?;
        let line = line.lines().next()?;
        let (pid, rest) = line.split_once(" (")?;
        let (process, fields) = rest.split_once(") total-vm:")?;
        let mut kill = OomKill {
            pid: pid.parse().ok()?,
            process: process.to_owned(),
            total_vm_bytes: 0,
            anon_rss_bytes: 0,
            file_rss_bytes: 0,
            shmem_rss_bytes: None,
            uid: None,
            pgtables_bytes: None,
            oom_score_adj: None,
            scope: OomScope::of(note),
            pod_uid: pod_uid(note),
        };
        let mut seen = [false; 3];
        let fields = std::iter::once(("total-vm", fields.split([',', ' ', ';']).next()?)).chain(
            fields.split([',', ' ']).skip(1).filter(|token| !token.is_empty()).map_while(|token| token.split_once(':')),
        );
        for (key, value) in fields {
            match key {
                "total-vm" => {
                    kill.total_vm_bytes = kib(value)?;
                    seen[0] = true;
                }
                "anon-rss" => {
                    kill.anon_rss_bytes = kib(value)?;
                    seen[1] = true;
                }
                "file-rss" => {
                    kill.file_rss_bytes = kib(value)?;
                    seen[2] = true;
                }
                "shmem-rss" => kill.shmem_rss_bytes = kib(value),
                "UID" => kill.uid = value.parse().ok(),
                "pgtables" => kill.pgtables_bytes = kib(value),
                "oom_score_adj" => {
                    let value = value.split(';').next().unwrap_or(value);
                    kill.oom_score_adj = value.parse().ok();
                }
                _ => {}
            }
        }
        (seen == [true; 3]).then_some(kill)
    }
}

/// `<n>kB` in bytes (the kernel's kB are KiB).
fn kib(value: &str) -> Option<u64> {
    let value = value.split(';').next().unwrap_or(value);
    value.strip_suffix("kB")?.parse::<u64>().ok()?.checked_mul(1024)
}

/// The kernel OOM killer killed a process, as the kubelet's OOM watcher reports it
/// (`SystemOOM`): `System OOM encountered, victim process: %s, pid: %d`, or the older
/// `System OOM encountered`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SystemOom {
    /// The victim process name (`None` in the older form).
    pub process: Option<String>,
    /// The victim process ID (`None` in the older form).
    pub pid: Option<u32>,
}

impl SystemOom {
    /// Parse either `SystemOOM` form.
    pub fn parse(note: &str) -> Option<Self> {
        if note.trim_end() == "System OOM encountered" {
            return Some(SystemOom { process: None, pid: None });
        }
        let [rest] = captures("System OOM encountered, victim process: %s", note)?;
        let (process, pid) = rest.rsplit_once(", pid: ")?;
        Some(SystemOom { process: Some(process.to_owned()), pid: Some(pid.trim_end().parse().ok()?) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_lines_of_every_age() {
        let newest = OomKill::parse(
            "Out of memory: Killed process 12345 (python) total-vm:26712340kB, anon-rss:15643924kB, file-rss:0kB, shmem-rss:4kB, UID:0 pgtables:31560kB oom_score_adj:-997",
        )
        .unwrap();
        assert_eq!((newest.pid, newest.process.as_str()), (12345, "python"));
        assert_eq!(newest.total_vm_bytes, 26712340 * 1024);
        assert_eq!(newest.anon_rss_bytes, 15643924 * 1024);
        assert_eq!(newest.file_rss_bytes, 0);
        assert_eq!(newest.shmem_rss_bytes, Some(4096));
        assert_eq!(newest.uid, Some(0));
        assert_eq!(newest.pgtables_bytes, Some(31560 * 1024));
        assert_eq!(newest.oom_score_adj, Some(-997));

        let four = OomKill::parse(
            "Killed process 4242 (pt_data_worker) total-vm:1000kB, anon-rss:500kB, file-rss:20kB, shmem-rss:0kB",
        )
        .unwrap();
        assert_eq!(four.process, "pt_data_worker");
        assert_eq!((four.shmem_rss_bytes, four.uid, four.oom_score_adj), (Some(0), None, None));

        let oldest = OomKill::parse(
            "Killed process 77 (java) total-vm:2048kB, anon-rss:1024kB, file-rss:0kB; suffix from the rule",
        )
        .unwrap();
        assert_eq!(oldest.file_rss_bytes, 0);
        assert_eq!(oldest.shmem_rss_bytes, None);

        let odd_name = OomKill::parse(
            "Memory cgroup out of memory: Killed process 9 (kworker/0:1 (x)) total-vm:1kB, anon-rss:1kB, file-rss:1kB\nnext line",
        )
        .unwrap();
        assert_eq!(odd_name.process, "kworker/0:1 (x)");
    }

    #[test]
    fn cgroup_or_system() {
        let cgroup = OomKill::parse(
            "Memory cgroup out of memory: Killed process 4242 (python3) total-vm:1000kB, anon-rss:500kB, file-rss:20kB, shmem-rss:0kB, UID:0 pgtables:8kB oom_score_adj:-997",
        )
        .unwrap();
        assert_eq!((cgroup.scope, cgroup.pod_uid), (Some(OomScope::MemoryCgroup), None));
        let system =
            OomKill::parse("Out of memory: Killed process 12345 (python) total-vm:1kB, anon-rss:1kB, file-rss:0kB")
                .unwrap();
        assert_eq!(system.scope, Some(OomScope::System));
        let bare = OomKill::parse("Killed process 1 (java) total-vm:1kB, anon-rss:1kB, file-rss:0kB").unwrap();
        assert_eq!(bare.scope, None);
        // Several kernel lines: the constraint line names the memcg of the Pod.
        let lines = OomKill::parse(
            "oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=abc,mems_allowed=0,oom_memcg=/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod5f0c2a10_aaaa_4b1e_8c3d_00000000a001.slice/cri-containerd-1f.scope,task_memcg=/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod5f0c2a10_aaaa_4b1e_8c3d_00000000a001.slice/cri-containerd-1f.scope,task=python,pid=7,uid=0\nMemory cgroup out of memory: Killed process 7 (python) total-vm:1kB, anon-rss:1kB, file-rss:0kB",
        )
        .unwrap();
        assert_eq!(lines.scope, Some(OomScope::MemoryCgroup));
        assert_eq!(lines.pod_uid.as_deref(), Some("5f0c2a10-aaaa-4b1e-8c3d-00000000a001"));
        let cgroupfs = pod_uid("task_memcg=/kubepods/besteffort/pod0b6f9c8e-1d2a-4c3b-9e8f-7a6b5c4d3e2f/9a8b,task=x");
        assert_eq!(cgroupfs.as_deref(), Some("0b6f9c8e-1d2a-4c3b-9e8f-7a6b5c4d3e2f"));
        assert_eq!(pod_uid("task_memcg=/system.slice/containerd.service,task=containerd"), None);
        assert_eq!(pod_uid("task_memcg=/kubepods/pod123"), None);
    }

    #[test]
    fn kernel_near_misses() {
        for bad in [
            "Killed process x (python) total-vm:1kB, anon-rss:1kB, file-rss:1kB",
            "Killed process 1 (python) total-vm:1kB, anon-rss:1kB",
            "Killed process 1 (python) total-vm:1MB, anon-rss:1kB, file-rss:1kB",
            "Killed process 1 python",
            "task python:1 blocked for more than 120 seconds.",
        ] {
            assert_eq!(OomKill::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn system_oom() {
        let s = SystemOom::parse("System OOM encountered, victim process: nvidia-smi, pid: 4567").unwrap();
        assert_eq!((s.process.as_deref(), s.pid), (Some("nvidia-smi"), Some(4567)));
        let old = SystemOom::parse("System OOM encountered").unwrap();
        assert_eq!((old.process, old.pid), (None, None));
        assert_eq!(SystemOom::parse("System OOM encountered, victim process: x"), None);
        assert_eq!(SystemOom::parse("System OOM encountered, victim process: x, pid: y"), None);
    }
}
