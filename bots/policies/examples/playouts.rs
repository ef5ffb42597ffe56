//! Plays N playouts of one dealt Israeli Whist hand, each from a copy of
//! the dealt state, with the policy named (`random`, `heuristic`, or
//! `heuristic-observation`: the heuristic deciding on an observation built
//! without the history at each decision, as playouts did before it read the
//! game's views), and prints the decisions and the values' sum. Made to be
//! counted under callgrind, where instruction counts repeat on a shared
//! machine:
//!
//! ```sh
//! cargo build --release -p whistle-policies --example playouts
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/playouts heuristic 2000
//! ```
//!
//! Instructions per playout: the difference of two runs over the
//! difference in playouts, which cancels the start-up.

use whistle_policies::{
    Bot, HeuristicBot,
    playout::{Rollout, hand_value, play_out},
};
use whistle_rules::{
    ActionList, Game, Options, Status, Variant,
    dealing::{self, Seed, Shuffler},
};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let policy = args.get(1).map_or("heuristic", String::as_str);
    let n: u64 = args
        .get(2)
        .map_or(Ok(1_000), |n| n.parse())
        .expect("a number of playouts");
    let mut game = Variant::Israeli
        .new_game(&Options::new())
        .expect("valid options");
    dealing::deal_if_needed(&mut game, Seed::from_u64(7)).expect("a deal");
    let deal = game.deals() - 1;
    let me = game.to_act().first().expect("a seat to act");
    let mut rng = Shuffler::new(Seed::from_u64(1));
    let (mut decisions, mut sum) = (0u64, 0.0);
    let mut legal = ActionList::new();
    for _ in 0..n {
        let mut world = game.clone();
        decisions += u64::from(match policy {
            "random" => play_out(&mut world, deal, Rollout::Random, &mut rng),
            "heuristic" => play_out(&mut world, deal, Rollout::Heuristic, &mut rng),
            _ => {
                let mut made = 0;
                while world.status() == Status::Act && world.deals() == deal + 1 {
                    let seat = world.to_act().first().expect("a seat");
                    legal.clear();
                    world.append_legal(seat, &mut legal);
                    let i = HeuristicBot.choose(&world.observe_without_history(seat), &legal);
                    world.apply_unchecked(seat, legal[i]);
                    made += 1;
                }
                made
            }
        });
        sum += hand_value(&world, me, deal);
    }
    println!("{policy}: {n} playouts, {decisions} decisions, values {sum}");
}
