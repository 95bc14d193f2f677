import ArgumentParser
import Foundation
import GeoFareCore
import GeoFareWorker

/// `geofare demo`: a worker session on the embedded default store, printed as a transcript.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run a scripted worker session on geofare.db and print each request and response.",
        discussion: "The same dispatcher as `geofare worker`, on the same SQLite file: opens three parties around Seoul City Hall, finds them, clusters them and prices a shared ride."
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var data: DataOptions

    static let script = [
        #"{"id":1,"op":"version"}"#,
        #"{"id":2,"op":"party.upsert","party":{"id":"demo-cityhall","origin":{"lat":37.5665,"lon":126.9780},"destination":{"lat":37.4979,"lon":127.0276},"depart_at":"2030-05-15T22:30:00+09:00","seats_total":4,"seats_taken":1,"attributes":{"note":"Gangnam station"}}}"#,
        #"{"id":3,"op":"party.upsert","party":{"id":"demo-gwanghwamun","origin":{"lat":37.5759,"lon":126.9769},"destination":{"lat":37.5133,"lon":127.1001},"depart_at":"2030-05-15T22:40:00+09:00","seats_total":4,"seats_taken":2}}"#,
        #"{"id":4,"op":"party.upsert","party":{"id":"demo-myeongdong","origin":{"lat":37.5636,"lon":126.9826},"destination":{"lat":37.2636,"lon":127.0286},"depart_at":"2030-05-15T23:10:00+09:00","seats_total":3,"seats_taken":1}}"#,
        #"{"id":5,"op":"nearby","center":{"lat":37.5665,"lon":126.9780},"radius_m":2000,"limit":5,"min_free_seats":1}"#,
        #"{"id":6,"op":"clusters","bbox":{"west":126.90,"south":37.50,"east":127.06,"north":37.62},"zoom":12}"#,
        #"{"id":7,"op":"fare","from":{"lat":37.5665,"lon":126.9780},"to":{"lat":37.4979,"lon":127.0276},"depart_at":"2030-05-15T22:30:00+09:00","party_size":3}"#,
        #"{"id":8,"op":"transform","from":"wgs84","to":"utmk","points":[[126.9780,37.5665]]}"#,
        #"{"id":9,"op":"stats"}"#,
    ]

    func run() throws {
        let dispatcher = WorkerDispatcher(pricer: try data.pricer(), parties: try store.service())
        print("# geofare demo on \(store.location): each request line (>) and the worker's response line (<)")
        for line in Self.script {
            print("> " + line)
            let response = Array(line.utf8).withUnsafeBytes { dispatcher.respond(toLine: $0) }
            print("< " + String(decoding: response.dropLast(), as: UTF8.self))
        }
    }
}
