//! The sandbox launcher on its own (`whistle` is one too): the crate's tests
//! start bots through it.

fn main() {
    whistle_sandbox::launcher_main();
    eprintln!("whistle-sandbox: a launcher, started by whistle as `whistle-sandbox __sandbox run`");
    std::process::exit(2);
}
