//! Storage: every byte ksolve keeps on disk, and the rules for every file it touches.
//! The container format of every stored table ([`file`]: header, checksums, mapping),
//! the cache folder that keys tables by the definition's hash ([`cache`]), the
//! temporaries a file is written to before it is renamed into place ([`temp`]), what a
//! cache folder holds and removing it ([`inventory`]), and the safety rules for inputs
//! and outputs: only regular files, size caps, no blocking opens ([`fsutil`]).
//!
//! This room knows bytes, paths and hashes, not puzzles: it imports nothing of the
//! solver but the [`Progress`](crate::progress::Progress) reports and the memory
//! figures' wording ([`memory`](crate::memory)). The pruning tables (`table`), the
//! God's-algorithm files (`gods`), the shard files (`batch`) and the readers of
//! definitions and algorithms (`def`, `alg`, `play`) use it; nothing here reaches up
//! into them.

pub mod cache;
pub mod file;
pub mod fsutil;
pub mod inventory;
pub mod temp;
