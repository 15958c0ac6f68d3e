//! `ksolve god --distributed`: God's algorithm as several local processes talking over
//! TCP (a 127.0.0.1 host file with free ports), started with the command line of
//! `deploy/slurm-god.sh`: the per-depth counts equal the single-process run's, a run
//! stopped after some layers and resumed ends with the same table, and a checkpoint of
//! another process count is refused. The six-face 2x2x2 (88,179,840 positions) and a
//! 2x2x2 run killed by a signal are slow tests (`KSOLVE_SLOW_TESTS=1`).

use crate::common::bin;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The ksolve command line of the Slurm script, as words with its shell variables left
/// in (`$DEF`, `$SLURM_PROCID`, ...).
fn script_words() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("deploy/slurm-god.sh")).unwrap();
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("srun") && l.contains(" god "))
        .expect("an srun line running ksolve god");
    let inner = line.split('\'').nth(1).expect("a single-quoted command");
    let words: Vec<String> = inner
        .split_whitespace()
        .map(|w| w.trim_matches('"').to_string())
        .collect();
    assert_eq!(words[..3], ["exec", "$KSOLVE", "god"], "{inner}");
    words[3..].to_vec()
}

/// The script's command for process `p` of `n`, with `extra` flags before `--`.
fn command(def: &Path, ck: &Path, hosts: &Path, n: usize, p: usize, extra: &[&str]) -> Vec<String> {
    let mut out = vec!["god".to_string()];
    for w in script_words() {
        if w == "--" {
            out.extend(extra.iter().map(|s| s.to_string()));
        }
        out.push(match w.as_str() {
            "$DEF" => def.display().to_string(),
            "$CHECKPOINT" => ck.display().to_string(),
            "$HOSTS" => hosts.display().to_string(),
            "$SLURM_NTASKS" => n.to_string(),
            "$SLURM_PROCID" => p.to_string(),
            v if v.starts_with('$') => panic!("unknown variable {v} in the script"),
            v => v.to_string(),
        });
    }
    out
}

/// Free TCP ports on 127.0.0.1 (bound, read, released).
fn free_ports(n: usize) -> Vec<u16> {
    let ls: Vec<_> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    ls.iter().map(|l| l.local_addr().unwrap().port()).collect()
}

struct Outcome {
    codes: Vec<i32>,
    /// Standard output of process 0, which prints the table.
    out: String,
    err: String,
}

/// Runs `n` processes of the script's command and waits for them all.
fn run_dist(def: &Path, ck: &Path, n: usize, extra: &[&str]) -> Outcome {
    let dir = ck.parent().unwrap();
    let hosts = dir.join(format!("hosts{n}.txt"));
    let lines: Vec<String> = free_ports(n)
        .iter()
        .map(|p| format!("127.0.0.1:{p}\n"))
        .collect();
    std::fs::write(&hosts, lines.concat()).unwrap();
    let children: Vec<_> = (0..n)
        .map(|p| {
            Command::new(bin())
                .args(command(def, ck, &hosts, n, p, extra))
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut o = Outcome {
        codes: Vec::new(),
        out: String::new(),
        err: String::new(),
    };
    for (p, c) in children.into_iter().enumerate() {
        let r = c.wait_with_output().unwrap();
        o.codes.push(r.status.code().unwrap_or(-1));
        if p == 0 {
            o.out = String::from_utf8(r.stdout).unwrap();
        }
        o.err += &String::from_utf8(r.stderr).unwrap();
    }
    o
}

/// The rows `d\tcount` of a table printed by `ksolve god`.
fn rows(text: &str) -> Vec<(usize, u64)> {
    text.lines()
        .filter_map(|l| {
            let (a, b) = l.split_once('\t')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        })
        .collect()
}

fn single(def: &Path, extra: &[&str]) -> Vec<(usize, u64)> {
    let out = Command::new(bin())
        .args(["god", def.to_str().unwrap(), "-q"])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    rows(&String::from_utf8(out.stdout).unwrap())
}

fn check_counts(def: &Path, processes: &[usize]) {
    let want = single(def, &[]);
    let total: u64 = want.iter().map(|r| r.1).sum();
    for &n in processes {
        let tmp = tempfile::tempdir().unwrap();
        let o = run_dist(def, &tmp.path().join("ck"), n, &[]);
        assert_eq!(o.codes, vec![0; n], "{}", o.err);
        assert_eq!(rows(&o.out), want, "{n} processes");
        assert!(
            o.out.contains(&format!("Total positions: {total}")),
            "{}",
            o.out
        );
    }
}

/// The checkpoint files a run leaves, by name, with their bytes (not the temporaries a
/// killed writer may leave).
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            let name = name.to_string_lossy();
            name.ends_with(".ktb") && !name.starts_with('.')
        })
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn the_slurm_script_parses_and_runs_ksolve_the_way_the_tests_do() {
    let st = Command::new("bash")
        .args(["-n", root().join("deploy/slurm-god.sh").to_str().unwrap()])
        .status()
        .unwrap();
    assert!(st.success());
    let text = std::fs::read_to_string(root().join("deploy/slurm-god.sh")).unwrap();
    assert!(text.contains("scontrol show hostnames \"$SLURM_JOB_NODELIST\""));
    let flags: Vec<String> = script_words()
        .into_iter()
        .filter(|w| w.starts_with('-'))
        .collect();
    assert_eq!(
        flags,
        [
            "--distributed",
            "--checkpoint",
            "--resume",
            "-q",
            "--",
            "-w",
            "-n",
            "-p",
            "-h"
        ]
    );
}

#[test]
fn the_2x2x2_on_two_and_three_processes_counts_as_on_one() {
    check_counts(&root().join("puzzles/2x2x2.def"), &[2, 3]);
}

#[test]
fn a_stopped_two_process_run_resumes_to_the_same_table() {
    let def = root().join("puzzles/pyraminx.def");
    let tmp = tempfile::tempdir().unwrap();
    let (whole, part) = (tmp.path().join("whole"), tmp.path().join("ck"));
    let full = run_dist(&def, &whole, 2, &[]);
    assert_eq!(full.codes, [0, 0], "{}", full.err);
    let stopped = run_dist(&def, &part, 2, &["--stop-after-layer", "3"]);
    assert_eq!(stopped.codes, [1, 1], "{}", stopped.err);
    assert!(
        stopped.err.contains("stopped after layer 3"),
        "{}",
        stopped.err
    );
    let again = run_dist(&def, &part, 2, &[]);
    assert_eq!(again.codes, [0, 0], "{}", again.err);
    assert_eq!(rows(&again.out), rows(&full.out));
    assert_eq!(files(&part), files(&whole));
    // Three processes cannot take over the shares of two.
    let other = run_dist(&def, &part, 3, &[]);
    assert_eq!(other.codes, [2, 2, 2], "{}", other.err);
    assert!(
        other.err.contains("written by a run of 2 worker(s)"),
        "{}",
        other.err
    );
}

#[test]
fn the_six_face_2x2x2_on_two_and_three_processes() {
    if !crate::common::slow_tests() {
        return;
    }
    let six = root().join("tests/fixtures/2x2x2_six_faces.def");
    // The published HTM table (twsearch's 2x2x2 log; the 3x3x3 corners), which also
    // checks the fixture's moves.
    let published = [
        1, 18, 243, 2874, 28000, 205416, 1168516, 5402628, 20776176, 45391616, 15139616, 64736,
    ];
    let want: Vec<(usize, u64)> = published.into_iter().enumerate().collect();
    assert_eq!(single(&six, &[]), want);
    check_counts(&six, &[2, 3]);
}

#[test]
fn a_killed_two_process_2x2x2_run_resumes_to_the_same_table() {
    if !crate::common::slow_tests() {
        return;
    }
    let def = root().join("puzzles/2x2x2.def");
    let tmp = tempfile::tempdir().unwrap();
    let (whole, part) = (tmp.path().join("whole"), tmp.path().join("ck"));
    let full = run_dist(&def, &whole, 2, &[]);
    assert_eq!(full.codes, [0, 0], "{}", full.err);
    // A real kill: process 1 dies mid-run, the other loses its peer and fails.
    let hosts = tmp.path().join("hostsk.txt");
    let ports = free_ports(2);
    std::fs::write(
        &hosts,
        format!("127.0.0.1:{}\n127.0.0.1:{}\n", ports[0], ports[1]),
    )
    .unwrap();
    let mut kids: Vec<_> = (0..2)
        .map(|p| {
            Command::new(bin())
                .args(command(&def, &part, &hosts, 2, p, &[]))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    // Wait for a few layers' checkpoints, then kill both.
    let t0 = std::time::Instant::now();
    while !part.join("god.1.1.ktb").exists() && t0.elapsed().as_secs() < 120 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    for k in &mut kids {
        let _ = k.kill();
        let _ = k.wait();
    }
    let again = run_dist(&def, &part, 2, &[]);
    assert_eq!(again.codes, [0, 0], "{}", again.err);
    assert_eq!(rows(&again.out), rows(&full.out));
    assert_eq!(files(&part), files(&whole));
}

/// Far longer than any of the runs below takes, far shorter than the for-ever a run
/// waiting for a process that never comes took before connections had a deadline.
const PROMPT: std::time::Duration = std::time::Duration::from_secs(90);

/// A host file of `n` free local ports in `dir`.
fn hosts(dir: &Path, n: usize) -> (PathBuf, Vec<String>) {
    let addresses: Vec<String> = free_ports(n)
        .iter()
        .map(|p| format!("127.0.0.1:{p}"))
        .collect();
    let path = dir.join(format!("hosts{n}.txt"));
    std::fs::write(&path, addresses.join("\n") + "\n").unwrap();
    (path, addresses)
}

/// `ksolve god DEF --distributed` as process `p` of `n`, with `extra` flags.
fn process(def: &Path, hosts: &Path, n: usize, p: usize, extra: &[&str]) -> Command {
    let mut c = Command::new(bin());
    c.arg("god")
        .arg(def)
        .arg("--distributed")
        .args(extra)
        .args(["--", "-n", &n.to_string(), "-p", &p.to_string(), "-h"])
        .arg(hosts)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Waits for `child` at most [`PROMPT`]; kills it and fails when it runs on.
fn finish(mut child: std::process::Child, what: &str) -> (i32, String, String) {
    let t0 = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > PROMPT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {PROMPT:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// What every failed process must say: one line, naming the process at fault, and no
/// panic or backtrace.
fn one_line_naming(err: &str, process: &str) {
    let lines: Vec<&str> = err.lines().filter(|l| !l.contains(": done in ")).collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].starts_with("error: distributed run: "), "{err}");
    assert!(lines[0].contains(process), "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("backtrace"),
        "{err}"
    );
}

#[test]
fn a_process_killed_mid_run_is_named_by_the_other_in_one_line() {
    use std::io::BufRead;
    let def = root().join("puzzles/2x2x2.def");
    let tmp = tempfile::tempdir().unwrap();
    let (hosts, addresses) = hosts(tmp.path(), 2);
    let mut p0 = process(&def, &hosts, 2, 0, &[]).spawn().unwrap();
    let mut p1 = process(&def, &hosts, 2, 1, &[]).spawn().unwrap();
    // Once layer 3 is counted both processes are well into the run (the deep layers
    // take most of it): process 1 dies there.
    let mut rows = std::io::BufReader::new(p0.stdout.take().unwrap());
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        if rows.read_line(&mut line).unwrap() == 0 {
            break;
        }
        seen += &line;
        if line.starts_with("3\t") {
            p1.kill().unwrap();
            break;
        }
    }
    p1.wait().unwrap();
    // Keep reading process 0's output, so that a row it prints cannot block it.
    let drain = std::thread::spawn(move || {
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut rows, &mut rest).unwrap();
        rest
    });
    let (code, _, err) = finish(p0, "process 0 after process 1 was killed");
    let rest = drain.join().unwrap();
    assert!(seen.contains("3\t321"), "{seen}");
    assert!(
        !rest.contains("Total positions"),
        "the run finished before the kill: {rest}"
    );
    assert_eq!(code, 2, "{err}");
    one_line_naming(&err, &format!("lost process 1 ({})", addresses[1]));
}

#[test]
fn a_process_that_never_starts_is_named_at_the_deadline_with_nothing_on_stdout() {
    let def = root().join("puzzles/2x2x2.def");
    let tmp = tempfile::tempdir().unwrap();
    let (hosts, addresses) = hosts(tmp.path(), 2);
    for (me, other) in [(0, 1), (1, 0)] {
        let child = process(&def, &hosts, 2, me, &["--connect-timeout", "2"])
            .spawn()
            .unwrap();
        let (code, out, err) = finish(child, "a process alone");
        assert_eq!(code, 2, "{err}");
        // Timely printed `awaiting connections` here, once a second.
        assert_eq!(out, "");
        one_line_naming(&err, &format!("process {other} ({})", addresses[other]));
        assert!(err.contains("within 2 s (--connect-timeout)"), "{err}");
    }
}

#[test]
fn processes_started_with_different_counts_both_say_so() {
    let def = root().join("puzzles/2x2x2.def");
    let tmp = tempfile::tempdir().unwrap();
    let (hosts, addresses) = hosts(tmp.path(), 3);
    let flags = ["--connect-timeout", "30"];
    let p0 = process(&def, &hosts, 2, 0, &flags).spawn().unwrap();
    let p1 = process(&def, &hosts, 3, 1, &flags).spawn().unwrap();
    let (c0, _, e0) = finish(p0, "process 0 of 2");
    let (c1, _, e1) = finish(p1, "process 1 of 3");
    assert_eq!((c0, c1), (2, 2), "{e0}\n{e1}");
    one_line_naming(&e0, &format!("process 1 ({})", addresses[1]));
    assert!(
        e0.contains("it runs with -n 3, this process with -n 2"),
        "{e0}"
    );
    one_line_naming(&e1, &format!("process 0 ({})", addresses[0]));
    assert!(
        e1.contains("it runs with -n 2, this process with -n 3"),
        "{e1}"
    );
}

#[test]
fn a_foreign_listener_on_a_process_port_is_named() {
    let def = root().join("puzzles/2x2x2.def");
    let tmp = tempfile::tempdir().unwrap();
    // Something else listens where process 0 should: connections complete (into its
    // backlog) and nothing answers.
    let foreign = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = foreign.local_addr().unwrap().to_string();
    let (hosts, addresses) = hosts(tmp.path(), 2);
    std::fs::write(&hosts, format!("{address}\n{}\n", addresses[1])).unwrap();
    let child = process(&def, &hosts, 2, 1, &["--connect-timeout", "2"])
        .spawn()
        .unwrap();
    let (code, out, err) = finish(child, "process 1 facing a foreign listener");
    assert_eq!(code, 2, "{err}");
    assert_eq!(out, "");
    one_line_naming(&err, &format!("process 0 ({address})"));
    assert!(err.contains("is something else listening there?"), "{err}");
    drop(foreign);
}
