//! Shell commands read from the documentation, to be run without a shell.
//!
//! README.md's tour (tests/tour.rs) and the language reference docs/language.md
//! (tests/reference.rs) show commands as a user types them, `ksolve ARGS` or
//! `printf 'INPUT' | ksolve ARGS`, and their tests run each one and compare its output
//! with the page. Both read the commands here, the same way, so that a command runs
//! under test exactly as it would when pasted into a shell: the few forms the pages use
//! are read as a POSIX shell reads them, and anything a shell would read differently
//! (variables, globs, redirections) is refused rather than guessed at.
//!
//! Every function takes the `label` of the file the command comes from (`"README.md"`,
//! `"docs/language.md"`) and the command's line in it, and panics with
//! `LABEL:LINE: what is wrong`.

/// Panics with a message that names the file and line at fault.
fn fail(label: &str, line: usize, msg: &str) -> ! {
    panic!("{label}:{line}: {msg}")
}

/// Reads `COMMAND` or `printf 'INPUT' | COMMAND` into what `printf` feeds on standard
/// input, if anything, and the words of `COMMAND`, its program first; which program may
/// run is the caller's to check. `refuse_bang` is as for [`shell_words`].
pub fn split_feed(
    label: &str,
    command: &str,
    line: usize,
    refuse_bang: bool,
) -> (Option<String>, Vec<String>) {
    let mut words = shell_words(label, command, line, refuse_bang);
    match words.iter().position(|w| w == "|") {
        Some(bar) => {
            let rest = words.split_off(bar + 1);
            let feed = &words[..bar];
            if feed.len() != 2 || feed[0] != "printf" {
                fail(label, line, "only `printf '...' |` may feed a command");
            }
            (Some(printf(label, &feed[1], line)), rest)
        }
        None => (None, words),
    }
}

/// Splits a command into words as a POSIX shell would for the forms the pages use:
/// blanks separate words, single quotes keep everything, double quotes keep everything
/// but `\"` and `\\`, and a lone `|` is its own word. With `refuse_bang`, a `!` outside
/// quotes is refused too (an interactive shell may read it as a history expansion).
pub fn shell_words(label: &str, command: &str, line: usize, refuse_bang: bool) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' => words.extend(word.take()),
            '|' => {
                words.extend(word.take());
                words.push("|".to_string());
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => fail(label, line, "unclosed single quote"),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => w.push(c),
                            other => fail(label, line, &format!("escape `\\{other:?}` in quotes")),
                        },
                        Some(c @ ('$' | '`')) => {
                            fail(label, line, &format!("`{c}` in double quotes"))
                        }
                        Some(c) => w.push(c),
                        None => fail(label, line, "unclosed double quote"),
                    }
                }
            }
            '$' | '`' | '*' | '?' | ';' | '&' | '<' | '>' | '\\' | '~' | '(' | ')' | '!'
                if c != '!' || refuse_bang =>
            {
                fail(
                    label,
                    line,
                    &format!("`{c}` outside quotes, which a shell would expand"),
                )
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// What `printf FORMAT` prints, for formats with no `%` and no escape but `\n` and `\\`.
pub fn printf(label: &str, format: &str, line: usize) -> String {
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('\\') => out.push('\\'),
                other => fail(label, line, &format!("printf escape `\\{other:?}`")),
            },
            '%' => fail(label, line, "printf conversion `%`"),
            c => out.push(c),
        }
    }
    out
}
