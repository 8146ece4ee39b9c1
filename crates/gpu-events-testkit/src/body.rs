//! Response bodies: a whole JSON document, or a watch stream of newline-delimited events.

use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::body::{Body, Frame, SizeHint};
use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::time::Sleep;

use crate::resource::ResourceType;
use crate::selector::{FieldSelector, LabelSelector};
use crate::store::{Change, ChangeKind, WatchMsg, render, set_meta};

pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Which objects a watch (or list) sees, and how it renders them.
pub(crate) struct Filter {
    pub rt: ResourceType,
    pub namespace: Option<String>,
    pub fields: FieldSelector,
    pub labels: LabelSelector,
}

impl Filter {
    pub fn matches(&self, namespace: &str, stored: &Value) -> bool {
        self.namespace.as_deref().is_none_or(|ns| ns == namespace)
            && self.fields.matches(&self.rt, stored)
            && (self.labels.is_empty() || self.labels.matches(stored))
    }

    pub fn line(&self, kind: &str, stored: &Value) -> Bytes {
        let event = json!({"type": kind, "object": render(&self.rt, stored, true)});
        let mut line = serde_json::to_vec(&event).unwrap_or_default();
        line.push(b'\n');
        Bytes::from(line)
    }

    /// The watch event a change gives this watch: an object that starts or stops matching is ADDED or DELETED.
    pub fn change_line(&self, c: &Change) -> Option<Bytes> {
        let ns = c.key.1.as_str();
        let cur = c.kind != ChangeKind::Deleted && self.matches(ns, &c.object);
        let prev = c.prev.as_deref().is_some_and(|p| self.matches(ns, p));
        match (c.kind, prev, cur) {
            (ChangeKind::Deleted, true, _) => Some(self.line("DELETED", &c.object)),
            (ChangeKind::Deleted, false, _) => None,
            (_, true, true) => Some(self.line("MODIFIED", &c.object)),
            (_, false, true) => Some(self.line("ADDED", &c.object)),
            (_, true, false) => {
                let mut gone = (**c.prev.as_ref()?).clone();
                set_meta(&mut gone, "resourceVersion", json!(c.rv.to_string()));
                Some(self.line("DELETED", &gone))
            }
            (_, false, false) => None,
        }
    }

    pub fn bookmark(&self, rv: u64, initial_events_end: bool) -> Bytes {
        let mut metadata = json!({"resourceVersion": rv.to_string()});
        if initial_events_end {
            metadata["annotations"] = json!({"k8s.io/initial-events-end": "true"});
        }
        let event = json!({"type": "BOOKMARK", "object": {
            "kind": self.rt.kind, "apiVersion": self.rt.api_version(), "metadata": metadata}});
        let mut line = serde_json::to_vec(&event).unwrap_or_default();
        line.push(b'\n');
        Bytes::from(line)
    }
}

/// An open watch: queued lines first, then changes as they are committed.
pub(crate) struct WatchBody {
    pub pending: VecDeque<Bytes>,
    pub rx: Option<UnboundedReceiver<WatchMsg>>,
    pub filter: Filter,
    pub deadline: Option<Pin<Box<Sleep>>>,
}

#[derive(Debug, thiserror::Error)]
#[error("watch connection dropped by the test server")]
struct WatchAborted;

impl WatchBody {
    fn poll(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        if let Some(b) = self.pending.pop_front() {
            return Poll::Ready(Some(Ok(Frame::data(b))));
        }
        if let Some(d) = &mut self.deadline
            && d.as_mut().poll(cx).is_ready()
        {
            self.rx = None;
        }
        let Some(rx) = &mut self.rx else {
            return Poll::Ready(None);
        };
        loop {
            match rx.poll_recv(cx) {
                Poll::Ready(Some(WatchMsg::Change(c))) => {
                    if let Some(line) = self.filter.change_line(&c) {
                        return Poll::Ready(Some(Ok(Frame::data(line))));
                    }
                }
                Poll::Ready(Some(WatchMsg::Bookmark(rv))) => {
                    return Poll::Ready(Some(Ok(Frame::data(self.filter.bookmark(rv, false)))));
                }
                Poll::Ready(Some(WatchMsg::Abort)) => {
                    self.rx = None;
                    return Poll::Ready(Some(Err(Box::new(WatchAborted))));
                }
                Poll::Ready(Some(WatchMsg::Close) | None) => {
                    self.rx = None;
                    return Poll::Ready(None);
                }
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

/// The body of every response.
pub(crate) enum ResBody {
    Full(Option<Bytes>),
    Watch(Box<WatchBody>),
}

impl ResBody {
    pub fn json(v: &Value) -> Self {
        ResBody::Full(Some(Bytes::from(serde_json::to_vec(v).unwrap_or_default())))
    }

    pub fn empty() -> Self {
        ResBody::Full(None)
    }
}

impl Body for ResBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match self.get_mut() {
            ResBody::Full(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
            ResBody::Watch(w) => w.poll(cx),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self, ResBody::Full(None))
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            ResBody::Full(Some(b)) => SizeHint::with_exact(b.len() as u64),
            ResBody::Full(None) => SizeHint::with_exact(0),
            ResBody::Watch(_) => SizeHint::default(),
        }
    }
}
