//! The benchmarks' package: criterion benchmarks of ksolve in `gods.rs` (breadth-first
//! throughput of the God's-algorithm searches) and `solve.rs` (the search's hot paths and
//! whole solves), run with `cargo bench -p ksolve-benches`. It is a package of its own so
//! that the main package's `cargo test` never builds criterion.
//!
//! The library holds the puzzles built in code that `gods.rs` measures: the same ones
//! the God's-algorithm tests check against published counts.

#[path = "../tests/gods_fixtures/mod.rs"]
pub mod gods_fixtures;
