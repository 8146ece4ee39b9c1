//! [`Reporting`]: who records (`reportingController`, `reportingInstance`), from a name or from kube's
//! `Reporter`.

/// Who records: `reportingController` and, when given, `reportingInstance`.
///
/// [`Recorder::builder`](crate::Recorder::builder) and [`FakeRecorder::new`](crate::FakeRecorder::new) take
/// anything that converts into it: the controller's name (`"tensor-fusion.ai/my-controller"`), or, with the
/// default feature `kube-runtime`, the `kube::runtime::events::Reporter` a controller already has for kube's
/// own recorder:
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// use gpu_events_recorder::FakeRecorder;
/// use kube::runtime::events::Reporter;
///
/// let reporter = Reporter { controller: "tensor-fusion.ai/my-controller".into(), instance: Some("op-0".into()) };
/// let fake = FakeRecorder::new(reporter).unwrap(); // Recorder::builder(client, reporter) alike
/// assert_eq!(fake.recorder().reporting_controller(), "tensor-fusion.ai/my-controller");
/// assert_eq!(fake.recorder().reporting_instance(), "op-0");
/// # }
/// ```
///
/// Without an instance (a name alone, or a `Reporter` whose `instance` is `None`) the recorder uses
/// `POD_NAME`, else `HOSTNAME`, else the controller's name part; [`RecorderBuilder::instance`](crate::RecorderBuilder::instance)
/// overrides both. (kube's `Reporter::from(&str)` fills `instance` with the host name itself.)
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reporting {
    /// `reportingController`: a qualified name such as `tensor-fusion.ai/my-controller` (checked by
    /// [`RecorderBuilder::build`](crate::RecorderBuilder::build)).
    pub controller: String,
    /// `reportingInstance`, when given (the Pod name is usual).
    pub instance: Option<String>,
}

impl From<String> for Reporting {
    fn from(controller: String) -> Self {
        Reporting { controller, instance: None }
    }
}

impl From<&str> for Reporting {
    fn from(controller: &str) -> Self {
        Reporting::from(controller.to_owned())
    }
}

impl From<&String> for Reporting {
    fn from(controller: &String) -> Self {
        Reporting::from(controller.clone())
    }
}

#[cfg(feature = "kube-runtime")]
impl From<kube::runtime::events::Reporter> for Reporting {
    fn from(reporter: kube::runtime::events::Reporter) -> Self {
        Reporting { controller: reporter.controller, instance: reporter.instance }
    }
}

#[cfg(feature = "kube-runtime")]
impl From<&kube::runtime::events::Reporter> for Reporting {
    fn from(reporter: &kube::runtime::events::Reporter) -> Self {
        Reporting::from(reporter.clone())
    }
}

#[cfg(feature = "kube-runtime")]
impl From<Reporting> for kube::runtime::events::Reporter {
    /// The same reporter for kube's own recorder (`instance` as given, `None` stays `None`).
    fn from(reporting: Reporting) -> Self {
        kube::runtime::events::Reporter { controller: reporting.controller, instance: reporting.instance }
    }
}
