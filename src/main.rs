//! The `urlint` command: everything it does is the library's application layer.

fn main() -> std::process::ExitCode {
    urlint::run_command_line()
}
