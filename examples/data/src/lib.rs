//! Tide prediction from harmonic constituents.
//!
//! The entry point is [`predict`]: given a station and a time range it
//! returns one height per step.

pub mod harmonics;
pub mod station;
pub mod units;

use harmonics::{Constituent, NodalCorrection};
use station::Station;
use units::Metres;

/// A predicted water level at one instant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prediction {
    /// Hours since the start of the range.
    pub hour: f64,
    /// Height above chart datum.
    pub height: Metres,
}

/// Predicts `hours` hourly heights for `station`, starting at `start_hour`
/// hours after 1900-01-01T00:00Z (the epoch of the astronomical arguments).
pub fn predict(station: &Station, start_hour: f64, hours: usize) -> Vec<Prediction> {
    let corrections: Vec<NodalCorrection> = station
        .constituents
        .iter()
        .map(|c| harmonics::nodal_correction(c.constituent, start_hour))
        .collect();
    (0..hours)
        .map(|step| {
            let t = step as f64;
            let height = station.mean_level.0
                + station
                    .constituents
                    .iter()
                    .zip(&corrections)
                    .map(|(c, n)| term(c.constituent, c.amplitude.0, c.phase_deg, n, t))
                    .sum::<f64>();
            Prediction { hour: t, height: Metres(height) }
        })
        .collect()
}

fn term(constituent: Constituent, amplitude: f64, phase_deg: f64, n: &NodalCorrection, t: f64) -> f64 {
    let speed = constituent.speed_deg_per_hour();
    let angle = speed * t + n.v0_plus_u_deg - phase_deg;
    n.f * amplitude * angle.to_radians().cos()
}
