//! The `urlint` command: everything it does is the library's application layer.

/// mimalloc rather than the system allocator: the mail reader's many small
/// blocks, made and freed on every thread, cost a fifth of its time in
/// glibc's (docs/benchmarks.md, sixth pass, has the figures). Set here, so
/// the library and the Python module keep their host's allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    urlint::run_command_line()
}
