//! The table flags `solve` and `stats` share (`--memory`, `--tables`, `--no-cache`),
//! defined once so that their names, value names and help text cannot drift apart.
//! `god` keeps its own `--memory`: it takes any size (no 16M floor) and has no table
//! cache to point at.

use ksolve::memory::{default_budget, parse_budget};
use ksolve::progress::Progress;
use ksolve::puzzle::Puzzle;
use ksolve::storage::cache::TableCache;
use ksolve::storage::file::cache_dir;
use std::path::{Path, PathBuf};

/// Where tables are kept and how much memory they may take.
#[derive(clap::Args, Debug)]
pub struct TableArgs {
    /// Memory budget for move and pruning tables, such as 512M or 8G (default: a quarter
    /// of RAM). At least 16M: below that even small puzzles' tables do not fit and
    /// solving runs tens of times slower. A puzzle whose move tables need more is refused
    /// with the budget it needs. The budget covers the tables the process holds (move,
    /// pruning and symmetry tables, loaded or built), which is nearly all of its peak
    /// resident memory; the operating system's file cache of table files is not counted.
    #[arg(long, value_name = "SIZE", value_parser = parse_budget)]
    pub memory: Option<u64>,
    /// Folder for cached tables (default: ./tables when it exists, else the user's
    /// cache folder).
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Build tables in memory only; read and write no table files.
    #[arg(long)]
    pub no_cache: bool,
}

impl TableArgs {
    /// The memory budget: `--memory`, else a quarter of RAM.
    pub fn budget(&self) -> u64 {
        self.memory.unwrap_or_else(default_budget)
    }

    /// The table cache for the definition at `def` (contents `bytes`): in the folder
    /// `--tables` names (or the default one), or in memory with `--no-cache`.
    pub fn cache(
        &self,
        def: &Path,
        puzzle: &Puzzle,
        bytes: &[u8],
        progress: &dyn Progress,
    ) -> TableCache {
        let dir = (!self.no_cache).then(|| cache_dir(self.tables.as_deref()));
        TableCache::open(
            dir,
            def,
            puzzle.name.as_deref().unwrap_or(""),
            bytes,
            progress,
        )
    }
}
