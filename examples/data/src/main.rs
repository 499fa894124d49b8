use std::process::ExitCode;

use tidewater::station::Catalogue;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(command) = args.first() else {
        eprintln!("usage: tidewater <predict|stations> [options]");
        return ExitCode::from(2);
    };
    let catalogue = match Catalogue::load("config/stations.yaml") {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cannot load stations: {e}");
            return ExitCode::FAILURE;
        }
    };
    match command.as_str() {
        "predict" => {
            let name = flag(&args, "--station").unwrap_or("brest");
            let hours = flag(&args, "--hours").and_then(|h| h.parse().ok()).unwrap_or(24);
            let Some(station) = catalogue.find(name) else {
                eprintln!("unknown station {name:?}");
                return ExitCode::FAILURE;
            };
            for p in tidewater::predict(station, 0.0, hours) {
                println!("{:>6.1} h  {:>6.2} m", p.hour, p.height.0);
            }
            ExitCode::SUCCESS
        }
        "stations" => {
            for s in catalogue.iter() {
                println!("{:<20} {:>8.3} {:>8.3}", s.name, s.latitude, s.longitude);
            }
            ExitCode::SUCCESS
        }
        other => {
            eprintln!("unknown command {other:?}");
            ExitCode::from(2)
        }
    }
}

fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map(String::as_str)
}
