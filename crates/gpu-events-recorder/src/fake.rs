//! [`FakeRecorder`]: the real recorder over an in-memory API, for users' unit tests.

use std::sync::Arc;

use k8s_openapi::api::events::v1::Event;

use crate::backend::{FakeWrite, MemoryApi};
use crate::error::BuildError;
use crate::{Recorder, RecorderBuilder, Reporting};

/// A [`Recorder`] whose writes go to memory instead of an API server: the same validation,
/// keys, series and economy, so a test sees exactly what would be sent.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// use gpu_events_core::details::tensorfusion::GangMembersWaiting;
/// use gpu_events_recorder::FakeRecorder;
/// use k8s_openapi::api::core::v1::Pod;
/// use kube::api::ObjectMeta;
///
/// let fake = FakeRecorder::new("tensor-fusion.ai/test").unwrap();
/// let pod = Pod { metadata: ObjectMeta { name: Some("llama-0".into()), namespace: Some("ml".into()), ..Default::default() }, ..Default::default() };
/// for _ in 0..3 {
///     fake.recorder().publish(GangMembersWaiting::new(2, 4), &pod).unwrap();
/// }
/// fake.recorder().flush().await;
/// let events = fake.events();
/// assert_eq!(events.len(), 1);
/// assert_eq!(events[0].note.as_deref(), Some("Waiting for gang members: 2/4 ready"));
/// assert_eq!(events[0].series.as_ref().map(|s| s.count), Some(3));
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct FakeRecorder {
    recorder: Recorder,
    api: Arc<MemoryApi>,
}

impl FakeRecorder {
    /// A fake recorder reporting as `reporter` (a controller name, a [`Reporting`](crate::Reporting) or kube's
    /// `Reporter`), with the default settings.
    ///
    /// # Errors
    /// As [`RecorderBuilder::build`] (it needs a tokio runtime).
    pub fn new(reporter: impl Into<Reporting>) -> Result<Self, BuildError> {
        Self::with(reporter, |builder| builder)
    }

    /// A fake recorder with settings changed by `configure` (a clock, a spam filter, ...).
    ///
    /// # Errors
    /// As [`RecorderBuilder::build`].
    pub fn with(
        reporter: impl Into<Reporting>,
        configure: impl FnOnce(RecorderBuilder) -> RecorderBuilder,
    ) -> Result<Self, BuildError> {
        let api = Arc::new(MemoryApi::default());
        let recorder = configure(Recorder::memory_builder(api.clone(), reporter.into())).build()?;
        Ok(FakeRecorder { recorder, api })
    }

    /// The recorder to hand to the code under test.
    pub fn recorder(&self) -> &Recorder {
        &self.recorder
    }

    /// The events the fake API holds now, ordered by namespace and name.
    pub fn events(&self) -> Vec<Event> {
        self.api.events()
    }

    /// Every write received, in order.
    pub fn writes(&self) -> Vec<FakeWrite> {
        self.api.writes()
    }

    /// Deletes an event as the API server's TTL would; true if it existed.
    pub fn expire(&self, namespace: &str, name: &str) -> bool {
        self.api.expire(namespace, name)
    }
}
