//! Sharded batch solving: `ksolve solve ... --shard K/N --out DIR` run as separate
//! processes and `ksolve merge DIR`. Four shards started at once on an empty table
//! folder merge into exactly what one run prints (text and `--json`); a killed and
//! rerun shard changes nothing; missing shards are named; shards of another batch are
//! refused; the shard comes from Slurm's or Kubernetes' variables; and the scripts in
//! `deploy/` run the very commands tested here.

use crate::common::bin;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

const DEF: &str = "puzzles/2x2x2.def";
const SCRAMBLES: &str = "scrambles/2x2x2.batch.txt";

/// The scheduler variables ksolve reads: cleared in every run, so that a test run
/// inside a Slurm job or a pod is not mistaken for a shard.
const SCHEDULER_VARS: &[&str] = &[
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_STEP",
    "JOB_COMPLETION_INDEX",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `ksolve ARGS` in the repository's folder with no scheduler variables.
fn ksolve(args: &[&str]) -> Command {
    let mut c = Command::new(bin());
    c.current_dir(root()).args(args);
    for v in SCHEDULER_VARS {
        c.env_remove(v);
    }
    c
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// `solve` on the batch file with the options every run here uses: a seed, so that
/// random scrambles repeat, and one thread, so that node counts do too.
fn solve_args<'a>(tables: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "solve",
        DEF,
        SCRAMBLES,
        "--seed",
        "1",
        "--threads",
        "1",
        "--quiet",
        "--tables",
        tables,
    ];
    args.extend_from_slice(extra);
    args
}

/// The times of `--json` objects (`seconds`, `table_seconds`, `search_seconds`: the one
/// thing that differs between runs) set to 0, wherever they stand (also inside shard
/// files).
fn mask_seconds(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find("seconds\":") {
        let (head, tail) = rest.split_at(at + "seconds\":".len());
        out.push_str(head);
        out.push('0');
        let end = tail
            .find(|c: char| !(c.is_ascii_digit() || "+-.eE".contains(c)))
            .unwrap_or(tail.len());
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// One batch, computed once for all the tests here: the single run's text and JSON, and
/// the folder four concurrent shards wrote, sharing a table folder that was empty.
struct Batch {
    dir: PathBuf,
    tables: PathBuf,
    out: PathBuf,
    single_text: String,
    single_json: String,
}

fn batch() -> &'static Batch {
    static BATCH: OnceLock<Batch> = OnceLock::new();
    BATCH.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("shard_cli");
        let _ = fs::remove_dir_all(&dir);
        let tables = dir.join("tables");
        let out = dir.join("out");
        fs::create_dir_all(&tables).unwrap();
        let t = tables.to_str().unwrap();
        let o = out.to_str().unwrap();
        // Four processes at once on an empty table folder: they race to build the same
        // pruning tables, and every one must still succeed.
        let shards: Vec<String> = (0..4).map(|k| format!("{k}/4")).collect();
        let children: Vec<_> = shards
            .iter()
            .map(|s| {
                ksolve(&solve_args(t, &["--shard", s, "--out", o]))
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let r = child.wait_with_output().unwrap();
            assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
            assert!(
                r.stdout.is_empty(),
                "a shard prints nothing: {}",
                text(&r.stdout)
            );
        }
        let single = |extra: &[&str]| {
            let r = ksolve(&solve_args(t, extra)).output().unwrap();
            assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
            text(&r.stdout)
        };
        Batch {
            single_text: single(&[]),
            single_json: single(&["--json"]),
            dir,
            tables,
            out,
        }
    })
}

/// A copy of the four shards' folder for a test to change.
fn copy_of_shards(name: &str) -> PathBuf {
    let b = batch();
    let dir = b.dir.join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    for e in fs::read_dir(&b.out).unwrap() {
        let e = e.unwrap();
        fs::copy(e.path(), dir.join(e.file_name())).unwrap();
    }
    dir
}

fn merge(dir: &Path, json: bool) -> Output {
    let d = dir.to_str().unwrap();
    let mut args = vec!["merge", d];
    if json {
        args.push("--json");
    }
    ksolve(&args).output().unwrap()
}

fn shard_file(dir: &Path, k: u32, n: u32) -> String {
    text(&fs::read(dir.join(format!("shard-{k}-of-{n}.jsonl"))).unwrap())
}

#[test]
fn four_concurrent_shards_merge_into_the_single_run() {
    let b = batch();
    let names: Vec<String> = fs::read_dir(&b.out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 4, "only the four shard files: {names:?}");
    // Every scramble is in the single run, and there are more than shards.
    assert_eq!(b.single_text.matches("Solving ").count(), 10);
    let r = merge(&b.out, false);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert_eq!(text(&r.stdout), b.single_text);
    let r = merge(&b.out, true);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert_eq!(mask_seconds(&text(&r.stdout)), mask_seconds(&b.single_json));
    assert_eq!(text(&r.stdout).lines().count(), 10);
    // The racing shards left no temporaries in the table folder.
    for e in fs::read_dir(&b.tables).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        assert!(!name.contains("ksolve-tmp"), "{name}");
    }
}

#[test]
fn a_shard_file_says_which_batch_it_belongs_to() {
    let b = batch();
    let s = shard_file(&b.out, 1, 4);
    let lines: Vec<&str> = s.lines().collect();
    // Scrambles 1, 5 and 9 of ten.
    assert_eq!(lines.len(), 4, "{s}");
    let header: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(header["shard"], 1);
    assert_eq!(header["shards"], 4);
    assert_eq!(header["scrambles"], 10);
    let def = fs::read(root().join(DEF)).unwrap();
    assert_eq!(header["def_sha256"], ksolve::batch::sha256_hex(&def));
    let indices: Vec<u64> = lines[1..]
        .iter()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["index"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(indices, [1, 5, 9]);
}

#[test]
fn a_killed_and_rerun_shard_changes_nothing() {
    let b = batch();
    let dir = copy_of_shards("rerun");
    let d = dir.to_str().unwrap();
    let t = b.tables.to_str().unwrap();
    let before = shard_file(&dir, 2, 4);
    // A temporary left by a writer killed long ago (its process is gone).
    let dead = {
        let mut c = Command::new("true").spawn().unwrap();
        let pid = c.id();
        c.wait().unwrap();
        pid
    };
    let stale = dir.join(format!(".shard-2-of-4.jsonl.ksolve-tmp.{dead}.1.0"));
    fs::write(&stale, b"{\"half\":").unwrap();
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(old)
        .unwrap();
    // A run killed part way: whenever the kill lands, the file is the old one or a
    // whole new one.
    let mut child = ksolve(&solve_args(t, &["--shard", "2/4", "--out", d]))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(mask_seconds(&shard_file(&dir, 2, 4)), mask_seconds(&before));
    let r = merge(&dir, false);
    assert_eq!(text(&r.stdout), b.single_text);
    // The rerun replaces the file with the same results and sweeps the stale temporary.
    let r = ksolve(&solve_args(t, &["--shard", "2/4", "--out", d]))
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert_eq!(mask_seconds(&shard_file(&dir, 2, 4)), mask_seconds(&before));
    assert!(!stale.exists(), "the stale temporary was swept");
    let r = merge(&dir, false);
    assert_eq!(r.status.code(), Some(0));
    assert_eq!(text(&r.stdout), b.single_text);
    let r = merge(&dir, true);
    assert_eq!(mask_seconds(&text(&r.stdout)), mask_seconds(&b.single_json));
}

/// A scramble with no solution: each shard still exits 0 once its file is written,
/// and the merge exits 1, as the single run does, with the same output.
#[test]
fn a_batch_with_an_unsolvable_scramble_merges_with_status_1() {
    let b = batch();
    let dir = b.dir.join("unsolvable");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let scr = dir.join("s.txt");
    fs::write(
        &scr,
        "ScrambleAlg two moves\nR U\nEnd\n\
         Scramble one twisted corner\nCORNERS\n1 2 3 4 5 6 7\n1 0 0 0 0 0 0\nEnd\n\
         ScrambleAlg sune\nR U R' U R U2 R'\nEnd\n",
    )
    .unwrap();
    let (s, t) = (scr.to_str().unwrap(), b.tables.to_str().unwrap());
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["solve", DEF, s, "--threads", "1", "--quiet", "--tables", t];
        args.extend_from_slice(extra);
        ksolve(&args).output().unwrap()
    };
    for k in ["0/2", "1/2"] {
        let r = run(&["--shard", k, "--out", o]);
        assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    }
    let single = run(&[]);
    assert_eq!(single.status.code(), Some(1));
    assert!(text(&single.stdout).contains("No solution: the position cannot be reached"));
    let r = merge(&out, false);
    assert_eq!(r.status.code(), Some(1), "{}", text(&r.stderr));
    assert_eq!(text(&r.stdout), text(&single.stdout));
    let single = run(&["--json"]);
    let r = merge(&out, true);
    assert_eq!(r.status.code(), Some(1), "{}", text(&r.stderr));
    assert_eq!(
        mask_seconds(&text(&r.stdout)),
        mask_seconds(&text(&single.stdout))
    );
}

#[test]
fn missing_shards_are_named() {
    let dir = copy_of_shards("missing");
    fs::remove_file(dir.join("shard-1-of-4.jsonl")).unwrap();
    fs::remove_file(dir.join("shard-3-of-4.jsonl")).unwrap();
    let r = merge(&dir, false);
    assert_eq!(r.status.code(), Some(1));
    assert!(r.stdout.is_empty());
    let err = text(&r.stderr);
    assert!(
        err.contains("2 of the 4 shards are missing")
            && err.contains("shard-1-of-4.jsonl, shard-3-of-4.jsonl"),
        "{err}"
    );
    let empty = batch().dir.join("empty");
    fs::create_dir_all(&empty).unwrap();
    let r = merge(&empty, false);
    assert_eq!(r.status.code(), Some(2));
    assert!(
        text(&r.stderr).contains("holds no shard files"),
        "{}",
        text(&r.stderr)
    );
}

#[test]
fn shards_of_another_batch_are_refused() {
    let b = batch();
    let t = b.tables.to_str().unwrap();
    let dir = copy_of_shards("mismatch");
    let d = dir.to_str().unwrap();
    // Shard 3 again, of another scramble file.
    let r = ksolve(&[
        "solve",
        DEF,
        "scrambles/2x2x2.txt",
        "--seed",
        "1",
        "--quiet",
        "--tables",
        t,
        "--shard",
        "3/4",
        "--out",
        d,
    ])
    .output()
    .unwrap();
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let r = merge(&dir, false);
    assert_eq!(r.status.code(), Some(2));
    let err = text(&r.stderr);
    assert!(
        err.contains("shard-0-of-4.jsonl and")
            && err.contains("shard-3-of-4.jsonl are shards of different batches")
            && err.contains("scramble file hashes"),
        "{err}"
    );
    // Another number of shards in the same folder.
    let dir = copy_of_shards("mismatch-n");
    let d = dir.to_str().unwrap();
    let r = ksolve(&solve_args(t, &["--shard", "1/2", "--out", d]))
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let r = merge(&dir, false);
    assert_eq!(r.status.code(), Some(2));
    let err = text(&r.stderr);
    assert!(
        err.contains("their numbers of shards differ (2 and 4)"),
        "{err}"
    );
    // A shard file renamed to another shard's name.
    let dir = copy_of_shards("renamed");
    fs::rename(
        dir.join("shard-0-of-4.jsonl"),
        dir.join("shard-1-of-4.jsonl"),
    )
    .unwrap();
    let err = text(&merge(&dir, false).stderr);
    assert!(
        err.contains("shard-1-of-4.jsonl:1:1: the header says shard 0/4, the file name 1/4"),
        "{err}"
    );
    // Other options that change the output.
    let dir = copy_of_shards("mismatch-options");
    let d = dir.to_str().unwrap();
    let r = ksolve(&solve_args(
        t,
        &["--slack", "1", "--shard", "0/4", "--out", d],
    ))
    .output()
    .unwrap();
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    let err = text(&merge(&dir, false).stderr);
    assert!(
        err.contains("their options differ (--slack 1 --seed 1 and --seed 1)"),
        "{err}"
    );
}

#[test]
fn a_damaged_shard_file_is_reported_at_its_line() {
    let dir = copy_of_shards("damaged");
    let path = dir.join("shard-2-of-4.jsonl");
    let s = fs::read_to_string(&path).unwrap();
    // Cut short: the last record is gone.
    let cut: Vec<&str> = s.lines().collect();
    fs::write(&path, cut[..cut.len() - 1].join("\n") + "\n").unwrap();
    let r = merge(&dir, false);
    assert_eq!(r.status.code(), Some(2));
    let err = text(&r.stderr);
    assert!(
        err.contains("shard-2-of-4.jsonl:") && err.contains("cut short"),
        "{err}"
    );
    // Not JSON on line 2.
    fs::write(&path, format!("{}\nnot json\n", cut[0])).unwrap();
    let err = text(&merge(&dir, false).stderr);
    assert!(
        err.contains("shard-2-of-4.jsonl:2:2: not a shard record: expected ident\n"),
        "{err}"
    );
    assert!(err.contains("| not json"), "{err}");
}

/// The shard `ksolve solve --out` picks with `vars` set and `extra` flags.
fn shard_from_env(name: &str, vars: &[(&str, &str)], extra: &[&str]) -> (Output, PathBuf) {
    let b = batch();
    let dir = b.dir.join(name);
    let _ = fs::remove_dir_all(&dir);
    let t = b.tables.to_str().unwrap();
    let d = dir.to_str().unwrap();
    let mut args = solve_args(t, &["--out", d]);
    args.extend_from_slice(extra);
    let mut c = ksolve(&args);
    c.envs(vars.iter().copied());
    (c.output().unwrap(), dir)
}

#[test]
fn slurm_and_kubernetes_variables_select_the_shard() {
    let b = batch();
    // --array=1-4: task id 3 is the array's third task, shard 2.
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "3"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_MAX", "4"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
    ];
    let (r, dir) = shard_from_env("slurm", &slurm, &[]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert_eq!(
        mask_seconds(&shard_file(&dir, 2, 4)),
        mask_seconds(&shard_file(&b.out, 2, 4))
    );
    let (r, dir) = shard_from_env("k8s", &[("JOB_COMPLETION_INDEX", "1")], &["--shards", "4"]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert_eq!(
        mask_seconds(&shard_file(&dir, 1, 4)),
        mask_seconds(&shard_file(&b.out, 1, 4))
    );
    // Refused, with exit 2 and what was expected, before anything is written.
    let both = [slurm[0], slurm[3], ("JOB_COMPLETION_INDEX", "1")];
    type Case<'a> = (&'a [(&'a str, &'a str)], &'a [&'a str], &'a str);
    let cases: [Case; 5] = [
        (
            &both,
            &["--shards", "4"],
            "both SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX",
        ),
        (&[("JOB_COMPLETION_INDEX", "1")], &[], "give --shards N"),
        (
            &[("JOB_COMPLETION_INDEX", "4")],
            &["--shards", "4"],
            "shard 4/4 does not exist",
        ),
        (
            &slurm,
            &["--shards", "3"],
            "--shards 3 disagrees with SLURM_ARRAY_TASK_COUNT=4",
        ),
        (&[], &[], "--out needs to know which shard to solve"),
    ];
    for (i, (vars, extra, message)) in cases.into_iter().enumerate() {
        let (r, dir) = shard_from_env(&format!("refused{i}"), vars, extra);
        assert_eq!(r.status.code(), Some(2), "{message}");
        assert!(text(&r.stderr).contains(message), "{}", text(&r.stderr));
        assert!(!dir.exists(), "{message}");
    }
    // --shard needs --out.
    let r = ksolve(&["solve", DEF, SCRAMBLES, "--shard", "0/2"])
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(2));
    assert!(text(&r.stderr).contains("--out"), "{}", text(&r.stderr));
}

/// The Slurm script, run with an `sbatch` that runs the array's tasks at once on this
/// machine with the variables Slurm sets, then the dependent merge job.
#[test]
fn the_slurm_script_runs_the_tested_commands() {
    let script = root().join("deploy/slurm-solve.sh");
    let Ok(status) = Command::new("bash").arg("-n").arg(&script).status() else {
        eprintln!("no bash: the Slurm script is not checked");
        return;
    };
    assert!(status.success(), "bash -n deploy/slurm-solve.sh");
    let b = batch();
    let dir = b.dir.join("slurm-run");
    let _ = fs::remove_dir_all(&dir);
    let fake = dir.join("bin");
    fs::create_dir_all(&fake).unwrap();
    let sbatch = fake.join("sbatch");
    fs::write(&sbatch, FAKE_SBATCH).unwrap();
    let chmod = Command::new("chmod")
        .arg("+x")
        .arg(&sbatch)
        .status()
        .unwrap();
    assert!(chmod.success());
    let out = dir.join("results");
    let path = format!(
        "{}:{}",
        fake.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut c = Command::new("bash");
    c.current_dir(root())
        .arg(&script)
        .env("PATH", path)
        .env("KSOLVE", bin())
        .env("OUT", &out)
        .env("TABLES", &b.tables)
        .env("SLURM_CPUS_PER_TASK", "1");
    for v in SCHEDULER_VARS {
        c.env_remove(v);
    }
    let r = c.output().unwrap();
    assert!(
        r.status.success(),
        "{}\n{}",
        text(&r.stdout),
        text(&r.stderr)
    );
    let merged = fs::read_to_string(out.join("merged.txt")).unwrap();
    assert_eq!(merged, b.single_text);
}

/// Enough of `sbatch` for the script: `--array=A-B SCRIPT` runs the script once per
/// task, all at once, with Slurm's array variables; `--wrap=CMD` runs the command.
/// Either way it prints a job id, as `--parsable` does.
const FAKE_SBATCH: &str = r#"#!/bin/bash
set -eu
array= wrap= output=/dev/null script=
for a in "$@"; do
    case "$a" in
        --array=*) array=${a#--array=} ;;
        --wrap=*) wrap=${a#--wrap=} ;;
        --output=*) output=${a#--output=} ;;
        --*) ;;
        *) script=$a ;;
    esac
done
if [ -n "$array" ]; then
    min=${array%-*} max=${array#*-}
    for id in $(seq "$min" "$max"); do
        SLURM_ARRAY_TASK_ID=$id SLURM_ARRAY_TASK_MIN=$min SLURM_ARRAY_TASK_MAX=$max \
        SLURM_ARRAY_TASK_COUNT=$((max - min + 1)) SLURM_ARRAY_TASK_STEP=1 \
            bash "$script" &
    done
    for id in $(seq "$min" "$max"); do wait -n; done
    echo 101
else
    sh -c "$wrap" > "$output" 2>&1 || true
    echo 102
fi
"#;

/// The Kubernetes manifest: the Indexed Job's container run once per completion index
/// (its `/data` being the repository, its tables and results in a test folder), then the
/// merge Job's wait and merge.
#[test]
fn the_kubernetes_manifest_runs_the_tested_commands() {
    use serde_norway::Value;
    let yaml = fs::read_to_string(root().join("deploy/k8s-solve.yaml")).unwrap();
    let docs: Vec<Value> = serde_norway::Deserializer::from_str(&yaml)
        .map(|d| serde::Deserialize::deserialize(d).unwrap())
        .collect();
    assert_eq!(docs.len(), 2);
    let job = |name: &str| {
        docs.iter()
            .find(|d| d["kind"] == "Job" && d["metadata"]["name"] == name)
            .unwrap_or_else(|| panic!("no Job {name}"))
    };
    let solve = job("ksolve-solve");
    let merge = job("ksolve-merge");
    let spec = &solve["spec"];
    assert_eq!(spec["completionMode"], "Indexed");
    let completions = spec["completions"].as_u64().unwrap();
    let b = batch();
    let dir = b.dir.join("k8s-run");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    // /data holds puzzles/ and scrambles/ (the repository's) and tables/ and results/.
    let data = |s: &str| {
        s.replace("/data/results", dir.join("results").to_str().unwrap())
            .replace("/data/tables", b.tables.to_str().unwrap())
            .replace("/data/", &format!("{}/", root().display()))
    };
    let command = |container: &Value| -> Vec<String> {
        let words = container["command"].as_sequence().unwrap().iter();
        let args = container["args"].as_sequence().into_iter().flatten();
        words
            .chain(args)
            .map(|w| data(w.as_str().unwrap()))
            .collect()
    };
    let container = &spec["template"]["spec"]["containers"][0];
    let words = command(container);
    assert_eq!(words[0], "ksolve");
    let at = words.iter().position(|w| w == "--shards").unwrap();
    assert_eq!(
        words[at + 1],
        completions.to_string(),
        "--shards = completions"
    );
    let children: Vec<_> = (0..completions)
        .map(|k| {
            let mut c = ksolve(&[]);
            c.args(&words[1..])
                .env("JOB_COMPLETION_INDEX", k.to_string())
                .stderr(Stdio::piped());
            c.spawn().unwrap()
        })
        .collect();
    for child in children {
        let r = child.wait_with_output().unwrap();
        assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    }
    let pod = &merge["spec"]["template"]["spec"];
    let wait = command(&pod["initContainers"][0]);
    // Bounded, in case the wait never ends.
    let r = Command::new("timeout")
        .arg("60")
        .args(&wait)
        .output()
        .unwrap();
    assert!(
        r.status.success(),
        "the wait for the shards ends once they are there"
    );
    let words = command(&pod["containers"][0]);
    assert_eq!(words[0], "ksolve");
    let r = ksolve(&[]).args(&words[1..]).output().unwrap();
    assert_eq!(r.status.code(), Some(0), "{}", text(&r.stderr));
    assert_eq!(text(&r.stdout), b.single_text);
}
