//! Plays N uniform-random hands of one game, as the `playouts` bench does
//! (a seeded deal, then a random legal action through the checked
//! `Game::apply` while the hand lasts), and prints the hands, the actions
//! and a checksum of the choices. Made to be counted under callgrind, where
//! instruction counts repeat from run to run on a shared machine:
//!
//! ```sh
//! cargo build --release -p whistle-rules --example random_hands
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \
//!     target/release/examples/random_hands israeli 20000
//! ```
//!
//! Instructions per hand: the difference of two runs (say 10,000 and
//! 20,000 hands) over the difference in hands, which cancels the start-up.

use whistle_rules::{
    ActionList, Game, Options, Status, Variant,
    dealing::{self, Seed},
};

/// xorshift64*, as in the bench.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (((x >> 32) * n as u64) >> 32) as usize
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant: Variant = args
        .get(1)
        .map_or("israeli", String::as_str)
        .parse()
        .expect("a game name");
    let hands: u64 = args
        .get(2)
        .map_or(Ok(10_000), |n| n.parse())
        .expect("a number of hands");
    let options = Options::parse(&["hands=10000"]).expect("valid options");
    let fresh = variant.new_game(&options).expect("valid options");
    let mut game = fresh.clone();
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut seed = Seed::from_u64(1);
    let mut legal = ActionList::new();
    let (mut actions, mut check) = (0u64, 0u64);
    for _ in 0..hands {
        if game.is_over() {
            game = fresh.clone();
            seed = Seed::from_u64(rng.below(1 << 30) as u64);
        }
        dealing::deal_if_needed(&mut game, seed).expect("a deal");
        while game.status() == Status::Act {
            let to_act = game.to_act();
            let seat = if to_act.len() == 1 {
                to_act.first().expect("a seat")
            } else {
                to_act.iter().nth(rng.below(to_act.len())).expect("a seat")
            };
            legal.clear();
            game.legal_actions_into(seat, &mut legal);
            let i = rng.below(legal.len());
            check = check.wrapping_mul(31).wrapping_add(i as u64);
            game.apply(seat, legal[i]).expect("a legal action");
            actions += 1;
        }
    }
    println!("{variant}: {hands} hands, {actions} actions, checksum {check:016x}");
}
