//! The command line around the commands: a mistyped subcommand gets clap's suggestion,
//! the help texts show the ksolve+ forms and an example for every subcommand, and the
//! completion scripts and manual pages come from the same argument definitions.

/// Runs ksolve with `args`; returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, String, String) {
    crate::common::output(crate::common::ksolve().args(args))
}

/// Every subcommand path, nested ones included (`cache list`).
const SUBCOMMANDS: &[&[&str]] = &[
    &["check"],
    &["god"],
    &["solve"],
    &["cache"],
    &["cache", "list"],
    &["cache", "clear"],
    &["alg"],
    &["completions"],
    &["man"],
    &["merge"],
    &["play"],
];

#[test]
fn mistyped_subcommand_gets_a_suggestion() {
    let (code, out, err) = run(&["sovle", "x.def", "y.txt"]);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert!(err.contains("unrecognized subcommand 'sovle'"), "{err}");
    assert!(err.contains("similar subcommand exists: 'solve'"), "{err}");
    assert!(!err.contains("cannot read"), "{err}");
    // A word far from every subcommand is still a ksolve+ definition path.
    let (code, _, err) = run(&["/nonexistent/puzzle.def", "y.txt"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/puzzle.def"), "{err}");
    assert!(err.contains("cannot read"), "{err}");
    // A file called `sovle` in the working directory is what the user meant.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("sovle"), "not a definition\n").unwrap();
    let out = crate::common::ksolve()
        .current_dir(dir.path())
        .args(["sovle", "y.txt"])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("sovle:1:1:"), "{err}");
}

#[test]
fn top_level_help_shows_the_ksolve_plus_forms() {
    let (code, out, _) = run(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("ksolve PUZZLE.def SCRAMBLES.txt"), "{out}");
    assert!(out.contains("ksolve PUZZLE.def !q"), "{out}");
    assert!(out.contains("Examples:"), "{out}");
}

#[test]
fn every_subcommand_help_shows_an_example() {
    for path in SUBCOMMANDS {
        let mut args = path.to_vec();
        args.push("--help");
        let (code, out, _) = run(&args);
        assert_eq!(code, 0, "{path:?}");
        let (_, examples) = out
            .split_once("Examples:\n")
            .unwrap_or_else(|| panic!("no examples in `{}` help:\n{out}", path.join(" ")));
        let first = examples.lines().next().unwrap().trim_start();
        assert!(
            first.starts_with("ksolve ") || first.starts_with("cat "),
            "{path:?}: {first}"
        );
        // Each example names the command it documents.
        assert!(examples.contains(path[0]), "{path:?}: {examples}");
    }
}

#[test]
fn bash_completions_know_the_subcommands_and_flags() {
    let (code, out, _) = run(&["completions", "bash"]);
    assert_eq!(code, 0);
    assert!(out.contains("complete -F"), "{out}");
    for name in [
        "check",
        "god",
        "solve",
        "cache",
        "alg",
        "completions",
        "man",
    ] {
        assert!(out.contains(name), "{name} missing");
    }
    assert!(out.contains("--max-depth") && out.contains("--moves"));
    let (code, _, err) = run(&["completions", "tcsh"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn man_prints_roff_pages() {
    let (code, out, _) = run(&["man"]);
    assert_eq!(code, 0);
    assert!(out.starts_with(".ie") || out.starts_with(".TH"), "{out}");
    assert!(out.contains(".TH ksolve 1"), "{out}");
    assert!(
        out.contains(".SH NAME") && out.contains(".SH SUBCOMMANDS"),
        "{out}"
    );
    let (code, out, _) = run(&["man", "solve"]);
    assert_eq!(code, 0);
    assert!(out.contains(".TH ksolve-solve 1"), "{out}");
    assert!(out.contains("max\\-depth"), "{out}");
    let (code, _, err) = run(&["man", "sovle"]);
    assert_eq!(code, 2);
    assert!(err.contains("no subcommand `sovle`"), "{err}");
}
