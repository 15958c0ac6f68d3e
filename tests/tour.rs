//! The README's tour, run: every command in the README's `console` blocks is run, and its
//! standard output must be exactly what the README shows under it.
//!
//! The commands are read from README.md itself rather than copied here, so that the tour
//! cannot drift from what ksolve prints: editing either one without the other fails this
//! test. A command is a `$ ` line, optionally fed by `printf '...' |`; the lines after it,
//! up to the next command or the end of the block, are its output. The commands run in a
//! scratch folder holding copies of `puzzles/` and `scrambles/`, with `--tables` pointing
//! into it, so that no table is ever written into the repository or the user's cache.

use crate::common::shell;
use assert_cmd::Command;
use std::path::{Path, PathBuf};

/// One command of the tour and the output the README shows for it.
struct Step {
    /// The README line of the `$ ` command (1-based), for failure messages.
    line: usize,
    /// The command as written in the README, without the `$ `.
    text: String,
    /// What `printf` feeds to standard input, if the command is piped.
    stdin: Option<String>,
    /// ksolve's arguments, without the program name.
    args: Vec<String>,
    /// The lines shown after the command, joined with newlines.
    expected: String,
}

/// The README's `console` blocks, cut into commands and their outputs.
fn tour(readme: &str) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut in_block = false;
    let mut current: Option<(Step, Vec<&str>)> = None;
    let mut finish = |current: &mut Option<(Step, Vec<&str>)>| {
        if let Some((mut step, lines)) = current.take() {
            step.expected = lines.join("\n");
            steps.push(step);
        }
    };
    for (i, line) in readme.lines().enumerate() {
        if !in_block {
            in_block = line == "```console";
            continue;
        }
        if line.starts_with("```") {
            finish(&mut current);
            in_block = false;
        } else if let Some(command) = line.strip_prefix("$ ") {
            finish(&mut current);
            let (stdin, args) = parse_command(command, i + 1);
            let step = Step {
                line: i + 1,
                text: command.to_string(),
                stdin,
                args,
                expected: String::new(),
            };
            current = Some((step, Vec::new()));
        } else {
            let (_, lines) = current
                .as_mut()
                .unwrap_or_else(|| panic!("README.md:{}: output before any `$ ` command", i + 1));
            lines.push(line);
        }
    }
    assert!(!in_block, "README.md: a ```console block is not closed");
    steps
}

/// Reads `ksolve ARGS` or `printf 'INPUT' | ksolve ARGS` into what to feed on standard
/// input and ksolve's arguments, as [`shell::split_feed`] reads a command: anything a
/// shell would do differently from this reading (variables, globs, redirections) is
/// refused, so that a README command runs here exactly as it would when pasted into a
/// shell.
fn parse_command(command: &str, line: usize) -> (Option<String>, Vec<String>) {
    // A `!` outside quotes is kept as a word's character, not refused.
    let (stdin, ksolve) = shell::split_feed("README.md", command, line, false);
    assert!(
        ksolve.first().map(String::as_str) == Some("ksolve"),
        "README.md:{line}: a tour command must run ksolve"
    );
    (stdin, ksolve[1..].to_vec())
}

/// Copies every file of the folder `from` into the new folder `to` (one level deep).
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// The subcommands that build or read cached tables, and so get `--tables`.
const CACHING: [&str; 5] = ["solve", "play", "stats", "chain", "scramble"];

/// Runs one step in `scratch` and returns a description of what differs, if anything.
fn run(step: &Step, scratch: &Path, tables: &Path) -> Option<String> {
    let mut cmd = Command::cargo_bin("ksolve").unwrap();
    cmd.current_dir(scratch)
        .args(&step.args)
        // A command that caches without taking `--tables` would write here, where the
        // test sees it, rather than into the user's cache folder.
        .env("XDG_CACHE_HOME", scratch.join("xdg"))
        .env("HOME", scratch);
    if CACHING.contains(&step.args[0].as_str()) {
        cmd.arg("--tables").arg(tables);
    }
    if let Some(input) = &step.stdin {
        cmd.write_stdin(input.as_bytes());
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The README block ends where the command's output ends, without the blank line that
    // follows each scramble's solutions.
    let printed = stdout.trim_end_matches('\n');
    if out.status.success() && printed == step.expected {
        return None;
    }
    Some(format!(
        "README.md:{}: `{}`\nexit status: {}\n--- the README shows:\n{}\n--- ksolve printed:\n{}\n--- stderr:\n{}",
        step.line,
        step.text,
        out.status,
        step.expected,
        printed,
        String::from_utf8_lossy(&out.stderr)
    ))
}

#[test]
fn every_tour_command_prints_what_the_readme_shows() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let steps = tour(&readme);

    // The tour the README promises: a cube from its colours, God's algorithm, an
    // algorithm hunt, a sliding puzzle and a game of `play`. Checking for each keeps
    // this test from passing on a README whose blocks were dropped or renamed.
    let has = |what: &dyn Fn(&Step) -> bool| steps.iter().any(what);
    let arg = |s: &Step, a: &str| s.args.iter().any(|x| x == a);
    assert!(
        has(&|s| s.args[0] == "solve" && arg(s, "--facelets")),
        "no solve --facelets"
    );
    assert!(has(&|s| s.args[0] == "god"), "no god");
    assert!(
        has(&|s| arg(s, "--moves") && arg(s, "--slack")),
        "no algorithm hunt"
    );
    assert!(has(&|s| arg(s, "puzzles/8puzzle.def")), "no sliding puzzle");
    assert!(
        has(&|s| s.args[0] == "play" && s.stdin.is_some()),
        "no game of play"
    );
    assert!(
        steps.iter().all(|s| !s.expected.is_empty()),
        "a command with no output shown"
    );

    let scratch = tempfile::tempdir().unwrap();
    copy_folder(&root.join("puzzles"), &scratch.path().join("puzzles"));
    copy_folder(&root.join("scrambles"), &scratch.path().join("scrambles"));
    let tables = scratch.path().join("tables-for-the-tour");
    let failures: Vec<String> = steps
        .iter()
        .filter_map(|s| run(s, scratch.path(), &tables))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(
        !scratch.path().join("xdg").exists() && !scratch.path().join(".cache").exists(),
        "a tour command wrote tables outside --tables"
    );
}

#[test]
fn commands_read_as_a_shell_reads_them() {
    assert_eq!(
        parse_command(r#"ksolve solve p.def --alg "R U R' U" --moves R,U"#, 1),
        (
            None,
            ["solve", "p.def", "--alg", "R U R' U", "--moves", "R,U"]
                .map(String::from)
                .to_vec()
        )
    );
    assert_eq!(
        parse_command(r"printf 'scramble 4\nhint\n' | ksolve play p.def", 1),
        (
            Some("scramble 4\nhint\n".to_string()),
            ["play", "p.def"].map(String::from).to_vec()
        )
    );
}

#[test]
#[should_panic(expected = "which a shell would expand")]
fn a_command_a_shell_would_expand_is_refused() {
    parse_command("ksolve solve p.def $SCRAMBLES", 1);
}

#[test]
fn blocks_are_cut_into_commands_and_outputs() {
    let readme = "text\n```console\n$ ksolve alg p.def order \"R U\"\n105\n$ ksolve god p.def\nMoves\n\nTotal\n```\n$ ksolve not in a block\n";
    let steps = tour(readme);
    assert_eq!(steps.len(), 2);
    assert_eq!((steps[0].line, steps[0].expected.as_str()), (3, "105"));
    assert_eq!(steps[1].args, ["god", "p.def"]);
    assert_eq!(steps[1].expected, "Moves\n\nTotal");
}
