//! Timers and cancellation without an async runtime: `sleep` works on wasm32 (setTimeout)
//! and natively (a short-lived thread wakes the task), and [`race`] cuts a future off at a
//! timeout or a [`Cancel`].

use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use super::transport::LocalBoxFuture;

/// Waits `duration`, without blocking the thread.
pub fn sleep(duration: Duration) -> LocalBoxFuture<'static, ()> {
    #[cfg(target_arch = "wasm32")]
    {
        let ms = duration.as_millis().min(i32::MAX as u128) as i32;
        let mut timer = wasm_bindgen::JsValue::UNDEFINED;
        let promise = js_sys::Promise::new(&mut |resolve, _reject| {
            let global = js_sys::global();
            let set_timeout = js_sys::Reflect::get(&global, &"setTimeout".into())
                .ok()
                .and_then(|f| wasm_bindgen::JsCast::dyn_into::<js_sys::Function>(f).ok());
            match set_timeout {
                Some(f) => {
                    timer = f
                        .call2(&global, &resolve, &ms.into())
                        .unwrap_or(wasm_bindgen::JsValue::UNDEFINED);
                }
                None => {
                    let _ = resolve.call0(&wasm_bindgen::JsValue::UNDEFINED);
                }
            }
        });
        Box::pin(JsSleep {
            promise: wasm_bindgen_futures::JsFuture::from(promise),
            timer,
            fired: false,
        })
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        Box::pin(ThreadSleep {
            duration,
            state: None,
        })
    }
}

/// Shared between a sleeping task and its timer thread: (fired, waker to wake).
#[cfg(not(target_arch = "wasm32"))]
type SleepState = std::sync::Arc<std::sync::Mutex<(bool, Option<Waker>)>>;

/// A `setTimeout` as a future. Dropped before it fired (a race won by the response, a
/// cancel), it clears the timer: a pending timer would keep Node's event loop alive for
/// the whole timeout after the last call.
#[cfg(target_arch = "wasm32")]
struct JsSleep {
    promise: wasm_bindgen_futures::JsFuture,
    timer: wasm_bindgen::JsValue,
    fired: bool,
}

#[cfg(target_arch = "wasm32")]
impl Future for JsSleep {
    type Output = ();
    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        match std::pin::Pin::new(&mut self.promise).poll(cx) {
            Poll::Ready(_) => {
                self.fired = true;
                Poll::Ready(())
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

#[cfg(target_arch = "wasm32")]
impl Drop for JsSleep {
    fn drop(&mut self) {
        if self.fired || self.timer.is_undefined() {
            return;
        }
        let global = js_sys::global();
        if let Some(clear) = js_sys::Reflect::get(&global, &"clearTimeout".into())
            .ok()
            .and_then(|f| wasm_bindgen::JsCast::dyn_into::<js_sys::Function>(f).ok())
        {
            let _ = clear.call1(&global, &self.timer);
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
struct ThreadSleep {
    duration: Duration,
    state: Option<SleepState>,
}

#[cfg(not(target_arch = "wasm32"))]
impl Future for ThreadSleep {
    type Output = ();
    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        use std::sync::{Arc, Mutex};
        if self.duration.is_zero() {
            return Poll::Ready(());
        }
        match &self.state {
            None => {
                let state = Arc::new(Mutex::new((false, Some(cx.waker().clone()))));
                let s2 = state.clone();
                let d = self.duration;
                std::thread::spawn(move || {
                    std::thread::sleep(d);
                    let waker = {
                        let mut g = s2.lock().unwrap_or_else(|e| e.into_inner());
                        g.0 = true;
                        g.1.take()
                    };
                    if let Some(w) = waker {
                        w.wake();
                    }
                });
                self.state = Some(state);
                Poll::Pending
            }
            Some(state) => {
                let mut g = state.lock().unwrap_or_else(|e| e.into_inner());
                if g.0 {
                    Poll::Ready(())
                } else {
                    g.1 = Some(cx.waker().clone());
                    Poll::Pending
                }
            }
        }
    }
}

#[derive(Default)]
struct CancelState {
    cancelled: bool,
    wakers: Vec<Waker>,
    hooks: Vec<Box<dyn FnOnce()>>,
}

/// A cancellation token: clone it, hand it to a call, and `cancel()` it from anywhere on the
/// same thread (the JS package connects an `AbortSignal` to it).
#[derive(Clone, Default)]
pub struct Cancel(Rc<RefCell<CancelState>>);

impl std::fmt::Debug for Cancel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Cancel({})", self.is_cancelled())
    }
}

impl Cancel {
    /// A token that is not cancelled.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Cancels: pending races end with [`Race::Cancelled`], hooks run once.
    pub fn cancel(&self) {
        let (wakers, hooks) = {
            let mut s = self.0.borrow_mut();
            if s.cancelled {
                return;
            }
            s.cancelled = true;
            (std::mem::take(&mut s.wakers), std::mem::take(&mut s.hooks))
        };
        wakers.into_iter().for_each(Waker::wake);
        hooks.into_iter().for_each(|h| h());
    }

    /// True once cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.0.borrow().cancelled
    }

    /// Runs `callback` on cancel (at once if already cancelled).
    pub fn on_cancel(&self, callback: impl FnOnce() + 'static) {
        if self.is_cancelled() {
            callback();
        } else {
            self.0.borrow_mut().hooks.push(Box::new(callback));
        }
    }

    fn poll_cancelled(&self, cx: &mut Context<'_>) -> bool {
        let mut s = self.0.borrow_mut();
        if !s.cancelled && !s.wakers.iter().any(|w| w.will_wake(cx.waker())) {
            s.wakers.push(cx.waker().clone());
        }
        s.cancelled
    }
}

/// How a [`race`] ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Race<T> {
    /// The future finished first.
    Done(T),
    /// The timeout passed first.
    TimedOut,
    /// The token was cancelled first.
    Cancelled,
}

/// Runs `fut` until it finishes, `timeout` passes, or `cancel` fires. The loser is dropped.
pub async fn race<F: Future>(
    fut: F,
    timeout: Option<Duration>,
    cancel: Option<&Cancel>,
) -> Race<F::Output> {
    let mut fut = std::pin::pin!(fut);
    let mut timer = timeout.map(sleep);
    std::future::poll_fn(move |cx| {
        if let Some(c) = cancel {
            if c.poll_cancelled(cx) {
                return Poll::Ready(Race::Cancelled);
            }
        }
        if let Poll::Ready(v) = fut.as_mut().poll(cx) {
            return Poll::Ready(Race::Done(v));
        }
        if let Some(t) = timer.as_mut() {
            if t.as_mut().poll(cx).is_ready() {
                return Poll::Ready(Race::TimedOut);
            }
        }
        Poll::Pending
    })
    .await
}
