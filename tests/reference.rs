//! The language reference, run: every example of docs/language.md is written to a
//! scratch folder, every command of its `console` blocks is run there, and what each
//! prints must be exactly what the page shows under it.
//!
//! The reference describes the definition and scramble languages by example, and an
//! example that no longer reads, or reads differently, would teach the wrong language.
//! So the examples are read from the page itself rather than copied here: editing the
//! page or the readers without the other fails this test. The page's conventions (also
//! explained at its top) are these:
//!
//! - a fenced block marked `def NAME` is saved as `NAME.def`, one marked
//!   `scramble NAME` as `NAME.txt`, all of them in one folder where the commands run;
//! - in a `console` block, a `$ ` line is a command (read by tests/common/shell.rs, as
//!   tests/tour.rs reads the README's: `ksolve ARGS`, optionally fed by `printf '...' |`)
//!   and the lines after it, up to the next command or the end of the block, are its
//!   standard output;
//! - a command ending in `2>&1` shows standard error too, interleaved as written, and one
//!   ending in `; echo $?` shows its exit code on a last line; any other command must
//!   exit with 0.
//!
//! Every example must be named by some command, so that none is shown without being
//! run, and every command word of the two languages must appear in some example, so
//! that a new command cannot go undocumented. Tables go into the scratch folder
//! (`--tables`), so that nothing is written into the repository or the user's cache.

use crate::common::shell;
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The page this test runs, relative to the repository's root.
const PAGE: &str = "docs/language.md";

/// A file that an example block of the page gives.
#[derive(Debug)]
struct Example {
    /// The page line of the block's opening fence (1-based), for failure messages.
    line: usize,
    /// The file's name: `NAME.def` or `NAME.txt`.
    file: String,
    /// The block's lines, each ended by a newline.
    text: String,
}

/// One command of a `console` block and what the page shows for it.
#[derive(Debug)]
struct Step {
    /// The page line of the `$ ` command (1-based).
    line: usize,
    /// The command as written, without the `$ `.
    text: String,
    /// What `printf` feeds to standard input, if the command is piped.
    stdin: Option<String>,
    /// ksolve's arguments, without the program name.
    args: Vec<String>,
    /// Whether standard error is shown with standard output (`2>&1`).
    merged: bool,
    /// Whether the exit code is shown on a last line (`; echo $?`).
    shows_code: bool,
    /// The lines shown after the command, joined with newlines.
    expected: String,
}

/// The examples and commands of a page.
#[derive(Debug)]
struct Page {
    examples: Vec<Example>,
    steps: Vec<Step>,
}

/// Panics with a message that names the page line at fault.
fn fail(line: usize, msg: &str) -> ! {
    panic!("{PAGE}:{line}: {msg}")
}

/// Reads the page's fenced blocks: `def` and `scramble` blocks into examples, `console`
/// blocks into commands with their outputs. Other blocks (plain, `text`) are prose.
fn read_page(page: &str) -> Page {
    let lines: Vec<&str> = page.lines().collect();
    let mut examples: Vec<Example> = Vec::new();
    let mut steps: Vec<Step> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(info) = lines[i].strip_prefix("```") else {
            i += 1;
            continue;
        };
        let open = i + 1;
        let end = (i + 1..lines.len())
            .find(|&j| lines[j].starts_with("```"))
            .unwrap_or_else(|| fail(open, "a fenced block is not closed"));
        let body = &lines[i + 1..end];
        let words: Vec<&str> = info.split_whitespace().collect();
        match words.as_slice() {
            [kind @ ("def" | "scramble"), rest @ ..] => {
                let [name] = rest else {
                    fail(
                        open,
                        "an example block needs one name: ```def NAME or ```scramble NAME",
                    )
                };
                if !name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                {
                    fail(
                        open,
                        &format!(
                            "`{name}`: an example's name is lower-case letters, digits and dashes"
                        ),
                    );
                }
                let ext = if *kind == "def" { "def" } else { "txt" };
                let file = format!("{name}.{ext}");
                if let Some(first) = examples.iter().find(|e| e.file == file) {
                    fail(
                        open,
                        &format!("`{file}` is given twice (first at line {})", first.line),
                    );
                }
                let text = body.iter().map(|l| format!("{l}\n")).collect();
                examples.push(Example {
                    line: open,
                    file,
                    text,
                });
            }
            ["console"] => steps.extend(console(body, open + 1)),
            _ => {}
        }
        i = end + 1;
    }
    Page { examples, steps }
}

/// Cuts the body of a `console` block, whose first line is page line `first`, into
/// commands and their outputs.
fn console(body: &[&str], first: usize) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    let mut outputs: Vec<Vec<&str>> = Vec::new();
    for (k, line) in body.iter().enumerate() {
        let no = first + k;
        if let Some(command) = line.strip_prefix("$ ") {
            steps.push(parse_step(command, no));
            outputs.push(Vec::new());
        } else {
            match outputs.last_mut() {
                Some(out) => out.push(line),
                None => fail(no, "output before any `$ ` command"),
            }
        }
    }
    for (step, out) in steps.iter_mut().zip(outputs) {
        step.expected = out.join("\n");
    }
    steps
}

/// Reads one command: its shell suffixes (`2>&1`, `; echo $?`), then what is left with
/// [`parse_command`].
fn parse_step(command: &str, line: usize) -> Step {
    let (rest, shows_code) = match command.strip_suffix("; echo $?") {
        Some(rest) => (rest.trim_end(), true),
        None => (command, false),
    };
    let (rest, merged) = match rest.strip_suffix(" 2>&1") {
        Some(rest) => (rest.trim_end(), true),
        None => (rest, false),
    };
    let (stdin, args) = parse_command(rest, line);
    Step {
        line,
        text: command.to_string(),
        stdin,
        args,
        merged,
        shows_code,
        expected: String::new(),
    }
}

/// Reads `ksolve ARGS` or `printf 'INPUT' | ksolve ARGS` into what to feed on standard
/// input and ksolve's arguments, as [`shell::split_feed`] reads a command: anything a
/// shell would read differently from this (variables, globs, other redirections) is
/// refused, so that a command of the page runs here exactly as it would when pasted
/// into a shell.
fn parse_command(command: &str, line: usize) -> (Option<String>, Vec<String>) {
    // A `!` outside quotes is refused too.
    let (stdin, ksolve) = shell::split_feed(PAGE, command, line, true);
    if ksolve.first().map(String::as_str) != Some("ksolve") || ksolve.len() < 2 {
        fail(line, "a command must run ksolve with arguments");
    }
    (stdin, ksolve[1..].to_vec())
}

/// The problems that keep the page from being a complete, tested reference: an example
/// that no command names (it would be shown but never run), a command that names a file
/// no example gives, and a command word of the languages that no example uses.
fn coverage(page: &Page, keywords: &[String]) -> Vec<String> {
    let mut problems = Vec::new();
    for e in &page.examples {
        if !page.steps.iter().any(|s| s.args.contains(&e.file)) {
            problems.push(format!(
                "{PAGE}:{}: no command uses `{}`; show at least `ksolve check` on it",
                e.line, e.file
            ));
        }
    }
    for s in &page.steps {
        for a in &s.args {
            let is_file = a.ends_with(".def") || a.ends_with(".txt");
            if is_file && !page.examples.iter().any(|e| &e.file == a) {
                problems.push(format!(
                    "{PAGE}:{}: `{a}` is no example of the page",
                    s.line
                ));
            }
        }
    }
    for k in keywords {
        // A command word counts where it starts a line, an option word anywhere on a
        // line that is not a comment.
        let option = OPTIONS.contains(&k.as_str());
        let used = page.examples.iter().any(|e| {
            e.text.lines().any(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                let comment = words.first().is_some_and(|w| w.starts_with('#'));
                if option {
                    !comment && words.contains(&k.as_str())
                } else {
                    words.first() == Some(&k.as_str())
                }
            })
        });
        if !used {
            problems.push(format!(
                "{PAGE}: no example uses `{k}`; every command of the languages has one"
            ));
        }
    }
    problems
}

/// The words of the languages that are not commands but options of one: `Move NAME
/// noinverse` and `Require SET POS LABELS never`.
const OPTIONS: [&str; 2] = ["noinverse", "never"];

/// The command words of both languages, as `src/puzzle/names.rs` lists them (the list
/// the readers refuse as names), with the words that start lines inside blocks and the
/// [`OPTIONS`].
fn keywords(names_rs: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for list in ["DEF_COMMANDS", "SCRAMBLE_COMMANDS"] {
        let start = names_rs
            .find(&format!("pub const {list}: &[&str] = &["))
            .unwrap_or_else(|| panic!("src/puzzle/names.rs: no `{list}` list"));
        let body = &names_rs[start..];
        let body = &body[body.find("= &[").unwrap() + 4..body.find("];").unwrap()];
        for line in body.lines() {
            // A comment may quote command words; only the entries count.
            let code = line.split("//").next().unwrap_or("");
            for (k, part) in code.split('"').enumerate() {
                if k % 2 == 1 && !out.iter().any(|w| w == part) {
                    out.push(part.to_string());
                }
            }
        }
    }
    assert!(
        out.iter().any(|w| w == "Solved") && out.iter().any(|w| w == "ScrambleAlg"),
        "src/puzzle/names.rs: the command lists did not read: {out:?}"
    );
    out.extend(["When", "Require"].map(String::from));
    out.extend(OPTIONS.map(String::from));
    out
}

/// The subcommands that build or read cached tables, and so get `--tables`.
const CACHING: [&str; 3] = ["solve", "play", "stats"];

/// Whether a command caches tables: one of [`CACHING`], or ksolve+'s `ksolve DEF
/// SCRAMBLES` (but not `ksolve DEF !`, God's algorithm, which keeps no table).
fn caches(args: &[String]) -> bool {
    CACHING.contains(&args[0].as_str())
        || (args[0].ends_with(".def") && args.get(1).is_some_and(|a| !a.starts_with('!')))
}

/// Everything in `file`, from its start, as text.
fn contents(file: &mut File) -> String {
    let mut bytes = Vec::new();
    file.rewind().unwrap();
    file.read_to_end(&mut bytes).unwrap();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Runs one step in `scratch` and returns a description of what differs, if anything.
fn run(step: &Step, scratch: &Path, tables: &Path) -> Option<String> {
    let mut cmd = Command::new(crate::common::bin());
    cmd.current_dir(scratch)
        .args(&step.args)
        // A command that caches without taking `--tables` would write here, where the
        // test sees it, rather than into the user's cache folder.
        .env("XDG_CACHE_HOME", scratch.join("xdg"))
        .env("HOME", scratch);
    if caches(&step.args) {
        cmd.arg("--tables").arg(tables);
    }
    // Both streams go to files: with `2>&1` to one file through two handles of one open
    // file, which keeps the writes in the order they were made, as a shell's `2>&1` does.
    let mut stdout = tempfile::tempfile().unwrap();
    let mut stderr = tempfile::tempfile().unwrap();
    let err_handle = if step.merged { &stdout } else { &stderr };
    cmd.stdout(stdout.try_clone().unwrap())
        .stderr(err_handle.try_clone().unwrap())
        .stdin(if step.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let mut child = cmd.spawn().unwrap();
    if let Some(input) = &step.stdin {
        let mut pipe = child.stdin.take().unwrap();
        pipe.write_all(input.as_bytes()).unwrap();
    }
    let status = child.wait().unwrap();
    let mut printed = contents(&mut stdout);
    let code = status
        .code()
        .map_or_else(|| format!("{status}"), |c| c.to_string());
    if step.shows_code {
        printed.push_str(&code);
        printed.push('\n');
    }
    // The block ends where the transcript ends, without the blank line that follows
    // each scramble's solutions.
    let printed = printed.trim_end_matches('\n');
    if (step.shows_code || status.success()) && printed == step.expected {
        return None;
    }
    Some(format!(
        "{PAGE}:{}: `{}`\nexit status: {code}\n--- the page shows:\n{}\n--- ksolve printed:\n{}\n--- stderr (unless shown above):\n{}",
        step.line,
        step.text,
        step.expected,
        printed,
        contents(&mut stderr)
    ))
}

#[test]
fn every_example_of_the_reference_prints_what_the_page_shows() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let page = read_page(&std::fs::read_to_string(root.join(PAGE)).unwrap());
    let names_rs = std::fs::read_to_string(root.join("src/puzzle/names.rs")).unwrap();
    // Gaps in coverage are reported with the commands' failures, so that one run shows
    // everything that is wrong with the page.
    let mut problems = coverage(&page, &keywords(&names_rs));

    let scratch = tempfile::tempdir().unwrap();
    for e in &page.examples {
        std::fs::write(scratch.path().join(&e.file), &e.text).unwrap();
    }
    let tables = scratch.path().join("tables-for-the-reference");
    problems.extend(
        page.steps
            .iter()
            .filter_map(|s| run(s, scratch.path(), &tables)),
    );
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    assert!(
        !scratch.path().join("xdg").exists() && !scratch.path().join(".cache").exists(),
        "a command of the reference wrote tables outside --tables"
    );
}

#[test]
fn pages_are_cut_into_examples_and_commands() {
    let page = "text\n```def ring\nSet RING 4 1\n```\n```scramble ring-twice\nScrambleAlg two\nT2\nEnd\n```\n```console\n$ ksolve check ring.def ring-twice.txt 2>&1; echo $?\nsets: 1\n\n0\n$ ksolve alg ring.def show \"T\"\nRING\n```\n```text\n$ not a command\n```\n";
    let p = read_page(page);
    let files: Vec<&str> = p.examples.iter().map(|e| e.file.as_str()).collect();
    assert_eq!(files, ["ring.def", "ring-twice.txt"]);
    assert_eq!(p.examples[1].text, "ScrambleAlg two\nT2\nEnd\n");
    assert_eq!(p.steps.len(), 2);
    let s = &p.steps[0];
    assert_eq!(s.args, ["check", "ring.def", "ring-twice.txt"]);
    assert!(s.merged && s.shows_code);
    assert_eq!((s.line, s.expected.as_str()), (11, "sets: 1\n\n0"));
    assert_eq!(p.steps[1].args, ["alg", "ring.def", "show", "T"]);
    assert!(!p.steps[1].merged && !p.steps[1].shows_code);
}

#[test]
fn an_example_no_command_runs_is_reported() {
    let page = read_page(
        "```def used\nSet A 2 1\n```\n```def unused\nSet A 2 1\n```\n```console\n$ ksolve check used.def missing.txt\n```\n",
    );
    let words = ["Set", "Move", "noinverse"].map(String::from);
    let problems = coverage(&page, &words);
    assert_eq!(problems.len(), 4, "{problems:?}");
    assert!(problems[0].contains("no command uses `unused.def`"));
    assert!(problems[1].contains("`missing.txt` is no example"));
    assert!(problems[2].contains("no example uses `Move`"));
    assert!(problems[3].contains("no example uses `noinverse`"));
}

#[test]
fn the_command_words_are_read_from_the_readers_list() {
    let names_rs = "pub const DEF_COMMANDS: &[&str] = &[\n    \"Name\",\n    // \"Quoted\" in a comment.\n    \"Solved\",\n];\npub const SCRAMBLE_COMMANDS: &[&str] = &[\"ScrambleAlg\", \"MaxDepth\"];\n";
    assert_eq!(
        keywords(names_rs),
        [
            "Name",
            "Solved",
            "ScrambleAlg",
            "MaxDepth",
            "When",
            "Require",
            "noinverse",
            "never"
        ]
    );
}

#[test]
#[should_panic(expected = "which a shell would expand")]
fn a_command_a_shell_would_expand_is_refused() {
    parse_step("ksolve check ru.def > out.txt", 1);
}
