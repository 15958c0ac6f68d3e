//! Temporary files: where a table is written before it is renamed into place, and how a
//! later run recognises the temporaries of runs that were killed and removes them.
//!
//! A temporary for `DIR/NAME` is `DIR/.NAME.ksolve-tmp.PID.START.N`: the writer's
//! process id, the writer's start time (so that a process id reused by an unrelated
//! process does not keep a dead writer's file alive) and a per-process counter. A
//! temporary is stale when its owner is gone and it has not been written for a while;
//! [`sweep`] removes only those. A live writer's file is never touched.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

/// The marker between a temporary's target name and its owner fields.
const MARK: &str = ".ksolve-tmp.";

/// A temporary whose owner looks gone is still kept until it has not been modified for
/// this long. A writer only holds a temporary while it writes a table it has already
/// built, and it modifies the file all along; the grace covers owners that this
/// process cannot see (another PID namespace sharing the folder) and slow final syncs.
pub const GRACE: Duration = Duration::from_secs(120);

/// Without a process table to ask (no `/proc`), a temporary older than this is taken to
/// be stale: no table takes a day to write.
const STALE_WITHOUT_PROC: Duration = Duration::from_secs(24 * 3600);

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Who wrote a temporary file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Owner {
    pub pid: u32,
    /// The process's start time in clock ticks since boot (0 where unknown).
    pub start: u64,
}

impl Owner {
    /// This process.
    pub fn current() -> Owner {
        static START: OnceLock<u64> = OnceLock::new();
        let pid = std::process::id();
        Owner {
            pid,
            start: *START.get_or_init(|| process_start(pid).unwrap_or(0)),
        }
    }
}

/// The start time of process `pid` (field 22 of `/proc/PID/stat`, clock ticks since
/// boot), or `None` when there is no such process or no `/proc`.
pub fn process_start(pid: u32) -> Option<u64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces or ')', so the
    // fields are counted from the last ')'; field 3 is the first after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(22 - 3)?.parse().ok()
}

/// The temporary `owner` would write `target` through, with counter `n`.
pub fn temp_path(target: &Path, owner: Owner, n: u64) -> PathBuf {
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    target.with_file_name(format!(".{name}{MARK}{}.{}.{n}", owner.pid, owner.start))
}

/// A fresh temporary path for `target`, owned by this process.
pub fn new_temp_path(target: &Path) -> PathBuf {
    temp_path(
        target,
        Owner::current(),
        COUNTER.fetch_add(1, Ordering::Relaxed),
    )
}

/// The owner encoded in a temporary's file name, or `None` when `name` is not the name
/// of a ksolve temporary.
pub fn parse_temp_name(name: &str) -> Option<Owner> {
    let rest = name.strip_prefix('.')?;
    let (target, fields) = rest.rsplit_once(MARK)?;
    let mut it = fields.split('.');
    let (pid, start, n) = (it.next()?, it.next()?, it.next()?);
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if target.is_empty() || it.next().is_some() || ![pid, start, n].into_iter().all(digits) {
        return None;
    }
    Some(Owner {
        pid: pid.parse().ok()?,
        start: start.parse().ok()?,
    })
}

/// Whether `owner` may still be running. Any doubt counts as alive.
pub fn owner_alive(owner: Owner) -> bool {
    if owner == Owner::current() {
        return true;
    }
    if !Path::new("/proc/self/stat").exists() {
        return true;
    }
    match fs::read_to_string(format!("/proc/{}/stat", owner.pid)) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
        Err(_) => true,
        // A different start time means the id now belongs to another process.
        Ok(_) => process_start(owner.pid).is_none_or(|s| owner.start == 0 || s == owner.start),
    }
}

/// Whether the temporary at `path` (named for `owner`) is stale: its owner is gone and
/// it has not been modified within [`GRACE`], or, where processes cannot be asked, it
/// is older than a day.
fn is_stale(meta: &fs::Metadata, owner: Owner) -> bool {
    let age = meta
        .modified()
        .ok()
        .and_then(|m| SystemTime::now().duration_since(m).ok())
        .unwrap_or(Duration::ZERO);
    if !Path::new("/proc/self/stat").exists() {
        return age > STALE_WITHOUT_PROC;
    }
    age > GRACE && !owner_alive(owner)
}

/// A ksolve temporary found in a folder.
#[derive(Clone, Debug)]
pub struct Temporary {
    pub path: PathBuf,
    pub bytes: u64,
    pub owner: Owner,
    /// Whether its owner may still be running ([`owner_alive`]).
    pub owner_alive: bool,
    pub stale: bool,
}

/// The ksolve temporaries in `dir` (regular files only; symbolic links and anything
/// else are never ksolve's). An unreadable folder has none.
pub fn temporaries(dir: &Path) -> Vec<Temporary> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(owner) = name.to_str().and_then(parse_temp_name) else {
            continue;
        };
        // DirEntry::metadata does not follow symbolic links.
        let Ok(meta) = entry.metadata() else { continue };
        if !meta.file_type().is_file() {
            continue;
        }
        out.push(Temporary {
            path: entry.path(),
            bytes: meta.len(),
            owner,
            owner_alive: owner_alive(owner),
            stale: is_stale(&meta, owner),
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// Removes the stale temporaries in `dir` and returns what was removed. Removal
/// failures (a file already gone, no permission) are skipped: the next run tries again.
pub fn sweep(dir: &Path) -> Vec<Temporary> {
    temporaries(dir)
        .into_iter()
        .filter(|t| t.stale && fs::remove_file(&t.path).is_ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;

    fn age(path: &Path, by: Duration) {
        let f = File::options().write(true).open(path).unwrap();
        f.set_modified(SystemTime::now() - by).unwrap();
    }

    /// The id of a process that has exited (and been reaped).
    fn dead_pid() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    }

    #[test]
    fn names_round_trip_and_other_names_are_not_temporaries() {
        let owner = Owner { pid: 42, start: 7 };
        let p = temp_path(Path::new("/x/cube.pt-htm.ktb"), owner, 3);
        assert_eq!(p.file_name().unwrap(), ".cube.pt-htm.ktb.ksolve-tmp.42.7.3");
        assert_eq!(
            parse_temp_name(".cube.pt-htm.ktb.ksolve-tmp.42.7.3"),
            Some(owner)
        );
        for name in [
            "cube.pt-htm.ktb.ksolve-tmp.42.7.3",
            ".cube.ktb.ksolve-tmp.42.7",
            ".cube.ktb.ksolve-tmp.42.7.3.4",
            ".cube.ktb.ksolve-tmp.4x.7.3",
            ".ksolve-tmp.1.2.3",
            "cube.ktb",
        ] {
            assert_eq!(parse_temp_name(name), None, "{name}");
        }
    }

    #[test]
    fn sweep_removes_dead_owners_files_and_keeps_live_ones() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("t.ktb");
        let me = Owner::current();
        assert!(me.start > 0, "this test needs /proc");
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let live_child = Owner {
            pid: child.id(),
            start: process_start(child.id()).unwrap(),
        };
        let dead = Owner {
            pid: dead_pid(),
            start: 1,
        };
        // This process's id with another start time: a writer that died and whose id
        // was given to this process.
        let reused = Owner {
            pid: me.pid,
            start: me.start + 1,
        };
        let path = |o: Owner| temp_path(&target, o, 0);
        for o in [me, live_child, dead, reused] {
            fs::write(path(o), b"KSOLVETB").unwrap();
            age(&path(o), GRACE * 2);
        }
        // A dead owner's file still being within the grace period is kept.
        let recent = Owner {
            pid: dead.pid,
            start: 2,
        };
        fs::write(path(recent), b"").unwrap();
        // A symbolic link with a temporary's name is never followed or removed.
        let outside = tempfile::NamedTempFile::new().unwrap();
        let link = temp_path(
            &target,
            Owner {
                pid: dead.pid,
                start: 3,
            },
            0,
        );
        std::os::unix::fs::symlink(outside.path(), &link).unwrap();

        let removed: Vec<PathBuf> = sweep(dir.path()).into_iter().map(|t| t.path).collect();
        child.kill().unwrap();
        child.wait().unwrap();
        let mut want = vec![path(dead), path(reused)];
        want.sort();
        assert_eq!(removed, want);
        for o in [me, live_child, recent] {
            assert!(path(o).exists(), "{o:?}");
        }
        assert!(link.symlink_metadata().is_ok() && outside.path().exists());
    }
}
