use tidewater::harmonics::Constituent;
use tidewater::station::{Constant, Station};
use tidewater::units::Metres;

fn single_m2(amplitude: f64) -> Station {
    Station {
        name: "test".into(),
        latitude: 0.0,
        longitude: 0.0,
        mean_level: Metres(4.0),
        constituents: vec![Constant { constituent: Constituent::M2, amplitude: Metres(amplitude), phase_deg: 0.0 }],
    }
}

#[test]
fn heights_stay_within_mean_plus_minus_amplitude() {
    let station = single_m2(2.0);
    for p in tidewater::predict(&station, 0.0, 48) {
        assert!(p.height.0 <= 4.0 + 2.0 * 1.04 + 1e-9);
        assert!(p.height.0 >= 4.0 - 2.0 * 1.04 - 1e-9);
    }
}

#[test]
fn a_station_without_constituents_is_flat() {
    let mut station = single_m2(0.0);
    station.constituents.clear();
    assert!(tidewater::predict(&station, 100.0, 12).iter().all(|p| p.height == Metres(4.0)));
}
