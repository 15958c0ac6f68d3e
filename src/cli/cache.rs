//! `ksolve tables list` and `ksolve tables clear [DEF]` (also spelt `cache`): what the
//! table cache folder holds (each table, the definition it was built for, its size, when
//! it was last used) and removing it, all of it or one definition's; `tables build` is
//! in [`super::build`].

use super::EXIT_OK;
use anyhow::Context;
use ksolve::memory::human;
use ksolve::storage::file::cache_dir;
use ksolve::storage::inventory::{self, CachedFile, Inventory, Selector};
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

/// Build, inspect or empty the table cache folder.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  ksolve tables build puzzles/3x3x3.def --memory 3G   build what solve would, ahead of time
  ksolve tables list                       every cached table and what it was built for
  ksolve tables clear puzzles/3x3x3.def    remove the tables of one definition")]
pub struct CacheArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Build (or load) every table `solve` would end up with under a budget, the plan
    /// printed first; later solves under the same budget load them instead of trying
    /// small tables first.
    Build(super::build::BuildArgs),
    /// List each cached table: the definition it was built for, its size and when it
    /// was last used, with totals.
    #[command(after_help = "Examples:
  ksolve tables list                  the default cache folder
  ksolve tables list --tables t --json   folder t, as one JSON object")]
    List {
        /// The cache folder, as for `solve` (default: ./tables when it exists, else the
        /// user's cache folder).
        #[arg(long, value_name = "DIR")]
        tables: Option<PathBuf>,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Remove ksolve's files from the cache folder: every table, manifest and leftover
    /// temporary, or with DEF only the tables built for that definition (its present
    /// contents or earlier contents of the same path). Other files are left alone.
    #[command(after_help = "Examples:
  ksolve tables clear                      everything ksolve owns in the cache folder
  ksolve tables clear puzzles/3x3x3.def    only the tables built for this definition")]
    Clear {
        /// Only this definition's tables.
        def: Option<PathBuf>,
        /// The cache folder, as for `solve`.
        #[arg(long, value_name = "DIR")]
        tables: Option<PathBuf>,
    },
}

/// One file for `cache list --json`.
#[derive(serde::Serialize)]
struct JsonFile {
    file: String,
    kind: Option<String>,
    bytes: u64,
    /// Seconds since the Unix epoch.
    last_used: Option<u64>,
    definition: Option<JsonDefinition>,
}

#[derive(serde::Serialize, Clone)]
struct JsonDefinition {
    name: String,
    paths: Vec<String>,
    hash: String,
}

#[derive(serde::Serialize)]
struct JsonTemporary {
    file: String,
    bytes: u64,
    pid: u32,
    /// Whether the writing process may still be running.
    owner_alive: bool,
    stale: bool,
}

#[derive(serde::Serialize)]
struct JsonList {
    dir: String,
    files: Vec<JsonFile>,
    temporaries: Vec<JsonTemporary>,
    total_files: usize,
    total_bytes: u64,
}

pub fn run(args: CacheArgs) -> anyhow::Result<u8> {
    match args.action {
        Action::Build(args) => super::build::run(args),
        Action::List { tables, json } => list(cache_dir(tables.as_deref()), json),
        Action::Clear { def, tables } => clear(cache_dir(tables.as_deref()), def),
    }
}

fn unix_seconds(t: Option<SystemTime>) -> Option<u64> {
    t.and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map(|d| d.as_secs())
}

/// How long ago `t` was, in the largest whole unit.
fn ago(t: Option<SystemTime>) -> String {
    let Some(secs) = t.and_then(|t| SystemTime::now().duration_since(t).ok()) else {
        return "just now".into();
    };
    let secs = secs.as_secs();
    let (n, unit) = match secs {
        0..=59 => return "just now".into(),
        60..=3599 => (secs / 60, "minute"),
        3600..=86_399 => (secs / 3600, "hour"),
        _ => (secs / 86_400, "day"),
    };
    format!("{n} {unit}{} ago", if n == 1 { "" } else { "s" })
}

fn list(dir: PathBuf, json: bool) -> anyhow::Result<u8> {
    let inv = inventory::scan(&dir)?;
    let total_files = inv.files.len() + inv.temporaries.len();
    if json {
        let definition = |f: &CachedFile| {
            f.definition.map(|i| {
                let d = &inv.definitions[i];
                JsonDefinition {
                    name: d.name.clone(),
                    paths: d.paths.clone(),
                    hash: format!("{:016x}", d.hash),
                }
            })
        };
        let out = JsonList {
            dir: dir.display().to_string(),
            files: inv
                .files
                .iter()
                .map(|f| JsonFile {
                    file: inventory::file_name(&f.path),
                    kind: f.kind.clone(),
                    bytes: f.bytes,
                    last_used: unix_seconds(f.last_used),
                    definition: definition(f),
                })
                .collect(),
            temporaries: inv
                .temporaries
                .iter()
                .map(|t| JsonTemporary {
                    file: inventory::file_name(&t.path),
                    bytes: t.bytes,
                    pid: t.owner.pid,
                    owner_alive: t.owner_alive,
                    stale: t.stale,
                })
                .collect(),
            total_files,
            total_bytes: inv.total_bytes(),
        };
        println!("{}", serde_json::to_string(&out)?);
        return Ok(EXIT_OK);
    }
    print_text(&dir, &inv);
    Ok(EXIT_OK)
}

fn print_text(dir: &std::path::Path, inv: &Inventory) {
    println!("Cache folder {}", dir.display());
    let row = |f: &CachedFile| {
        println!(
            "  {:<56} {:>10}  {:<16} used {}",
            inventory::file_name(&f.path),
            human(f.bytes),
            f.kind.as_deref().unwrap_or("(damaged)"),
            ago(f.last_used)
        );
    };
    for (i, d) in inv.definitions.iter().enumerate() {
        let name = if d.name.is_empty() {
            "(no Name)"
        } else {
            &d.name
        };
        println!("{name} ({})", d.paths.join(", "));
        inv.files
            .iter()
            .filter(|f| f.definition == Some(i))
            .for_each(row);
    }
    if inv.files.iter().any(|f| f.definition.is_none()) {
        println!("(no recorded definition)");
        inv.files
            .iter()
            .filter(|f| f.definition.is_none())
            .for_each(row);
    }
    if !inv.temporaries.is_empty() {
        println!("Temporary files");
        for t in &inv.temporaries {
            // A dead owner's file is kept for a grace period after its last write
            // (`temp::GRACE`), but it is not being written: say so.
            let state = if t.stale {
                "left by an interrupted run".to_string()
            } else if !t.owner_alive {
                format!(
                    "its owner is gone (an interrupted run); removed once unmodified for {} s",
                    ksolve::storage::temp::GRACE.as_secs()
                )
            } else {
                "being written".to_string()
            };
            println!(
                "  {:<56} {:>10}  process {}, {state}",
                inventory::file_name(&t.path),
                human(t.bytes),
                t.owner.pid
            );
        }
    }
    println!(
        "Total: {} file(s), {}",
        inv.files.len() + inv.temporaries.len(),
        human(inv.total_bytes())
    );
}

fn clear(dir: PathBuf, def: Option<PathBuf>) -> anyhow::Result<u8> {
    let selector = match &def {
        Some(path) => {
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            Some(Selector::new(path, &bytes))
        }
        None => None,
    };
    let cleared = inventory::clear(&dir, selector.as_ref())?;
    println!(
        "Removed {} file(s), {}, from {}",
        cleared.removed.len(),
        human(cleared.bytes),
        dir.display()
    );
    for t in &cleared.live_temporaries {
        println!("Kept {}: a running ksolve is writing it", t.display());
    }
    Ok(EXIT_OK)
}
