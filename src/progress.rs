//! How long-running library work reports progress and warnings without printing:
//! the library calls a [`Progress`]; the command-line layer draws it (indicatif) or
//! discards it.

/// Receives progress and warnings from library code. Implementations must be cheap
/// to call from hot-ish loops (call `inc` in batches) and usable from rayon workers.
pub trait Progress: Sync {
    /// A new phase starts; `total` is its size in steps when known.
    fn start(&self, _what: &str, _total: Option<u64>) {}
    /// `n` more steps of the current phase are done.
    fn inc(&self, _n: u64) {}
    /// The current phase is over.
    fn finish(&self) {}
    /// Something the user should know that is not an error (a rebuilt table, say).
    fn warn(&self, _message: &str) {}
}

/// A [`Progress`] that ignores everything; for tests, benches and library users who do
/// not care.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {}
