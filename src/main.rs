//! The `ksolve` binary: everything lives in the library and in `cli`; this only hands
//! over the process arguments and turns the outcome into an exit code.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
