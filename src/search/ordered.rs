//! Ordered, bounded delivery of solutions found by parallel workers.
//!
//! The top of the search tree is cut into prefixes, numbered in ksolve+'s order; threads
//! claim them in that order and search them at the same time. Solutions must still come
//! out in prefix order, and as soon as possible, without holding every solution of a
//! large `Slack` in memory. So:
//! - the *head* is the lowest prefix not yet finished; its worker hands each solution
//!   to the sink at once;
//! - any other worker keeps at most [`Buffering::per_worker`] solutions of its prefix,
//!   then waits until its prefix becomes the head;
//! - a finished prefix that is not the head leaves its solutions behind, unless that
//!   would hold more than [`Buffering::pending`] of them in all: then its worker waits
//!   to become the head instead.
//!
//! The head's worker never waits, and every prefix below a claimed one is claimed, so
//! the head always makes progress and no wait is endless. At most
//! `threads * per_worker + pending` solutions are held at any time.

use super::SearchError;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Condvar, Mutex, MutexGuard};

/// How many solutions may wait for their turn.
#[derive(Clone, Copy, Debug)]
pub struct Buffering {
    /// Solutions one worker keeps while its prefix is not the head.
    pub per_worker: usize,
    /// Solutions of finished prefixes waiting for the head, over all of them.
    pub pending: usize,
}

impl Default for Buffering {
    fn default() -> Self {
        Buffering {
            per_worker: 4096,
            pending: 1 << 16,
        }
    }
}

/// The sink solutions go to, in order: it may refuse one with an error, which stops
/// the search.
pub type Sink<'s> = dyn FnMut(&[u16]) -> Result<(), SearchError> + Send + 's;

struct Shared<'s> {
    head: usize,
    /// Finished prefixes above the head, with their solutions.
    done: BTreeMap<usize, Vec<Vec<u16>>>,
    /// Solutions held in `done`.
    pending: usize,
    /// The most solutions `done` ever held (for tests of the bound).
    peak: usize,
    emitted: usize,
    sink: &'s mut Sink<'s>,
    error: Option<SearchError>,
}

/// The meeting point of the workers of one search bound.
pub struct Emitter<'s> {
    shared: Mutex<Shared<'s>>,
    turn: Condvar,
    stop: AtomicBool,
    /// The lowest prefix whose own solutions reach the cap: later ones are not needed.
    first_full: AtomicUsize,
    cap: usize,
    pub buffering: Buffering,
}

impl<'s> Emitter<'s> {
    /// An emitter that passes at most `cap` solutions to `sink`.
    pub fn new(sink: &'s mut Sink<'s>, cap: usize, buffering: Buffering) -> Emitter<'s> {
        Emitter {
            shared: Mutex::new(Shared {
                head: 0,
                done: BTreeMap::new(),
                pending: 0,
                peak: 0,
                emitted: 0,
                sink,
                error: None,
            }),
            turn: Condvar::new(),
            stop: AtomicBool::new(cap == 0),
            first_full: AtomicUsize::new(usize::MAX),
            cap,
            buffering,
        }
    }

    /// Whether the worker of prefix `me` should give up: the cap is reached, the sink
    /// failed, or an earlier prefix alone fills the cap.
    #[inline]
    pub fn halted(&self, me: usize) -> bool {
        self.stop.load(Relaxed) || self.first_full.load(Relaxed) < me
    }

    /// Stops every worker (the search's deadline has passed).
    pub fn halt(&self) {
        self.stop.store(true, Relaxed);
        self.turn.notify_all();
    }

    /// The solutions still wanted.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Prefix `me` found `cap` solutions by itself.
    pub fn mark_full(&self, me: usize) {
        self.first_full.fetch_min(me, Relaxed);
        self.turn.notify_all();
    }

    fn lock(&self) -> MutexGuard<'_, Shared<'s>> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until `me` is the head (or the search halts); `false` when it halted.
    fn wait_turn<'g>(
        &self,
        mut g: MutexGuard<'g, Shared<'s>>,
        me: usize,
    ) -> (MutexGuard<'g, Shared<'s>>, bool) {
        while g.head != me {
            if self.halted(me) {
                return (g, false);
            }
            g = self.turn.wait(g).unwrap_or_else(|e| e.into_inner());
        }
        (g, true)
    }

    fn emit(&self, g: &mut Shared<'s>, sols: impl IntoIterator<Item = Vec<u16>>) {
        for s in sols {
            if g.emitted >= self.cap || g.error.is_some() {
                break;
            }
            if let Err(e) = (g.sink)(&s) {
                g.error = Some(e);
                self.stop.store(true, Relaxed);
                break;
            }
            g.emitted += 1;
        }
        if g.emitted >= self.cap {
            self.stop.store(true, Relaxed);
        }
    }

    /// Hands over the solutions the worker of prefix `me` holds, waiting for its turn
    /// when it is not the head. Returns whether `me` is now the head (so that later
    /// solutions go straight out).
    pub fn flush(&self, me: usize, buf: &mut Vec<Vec<u16>>) -> bool {
        let g = self.lock();
        let (mut g, ok) = self.wait_turn(g, me);
        if ok {
            self.emit(&mut g, buf.drain(..));
        } else {
            buf.clear();
        }
        let halted = self.halted(me);
        drop(g);
        if halted {
            self.turn.notify_all();
        }
        ok
    }

    /// Prefix `me` is finished with these solutions.
    pub fn finish(&self, me: usize, buf: Vec<Vec<u16>>) {
        let mut g = self.lock();
        if g.head != me {
            if g.pending + buf.len() <= self.buffering.pending {
                g.pending += buf.len();
                g.peak = g.peak.max(g.pending);
                g.done.insert(me, buf);
                return;
            }
            let (h, ok) = self.wait_turn(g, me);
            g = h;
            if !ok {
                return;
            }
        }
        self.emit(&mut g, buf);
        g.head = me + 1;
        while let Some(next) = {
            let head = g.head;
            g.done.remove(&head)
        } {
            g.pending -= next.len();
            self.emit(&mut g, next);
            g.head += 1;
        }
        drop(g);
        self.turn.notify_all();
    }

    /// The solutions passed to the sink, the most held at once by finished prefixes, and
    /// the sink's error, if any.
    pub fn into_result(self) -> (usize, usize, Option<SearchError>) {
        let g = self.shared.into_inner().unwrap_or_else(|e| e.into_inner());
        (g.emitted, g.peak, g.error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Workers that find `sols[i]` solutions in prefix `i`, prefix 0 slowly, follow the
    /// protocol the search uses; the sink must see every solution in prefix order, the
    /// first ones before prefix 0 is finished, and finished prefixes never hold more
    /// than the bound.
    #[test]
    fn order_is_kept_and_buffers_are_bounded() {
        let sols: Vec<usize> = (0..40).map(|i| (i * 7) % 11).collect();
        let buffering = Buffering {
            per_worker: 3,
            pending: 5,
        };
        let mut got: Vec<Vec<u16>> = Vec::new();
        let zero_done = AtomicBool::new(false);
        let mut early = 0;
        let mut sink = |s: &[u16]| {
            if s[0] == 0 && !zero_done.load(Relaxed) {
                early += 1;
            }
            got.push(s.to_vec());
            Ok(())
        };
        let e = Emitter::new(&mut sink, usize::MAX, buffering);
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Relaxed);
                    if i >= sols.len() {
                        break;
                    }
                    let mut buf = Vec::new();
                    let mut head = false;
                    for j in 0..sols[i] + (i == 0) as usize * 20 {
                        if i == 0 {
                            std::thread::sleep(Duration::from_millis(5));
                        }
                        buf.push(vec![i as u16, j as u16]);
                        if head || buf.len() >= buffering.per_worker {
                            head = e.flush(i, &mut buf);
                        }
                        assert!(buf.len() < buffering.per_worker);
                    }
                    if i == 0 {
                        zero_done.store(true, Relaxed);
                    }
                    e.finish(i, buf);
                });
            }
        });
        let (emitted, peak, error) = e.into_result();
        assert!(error.is_none());
        assert!(peak <= buffering.pending, "{peak}");
        let mut want = Vec::new();
        for (i, &n) in sols.iter().enumerate() {
            for j in 0..n + (i == 0) as usize * 20 {
                want.push(vec![i as u16, j as u16]);
            }
        }
        assert_eq!(emitted, want.len());
        assert_eq!(got, want);
        assert!(early > 0);
    }
}
