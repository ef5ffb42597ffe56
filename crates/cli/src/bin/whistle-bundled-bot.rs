//! The small bundled-bot program installed beside `whistle`:
//! `whistle-bundled-bot ARGS` runs what `whistle bot ARGS` runs (the same
//! arguments, help, errors and exit statuses), without loading the whole
//! `whistle` binary. A tournament starts it for a bot whose command is
//! `whistle bot ...` when it sits beside the running `whistle` and answers
//! the same build (`whistle_tournament::procs::bundled_bot`).

fn main() -> std::process::ExitCode {
    // As `whistle` does for every command, `whistle bot` included.
    let _ = whistle_sandbox::raise_open_files();
    whistle_bot::client::bundled_main()
}
