use std::time::Instant;
use whistle_rules::{
    ActionList, Game, Options, Status, Variant,
    dealing::{self, Seed},
};
struct X(u64);
impl X {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (((x >> 32) * n as u64) >> 32) as usize
    }
}
fn main() {
    let fresh = Variant::Israeli
        .new_game(&Options::parse(&["hands=10000"]).unwrap())
        .unwrap();
    let mut g = fresh.clone();
    let mut rng = X(12345);
    let mut legal = ActionList::new();
    let mut seed = Seed::from_u64(1);
    let start = Instant::now();
    let mut hands = 0u64;
    while start.elapsed().as_secs_f64() < 8.0 {
        for _ in 0..256 {
            if g.is_over() {
                g = fresh.clone();
                seed = Seed::from_u64(rng.below(1 << 30) as u64);
            }
            dealing::deal_if_needed(&mut g, seed).unwrap();
            while g.status() == Status::Act {
                let to_act = g.to_act();
                let seat = if to_act.len() == 1 {
                    to_act.first().unwrap()
                } else {
                    to_act.iter().nth(rng.below(to_act.len())).unwrap()
                };
                legal.clear();
                g.legal_actions_into(seat, &mut legal);
                let a = legal[rng.below(legal.len())];
                g.apply(seat, a).unwrap();
            }
            hands += 1;
        }
    }
    println!(
        "{:.0} hands/s",
        hands as f64 / start.elapsed().as_secs_f64()
    );
}
