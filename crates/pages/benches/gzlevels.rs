use std::io::Write;
fn main() {
    for f in ["/tmp/j8.json", "/tmp/j50.json"] {
        let data = std::fs::read(f).unwrap();
        for level in 1..=6 {
            let mut best = f64::MAX;
            let mut size = 0;
            for _ in 0..15 {
                let t = std::time::Instant::now();
                let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
                for c in data.chunks(1 << 16) { gz.write_all(c).unwrap(); }
                let out = gz.finish().unwrap();
                best = best.min(t.elapsed().as_secs_f64());
                size = out.len();
            }
            println!("{f} level {level}: {:.2} ms, {size} bytes", best * 1e3);
        }
    }
}
