//! The `urlint` command: parses arguments, calls the library, sets the exit code.

fn main() {
    eprintln!("urlint: no command yet");
    std::process::exit(2);
}
