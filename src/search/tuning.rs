//! [`Tuning`]: switches for tests that check the search itself, kept out of
//! [`super::SolveOptions`] (what a caller asks of a search) because no caller but a
//! test has a reason to set them, and the command line never does.
//!
//! ```
//! use ksolve::search::{Solver, Tuning};
//! # fn f(solver: &mut Solver) {
//! // Sample every node's children, so that a small search adapts its bound checks.
//! solver.tune(Tuning {
//!     check_sampling: Some((1, 64)),
//!     ..Tuning::default()
//! });
//! # }
//! ```

/// How a [`super::Solver`] departs from its defaults, for tests; [`Tuning::default`] is
/// what every front end uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tuning {
    /// Search guarded puzzles without their exact distance table (pruning tables only),
    /// so that the search itself is checked against brute force.
    pub no_exact_table: bool,
    /// How the bound checks are sampled: one node in how many, and how many sampled
    /// children change the plan (default: [`super::SAMPLE_EVERY`],
    /// [`super::MIN_SAMPLES`]); small searches adapt only with denser samples.
    pub check_sampling: Option<(u64, u64)>,
    /// The most (position, counters) pairs the search may visit to settle what move
    /// limits do (default [`super::limits::SETTLE_PAIRS`]); 0 forces the bounded search
    /// on small puzzles.
    pub settle_pairs: Option<u128>,
    /// Every search whose reduced table is not built yet tries first without it, with
    /// this budget of nodes (by default only tables of
    /// [`crate::table::sym::cached::DEFER_FROM`] entries or more wait, with a budget of
    /// what building them costs): small puzzles then take both paths, the trial that
    /// solves (a large budget) and the trial that gives up (0).
    pub trial_nodes: Option<u64>,
    /// Plan the reduced table at two bits per entry even where four fit
    /// ([`crate::table::prune::Format::Crumbs`]), so that small puzzles search with one.
    pub two_bit_tables: bool,
    /// Search without the tight-bound rule ([`super::tight`]), so that tests can check
    /// that the rule cuts nodes and changes no solution.
    pub no_tight: bool,
}
