//! `prospector`: subcommands only; the work is in the library.

fn main() -> std::process::ExitCode {
    prospector::main()
}
