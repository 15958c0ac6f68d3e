//! `ksolve completions SHELL` and `ksolve man [SUBCOMMAND]`: shell completion scripts
//! (clap_complete) and roff manual pages (clap_mangen), both generated at run time from
//! the same clap definitions that parse the arguments, so they cannot drift from them
//! and need no build script.

use super::output;
use super::{Cli, EXIT_OK};
use clap::CommandFactory;
use std::io::Write;

/// Arguments of `ksolve completions`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  ksolve completions bash > ~/.local/share/bash-completion/completions/ksolve
  ksolve completions zsh > ~/.zfunc/_ksolve
  ksolve completions fish > ~/.config/fish/completions/ksolve.fish")]
pub struct CompletionsArgs {
    /// The shell to write a completion script for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Arguments of `ksolve man`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  ksolve man > ksolve.1 && man ./ksolve.1      the main page
  ksolve man solve | man -l -                  the page of `ksolve solve`")]
pub struct ManArgs {
    /// The subcommand whose page to print (default: the main page, which lists them).
    pub subcommand: Option<String>,
}

/// Writes the completion script for `args.shell` to standard output.
pub fn completions(args: CompletionsArgs) -> anyhow::Result<u8> {
    let mut cmd = Cli::command();
    // clap_complete panics when its writer fails, so the script is made in memory and
    // written here, where a full disk or a closed pipe is an error like any other.
    let mut bytes = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "ksolve", &mut bytes);
    let mut out = output::stdout();
    out.write_all(&bytes)?;
    out.flush()?;
    Ok(EXIT_OK)
}

/// Writes a manual page, in roff, to standard output.
pub fn man(args: ManArgs) -> anyhow::Result<u8> {
    // Built as clap_mangen builds pages for files, so that a subcommand's page is
    // titled `ksolve-solve` and its synopsis reads `ksolve solve`.
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let page = match &args.subcommand {
        None => cmd,
        Some(name) => match cmd.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => {
                let names: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).collect();
                anyhow::bail!(
                    "no subcommand `{name}`: expected one of {}",
                    names.join(", ")
                );
            }
        },
    };
    let mut bytes = Vec::new();
    clap_mangen::Man::new(page).render(&mut bytes)?;
    let mut out = output::stdout();
    out.write_all(&bytes)?;
    out.flush()?;
    Ok(EXIT_OK)
}
