//! `prospector`: subcommands only; the work is in the library.

/// Request threads allocate and free many small blocks (rows, JSON); glibc's allocator spent a
/// fifth of a request's CPU in `malloc_consolidate` and arena locks (docs/performance.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    prospector::main()
}
