//! Charts as inline SVG, drawn with `plotters`.

use plotters::prelude::*;

/// One bot's rating after each of its matches: (match index, value,
/// uncertainty).
pub type Series = (String, Vec<(u64, f64, f64)>);

/// The CSS colour of series `i` (the same as its line).
pub fn color_css(i: usize) -> String {
    let RGBAColor(r, g, b, _) = Palette99::pick(i).to_rgba();
    format!("rgb({r},{g},{b})")
}

/// Ratings over matches, each bot a line with its uncertainty (± one
/// standard deviation) as a band: an SVG document.
pub fn ratings_svg(series: &[Series], width: u32, height: u32) -> String {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let _ = root.fill(&WHITE);
        let last = series
            .iter()
            .flat_map(|(_, p)| p.iter().map(|x| x.0))
            .max()
            .unwrap_or(1)
            .max(1);
        let (lo, hi) = series
            .iter()
            .flat_map(|(_, p)| p.iter().map(|x| (x.1 - x.2, x.1 + x.2)))
            .fold((f64::MAX, f64::MIN), |(a, b), (l, h)| (a.min(l), b.max(h)));
        let (lo, hi) = if lo < hi { (lo, hi) } else { (0.0, 1.0) };
        let mut chart = ChartBuilder::on(&root)
            .margin(10)
            .x_label_area_size(30)
            .y_label_area_size(40)
            .build_cartesian_2d(0u64..last, lo..hi)
            .expect("a chart");
        let _ = chart
            .configure_mesh()
            .x_desc("match")
            .y_desc("rating")
            .draw();
        for (i, (name, points)) in series.iter().enumerate() {
            let color = Palette99::pick(i);
            let band: Vec<(u64, f64)> = points
                .iter()
                .map(|p| (p.0, p.1 + p.2))
                .chain(points.iter().rev().map(|p| (p.0, p.1 - p.2)))
                .collect();
            let _ = chart.draw_series(std::iter::once(Polygon::new(band, color.mix(0.12))));
            let _ = chart
                .draw_series(LineSeries::new(
                    points.iter().map(|p| (p.0, p.1)),
                    color.stroke_width(2),
                ))
                .map(|s| s.label(name.clone()));
        }
        let _ = root.present();
    }
    svg
}
