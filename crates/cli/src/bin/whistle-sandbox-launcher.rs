//! The small sandbox launcher installed beside `whistle`: it runs the steps
//! of a bot's sandbox (`whistle-sandbox-launcher __sandbox run`, started by
//! `whistle`, which picks it with `whistle_sandbox::launcher_for`) without
//! loading the whole `whistle` binary for each.

fn main() {
    whistle_sandbox::launcher_main();
    eprintln!(
        "whistle-sandbox-launcher: the sandbox launcher `whistle` starts its bots through; not \
         a command of its own"
    );
    std::process::exit(2);
}
