//! Batch solving on a cluster scheduler: a scramble file split into shards that run as
//! independent processes (a Slurm array, a Kubernetes Indexed Job), each writing its
//! results to a file of its own, and the merge of those files back into what one
//! `ksolve solve` run prints.
//!
//! `select` decides which shard a process solves (from `--shard K/N` or the scheduler's
//! environment), `record` is the shard file's format, `writer` writes a shard file
//! atomically and `merge` reads a folder of them back in scramble-file order. Solving
//! and printing stay with the caller: the library only chooses, stores and checks.

pub mod merge;
pub mod record;
pub mod select;
pub mod writer;

pub use merge::{merge_dir, MergeError, Merged};
pub use record::{sha256_hex, Header, Record};
pub use select::{select, SelectError, Shard};
pub use writer::{ShardWriter, WriteError};
